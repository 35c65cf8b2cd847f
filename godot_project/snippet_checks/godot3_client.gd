extends SceneTree
## Runs the README's godot3_client snippet against a real Godot 3 server
## (tests/peers/godot3_server.gd --mode=tcp, which echoes each value with its own put_var):
##   godot --headless --path godot_project -s res://snippet_checks/godot3_client.gd -- --port=N

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()
var node: Node
var deadline := 0


func _initialize() -> void:
	var port := 47400
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--port="):
			port = int(a.trim_prefix("--port="))
	node = Lib.snippet("godot3_client").new()
	node.port = port
	root.add_child(node)
	deadline = Time.get_ticks_msec() + 20000


func _process(_delta: float) -> bool:
	if node.replies.size() < 2 and Time.get_ticks_msec() < deadline:
		return false
	t.check(node.replies.size() == 2, "the server echoed both values", str(node.replies))
	if node.replies.size() == 2:
		t.check(var_to_bytes(node.replies[0]) == var_to_bytes({"hello": "from Godot 4", "pos": Vector2(1, 2)}),
				"the Dictionary came back intact", str(node.replies[0]))
		t.check(node.replies[1] is int and node.replies[1] == 42, "the int came back intact", str(node.replies[1]))
	# The server's protocol ends with its end marker.
	node.stream.put_var(node.tcp, "__fvc_end__")
	node.tcp.disconnect_from_host()
	node.queue_free()
	quit(t.finish("godot3_client"))
	return true

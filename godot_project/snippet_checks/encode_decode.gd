extends SceneTree
## Runs the README's encode_decode snippet (its _ready, once in the tree) and checks what it
## decoded.

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()
var node: Node


func _initialize() -> void:
	node = Lib.snippet("encode_decode").new()
	root.add_child(node)


func _process(_delta: float) -> bool:
	t.check(node.decoded is Dictionary and node.decoded == {"hp": 10, "pos": Vector3(1, 2, 3)},
			"the snippet decoded what it encoded", str(node.decoded))
	node.queue_free()
	quit(t.finish("encode_decode"))
	return true

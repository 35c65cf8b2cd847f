extends SceneTree
## Godot 4.6's hang at quit after a WorkerThreadPool group, with no extension loaded.
##   godot --headless --path DIR -s exit_repro.gd -- [--way=none|high|drain|one-task] [--quit=initialize|process]
## One group of 32 low-priority tasks (the default), each making and dropping objects and calling
## var_to_bytes / bytes_to_var; then quit. Prints "done" before quitting: an engine still running
## seconds after that line hangs at quit (the main thread waits in
## WorkerThreadPool::exit_languages_threads for an idle worker that is never counted).
## --way=high posts the group as high priority; --way=drain runs one low-priority task to its
## end after the group: the two ways around (docs/gdscript.md, "Threads"). --way=one-task posts
## the group as one low-priority task, so that none of its tasks can still wait in the queue when
## the group is complete: the condition the hang needs, taken away.

var way := "none"
var quit_from := "initialize"
var frames := 0


func churn(index: int) -> void:
	var records := []
	for r in 40:
		records.append({"id": r, "name": "unit_%d" % (r % 5), "hp": 0.5 * r})
	for round in 60:
		var c := RefCounted.new()
		if (index + round) % 2 == 1:
			c.set_meta("g3", true)
		var b: PackedByteArray = var_to_bytes(records)
		var _back = bytes_to_var(b)


func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--way="):
			way = arg.trim_prefix("--way=")
		elif arg.begins_with("--quit="):
			quit_from = arg.trim_prefix("--quit=")
	var tasks := 1 if way == "one-task" else -1
	var group := WorkerThreadPool.add_group_task(churn, 32, tasks, way == "high")
	WorkerThreadPool.wait_for_group_task_completion(group)
	if way == "drain":
		# Queued behind the group's tasks that are still waiting for a low-priority slot: when it
		# has run, none is left in the queue.
		WorkerThreadPool.wait_for_task_completion(WorkerThreadPool.add_task(func() -> void: pass))
	if quit_from == "initialize":
		print("done")
		quit(0)


func _process(_delta: float) -> bool:
	frames += 1
	if quit_from == "process" and frames == 2:
		print("done")
		quit(0)
	return false

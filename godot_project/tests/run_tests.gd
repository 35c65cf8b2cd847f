extends SceneTree
## Headless test runner: godot --headless --path godot_project -s res://tests/run_tests.gd [-- FILE...]
## Runs every res://tests/test_*.gd (each has `func run(ctx)`), or only the FILEs named after
## `--` (e.g. `test_hostile.gd`; a name that is not a test file counts as a failure), prints one line per failing check
## (at most ctx.MAX_DETAILS per file), then exactly one final line "N passed, N failed", and quits
## with 0 when nothing failed, 1 otherwise. GDScript runtime errors raised by the test scripts
## count as failures too (a runtime error silently aborts the function it happens in).

const Ctx := preload("res://tests/lib/ctx.gd")
const TEST_DIR := "res://tests"


## Sees GDScript errors (script_error_count) reported while the tests run.
class ScriptErrorWatch extends Logger:
	var mutex := Mutex.new()
	var errors: PackedStringArray = PackedStringArray()

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
		if error_type == ERROR_TYPE_SCRIPT or (file.begins_with("res://") and error_type != ERROR_TYPE_WARNING):
			mutex.lock()
			errors.append("%s:%d %s %s" % [file, line, code, rationale])
			mutex.unlock()

	func _log_message(message: String, error: bool) -> void:
		pass

	func take() -> PackedStringArray:
		mutex.lock()
		var out := errors
		errors = PackedStringArray()
		mutex.unlock()
		return out


func _initialize() -> void:
	var code := run_all()
	quit(code)


func run_all() -> int:
	var passed := 0
	var failed := 0
	if not ClassDB.class_exists(&"FastVarCodec"):
		print("FAIL run_tests.gd: class FastVarCodec is not registered (is the extension built and listed in .godot/extension_list.cfg?)")
		print("0 passed, 1 failed")
		return 1
	var watch := ScriptErrorWatch.new()
	OS.add_logger(watch)
	var files: Array = []
	for f in DirAccess.get_files_at(TEST_DIR):
		if f.begins_with("test_") and f.ends_with(".gd"):
			files.append(f)
	files.sort()
	var only := OS.get_cmdline_user_args()
	if not only.is_empty():
		for name in only:
			if not name in files:
				print("FAIL run_tests.gd: no test file %s in %s" % [name, TEST_DIR])
				failed += 1
		files = files.filter(func(f): return f in only)
	var t_all := Time.get_ticks_msec()
	for f in files:
		var ctx := Ctx.new(f)
		ctx.tree = self
		var t0 := Time.get_ticks_msec()
		var script = load(TEST_DIR.path_join(f))
		if script == null or not (script is Script) or not script.can_instantiate():
			ctx.check(false, "cannot load the test script (parse error? see the log)")
		else:
			var test = script.new()
			if not test.has_method("run"):
				ctx.check(false, "has no run(ctx) method")
			else:
				test.run(ctx)
				ctx.check(ctx.finished, "run() did not reach its end (a runtime error aborted it; see the log)")
		var errs := watch.take()
		for i in errs.size():
			ctx.check(false, "GDScript error: " + errs[i])
		passed += ctx.passed
		failed += ctx.failed
		print("-- %s: %d checks passed, %d failed (%.1f s, %d objects alive)" % [f, ctx.passed, ctx.failed,
				(Time.get_ticks_msec() - t0) / 1000.0, Performance.get_monitor(Performance.OBJECT_COUNT)])
	OS.remove_logger(watch)
	print("-- %d test files in %.1f s" % [files.size(), (Time.get_ticks_msec() - t_all) / 1000.0])
	print("%d passed, %d failed" % [passed, failed])
	return 0 if failed == 0 else 1

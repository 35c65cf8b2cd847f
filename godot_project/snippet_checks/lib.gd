extends RefCounted
## Shared by the snippet checks: counts checks, and sees engine errors a snippet reports
## (push_error / push_warning), which count as failures.

var passed := 0
var failed := 0
var logger := ErrorLog.new()


class ErrorLog extends Logger:
	var mutex := Mutex.new()
	var lines := PackedStringArray()

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
		mutex.lock()
		lines.append("%s:%d %s %s" % [file, line, code, rationale])
		mutex.unlock()

	func _log_message(message: String, error: bool) -> void:
		pass


func _init() -> void:
	OS.add_logger(logger)


func check(cond: bool, what: String, detail := "") -> bool:
	if cond:
		passed += 1
	else:
		failed += 1
		print("FAIL %s%s" % [what, (" -- " + detail) if detail != "" else ""])
	return cond


## The engine errors and warnings reported so far, forgotten (for a check that expects them).
func take_logged() -> PackedStringArray:
	logger.mutex.lock()
	var lines := logger.lines
	logger.lines = PackedStringArray()
	logger.mutex.unlock()
	return lines


## Checks that nothing was reported, prints the tally and returns the exit code.
func finish(name: String) -> int:
	logger.mutex.lock()
	var errors := logger.lines
	logger.mutex.unlock()
	check(errors.is_empty(), "%s reported no error" % name, "; ".join(errors))
	OS.remove_logger(logger)
	print("%d passed, %d failed" % [passed, failed])
	return 0 if failed == 0 else 1


## The script of snippet `name`, as tests/run_snippets.sh extracted it.
static func snippet(name: String) -> GDScript:
	return load("res://snippets/%s.gd" % name)

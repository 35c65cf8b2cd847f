extends RefCounted
## The checks of the Saves dock test's Godot 4 parts (dock_test/dock_test.gd, read_back.gd):
## one line each, PASS or FAIL, then "N passed, N failed".

var passed := 0
var failed := 0


func check(ok: bool, what: String) -> bool:
	if ok:
		passed += 1
		print("PASS " + what)
	else:
		failed += 1
		print("FAIL " + what)
	return ok


## Prints the result line; the exit code: 1 when a check failed or none ran.
func finish() -> int:
	print("%d passed, %d failed" % [passed, failed])
	return 1 if failed > 0 or passed == 0 else 0

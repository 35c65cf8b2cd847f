# Counts checks into the "N passed, N failed" line every test runner ends with (tests/lib.sh reads
# it); each failure is a "FAIL ..." line.
extends Reference

var passed = 0
var failed = 0
var label = ""   # said before each failure, when not empty


func check(ok, what, detail = ""):
	if ok:
		passed += 1
	else:
		failed += 1
		var where = "" if label == "" else label + ": "
		print("FAIL %s%s%s" % [where, what, "" if detail == "" else " -- " + detail])
	return ok


func add(other):
	passed += other.passed
	failed += other.failed


func summary():
	return "%d passed, %d failed" % [passed, failed]

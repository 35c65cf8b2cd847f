# A Godot 3 game's save, as a game writes and reads it: one Dictionary stored with store_var in
# a file opened with File.open_encrypted_with_pass.
#   --make=PATH --password=PW            writes the save
#   --check=PATH --password=PW --gold=N  reads it with get_var and checks that gold is N and the
#                                        rest is as made; prints "N passed, N failed", exits 1 on
#                                        a failure
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")


func game_save(gold):
	return {
		"player": "Ada",
		"gold": gold,
		"level": 3,
		"position": Vector2(4.5, -2.25),
		"inventory": ["sword", "potion"],
		"flags": PoolIntArray([1, 0, 1]),
	}


func _init():
	var a = Cli.args()
	var f = File.new()
	if a.has("make"):
		var err = f.open_encrypted_with_pass(a["make"], File.WRITE, a["password"])
		if err != OK:
			printerr("open for writing: %d" % err)
			quit(1)
			return
		f.store_var(game_save(120))
		f.close()
		print("made %s" % a["make"])
		quit(0)
		return
	var passed = 0
	var failed = 0
	var err = f.open_encrypted_with_pass(a["check"], File.READ, a["password"])
	if err != OK:
		print("FAIL open_encrypted_with_pass: %d" % err)
		print("0 passed, 1 failed")
		quit(1)
		return
	var got = f.get_var()
	var at_end = f.get_position() == f.get_len()
	f.close()
	var want = game_save(int(a["gold"]))
	var checks = {
		"a Dictionary": got is Dictionary,
		"the same keys in order": got is Dictionary and got.keys() == want.keys(),
		"gold": got is Dictionary and typeof(got.get("gold")) == TYPE_INT and got.get("gold") == want["gold"],
		"the rest unchanged": got is Dictionary and var2str(got) == var2str(want),
		"the file ends after it": at_end,
	}
	for what in checks:
		if checks[what]:
			passed += 1
		else:
			failed += 1
			print("FAIL %s: got %s" % [what, var2str(got)])
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)

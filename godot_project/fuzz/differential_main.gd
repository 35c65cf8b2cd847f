extends SceneTree
## Differential fuzzing from the command line (differential.gd says what is compared);
## tests/fuzz_differential.sh runs it. One of:
##   -- godot4 COUNT SEED            COUNT inputs in the Godot 4 dialect against this engine
##   -- mutate3 BASES OUT COUNT SEED COUNT mutated inputs made from a Godot 3 engine's encodings
##                                   (records in BASES), written to OUT
##   -- compare3 INPUTS RESULTS      FastVarCodec (DIALECT_GODOT_3) against the Godot 3 engine's
##                                   RESULTS for INPUTS
##   -- text COUNT SEED              COUNT mutated texts read by this engine's str_to_var and by
##                                   FastVarCodec.str_to_var (text_differential.gd)
## Prints progress, the first disagreements, a "differential: ..." summary, then
## "N passed, N failed" (one check per input: passed when both sides agree).

const Differential := preload("res://fuzz/differential.gd")
const TextDifferential := preload("res://fuzz/text_differential.gd")


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var mode := args[0] if not args.is_empty() else ""
	var code := 2
	match mode:
		"godot4" when args.size() == 3:
			code = godot4(args[1].to_int(), args[2].to_int())
		"mutate3" when args.size() == 5:
			code = mutate3(args[1], args[2], args[3].to_int(), args[4].to_int())
		"compare3" when args.size() == 3:
			code = compare3(args[1], args[2])
		"text" when args.size() == 3:
			code = text(args[1].to_int(), args[2].to_int())
		_:
			printerr("usage: -s res://fuzz/differential_main.gd -- godot4 COUNT SEED | mutate3 BASES OUT COUNT SEED | compare3 INPUTS RESULTS | text COUNT SEED")
	quit(code)


func godot4(count: int, seed_value: int) -> int:
	var d := Differential.new(seed_value)
	var t0 := Time.get_ticks_msec()
	var step := 100000
	var done := 0
	while done < count:
		var n := mini(step, count - done)
		d.run_godot4(n)
		done += n
		if count > step:
			print("differential: %d / %d inputs, %d disagreements, %d s" % [
					done, count, d.stats.disagreements, (Time.get_ticks_msec() - t0) / 1000])
	return report(d, "Godot %s, DIALECT_GODOT_4, seed %d" % [Engine.get_version_info().string, seed_value], t0)


func mutate3(bases_path: String, out: String, count: int, seed_value: int) -> int:
	var d := Differential.new(seed_value)
	var bases := Differential.read_records(bases_path)
	if bases.is_empty():
		printerr("differential_main.gd: no encodings in %s" % bases_path)
		return 1
	var err := Differential.write_records(out, d.mutate_all(bases, count))
	if err != OK:
		printerr("differential_main.gd: cannot write %s: %s" % [out, error_string(err)])
		return 1
	return 0


func compare3(inputs_path: String, results_path: String) -> int:
	var d := Differential.new(0)
	var t0 := Time.get_ticks_msec()
	d.compare_godot3(Differential.read_records(inputs_path), Differential.read_records(results_path))
	return report(d, "Godot 3 engine's results in %s, DIALECT_GODOT_3" % results_path.get_file(), t0)


func text(count: int, seed_value: int) -> int:
	var d := TextDifferential.new(seed_value)
	var t0 := Time.get_ticks_msec()
	d.run(count)
	for e in d.examples:
		print("DISAGREE " + e)
	var s: Dictionary = d.stats
	print("differential: Godot %s str_to_var, seed %d: %d texts (%d read alike, %d refused by both; refused here on purpose: %d with text after the value, %d with an element a typed container drops, %d with a NUL, %d with a float no int of its slot holds, %d with what RID( / Signal( / Callable( / NodePath( do not take, %d with a # that is no color, %d with base64 that is none; read otherwise on purpose: %d floats the engine rounds otherwise, %d with \\a or \\v, %d with an exponent the engine overflows, %d class-typed containers, %d floats no int holds converted by another platform's rule, %d strings starting with U+FEFF), %d disagreements, %.1f s" % [
			Engine.get_version_info().string, seed_value, s.inputs, s.accepted, s.rejected,
			s.trailing, s.dropped, s.nul, s.unfit, s.partial, s.color, s.base64, s.rounding, s.escape,
			s.exponent, s["class type"], s.platform, s.bom, s.disagreements,
			(Time.get_ticks_msec() - t0) / 1000.0])
	print("%d passed, %d failed" % [s.inputs - s.disagreements, s.disagreements])
	return 0 if s.disagreements == 0 and s.inputs > 0 else 1


func report(d, what: String, t0: int) -> int:
	for e in d.examples:
		print("DISAGREE " + e)
	for e in d.key_examples:
		print("KEYS " + e)
	var s: Dictionary = d.stats
	var keys := "" if not s.has("keys") else ", %d with keys the two engines merge differently" % s.keys
	print("differential: %s: %d inputs (%d decoded by both%s, %d refused by both), %d disagreements, %.1f s" % [
			what, s.inputs, s.accepted, keys, s.rejected, s.disagreements, (Time.get_ticks_msec() - t0) / 1000.0])
	print("%d passed, %d failed" % [s.inputs - s.disagreements, s.disagreements])
	return 0 if s.disagreements == 0 and s.inputs > 0 else 1

extends RefCounted
## Differential fuzzing, bounded (godot_project/fuzz/differential.gd says what is compared): 50,000
## mutated engine encodings of random values, decoded by this engine and by FastVarCodec, which
## must agree on verdict, size and value to the bit. It runs in every engine the scenes run in
## (the precision=double build too); tests/fuzz_differential.sh runs longer, and the Godot 3
## dialect against Godot 3.6.2.

const Ctx := preload("res://tests/lib/ctx.gd")
const Differential := preload("res://fuzz/differential.gd")

const INPUTS := 50000
const SEED := 20261124


func run(t: Ctx) -> void:
	var d := Differential.new(SEED)
	d.run_godot4(INPUTS)
	for e in d.examples:
		t.check(false, "disagreement", e)
	var s: Dictionary = d.stats
	t.check(s.inputs == INPUTS and s.disagreements == 0, "%d inputs, %d disagreements" % [s.inputs, s.disagreements])
	# Both verdicts occur, so the mutations reach past the first header.
	t.check(s.accepted > INPUTS / 4 and s.rejected > INPUTS / 4, "both verdicts occur",
			"%d decoded, %d refused" % [s.accepted, s.rejected])
	t.note("%d inputs (%d decoded by both, %d refused by both), %d disagreements" % [
			s.inputs, s.accepted, s.rejected, s.disagreements])
	t.done()

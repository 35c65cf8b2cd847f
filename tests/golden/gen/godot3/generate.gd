# Golden-data generator for the Godot 3 dialect of the Variant binary format.
# Output format: tests/golden/FORMAT.md. Run through run.sh (next to this file), or:
#   godot3-server --path <this dir> -s res://generate.gd OUT.json 2>ERR.log
# stderr MUST be redirected to a regular file: the error code of every decode is read back from the
# engine's own error log (res://godot3_lib/golden_generator.gd says how).
# Works unchanged on Godot 3.2.3 and 3.6.2.
extends "res://godot3_lib/golden_inputs.gd"

const ERROR_SOURCE = ("Error codes come from the engine's own error log: " +
	"the first 'Returned: ERR_*' that core/io/marshalls.cpp prints while PacketPeerStream.get_var() " +
	"decodes the packet (stderr read back between markers; 3.6 prints only the message for the depth " +
	"limit, 'Variant is too deep', i.e. ERR_OUT_OF_MEMORY). PacketPeer.get_packet_error() stays 0 " +
	"for decode failures in Godot 3. Texts are described from their code points in generalized " +
	"UTF-8 (surrogates as 3-byte sequences), not through the engine's to_utf8().")


func _init():
	var out = start()
	if out == "":
		return
	gen_cases()
	gen_malformed()
	conclude(out, "godot3", true, ERROR_SOURCE,
		"%s: %d cases, %d malformed (%d ok, %d failed), %d encode failures, %d warnings" % [
		Engine.get_version_info().string, case_lines.size(), malformed_lines.size(), n_ok, n_fail,
		encode_failures.size(), warnings.size()])


# ---------------------------------------------------------------- hooks of golden_inputs.gd

func quat(x, y, z, w):
	return Quat(x, y, z, w)


func quat_axis(axis, angle):
	return Quat(axis, angle)

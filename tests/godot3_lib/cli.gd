# The command line of the Godot 3 family's test scripts.
extends Reference


# Every "--key=value" argument as key -> value (a String).
static func args():
	var out = {}
	for a in OS.get_cmdline_args():
		if a.begins_with("--") and a.find("=") > 0:
			var i = a.find("=")
			out[a.substr(2, i - 2)] = a.substr(i + 1, a.length() - i - 1)
	return out


# The --timeout=SECONDS argument in milliseconds.
static func timeout_ms(args, default_seconds):
	return int(float(args.get("timeout", str(default_seconds))) * 1000.0)


# The bytes of hex text ("030a11...", a key given as hex).
static func hex_decode(h):
	var b = PoolByteArray()
	for i in range(0, h.length(), 2):
		b.append(("0x" + h.substr(i, 2)).hex_to_int())
	return b

# Writes the classes this engine can instantiate (what a full-object decode accepts), sorted.
extends SceneTree
func _init():
	var out: PackedStringArray = []
	for c in ClassDB.get_class_list():
		if ClassDB.can_instantiate(c):
			out.append(c)
	out.sort()
	var f := FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
	f.store_string(JSON.stringify({"engine": Engine.get_version_info().string, "instantiable_classes": out}, "", false))
	f.close()
	quit()

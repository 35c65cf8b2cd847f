# Writes the classes this engine can instance (what a full-object decode accepts), sorted.
extends SceneTree
func _init():
	var out = []
	for c in ClassDB.get_class_list():
		if ClassDB.can_instance(c):
			out.append(c)
	out.sort()
	var path = OS.get_cmdline_args()[OS.get_cmdline_args().size() - 1]
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_string(JSON.print({"engine": Engine.get_version_info().string, "instantiable_classes": out}))
	f.close()
	quit()

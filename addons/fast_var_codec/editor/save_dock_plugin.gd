@tool
extends EditorPlugin
## The Saves dock (Project Settings → Plugins → FastVarCodec Saves): the project's user:// files,
## opened, edited and saved back by FastVarCodec.

const SaveDock := preload("save_dock.gd")

var _dock: SaveDock


func _enter_tree() -> void:
	_dock = SaveDock.new()
	_dock.undo_redo = get_undo_redo()
	# The bottom panel: wide enough for a tree of values, with the Inspector beside it.
	add_control_to_bottom_panel(_dock, "Saves")


func _exit_tree() -> void:
	remove_control_from_bottom_panel(_dock)
	_dock.queue_free()
	_dock = null

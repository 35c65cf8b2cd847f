@tool
extends RefCounted
## The value selected in the Saves dock, as one property the editor's inspector edits with its
## own property editors. Edits go through the dock, which records them in the editor's
## UndoRedo (so the inspector records none of its own: [method _dont_undo_redo]).

var _name := ""
var _value: Variant
var _edit: Callable


## [param edit] is called with each new value.
func _init(name: String, value: Variant, edit: Callable) -> void:
	_name = name
	_value = value
	_edit = edit


## The value now (after an undo, say), shown without being recorded as an edit.
func refresh(value: Variant) -> void:
	_value = value
	notify_property_list_changed()


func _get_property_list() -> Array[Dictionary]:
	var property := {"name": _name, "type": typeof(_value), "usage": PROPERTY_USAGE_EDITOR}
	if _value is Object:
		property.hint = PROPERTY_HINT_RESOURCE_TYPE if _value is Resource else PROPERTY_HINT_NONE
		property.hint_string = (_value as Object).get_class()
	return [property]


func _get(property: StringName) -> Variant:
	return _value if property == _name else null


func _set(property: StringName, value: Variant) -> bool:
	if property != _name:
		return false
	_value = value
	_edit.call(value)
	return true


func _dont_undo_redo() -> bool:
	return true


# The inspector shows the value alone: not this helper's script, nor metadata to add.
func _hide_script_from_inspector() -> bool:
	return true


func _hide_metadata_from_inspector() -> bool:
	return true

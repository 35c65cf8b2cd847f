extends RefCounted
## Test data for the golden corpus: a RefCounted script with typed containers as properties.

@export var label: StringName = &"holder"
@export var items: Array[Resource] = []
@export var table: Dictionary[String, int] = {}
@export var where: NodePath = NodePath("a/b:c")

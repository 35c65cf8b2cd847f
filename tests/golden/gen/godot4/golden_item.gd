class_name GoldenItem
extends Resource
## Test data for the golden corpus. Loaded with load("res://golden_item.gd"), never by class name.

@export var title: String = "item"
@export var count: int = 3
@export var weight: float = 0.5
@export var tags: PackedStringArray = PackedStringArray()
@export var child: Resource = null
var transient_note: String = "not exported, so not serialised"

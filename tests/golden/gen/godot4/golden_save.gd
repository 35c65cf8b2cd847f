class_name GoldenSave
extends Resource
## Test data for the text resources (tres.gd): a save as games write one, its items
## sub-resources of a script class. Loaded with load("res://golden_save.gd"), never by class name.

const Item := preload("res://golden_item.gd")

@export var level: int = 1
@export var player_name: String = ""
@export var items: Array[Item] = []
@export var best: Item
@export var stats: Dictionary = {}
@export var visited: PackedVector2Array = PackedVector2Array()

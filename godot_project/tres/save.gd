extends Resource
## The Godot 4 counterpart of tests/golden/gen/godot3/tres/save.gd, at the same res:// path: what
## a Godot 3 save converted to Godot 4 (saves_tools/check_tres.gd) refers to.

@export var level = 1
@export var player_name = ""
@export var items = []
@export var best: Resource = null
@export var stats = {}
@export var visited = PackedVector2Array()

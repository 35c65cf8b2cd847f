extends Resource
## The Godot 4 counterpart of tests/golden/gen/godot3/tres/item.gd, at the same res:// path: what
## a Godot 3 save converted to Godot 4 (saves_tools/check_tres.gd) refers to.

@export var title = "item"
@export var count = 3
@export var weight = 0.5
@export var tags = PackedStringArray()
@export var child: Resource = null

extends Resource
# Test data for the text resources (tres.gd): an item of a save, a sub-resource.

export var title = "item"
export var count = 3
export var weight = 0.5
export var tags = PoolStringArray()
export var child: Resource = null

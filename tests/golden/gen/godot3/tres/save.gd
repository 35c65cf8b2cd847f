extends Resource
# Test data for the text resources (tres.gd): a save as games write one, its items
# sub-resources.

export var level = 1
export var player_name = ""
export var items = []
export var best: Resource = null
export var stats = {}
export var visited = PoolVector2Array()

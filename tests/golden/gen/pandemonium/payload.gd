# A tiny script class for object cases (loaded with load(), no class_name).
extends Reference

export var number = 42
var label = "payload"

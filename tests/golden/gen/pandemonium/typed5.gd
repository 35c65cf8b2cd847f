# Pandemonium v5.0.0+ only: builds TypedArray and PackedTypedArray values for generate.gd.
# (These type names do not parse in v4.9.0, so generate.gd loads this file only when the engine
# has them.) Constructors always get a runtime argument: GDScript folds a constant expression
# such as an argument-less constructor into one shared instance per script.
extends Reference


# An empty TypedArray (form 0) or PackedTypedArray (form 1) of the type `type_name` names:
# a builtin type name ("int", "Vector4", "PoolVector2iArray", "TypedArray" ...), or else a
# class name ("" is OBJECT with no class).
func empty(form, type_name):
	if form == 0:
		return TypedArray(type_name)
	return PackedTypedArray(type_name)


# `empty(form, type_name)` with `items` pushed in order; refused pushes are reported in
# `refused` (the caller records them).
func make(form, type_name, items, refused):
	var a = empty(form, type_name)
	for x in items:
		if not a.push_back(x):
			refused.append(x)
	return a


# A PackedTypedArray of INT with the given IntType (0 = SIGNED_8 ... 7 = UNSIGNED_64); the int
# type is not part of the wire format, only of the values pushed.
func ints(int_type, items, nil_name = "Nil"):
	var a = PackedTypedArray(nil_name)
	a.set_int_type(int_type)
	a.set_variant_type(TYPE_INT)
	for x in items:
		a.push_back(x)
	return a

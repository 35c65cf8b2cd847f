//! The engine's Arrays and Dictionaries made through its C interface: typed containers gdext
//! cannot make, and moving built items into an Array's storage in one go.

use fast_var_codec_core::VariantType as T;
use godot::builtin::{StringName, VarArray, VarDictionary, Variant};
use godot::sys::{interface_fn, GodotFfi};

/// Variant types whose values live inside the Variant and own no memory.
pub(super) fn holds_nothing(t: T) -> bool {
    use T::*;
    matches!(
        t,
        Nil | Bool
            | Int
            | Float
            | Vector2
            | Vector2i
            | Rect2
            | Rect2i
            | Vector3
            | Vector3i
            | Vector4
            | Vector4i
            | Plane
            | Quaternion
            | Color
            | Rid
    )
}

/// Resizes `arr` (empty) to `items.len()` and moves the items into its slots: no per-element
/// engine call. `false` (and nothing moved) if the engine's storage is not one contiguous run.
pub(super) fn move_into(arr: &mut VarArray, items: &mut [Variant]) -> bool {
    let n = items.len();
    if n == 0 {
        return true;
    }
    let Ok(last) = i64::try_from(n - 1) else {
        return false;
    };
    // The engine's own resize (a direct call): new slots hold the element type's default value.
    godot::builtin::inner::InnerArray::from_outer(arr).resize(n as i64);
    // SAFETY: indexes 0 and n-1 are in bounds after the resize; the calls return slot addresses
    // (making the array's storage unique, as any write access does).
    let (first, end) = unsafe {
        (
            interface_fn!(array_operator_index)(arr.sys_mut(), 0),
            interface_fn!(array_operator_index)(arr.sys_mut(), last),
        )
    };
    let size = std::mem::size_of::<Variant>();
    if first.is_null() || (end as usize).wrapping_sub(first as usize) != (n - 1) * size {
        godot::builtin::inner::InnerArray::from_outer(arr).resize(0);
        return false;
    }
    // SAFETY: `n` slots lie contiguously from `first` (checked above) in storage owned by `arr`,
    // which nothing else references yet; gdext's `Variant` is `#[repr(transparent)]` over the
    // engine's. Swapping moves each item in and the slot's default value out (dropped with
    // `items`); a typed array receives only values of its exact type (checked by the caller).
    let slots = unsafe { std::slice::from_raw_parts_mut(first.cast::<Variant>(), n) };
    for (slot, item) in slots.iter_mut().zip(items.iter_mut()) {
        std::mem::swap(slot, item);
    }
    true
}

/// An empty Array typed as the engine's `Array(base, type, class_name, script)` would be.
pub(super) fn new_typed_array(builtin: i32, class: &StringName, script: &Variant) -> VarArray {
    let mut arr = VarArray::new();
    // SAFETY: `arr` is a valid, empty, uniquely owned array; `class` and `script` are valid for
    // the call, and `builtin` is a Variant type id below VARIANT_MAX (from the core's table).
    // gdext's static view of `arr` stays "untyped", so it is only used as a Variant from here on.
    unsafe {
        godot::sys::interface_fn!(array_set_typed)(
            arr.sys_mut(),
            builtin as godot::sys::GDExtensionVariantType,
            class.string_sys(),
            script.var_sys(),
        );
    }
    arr
}

/// An empty Dictionary typed for keys `k` and values `v` (type id 0: that side untyped). gdext's
/// view of it stays untyped, so its `set` adds no checks of its own to the engine's.
pub(super) fn new_typed_dictionary(
    k: &(i32, StringName, Variant),
    v: &(i32, StringName, Variant),
) -> VarDictionary {
    let mut dict = VarDictionary::new();
    // SAFETY: as in `new_typed_array`: a valid empty dictionary, valid names and scripts, ids in
    // range.
    unsafe {
        godot::sys::interface_fn!(dictionary_set_typed)(
            dict.sys_mut(),
            k.0 as godot::sys::GDExtensionVariantType,
            k.1.string_sys(),
            k.2.var_sys(),
            v.0 as godot::sys::GDExtensionVariantType,
            v.1.string_sys(),
            v.2.var_sys(),
        );
    }
    dict
}

//! The engine's Arrays and Dictionaries made through its C interface: typed containers gdext
//! cannot make, and moving built items into an Array's storage in one go.

use fast_var_codec_core::value::VariantType as T;
use godot::builtin::{StringName, VarArray, VarDictionary, Variant};
use godot::sys::{interface_fn, GodotFfi};

use super::admission::EngineType;

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
///
/// # Safety
/// `arr` must take every item as it is: when it is typed, each item must be of exactly its
/// element type, and not an object (the engine's own `push_back` converts and checks classes;
/// a move does neither, and a typed array holding another type breaks the engine's invariants).
pub(super) unsafe fn move_into(arr: &mut VarArray, items: &mut [Variant]) -> bool {
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
    // `items`); a typed array receives only values of its exact type (the caller's promise).
    let slots = unsafe { std::slice::from_raw_parts_mut(first.cast::<Variant>(), n) };
    for (slot, item) in slots.iter_mut().zip(items.iter_mut()) {
        std::mem::swap(slot, item);
    }
    true
}

/// An empty Array typed as the engine's `Array(base, type, class_name, script)` would be.
pub(super) fn new_typed_array(ty: &EngineType) -> VarArray {
    let mut arr = VarArray::new();
    // SAFETY: `arr` is a valid, empty, uniquely owned array; the name and script are valid for
    // the call, and the type id is one of the core's `VariantType`s, all below VARIANT_MAX.
    // gdext's static view of `arr` stays "untyped", so it is only used as a Variant from here on.
    unsafe {
        godot::sys::interface_fn!(array_set_typed)(
            arr.sys_mut(),
            ty.builtin.id() as godot::sys::GDExtensionVariantType,
            ty.class.string_sys(),
            ty.script.var_sys(),
        );
    }
    arr
}

/// An empty Dictionary typed for keys `k` and values `v` (`None`: that side untyped). gdext's
/// view of it stays untyped, so its `set` adds no checks of its own to the engine's.
pub(super) fn new_typed_dictionary(
    k: Option<&EngineType>,
    v: Option<&EngineType>,
) -> VarDictionary {
    let (none_class, none_script) = (StringName::default(), Variant::nil());
    fn parts<'a>(
        t: Option<&'a EngineType>,
        none: (&'a StringName, &'a Variant),
    ) -> (u32, &'a StringName, &'a Variant) {
        match t {
            Some(t) => (t.builtin.id(), &t.class, &t.script),
            None => (T::Nil.id(), none.0, none.1),
        }
    }
    let none = (&none_class, &none_script);
    let ((kt, kc, ks), (vt, vc, vs)) = (parts(k, none), parts(v, none));
    let mut dict = VarDictionary::new();
    // SAFETY: as in `new_typed_array`: a valid empty dictionary, valid names and scripts, type
    // ids of the core's `VariantType`s (NIL: that side untyped).
    unsafe {
        godot::sys::interface_fn!(dictionary_set_typed)(
            dict.sys_mut(),
            kt as godot::sys::GDExtensionVariantType,
            kc.string_sys(),
            ks.var_sys(),
            vt as godot::sys::GDExtensionVariantType,
            vc.string_sys(),
            vs.var_sys(),
        );
    }
    dict
}

//! Reading Variants the way the GDExtension interface recommends for speed: the engine's
//! per-type *internal getters* (cached once) hand out a pointer to a Variant's payload, "without
//! the overhead of variant conversion functions", and an Array's elements are read in place.
//! One cheap engine call per value instead of several conversions and copies.

use std::ffi::c_void;
use std::sync::OnceLock;

use fast_var_codec_core::value::VariantType as T;
use godot::builtin::{
    Aabb, AnyArray, Basis, Color, GString, Plane, Projection, Quaternion, Rect2, Rect2i,
    StringName, Transform2D, Transform3D, Variant, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use godot::sys::{self, interface_fn, GodotFfi};

type Getter = sys::GDExtensionVariantGetInternalPtrFunc;

/// Godot 4's Variant types, the core's list of them.
const VARIANT_COUNT: usize = T::ALL.len();

/// The engine's internal getters, indexed by Variant type id.
fn getters() -> &'static [Getter; VARIANT_COUNT] {
    static GETTERS: OnceLock<[Getter; VARIANT_COUNT]> = OnceLock::new();
    GETTERS.get_or_init(|| {
        std::array::from_fn(|i| {
            // NIL has no payload: the engine refuses (and logs) a request for its getter.
            if i == T::Nil as usize {
                return None;
            }
            // SAFETY: asks the engine for the getter of type `i`, a valid type id (< VARIANT_COUNT).
            unsafe {
                interface_fn!(variant_get_ptr_internal_getter)(i as sys::GDExtensionVariantType)
            }
        })
    })
}

/// The type the Variant holds (a null object is OBJECT here, unlike gdext's `get_type`).
#[inline]
pub fn type_of(v: &Variant) -> Option<T> {
    T::from_id(crate::variant_layout::type_id(v))
}

/// A Rust type laid out exactly as the engine's payload for one Variant type.
///
/// # Safety
/// `Self` must have the layout of the value the engine's internal getter for `TYPE` points to.
pub unsafe trait Payload {
    const TYPE: T;
}

macro_rules! payloads {
    ($($rust:ty => $ty:ident),* $(,)?) => {$(
        // SAFETY: gdext passes these types to the engine by pointer in ptrcalls (`#[repr(C)]`
        // math structs, `#[repr(transparent)]` strings, plain numbers), so their layout is the
        // engine's own for this Variant type.
        unsafe impl Payload for $rust {
            const TYPE: T = T::$ty;
        }
    )*};
}

payloads! {
    bool => Bool, i64 => Int, f64 => Float, GString => String, StringName => StringName,
    Vector2 => Vector2, Vector2i => Vector2i, Rect2 => Rect2, Rect2i => Rect2i,
    Vector3 => Vector3, Vector3i => Vector3i, Transform2D => Transform2D, Vector4 => Vector4,
    Vector4i => Vector4i, Plane => Plane, Quaternion => Quaternion, Aabb => Aabb, Basis => Basis,
    Transform3D => Transform3D, Projection => Projection, Color => Color,
}

/// A Variant together with the type it holds, as the engine reports it: the proof that
/// [`Typed::payload`] needs, so reading a payload rests on no promise of the caller's.
#[derive(Clone, Copy)]
pub struct Typed<'a> {
    variant: &'a Variant,
    ty: T,
}

impl<'a> Typed<'a> {
    /// `v` with its type; `None` for a type id the core does not know.
    #[inline]
    pub fn of(v: &'a Variant) -> Option<Self> {
        type_of(v).map(|ty| Typed { variant: v, ty })
    }

    pub fn ty(self) -> T {
        self.ty
    }

    pub fn variant(self) -> &'a Variant {
        self.variant
    }

    /// The payload, borrowed from the engine, when the Variant holds a `P`.
    #[inline]
    pub fn payload<P: Payload>(self) -> Option<&'a P> {
        if self.ty != P::TYPE {
            return None;
        }
        let tag = self.ty as sys::GDExtensionVariantType;
        // SAFETY: `self.ty` is the Variant's own type (only `Typed::of` makes a `Typed`).
        if let Some(at) = unsafe { crate::variant_layout::value_in_place(self.variant, tag) } {
            // SAFETY: the value of the Variant's type lies at `at` (checked layout), and `P` is
            // laid out as that value (Payload contract), 8-aligned as the Variant; it lives as
            // long as the borrow `'a`.
            return unsafe { at.cast::<P>().as_ref() };
        }
        let getter = getters().get(self.ty as usize).copied().flatten()?;
        // SAFETY: `self.ty` is the Variant's own type (only `Typed::of` makes a `Typed`, from
        // `type_of`) and equals `P::TYPE`, so the getter matches the Variant and returns a
        // pointer to a live `P` (Payload contract) inside it, valid as long as its borrow `'a`.
        unsafe {
            let p: *mut c_void = getter(sys::SysPtr::force_mut(self.variant.var_sys()));
            p.cast::<P>().as_ref()
        }
    }
}

/// The elements of `a` read in place, when the engine stores them contiguously (it does: an
/// Array is one vector of Variants), checked by the addresses of the first and last element.
///
/// # Safety
/// Nothing may change `a`'s storage while the returned slice lives: the caller runs no engine
/// or script code that could (object getters, for one) and no other thread writes to `a` (the
/// engine's own `var_to_bytes` asks the same of a value it encodes).
pub unsafe fn elements(a: &AnyArray) -> Option<&[Variant]> {
    let n = a.len();
    if n == 0 {
        return Some(&[]);
    }
    let last = i64::try_from(n - 1).ok()?;
    // SAFETY: indexes 0 and n-1 are in bounds; the call only returns element addresses.
    let (first, end) = unsafe {
        (
            interface_fn!(array_operator_index_const)(a.sys(), 0),
            interface_fn!(array_operator_index_const)(a.sys(), last),
        )
    };
    let size = std::mem::size_of::<Variant>();
    if first.is_null() || (end as usize).wrapping_sub(first as usize) != (n - 1) * size {
        return None;
    }
    // SAFETY: `n` Variants lie contiguously from `first` (checked above); gdext's `Variant` is
    // `#[repr(transparent)]` over the engine's Variant; the storage belongs to `a`, borrowed for
    // the slice's lifetime, and nothing mutates it meanwhile (the caller's promise).
    Some(unsafe { std::slice::from_raw_parts(first.cast::<Variant>(), n) })
}

/// One of the engine's builtin methods, looked up once by its name and its hash in the
/// extension API (stable across engine versions that have the method).
fn builtin_method(
    cell: &'static OnceLock<sys::GDExtensionPtrBuiltInMethod>,
    ty: sys::GDExtensionVariantType,
    name: &str,
    hash: i64,
) -> sys::GDExtensionPtrBuiltInMethod {
    *cell.get_or_init(|| {
        let name = StringName::from(name);
        // SAFETY: asks the engine for a method of a valid type by a valid name.
        unsafe { interface_fn!(variant_get_ptr_builtin_method)(ty, name.string_sys(), hash) }
    })
}

/// `Dictionary.size()` and `Dictionary.is_typed()` of the Dictionary at `dict` (an engine
/// Dictionary, e.g. inside a Variant); `None` if the engine lacks the methods.
///
/// # Safety
/// `dict` must point to a live engine Dictionary.
unsafe fn dictionary_size_and_typed(dict: sys::GDExtensionTypePtr) -> Option<(i64, bool)> {
    static SIZE: OnceLock<sys::GDExtensionPtrBuiltInMethod> = OnceLock::new();
    static IS_TYPED: OnceLock<sys::GDExtensionPtrBuiltInMethod> = OnceLock::new();
    let d = sys::GDEXTENSION_VARIANT_TYPE_DICTIONARY;
    let size = builtin_method(&SIZE, d, "size", 3_173_160_232)?;
    let is_typed = builtin_method(&IS_TYPED, d, "is_typed", 3_918_633_141)?;
    let mut n: i64 = 0;
    let mut typed: sys::GDExtensionBool = 0;
    // SAFETY: both methods take no arguments and write an int64 / a bool to the return slot;
    // `dict` is a live Dictionary (the caller's promise).
    unsafe {
        size(dict, std::ptr::null(), std::ptr::from_mut(&mut n).cast(), 0);
        is_typed(
            dict,
            std::ptr::null(),
            std::ptr::from_mut(&mut typed).cast(),
            0,
        );
    }
    Some((n, typed != 0))
}

/// An untyped Dictionary held by a Variant, whose entries are read in place in the engine's
/// order: each key in one reused Variant (by the engine's own iteration), each value borrowed.
/// No new Arrays, unlike `keys()` and `values()`, and no copy of any entry.
pub struct UntypedEntries<'a> {
    var: sys::GDExtensionVariantPtr,
    dict: sys::GDExtensionTypePtr,
    len: usize,
    held: std::marker::PhantomData<&'a Variant>,
}

/// The entries of `v` when it holds an untyped Dictionary; `None` for another type, for a typed
/// Dictionary (its element types are needed: use gdext's view), or if the engine lacks
/// `size()` or `is_typed()`.
///
/// # Safety
/// As [`elements`]: nothing may change the Dictionary while the entries are read.
pub unsafe fn untyped_entries(v: Typed<'_>) -> Option<UntypedEntries<'_>> {
    if v.ty != T::Dictionary {
        return None;
    }
    let getter = getters().get(T::Dictionary as usize).copied().flatten()?;
    let var = sys::SysPtr::force_mut(v.variant.var_sys());
    // SAFETY: the Variant holds a Dictionary (checked by type above), so the getter returns a
    // pointer to it, live as long as the borrow of `v`.
    let dict: sys::GDExtensionTypePtr = unsafe { getter(var) }.cast();
    // SAFETY: `dict` is that live Dictionary.
    let (n, typed) = unsafe { dictionary_size_and_typed(dict) }?;
    if typed {
        return None;
    }
    Some(UntypedEntries {
        var,
        dict,
        len: usize::try_from(n).ok()?,
        held: std::marker::PhantomData,
    })
}

impl UntypedEntries<'_> {
    /// The number of entries (the engine's `size()`).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Calls `f` with each key and value in the engine's order, and stops at its first error.
    /// `Ok(false)` when the engine's iteration did not give exactly [`Self::len`] entries (the
    /// Dictionary changed meanwhile, which its caller's promise rules out).
    pub fn for_each<E>(
        self,
        mut f: impl FnMut(&Variant, &Variant) -> Result<(), E>,
    ) -> Result<bool, E> {
        if self.len == 0 {
            return Ok(true);
        }
        let mut key = Variant::nil();
        let mut valid: sys::GDExtensionBool = 0;
        let mut seen = 0;
        // SAFETY: `var` is the live Variant holding the Dictionary; the iteration writes the
        // first key into `key` (a valid Variant holding nil, which owns nothing, so being
        // overwritten in place leaks nothing).
        let mut more = unsafe {
            interface_fn!(variant_iter_init)(self.var, key.var_sys_mut().cast(), &mut valid)
        };
        while more != 0 && valid != 0 {
            // SAFETY: `dict` is live and `key` a valid Variant; the engine returns the value's
            // slot or null when the key is not found.
            let value = unsafe {
                interface_fn!(dictionary_operator_index_const)(
                    self.dict.cast_const(),
                    key.var_sys(),
                )
            };
            // SAFETY: a non-null slot is a Variant inside the Dictionary, which nothing changes
            // while it is read (the promise of `untyped_entries`' caller).
            let Some(value) = (unsafe { value.cast::<Variant>().as_ref() }) else {
                return Ok(false);
            };
            if seen == self.len {
                return Ok(false);
            }
            seen += 1;
            f(&key, value)?;
            // SAFETY: as for `variant_iter_init`; `key` is updated in place to the next key.
            more = unsafe {
                interface_fn!(variant_iter_next)(self.var, key.var_sys_mut(), &mut valid)
            };
        }
        Ok(seen == self.len)
    }
}

/// The bytes of the engine PackedByteArray at `array`, borrowed in place (no copy, no
/// reference count): its size by the engine's `size()`, its data by the engine's index
/// operator. `None` if the engine lacks `size()`.
///
/// # Safety
/// `array` must point to a live engine PackedByteArray that nothing writes to during `'a`
/// (a write through another reference copies the storage first: copy-on-write).
pub unsafe fn packed_bytes_at<'a>(array: sys::GDExtensionConstTypePtr) -> Option<&'a [u8]> {
    static SIZE: OnceLock<sys::GDExtensionPtrBuiltInMethod> = OnceLock::new();
    let t = sys::GDEXTENSION_VARIANT_TYPE_PACKED_BYTE_ARRAY;
    let size = builtin_method(&SIZE, t, "size", 3_173_160_232)?;
    let mut n: i64 = 0;
    // SAFETY: `size()` takes no arguments and writes an int64; `array` is live (the caller's
    // promise). The engine's builtin methods take their base as a mutable pointer but `size()`
    // does not write to it.
    unsafe {
        size(
            sys::SysPtr::force_mut(array),
            std::ptr::null(),
            std::ptr::from_mut(&mut n).cast(),
            0,
        )
    };
    let n = usize::try_from(n).ok()?;
    if n == 0 {
        return Some(&[]);
    }
    // SAFETY: index 0 is in bounds (n > 0); the engine returns the address of the first byte.
    let first = unsafe { interface_fn!(packed_byte_array_operator_index_const)(array, 0) };
    if first.is_null() {
        return None;
    }
    // SAFETY: the array's `n` bytes lie contiguously from `first` and stay as they are during
    // `'a` (the caller's promise).
    Some(unsafe { std::slice::from_raw_parts(first, n) })
}

/// The bytes of a PackedByteArray held by `v`, borrowed in place; `None` when `v` holds
/// another type.
pub fn packed_bytes<'a>(v: Typed<'a>) -> Option<&'a [u8]> {
    let array = packed_byte_array_in(v)?;
    // SAFETY: `array` is the PackedByteArray inside the Variant, live for the borrow `'a` of
    // the Variant; a write to it through another reference copies the storage first
    // (copy-on-write), and nothing writes through `v` while it is borrowed.
    unsafe { packed_bytes_at(array) }
}

/// The engine's pointer to the PackedByteArray held by `v`; `None` when `v` holds another type.
pub fn packed_byte_array_in(v: Typed<'_>) -> Option<sys::GDExtensionConstTypePtr> {
    if v.ty != T::PackedByteArray {
        return None;
    }
    let getter = getters()
        .get(T::PackedByteArray as usize)
        .copied()
        .flatten()?;
    // SAFETY: the Variant holds a PackedByteArray (checked by type above), so the getter returns
    // a pointer to it, inside the Variant.
    let array = unsafe { getter(sys::SysPtr::force_mut(v.variant.var_sys())) };
    Some(array.cast_const().cast())
}

/// Which typing of a container to read: an Array's elements, a Dictionary's keys or values.
#[derive(Clone, Copy)]
pub enum TypedSide {
    Array,
    DictionaryKey,
    DictionaryValue,
}

/// A container's element typing as the engine holds it: builtin type id, and for objects the
/// class name and script. Read with the engine's own builtin methods, not gdext's
/// `element_type()`: that registers the class name in gdext's class-id cache, and a later
/// static use of the same engine class (`EncodedObjectAsId::new_gd()` after encoding an
/// `Array[EncodedObjectAsID]`) then panics in gdext 0.5.5, which failed every later decode of
/// an object id.
pub struct EngineTyping {
    pub builtin: i64,
    pub class_name: StringName,
    pub script: Variant,
}

/// The typing of the Array or Dictionary at `container` (per `side`); `None` if the engine lacks
/// the methods.
///
/// # Safety
/// `container` must point to a live engine Array (for [`TypedSide::Array`]) or Dictionary.
pub unsafe fn engine_typing(
    container: sys::GDExtensionConstTypePtr,
    side: TypedSide,
) -> Option<EngineTyping> {
    static METHODS: [[OnceLock<sys::GDExtensionPtrBuiltInMethod>; 3]; 3] = [
        [OnceLock::new(), OnceLock::new(), OnceLock::new()],
        [OnceLock::new(), OnceLock::new(), OnceLock::new()],
        [OnceLock::new(), OnceLock::new(), OnceLock::new()],
    ];
    let (row, ty, names) = match side {
        TypedSide::Array => (
            0,
            sys::GDEXTENSION_VARIANT_TYPE_ARRAY,
            [
                "get_typed_builtin",
                "get_typed_class_name",
                "get_typed_script",
            ],
        ),
        TypedSide::DictionaryKey => (
            1,
            sys::GDEXTENSION_VARIANT_TYPE_DICTIONARY,
            [
                "get_typed_key_builtin",
                "get_typed_key_class_name",
                "get_typed_key_script",
            ],
        ),
        TypedSide::DictionaryValue => (
            2,
            sys::GDEXTENSION_VARIANT_TYPE_DICTIONARY,
            [
                "get_typed_value_builtin",
                "get_typed_value_class_name",
                "get_typed_value_script",
            ],
        ),
    };
    let cells = METHODS.get(row)?;
    let [builtin_name, class_name_name, script_name] = names;
    let builtin_fn = builtin_method(cells.first()?, ty, builtin_name, 3_173_160_232)?;
    let base = sys::SysPtr::force_mut(container);
    let mut builtin: i64 = 0;
    // SAFETY: the method takes no arguments and writes an int64; `container` is a live container
    // of the type the method belongs to (the caller's promise), which the getter does not change.
    unsafe {
        builtin_fn(
            base,
            std::ptr::null(),
            std::ptr::from_mut(&mut builtin).cast(),
            0,
        )
    };
    let mut typing = EngineTyping {
        builtin,
        class_name: StringName::default(),
        script: Variant::nil(),
    };
    if builtin != T::Object as i64 {
        return Some(typing);
    }
    let class_name_fn = builtin_method(cells.get(1)?, ty, class_name_name, 1_825_232_092)?;
    let script_fn = builtin_method(cells.get(2)?, ty, script_name, 1_460_142_086)?;
    // SAFETY: as above; the return slots are initialised values of the returned types (a
    // StringName, a Variant), which the engine assigns to as ptrcalls do.
    unsafe {
        class_name_fn(
            base,
            std::ptr::null(),
            typing.class_name.sys_mut().cast(),
            0,
        );
        script_fn(
            base,
            std::ptr::null(),
            typing.script.var_sys_mut().cast(),
            0,
        );
    }
    Some(typing)
}

//! Plain Variants (bool, int, float, String, and the vector, rect, plane, quaternion and color
//! types) written and read in place instead of through an engine call each, as godot-rust's
//! Rust-side marshalling does; untyped Arrays and Dictionaries moved into their Variants; and
//! the type tag of any Variant read in place.
//!
//! A Godot Variant is its type as a 32-bit tag, padding to 8 bytes, then its payload: a bool
//! byte, an int64, a double, the components of a math type, or the single pointer of a String,
//! an Array or a Dictionary (which a move hands over without touching its reference count; the
//! engine's constructor copies it, one atomic increment, and the dropped original one atomic
//! decrement). That layout is not part of the GDExtension interface, so it is checked, not
//! assumed: when the library loads, it builds a Variant of each of these types through the
//! engine, in zeroed memory, and compares every word with what this module writes for the same
//! value. On any difference every Variant is built by the engine from then on, and the log says
//! so once.
//! `FAST_VAR_CODEC_VARIANT_LAYOUT=engine` in the environment chooses that path without a check
//! (and says so once too), so both stay tested.

use std::mem::{size_of, MaybeUninit};
use std::sync::OnceLock;

use godot::builtin::{
    Color, GString, Plane, Quaternion, Rect2, Rect2i, VarArray, VarDictionary, Variant, Vector2,
    Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use godot::meta::ToGodot;
use godot::sys::{self, interface_fn, GodotFfi};

/// The environment variable that turns the in-place path off.
const ENV: &str = "FAST_VAR_CODEC_VARIANT_LAYOUT";

/// What a Variant is, in 8-byte words: written whole, the way it is read back (a read of
/// bytes written by several smaller stores waits for them to reach the cache).
type Words = [u64; size_of::<Variant>() / 8];

const _: () = {
    // The tag and its padding, an 8-byte payload, whole words; the check below does the rest.
    assert!(size_of::<Variant>() >= 16 && size_of::<Variant>().is_multiple_of(8));
    assert!(size_of::<GString>() == 8);
};

/// Whether the layout was checked and found as this module writes it (checked once).
fn in_place() -> bool {
    static IN_PLACE: OnceLock<bool> = OnceLock::new();
    *IN_PLACE.get_or_init(decide_in_place)
}

/// The environment's choice, else the layout check, with one warning when the engine's
/// constructors are to be used.
#[cold]
fn decide_in_place() -> bool {
    if std::env::var(ENV).is_ok_and(|v| v == "engine") {
        crate::call_state::log_warning(
            "FastVarCodec",
            &format!("FastVarCodec: {ENV}=engine: every Variant is built by the engine"),
        );
        return false;
    }
    let holds = layout_holds();
    if !holds {
        crate::call_state::log_warning(
            "FastVarCodec",
            "FastVarCodec: this engine lays out Variants otherwise than expected; every \
             Variant is built by the engine (slower, and correct)",
        );
    }
    holds
}

/// Checks the layout now (when the library loads), rather than at the first decode.
pub fn check() {
    in_place();
}

/// A Variant of type `tag` whose payload is the 8 bytes of `payload` (native order), the rest
/// zero.
#[inline(always)]
fn words_of(tag: sys::GDExtensionVariantType, payload: u64) -> Words {
    let [a, b, c, d] = (tag as u32).to_ne_bytes();
    let mut w = [0u64; size_of::<Variant>() / 8];
    let [tag_word, payload_word, ..] = &mut w;
    *tag_word = u64::from_ne_bytes([a, b, c, d, 0, 0, 0, 0]);
    *payload_word = payload;
    w
}

/// # Safety
/// `words` must be a valid Variant: what [`layout_holds`] found the engine to make, for a
/// value whose payload (a String's reference, say) the new Variant may own.
#[inline(always)]
unsafe fn from_words(words: Words) -> Variant {
    // SAFETY: the caller's promise; `Words` is exactly a Variant's size, written unaligned
    // into the uninitialized Variant gdext hands out.
    unsafe { Variant::new_with_var_uninit(|ptr| ptr.cast::<Words>().write_unaligned(words)) }
}

/// The words of `v`.
fn words_in(v: &Variant) -> Words {
    // SAFETY: `v` is a live Variant of exactly `size_of::<Words>()` bytes; every byte was
    // initialized (the engine's Variants compared here are made in zeroed memory).
    unsafe { v.var_sys().cast::<Words>().read_unaligned() }
}

/// A Variant built by the engine's constructor for type `tag` from `*value`, in zeroed memory
/// (so that every byte, padding included, is initialized and comparable).
///
/// # Safety
/// `value` must point to a live value of the type `tag` names.
unsafe fn engine_made(
    tag: sys::GDExtensionVariantType,
    value: sys::GDExtensionTypePtr,
) -> Option<Variant> {
    // SAFETY: asks the engine for its constructor of a valid type id.
    let make = unsafe { interface_fn!(get_variant_from_type_constructor)(tag) }?;
    let mut out = MaybeUninit::<Variant>::zeroed();
    // SAFETY: `out` is writable memory of a Variant's size; the constructor initializes it
    // from `*value`, the caller's promise.
    unsafe {
        make(out.as_mut_ptr().cast(), value);
        Some(out.assume_init())
    }
}

/// Builds one Variant of each type through the engine and compares it with this module's.
fn layout_holds() -> bool {
    use sys::{
        GDEXTENSION_VARIANT_TYPE_BOOL as BOOL, GDEXTENSION_VARIANT_TYPE_FLOAT as FLOAT,
        GDEXTENSION_VARIANT_TYPE_INT as INT,
    };
    // SAFETY: each tag names the type of the value given with it.
    let plain = unsafe {
        holds_for(INT, 0x0123_4567_89ab_cdef_i64, int_words)
            && holds_for(FLOAT, -1.0e-300_f64, float_words)
            && holds_for(BOOL, true, bool_words)
    };
    plain
        && inline_holds()
        && shared_holds::<GString>()
        && shared_holds::<VarArray>()
        && shared_holds::<VarDictionary>()
}

/// Whether the engine makes `v`'s Variant as `words(v)`, and takes `words(v)` for its own.
///
/// # Safety
/// `tag` must name `T`'s Variant type.
unsafe fn holds_for<T: Copy>(
    tag: sys::GDExtensionVariantType,
    mut v: T,
    words: fn(T) -> Words,
) -> bool {
    // SAFETY: a live `T`, of the type `tag` names (the caller's promise).
    let Some(engine) = (unsafe { engine_made(tag, (&raw mut v).cast()) }) else {
        return false;
    };
    words_in(&engine) == words(v) && {
        // SAFETY: these words are the engine's own Variant's, compared just above.
        let ours = unsafe { from_words(words(v)) };
        ours == engine
    }
}

/// The same for the types whose Variant holds one reference (String, Array, Dictionary).
fn shared_holds<T: Shared>() -> bool {
    let value = T::sample();
    let mut copy = value.clone();
    // SAFETY: a live `T`, tagged with its own type (`Shared::TAG`).
    let made = unsafe { engine_made(T::TAG, copy.sys_mut().cast()) };
    let Some(engine) = made else {
        return false;
    };
    words_in(&engine) == shared_words(&value) && {
        // SAFETY: the engine's own words, compared just above; the new Variant owns the
        // reference `value.clone()` gives up.
        let ours = unsafe { from_shared_words(value.clone()) };
        ours == engine
    }
}

/// A type Godot stores inside a Variant, right after the tag, as its own bytes: gdext's
/// `#[repr(C)]` vector, rect, plane, quaternion and color types.
///
/// # Safety
/// Implement only for plain data (no padding, no pointers, every field a number) laid out as
/// the engine's own type (gdext passes these to the engine by pointer), with `TAG` the type's
/// Variant type and a size that fits a Variant's payload.
pub unsafe trait Inline: ToGodot + Copy {
    const TAG: sys::GDExtensionVariantType;
    /// A value with every component distinct and nonzero, for the check.
    fn sample() -> Self;
}

/// Implements [`Inline`] for each type and checks every one of them in `inline_holds`: one list,
/// so that no type is written in place unchecked.
macro_rules! inline_types {
    ($($t:ty = $tag:ident, $sample:expr;)*) => {
        $(
            // SAFETY: a gdext `#[repr(C)]` builtin of numbers only, passed to the engine as its
            // own type; `inline_holds` checks its Variant before any is written in place.
            unsafe impl Inline for $t {
                const TAG: sys::GDExtensionVariantType = sys::$tag;
                fn sample() -> Self {
                    $sample
                }
            }
        )*

        /// Whether `tag` names an [`Inline`] type.
        fn is_inline(tag: sys::GDExtensionVariantType) -> bool {
            false $(|| tag == sys::$tag)*
        }

        /// Whether every [`Inline`] type's Variant is its tag and then its bytes.
        fn inline_holds() -> bool {
            fn one<T: Inline>() -> bool {
                // SAFETY: `Inline::TAG` names `T`'s Variant type (the trait's promise).
                unsafe { holds_for(T::TAG, T::sample(), inline_words::<T>) }
            }
            true $(&& one::<$t>())*
        }
    };
}

inline_types! {
    Vector2 = GDEXTENSION_VARIANT_TYPE_VECTOR2, Vector2::new(1.5, -2.25);
    Vector2i = GDEXTENSION_VARIANT_TYPE_VECTOR2I, Vector2i::new(3, -4);
    Rect2 = GDEXTENSION_VARIANT_TYPE_RECT2,
        Rect2::new(Vector2::new(1.5, -2.25), Vector2::new(3.75, 5.5));
    Rect2i = GDEXTENSION_VARIANT_TYPE_RECT2I,
        Rect2i::new(Vector2i::new(1, -2), Vector2i::new(3, 5));
    Vector3 = GDEXTENSION_VARIANT_TYPE_VECTOR3, Vector3::new(1.5, -2.25, 3.75);
    Vector3i = GDEXTENSION_VARIANT_TYPE_VECTOR3I, Vector3i::new(3, -4, 5);
    Vector4 = GDEXTENSION_VARIANT_TYPE_VECTOR4, Vector4::new(1.5, -2.25, 3.75, -5.5);
    Vector4i = GDEXTENSION_VARIANT_TYPE_VECTOR4I, Vector4i::new(3, -4, 5, -6);
    Plane = GDEXTENSION_VARIANT_TYPE_PLANE, Plane { normal: Vector3::new(0.5, -0.25, 0.75), d: 2.5 };
    Quaternion = GDEXTENSION_VARIANT_TYPE_QUATERNION, Quaternion::new(0.5, -0.25, 0.75, 1.5);
    Color = GDEXTENSION_VARIANT_TYPE_COLOR, Color::from_rgba(0.5, -0.25, 0.75, 1.5);
}

/// The words of `v`'s Variant: its tag, then its bytes.
fn inline_words<T: Inline>(v: T) -> Words {
    const {
        assert!(size_of::<T>() <= size_of::<Variant>() - 8);
    }
    let mut w = words_of(T::TAG, 0);
    // SAFETY: `T` is plain data (the trait's promise), so its bytes may be read; they are
    // copied after the tag's word, and fit there (asserted above).
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&raw const v).cast::<u8>(),
            w.as_mut_ptr().cast::<u8>().add(8),
            size_of::<T>(),
        );
    }
    w
}

/// The Variant of a vector, rect, plane, quaternion or color.
#[inline]
pub fn inline<T: Inline>(v: T) -> Variant {
    // SAFETY: `inline_words` is the layout `layout_holds` checks for every `Inline` type.
    unsafe { plain(v, inline_words::<T>) }
}

#[inline(always)]
fn int_words(v: i64) -> Words {
    words_of(
        sys::GDEXTENSION_VARIANT_TYPE_INT,
        u64::from_ne_bytes(v.to_ne_bytes()),
    )
}

#[inline(always)]
fn float_words(v: f64) -> Words {
    words_of(sys::GDEXTENSION_VARIANT_TYPE_FLOAT, v.to_bits())
}

/// A bool is one byte.
#[inline(always)]
fn bool_words(v: bool) -> Words {
    words_of(
        sys::GDEXTENSION_VARIANT_TYPE_BOOL,
        u64::from_ne_bytes([u8::from(v), 0, 0, 0, 0, 0, 0, 0]),
    )
}

/// A type whose engine value is one pointer to shared, reference-counted data, which its
/// Variant holds right after the tag: String, and the untyped Array and Dictionary.
///
/// # Safety
/// Implement only for gdext types whose `sys()` points to the engine's value, 8 bytes, and
/// whose Rust value owns nothing else (so that forgetting it after its reference is handed
/// over leaks nothing); `TAG` is the type's Variant type.
unsafe trait Shared: GodotFfi + Clone {
    const TAG: sys::GDExtensionVariantType;
    /// A value for the check, whose Variant compares by content.
    fn sample() -> Self;
}

// SAFETY: a GString is exactly its 8-byte pointer (asserted above).
unsafe impl Shared for GString {
    const TAG: sys::GDExtensionVariantType = sys::GDEXTENSION_VARIANT_TYPE_STRING;
    fn sample() -> Self {
        GString::from("FastVarCodec's layout check")
    }
}

// SAFETY: gdext's Array is the engine's 8-byte pointer and a cache of its element type, which
// for the Arrays this module is given (untyped: `untyped_array` and the check's sample) is
// unset or untyped, owning nothing. (An engine-typed one may cache its script: not given here.)
unsafe impl Shared for VarArray {
    const TAG: sys::GDExtensionVariantType = sys::GDEXTENSION_VARIANT_TYPE_ARRAY;
    fn sample() -> Self {
        let mut a = VarArray::new();
        a.push(&Variant::from(1));
        a
    }
}

// SAFETY: as for the Array: the engine's pointer and a cache of element types, unset or
// untyped for the Dictionaries this module is given (`untyped_dictionary`, the check's sample).
unsafe impl Shared for VarDictionary {
    const TAG: sys::GDExtensionVariantType = sys::GDEXTENSION_VARIANT_TYPE_DICTIONARY;
    fn sample() -> Self {
        let mut d = VarDictionary::new();
        d.set(&Variant::from(1), &Variant::from(2));
        d
    }
}

/// The words of a Variant sharing `v`'s reference.
fn shared_words<T: Shared>(v: &T) -> Words {
    // SAFETY: `sys()` points to the engine's 8-byte value (the trait's promise), live for the
    // call.
    let ptr = unsafe { v.sys().cast::<u64>().read_unaligned() };
    words_of(T::TAG, ptr)
}

/// A Variant that takes over `v`'s reference.
///
/// # Safety
/// As [`from_words`]: `T`'s layout must have been checked.
unsafe fn from_shared_words<T: Shared>(v: T) -> Variant {
    let words = shared_words(&v);
    // The Variant owns the reference from now on; `v` owns nothing else (`Shared`).
    std::mem::forget(v);
    // SAFETY: the caller's promise.
    unsafe { from_words(words) }
}

/// `v`'s Variant: `words(v)` when the layout was found as checked, else the engine's.
///
/// Inlined whole into the decode's loops, the engine's way out of line: a Variant written
/// where it is stored is not read back from a temporary (a stalled load per value).
///
/// # Safety
/// `words` must give the Variant of `v` in the layout [`layout_holds`] checks for `T`.
#[inline(always)]
unsafe fn plain<T: ToGodot + Copy>(v: T, words: fn(T) -> Words) -> Variant {
    if in_place() {
        // SAFETY: `in_place` checked this layout; `words` follows it (the caller's promise).
        unsafe { from_words(words(v)) }
    } else {
        engine_variant(v)
    }
}

/// `v`'s Variant made by the engine's constructor.
#[cold]
#[inline(never)]
fn engine_variant<T: ToGodot>(v: T) -> Variant {
    v.to_variant()
}

/// An int's Variant.
#[inline(always)]
pub fn int(v: i64) -> Variant {
    // SAFETY: `int_words` is the int layout `layout_holds` checks.
    unsafe { plain(v, int_words) }
}

/// A float's Variant.
#[inline(always)]
pub fn float(v: f64) -> Variant {
    // SAFETY: `float_words` is the float layout `layout_holds` checks.
    unsafe { plain(v, float_words) }
}

/// A bool's Variant.
#[inline(always)]
pub fn bool(v: bool) -> Variant {
    // SAFETY: `bool_words` is the bool layout `layout_holds` checks.
    unsafe { plain(v, bool_words) }
}

/// A String's Variant, `s` moved in.
#[inline]
pub fn string(s: GString) -> Variant {
    shared(s)
}

/// An untyped Array's Variant, `a` moved in: no reference taken and given back, as the
/// engine's constructor and the dropped original do.
#[inline]
pub fn untyped_array(a: VarArray) -> Variant {
    shared(a)
}

/// An untyped Dictionary's Variant, `d` moved in (as [`untyped_array`]).
#[inline]
pub fn untyped_dictionary(d: VarDictionary) -> Variant {
    shared(d)
}

#[inline(always)]
fn shared<T: Shared + ToGodot>(v: T) -> Variant {
    if in_place() {
        // SAFETY: `in_place` checked this layout (`shared_holds::<T>`).
        unsafe { from_shared_words(v) }
    } else {
        engine_variant(v)
    }
}

/// Whether the Variants of type `tag` were checked to hold their value right after the tag:
/// bool, int, float, String and the [`Inline`] types.
fn checked(tag: sys::GDExtensionVariantType) -> bool {
    matches!(
        tag,
        sys::GDEXTENSION_VARIANT_TYPE_BOOL
            | sys::GDEXTENSION_VARIANT_TYPE_INT
            | sys::GDEXTENSION_VARIANT_TYPE_FLOAT
            | sys::GDEXTENSION_VARIANT_TYPE_STRING
    ) || is_inline(tag)
}

/// The type id of `v`: its tag read in place when the layout was checked (the tag is the same
/// field in a Variant of any type), else the engine's `variant_get_type`.
#[inline]
pub fn type_id(v: &Variant) -> u32 {
    if in_place() {
        // SAFETY: `v` is a live Variant of at least 16 bytes (asserted above), 8-aligned; the
        // check found its first 4 bytes to be the type id.
        unsafe { v.var_sys().cast::<u32>().read() }
    } else {
        // SAFETY: `v` is a valid Variant for the duration of the call.
        unsafe { interface_fn!(variant_get_type)(v.var_sys()) as u32 }
    }
}

/// Whether `v` is NIL, by its tag read in place; `false` when the layout was not checked (the
/// caller then treats it as any Variant).
#[inline]
pub fn is_nil_in_place(v: &Variant) -> bool {
    in_place() && type_id(v) == sys::GDEXTENSION_VARIANT_TYPE_NIL as u32
}

/// Where the value of `v` lies inside it, when `v` holds type `tag` and the check found that
/// type's value right after the tag; `None` otherwise (the caller asks the engine).
///
/// # Safety
/// `v` must hold a Variant of type `tag` (as [`type_id`] reports it).
#[inline]
pub unsafe fn value_in_place(v: &Variant, tag: sys::GDExtensionVariantType) -> Option<*const u8> {
    // SAFETY: the Variant is at least 16 bytes (asserted above), so its second word is inside
    // it; for a checked type that word starts the value (the caller's promise for the type).
    (in_place() && checked(tag)).then(|| unsafe { v.var_sys().cast::<u8>().add(8) })
}

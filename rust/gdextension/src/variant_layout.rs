//! Plain Variants (bool, int, float, String) written in place instead of built by an engine
//! call, as godot-rust's Rust-side marshalling does.
//!
//! A Godot Variant is its type as a 32-bit tag, padding to 8 bytes, then its payload: a bool
//! byte, an int64, a double, or a String's single pointer (which a move hands over without
//! touching its reference count; the engine's constructor copies it, one atomic increment, and
//! the dropped original one atomic decrement). That layout is not part of the GDExtension
//! interface, so it is checked, not assumed: the first use builds a Variant of each of these
//! types through the engine, in zeroed memory, and compares every byte with what this module
//! writes for the same value. On any difference every Variant is built by the engine from then
//! on, and the log says so once. `FAST_VAR_CODEC_VARIANT_LAYOUT=engine` in the environment
//! chooses that path without a check (and says so once too), so both stay tested.

use std::mem::{size_of, MaybeUninit};
use std::sync::OnceLock;

use godot::builtin::{GString, Variant};
use godot::global::godot_warn;
use godot::meta::ToGodot;
use godot::sys::{self, interface_fn, GodotFfi};

/// The environment variable that turns the in-place path off.
pub const ENV: &str = "FAST_VAR_CODEC_VARIANT_LAYOUT";

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
    *IN_PLACE.get_or_init(|| {
        if std::env::var(ENV).is_ok_and(|v| v == "engine") {
            godot_warn!("FastVarCodec: {ENV}=engine: every Variant is built by the engine");
            return false;
        }
        let holds = layout_holds();
        if !holds {
            godot_warn!(
                "FastVarCodec: this engine lays out Variants otherwise than expected; every \
                 Variant is built by the engine (slower, and correct)"
            );
        }
        holds
    })
}

/// Checks the layout now (when the library loads), rather than at the first decode.
pub fn check() {
    in_place();
}

/// A Variant of type `tag` whose payload is the 8 bytes of `payload` (native order), the rest
/// zero.
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
#[inline]
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
    let mut int = 0x0123_4567_89ab_cdef_i64;
    let mut float = -1.0e-300_f64;
    let mut yes = true;
    let text = GString::from("FastVarCodec's layout check");
    let mut copy = text.clone();
    // SAFETY: each pointer is to a live value of the type its tag names.
    let made = unsafe {
        [
            engine_made(sys::GDEXTENSION_VARIANT_TYPE_INT, (&raw mut int).cast()),
            engine_made(sys::GDEXTENSION_VARIANT_TYPE_FLOAT, (&raw mut float).cast()),
            engine_made(sys::GDEXTENSION_VARIANT_TYPE_BOOL, (&raw mut yes).cast()),
            engine_made(sys::GDEXTENSION_VARIANT_TYPE_STRING, copy.sys_mut().cast()),
        ]
    };
    let [Some(int_v), Some(float_v), Some(bool_v), Some(string_v)] = made else {
        return false;
    };
    let same_words = words_in(&int_v) == int_words(int)
        && words_in(&float_v) == float_words(float)
        && words_in(&bool_v) == bool_words(yes)
        && words_in(&string_v) == string_words(&text);
    // And the engine reads back what was written in place.
    same_words && {
        // SAFETY: the words are those of the engine's own Variants, compared just above;
        // the String's Variant owns the reference `text.clone()` gives up below.
        let (i, f, b, s) = unsafe {
            (
                from_words(int_words(int)),
                from_words(float_words(float)),
                from_words(bool_words(yes)),
                from_string_words(text.clone()),
            )
        };
        i == int_v && f == float_v && b == bool_v && s == string_v
    }
}

fn int_words(v: i64) -> Words {
    words_of(
        sys::GDEXTENSION_VARIANT_TYPE_INT,
        u64::from_ne_bytes(v.to_ne_bytes()),
    )
}

fn float_words(v: f64) -> Words {
    words_of(sys::GDEXTENSION_VARIANT_TYPE_FLOAT, v.to_bits())
}

/// A bool is one byte.
fn bool_words(v: bool) -> Words {
    words_of(
        sys::GDEXTENSION_VARIANT_TYPE_BOOL,
        u64::from_ne_bytes([u8::from(v), 0, 0, 0, 0, 0, 0, 0]),
    )
}

/// The words of a String's Variant sharing `s`'s reference.
fn string_words(s: &GString) -> Words {
    // SAFETY: a GString is exactly its 8-byte pointer (asserted above), live for the call.
    let ptr = unsafe { s.sys().cast::<u64>().read_unaligned() };
    words_of(sys::GDEXTENSION_VARIANT_TYPE_STRING, ptr)
}

/// A String's Variant that takes over `s`'s reference.
///
/// # Safety
/// As [`from_words`]: the String layout must have been checked.
unsafe fn from_string_words(s: GString) -> Variant {
    let words = string_words(&s);
    // The Variant owns the reference from now on.
    std::mem::forget(s);
    // SAFETY: the caller's promise.
    unsafe { from_words(words) }
}

/// `v`'s Variant: `words(v)` when the layout was found as checked, else the engine's.
///
/// # Safety
/// `words` must give the Variant of `v` in the layout [`layout_holds`] checks for `T`.
#[inline]
unsafe fn plain<T: ToGodot + Copy>(v: T, words: fn(T) -> Words) -> Variant {
    if in_place() {
        // SAFETY: `in_place` checked this layout; `words` follows it (the caller's promise).
        unsafe { from_words(words(v)) }
    } else {
        v.to_variant()
    }
}

/// An int's Variant.
#[inline]
pub fn int(v: i64) -> Variant {
    // SAFETY: `int_words` is the int layout `layout_holds` checks.
    unsafe { plain(v, int_words) }
}

/// A float's Variant.
#[inline]
pub fn float(v: f64) -> Variant {
    // SAFETY: `float_words` is the float layout `layout_holds` checks.
    unsafe { plain(v, float_words) }
}

/// A bool's Variant.
#[inline]
pub fn bool(v: bool) -> Variant {
    // SAFETY: `bool_words` is the bool layout `layout_holds` checks.
    unsafe { plain(v, bool_words) }
}

/// A String's Variant, `s` moved in.
#[inline]
pub fn string(s: GString) -> Variant {
    if in_place() {
        // SAFETY: `in_place` checked this layout.
        unsafe { from_string_words(s) }
    } else {
        s.to_variant()
    }
}

//! The u32 header that starts every value: type id in byte 0, per-type flags in bytes 2–3.

/// Byte 0 is the type id; the engine masks with 0xFF and ignores byte 1.
pub const TYPE_MASK: u32 = 0xFF;
/// INT/FLOAT: 64-bit payload. Math and packed-vector types (Godot 4): binary64 components.
pub const FLAG_64: u32 = 1 << 16;
/// OBJECT: the payload is a u64 instance id, not a full object.
pub const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
/// ARRAY element kind, and DICTIONARY key kind, live in bits 16–17.
pub const KIND_SHIFT_ELEMENT: u32 = 16;
/// DICTIONARY value kind lives in bits 18–19.
pub const KIND_SHIFT_VALUE: u32 = 18;
/// Mask of a container kind once shifted down: one of the `KIND_*` values.
pub const KIND_MASK: u32 = 0b11;

/// Container type-info kinds (Godot 4.3+ arrays, 4.4+ dictionaries): untyped, no type info
/// follows.
pub const KIND_NONE: u32 = 0;
/// Typed by a builtin type: a u32 type id follows.
pub const KIND_BUILTIN: u32 = 1;
/// Typed by a class: its name follows as a string.
pub const KIND_CLASS_NAME: u32 = 2;
/// Typed by a script: its `res://` path follows as a string.
pub const KIND_SCRIPT: u32 = 3;

/// Bit 31 of a NodePath's name count marks the current (3.0+) layout.
pub const NODE_PATH_NEW_FORMAT: u32 = 0x8000_0000;
/// NodePath flags word: absolute path.
pub const NODE_PATH_ABSOLUTE: u32 = 1;
/// NodePath flags word: obsolete separate property, decoded as one extra subname.
pub const NODE_PATH_PROPERTY: u32 = 2;

/// Array and Dictionary counts: bit 31 is the obsolete "shared" flag and is ignored.
pub const CONTAINER_COUNT_MASK: u32 = 0x7FFF_FFFF;

/// The largest count or byte length the format carries: the engine reads them as int32.
pub const MAX_LEN: usize = i32::MAX as usize;

/// Zero bytes that follow `n` bytes to reach a multiple of 4.
#[inline]
pub const fn pad4(n: usize) -> usize {
    (4 - n % 4) % 4
}

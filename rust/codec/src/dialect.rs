//! Dialects as data: which wire id each type has, which flags and payloads a dialect knows.
//!
//! The writer and reader consult a [`DialectSpec`] and never match on [`Dialect`] themselves,
//! so a new dialect is a new table, not a fork of the codec.

use crate::error::ErrorCode;
use crate::types::VariantType;

/// Which engine family's byte layout to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// Godot 4.4 – 4.6 (`var_to_bytes`): typed Arrays and Dictionaries, 39 types.
    #[default]
    Godot4,
    /// Godot 3.1 – 3.6 (`var2bytes`): 27 types, math always binary32, RID without payload.
    Godot3,
}

impl Dialect {
    pub fn spec(self) -> &'static DialectSpec {
        match self {
            Dialect::Godot4 => &GODOT4,
            Dialect::Godot3 => &GODOT3,
        }
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// Width of `real_t` components on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// binary32 components, no flag: what standard Godot builds write.
    #[default]
    Single,
    /// binary64 components with the header's 64-bit flag: what `precision=double` builds write.
    Double,
}

/// How strictly a dialect's engine validates UTF-8 in string payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Utf8Rules {
    /// Godot 4: rejects overlongs, surrogates, code points above U+10FFFF.
    Strict,
    /// Godot 3: also accepts surrogates and 5/6-byte forms (decoded here as U+FFFD).
    Godot3,
}

/// Everything the codec needs to know about one dialect.
#[derive(Debug)]
pub struct DialectSpec {
    pub name: &'static str,
    /// Wire id of each Godot 4 type that has a same-shaped form in this dialect,
    /// indexed by Godot 4 id. `None`: the type must be converted or refused.
    pub wire_ids: [Option<u8>; crate::types::VARIANT_MAX],
    /// The Godot 4 type for each wire id below `variant_max`.
    pub from_wire: &'static [VariantType],
    /// The decoder rejects type ids at or above this.
    pub variant_max: u32,
    /// Math and packed-vector types may carry the 64-bit flag (double-precision builds).
    pub real_flag: bool,
    /// RID carries a u64 id (Godot 4) instead of nothing (Godot 3).
    pub rid_payload: bool,
    /// Array header bits 16–17 carry an element type kind (Godot 4.3+).
    pub typed_arrays: bool,
    /// Dictionary header bits 16–19 carry key and value type kinds (Godot 4.4+).
    pub typed_dictionaries: bool,
    pub utf8: Utf8Rules,
    /// A full object's `script` property is a `res://` path (Godot 4.3+), not a Script object.
    pub script_as_path: bool,
    /// A NodePath of no names and no subnames keeps its absolute flag (Godot 4); Godot 3
    /// builds an empty path, which is never absolute.
    pub empty_node_path_absolute: bool,
    /// What the engine reports for a full object of a class it cannot instantiate.
    pub unknown_class_code: ErrorCode,
}

impl DialectSpec {
    /// The wire id for `ty`, if the dialect has that type as such.
    #[inline]
    pub fn wire_id(&self, ty: VariantType) -> Option<u8> {
        self.wire_ids.get(ty as usize).copied().flatten()
    }

    /// The Godot 4 type a wire id stands for, `None` for ids the engine rejects.
    #[inline]
    pub fn type_of_wire_id(&self, id: u32) -> Option<VariantType> {
        if id >= self.variant_max {
            return None;
        }
        self.from_wire.get(id as usize).copied()
    }
}

// Runs at compile time: an out-of-range index would fail the build, not a program.
#[allow(clippy::indexing_slicing)]
const fn identity_ids() -> [Option<u8>; crate::types::VARIANT_MAX] {
    let mut ids = [None; crate::types::VARIANT_MAX];
    let mut i = 0;
    while i < ids.len() {
        ids[i] = Some(i as u8);
        i += 1;
    }
    ids
}

static GODOT4: DialectSpec = DialectSpec {
    name: "Godot 4",
    wire_ids: identity_ids(),
    from_wire: &VariantType::ALL,
    variant_max: 39,
    real_flag: true,
    rid_payload: true,
    typed_arrays: true,
    typed_dictionaries: true,
    utf8: Utf8Rules::Strict,
    script_as_path: true,
    empty_node_path_absolute: true,
    unknown_class_code: ErrorCode::InvalidData,
};

/// Godot 3 wire ids in order; the position is the Godot 3 id (wire-format.md §3.1).
static GODOT3_FROM_WIRE: [VariantType; 27] = {
    use VariantType as T;
    [
        T::Nil,
        T::Bool,
        T::Int,
        T::Float,
        T::String,
        T::Vector2,
        T::Rect2,
        T::Vector3,
        T::Transform2D,
        T::Plane,
        T::Quaternion,
        T::Aabb,
        T::Basis,
        T::Transform3D,
        T::Color,
        T::NodePath,
        T::Rid,
        T::Object,
        T::Dictionary,
        T::Array,
        T::PackedByteArray,
        T::PackedInt32Array,
        T::PackedFloat32Array,
        T::PackedStringArray,
        T::PackedVector2Array,
        T::PackedVector3Array,
        T::PackedColorArray,
    ]
};

#[allow(clippy::indexing_slicing)]
const fn invert(from_wire: &[VariantType]) -> [Option<u8>; crate::types::VARIANT_MAX] {
    let mut ids = [None; crate::types::VARIANT_MAX];
    let mut wire = 0;
    while wire < from_wire.len() {
        ids[from_wire[wire] as usize] = Some(wire as u8);
        wire += 1;
    }
    ids
}

static GODOT3: DialectSpec = DialectSpec {
    name: "Godot 3",
    wire_ids: invert(&GODOT3_FROM_WIRE),
    from_wire: &GODOT3_FROM_WIRE,
    variant_max: 27,
    real_flag: false,
    rid_payload: false,
    typed_arrays: false,
    typed_dictionaries: false,
    utf8: Utf8Rules::Godot3,
    script_as_path: false,
    empty_node_path_absolute: false,
    unknown_class_code: ErrorCode::Unavailable,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn godot3_table_inverts() {
        let spec = Dialect::Godot3.spec();
        for (wire, ty) in GODOT3_FROM_WIRE.iter().enumerate() {
            assert_eq!(spec.wire_id(*ty), Some(wire as u8));
            assert_eq!(spec.type_of_wire_id(wire as u32), Some(*ty));
        }
        assert_eq!(spec.wire_id(VariantType::StringName), None);
        assert_eq!(spec.type_of_wire_id(27), None);
    }

    #[test]
    fn godot4_ids_are_identity() {
        let spec = Dialect::Godot4.spec();
        for ty in VariantType::ALL {
            assert_eq!(spec.wire_id(ty), Some(ty as u8));
        }
        assert_eq!(spec.type_of_wire_id(39), None);
    }
}

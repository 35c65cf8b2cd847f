//! Dialects as data: which wire id each type has, which flags and payloads a dialect knows.
//!
//! The writer and reader consult a [`DialectSpec`] and never match on [`Dialect`] themselves,
//! so a new dialect is a new table, not a fork of the codec.

use crate::godot_error::ErrorCode;
use crate::header::{FLAG_64, TYPE_MASK};
use crate::names::{NameKind, UnknownName};
use crate::types::{IntVectorType, VariantType};

/// Which engine family's byte layout to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// Godot 4.4 – 4.6 (`var_to_bytes`): typed Arrays and Dictionaries, 39 types.
    #[default]
    Godot4,
    /// What Godot 4.3 reads and writes: as [`Dialect::Godot4`] without typed Dictionaries
    /// (written untyped, as 4.3 wrote them). Derived from the engine's history
    /// (docs/wire_format.md#older-godot-4-releases); no 4.3 engine was run.
    Godot4_3,
    /// What Godot 4.0 – 4.2 read and write: as [`Dialect::Godot4`] without typed containers
    /// (written untyped, as those engines wrote them), without PackedVector4Array (id 38 does
    /// not exist: refused, or an Array of Vector4 under the lossy policy), and with a full
    /// object's `script` not sent as a path. Derived from the engine's history, as above.
    Godot4_0To4_2,
    /// Godot 3.1 – 3.6 (`var2bytes`): 27 types, math always binary32, RID without payload.
    Godot3,
    /// Pandemonium v3.8.0 – v4.9.0: Godot 3 layout with Godot 4 types renumbered (38 ids),
    /// pool arrays of Vector2i/3i/4/4i.
    Pandemonium38,
    /// Pandemonium v5.0.0 and later: as v3.8 plus TYPED_ARRAY and PACKED_TYPED_ARRAY (40 ids).
    Pandemonium5,
}

impl Dialect {
    pub(crate) fn spec(self) -> &'static DialectSpec {
        match self {
            Dialect::Godot4 => &GODOT4,
            Dialect::Godot4_3 => &GODOT4_3,
            Dialect::Godot4_0To4_2 => &GODOT4_0_TO_4_2,
            Dialect::Godot3 => &GODOT3,
            Dialect::Pandemonium38 => &PANDEMONIUM_38,
            Dialect::Pandemonium5 => &PANDEMONIUM_5,
        }
    }

    /// The dialect's name for people (`"Godot 4"`, `"Godot 3"` …), as error messages give it.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The engine releases that read and write this dialect, for choices shown to people (a
    /// command line's help, a menu): `"Godot 4.4 – 4.6"`, `"Godot 3.1 – 3.6"`, ….
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Dialect;
    /// for d in Dialect::ALL {
    ///     println!("{:16} {}", d.short_name(), d.engines());
    /// }
    /// assert_eq!(Dialect::Godot4_0To4_2.engines(), "Godot 4.0 – 4.2");
    /// ```
    pub fn engines(self) -> &'static str {
        match self {
            Dialect::Godot4 => "Godot 4.4 – 4.6",
            Dialect::Godot4_3 => "Godot 4.3",
            Dialect::Godot4_0To4_2 => "Godot 4.0 – 4.2",
            Dialect::Godot3 => "Godot 3.1 – 3.6",
            Dialect::Pandemonium38 => "Pandemonium v3.8.0 – v4.9.0",
            Dialect::Pandemonium5 => "Pandemonium v5.0.0 and later",
        }
    }

    /// The engine family: dialects of one family differ only in what later releases added, so
    /// the newest (the first in [`Dialect::ALL`]) reads what the others write as they do.
    /// Pandemonium's two numberings of the type ids read the same bytes differently: two
    /// families.
    pub(crate) fn family(self) -> u8 {
        match self {
            Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2 => 4,
            Dialect::Godot3 => 3,
            Dialect::Pandemonium38 => 38,
            Dialect::Pandemonium5 => 5,
        }
    }

    /// Every dialect.
    pub const ALL: [Dialect; 6] = [
        Dialect::Godot4,
        Dialect::Godot4_3,
        Dialect::Godot4_0To4_2,
        Dialect::Godot3,
        Dialect::Pandemonium38,
        Dialect::Pandemonium5,
    ];

    /// The dialect's short name in files and on command lines (the golden corpora, the
    /// `fast-var-codec` tool, the echo server): `"godot4"`, `"godot4_3"`, `"godot4_0_to_4_2"`,
    /// `"godot3"`, `"pandemonium38"`, `"pandemonium5"`. `FromStr` reads it back.
    pub fn short_name(self) -> &'static str {
        match self {
            Dialect::Godot4 => "godot4",
            Dialect::Godot4_3 => "godot4_3",
            Dialect::Godot4_0To4_2 => "godot4_0_to_4_2",
            Dialect::Godot3 => "godot3",
            Dialect::Pandemonium38 => "pandemonium38",
            Dialect::Pandemonium5 => "pandemonium5",
        }
    }
}

/// What the bytes of a dialect say, for tools that show the bytes themselves (the command
/// line's `dump`): type ids, and what a value's header word stands for.
impl Dialect {
    /// The wire id this dialect writes for a type, `None` where it has no such type (Godot 3
    /// has no Vector4: such a value is converted or refused).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::{value::VariantType, Dialect};
    /// assert_eq!(Dialect::Godot4.wire_id(VariantType::Color), Some(20));
    /// assert_eq!(Dialect::Godot3.wire_id(VariantType::Color), Some(14));
    /// assert_eq!(Dialect::Godot3.wire_id(VariantType::Vector4), None);
    /// ```
    pub fn wire_id(self, ty: VariantType) -> Option<u8> {
        self.spec().wire_id(ty)
    }

    /// Whether this dialect's engines have double-precision builds (`precision=double`), whose
    /// math values and packed vector arrays carry binary64 reals, marked by the header's 64-bit
    /// flag: the Godot 4 dialects. Godot 3's and Pandemonium's write binary32 reals always.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Dialect;
    /// assert!(Dialect::Godot4.has_double_precision());
    /// assert!(!Dialect::Godot3.has_double_precision());
    /// ```
    pub fn has_double_precision(self) -> bool {
        self.spec().real_flag
    }

    /// What a value's header word (its first four bytes, as a little-endian `u32`) says in this
    /// dialect, `None` for a type id the engine refuses.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::reader::{WireForm, WireHeader};
    /// use fast_var_codec_core::{value::VariantType, Dialect};
    ///
    /// // A Godot 4 float of 64 bits: id 3, the 64-bit flag.
    /// let h: WireHeader = Dialect::Godot4.read_header(3 | 1 << 16).unwrap();
    /// assert_eq!(h.form, WireForm::Type(VariantType::Float));
    /// assert!(h.wide);
    /// // Id 14 is a Color in Godot 3, a Plane in Godot 4.
    /// assert_eq!(Dialect::Godot3.read_header(14).unwrap().form, WireForm::Type(VariantType::Color));
    /// assert_eq!(Dialect::Godot4.read_header(14).unwrap().form, WireForm::Type(VariantType::Plane));
    /// assert_eq!(Dialect::Godot4.read_header(250), None);
    /// ```
    pub fn read_header(self, word: u32) -> Option<WireHeader> {
        let spec = self.spec();
        let id = word & TYPE_MASK;
        let flag = word & FLAG_64 != 0;
        let (form, wide) = match spec.kind_of_wire_id(id)? {
            WireKind::Type(t @ (VariantType::Int | VariantType::Float)) => {
                (WireForm::Type(t), flag)
            }
            WireKind::Type(t) => (
                WireForm::Type(t),
                flag && spec.real_flag && t.carries_reals(),
            ),
            WireKind::IntVectorPool(t) => (WireForm::IntVectorPool(t.variant_type()), false),
            WireKind::TypedArray if spec.typed_array_id.map(u32::from) == Some(id) => {
                (WireForm::TypedArray, false)
            }
            WireKind::TypedArray => (WireForm::PackedTypedArray, false),
        };
        Some(WireHeader {
            id: id as u8,
            form,
            wide,
        })
    }
}

/// What a value's header word says in a dialect ([`Dialect::read_header`]): its type id, the
/// form of the bytes that follow, and whether its numbers are 64-bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WireHeader {
    /// The type id: the header's low byte.
    pub id: u8,
    /// What the id stands for.
    pub form: WireForm,
    /// The numbers are 64-bit: an int's or float's payload, or the reals of a math type or
    /// packed vector array written by a double-precision build
    /// ([`Dialect::has_double_precision`]).
    pub wide: bool,
}

/// What a type id stands for in a dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireForm {
    /// A type as Godot 4 has it, with the bytes that type takes in the dialect.
    Type(VariantType),
    /// Pandemonium's pool array of int vectors (`POOL_VECTOR2I_ARRAY` …), read as a typed
    /// `Array` of this element type (`Vector2i`, `Vector3i`, `Vector4i`).
    IntVectorPool(VariantType),
    /// Pandemonium 5's `TYPED_ARRAY`: an element type, a count, the elements; read as a typed
    /// `Array`.
    TypedArray,
    /// Pandemonium 5's `PACKED_TYPED_ARRAY`, of the same layout.
    PackedTypedArray,
}

/// Every [`Dialect::short_name`], comma-separated.
fn short_names() -> String {
    Dialect::ALL.map(Dialect::short_name).join(", ")
}

/// The dialect of a [`Dialect::short_name`].
///
/// # Errors
/// [`UnknownName`] for any other text.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Dialect;
/// assert_eq!("pandemonium38".parse(), Ok(Dialect::Pandemonium38));
/// assert!("Godot4".parse::<Dialect>().is_err());
/// ```
impl std::str::FromStr for Dialect {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Dialect::ALL
            .into_iter()
            .find(|d| d.short_name() == name)
            .ok_or_else(|| {
                UnknownName::new(
                    NameKind::Dialect,
                    name,
                    None,
                    format!("one of {}", short_names()),
                )
            })
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

/// Which UTF-8 a dialect's engine accepts in string payloads: what [`crate::reader::Build`]'s string
/// methods are given, to decode the bytes by the same rules ([`crate::reader::decode_utf8`]
/// applies them). Both stop at the first NUL and drop one leading byte-order mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Utf8Rules {
    /// Godot 4: rejects overlongs, surrogates, code points above U+10FFFF.
    Strict,
    /// Godot 3: also accepts surrogates and 5/6-byte forms (decoded here as U+FFFD).
    Godot3,
}

/// How the engine compares and admits Variants where a decode depends on it: which Dictionary
/// keys it merges, and which elements a typed array takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum VariantRules {
    /// Godot 4.6.3: String and StringName of one text are one key, a Float inside a key equals
    /// nothing if it is NaN, Dictionaries inside keys compare entry by entry; typed containers
    /// convert elements where Godot converts strictly (see `value::keys` and `ValueBuilder`).
    #[default]
    Godot4,
    /// Godot 3.x's `Variant::hash_compare` (Godot 3 and its fork Pandemonium, checked on 3.2.3,
    /// 3.6.2 and Pandemonium v4.9.0 / v5.2.0): String and StringName are two keys, a Float
    /// inside an Array key compares as at the top (NaN == NaN), a Dictionary equals no other
    /// (3.x compares Dictionaries by identity); a typed array (Pandemonium 5's TypedArray)
    /// takes only elements of exactly its type, converting nothing.
    Godot3,
}

/// What a wire id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WireKind {
    /// A Godot 4 type with its usual payload.
    Type(VariantType),
    /// Pandemonium's POOL_VECTOR2I/3I/4I_ARRAY: a count, then int32 components; a typed
    /// `Array[Vector2i]` (…) on the Godot 4 side, which has no packed int-vector arrays.
    IntVectorPool(IntVectorType),
    /// Pandemonium 5's TYPED_ARRAY and PACKED_TYPED_ARRAY: element type, count, elements.
    TypedArray,
}

/// Everything the codec needs to know about one dialect.
#[derive(Debug)]
pub(crate) struct DialectSpec {
    pub name: &'static str,
    /// Wire id of each Godot 4 type that has a same-shaped form in this dialect,
    /// indexed by Godot 4 id. `None`: the type must be converted or refused.
    pub wire_ids: [Option<u8>; crate::types::VARIANT_MAX],
    /// What each wire id below `variant_max` stands for.
    pub from_wire: &'static [WireKind],
    /// Wire id of the pool array for Vector2i, Vector3i, Vector4i (Pandemonium), if any.
    pub int_vector_pools: [Option<u8>; 3],
    /// Wire id written for typed Arrays (Pandemonium 5's TYPED_ARRAY), if any.
    pub typed_array_id: Option<u8>,
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
    /// Which keys a decoded Dictionary merges, which elements a typed array takes.
    pub variant_rules: VariantRules,
}

impl DialectSpec {
    /// The wire id for `ty`, if the dialect has that type as such.
    #[inline]
    pub fn wire_id(&self, ty: VariantType) -> Option<u8> {
        self.wire_ids.get(ty as usize).copied().flatten()
    }

    /// What a wire id stands for, `None` for ids the engine rejects.
    #[inline]
    pub fn kind_of_wire_id(&self, id: u32) -> Option<WireKind> {
        if id >= self.variant_max {
            return None;
        }
        self.from_wire.get(id as usize).copied()
    }

    /// The Godot 4 type a wire id stands for, when it is a plain type.
    #[inline]
    pub fn type_of_wire_id(&self, id: u32) -> Option<VariantType> {
        match self.kind_of_wire_id(id) {
            Some(WireKind::Type(t)) => Some(t),
            _ => None,
        }
    }

    /// The wire id of the pool array holding `ty`, if the dialect has one.
    pub fn int_vector_pool(&self, ty: IntVectorType) -> Option<u8> {
        match ty {
            IntVectorType::Vector2i => self.int_vector_pools[0],
            IntVectorType::Vector3i => self.int_vector_pools[1],
            IntVectorType::Vector4i => self.int_vector_pools[2],
            IntVectorType::Rect2i => None,
        }
    }
}

const fn plain(
    types: [VariantType; crate::types::VARIANT_MAX],
) -> [WireKind; crate::types::VARIANT_MAX] {
    let mut out = [WireKind::Type(VariantType::Nil); crate::types::VARIANT_MAX];
    let mut i = 0;
    while i < types.len() {
        // Runs at compile time: an out-of-range index would fail the build, not a program.
        #[allow(clippy::indexing_slicing)]
        {
            out[i] = WireKind::Type(types[i]);
        }
        i += 1;
    }
    out
}

static GODOT4_FROM_WIRE: [WireKind; crate::types::VARIANT_MAX] = plain(VariantType::ALL);

static GODOT4: DialectSpec = GODOT4_SPEC;

const GODOT4_SPEC: DialectSpec = DialectSpec {
    name: "Godot 4",
    wire_ids: invert(&GODOT4_FROM_WIRE),
    from_wire: &GODOT4_FROM_WIRE,
    int_vector_pools: [None; 3],
    typed_array_id: None,
    variant_max: 39,
    real_flag: true,
    rid_payload: true,
    typed_arrays: true,
    typed_dictionaries: true,
    utf8: Utf8Rules::Strict,
    script_as_path: true,
    empty_node_path_absolute: true,
    unknown_class_code: ErrorCode::InvalidData,
    variant_rules: VariantRules::Godot4,
};

/// Godot 4.3: typed Dictionaries came in 4.4 (GH-98120).
static GODOT4_3: DialectSpec = DialectSpec {
    name: "Godot 4.3",
    typed_dictionaries: false,
    ..GODOT4_SPEC
};

/// Godot 4.0 – 4.2: typed Array kinds, PackedVector4Array (id 38) and the script as a path came in
/// 4.3 (GH-78219, GH-85474).
static GODOT4_0_TO_4_2: DialectSpec = DialectSpec {
    name: "Godot 4.0-4.2",
    wire_ids: without_packed_vector4(invert(&GODOT4_FROM_WIRE)),
    variant_max: 38,
    typed_arrays: false,
    typed_dictionaries: false,
    script_as_path: false,
    ..GODOT4_SPEC
};

const fn without_packed_vector4(
    mut ids: [Option<u8>; crate::types::VARIANT_MAX],
) -> [Option<u8>; crate::types::VARIANT_MAX] {
    // Runs at compile time: an out-of-range index would fail the build, not a program.
    #[allow(clippy::indexing_slicing)]
    {
        ids[VariantType::PackedVector4Array as usize] = None;
    }
    ids
}

/// Godot 3 wire ids in order; the position is the Godot 3 id (docs/wire_format.md#godot-3-ids).
static GODOT3_FROM_WIRE: [WireKind; 27] = {
    use VariantType as T;
    use WireKind::Type as W;
    [
        W(T::Nil),
        W(T::Bool),
        W(T::Int),
        W(T::Float),
        W(T::String),
        W(T::Vector2),
        W(T::Rect2),
        W(T::Vector3),
        W(T::Transform2D),
        W(T::Plane),
        W(T::Quaternion),
        W(T::Aabb),
        W(T::Basis),
        W(T::Transform3D),
        W(T::Color),
        W(T::NodePath),
        W(T::Rid),
        W(T::Object),
        W(T::Dictionary),
        W(T::Array),
        W(T::PackedByteArray),
        W(T::PackedInt32Array),
        W(T::PackedFloat32Array),
        W(T::PackedStringArray),
        W(T::PackedVector2Array),
        W(T::PackedVector3Array),
        W(T::PackedColorArray),
    ]
};

/// Wire id of each plain Godot 4 type, from a dialect's wire table.
#[allow(clippy::indexing_slicing)] // compile time only
const fn invert(from_wire: &[WireKind]) -> [Option<u8>; crate::types::VARIANT_MAX] {
    let mut ids = [None; crate::types::VARIANT_MAX];
    let mut wire = 0;
    while wire < from_wire.len() {
        if let WireKind::Type(t) = from_wire[wire] {
            ids[t as usize] = Some(wire as u8);
        }
        wire += 1;
    }
    ids
}

/// Wire ids of the Vector2i, Vector3i and Vector4i pools in a wire table.
#[allow(clippy::indexing_slicing)] // compile time only
const fn pools(from_wire: &[WireKind]) -> [Option<u8>; 3] {
    let mut ids = [None; 3];
    let mut wire = 0;
    while wire < from_wire.len() {
        match from_wire[wire] {
            WireKind::IntVectorPool(IntVectorType::Vector2i) => ids[0] = Some(wire as u8),
            WireKind::IntVectorPool(IntVectorType::Vector3i) => ids[1] = Some(wire as u8),
            WireKind::IntVectorPool(IntVectorType::Vector4i) => ids[2] = Some(wire as u8),
            _ => {}
        }
        wire += 1;
    }
    ids
}

/// The first wire id of a typed-array form in a wire table.
#[allow(clippy::indexing_slicing)] // compile time only
const fn typed_array(from_wire: &[WireKind]) -> Option<u8> {
    let mut wire = 0;
    while wire < from_wire.len() {
        if let WireKind::TypedArray = from_wire[wire] {
            return Some(wire as u8);
        }
        wire += 1;
    }
    None
}

static GODOT3: DialectSpec = DialectSpec {
    name: "Godot 3",
    wire_ids: invert(&GODOT3_FROM_WIRE),
    from_wire: &GODOT3_FROM_WIRE,
    int_vector_pools: [None; 3],
    typed_array_id: None,
    variant_max: 27,
    real_flag: false,
    rid_payload: false,
    typed_arrays: false,
    typed_dictionaries: false,
    utf8: Utf8Rules::Godot3,
    script_as_path: false,
    empty_node_path_absolute: false,
    unknown_class_code: ErrorCode::Unavailable,
    variant_rules: VariantRules::Godot3,
};

/// Ids 0–26 of Pandemonium v3.8 and later, both eras (docs/wire_format.md#pandemonium-ids).
macro_rules! pandemonium_common {
    () => {{
        use VariantType as T;
        use WireKind::Type as W;
        [
            W(T::Nil),
            W(T::Bool),
            W(T::Int),
            W(T::Float),
            W(T::String),
            W(T::Rect2),
            W(T::Rect2i),
            W(T::Vector2),
            W(T::Vector2i),
            W(T::Vector3),
            W(T::Vector3i),
            W(T::Vector4),
            W(T::Vector4i),
            W(T::Plane),
            W(T::Quaternion),
            W(T::Aabb),
            W(T::Basis),
            W(T::Transform3D),
            W(T::Transform2D),
            W(T::Projection),
            W(T::Color),
            W(T::NodePath),
            W(T::Rid),
            W(T::Object),
            W(T::StringName),
            W(T::Dictionary),
            W(T::Array),
        ]
    }};
}

const fn concat<const A: usize, const B: usize, const N: usize>(
    a: [WireKind; A],
    b: [WireKind; B],
) -> [WireKind; N] {
    let mut out = [WireKind::Type(VariantType::Nil); N];
    let mut i = 0;
    while i < N {
        // Compile time only; A + B == N is checked by the callers' array types.
        #[allow(clippy::indexing_slicing)]
        {
            out[i] = if i < A { a[i] } else { b[i - A] };
        }
        i += 1;
    }
    out
}

/// Pandemonium v3.8.0 – v4.9.0 (column B).
static PANDEMONIUM_38_FROM_WIRE: [WireKind; 38] = {
    use IntVectorType as I;
    use VariantType as T;
    use WireKind::{IntVectorPool as P, Type as W};
    concat::<27, 11, 38>(
        pandemonium_common!(),
        [
            W(T::PackedByteArray),
            W(T::PackedInt32Array),
            W(T::PackedFloat32Array),
            W(T::PackedStringArray),
            W(T::PackedVector2Array),
            P(I::Vector2i),
            W(T::PackedVector3Array),
            P(I::Vector3i),
            W(T::PackedVector4Array),
            P(I::Vector4i),
            W(T::PackedColorArray),
        ],
    )
};

/// Pandemonium v5.0.0 and later (column C): TYPED_ARRAY and PACKED_TYPED_ARRAY at 27 and 28.
static PANDEMONIUM_5_FROM_WIRE: [WireKind; 40] = {
    use IntVectorType as I;
    use VariantType as T;
    use WireKind::{IntVectorPool as P, Type as W, TypedArray};
    concat::<27, 13, 40>(
        pandemonium_common!(),
        [
            TypedArray,
            TypedArray,
            W(T::PackedByteArray),
            W(T::PackedInt32Array),
            W(T::PackedFloat32Array),
            W(T::PackedStringArray),
            W(T::PackedVector2Array),
            P(I::Vector2i),
            W(T::PackedVector3Array),
            P(I::Vector3i),
            W(T::PackedVector4Array),
            P(I::Vector4i),
            W(T::PackedColorArray),
        ],
    )
};

/// Shared by both Pandemonium eras: a Godot 3 fork, so Godot 3's rules where not renumbered;
/// its current UTF-8 decoder is the strict Godot 4 one (docs/wire_format.md#pandemonium).
macro_rules! pandemonium_spec {
    ($name:literal, $table:ident) => {
        DialectSpec {
            name: $name,
            wire_ids: invert(&$table),
            from_wire: &$table,
            int_vector_pools: pools(&$table),
            typed_array_id: typed_array(&$table),
            variant_max: $table.len() as u32,
            real_flag: false,
            rid_payload: false,
            typed_arrays: false,
            typed_dictionaries: false,
            utf8: Utf8Rules::Strict,
            script_as_path: false,
            empty_node_path_absolute: false,
            unknown_class_code: ErrorCode::Unavailable,
            variant_rules: VariantRules::Godot3,
        }
    };
}

static PANDEMONIUM_38: DialectSpec = pandemonium_spec!("Pandemonium 3.8", PANDEMONIUM_38_FROM_WIRE);
static PANDEMONIUM_5: DialectSpec = pandemonium_spec!("Pandemonium 5", PANDEMONIUM_5_FROM_WIRE);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn godot3_table_inverts() {
        let spec = Dialect::Godot3.spec();
        for (wire, kind) in GODOT3_FROM_WIRE.iter().enumerate() {
            let WireKind::Type(ty) = kind else { panic!() };
            assert_eq!(spec.wire_id(*ty), Some(wire as u8));
            assert_eq!(spec.type_of_wire_id(wire as u32), Some(*ty));
        }
        assert_eq!(spec.int_vector_pool(IntVectorType::Vector2i), None);
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

    #[test]
    fn older_godot4_tables_lack_what_came_later() {
        let g42 = Dialect::Godot4_0To4_2.spec();
        assert_eq!(g42.wire_id(VariantType::PackedVector4Array), None);
        assert_eq!(g42.type_of_wire_id(38), None);
        assert_eq!(g42.wire_id(VariantType::PackedColorArray), Some(37));
        assert!(!g42.typed_arrays && !g42.typed_dictionaries && !g42.script_as_path);
        let g43 = Dialect::Godot4_3.spec();
        assert_eq!(g43.wire_id(VariantType::PackedVector4Array), Some(38));
        assert!(g43.typed_arrays && !g43.typed_dictionaries && g43.script_as_path);
    }

    #[test]
    fn pandemonium_tables_match_the_spec() {
        let b = Dialect::Pandemonium38.spec();
        let c = Dialect::Pandemonium5.spec();
        for (ty, id) in [
            (VariantType::Rect2, 5),
            (VariantType::Vector2, 7),
            (VariantType::Transform3D, 17),
            (VariantType::Transform2D, 18),
            (VariantType::Object, 23),
            (VariantType::StringName, 24),
            (VariantType::Array, 26),
        ] {
            assert_eq!(b.wire_id(ty), Some(id), "{ty}");
            assert_eq!(c.wire_id(ty), Some(id), "{ty}");
        }
        assert_eq!(b.wire_id(VariantType::PackedColorArray), Some(37));
        assert_eq!(c.wire_id(VariantType::PackedColorArray), Some(39));
        assert_eq!(b.int_vector_pool(IntVectorType::Vector2i), Some(32));
        assert_eq!(c.int_vector_pool(IntVectorType::Vector4i), Some(38));
        assert_eq!((b.typed_array_id, c.typed_array_id), (None, Some(27)));
        assert_eq!(c.kind_of_wire_id(28), Some(WireKind::TypedArray));
        assert_eq!((b.variant_max, c.variant_max), (38, 40));
        assert_eq!(b.wire_id(VariantType::Callable), None);
        assert_eq!(b.wire_id(VariantType::PackedInt64Array), None);
    }
}

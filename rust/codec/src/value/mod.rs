//! An engine-free model of every Godot 4 Variant, for Rust servers and tools, and the two
//! adapters that connect it to the codec: a walk that feeds the [`Writer`](crate::writer::Writer)
//! (`write`) and a [`Build`](crate::reader::Build) implementation for the reader (`build`), which applies
//! what the engine does on decode (`convert`: typed containers; `keys`: equal keys merge).

mod access;
mod build;
mod convert;
mod depth;
#[cfg(feature = "text")]
mod engine_sort;
mod from;
#[cfg(feature = "text")]
pub(crate) mod godot_text;
#[cfg(feature = "text")]
mod grisu;
mod index;
#[cfg(feature = "text")]
mod key_order;
pub(crate) mod keys;
#[cfg(feature = "text")]
pub(crate) mod parse_text;
mod string;
mod write;

pub use access::{DictionaryIter, Entry, Key, Lookup, OccupiedEntry, VacantEntry};
pub(crate) use build::type_kept_as_is;
pub use build::{DictionaryInProgress, ValueBuilder};
#[cfg(feature = "text")]
pub use godot_text::{Godot3Text, OneLine};
pub use write::write_value;

pub use string::GodotString;

// The vocabulary of Godot's types, which values, the writer and the reader share.
pub use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType, VariantType};

use std::fmt;

/// A Godot value. Math types hold `real_t` components as f64 in wire order (so both
/// precisions fit); equality compares floats bit for bit (NaN equals the same NaN, and
/// 0.0 differs from -0.0), which is what "the same bytes" needs.
///
/// A `Value` is 32 bytes: a String or StringName of up to 24 bytes is held inline
/// ([`GodotString`], no allocation: most keys and texts of game messages), and the variants
/// whose payload is larger than 24 bytes (the math types of four or more reals, NodePath,
/// Signal's name, Array, Dictionary, Object) are boxed. Decoding a message into `Value`s makes
/// an allocation per container and per long text, and moves each value in two 16-byte halves.
///
/// Read it with `as_*`, `is_*`, [`Value::get`], [`Value::pointer`] and indexing, change it in
/// place with [`Value::get_mut`], `v["key"] = x` and [`Value::pointer_mut`], build it with
/// `From`, `FromIterator` and the constructors (see the `impl` blocks below), print it as
/// Godot's `var_to_str` does with `Display` (on one line with [`Value::one_line`]). The variants are public for `match`; building a boxed one
/// through its constructor keeps code independent of what is boxed.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{decode, encode, Options, Value};
///
/// let v = Value::from_iter([
///     ("rotation", Value::quaternion(0.0, 0.0, 0.0, 1.0)),
///     ("position", Value::from([1.0, 2.0, 3.0])), // a Vector3
/// ]);
/// let opts = Options::default();
/// let (back, _) = decode(&encode(&v, &opts)?, &opts)?;
/// assert_eq!(back["rotation"].as_quaternion(), Some([0.0, 0.0, 0.0, 1.0]));
/// assert_eq!(back["position"].as_vector3().map(|p| p[2]), Some(3.0));
/// assert_eq!(back.to_string(), "{\n\"position\": Vector3(1, 2, 3),\n\"rotation\": Quaternion(0, 0, 0, 1)\n}");
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Clone, Default)]
// A whole word of tag, so that every payload starts at byte 8 and a `Value` is copied in whole
// words: with a one-byte tag, bytes 1–7 held some payloads, and each copy read the first word
// as two overlapping 4-byte halves of what had been stored as one byte, a stall each time.
#[repr(u64)]
pub enum Value {
    /// `null`.
    #[default]
    Nil,
    /// A bool.
    Bool(bool),
    /// An int (64-bit in the engine; written as 32 bits when it fits).
    Int(i64),
    /// A float (always binary64 in the engine; written as binary32 when that is exact).
    Float(f64),
    /// A String.
    String(GodotString),
    /// x, y
    Vector2([f64; 2]),
    /// x, y (not in Godot 3, like every `i` vector: a Vector2 there under the lossy policy).
    Vector2i([i32; 2]),
    /// position.x, position.y, size.x, size.y
    Rect2(Box<[f64; 4]>),
    /// position.x, position.y, size.x, size.y (not in Godot 3).
    Rect2i([i32; 4]),
    /// x, y, z
    Vector3([f64; 3]),
    /// x, y, z (not in Godot 3).
    Vector3i([i32; 3]),
    /// Column-major: x axis, y axis, origin.
    Transform2D(Box<[f64; 6]>),
    /// x, y, z, w (not in Godot 3: a Quaternion of the four reals there under the lossy policy).
    Vector4(Box<[f64; 4]>),
    /// x, y, z, w (not in Godot 3).
    Vector4i([i32; 4]),
    /// normal.x, normal.y, normal.z, d
    Plane(Box<[f64; 4]>),
    /// x, y, z, w
    Quaternion(Box<[f64; 4]>),
    /// position.xyz, size.xyz
    Aabb(Box<[f64; 6]>),
    /// Row-major (the wire order).
    Basis(Box<[f64; 9]>),
    /// Row-major basis, then origin.
    Transform3D(Box<[f64; 12]>),
    /// Column-major (not in Godot 3: a PackedFloat32Array of its 16 reals there under the lossy
    /// policy).
    Projection(Box<[f64; 16]>),
    /// r, g, b, a: always binary32, in either precision.
    Color([f32; 4]),
    /// A StringName (`&"name"`); Godot 3 has none and writes a String.
    StringName(GodotString),
    /// A NodePath.
    NodePath(Box<NodePath>),
    /// An RID's id (0 for an empty RID); Godot 3 writes none, so only an empty RID is exact
    /// there.
    Rid(u64),
    /// An object sent as its instance id (`EncodedObjectAsID` on the Godot side).
    ObjectId(u64),
    /// A full object (`var_to_bytes_with_objects`).
    Object(Box<Object>),
    /// A Callable: the engine sends no payload (its target cannot travel), so it decodes as an
    /// empty Callable. Not in Godot 3: NIL there under the lossy policy.
    Callable,
    /// A Signal (not in Godot 3: `[name, object_id]` there under the lossy policy).
    Signal {
        /// The signal's name.
        name: Box<str>,
        /// The instance id of the object that has it.
        object_id: u64,
    },
    /// A Dictionary, typed or not.
    Dictionary(Box<Dictionary>),
    /// An Array, typed or not.
    Array(Box<Array>),
    /// A PackedByteArray (PoolByteArray in Godot 3).
    PackedByteArray(Vec<u8>),
    /// A PackedInt32Array (PoolIntArray in Godot 3).
    PackedInt32Array(Vec<i32>),
    /// A PackedInt64Array (not in Godot 3: an Array of ints there under the lossy policy).
    PackedInt64Array(Vec<i64>),
    /// A PackedFloat32Array (PoolRealArray in Godot 3).
    PackedFloat32Array(Vec<f32>),
    /// A PackedFloat64Array (not in Godot 3: an Array of floats there under the lossy policy).
    PackedFloat64Array(Vec<f64>),
    /// A PackedStringArray.
    PackedStringArray(Vec<GodotString>),
    /// A PackedVector2Array of x, y pairs.
    PackedVector2Array(Vec<[f64; 2]>),
    /// A PackedVector3Array of x, y, z triples.
    PackedVector3Array(Vec<[f64; 3]>),
    /// A PackedColorArray of r, g, b, a (binary32).
    PackedColorArray(Vec<[f32; 4]>),
    /// A PackedVector4Array (Godot 4.3+ only: an Array of Vector4 in the other dialects under the
    /// lossy policy).
    PackedVector4Array(Vec<[f64; 4]>),
}

// Every `Value` is built on the stack and moved into its container: at 104 bytes (Transform3D
// inline) and with its Strings on the heap, the message of `benches/serde.rs` decoded in about
// 1,470 ns; at 32 bytes, with short Strings inline, in about 900 (commit notes and
// docs/performance.md). 32 bytes moves as two 16-byte halves everywhere; at 40, copies split it
// differently at different places and each reload stalled on a store it straddled. Keep it
// at 32 (on 64-bit targets).
const _: () = assert!(std::mem::size_of::<Value>() <= 32);

/// A NodePath, as its parts: `^"/root/Player:position:x"` is absolute, with names `root`,
/// `Player` and subnames `position`, `x`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct NodePath {
    /// The node names, separated by `/` in the path's text.
    pub names: Vec<String>,
    /// The property path after the first `:`, one part per `:`.
    pub subnames: Vec<String>,
    /// Whether the path starts at the root (`/`).
    pub absolute: bool,
}

/// The path's text, as Godot writes it (`String(node_path)`): `/` first when absolute, names
/// joined by `/`, each subname after `:`.
///
/// # Examples
/// ```
/// use fast_var_codec_core::value::NodePath;
///
/// let p = NodePath {
///     names: vec!["root".into(), "Player".into()],
///     subnames: vec!["position".into(), "x".into()],
///     absolute: true,
/// };
/// assert_eq!(p.to_string(), "/root/Player:position:x");
/// ```
impl std::fmt::Display for NodePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.absolute {
            f.write_str("/")?;
        }
        f.write_str(&self.names.join("/"))?;
        for sub in &self.subnames {
            write!(f, ":{sub}")?;
        }
        Ok(())
    }
}

/// A full object (`var_to_bytes_with_objects`): its class and the properties the engine sent.
/// The engine makes a new instance of the class and sets them on decode, so which classes may
/// come in is decided by [`crate::Options::allowed_objects`].
#[derive(PartialEq, Eq, Hash, Default)]
pub struct Object {
    /// The class name (`"Resource"`, …).
    pub class: String,
    /// Properties in wire order (the engine's property-list order).
    pub properties: Vec<(String, Value)>,
}

/// An Array: its element type ([`ContainerType::Untyped`] for a plain Array) and items.
#[derive(PartialEq, Eq, Hash, Default)]
pub struct Array {
    /// The element type (`Array[int]`, …), written where the dialect has typed Arrays.
    pub element: ContainerType,
    /// The items, in order.
    pub items: Vec<Value>,
}

/// A Dictionary: its key and value types ([`ContainerType::Untyped`] for a plain one) and
/// entries in insertion order, read with [`Dictionary::entries`], [`Dictionary::get`] and
/// iteration, changed with [`Dictionary::insert`] and the other `&mut` methods.
///
/// The entries are private so that the index of a large Dictionary cannot go stale: a lookup
/// in one of more than 16 entries builds, once, a hash index of their positions, and from then
/// on a lookup or an insert costs expected constant time (smaller ones are scanned: cheaper,
/// and no allocation).
#[derive(Default)]
pub struct Dictionary {
    /// The key type (`Dictionary[String, int]`'s String), written where the dialect has typed
    /// Dictionaries (Godot 4.4+).
    pub key: ContainerType,
    /// The value type.
    pub value: ContainerType,
    /// Entries in insertion order.
    pub(crate) entries: Vec<(Value, Value)>,
    /// The positions of the entries by the digest of their key, built by the first lookup in
    /// more than [`index::SMALL`] entries; every `&mut` method keeps it right or drops it.
    index: std::sync::OnceLock<Box<index::KeyIndex>>,
}

impl Dictionary {
    /// A Dictionary of these types and entries, taken as given (no index yet).
    pub(crate) fn from_parts(
        key: ContainerType,
        value: ContainerType,
        entries: Vec<(Value, Value)>,
    ) -> Dictionary {
        Dictionary {
            key,
            value,
            entries,
            index: std::sync::OnceLock::new(),
        }
    }
}

/// Types and entries, in order: `{a: 1, b: 2}` and `{b: 2, a: 1}` differ (as two keys of a
/// Godot Dictionary do); the index is a cache.
impl PartialEq for Dictionary {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.value == other.value && self.entries == other.entries
    }
}

impl Eq for Dictionary {}

/// As `PartialEq`: the types and the entries in order.
impl std::hash::Hash for Dictionary {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
        self.value.hash(state);
        self.entries.hash(state);
    }
}

/// `Dictionary {"a": Int(1), Int(2): Nil}` (as serde_json's `Object {"a": Number(1)}`): a
/// String key as its quoted text, any other key as its `Debug`; a typed one
/// `Dictionary[String, int] {…}`. The index is a cache, not shown.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
/// use fast_var_codec_core::value::Dictionary;
///
/// let d = Dictionary::from_iter([(Value::from("a"), Value::from(1)), (2.into(), Value::Nil)]);
/// assert_eq!(format!("{d:?}"), r#"Dictionary {"a": Int(1), Int(2): Nil}"#);
/// ```
impl fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// A key: a String's text quoted, as serde_json's keys.
        struct Key<'a>(&'a Value);
        impl fmt::Debug for Key<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.0 {
                    Value::String(s) => fmt::Debug::fmt(s.as_str(), f),
                    other => other.fmt(f),
                }
            }
        }
        f.write_str("Dictionary")?;
        if !self.key.is_untyped() || !self.value.is_untyped() {
            write!(f, "[{}, {}]", self.key, self.value)?;
        }
        f.write_str(" ")?;
        crate::stack::guard(|| {
            f.debug_map()
                .entries(self.entries.iter().map(|(k, v)| (Key(k), v)))
                .finish()
        })
    }
}

/// `Array [Int(1), String("a")]` (as serde_json's `Array [Number(1)]`); a typed one
/// `Array[int] [Int(1)]`.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
///
/// assert_eq!(format!("{:?}", Value::from(vec![1, 2])), "Array [Int(1), Int(2)]");
/// ```
impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Array")?;
        if !self.element.is_untyped() {
            write!(f, "[{}]", self.element)?;
        }
        f.write_str(" ")?;
        crate::stack::guard(|| f.debug_list().entries(&self.items).finish())
    }
}

/// `Object(Resource) {"resource_name": String("sword")}`: the class, then the properties.
///
/// # Examples
/// ```
/// use fast_var_codec_core::value::Object;
///
/// let mut o = Object::new("Resource");
/// o.set("resource_name", "sword");
/// assert_eq!(format!("{o:?}"), r#"Object(Resource) {"resource_name": String("sword")}"#);
/// ```
impl fmt::Debug for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Object({}) ", self.class)?;
        crate::stack::guard(|| {
            f.debug_map()
                .entries(self.properties.iter().map(|(k, v)| (k, v)))
                .finish()
        })
    }
}

/// As short as serde_json's: the variant and its content, `Int(1)`, `String("a")`,
/// `Vector2([1.0, 2.0])`, `NodePath("/root/Main:position")` (the path's text), `Nil`;
/// containers as [`Array`]'s, [`Dictionary`]'s and [`Object`]'s `Debug` write them,
/// `Dictionary {"a": Int(1)}`. `{:#?}` writes one element per line. (`Display` writes Godot's
/// `var_to_str` text, and [`Value::one_line`] that text on one line.)
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
///
/// let v = Value::from_iter([("a", Value::from(1)), ("pos", Value::vector2(1.0, 2.0))]);
/// assert_eq!(format!("{v:?}"), r#"Dictionary {"a": Int(1), "pos": Vector2([1.0, 2.0])}"#);
/// assert_eq!(format!("{:?}", Value::string_name("jump")), r#"StringName("jump")"#);
/// ```
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Value as V;
        fn tuple(f: &mut fmt::Formatter<'_>, name: &str, x: &dyn fmt::Debug) -> fmt::Result {
            f.debug_tuple(name).field(x).finish()
        }
        match self {
            V::Nil => f.write_str("Nil"),
            V::Callable => f.write_str("Callable"),
            V::Bool(b) => tuple(f, "Bool", b),
            V::Int(i) => tuple(f, "Int", i),
            V::Float(x) => tuple(f, "Float", x),
            V::String(s) => tuple(f, "String", &s.as_str()),
            V::StringName(s) => tuple(f, "StringName", &s.as_str()),
            V::Vector2(c) => tuple(f, "Vector2", c),
            V::Vector2i(c) => tuple(f, "Vector2i", c),
            V::Rect2(c) => tuple(f, "Rect2", &**c),
            V::Rect2i(c) => tuple(f, "Rect2i", c),
            V::Vector3(c) => tuple(f, "Vector3", c),
            V::Vector3i(c) => tuple(f, "Vector3i", c),
            V::Transform2D(c) => tuple(f, "Transform2D", &**c),
            V::Vector4(c) => tuple(f, "Vector4", &**c),
            V::Vector4i(c) => tuple(f, "Vector4i", c),
            V::Plane(c) => tuple(f, "Plane", &**c),
            V::Quaternion(c) => tuple(f, "Quaternion", &**c),
            V::Aabb(c) => tuple(f, "Aabb", &**c),
            V::Basis(c) => tuple(f, "Basis", &**c),
            V::Transform3D(c) => tuple(f, "Transform3D", &**c),
            V::Projection(c) => tuple(f, "Projection", &**c),
            V::Color(c) => tuple(f, "Color", c),
            V::NodePath(p) => tuple(f, "NodePath", &p.to_string()),
            V::Rid(id) => tuple(f, "Rid", id),
            V::ObjectId(id) => tuple(f, "ObjectId", id),
            V::Object(o) => o.fmt(f),
            V::Signal { name, object_id } => f
                .debug_struct("Signal")
                .field("name", name)
                .field("object_id", object_id)
                .finish(),
            V::Dictionary(d) => d.fmt(f),
            V::Array(a) => a.fmt(f),
            V::PackedByteArray(v) => tuple(f, "PackedByteArray", v),
            V::PackedInt32Array(v) => tuple(f, "PackedInt32Array", v),
            V::PackedInt64Array(v) => tuple(f, "PackedInt64Array", v),
            V::PackedFloat32Array(v) => tuple(f, "PackedFloat32Array", v),
            V::PackedFloat64Array(v) => tuple(f, "PackedFloat64Array", v),
            V::PackedStringArray(v) => tuple(f, "PackedStringArray", v),
            V::PackedVector2Array(v) => tuple(f, "PackedVector2Array", v),
            V::PackedVector3Array(v) => tuple(f, "PackedVector3Array", v),
            V::PackedColorArray(v) => tuple(f, "PackedColorArray", v),
            V::PackedVector4Array(v) => tuple(f, "PackedVector4Array", v),
        }
    }
}

impl Value {
    /// The Godot type of this value ([`VariantType::Object`] for both object forms).
    pub fn variant_type(&self) -> VariantType {
        use VariantType as T;
        match self {
            Value::Nil => T::Nil,
            Value::Bool(_) => T::Bool,
            Value::Int(_) => T::Int,
            Value::Float(_) => T::Float,
            Value::String(_) => T::String,
            Value::Vector2(_) => T::Vector2,
            Value::Vector2i(_) => T::Vector2i,
            Value::Rect2(_) => T::Rect2,
            Value::Rect2i(_) => T::Rect2i,
            Value::Vector3(_) => T::Vector3,
            Value::Vector3i(_) => T::Vector3i,
            Value::Transform2D(_) => T::Transform2D,
            Value::Vector4(_) => T::Vector4,
            Value::Vector4i(_) => T::Vector4i,
            Value::Plane(_) => T::Plane,
            Value::Quaternion(_) => T::Quaternion,
            Value::Aabb(_) => T::Aabb,
            Value::Basis(_) => T::Basis,
            Value::Transform3D(_) => T::Transform3D,
            Value::Projection(_) => T::Projection,
            Value::Color(_) => T::Color,
            Value::StringName(_) => T::StringName,
            Value::NodePath(_) => T::NodePath,
            Value::Rid(_) => T::Rid,
            Value::ObjectId(_) | Value::Object(_) => T::Object,
            Value::Callable => T::Callable,
            Value::Signal { .. } => T::Signal,
            Value::Dictionary(_) => T::Dictionary,
            Value::Array(_) => T::Array,
            Value::PackedByteArray(_) => T::PackedByteArray,
            Value::PackedInt32Array(_) => T::PackedInt32Array,
            Value::PackedInt64Array(_) => T::PackedInt64Array,
            Value::PackedFloat32Array(_) => T::PackedFloat32Array,
            Value::PackedFloat64Array(_) => T::PackedFloat64Array,
            Value::PackedStringArray(_) => T::PackedStringArray,
            Value::PackedVector2Array(_) => T::PackedVector2Array,
            Value::PackedVector3Array(_) => T::PackedVector3Array,
            Value::PackedColorArray(_) => T::PackedColorArray,
            Value::PackedVector4Array(_) => T::PackedVector4Array,
        }
    }

    /// A plain (untyped) Array.
    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Box::new(Array {
            element: ContainerType::Untyped,
            items,
        }))
    }

    /// A plain (untyped) Dictionary.
    pub fn dictionary(entries: Vec<(Value, Value)>) -> Value {
        Value::Dictionary(Box::new(Dictionary::from_parts(
            ContainerType::Untyped,
            ContainerType::Untyped,
            entries,
        )))
    }

    /// A typed Array (`Array[int]`, `Array[Node]` …) of `items`, as GDScript's
    /// `Array(items, TYPE_INT, &"", null)`. The items are taken as given: they should be of the
    /// element type (the writer does not check them; a decoding engine converts or drops the
    /// others). Dialects without typed Arrays write it untyped (Godot 3, 4.0–4.2).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::{encode, Options, Value};
    /// use fast_var_codec_core::value::{ContainerType, VariantType};
    /// let ints = Value::typed_array(
    ///     ContainerType::Builtin(VariantType::Int),
    ///     vec![Value::Int(1), Value::Int(2)],
    /// );
    /// let bytes = encode(&ints, &Options::default())?; // Godot 4: the header says Array[int]
    /// assert_eq!(&bytes[..8], &[28, 0, 1, 0, 2, 0, 0, 0]);
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn typed_array(element: ContainerType, items: Vec<Value>) -> Value {
        Value::Array(Box::new(Array { element, items }))
    }

    /// A typed Dictionary (`Dictionary[String, int]` …) of `entries` in insertion order. As for
    /// [`Value::typed_array`], the entries are taken as given; dialects without typed
    /// Dictionaries (before Godot 4.4) write it untyped.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::{ContainerType, VariantType};
    /// let scores = Value::typed_dictionary(
    ///     ContainerType::Builtin(VariantType::String),
    ///     ContainerType::Builtin(VariantType::Int),
    ///     vec![(Value::String("ada".into()), Value::Int(3))],
    /// );
    /// let Value::Dictionary(d) = &scores else { unreachable!() };
    /// assert_eq!(d.value, ContainerType::Builtin(VariantType::Int));
    /// ```
    pub fn typed_dictionary(
        key: ContainerType,
        value: ContainerType,
        entries: Vec<(Value, Value)>,
    ) -> Value {
        Value::Dictionary(Box::new(Dictionary::from_parts(key, value, entries)))
    }

    /// This value as a single-precision engine holds it: every `real_t` component (math types,
    /// packed vectors, at any depth) rounded to binary32. Floats stay binary64, as in Godot.
    pub fn with_single_precision_reals(&self) -> Value {
        fn n<const N: usize>(c: &[f64; N]) -> [f64; N] {
            c.map(real32)
        }
        fn nv<const N: usize>(v: &[[f64; N]]) -> Vec<[f64; N]> {
            v.iter().map(n).collect()
        }
        let r = Value::with_single_precision_reals;
        match self {
            Value::Vector2(c) => Value::Vector2(n(c)),
            Value::Rect2(c) => Value::Rect2(Box::new(n(c))),
            Value::Vector3(c) => Value::Vector3(n(c)),
            Value::Transform2D(c) => Value::Transform2D(Box::new(n(c))),
            Value::Vector4(c) => Value::Vector4(Box::new(n(c))),
            Value::Plane(c) => Value::Plane(Box::new(n(c))),
            Value::Quaternion(c) => Value::Quaternion(Box::new(n(c))),
            Value::Aabb(c) => Value::Aabb(Box::new(n(c))),
            Value::Basis(c) => Value::Basis(Box::new(n(c))),
            Value::Transform3D(c) => Value::Transform3D(Box::new(n(c))),
            Value::Projection(c) => Value::Projection(Box::new(n(c))),
            Value::PackedVector2Array(c) => Value::PackedVector2Array(nv(c)),
            Value::PackedVector3Array(c) => Value::PackedVector3Array(nv(c)),
            Value::PackedVector4Array(c) => Value::PackedVector4Array(nv(c)),
            Value::Array(a) => {
                Value::typed_array(a.element.clone(), a.items.iter().map(r).collect())
            }
            Value::Dictionary(d) => Value::typed_dictionary(
                d.key.clone(),
                d.value.clone(),
                d.entries.iter().map(|(k, v)| (r(k), r(v))).collect(),
            ),
            Value::Object(o) => Value::Object(Box::new(Object {
                class: o.class.clone(),
                properties: o
                    .properties
                    .iter()
                    .map(|(k, v)| (k.clone(), r(v)))
                    .collect(),
            })),
            other => other.clone(),
        }
    }

    /// A short rendering for error paths: `"k"`, `3`, or the type name.
    pub(crate) fn key_label(&self) -> String {
        match self {
            Value::String(s) => format!("{s:?}"),
            Value::StringName(s) => format!("&{s:?}"),
            Value::Int(i) => i.to_string(),
            Value::Bool(b) => b.to_string(),
            other => other.variant_type().name().to_string(),
        }
    }
}

/// A `real_t` in a single-precision engine, as the model holds it (see [`crate::real`]).
fn real32(x: f64) -> f64 {
    crate::real::widen_exact(crate::real::narrow_as_engine(x))
}

fn f64s_eq(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn f32s_eq(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value as V;
        match (self, other) {
            (V::Float(a), V::Float(b)) => a.to_bits() == b.to_bits(),
            (V::Vector2(a), V::Vector2(b)) => f64s_eq(a, b),
            (V::Rect2(a), V::Rect2(b))
            | (V::Vector4(a), V::Vector4(b))
            | (V::Plane(a), V::Plane(b))
            | (V::Quaternion(a), V::Quaternion(b)) => f64s_eq(a.as_slice(), b.as_slice()),
            (V::Vector3(a), V::Vector3(b)) => f64s_eq(a, b),
            (V::Transform2D(a), V::Transform2D(b)) | (V::Aabb(a), V::Aabb(b)) => {
                f64s_eq(a.as_slice(), b.as_slice())
            }
            (V::Basis(a), V::Basis(b)) => f64s_eq(a.as_slice(), b.as_slice()),
            (V::Transform3D(a), V::Transform3D(b)) => f64s_eq(a.as_slice(), b.as_slice()),
            (V::Projection(a), V::Projection(b)) => f64s_eq(a.as_slice(), b.as_slice()),
            (V::Color(a), V::Color(b)) => f32s_eq(a, b),
            (V::PackedFloat32Array(a), V::PackedFloat32Array(b)) => f32s_eq(a, b),
            (V::PackedFloat64Array(a), V::PackedFloat64Array(b)) => f64s_eq(a, b),
            (V::PackedVector2Array(a), V::PackedVector2Array(b)) => {
                f64s_eq(a.as_flattened(), b.as_flattened())
            }
            (V::PackedVector3Array(a), V::PackedVector3Array(b)) => {
                f64s_eq(a.as_flattened(), b.as_flattened())
            }
            (V::PackedVector4Array(a), V::PackedVector4Array(b)) => {
                f64s_eq(a.as_flattened(), b.as_flattened())
            }
            (V::PackedColorArray(a), V::PackedColorArray(b)) => {
                f32s_eq(a.as_flattened(), b.as_flattened())
            }
            (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Int(b)) => a == b,
            (V::String(a), V::String(b)) | (V::StringName(a), V::StringName(b)) => a == b,
            (V::Vector2i(a), V::Vector2i(b)) => a == b,
            (V::Vector3i(a), V::Vector3i(b)) => a == b,
            (V::Rect2i(a), V::Rect2i(b)) | (V::Vector4i(a), V::Vector4i(b)) => a == b,
            (V::NodePath(a), V::NodePath(b)) => a == b,
            (V::Rid(a), V::Rid(b)) | (V::ObjectId(a), V::ObjectId(b)) => a == b,
            // Containers compare what they hold: each level on a stack with room for it.
            (V::Object(a), V::Object(b)) => crate::stack::guard(|| a == b),
            (
                V::Signal {
                    name: a,
                    object_id: x,
                },
                V::Signal {
                    name: b,
                    object_id: y,
                },
            ) => a == b && x == y,
            (V::Dictionary(a), V::Dictionary(b)) => crate::stack::guard(|| a == b),
            (V::Array(a), V::Array(b)) => crate::stack::guard(|| a == b),
            (V::PackedByteArray(a), V::PackedByteArray(b)) => a == b,
            (V::PackedInt32Array(a), V::PackedInt32Array(b)) => a == b,
            (V::PackedInt64Array(a), V::PackedInt64Array(b)) => a == b,
            (V::PackedStringArray(a), V::PackedStringArray(b)) => a == b,
            _ => false,
        }
    }
}

/// `==` is an equivalence: a float equals itself whatever its bits (NaN included).
impl Eq for Value {}

fn hash_f64s<H: std::hash::Hasher>(c: &[f64], state: &mut H) {
    use std::hash::Hash;
    c.len().hash(state);
    c.iter().for_each(|x| x.to_bits().hash(state));
}

fn hash_f32s<H: std::hash::Hasher>(c: &[f32], state: &mut H) {
    use std::hash::Hash;
    c.len().hash(state);
    c.iter().for_each(|x| x.to_bits().hash(state));
}

/// Consistent with `==`: the variant and its content, floats by their bits (as `==` compares
/// them), a Dictionary's entries in order (as `==` compares them). So a `Value` can be a
/// `HashSet` item or a `HashMap` key: there, `1` and `1.0`, `"a"` and `&"a"`, `0.0` and
/// `-0.0` are different values, as for `==` (a [`Dictionary`]'s own keys follow Godot's rules
/// instead).
///
/// Clippy's `mutable_key_type` lint flags a `HashSet<Value>` or a `HashMap<Value, _>`: a
/// large Dictionary caches the index of its keys in a cell, which changes neither `==` nor the
/// hash. Allow the lint there, or list the type in `clippy.toml`:
/// `ignore-interior-mutability = ["fast_var_codec_core::Value"]`.
///
/// # Examples
/// ```
/// use std::collections::{HashMap, HashSet};
/// use fast_var_codec_core::Value;
///
/// let seen: HashSet<Value> = [Value::from(1), Value::from("a"), Value::from(1)].into();
/// assert_eq!(seen.len(), 2);
/// let mut at: HashMap<Value, &str> = HashMap::new();
/// at.insert(Value::vector2i(3, 4), "chest");
/// assert_eq!(at.get(&Value::vector2i(3, 4)), Some(&"chest"));
/// assert!(!seen.contains(&Value::from(1.0))); // 1 and 1.0 are two values
/// ```
impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        use Value as V;
        std::mem::discriminant(self).hash(state);
        match self {
            V::Nil | V::Callable => {}
            V::Bool(b) => b.hash(state),
            V::Int(i) => i.hash(state),
            V::Float(x) => x.to_bits().hash(state),
            V::String(s) | V::StringName(s) => s.hash(state),
            V::Vector2(c) => hash_f64s(c, state),
            V::Vector3(c) => hash_f64s(c, state),
            V::Rect2(c) | V::Vector4(c) | V::Plane(c) | V::Quaternion(c) => {
                hash_f64s(c.as_slice(), state)
            }
            V::Transform2D(c) | V::Aabb(c) => hash_f64s(c.as_slice(), state),
            V::Basis(c) => hash_f64s(c.as_slice(), state),
            V::Transform3D(c) => hash_f64s(c.as_slice(), state),
            V::Projection(c) => hash_f64s(c.as_slice(), state),
            V::Color(c) => hash_f32s(c, state),
            V::Vector2i(c) => c.hash(state),
            V::Vector3i(c) => c.hash(state),
            V::Rect2i(c) | V::Vector4i(c) => c.hash(state),
            V::NodePath(p) => p.hash(state),
            V::Rid(id) | V::ObjectId(id) => id.hash(state),
            V::Signal { name, object_id } => {
                name.hash(state);
                object_id.hash(state);
            }
            // Containers hash what they hold: each level on a stack with room for it.
            V::Object(o) => crate::stack::guard(|| o.hash(state)),
            V::Dictionary(d) => crate::stack::guard(|| d.hash(state)),
            V::Array(a) => crate::stack::guard(|| a.hash(state)),
            V::PackedByteArray(b) => b.hash(state),
            V::PackedInt32Array(b) => b.hash(state),
            V::PackedInt64Array(b) => b.hash(state),
            V::PackedFloat32Array(b) => hash_f32s(b, state),
            V::PackedFloat64Array(b) => hash_f64s(b, state),
            V::PackedStringArray(b) => b.hash(state),
            V::PackedVector2Array(b) => hash_f64s(b.as_flattened(), state),
            V::PackedVector3Array(b) => hash_f64s(b.as_flattened(), state),
            V::PackedVector4Array(b) => hash_f64s(b.as_flattened(), state),
            V::PackedColorArray(b) => hash_f32s(b.as_flattened(), state),
        }
    }
}

/// Components as a fixed-size array (missing ones 0).
pub(crate) fn array_of<const N: usize>(c: &[f64]) -> [f64; N] {
    let mut a = [0.0; N];
    for (d, s) in a.iter_mut().zip(c) {
        *d = *s;
    }
    a
}

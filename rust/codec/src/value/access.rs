//! Reading a [`Value`] without naming its storage: `as_*`, `is_*`, lookup by key and index
//! (`get`, `v["key"]`, `v[0]`), and the methods of [`Array`] and [`Dictionary`].

use std::collections::hash_map::RandomState;

use super::index::{self, KeyIndex};
use super::{keys, Array, Dictionary, GodotString, NodePath, Object, Value};
use crate::dialect::VariantRules;
use crate::types::ContainerType;

/// What `v["key"]` and `v[7]` give when there is nothing there.
static NIL: Value = Value::Nil;

/// The math types' components, copied out of their storage (boxed or not).
macro_rules! math_getters {
    ($($(#[$doc:meta])* $name:ident: $variant:ident -> [$t:ty; $n:literal];)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> Option<[$t; $n]> {
            match self {
                Value::$variant(c) => Some(*std::borrow::Borrow::<[$t; $n]>::borrow(c)),
                _ => None,
            }
        }
    )*};
}

/// Slices of the packed arrays.
macro_rules! packed_getters {
    ($($(#[$doc:meta])* $name:ident: $variant:ident -> $t:ty;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> Option<&[$t]> {
            match self {
                Value::$variant(v) => Some(v.as_slice()),
                _ => None,
            }
        }
    )*};
}

/// # Reading
///
/// As `serde_json::Value`'s: `as_*` gives the content of one kind of value (`None` for any
/// other), `is_*` says which kind it is, and [`Value::get`] and indexing look into an Array, a
/// Dictionary or an object.
///
/// ```
/// use fast_var_codec_core::{decode, encode, Options, Value};
///
/// // What GDScript's `put_var({"name": "ada", "hp": 10, "pos": Vector2(1.5, -2), "items": ["sword"]})` sends.
/// let msg = Value::from_iter([
///     ("name", Value::from("ada")),
///     ("hp", Value::from(10)),
///     ("pos", Value::vector2(1.5, -2.0)),
///     ("items", Value::from(vec!["sword"])),
/// ]);
/// let opts = Options::default();
/// let (msg, _) = decode(&encode(&msg, &opts)?, &opts)?;
///
/// assert_eq!(msg["name"].as_str(), Some("ada"));
/// assert_eq!(msg["hp"].as_i64(), Some(10));
/// assert_eq!(msg["pos"].as_vector2(), Some([1.5, -2.0]));
/// assert_eq!(msg["items"][0], "sword");
/// assert!(msg["missing"].is_nil()); // indexing never panics: Nil when absent
/// assert_eq!(msg.get("missing"), None);
/// assert_eq!(msg.as_dictionary().map(|d| d.len()), Some(4));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
impl Value {
    /// Whether this is `null` (Nil).
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// Whether this is a bool.
    pub fn is_bool(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is an int.
    pub fn is_int(&self) -> bool {
        matches!(self, Value::Int(_))
    }

    /// Whether this is a float.
    pub fn is_float(&self) -> bool {
        matches!(self, Value::Float(_))
    }

    /// Whether this is an int or a float ([`Value::as_f64`] gives either).
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_))
    }

    /// Whether this is a String or a StringName ([`Value::as_str`] gives either's text).
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_) | Value::StringName(_))
    }

    /// Whether this is an Array, typed or not.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is a Dictionary, typed or not.
    pub fn is_dictionary(&self) -> bool {
        matches!(self, Value::Dictionary(_))
    }

    /// The bool, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The int, if this is one (a float is not converted: see [`Value::as_f64`]).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The int, if this is one and it is not negative.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_i64().and_then(|i| u64::try_from(i).ok())
    }

    /// The number, if this is a float or an int (an int as the nearest f64, as GDScript's
    /// `float(i)`).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// assert_eq!(Value::from(2).as_f64(), Some(2.0)); // GDScript sends `2` for 2.0 as often
    /// assert_eq!(Value::from(2.5).as_i64(), None); // but a float is no int
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// The text, if this is a String or a StringName (Godot 4 compares the two as equal).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// assert_eq!(Value::from("ada").as_str(), Some("ada"));
    /// assert_eq!(Value::string_name("jump").as_str(), Some("jump"));
    /// assert_eq!(Value::node_path("a/b").as_str(), None); // a NodePath: `as_node_path`
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) | Value::StringName(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The Array (its items and element type), if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The Array, if this is one, to change in place.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The Dictionary (its entries and types), if this is one.
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Value::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The Dictionary, if this is one, to change in place.
    pub fn as_dictionary_mut(&mut self) -> Option<&mut Dictionary> {
        match self {
            Value::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// The full object (class and properties), if this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The NodePath, if this is one.
    pub fn as_node_path(&self) -> Option<&NodePath> {
        match self {
            Value::NodePath(p) => Some(p),
            _ => None,
        }
    }

    /// The RID's id, if this is an RID.
    pub fn as_rid(&self) -> Option<u64> {
        match self {
            Value::Rid(id) => Some(*id),
            _ => None,
        }
    }

    /// The instance id, if this is an object sent as its id.
    pub fn as_object_id(&self) -> Option<u64> {
        match self {
            Value::ObjectId(id) => Some(*id),
            _ => None,
        }
    }

    /// The name and the object's instance id, if this is a Signal.
    pub fn as_signal(&self) -> Option<(&str, u64)> {
        match self {
            Value::Signal { name, object_id } => Some((name, *object_id)),
            _ => None,
        }
    }

    math_getters! {
        /// x, y of a Vector2.
        as_vector2: Vector2 -> [f64; 2];
        /// x, y of a Vector2i.
        as_vector2i: Vector2i -> [i32; 2];
        /// x, y, z of a Vector3.
        as_vector3: Vector3 -> [f64; 3];
        /// x, y, z of a Vector3i.
        as_vector3i: Vector3i -> [i32; 3];
        /// x, y, z, w of a Vector4.
        as_vector4: Vector4 -> [f64; 4];
        /// x, y, z, w of a Vector4i.
        as_vector4i: Vector4i -> [i32; 4];
        /// position.x, position.y, size.x, size.y of a Rect2.
        as_rect2: Rect2 -> [f64; 4];
        /// position.x, position.y, size.x, size.y of a Rect2i.
        as_rect2i: Rect2i -> [i32; 4];
        /// A Transform2D's columns: x axis, y axis, origin (x, y each).
        as_transform2d: Transform2D -> [f64; 6];
        /// normal.x, normal.y, normal.z, d of a Plane.
        as_plane: Plane -> [f64; 4];
        /// x, y, z, w of a Quaternion.
        as_quaternion: Quaternion -> [f64; 4];
        /// position.x, .y, .z, size.x, .y, .z of an AABB.
        as_aabb: Aabb -> [f64; 6];
        /// A Basis's rows (row 0: x.x, y.x, z.x; then rows 1 and 2).
        as_basis: Basis -> [f64; 9];
        /// A Transform3D's basis rows (as [`Value::as_basis`]), then its origin.
        as_transform3d: Transform3D -> [f64; 12];
        /// A Projection's columns x, y, z, w (4 components each).
        as_projection: Projection -> [f64; 16];
        /// r, g, b, a of a Color.
        as_color: Color -> [f32; 4];
    }

    packed_getters! {
        /// The bytes of a PackedByteArray.
        as_packed_byte_array: PackedByteArray -> u8;
        /// The ints of a PackedInt32Array.
        as_packed_int32_array: PackedInt32Array -> i32;
        /// The ints of a PackedInt64Array.
        as_packed_int64_array: PackedInt64Array -> i64;
        /// The floats of a PackedFloat32Array.
        as_packed_float32_array: PackedFloat32Array -> f32;
        /// The floats of a PackedFloat64Array.
        as_packed_float64_array: PackedFloat64Array -> f64;
        /// The texts of a PackedStringArray (each reads as a `str`).
        as_packed_string_array: PackedStringArray -> GodotString;
        /// The x, y pairs of a PackedVector2Array.
        as_packed_vector2_array: PackedVector2Array -> [f64; 2];
        /// The x, y, z triples of a PackedVector3Array.
        as_packed_vector3_array: PackedVector3Array -> [f64; 3];
        /// The x, y, z, w of a PackedVector4Array.
        as_packed_vector4_array: PackedVector4Array -> [f64; 4];
        /// The r, g, b, a of a PackedColorArray.
        as_packed_color_array: PackedColorArray -> [f32; 4];
    }

    /// What `index` finds in this value: an Array's item by position (`usize`), a Dictionary's
    /// value by key (a `&str` finds a String or a StringName key of that text, a `&Value` an
    /// equal key), an object's property by name (`&str`). `None` when there is none, or when
    /// this value holds nothing of the kind.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let v = Value::from_iter([(Value::string_name("speed"), Value::from(2.5))]);
    /// assert_eq!(v.get("speed").and_then(Value::as_f64), Some(2.5)); // a StringName key
    /// assert_eq!(v.get(&Value::string_name("speed")), v.get("speed"));
    /// let list = Value::from(vec![10, 20]);
    /// assert_eq!(list.get(1), Some(&Value::Int(20)));
    /// assert_eq!(list.get(2), None);
    /// ```
    pub fn get<I: Lookup>(&self, index: I) -> Option<&Value> {
        index.find_in(self)
    }

    /// As [`Value::get`], to change what it finds in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let mut v = Value::from_iter([("hp", 10)]);
    /// if let Some(hp) = v.get_mut("hp") {
    ///     *hp = Value::from(9);
    /// }
    /// assert_eq!(v["hp"], 9);
    /// ```
    pub fn get_mut<I: Lookup>(&mut self, index: I) -> Option<&mut Value> {
        index.find_in_mut(self)
    }

    /// The number of elements, as GDScript's `size()` and `length()` count them: an Array's
    /// items, a Dictionary's entries, a packed array's elements (a PackedVector2Array's
    /// vectors, a PackedByteArray's bytes), a String's or StringName's characters (Unicode
    /// scalar values, as Godot's `length()`; `as_str().map(str::len)` gives the UTF-8 bytes).
    /// `None` for the other values, which hold no elements (an int, a Vector3, an object …).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// assert_eq!(Value::from(vec![1, 2, 3]).len(), Some(3));
    /// assert_eq!(Value::from_iter([("a", 1)]).len(), Some(1));
    /// assert_eq!(Value::from("héros").len(), Some(5)); // characters, not bytes
    /// assert_eq!(Value::PackedByteArray(vec![0; 16]).len(), Some(16));
    /// assert_eq!(Value::from(7).len(), None);
    /// ```
    pub fn len(&self) -> Option<usize> {
        Some(match self {
            Value::Array(a) => a.items.len(),
            Value::Dictionary(d) => d.entries.len(),
            Value::String(s) | Value::StringName(s) => s.chars().count(),
            Value::PackedByteArray(v) => v.len(),
            Value::PackedInt32Array(v) => v.len(),
            Value::PackedInt64Array(v) => v.len(),
            Value::PackedFloat32Array(v) => v.len(),
            Value::PackedFloat64Array(v) => v.len(),
            Value::PackedStringArray(v) => v.len(),
            Value::PackedVector2Array(v) => v.len(),
            Value::PackedVector3Array(v) => v.len(),
            Value::PackedColorArray(v) => v.len(),
            Value::PackedVector4Array(v) => v.len(),
            _ => return None,
        })
    }

    /// Whether this is an empty Array, Dictionary, String, StringName or packed array (see
    /// [`Value::len`]); `false` for the values that hold no elements (an int, Nil …).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// assert!(Value::from("").is_empty());
    /// assert!(Value::from(Vec::<i32>::new()).is_empty());
    /// assert!(!Value::from(vec![0]).is_empty());
    /// assert!(!Value::Nil.is_empty()); // Nil has no length at all: `len()` is None
    /// ```
    pub fn is_empty(&self) -> bool {
        match self {
            // Without counting characters.
            Value::String(s) | Value::StringName(s) => s.is_empty(),
            other => other.len() == Some(0),
        }
    }

    /// The value a JSON Pointer (RFC 6901, as `serde_json::Value::pointer`) leads to: `""` is
    /// this value; `"/a/0/b"` is `self["a"][0]["b"]`. Each step after a `/` is an Array's index
    /// (decimal, no sign, no leading zero), a Dictionary's String or StringName key of that
    /// text, or an object's property; `~1` in a step stands for `/` and `~0` for `~`. Only
    /// text keys are reached: `"/1"` in a Dictionary finds the key `"1"`, not the int key 1
    /// (reach other keys with [`Value::get`] and a `&Value`). `None` when a step finds
    /// nothing, or when the pointer is neither empty nor starts with `/`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let v = Value::from_iter([
    ///     (Value::from("items"), Value::from(vec![Value::from_iter([("name", "sword")])])),
    ///     (Value::from("a/b"), Value::from(1)),
    ///     (Value::from(1), Value::from("an int key")),
    /// ]);
    /// assert_eq!(v.pointer("/items/0/name"), Some(&Value::from("sword")));
    /// assert_eq!(v.pointer("/a~1b"), Some(&Value::Int(1)));
    /// assert_eq!(v.pointer(""), Some(&v));
    /// assert_eq!(v.pointer("/items/1"), None);
    /// assert_eq!(v.pointer("/1"), None); // int keys are not reached
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut at = self;
        for step in pointer_steps(pointer)? {
            at = match at {
                Value::Array(a) => a.items.get(pointer_index(&step)?)?,
                _ => step.as_ref().find_in(at)?,
            };
        }
        Some(at)
    }

    /// As [`Value::pointer`], to change what it leads to in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let mut v = Value::from_iter([("pos", Value::from(vec![0, 0]))]);
    /// if let Some(y) = v.pointer_mut("/pos/1") {
    ///     *y = Value::from(5);
    /// }
    /// assert_eq!(v["pos"][1], 5);
    /// assert!(v.pointer_mut("/pos/2").is_none());
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut at = self;
        for step in pointer_steps(pointer)? {
            at = match at {
                Value::Array(a) => a.items.get_mut(pointer_index(&step)?)?,
                other => step.as_ref().find_in_mut(other)?,
            };
        }
        Some(at)
    }

    /// Takes this value, leaving Nil in its place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let mut v = Value::from(vec!["a", "b"]);
    /// let first = v.get_mut(0).map(Value::take);
    /// assert_eq!(first, Some(Value::from("a")));
    /// assert!(v[0].is_nil());
    /// ```
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// The steps of a JSON Pointer, unescaped (`~1` is `/`, `~0` is `~`); `None` for a pointer
/// that is neither empty nor starts with `/`.
fn pointer_steps(pointer: &str) -> Option<impl Iterator<Item = std::borrow::Cow<'_, str>>> {
    let rest = match pointer {
        "" => None,
        p => Some(p.strip_prefix('/')?),
    };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(|step| {
        if step.contains('~') {
            std::borrow::Cow::Owned(step.replace("~1", "/").replace("~0", "~"))
        } else {
            std::borrow::Cow::Borrowed(step)
        }
    }))
}

/// An Array index of a JSON Pointer: decimal digits, without a sign or a leading zero (as
/// serde_json reads them).
fn pointer_index(step: &str) -> Option<usize> {
    if step.starts_with('+') || (step.starts_with('0') && step.len() > 1) {
        return None;
    }
    step.parse().ok()
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for super::GodotString {}
    impl Sealed for super::Value {}
    impl Sealed for i64 {}
    impl Sealed for i32 {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

/// What [`Value::get`] and `value[index]` accept: a `usize` (an Array's item), a `&str`,
/// `String` or [`GodotString`] (a Dictionary key of that text, String or StringName, or an
/// object's property), a [`Value`] (a Dictionary key equal to it). Implemented by this crate
/// only.
pub trait Lookup: sealed::Sealed {
    #[doc(hidden)]
    fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    #[doc(hidden)]
    fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
    /// `v[self]` in a place to change: see [`Value`]'s `IndexMut`.
    #[doc(hidden)]
    fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

/// The panic of `value[index]` used wrongly (see [`Value`]'s `IndexMut`): a mistake in the
/// program, never a consequence of the data alone.
#[cold]
#[track_caller]
#[allow(clippy::panic)]
fn misuse(what: std::fmt::Arguments<'_>) -> ! {
    panic!("{what}")
}

impl Lookup for usize {
    fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array()?.get(*self)
    }
    fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut()?.get_mut(*self)
    }
    #[track_caller]
    fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::Array(a) => {
                let len = a.items.len();
                match a.items.get_mut(*self) {
                    Some(item) => item,
                    None => misuse(format_args!(
                        "cannot change item {self} of an Array of length {len} (push it, or check `get_mut`)"
                    )),
                }
            }
            other => misuse(format_args!(
                "cannot change item {self} of {}: only an Array has items",
                other.variant_type()
            )),
        }
    }
}

impl Lookup for str {
    fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        match v {
            Value::Dictionary(d) => d.get(self),
            Value::Object(o) => o.get(self),
            _ => None,
        }
    }
    fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        match v {
            Value::Dictionary(d) => d.get_mut(self),
            Value::Object(o) => o
                .properties
                .iter_mut()
                .find(|(name, _)| name == self)
                .map(|(_, p)| p),
            _ => None,
        }
    }
    #[track_caller]
    fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_nil() {
            *v = Value::from(Dictionary::new());
        }
        match v {
            Value::Dictionary(d) => d.value_or_nil(self, || Value::from(self)),
            Value::Object(o) => o.property_or_nil(self),
            other => misuse(format_args!(
                "cannot change the key {self:?} of {}: only a Dictionary, an object or Nil (which becomes a Dictionary) has keys",
                other.variant_type()
            )),
        }
    }
}

macro_rules! lookup_as_str {
    ($($t:ty),*) => {$(
        impl Lookup for $t {
            fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
                self.as_str().find_in(v)
            }
            fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
                self.as_str().find_in_mut(v)
            }
            #[track_caller]
            fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value {
                self.as_str().index_mut_in(v)
            }
        }
    )*};
}
lookup_as_str!(String, GodotString);

impl Lookup for Value {
    fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_dictionary()?.get(self)
    }
    fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_dictionary_mut()?.get_mut(self)
    }
    #[track_caller]
    fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_nil() {
            *v = Value::from(Dictionary::new());
        }
        match v {
            Value::Dictionary(d) => d.value_or_nil(self, || self.clone()),
            other => misuse(format_args!(
                "cannot change the key {} of {}: only a Dictionary or Nil (which becomes one) has keys",
                self.key_label(),
                other.variant_type()
            )),
        }
    }
}

impl<T: Lookup + ?Sized> Lookup for &T {
    fn find_in<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).find_in(v)
    }
    fn find_in_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).find_in_mut(v)
    }
    #[track_caller]
    fn index_mut_in<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_mut_in(v)
    }
}

/// `value["key"]`, `value[3]`: what [`Value::get`] finds, or Nil when it finds nothing (as
/// `serde_json::Value`'s indexing: it never panics).
impl<I: Lookup> std::ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.find_in(self).unwrap_or(&NIL)
    }
}

/// `value["key"] = x`, `value[3] = x`, `value["a"]["b"] = x`: as `serde_json::Value`'s. A
/// key (`&str`, `String`, [`GodotString`], `&Value`) gives the value of an equal Dictionary
/// key (as [`Dictionary::get`] finds it), or inserts the key with Nil when there is none; Nil
/// itself first becomes an empty Dictionary, so that `v["a"]["b"] = x` builds the levels it
/// needs. A text key in a full object gives the property of that name (added as Nil when
/// missing). An index (`usize`) gives an Array's item.
///
/// # Panics
/// When the program asks for what cannot be: an index past an Array's end (the message says
/// its length), an index into anything but an Array, a key into anything but a Dictionary, an
/// object or Nil. As with a `Vec`'s indexing, the program decides what it indexes: to change
/// data from outside without a panic, use [`Value::get_mut`], [`Value::pointer_mut`],
/// [`Dictionary::entry`] or [`Value::as_array_mut`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
///
/// let mut player = Value::from_iter([("hp", 10)]);
/// player["hp"] = Value::from(9);
/// player["pos"]["x"] = Value::from(1.5); // "pos" was missing: a Dictionary now
/// player["tags"] = Value::from(vec!["new"]);
/// player["tags"][0] = Value::from("old");
/// assert_eq!(player["hp"], 9);
/// assert_eq!(player["pos"]["x"], 1.5);
/// assert_eq!(player["tags"][0], "old");
/// ```
///
/// ```should_panic
/// use fast_var_codec_core::Value;
///
/// let mut v = Value::from(vec![1, 2]);
/// v[2] = Value::from(3); // panics: "cannot change item 2 of an Array of length 2 …"
/// ```
impl<I: Lookup> std::ops::IndexMut<I> for Value {
    #[track_caller]
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_mut_in(self)
    }
}

/// What [`Dictionary::get`] accepts as a key: a `&str`, `String` or [`GodotString`] finds a
/// String or StringName key of that text; an `i64` or `i32`, an int key; a [`Value`], a key
/// the engine holds equal to it (String and StringName of one text are one key, 1 and 1.0 are
/// two). Implemented by this crate only.
pub trait Key: sealed::Sealed {
    #[doc(hidden)]
    fn matches_key(&self, key: &Value) -> bool;
    /// The digest, under `seed`, of the keys this matches (that of an equal `Value` key), for
    /// the index of a large Dictionary; `None` when it matches no key.
    #[doc(hidden)]
    fn key_digest(&self, seed: &RandomState) -> Option<u64>;
}

impl Key for str {
    fn matches_key(&self, key: &Value) -> bool {
        key.as_str() == Some(self)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::text_digest(self, seed)
    }
}

impl Key for String {
    fn matches_key(&self, key: &Value) -> bool {
        Key::matches_key(self.as_str(), key)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::text_digest(self, seed)
    }
}

impl Key for GodotString {
    fn matches_key(&self, key: &Value) -> bool {
        Key::matches_key(self.as_str(), key)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::text_digest(self, seed)
    }
}

impl Key for i64 {
    fn matches_key(&self, key: &Value) -> bool {
        key.as_i64() == Some(*self)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::int_digest(*self, seed)
    }
}

impl Key for i32 {
    fn matches_key(&self, key: &Value) -> bool {
        key.as_i64() == Some(i64::from(*self))
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::int_digest(i64::from(*self), seed)
    }
}

impl Key for Value {
    fn matches_key(&self, key: &Value) -> bool {
        keys::keys_equal(self, key, VariantRules::Godot4)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        index::value_digest(self, seed)
    }
}

impl<T: Key + ?Sized> Key for &T {
    fn matches_key(&self, key: &Value) -> bool {
        (**self).matches_key(key)
    }
    fn key_digest(&self, seed: &RandomState) -> Option<u64> {
        (**self).key_digest(seed)
    }
}

/// # Examples
/// ```
/// use fast_var_codec_core::Value;
/// use fast_var_codec_core::value::Array;
///
/// let mut a = Array::new();
/// a.push(1);
/// a.push("two");
/// assert_eq!(a.len(), 2);
/// assert_eq!(a.get(1).and_then(Value::as_str), Some("two"));
/// let texts: Vec<_> = a.iter().filter_map(Value::as_str).collect();
/// assert_eq!(texts, ["two"]);
/// let v = Value::from(a);
/// assert_eq!(v[0], 1);
/// ```
impl Array {
    /// An empty, untyped Array.
    pub fn new() -> Array {
        Array::default()
    }

    /// An empty Array of `element` items (`Array[int]` …).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::{Array, ContainerType, VariantType};
    ///
    /// let mut ints = Array::typed(ContainerType::Builtin(VariantType::Int));
    /// ints.push(7);
    /// assert_eq!(ints.element_type(), &ContainerType::Builtin(VariantType::Int));
    /// ```
    pub fn typed(element: ContainerType) -> Array {
        Array {
            element,
            items: Vec::new(),
        }
    }

    /// The element type ([`ContainerType::Untyped`] for a plain Array).
    pub fn element_type(&self) -> &ContainerType {
        &self.element
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it has no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The item at `index`, if there is one.
    pub fn get(&self, index: usize) -> Option<&Value> {
        self.items.get(index)
    }

    /// The item at `index`, if there is one, to change in place.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut Value> {
        self.items.get_mut(index)
    }

    /// Appends an item. (It is not checked against a typed Array's element type.)
    pub fn push(&mut self, item: impl Into<Value>) {
        self.items.push(item.into());
    }

    /// The items in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Value> {
        self.items.iter()
    }

    /// The items in order, to change in place.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Value> {
        self.items.iter_mut()
    }

    /// The items as a slice.
    pub fn as_slice(&self) -> &[Value] {
        &self.items
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl IntoIterator for Array {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(&mut self.items).into_iter()
    }
}

impl<T: Into<Value>> FromIterator<T> for Array {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Array {
            element: ContainerType::Untyped,
            items: iter.into_iter().map(Into::into).collect(),
        }
    }
}

impl<T: Into<Value>> Extend<T> for Array {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.items.extend(iter.into_iter().map(Into::into));
    }
}

/// # Examples
/// ```
/// use fast_var_codec_core::Value;
/// use fast_var_codec_core::value::Dictionary;
///
/// let mut d = Dictionary::new();
/// d.insert("hp", 10);
/// d.insert(Value::string_name("hp"), 9); // the same key in Godot 4: replaced in place
/// d.insert(1, "one");
/// assert_eq!(d.len(), 2);
/// assert_eq!(d.get("hp"), Some(&Value::Int(9)));
/// assert_eq!(d.get(1), Some(&Value::from("one")));
/// for (key, value) in &d {
///     println!("{key}: {value}");
/// }
/// ```
impl Dictionary {
    /// An empty, untyped Dictionary.
    pub fn new() -> Dictionary {
        Dictionary::default()
    }

    /// An empty Dictionary of `key` keys and `value` values (`Dictionary[String, int]` …).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::{ContainerType, Dictionary, VariantType};
    ///
    /// let mut scores = Dictionary::typed(
    ///     ContainerType::Builtin(VariantType::String),
    ///     ContainerType::Builtin(VariantType::Int),
    /// );
    /// scores.insert("ada", 3);
    /// assert_eq!(scores.value_type(), &ContainerType::Builtin(VariantType::Int));
    /// assert_eq!(Value::from(scores)["ada"], 3);
    /// ```
    pub fn typed(key: ContainerType, value: ContainerType) -> Dictionary {
        Dictionary::from_parts(key, value, Vec::new())
    }

    /// The key type ([`ContainerType::Untyped`] for a plain Dictionary).
    pub fn key_type(&self) -> &ContainerType {
        &self.key
    }

    /// The value type ([`ContainerType::Untyped`] for a plain Dictionary).
    pub fn value_type(&self) -> &ContainerType {
        &self.value
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in insertion order, as a slice. (Read only: the `&mut` methods keep the
    /// index of the keys right.)
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let d = Dictionary::from_iter([("a", 1), ("b", 2)]);
    /// assert_eq!(d.entries()[1], (Value::from("b"), Value::from(2)));
    /// ```
    pub fn entries(&self) -> &[(Value, Value)] {
        &self.entries
    }

    /// The entries in insertion order, taken out of the Dictionary (without copying them).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let d = Dictionary::from_iter([("a", 1)]);
    /// let mut entries = d.into_entries();
    /// entries.push((Value::from("b"), Value::from(2))); // any change, then back:
    /// assert_eq!(Value::dictionary(entries)["b"], 2);
    /// ```
    pub fn into_entries(mut self) -> Vec<(Value, Value)> {
        // `Dictionary` has a `Drop` (for deep values): the entries are taken, not moved out.
        std::mem::take(&mut self.entries)
    }

    /// The position of the first entry whose key is `key`: a scan of a small Dictionary, or
    /// its index (built here by the first lookup in more than [`index::SMALL`] entries).
    fn position<K: Key + ?Sized>(&self, key: &K) -> Option<usize> {
        match self.index.get() {
            Some(index) => index.find(&self.entries, key),
            None if self.entries.len() <= index::SMALL => {
                self.entries.iter().position(|(k, _)| keys::matches(key, k))
            }
            None => self
                .index
                .get_or_init(|| Box::new(KeyIndex::new(&self.entries)))
                .find(&self.entries, key),
        }
    }

    /// Forgets the index, after a change of the keys' positions (the next lookup in a large
    /// Dictionary builds it again).
    fn drop_index(&mut self) {
        self.index.take();
    }

    /// The value of `key` (see [`Key`]: a `&str` finds a String or StringName key), if there
    /// is one: the first such entry, where keys equal under Godot 4's rules coexist (a Godot 3
    /// decode keeps `"hp"` and `&"hp"` apart). Expected constant time: a Dictionary of more
    /// than 16 entries indexes its keys on the first lookup.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let d = Dictionary::from_iter((0..1000).map(|i| (format!("k{i}"), i)));
    /// assert_eq!(d.get("k999"), Some(&Value::Int(999)));
    /// assert_eq!(d.get(&Value::string_name("k7")), Some(&Value::Int(7))); // one key in Godot 4
    /// assert_eq!(d.get("nope"), None);
    /// ```
    pub fn get<K: Key>(&self, key: K) -> Option<&Value> {
        let at = self.position(&key)?;
        self.entries.get(at).map(|(_, v)| v)
    }

    /// The value of `key`, if there is one, to change in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// if let Some(hp) = d.get_mut("hp") {
    ///     *hp = Value::from(9);
    /// }
    /// assert_eq!(d.get("hp"), Some(&Value::Int(9)));
    /// ```
    pub fn get_mut<K: Key>(&mut self, key: K) -> Option<&mut Value> {
        let at = self.position(&key)?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let d = Dictionary::from_iter([(1, "one")]);
    /// assert!(d.contains_key(1));
    /// assert!(!d.contains_key(Value::Float(1.0))); // 1 and 1.0 are two keys
    /// ```
    pub fn contains_key<K: Key>(&self, key: K) -> bool {
        self.position(&key).is_some()
    }

    /// Sets the value of `key`, as GDScript's `d[key] = value`: an equal key (as the engine
    /// compares keys) keeps its place and gets the value, whose old value is returned; a new
    /// key goes last. Expected constant time, as [`Dictionary::get`]. A key that equals no
    /// key (an object, an Array holding a NaN …) is always a new entry.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::new();
    /// assert_eq!(d.insert("hp", 10), None);
    /// assert_eq!(d.insert(Value::string_name("hp"), 9), Some(Value::Int(10)));
    /// assert_eq!(d.len(), 1);
    /// assert_eq!(d.keys().next(), Some(&Value::from("hp"))); // the key kept is the first
    /// ```
    pub fn insert(&mut self, key: impl Into<Value>, value: impl Into<Value>) -> Option<Value> {
        let key = key.into();
        let value = value.into();
        if self.index.get().is_none() && self.entries.len() > index::SMALL {
            let _ = self.index.set(Box::new(KeyIndex::new(&self.entries)));
        }
        let found = match self.index.get_mut() {
            Some(index) => index.find_or_add(&self.entries, &key),
            None => self
                .entries
                .iter()
                .position(|(k, _)| keys::matches(&key, k)),
        };
        match found.and_then(|at| self.entries.get_mut(at)) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The entry of `key`, to read, change, insert or remove its value in place with one
    /// lookup (as `serde_json::Map::entry` and `std`'s maps): an equal key, as the engine
    /// compares keys (see [`Dictionary::insert`]), is occupied and keeps its place and its key;
    /// a new key goes last when a value is inserted.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut counts = Dictionary::new();
    /// for word in ["a", "b", "a"] {
    ///     let n = counts.entry(word).or_insert(0);
    ///     *n = Value::from(n.as_i64().unwrap_or(0) + 1);
    /// }
    /// assert_eq!(counts.get("a"), Some(&Value::Int(2)));
    /// counts.entry(Value::string_name("b")).and_modify(|n| *n = Value::from(10));
    /// assert_eq!(counts.get("b"), Some(&Value::Int(10))); // "b" and &"b": one key
    /// ```
    pub fn entry(&mut self, key: impl Into<Value>) -> Entry<'_> {
        let key = key.into();
        match self.position(&key) {
            Some(at) if at < self.entries.len() => {
                Entry::Occupied(OccupiedEntry { dict: self, at })
            }
            _ => Entry::Vacant(VacantEntry { dict: self, key }),
        }
    }

    /// Appends an entry whose key equals none of the keys (the caller looked), indexing it
    /// when there is an index.
    fn push_new(&mut self, key: Value, value: Value) -> usize {
        if let Some(index) = self.index.get_mut() {
            index.find_or_add(&self.entries, &key);
        }
        self.entries.push((key, value));
        self.entries.len() - 1
    }

    /// The value of the entry at `at`, which the caller knows exists.
    #[allow(clippy::indexing_slicing)] // `at` is a position found in, or pushed to, the entries
    fn value_at(&mut self, at: usize) -> &mut Value {
        &mut self.entries[at].1
    }

    /// The value of `key`, inserted as Nil (with the key `make_key` makes) when missing.
    fn value_or_nil<K: Key + ?Sized>(
        &mut self,
        key: &K,
        make_key: impl FnOnce() -> Value,
    ) -> &mut Value {
        let at = match self.position(key) {
            Some(at) if at < self.entries.len() => at,
            _ => self.push_new(make_key(), Value::Nil),
        };
        self.value_at(at)
    }

    /// Removes `key`'s entry, keeping the order of the others; returns its value. Linear
    /// time, as `Vec::remove` (the entries after it move); the index is built again by the
    /// next lookup that needs it.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("a", 1), ("b", 2), ("c", 3)]);
    /// assert_eq!(d.remove("b"), Some(Value::Int(2)));
    /// assert_eq!(d.keys().cloned().collect::<Vec<_>>(), ["a", "c"]);
    /// ```
    pub fn remove<K: Key>(&mut self, key: K) -> Option<Value> {
        let at = self.position(&key)?;
        self.drop_index();
        (at < self.entries.len()).then(|| self.entries.remove(at).1)
    }

    /// Keeps the entries for which `keep(key, value)` is true, in order (`value` may be
    /// changed on the way).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter((0..100).map(|i| (i, i * 10)));
    /// d.retain(|k, _| k.as_i64().is_some_and(|k| k % 2 == 0));
    /// assert_eq!(d.len(), 50);
    /// assert_eq!(d.get(98), Some(&Value::Int(980)));
    /// assert_eq!(d.get(99), None);
    /// ```
    pub fn retain<F: FnMut(&Value, &mut Value) -> bool>(&mut self, mut keep: F) {
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.drop_index();
        }
    }

    /// The entries in insertion order.
    pub fn iter(&self) -> DictionaryIter<'_> {
        DictionaryIter(self.entries.iter())
    }

    /// The entries in insertion order, their values to change in place (the keys stay as
    /// they are: they are indexed).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("a", 1), ("b", 2)]);
    /// for (key, value) in d.iter_mut() {
    ///     if key == "b" {
    ///         *value = Value::from(20);
    ///     }
    /// }
    /// assert_eq!(d.get("b"), Some(&Value::Int(20)));
    /// ```
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&Value, &mut Value)> + '_ {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// The keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Value> + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in insertion order.
    pub fn values(&self) -> impl Iterator<Item = &Value> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in insertion order, to change in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("a", 1), ("b", 2)]);
    /// d.values_mut().for_each(|v| *v = Value::Nil);
    /// assert!(d.values().all(Value::is_nil));
    /// ```
    pub fn values_mut(&mut self) -> impl ExactSizeIterator<Item = &mut Value> + '_ {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// The entries of a [`Dictionary`] as `(&key, &value)`, in insertion order.
#[derive(Debug, Clone)]
pub struct DictionaryIter<'a>(std::slice::Iter<'a, (Value, Value)>);

impl<'a> Iterator for DictionaryIter<'a> {
    type Item = (&'a Value, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for DictionaryIter<'_> {}

impl<'a> IntoIterator for &'a Dictionary {
    type Item = (&'a Value, &'a Value);
    type IntoIter = DictionaryIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for Dictionary {
    type Item = (Value, Value);
    type IntoIter = std::vec::IntoIter<(Value, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_entries().into_iter()
    }
}

impl<K: Into<Value>, V: Into<Value>> FromIterator<(K, V)> for Dictionary {
    /// Entries in order; a key equal to an earlier one replaces its value (as
    /// [`Dictionary::insert`]).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut d = Dictionary::new();
        d.extend(iter);
        d
    }
}

impl<K: Into<Value>, V: Into<Value>> Extend<(K, V)> for Dictionary {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.entries.reserve(iter.size_hint().0);
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

/// The entry of a key in a [`Dictionary`] ([`Dictionary::entry`]): there or not.
#[derive(Debug)]
pub enum Entry<'a> {
    /// The key is not in the Dictionary.
    Vacant(VacantEntry<'a>),
    /// The key (or one equal to it) is in the Dictionary.
    Occupied(OccupiedEntry<'a>),
}

/// A key missing from a [`Dictionary`]: [`VacantEntry::insert`] adds it last.
#[derive(Debug)]
pub struct VacantEntry<'a> {
    dict: &'a mut Dictionary,
    key: Value,
}

/// An entry of a [`Dictionary`], found by [`Dictionary::entry`].
#[derive(Debug)]
pub struct OccupiedEntry<'a> {
    dict: &'a mut Dictionary,
    /// Its position in the entries (nothing else changes them while the entry borrows them).
    at: usize,
}

impl<'a> Entry<'a> {
    /// The key: the one in the Dictionary when occupied (which may be a StringName where a
    /// String was asked for), the one asked for when vacant.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([(Value::string_name("hp"), 10)]);
    /// assert_eq!(d.entry("hp").key(), &Value::string_name("hp"));
    /// assert_eq!(d.entry("mp").key(), &Value::from("mp"));
    /// ```
    pub fn key(&self) -> &Value {
        match self {
            Entry::Vacant(e) => e.key(),
            Entry::Occupied(e) => e.key(),
        }
    }

    /// The value, after inserting `default` if the key was missing.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::new();
    /// d.entry("tags").or_insert(Value::from(Vec::<Value>::new()))
    ///     .as_array_mut()
    ///     .map(|tags| tags.push("new"));
    /// assert_eq!(d.get("tags").and_then(|t| t.len()), Some(1));
    /// ```
    pub fn or_insert(self, default: impl Into<Value>) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    /// The value, after inserting what `default` makes if the key was missing (`default` is
    /// called only then).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// assert_eq!(*d.entry("hp").or_insert_with(|| -> i64 { unreachable!() }), 10);
    /// assert_eq!(*d.entry("mp").or_insert_with(|| 5), 5);
    /// ```
    pub fn or_insert_with<V: Into<Value>>(self, default: impl FnOnce() -> V) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default()),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    /// The value, after inserting Nil if the key was missing.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::new();
    /// assert!(d.entry("x").or_default().is_nil());
    /// assert_eq!(d.len(), 1);
    /// ```
    pub fn or_default(self) -> &'a mut Value {
        self.or_insert(Value::Nil)
    }

    /// Calls `change` on the value if the key is there; the entry goes on (to `or_insert` …).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// for key in ["hp", "mp"] {
    ///     d.entry(key).and_modify(|v| *v = Value::from(0)).or_insert(1);
    /// }
    /// assert_eq!(d.get("hp"), Some(&Value::Int(0)));
    /// assert_eq!(d.get("mp"), Some(&Value::Int(1)));
    /// ```
    pub fn and_modify(self, change: impl FnOnce(&mut Value)) -> Self {
        match self {
            Entry::Occupied(mut e) => {
                change(e.get_mut());
                Entry::Occupied(e)
            }
            vacant => vacant,
        }
    }
}

impl<'a> VacantEntry<'a> {
    /// The key asked for.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::new();
    /// if let Entry::Vacant(e) = d.entry(7) {
    ///     assert_eq!(e.key(), &Value::Int(7));
    /// }
    /// ```
    pub fn key(&self) -> &Value {
        &self.key
    }

    /// The key asked for, given back (nothing is inserted).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::new();
    /// if let Entry::Vacant(e) = d.entry("k") {
    ///     assert_eq!(e.into_key(), Value::from("k"));
    /// }
    /// assert!(d.is_empty());
    /// ```
    pub fn into_key(self) -> Value {
        self.key
    }

    /// Adds the key with `value` as the last entry; returns the value, to change in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("a", 1)]);
    /// if let Entry::Vacant(e) = d.entry("b") {
    ///     *e.insert(2) = Value::from(20);
    /// }
    /// assert_eq!(d.entries()[1], (Value::from("b"), Value::Int(20)));
    /// ```
    pub fn insert(self, value: impl Into<Value>) -> &'a mut Value {
        let at = self.dict.push_new(self.key, value.into());
        self.dict.value_at(at)
    }
}

impl<'a> OccupiedEntry<'a> {
    /// The entry, which exists while this borrows the Dictionary.
    #[allow(clippy::indexing_slicing)] // `at` was found in the entries, which cannot change
    fn pair(&self) -> &(Value, Value) {
        &self.dict.entries[self.at]
    }

    /// The key in the Dictionary.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([(Value::string_name("hp"), 10)]);
    /// if let Entry::Occupied(e) = d.entry("hp") {
    ///     assert_eq!(e.key(), &Value::string_name("hp"));
    /// }
    /// ```
    pub fn key(&self) -> &Value {
        &self.pair().0
    }

    /// The value.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// if let Entry::Occupied(e) = d.entry("hp") {
    ///     assert_eq!(*e.get(), 10);
    /// }
    /// ```
    pub fn get(&self) -> &Value {
        &self.pair().1
    }

    /// The value, to change in place.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// if let Entry::Occupied(mut e) = d.entry("hp") {
    ///     *e.get_mut() = Value::from(9);
    /// }
    /// assert_eq!(d.get("hp"), Some(&Value::Int(9)));
    /// ```
    pub fn get_mut(&mut self) -> &mut Value {
        self.dict.value_at(self.at)
    }

    /// The value, to change in place, for as long as the Dictionary was borrowed.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// let hp = match d.entry("hp") {
    ///     Entry::Occupied(e) => e.into_mut(),
    ///     Entry::Vacant(e) => e.insert(0),
    /// };
    /// *hp = Value::from(1);
    /// assert_eq!(d.get("hp"), Some(&Value::Int(1)));
    /// ```
    pub fn into_mut(self) -> &'a mut Value {
        self.dict.value_at(self.at)
    }

    /// Replaces the value (the key stays); returns the old one.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("hp", 10)]);
    /// if let Entry::Occupied(mut e) = d.entry("hp") {
    ///     assert_eq!(e.insert(9), Value::Int(10));
    /// }
    /// ```
    pub fn insert(&mut self, value: impl Into<Value>) -> Value {
        std::mem::replace(self.get_mut(), value.into())
    }

    /// Removes the entry, keeping the order of the others (linear time, as
    /// [`Dictionary::remove`]); returns its value.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([("a", 1), ("b", 2)]);
    /// if let Entry::Occupied(e) = d.entry("a") {
    ///     assert_eq!(e.remove(), Value::Int(1));
    /// }
    /// assert_eq!(d.len(), 1);
    /// ```
    pub fn remove(self) -> Value {
        self.remove_entry().1
    }

    /// Removes the entry, as [`OccupiedEntry::remove`]; returns its key and value.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::Entry;
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Dictionary;
    ///
    /// let mut d = Dictionary::from_iter([(Value::string_name("a"), 1)]);
    /// if let Entry::Occupied(e) = d.entry("a") {
    ///     assert_eq!(e.remove_entry(), (Value::string_name("a"), Value::Int(1)));
    /// }
    /// ```
    pub fn remove_entry(self) -> (Value, Value) {
        self.dict.drop_index();
        self.dict.entries.remove(self.at)
    }
}

impl Object {
    /// The property `name`, inserted as Nil (last) when missing.
    fn property_or_nil(&mut self, name: &str) -> &mut Value {
        let at = match self.properties.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                self.properties.push((name.to_owned(), Value::Nil));
                self.properties.len() - 1
            }
        };
        self.property_at(at)
    }

    /// The property at `at`, which the caller knows exists.
    #[allow(clippy::indexing_slicing)] // found in, or pushed to, the properties
    fn property_at(&mut self, at: usize) -> &mut Value {
        &mut self.properties[at].1
    }
}

impl Object {
    /// The id of a text resource's reference to one of its entries ([`crate::save::TextResource`]:
    /// `ExtResource("1_ab")` and `SubResource("Resource_x")` are objects of class `ExtResource`
    /// or `SubResource` holding only their `id`); `None` for any other object.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Object;
    ///
    /// let mut o = Object::new("ExtResource");
    /// o.set("id", "1_ab");
    /// assert_eq!(o.text_reference_id(), Some(&Value::from("1_ab")));
    /// assert_eq!(Object::new("Resource").text_reference_id(), None);
    /// ```
    #[cfg(feature = "text")]
    pub fn text_reference_id(&self) -> Option<&Value> {
        super::godot_text::reference_id(self)
    }

    /// A full object of `class` without properties.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::Object;
    ///
    /// let mut o = Object::new("Resource");
    /// o.set("resource_name", "sword");
    /// let v = Value::from(o);
    /// assert_eq!(v["resource_name"], "sword");
    /// assert_eq!(v.as_object().map(|o| o.class.as_str()), Some("Resource"));
    /// ```
    pub fn new(class: impl Into<String>) -> Object {
        Object {
            class: class.into(),
            properties: Vec::new(),
        }
    }

    /// The property `name`, if the object has it.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    /// Sets the property `name` (in place if it is there, last otherwise).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<Value>) {
        let name = name.into();
        let value = value.into();
        match self.properties.iter_mut().find(|(n, _)| *n == name) {
            Some((_, old)) => *old = value,
            None => self.properties.push((name, value)),
        }
    }
}

macro_rules! eq_value {
    ($($t:ty => |$v:ident, $o:ident| $e:expr;)*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                let ($v, $o) = (self, other);
                $e
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}

/// As `eq_value!`, and for `&Value` and `&mut Value` too (as serde_json's numbers and bools,
/// so that `v.get(0) == Some(&Value::Int(1))` has a shorter `*v.get(0)? == 1`, and iterators'
/// `&Value` items compare).
macro_rules! eq_value_and_refs {
    ($($t:ty => |$v:ident, $o:ident| $e:expr;)*) => {$(
        eq_value! { $t => |$v, $o| $e; }
        impl PartialEq<$t> for &Value {
            fn eq(&self, other: &$t) -> bool {
                **self == *other
            }
        }
        impl PartialEq<$t> for &mut Value {
            fn eq(&self, other: &$t) -> bool {
                **self == *other
            }
        }
    )*};
}

/// Whether `v` is an int of value `n`.
fn int_is(v: &Value, n: i128) -> bool {
    matches!(v, Value::Int(i) if i128::from(*i) == n)
}

/// Whether `v` is a float equal to `x` (by `==`: `0.0 == -0.0`, a NaN equals nothing).
fn float_is(v: &Value, x: f64) -> bool {
    matches!(v, Value::Float(f) if *f == x)
}

// `Value == x` for the texts, bools and numbers of Rust. As in serde_json, an int equals only
// an int and a float only a float of that value (`Value::from(1) == 1.0` is false: compare
// `as_f64()` to compare numbers), a text a String or a StringName of that text. There is no
// `==` with slices, arrays or `Vec`s (serde_json has none either, and `[1, 2]` would be
// ambiguous here: `Value::from([1, 2])` is a Vector2i): compare with `Value::from(vec![1, 2])`
// or read `as_array()`.
eq_value! {
    str => |v, o| v.as_str() == Some(o);
    &str => |v, o| v.as_str() == Some(*o);
    String => |v, o| v.as_str() == Some(o.as_str());
    GodotString => |v, o| v.as_str() == Some(o.as_str());
}

// Every primitive int is widened without loss to i128 (`usize` and `isize` are 64 bits at
// most: asserted in `from.rs`); a `u128` beyond `i128` equals no int.
eq_value_and_refs! {
    bool => |v, o| v.as_bool() == Some(*o);
    i8 => |v, o| int_is(v, i128::from(*o));
    i16 => |v, o| int_is(v, i128::from(*o));
    i32 => |v, o| int_is(v, i128::from(*o));
    i64 => |v, o| int_is(v, i128::from(*o));
    i128 => |v, o| int_is(v, *o);
    isize => |v, o| int_is(v, *o as i128);
    u8 => |v, o| int_is(v, i128::from(*o));
    u16 => |v, o| int_is(v, i128::from(*o));
    u32 => |v, o| int_is(v, i128::from(*o));
    u64 => |v, o| int_is(v, i128::from(*o));
    u128 => |v, o| i128::try_from(*o).is_ok_and(|n| int_is(v, n));
    usize => |v, o| int_is(v, *o as i128);
    f32 => |v, o| float_is(v, f64::from(*o));
    f64 => |v, o| float_is(v, *o);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::VariantType;

    #[test]
    fn lookups_find_string_and_string_name_keys_and_never_panic() {
        let v = Value::from_iter([
            (Value::from("a"), Value::from(1)),
            (Value::string_name("b"), Value::from(2)),
            (Value::from(3), Value::from("three")),
        ]);
        assert_eq!(v["a"], 1);
        assert_eq!(v["b"], 2);
        assert_eq!(v[&Value::from("b")], 2);
        assert_eq!(v[&Value::from(3)], "three");
        assert!(v["c"].is_nil());
        assert!(v[0].is_nil());
        assert!(v["a"]["deeper"][7].is_nil());
        let d = v.as_dictionary().unwrap();
        assert_eq!(d.get(3), Some(&Value::from("three")));
        assert_eq!(d.get(3i64), Some(&Value::from("three")));
        assert_eq!(d.get(Value::Float(3.0)), None, "1 and 1.0 are two keys");
        assert!(Value::Int(5).get("a").is_none());
    }

    #[test]
    fn insert_replaces_an_equal_key_in_place() {
        let mut d = Dictionary::new();
        assert_eq!(d.insert("k", 1), None);
        d.insert("z", 0);
        assert_eq!(d.insert(Value::string_name("k"), 2), Some(Value::Int(1)));
        assert_eq!(
            d.keys().map(|k| k.as_str().unwrap()).collect::<Vec<_>>(),
            ["k", "z"]
        );
        assert_eq!(d.remove("k"), Some(Value::Int(2)));
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn getters_copy_math_types_out_of_their_storage() {
        let t = Value::transform3d(
            [1.0, 2.0, 3.0],
            [4.0, 5.0, 6.0],
            [7.0, 8.0, 9.0],
            [10.0, 11.0, 12.0],
        );
        assert_eq!(
            t.as_transform3d(),
            Some([1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0, 10.0, 11.0, 12.0])
        );
        assert_eq!(t.as_basis(), None);
        assert_eq!(t.variant_type(), VariantType::Transform3D);
        assert_eq!(
            Value::rect2(1.0, 2.0, 3.0, 4.0).as_rect2(),
            Some([1.0, 2.0, 3.0, 4.0])
        );
        assert_eq!(Value::Int(3).as_f64(), Some(3.0));
        assert_eq!(Value::Float(3.0).as_i64(), None);
        assert_eq!(Value::Int(-1).as_u64(), None);
    }
}

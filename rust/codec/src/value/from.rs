//! Building a [`Value`] without naming its storage: `From` the Rust types a server uses,
//! `FromIterator` into Arrays and Dictionaries, and constructors for the math types.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use super::{Array, Dictionary, GodotString, NodePath, Object, Value};
use crate::error::IntOutOfRange;
use crate::types::ContainerType;

/// # Building
///
/// `Value::from` (or `.into()`) takes the Rust types a message is made of: `bool`, the ints
/// that always fit Godot's 64-bit int (`i8` to `i64`, `isize`, `u8` to `u32`: an int; `u64`,
/// `usize`, `u128` and `i128` go through `Value::try_from`, which refuses what does not fit), `f32` and `f64` (a float), `&str`, `String`, `char`
/// (a String), `[f64; 2]` and `[f32; 2]` (a Vector2), `[f64; 3]` and `[f32; 3]` (a Vector3),
/// `[i32; 2]` (a Vector2i), `[i32; 3]` (a Vector3i), `Option<T>` (`None` is Nil), a `Vec` or
/// slice of any of these (an Array), a `HashMap` or `BTreeMap` (a Dictionary), and the crate's
/// [`Array`], [`Dictionary`], [`NodePath`] and [`Object`]. Iterators collect into an Array (of
/// items) or a Dictionary (of key-value pairs). The other types, whose Rust form would be
/// ambiguous (four reals are a Rect2, a Vector4, a Plane, a Quaternion or a Color), have
/// constructors: [`Value::rect2`], [`Value::quaternion`], [`Value::color`] …
///
/// ```
/// use fast_var_codec_core::Value;
///
/// let reply = Value::from_iter([
///     ("ok", Value::from(true)),
///     ("id", Value::from(42)),
///     ("spawn", Value::from([3.0, 4.5])), // a Vector2
///     ("area", Value::rect2(0.0, 0.0, 64.0, 32.0)),
///     ("tint", Value::color(1.0, 0.5, 0.0, 1.0)),
///     ("target", Value::node_path("/root/Main/Player:position")),
///     ("tags", Value::from(vec!["new", "fast"])),
///     ("scores", (1..=3).collect()), // an Array of ints
/// ]);
/// assert_eq!(reply["tags"][1], "fast");
/// assert_eq!(reply["scores"].as_array().map(|a| a.len()), Some(3));
/// assert_eq!(reply["target"].to_string(), r#"NodePath("/root/Main/Player:position")"#);
/// ```
impl Value {
    /// A StringName (`&"name"` in GDScript).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::VariantType;
    /// let v = Value::string_name("jump");
    /// assert_eq!(v.variant_type(), VariantType::StringName);
    /// assert_eq!(v, "jump"); // its text compares as a String's would
    /// ```
    pub fn string_name(name: impl Into<GodotString>) -> Value {
        Value::StringName(name.into())
    }

    /// A NodePath from its text, as GDScript's `NodePath("/root/Player:position:x")` reads it:
    /// absolute when it starts with `/`, names separated by `/`, subnames after each `:`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// let p = Value::node_path("../Enemy:hp");
    /// let path = p.as_node_path().unwrap();
    /// assert_eq!(path.names, ["..", "Enemy"]);
    /// assert_eq!(path.subnames, ["hp"]);
    /// assert!(!path.absolute);
    /// ```
    pub fn node_path(text: &str) -> Value {
        Value::NodePath(Box::new(NodePath::from(text)))
    }

    /// A Vector2.
    pub fn vector2(x: f64, y: f64) -> Value {
        Value::Vector2([x, y])
    }

    /// A Vector2i.
    pub fn vector2i(x: i32, y: i32) -> Value {
        Value::Vector2i([x, y])
    }

    /// A Vector3.
    pub fn vector3(x: f64, y: f64, z: f64) -> Value {
        Value::Vector3([x, y, z])
    }

    /// A Vector3i.
    pub fn vector3i(x: i32, y: i32, z: i32) -> Value {
        Value::Vector3i([x, y, z])
    }

    /// A Vector4.
    pub fn vector4(x: f64, y: f64, z: f64, w: f64) -> Value {
        Value::Vector4(Box::new([x, y, z, w]))
    }

    /// A Vector4i.
    pub fn vector4i(x: i32, y: i32, z: i32, w: i32) -> Value {
        Value::Vector4i([x, y, z, w])
    }

    /// A Rect2 at `x`, `y` of size `width`, `height` (GDScript's `Rect2(x, y, width, height)`).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// assert_eq!(Value::rect2(0.0, 0.0, 2.0, 1.0).to_string(), "Rect2(0, 0, 2, 1)");
    /// ```
    pub fn rect2(x: f64, y: f64, width: f64, height: f64) -> Value {
        Value::Rect2(Box::new([x, y, width, height]))
    }

    /// A Rect2i at `x`, `y` of size `width`, `height`.
    pub fn rect2i(x: i32, y: i32, width: i32, height: i32) -> Value {
        Value::Rect2i([x, y, width, height])
    }

    /// A Transform2D of its columns, as GDScript's `Transform2D(x_axis, y_axis, origin)`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// let moved = Value::transform2d([1.0, 0.0], [0.0, 1.0], [10.0, 5.0]);
    /// assert_eq!(moved.as_transform2d(), Some([1.0, 0.0, 0.0, 1.0, 10.0, 5.0]));
    /// ```
    pub fn transform2d(x_axis: [f64; 2], y_axis: [f64; 2], origin: [f64; 2]) -> Value {
        let ([a, b], [c, d], [e, f]) = (x_axis, y_axis, origin);
        Value::Transform2D(Box::new([a, b, c, d, e, f]))
    }

    /// A Plane of its normal and its distance from the origin (`Plane(a, b, c, d)`).
    pub fn plane(a: f64, b: f64, c: f64, d: f64) -> Value {
        Value::Plane(Box::new([a, b, c, d]))
    }

    /// A Quaternion (`Quaternion(x, y, z, w)`; the identity is `(0, 0, 0, 1)`).
    pub fn quaternion(x: f64, y: f64, z: f64, w: f64) -> Value {
        Value::Quaternion(Box::new([x, y, z, w]))
    }

    /// An AABB of its position and size (`AABB(position, size)`).
    pub fn aabb(position: [f64; 3], size: [f64; 3]) -> Value {
        let ([a, b, c], [d, e, f]) = (position, size);
        Value::Aabb(Box::new([a, b, c, d, e, f]))
    }

    /// A Basis of its columns, as GDScript's `Basis(x_axis, y_axis, z_axis)`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// let identity = Value::basis([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
    /// assert_eq!(identity.to_string(), "Basis(1, 0, 0, 0, 1, 0, 0, 0, 1)");
    /// ```
    pub fn basis(x_axis: [f64; 3], y_axis: [f64; 3], z_axis: [f64; 3]) -> Value {
        Value::Basis(Box::new(basis_rows(x_axis, y_axis, z_axis)))
    }

    /// A Transform3D of its basis's columns and its origin, as GDScript's
    /// `Transform3D(x_axis, y_axis, z_axis, origin)`.
    pub fn transform3d(
        x_axis: [f64; 3],
        y_axis: [f64; 3],
        z_axis: [f64; 3],
        origin: [f64; 3],
    ) -> Value {
        let [a, b, c, d, e, f, g, h, i] = basis_rows(x_axis, y_axis, z_axis);
        let [ox, oy, oz] = origin;
        let t = [a, b, c, d, e, f, g, h, i, ox, oy, oz];
        Value::Transform3D(Box::new(t))
    }

    /// A Projection of its columns, as GDScript's `Projection(x, y, z, w)`.
    pub fn projection(x: [f64; 4], y: [f64; 4], z: [f64; 4], w: [f64; 4]) -> Value {
        let mut p = [0.0; 16];
        for (dst, column) in p.chunks_exact_mut(4).zip([x, y, z, w]) {
            dst.copy_from_slice(&column);
        }
        Value::Projection(Box::new(p))
    }

    /// A Color of its red, green, blue and alpha (0 to 1; the engine holds binary32).
    pub fn color(r: f32, g: f32, b: f32, a: f32) -> Value {
        Value::Color([r, g, b, a])
    }

    /// A Signal of `name` on the object of instance id `object_id`.
    pub fn signal(name: &str, object_id: u64) -> Value {
        Value::Signal {
            name: name.into(),
            object_id,
        }
    }

    /// A PackedStringArray of `texts`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// let v = Value::packed_string_array(["a", "b"]);
    /// assert_eq!(v.as_packed_string_array().map(<[_]>::len), Some(2));
    /// ```
    pub fn packed_string_array<S: Into<GodotString>>(texts: impl IntoIterator<Item = S>) -> Value {
        Value::PackedStringArray(texts.into_iter().map(Into::into).collect())
    }
}

/// A Basis's rows (the wire's order) from its columns.
fn basis_rows(x: [f64; 3], y: [f64; 3], z: [f64; 3]) -> [f64; 9] {
    [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]]
}

macro_rules! from_via {
    ($($t:ty => |$v:ident| $e:expr;)*) => {$(
        impl From<$t> for Value {
            #[inline]
            fn from($v: $t) -> Value {
                $e
            }
        }
    )*};
}

from_via! {
    () => |_v| Value::Nil;
    bool => |v| Value::Bool(v);
    i8 => |v| Value::Int(v.into());
    i16 => |v| Value::Int(v.into());
    i32 => |v| Value::Int(v.into());
    i64 => |v| Value::Int(v);
    u8 => |v| Value::Int(v.into());
    u16 => |v| Value::Int(v.into());
    u32 => |v| Value::Int(v.into());
    // Every target Rust supports has pointers of at most 64 bits (asserted below).
    isize => |v| Value::Int(v as i64);
    f32 => |v| Value::Float(v.into());
    f64 => |v| Value::Float(v);
    &str => |v| Value::String(v.into());
    String => |v| Value::String(v.into());
    &String => |v| Value::String(v.into());
    Box<str> => |v| Value::String(v.into());
    Cow<'_, str> => |v| Value::String(v.into());
    char => |v| Value::String(v.into());
    GodotString => |v| Value::String(v);
    &GodotString => |v| Value::String(v.clone());
    [f64; 2] => |v| Value::Vector2(v);
    [f32; 2] => |v| Value::Vector2(v.map(f64::from));
    [f64; 3] => |v| Value::Vector3(v);
    [f32; 3] => |v| Value::Vector3(v.map(f64::from));
    [i32; 2] => |v| Value::Vector2i(v);
    [i32; 3] => |v| Value::Vector3i(v);
    NodePath => |v| Value::NodePath(Box::new(v));
    Array => |v| Value::Array(Box::new(v));
    Dictionary => |v| Value::Dictionary(Box::new(v));
    Object => |v| Value::Object(Box::new(v));
}

const _: () = assert!(std::mem::size_of::<isize>() <= std::mem::size_of::<i64>());

// The ints that may not fit Godot's 64-bit int (see `IntOutOfRange`).
macro_rules! try_from_int {
    ($($t:ty),*) => {$(
        /// An int when `n` fits Godot's 64-bit int (`i64`), else [`IntOutOfRange`]: Godot
        /// has no unsigned int.
        impl TryFrom<$t> for Value {
            type Error = IntOutOfRange;
            fn try_from(n: $t) -> Result<Value, IntOutOfRange> {
                i64::try_from(n).map(Value::Int).map_err(|_| IntOutOfRange::new(n))
            }
        }
    )*};
}
try_from_int!(u64, usize, u128, i128);

impl<T: Into<Value>> From<Option<T>> for Value {
    /// The value, or Nil for `None`.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Nil, Into::into)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    /// An untyped Array of the items. (A `Vec<u8>` is an Array of ints too: a
    /// PackedByteArray is `Value::PackedByteArray(bytes)`.)
    fn from(items: Vec<T>) -> Value {
        Value::array(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Value>> From<&[T]> for Value {
    /// An untyped Array of the items.
    fn from(items: &[T]) -> Value {
        Value::array(items.iter().cloned().map(Into::into).collect())
    }
}

impl<K: Into<Value>, V: Into<Value>, S> From<HashMap<K, V, S>> for Value {
    /// An untyped Dictionary of the entries (in the map's iteration order).
    fn from(map: HashMap<K, V, S>) -> Value {
        map.into_iter().collect()
    }
}

impl<K: Into<Value>, V: Into<Value>> From<BTreeMap<K, V>> for Value {
    /// An untyped Dictionary of the entries, in key order.
    fn from(map: BTreeMap<K, V>) -> Value {
        map.into_iter().collect()
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    /// An untyped Array of the items.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::from(iter.into_iter().collect::<Array>())
    }
}

impl<K: Into<Value>, V: Into<Value>> FromIterator<(K, V)> for Value {
    /// An untyped Dictionary of the entries in order (a key equal to an earlier one replaces
    /// its value, as [`Dictionary::insert`]).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        Value::from(iter.into_iter().collect::<Dictionary>())
    }
}

impl From<&str> for NodePath {
    /// The path of this text, as Godot's `NodePath(String)` reads it: absolute when it starts
    /// with `/`; the names between `/` (empty ones skipped), then one subname after each `:`.
    /// An empty subname before the end makes the whole path empty, as the engine's
    /// (which reports it as invalid).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::NodePath;
    /// let p = NodePath::from("/root//Player:position:x");
    /// assert_eq!(p.to_string(), "/root/Player:position:x");
    /// assert_eq!(NodePath::from("a::b"), NodePath::default());
    /// ```
    fn from(text: &str) -> NodePath {
        let (path, sub) = match text.split_once(':') {
            Some((path, sub)) => (path, Some(sub)),
            None => (text, None),
        };
        let mut subnames = Vec::new();
        if let Some(sub) = sub {
            let parts: Vec<&str> = sub.split(':').collect();
            for (i, part) in parts.iter().enumerate() {
                if part.is_empty() {
                    if i + 1 == parts.len() {
                        continue; // a `:` at the end is allowed
                    }
                    return NodePath::default();
                }
                subnames.push((*part).to_owned());
            }
        }
        NodePath {
            absolute: path.starts_with('/'),
            names: path
                .split('/')
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect(),
            subnames,
        }
    }
}

impl Value {
    /// `items` as an Array of `element` items: [`Value::typed_array`] of any iterator of
    /// values.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    /// use fast_var_codec_core::value::{ContainerType, VariantType};
    /// let ints = Value::typed_array_of(ContainerType::Builtin(VariantType::Int), [1, 2, 3]);
    /// assert_eq!(ints.to_string(), "Array[int]([1, 2, 3])");
    /// ```
    pub fn typed_array_of<T: Into<Value>>(
        element: ContainerType,
        items: impl IntoIterator<Item = T>,
    ) -> Value {
        let mut a: Array = items.into_iter().collect();
        a.element = element;
        Value::from(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_paths_read_as_the_engine_reads_them() {
        for (text, names, subnames, absolute) in [
            ("", &[][..], &[][..], false),
            ("/", &[], &[], true),
            ("/root/Main", &["root", "Main"], &[], true),
            ("Player:position:x", &["Player"], &["position", "x"], false),
            (":x", &[], &["x"], false),
            ("a:", &["a"], &[], false),
            ("../b", &["..", "b"], &[], false),
        ] {
            let p = NodePath::from(text);
            assert_eq!(p.names, names, "{text}");
            assert_eq!(p.subnames, subnames, "{text}");
            assert_eq!(p.absolute, absolute, "{text}");
        }
    }

    #[test]
    fn rust_literals_become_the_unambiguous_godot_types() {
        assert_eq!(Value::from([1.0f32, 2.0]), Value::Vector2([1.0, 2.0]));
        assert_eq!(Value::from([1, 2, 3]), Value::Vector3i([1, 2, 3]));
        assert_eq!(Value::from(None::<i32>), Value::Nil);
        assert_eq!(Value::from(7u8), Value::Int(7));
        assert_eq!(
            Value::from(vec![Some(1), None]),
            Value::array(vec![Value::Int(1), Value::Nil])
        );
        let d: Value = BTreeMap::from([("b", 2), ("a", 1)]).into();
        assert_eq!(d.as_dictionary().map(|d| d.keys().count()), Some(2));
        assert_eq!(
            d.as_dictionary().and_then(|d| d.keys().next()),
            Some(&Value::from("a"))
        );
    }
}

//! Godot 4's Variant types, which this crate uses as its vocabulary in every dialect.
//!
//! A dialect maps these to its own wire ids (see [`crate::dialect`]); values decoded from a
//! Godot 3 stream come back as their Godot 4 counterparts.

use std::fmt;

use crate::names::{NameKind, UnknownName};

/// Whether `path` is a script path the format may carry: a `res://` path, as the engine writes
/// a full object's `script` property and a script-typed container's type. Every reader and
/// writer of the project, and the allow-list, judge script paths by this one rule.
///
/// # Examples
/// ```
/// use fast_var_codec_core::options::is_script_path;
///
/// assert!(is_script_path("res://save_data.gd"));
/// assert!(!is_script_path("user://mod.gd"));
/// ```
pub fn is_script_path(path: &str) -> bool {
    path.starts_with("res://")
}

macro_rules! variant_types {
    ($($name:ident = $id:literal, $text:literal;)*) => {
        /// A Godot 4 Variant type. The discriminant is the Godot 4 type id (`TYPE_*` in GDScript).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[non_exhaustive]
pub enum VariantType {
            $(
                #[doc = concat!("`", $text, "`, type id ", stringify!($id), ".")]
                $name = $id,
            )*
        }

        impl VariantType {
            /// Every type, in id order.
            pub const ALL: [VariantType; VARIANT_MAX] = [$(VariantType::$name,)*];

            /// The Godot 4 id for `id`, if there is such a type.
            pub fn from_id(id: u32) -> Option<VariantType> {
                match id {
                    $($id => Some(VariantType::$name),)*
                    _ => None,
                }
            }

            /// The name Godot uses for the type (`"Vector2"`, `"PackedStringArray"` …).
            pub fn name(self) -> &'static str {
                match self {
                    $(VariantType::$name => $text,)*
                }
            }
        }
    };
}

#[doc(hidden)]
/// Number of Godot 4 (4.3+) Variant types.
pub const VARIANT_MAX: usize = 39;

variant_types! {
    Nil = 0, "Nil";
    Bool = 1, "bool";
    Int = 2, "int";
    Float = 3, "float";
    String = 4, "String";
    Vector2 = 5, "Vector2";
    Vector2i = 6, "Vector2i";
    Rect2 = 7, "Rect2";
    Rect2i = 8, "Rect2i";
    Vector3 = 9, "Vector3";
    Vector3i = 10, "Vector3i";
    Transform2D = 11, "Transform2D";
    Vector4 = 12, "Vector4";
    Vector4i = 13, "Vector4i";
    Plane = 14, "Plane";
    Quaternion = 15, "Quaternion";
    Aabb = 16, "AABB";
    Basis = 17, "Basis";
    Transform3D = 18, "Transform3D";
    Projection = 19, "Projection";
    Color = 20, "Color";
    StringName = 21, "StringName";
    NodePath = 22, "NodePath";
    Rid = 23, "RID";
    Object = 24, "Object";
    Callable = 25, "Callable";
    Signal = 26, "Signal";
    Dictionary = 27, "Dictionary";
    Array = 28, "Array";
    PackedByteArray = 29, "PackedByteArray";
    PackedInt32Array = 30, "PackedInt32Array";
    PackedInt64Array = 31, "PackedInt64Array";
    PackedFloat32Array = 32, "PackedFloat32Array";
    PackedFloat64Array = 33, "PackedFloat64Array";
    PackedStringArray = 34, "PackedStringArray";
    PackedVector2Array = 35, "PackedVector2Array";
    PackedVector3Array = 36, "PackedVector3Array";
    PackedColorArray = 37, "PackedColorArray";
    PackedVector4Array = 38, "PackedVector4Array";
}

impl VariantType {
    /// The Godot 4 type id.
    pub fn id(self) -> u32 {
        self as u32
    }

    /// The types whose bytes are reals, binary64 with the header's 64-bit flag in a dialect
    /// of double-precision builds: the math types and the packed vector arrays (the reader's
    /// `real_value` and `packed_vectors`).
    pub(crate) fn carries_reals(self) -> bool {
        use VariantType as T;
        matches!(
            self,
            T::Vector2
                | T::Rect2
                | T::Vector3
                | T::Transform2D
                | T::Vector4
                | T::Plane
                | T::Quaternion
                | T::Aabb
                | T::Basis
                | T::Transform3D
                | T::Projection
                | T::PackedVector2Array
                | T::PackedVector3Array
                | T::PackedVector4Array
        )
    }
}

impl fmt::Display for VariantType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type Godot 4 names so ([`VariantType::name`], `type_string()` in GDScript): exactly as
/// Godot spells it, case included (`"Nil"`, `"bool"`, `"int"`, `"float"`, `"Vector2i"`,
/// `"AABB"`, `"RID"`, `"PackedByteArray"` …).
///
/// # Errors
/// [`UnknownName`] for any other text (`"Int"`, `"Vector2I"`, `"PoolByteArray"`).
///
/// # Examples
/// ```
/// use fast_var_codec_core::value::VariantType;
/// assert_eq!("Vector2i".parse::<VariantType>(), Ok(VariantType::Vector2i));
/// assert_eq!("PackedByteArray".parse(), Ok(VariantType::PackedByteArray));
/// assert_eq!("int".parse(), Ok(VariantType::Int));
/// assert!("Int".parse::<VariantType>().is_err());
/// ```
impl std::str::FromStr for VariantType {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        VariantType::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .ok_or_else(|| {
                UnknownName::new(
                    NameKind::VariantType,
                    name,
                    None,
                    "names are spelled as Godot spells them: \"int\", \"Vector2i\", \"PackedByteArray\", \"AABB\" …".to_owned(),
                )
            })
    }
}

/// The math types whose components are `real_t`: binary32 in single-precision builds,
/// binary64 (with the header's 64-bit flag) in double-precision builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RealType {
    /// Vector2: x, y.
    Vector2,
    /// Rect2: position, size.
    Rect2,
    /// Vector3: x, y, z.
    Vector3,
    /// Transform2D: x axis, y axis, origin.
    Transform2D,
    /// Vector4: x, y, z, w (not in Godot 3).
    Vector4,
    /// Plane: normal, d.
    Plane,
    /// Quaternion: x, y, z, w.
    Quaternion,
    /// AABB: position, size.
    Aabb,
    /// Basis: 9 reals, row by row.
    Basis,
    /// Transform3D: basis, then origin.
    Transform3D,
    /// Projection: 16 reals, column by column (not in Godot 3).
    Projection,
}

impl RealType {
    /// The most components a math type has (Projection's 16).
    pub const MAX_COMPONENTS: usize = 16;

    /// Number of real components on the wire.
    pub fn components(self) -> usize {
        match self {
            RealType::Vector2 => 2,
            RealType::Vector3 => 3,
            RealType::Rect2 | RealType::Vector4 | RealType::Plane | RealType::Quaternion => 4,
            RealType::Transform2D | RealType::Aabb => 6,
            RealType::Basis => 9,
            RealType::Transform3D => 12,
            RealType::Projection => 16,
        }
    }

    /// The Variant type a value of this shape has.
    pub fn variant_type(self) -> VariantType {
        match self {
            RealType::Vector2 => VariantType::Vector2,
            RealType::Rect2 => VariantType::Rect2,
            RealType::Vector3 => VariantType::Vector3,
            RealType::Transform2D => VariantType::Transform2D,
            RealType::Vector4 => VariantType::Vector4,
            RealType::Plane => VariantType::Plane,
            RealType::Quaternion => VariantType::Quaternion,
            RealType::Aabb => VariantType::Aabb,
            RealType::Basis => VariantType::Basis,
            RealType::Transform3D => VariantType::Transform3D,
            RealType::Projection => VariantType::Projection,
        }
    }
}

/// The integer vector types (always int32 components, no precision flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntVectorType {
    /// Vector2i: x, y.
    Vector2i,
    /// Rect2i: position, size.
    Rect2i,
    /// Vector3i: x, y, z.
    Vector3i,
    /// Vector4i: x, y, z, w.
    Vector4i,
}

impl IntVectorType {
    /// Number of int32 components on the wire.
    pub fn components(self) -> usize {
        match self {
            IntVectorType::Vector2i => 2,
            IntVectorType::Vector3i => 3,
            IntVectorType::Rect2i | IntVectorType::Vector4i => 4,
        }
    }

    /// The Variant type a value of this shape has.
    pub fn variant_type(self) -> VariantType {
        match self {
            IntVectorType::Vector2i => VariantType::Vector2i,
            IntVectorType::Rect2i => VariantType::Rect2i,
            IntVectorType::Vector3i => VariantType::Vector3i,
            IntVectorType::Vector4i => VariantType::Vector4i,
        }
    }
}

/// Packed vector arrays whose components are `real_t` (flagged in double builds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PackedVectorType {
    /// PackedVector2Array.
    Vector2,
    /// PackedVector3Array.
    Vector3,
    /// PackedVector4Array (Godot 4.3+).
    Vector4,
}

impl PackedVectorType {
    /// Number of real components of one element.
    pub fn components(self) -> usize {
        match self {
            PackedVectorType::Vector2 => 2,
            PackedVectorType::Vector3 => 3,
            PackedVectorType::Vector4 => 4,
        }
    }

    /// The packed array's Variant type.
    pub fn variant_type(self) -> VariantType {
        match self {
            PackedVectorType::Vector2 => VariantType::PackedVector2Array,
            PackedVectorType::Vector3 => VariantType::PackedVector3Array,
            PackedVectorType::Vector4 => VariantType::PackedVector4Array,
        }
    }
}

/// The element type of a typed Array, or the key/value type of a typed Dictionary.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum ContainerType {
    /// Untyped (`Array`, `Dictionary`, or a `Variant` key/value).
    #[default]
    Untyped,
    /// A builtin type such as `Array[int]`.
    Builtin(VariantType),
    /// Objects of a native class (`Array[Node]`), or `"EncodedObjectAsID"`.
    Class(String),
    /// Objects of a script class, by the script's `res://` path.
    Script(String),
}

impl ContainerType {
    /// Whether the container is untyped: it takes any value, and no type info is written.
    pub fn is_untyped(&self) -> bool {
        matches!(self, ContainerType::Untyped)
    }

    /// Whether the type is one of a text resource's entries, kept as written
    /// (`Array[ExtResource("1_x")]`, the script of an `@export var items: Array[Item]`): a type
    /// only that file can resolve.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::ContainerType;
    ///
    /// assert!(ContainerType::Class("ExtResource(\"1_x\")".into()).is_text_reference());
    /// assert!(!ContainerType::Class("Node".into()).is_text_reference());
    /// ```
    pub fn is_text_reference(&self) -> bool {
        match self {
            // No class name holds a parenthesis: the reader kept `Name(id)` as written.
            ContainerType::Class(name) => ["ExtResource", "SubResource"].iter().any(|entry| {
                name.strip_prefix(entry)
                    .is_some_and(|rest| rest.trim_start().starts_with('('))
            }),
            _ => false,
        }
    }

    /// The type a name stands for in `Array[...]` and `Dictionary[..., ...]`: a builtin as Godot
    /// spells it (`"int"`, `"String"`, `"Vector2i"`), a `res://` script path, `""` for objects
    /// of any class, a class name (`"Node"`, `"Object"`: objects are typed by class), or, as a
    /// text resource writes the script of a typed container, one of its entries by id
    /// (`ExtResource("1_x")`, kept as a class name as written). A name that is none of these is
    /// refused rather than taken as a class no object will ever be.
    ///
    /// # Errors
    /// [`UnknownName`] for a builtin spelled otherwise (`"Int"`, `"string"`), another
    /// language's name (`"str"`, `"dict"`, `"number"`), or a name no class has (a class name
    /// starts with a capital letter and holds only letters, digits and `_`); with the Godot name
    /// meant, where there is one.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::value::{ContainerType, VariantType};
    ///
    /// assert_eq!(ContainerType::from_name("int"), Ok(ContainerType::Builtin(VariantType::Int)));
    /// assert_eq!(ContainerType::from_name("Node"), Ok(ContainerType::Class("Node".into())));
    /// let err = ContainerType::from_name("str").unwrap_err();
    /// assert_eq!(err.suggestion, Some("String"));
    /// assert!(err.to_string().contains("\"String\""));
    /// ```
    pub fn from_name(name: &str) -> Result<ContainerType, UnknownName> {
        match name.parse::<VariantType>() {
            Ok(VariantType::Object) | Err(_) => {}
            Ok(builtin) => return Ok(ContainerType::Builtin(builtin)),
        }
        if name.is_empty() {
            return Ok(ContainerType::Builtin(VariantType::Object));
        }
        if is_script_path(name) {
            return Ok(ContainerType::Script(name.to_owned()));
        }
        if is_entry_reference(name) {
            return Ok(ContainerType::Class(name.to_owned()));
        }
        let builtin = VariantType::ALL
            .into_iter()
            .filter(|t| *t != VariantType::Object)
            .find(|t| t.name().eq_ignore_ascii_case(name))
            .map(VariantType::name);
        let suggestion = builtin.or_else(|| other_language_name(name));
        let plausible_class = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match suggestion {
            None if plausible_class => Ok(ContainerType::Class(name.to_owned())),
            suggestion => Err(UnknownName::new(
                NameKind::ContainerType,
                name,
                suggestion,
                "a builtin as Godot spells it, \"int\", \"String\", \"Vector2i\"; a class name, \"Node\"; or a res:// script path".to_owned(),
            )),
        }
    }
}

/// Whether a name is a text resource's entry as the type of a typed container:
/// `ExtResource("1_x")` or `SubResource("2")`, an id in quotes (Godot 4) or a number (Godot 3).
fn is_entry_reference(name: &str) -> bool {
    let Some(args) = ["ExtResource(", "SubResource("]
        .iter()
        .find_map(|tag| name.strip_prefix(tag))
        .and_then(|rest| rest.strip_suffix(')'))
        .map(str::trim)
    else {
        return false;
    };
    let quoted = args
        .strip_prefix('"')
        .and_then(|a| a.strip_suffix('"'))
        .is_some_and(|id| !id.is_empty() && !id.contains(['"', '\\']));
    quoted || (!args.is_empty() && args.bytes().all(|b| b.is_ascii_digit()))
}

/// The Godot name of another language's type name (`"str"`, `"dict"`, `"number"`), if it has one.
fn other_language_name(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "str" | "string" | "text" => "String",
        "integer" | "long" | "i32" | "i64" | "bigint" => "int",
        "double" | "number" | "f32" | "f64" | "real" => "float",
        "boolean" => "bool",
        "dict" | "map" | "hashmap" => "Dictionary",
        "list" | "tuple" | "vec" | "sequence" => "Array",
        "bytes" | "bytearray" | "uint8array" | "buffer" => "PackedByteArray",
        "none" | "null" | "nonetype" | "undefined" => "Nil",
        // Godot 3's names of types Godot 4 renamed.
        "transform" => "Transform3D",
        "quat" => "Quaternion",
        "rect3" => "AABB",
        "poolbytearray" => "PackedByteArray",
        "poolintarray" => "PackedInt32Array",
        "poolrealarray" => "PackedFloat32Array",
        "poolstringarray" => "PackedStringArray",
        "poolvector2array" => "PackedVector2Array",
        "poolvector3array" => "PackedVector3Array",
        "poolcolorarray" => "PackedColorArray",
        _ => return None,
    })
}

/// The type as GDScript writes it in `Array[...]`: `Variant` when untyped, the builtin's name
/// (`int`, `String`), the class name, or the script's path.
impl std::fmt::Display for ContainerType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContainerType::Untyped => f.write_str("Variant"),
            ContainerType::Builtin(t) => f.write_str(t.name()),
            ContainerType::Class(c) => f.write_str(c),
            ContainerType::Script(p) => write!(f, "{p:?}"),
        }
    }
}

/// The class name Godot gives objects that were encoded as instance ids.
pub const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back() {
        for ty in VariantType::ALL {
            assert_eq!(ty.name().parse::<VariantType>(), Ok(ty));
        }
        for bad in [
            "",
            "Int",
            "nil",
            "Vector2I",
            "PoolByteArray",
            "aabb",
            " int",
        ] {
            let err = bad.parse::<VariantType>().unwrap_err();
            assert_eq!(err.name, bad);
            assert!(err.to_string().contains("not a Godot 4 type name"));
        }
    }

    #[test]
    fn a_text_resources_entries_are_container_types() {
        // As Godot 4.6.3 writes a typed array of a script the file names by id.
        for name in [
            "ExtResource(\"1_u1a7l\")",
            "SubResource(\"Resource_x\")",
            "ExtResource( 2 )",
        ] {
            assert_eq!(
                ContainerType::from_name(name),
                Ok(ContainerType::Class(name.to_owned()))
            );
        }
        for bad in [
            "ExtResource()",
            "ExtResource(\"\")",
            "ExtResource(\"a\"\")",
            "ExtResource(x)",
            "Resource(\"1\")",
        ] {
            assert!(ContainerType::from_name(bad).is_err(), "{bad}");
        }
    }
}

//! `Display` of a [`Value`]: the text Godot 4's `var_to_str` writes (its `VariantWriter`), as
//! Godot 4.6.3 (single and double precision) writes it for the values of the golden corpora
//! (`tests/var_to_str.rs` compares the two, the engine's text made by
//! `tests/golden/gen/godot4/var_to_str.gd`).

use std::fmt::{self, Write};

use super::key_order::sort_keys;
use super::{Array, Dictionary, Object, Value};
use crate::dialect::Dialect;
use crate::types::{ContainerType, ENCODED_OBJECT_AS_ID};

/// The engine's limit of nesting for `var_to_str` (its writer's `MAX_RECURSION`): the Arrays
/// and Dictionaries nested deeper are written `[]` and `{}`, as the engine writes them (it also
/// logs "Max recursion reached").
const MAX_RECURSION: usize = 100;

/// The value as Godot 4's `var_to_str` writes it (`str_to_var` reads it back): `null`, `1`,
/// `0.5`, `"text"` (with `\` and `"` escaped), `&"name"`, `NodePath("a/b:c")`,
/// `Vector2(1, 2.5)`, `[1, "a"]`, `{\n"k": 1\n}`, `Array[int]([1, 2])`,
/// `PackedByteArray(1, 2)` …
///
/// Floats are written as the engine writes them: with the digits of its Grisu2 conversion,
/// which read back as the same binary32 number when the value is one (as every `real_t`
/// component of a single-precision engine is), else as the same binary64 number, and are
/// the fewest that do but in rare cases (1e23 is `9.999999999999999e+22`); plain from 1e-4 to
/// below 1e15, with an exponent outside (`1e+20`, `1e-05`); a float on its own ends in `.0`
/// when it has neither a point nor an exponent (`1.0`, but `Vector2(1, 2)`); `inf`, `inf_neg`,
/// `nan`; and -0.0 is written `0`. A full object is written with the properties it holds, which the
/// engine would complete with the properties its class has that the wire does not carry.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
///
/// let v = Value::from_iter([
///     ("pos", Value::vector2(1.0, 0.1)),
///     ("hp", Value::from(10.0)),
///     ("tag", Value::string_name("boss")),
/// ]);
/// // The engine writes a Dictionary's keys sorted.
/// assert_eq!(v.to_string(), "{\n\"hp\": 10.0,\n\"pos\": Vector2(1, 0.1),\n\"tag\": &\"boss\"\n}");
/// assert_eq!(Value::from(vec![1e20, -0.0]).to_string(), "[1e+20, 0.0]");
/// ```
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(
            &mut Out {
                f,
                one_line: false,
                godot3: false,
                resource: None,
            },
            self,
            0,
        )
    }
}

/// [`Value::one_line`]'s text: `Display`'s, on one line.
#[derive(Debug, Clone, Copy)]
pub struct OneLine<'a>(&'a Value);

impl Value {
    /// The value's text on one line, for logs: [`Value`]'s `Display` (`var_to_str`'s text),
    /// except that a Dictionary's entries are separated by `, ` instead of new lines
    /// (`{"a": 1, "b": 2}`), a String's text is escaped as a StringName's is (`"a\nb"`, with
    /// C's escapes), an object ends without a new line, and any other new line or carriage
    /// return the data holds (in a class or property name) is written `\n` or `\r`. So a
    /// log line stays one line whatever a peer sends. `.to_string()` gives a `String`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let v = Value::from_iter([
    ///     ("pos", Value::vector2(1.0, 0.5)),
    ///     ("say", Value::from("hi\nthere")),
    ///     ("tags", Value::from(vec!["a"])),
    /// ]);
    /// assert_eq!(
    ///     v.one_line().to_string(),
    ///     r#"{"pos": Vector2(1, 0.5), "say": "hi\nthere", "tags": ["a"]}"#
    /// );
    /// assert_eq!(v.to_string().lines().count(), 6); // Display: Godot's text, over lines
    /// println!("got {}", v.one_line()); // in a log
    /// ```
    pub fn one_line(&self) -> OneLine<'_> {
        OneLine(self)
    }
}

/// [`Value::godot3_text`]'s text: Godot 3's `var2str`.
#[derive(Debug, Clone, Copy)]
pub struct Godot3Text<'a>(&'a Value);

impl Value {
    /// The value as Godot 3's `var2str` writes it (`str2var` reads it back, as does
    /// [`Value::from_godot_text`]): `Vector2( 1, 2 )`, `Quat( 0, 0, 0, 1 )`, `Transform( … )`,
    /// `[ 1, 2 ]`, `PoolIntArray( 1, 2 )`, `{\n"k": 1\n}`. Reals as Godot 3 writes them: held as
    /// binary32 and written with six significant digits (`0.333333`, `1.67772e+07`), so the text
    /// keeps less than the bytes do; an RID is written as nothing, as Godot 3 writes it. Types
    /// Godot 3 lacks are written as Godot 4 writes them (a StringName as a String); their text is
    /// Godot 4's, which Godot 3 does not read.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::Value;
    ///
    /// let v = Value::from(vec![Value::vector2(1.0, 1.0 / 3.0), Value::from(1e7)]);
    /// assert_eq!(v.godot3_text().to_string(), "[ Vector2( 1, 0.333333 ), 1e+07 ]");
    /// ```
    pub fn godot3_text(&self) -> Godot3Text<'_> {
        Godot3Text(self)
    }

    /// The value as the engines of `dialect` write it in text: Godot 4's `var_to_str` (the
    /// value's `Display`) for the Godot 4 dialects, Godot 3's `var2str`
    /// ([`Value::godot3_text`]) for [`Dialect::Godot3`]; `None` for Pandemonium's, whose text
    /// was not checked against its engines.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::{Dialect, Value};
    ///
    /// let v = Value::vector2(1.0, 2.0);
    /// assert_eq!(v.to_godot_text(Dialect::Godot4).as_deref(), Some("Vector2(1, 2)"));
    /// assert_eq!(v.to_godot_text(Dialect::Godot3).as_deref(), Some("Vector2( 1, 2 )"));
    /// assert_eq!(v.to_godot_text(Dialect::Pandemonium38), None);
    /// ```
    pub fn to_godot_text(&self, dialect: Dialect) -> Option<String> {
        match dialect {
            Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2 => Some(self.to_string()),
            Dialect::Godot3 => Some(self.godot3_text().to_string()),
            Dialect::Pandemonium38 | Dialect::Pandemonium5 => None,
        }
    }
}

impl fmt::Display for Godot3Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(
            &mut Out {
                f,
                one_line: false,
                godot3: true,
                resource: None,
            },
            self.0,
            0,
        )
    }
}

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(
            &mut Out {
                f,
                one_line: true,
                godot3: false,
                resource: None,
            },
            self.0,
            0,
        )
    }
}

/// Where the text goes: `Display`'s formatter, and whether it must stay on one line (then a
/// new line or carriage return that reaches it from the data is escaped).
struct Out<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    one_line: bool,
    /// Godot 3's `var2str` text instead of Godot 4's.
    godot3: bool,
    /// A text resource's text instead of `var_to_str`'s.
    resource: Option<ResourceFormat>,
}

/// How a text resource (`.tres`) writes its values where `var_to_str` writes otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResourceFormat {
    /// Godot 4's text in a file of format 4 (Godot 4.6.3 writes one for a resource holding a
    /// PackedVector4Array): `-inf` where `var_to_str` writes `inf_neg`, a PackedByteArray in
    /// base64 (`PackedByteArray("AQI=")`).
    pub(crate) format4: bool,
}

/// A value as a text resource writes it: as `var_to_str` (Godot 3: `var2str`) does, but for a
/// reference to one of the file's entries (an object of class `ExtResource` or `SubResource`
/// holding only its `id`), written `ExtResource("1_ab")` (Godot 3: `ExtResource( 1 )`), and for
/// the bytes of `format`.
#[cfg(feature = "files")]
pub(crate) struct ResourceValueText<'a> {
    pub(crate) value: &'a Value,
    pub(crate) godot3: bool,
    pub(crate) format: ResourceFormat,
}

#[cfg(feature = "files")]
impl fmt::Display for ResourceValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(
            &mut Out {
                f,
                one_line: false,
                godot3: self.godot3,
                resource: Some(self.format),
            },
            self.value,
            0,
        )
    }
}

/// The id of a text resource's reference to one of its entries: an object of class
/// `ExtResource` or `SubResource` holding only its `id`.
pub(crate) fn reference_id(o: &Object) -> Option<&Value> {
    match (o.class.as_str(), o.properties.as_slice()) {
        ("ExtResource" | "SubResource", [(name, id)]) if name == "id" => Some(id),
        _ => None,
    }
}

impl Out<'_, '_> {
    /// Whether this is Godot 4's text of a resource file of format 4: `-inf` where `var_to_str`
    /// writes `inf_neg`, a PackedByteArray in base64.
    fn format4(&self) -> bool {
        self.resource.is_some_and(|r| r.format4)
    }

    /// A real as this text writes it ([`push_real`], but for -inf in a file of format 4).
    fn real_text(&self, x: f64) -> String {
        if x == f64::NEG_INFINITY && self.format4() {
            return "-inf".into();
        }
        let mut s = String::new();
        push_real(&mut s, x);
        s
    }

    /// Writes `lines` in `Display`'s text, `line` in the one-line text.
    fn either(&mut self, lines: &str, line: &str) -> fmt::Result {
        let text = if self.one_line { line } else { lines };
        self.f.write_str(text)
    }
}

impl Write for Out<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if !self.one_line || !s.contains(['\n', '\r']) {
            return self.f.write_str(s);
        }
        for c in s.chars() {
            match c {
                '\n' => self.f.write_str("\\n")?,
                '\r' => self.f.write_str("\\r")?,
                c => self.f.write_char(c)?,
            }
        }
        Ok(())
    }
}

fn write_value(f: &mut Out<'_, '_>, v: &Value, depth: usize) -> fmt::Result {
    if f.godot3 && write_godot3(f, v, depth)? {
        return Ok(());
    }
    match v {
        Value::Nil => f.write_str("null"),
        Value::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
        Value::Int(i) => write!(f, "{i}"),
        Value::Float(x) => {
            let mut s = f.real_text(*x);
            if x.is_finite() && !s.contains(['.', 'e']) {
                s.push_str(".0");
            }
            f.write_str(&s)
        }
        Value::String(s) if f.one_line => write_escaped(f, s),
        Value::String(s) => write_multiline_escaped(f, s),
        Value::StringName(s) => {
            f.write_char('&')?;
            write_escaped(f, s)
        }
        Value::NodePath(p) => {
            f.write_str("NodePath(")?;
            write_escaped(f, &p.to_string())?;
            f.write_char(')')
        }
        Value::Vector2(c) => reals(f, "Vector2", c),
        Value::Vector2i(c) => ints(f, "Vector2i", c),
        Value::Rect2(c) => reals(f, "Rect2", c.as_slice()),
        Value::Rect2i(c) => ints(f, "Rect2i", c),
        Value::Vector3(c) => reals(f, "Vector3", c),
        Value::Vector3i(c) => ints(f, "Vector3i", c),
        Value::Transform2D(c) => reals(f, "Transform2D", c.as_slice()),
        Value::Vector4(c) => reals(f, "Vector4", c.as_slice()),
        Value::Vector4i(c) => ints(f, "Vector4i", c),
        Value::Plane(c) => reals(f, "Plane", c.as_slice()),
        Value::Quaternion(c) => reals(f, "Quaternion", c.as_slice()),
        Value::Aabb(c) => reals(f, "AABB", c.as_slice()),
        Value::Basis(c) => reals(f, "Basis", c.as_slice()),
        Value::Transform3D(c) => reals(f, "Transform3D", c.as_slice()),
        Value::Projection(c) => reals(f, "Projection", c.as_slice()),
        Value::Color(c) => reals(f, "Color", &c.map(f64::from)),
        // The engine writes an RID's id as a signed int, and none for an empty RID.
        Value::Rid(0) => f.write_str("RID()"),
        Value::Rid(id) => write!(f, "RID({})", *id as i64),
        Value::ObjectId(id) => {
            write!(
                f,
                "Object({ENCODED_OBJECT_AS_ID},\"object_id\":{},\"script\":null)",
                *id as i64
            )?;
            f.either("\n", "")
        }
        Value::Object(o) => match (f.resource, reference_id(o)) {
            (Some(_), Some(id)) => {
                let pad = if f.godot3 { " " } else { "" };
                write!(f, "{}({pad}", o.class)?;
                write_value(f, id, depth)?;
                write!(f, "{pad})")
            }
            _ => crate::stack::guard(|| write_object(f, o, depth)),
        },
        Value::Callable => f.write_str("Callable()"),
        Value::Signal { .. } => f.write_str("Signal()"),
        Value::Dictionary(d) => crate::stack::guard(|| write_dictionary(f, d, depth)),
        Value::Array(a) => crate::stack::guard(|| write_array(f, a, depth)),
        Value::PackedByteArray(v) if !v.is_empty() && f.format4() => {
            write!(f, "PackedByteArray(\"{}\")", crate::base64::encode(v))
        }
        Value::PackedByteArray(v) => list(f, "PackedByteArray", v.iter(), |s, x| write!(s, "{x}")),
        Value::PackedInt32Array(v) => {
            list(f, "PackedInt32Array", v.iter(), |s, x| write!(s, "{x}"))
        }
        Value::PackedInt64Array(v) => {
            list(f, "PackedInt64Array", v.iter(), |s, x| write!(s, "{x}"))
        }
        Value::PackedFloat32Array(v) => list(f, "PackedFloat32Array", v.iter(), |s, x| {
            real(s, f64::from(*x))
        }),
        Value::PackedFloat64Array(v) => list(f, "PackedFloat64Array", v.iter(), |s, x| real(s, *x)),
        Value::PackedStringArray(v) => {
            list(f, "PackedStringArray", v.iter(), |s, x| write_escaped(s, x))
        }
        Value::PackedVector2Array(v) => list(f, "PackedVector2Array", v.as_flattened().iter(), {
            |s, x| real(s, *x)
        }),
        Value::PackedVector3Array(v) => list(f, "PackedVector3Array", v.as_flattened().iter(), {
            |s, x| real(s, *x)
        }),
        Value::PackedVector4Array(v) => list(f, "PackedVector4Array", v.as_flattened().iter(), {
            |s, x| real(s, *x)
        }),
        Value::PackedColorArray(v) => list(f, "PackedColorArray", v.as_flattened().iter(), {
            |s, x| real(s, f64::from(*x))
        }),
    }
}

fn write_array(f: &mut Out<'_, '_>, a: &Array, depth: usize) -> fmt::Result {
    let typed = !a.element.is_untyped();
    if typed {
        f.write_str("Array[")?;
        container_type(f, &a.element)?;
        f.write_str("](")?;
    }
    if depth > MAX_RECURSION {
        f.write_str("[]")?;
    } else {
        // Godot 3 pads the items with a space inside the brackets (`[ 1, 2 ]`, `[  ]`).
        f.write_str(if f.godot3 { "[ " } else { "[" })?;
        for (i, item) in a.items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_value(f, item, depth + 1)?;
        }
        f.write_str(if f.godot3 { " ]" } else { "]" })?;
    }
    if typed {
        f.write_char(')')?;
    }
    Ok(())
}

fn write_dictionary(f: &mut Out<'_, '_>, d: &Dictionary, depth: usize) -> fmt::Result {
    let typed = !d.key.is_untyped() || !d.value.is_untyped();
    if typed {
        f.write_str("Dictionary[")?;
        container_type(f, &d.key)?;
        f.write_str(", ")?;
        match (&d.key, &d.value) {
            // Godot 4.6.3 writes a script value type as the key's script when the key type is
            // a script too (and as the script's native class otherwise, which the model does
            // not know: the script's path is written then).
            (ContainerType::Script(key_script), ContainerType::Script(_)) => {
                write_resource(f, key_script)?
            }
            (_, value) => container_type(f, value)?,
        }
        f.write_str("](")?;
    }
    if f.godot3 && depth <= MAX_RECURSION && d.entries.is_empty() {
        f.write_str("{\n}")?;
    } else if depth > MAX_RECURSION || d.entries.is_empty() {
        f.write_str("{}")?;
    } else {
        f.either("{\n", "{")?;
        // The engine writes the keys sorted (`key_order`).
        let mut order: Vec<&(Value, Value)> = d.entries.iter().collect();
        sort_keys(&mut order, f.godot3);
        for (i, (k, v)) in order.into_iter().enumerate() {
            if i > 0 {
                f.either(",\n", ", ")?;
            }
            write_value(f, k, depth + 1)?;
            f.write_str(": ")?;
            write_value(f, v, depth + 1)?;
        }
        f.either("\n}", "}")?;
    }
    if typed {
        f.write_char(')')?;
    }
    Ok(())
}

fn write_object(f: &mut Out<'_, '_>, o: &Object, depth: usize) -> fmt::Result {
    write!(f, "Object({},", o.class)?;
    for (i, (name, value)) in o.properties.iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        // Escaped as a String is, so that any name reads back (the engine writes it as it is:
        // the same text for every property name a class can have).
        write_multiline_escaped(f, name)?;
        f.write_char(':')?;
        match (name.as_str(), value) {
            // The engine holds the script itself, and writes it as the resource it is.
            ("script", Value::String(path)) => write_resource(f, path)?,
            _ => write_value(f, value, depth)?,
        }
    }
    f.either(")\n", ")")
}

/// A typed container's type as the engine names it (`int`, `Node`, `Resource("res://x.gd")`;
/// `Variant` for the untyped side of a Dictionary typed on one side only).
fn container_type(f: &mut Out<'_, '_>, t: &ContainerType) -> fmt::Result {
    match t {
        ContainerType::Untyped => f.write_str("Variant"),
        ContainerType::Builtin(t) => f.write_str(t.name()),
        ContainerType::Class(class) => f.write_str(class),
        ContainerType::Script(path) => write_resource(f, path),
    }
}

/// The values Godot 3's `var2str` writes otherwise than Godot 4's `var_to_str`, written; `false`
/// for the others (the same text in both, or a type Godot 3 lacks, written as Godot 4 writes it).
fn write_godot3(f: &mut Out<'_, '_>, v: &Value, depth: usize) -> Result<bool, fmt::Error> {
    let _ = depth;
    let c = |x: &[f64]| x.to_vec();
    match v {
        Value::Float(x) => {
            let mut s = godot3_real(*x);
            if !s.contains(['.', 'e']) && !s.contains("inf") && !s.contains("nan") {
                s.push_str(".0");
            }
            f.write_str(&s)?;
        }
        // Godot 3 has no StringName: its text is a String's.
        Value::StringName(s) => write_multiline_escaped(f, s)?,
        Value::Vector2(x) => godot3_reals(f, "Vector2", &c(x))?,
        Value::Rect2(x) => godot3_reals(f, "Rect2", x.as_slice())?,
        Value::Vector3(x) => godot3_reals(f, "Vector3", &c(x))?,
        Value::Transform2D(x) => godot3_reals(f, "Transform2D", x.as_slice())?,
        Value::Plane(x) => godot3_reals(f, "Plane", x.as_slice())?,
        Value::Quaternion(x) => godot3_reals(f, "Quat", x.as_slice())?,
        Value::Aabb(x) => godot3_reals(f, "AABB", x.as_slice())?,
        Value::Basis(x) => godot3_reals(f, "Basis", x.as_slice())?,
        Value::Transform3D(x) => godot3_reals(f, "Transform", x.as_slice())?,
        Value::Color(x) => godot3_reals(f, "Color", &x.map(f64::from))?,
        // Godot 3 writes nothing for an RID.
        Value::Rid(_) => {}
        Value::PackedByteArray(v) => {
            godot3_list(f, "PoolByteArray", v.iter().map(|x| x.to_string()))?
        }
        Value::PackedInt32Array(v) => {
            godot3_list(f, "PoolIntArray", v.iter().map(|x| x.to_string()))?
        }
        Value::PackedFloat32Array(v) => godot3_list(
            f,
            "PoolRealArray",
            v.iter().map(|x| godot3_real(f64::from(*x))),
        )?,
        Value::PackedStringArray(v) => godot3_list(
            f,
            "PoolStringArray",
            v.iter().map(|x| {
                let mut s = String::new();
                let _ = write_escaped(&mut s, x);
                s
            }),
        )?,
        Value::PackedVector2Array(v) => godot3_list(
            f,
            "PoolVector2Array",
            v.as_flattened().iter().map(|x| godot3_real(*x)),
        )?,
        Value::PackedVector3Array(v) => godot3_list(
            f,
            "PoolVector3Array",
            v.as_flattened().iter().map(|x| godot3_real(*x)),
        )?,
        Value::PackedColorArray(v) => godot3_list(
            f,
            "PoolColorArray",
            v.as_flattened().iter().map(|x| godot3_real(f64::from(*x))),
        )?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `Name( a, b )`, Godot 3's math types.
fn godot3_reals(f: &mut Out<'_, '_>, name: &str, c: &[f64]) -> fmt::Result {
    godot3_list(f, name, c.iter().map(|x| godot3_real(*x)))
}

/// `Name( a, b )`, and `Name(  )` when empty, as Godot 3 writes its constructors.
fn godot3_list(
    f: &mut Out<'_, '_>,
    name: &str,
    items: impl Iterator<Item = String>,
) -> fmt::Result {
    f.write_str(name)?;
    f.write_str("( ")?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&x)?;
    }
    f.write_str(" )")
}

/// A real as Godot 3's `var2str` writes it (its `rtosfix`): held as its `real_t`, a binary32
/// (so 1e300 is `inf`, 1e-300 is `0`), then C's `%lg`: six significant digits, plain from 1e-4
/// to below 1e6 and with an exponent outside (`1.67772e+07`), trailing zeros dropped; `0` for
/// either zero, `inf`, `inf_neg`, `nan`.
fn godot3_real(x: f64) -> String {
    let x = f64::from(x as f32);
    if x == 0.0 {
        return "0".into();
    }
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "inf_neg" }.into();
    }
    // The exponent of the value rounded to six significant digits decides the form.
    let sci = format!("{x:.5e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s.to_owned()
        }
    };
    if (-4..6).contains(&exponent) {
        let decimals = (5 - exponent) as usize;
        trim(&format!("{x:.decimals$}"))
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.unsigned_abs())
    }
}

/// A reference to the resource at `path`, as the engine writes it (the path escaped as a String).
fn write_resource(f: &mut Out<'_, '_>, path: &str) -> fmt::Result {
    f.write_str("Resource(")?;
    write_multiline_escaped(f, path)?;
    f.write_char(')')
}

fn reals(f: &mut Out<'_, '_>, name: &str, c: &[f64]) -> fmt::Result {
    f.write_str(name)?;
    f.write_char('(')?;
    for (i, x) in c.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        real(f, *x)?;
    }
    f.write_char(')')
}

fn ints<T: fmt::Display>(f: &mut Out<'_, '_>, name: &str, c: &[T]) -> fmt::Result {
    list(f, name, c.iter(), |s, x| write!(s, "{x}"))
}

/// `Name(a, b, c)`, each item written by `item`.
fn list<'a, T: 'a, W: Write>(
    f: &mut W,
    name: &str,
    items: impl Iterator<Item = &'a T>,
    item: impl Fn(&mut W, &T) -> fmt::Result,
) -> fmt::Result {
    f.write_str(name)?;
    f.write_char('(')?;
    for (i, x) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item(f, x)?;
    }
    f.write_char(')')
}

/// A string as `var_to_str` writes a String: in quotes, only `\` and `"` escaped (new lines
/// and tabs stay as they are).
fn write_multiline_escaped(f: &mut impl Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '"' => f.write_str("\\\"")?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

/// A string as `var_to_str` writes a StringName, a NodePath and the items of a
/// PackedStringArray: in quotes, with C's escapes (Godot's `String::c_escape`).
fn write_escaped(f: &mut impl Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\u{7}' => f.write_str("\\a")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{b}' => f.write_str("\\v")?,
            '\'' => f.write_str("\\'")?,
            '"' => f.write_str("\\\"")?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

fn real(f: &mut Out<'_, '_>, x: f64) -> fmt::Result {
    let s = f.real_text(x);
    f.write_str(&s)
}

/// A real as the engine writes it in `var_to_str` (its `rtos_fix`): see [`Value`]'s `Display`.
fn push_real(out: &mut String, x: f64) {
    if x == 0.0 {
        out.push('0'); // -0.0 too
        return;
    }
    if x.is_nan() {
        out.push_str("nan");
        return;
    }
    if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "inf_neg" });
        return;
    }
    // The engine's digits (Grisu2: they read back as the same number, not always the fewest),
    // a binary32's when it is one; `exponent` is the first digit's power of ten.
    let found = super::grisu::digits(x.abs());
    let digits: String = found
        .digits
        .get(..found.len)
        .unwrap_or_default()
        .iter()
        .map(|d| char::from(b'0' + d))
        .collect();
    let exponent = found.exponent + found.len as i32 - 1;
    if x < 0.0 {
        out.push('-');
    }
    if (-4..15).contains(&exponent) {
        if exponent >= 0 {
            let int_len = exponent as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', int_len - digits.len()));
            } else {
                let (int, frac) = digits.split_at(int_len);
                out.push_str(int);
                out.push('.');
                out.push_str(frac);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exponent - 1) as usize));
            out.push_str(&digits);
        }
    } else {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real_text(x: f64) -> String {
        let mut s = String::new();
        push_real(&mut s, x);
        s
    }

    /// What Godot 4.6.3's `var_to_str(Vector2(x, x))` and `PackedFloat64Array([x])` wrote for
    /// these (both binary32 and binary64 digits, both sides of the plain range).
    #[test]
    fn reals_as_the_engine_writes_them() {
        for (x, text) in [
            (1e11, "100000000000"),
            (1e14, "100000000000000"),
            (1e15, "1e+15"),
            (1.5e16, "1.5e+16"),
            (123456789012345.0, "123456789012345"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (1.2345e-5, "1.2345e-05"),
            (0.000123, "0.000123"),
            (1.0 / 3.0, "0.3333333333333333"),
            (f64::from(1.0f32 / 3.0), "0.33333334"),
            (2f64.powi(53), "9.007199e+15"),
            (2f64.powi(40), "1099511600000"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (-0.0, "0"),
            (f64::NEG_INFINITY, "inf_neg"),
        ] {
            assert_eq!(real_text(x), text, "{x:e}");
        }
    }

    /// Past 16 keys the engine's sort is an introsort; keys that are all ordered come by type id
    /// first, then by value, strings by text.
    #[test]
    fn many_keys_are_written_in_the_engines_order() {
        let mut d = crate::value::Dictionary::new();
        for i in (0..40).rev() {
            d.insert(i, i);
            d.insert(format!("k{i:02}"), i);
        }
        d.insert(Value::string_name("k005"), 0);
        d.insert(Value::Nil, 0);
        let text = Value::from(d).to_string();
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split(": ").next())
            .filter(|k| !k.starts_with('{') && !k.starts_with('}'))
            .collect();
        let mut expected = vec!["null".to_string()];
        expected.extend((0..40).map(|i| i.to_string()));
        let mut texts: Vec<String> = (0..40).map(|i| format!("\"k{i:02}\"")).collect();
        texts.insert(1, "&\"k005\"".to_string());
        expected.extend(texts);
        assert_eq!(keys, expected);
    }
}

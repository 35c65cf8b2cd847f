//! A lossless JSON projection of [`Value`]s (`--features json`): [`to_json`] /
//! [`to_json_pretty`] write a value as JSON text, [`from_json`] reads it back, and
//! `from_json(&to_json(&v)) == Ok(v)` for every value, bit for bit (the same bytes when encoded
//! again). The command-line tool's `to-json` / `from-json` and the npm package's `toJSON` /
//! `fromJSON` use this projection.
//!
//! # The mapping
//!
//! JSON's own types where they say the same thing:
//!
//! | Value | JSON |
//! |---|---|
//! | `Nil`, `Bool`, `String` | `null`, `true` / `false`, a string |
//! | `Int` of at most 2^53 in magnitude | an integral number: `5` |
//! | `Float` with a fraction | a number with a fraction or an exponent: `0.5`, `1.5e-7` |
//! | an untyped `Array` | an array |
//! | an untyped `Dictionary` whose keys are all Strings, none starting with `$` | an object, entries in order |
//!
//! Everything else is a tagged object: an object with exactly one key, the tag, which starts
//! with `$`:
//!
//! | Value | JSON |
//! |---|---|
//! | `Int` beyond 2^53 | `{"$int": "9007199254740993"}` (its digits) |
//! | an integral `Float`, ±inf, -0, NaN | `{"$float": 2}`, `{"$float": "inf"}` / `"-inf"` / `"-0"`, `{"$float": "nan"}` (the quiet NaN, bits `7ff8000000000000`) or `{"$float": "nan:7ff0000000000001"}` (any other NaN: its 16 hex digits of bits) |
//! | a `Dictionary` with another key, or a String key starting with `$` | `{"$Dictionary": [[key, value], ...]}` |
//! | a typed `Dictionary` | `{"$Dictionary": {"key": T, "value": T, "entries": [[key, value], ...]}}` |
//! | a typed `Array` | `{"$Array": {"type": T, "items": [...]}}` |
//! | `Vector2` … `Projection` | `{"$Vector2": [1, 2.5]}`: the components in the order of [`Value`]'s variants (wire order), as reals (below); the `i` types' as integers |
//! | `Color` | `{"$Color": [r, g, b, a]}`, binary32 reals |
//! | `StringName` | `{"$StringName": "jump"}` |
//! | `NodePath` | `{"$NodePath": "/root/Player:position"}`, or `{"$NodePath": {"names": [...], "subnames": [...], "absolute": true}}` when a name holds what the text would split (`/`, `:`) |
//! | `Rid`, `ObjectId` | `{"$RID": 5}`, `{"$ObjectId": 5}` (an id beyond 2^53 as its digits, a string) |
//! | `Object` | `{"$Object": {"class": "Resource", "properties": [["name", value], ...]}}` |
//! | `Callable` | `{"$Callable": null}` |
//! | `Signal` | `{"$Signal": {"name": "hit", "object": 5}}` |
//! | `PackedByteArray` | `{"$PackedByteArray": "AQID"}`: standard base64, padded (an array of numbers 0–255 reads too) |
//! | `PackedInt32Array`, `PackedInt64Array` | `{"$PackedInt32Array": [1, 2]}` (an int64 beyond 2^53 as its digits, a string) |
//! | `PackedFloat32Array`, `PackedFloat64Array` | `{"$PackedFloat64Array": [0.5, 2]}`: reals |
//! | `PackedStringArray` | `{"$PackedStringArray": ["a", "b"]}` |
//! | `PackedVector2Array`, `…3`, `…4`, `PackedColorArray` | `{"$PackedVector2Array": [[1, 2], [3, 4]]}`: reals |
//!
//! A real (a component of a math type or a packed float array) is a number, integral or not,
//! or, where JSON has none, the string `"inf"`, `"-inf"`, `"-0"`, `"nan"` (the quiet NaN) or
//! `"nan:"` and the NaN's bits in hex (16 digits for binary64, 8 for binary32). Numbers are
//! written with the fewest digits that read back to the same binary64 (binary32 for `Color`,
//! `PackedFloat32Array` and `PackedColorArray`), and read correctly rounded.
//!
//! `T`, a container's element type, is the name [`ContainerType::from_name`] reads: `"int"`,
//! `"Node"`, `"res://enemy.gd"`, `""` for objects of any class; `null` for untyped (a typed
//! Dictionary's untyped half); `{"class": name}` or `{"script": path}` for one that its name
//! would not give back.
//!
//! Godot 3 and Pandemonium values are [`Value`]s too (their types are modelled by their Godot 4
//! counterparts: Pandemonium's POOL_VECTOR2I_ARRAY as a typed `Array[Vector2i]` …), so the same
//! projection holds them.
//!
//! **The escape rule.** A JSON object with a key that starts with `$` is a tagged value, and
//! must be exactly one known tag; so a Dictionary with a String key that starts with `$` (a key
//! `"$type"`, say) is written in the `$Dictionary` form, `{"$Dictionary": [["$type", 1]]}`,
//! whose keys are values, never tags.
//!
//! Reading is a little more lenient than writing: a number with a fraction or an exponent is a
//! `Float` even when integral (`2.0`), `$int` and `$float` take a number or a string, an
//! integer of more than 2^53 reads exactly; an object's keys are kept in order, a key given
//! twice twice (as [`Value::dictionary`] keeps them). An integer beyond 64 bits, an unknown
//! tag, a missing field or a component count that is not the type's is an error that names
//! its place in the document as a path: `$.enemies[2].$Vector2[1]`.
//!
//! # Examples
//! ```
//! use fast_var_codec_core::json::{from_json, to_json};
//! use fast_var_codec_core::Value;
//!
//! let v = Value::from_iter([
//!     ("name", Value::from("Ada")),
//!     ("hp", Value::from(10)),
//!     ("speed", Value::from(2.0)),
//!     ("at", Value::vector2(1.0, 0.5)),
//! ]);
//! let text = to_json(&v);
//! assert_eq!(text, r#"{"name":"Ada","hp":10,"speed":{"$float":2},"at":{"$Vector2":[1,0.5]}}"#);
//! assert_eq!(from_json(&text)?, v);
//!
//! let err = from_json(r#"{"at": {"$Vector2": [1]}}"#).unwrap_err();
//! assert_eq!(err.path, "$.at.$Vector2");
//! # Ok::<(), fast_var_codec_core::json::JsonError>(())
//! ```

// The readers of JSON share one signature, `fn(Json, &mut Vec<Seg>)` (the path grows and shrinks
// as they go down), so that `list` and `fixed` take any of them.
#![allow(clippy::ptr_arg)]

use std::fmt::{self, Write as _};

use crate::stack::guard;
use crate::types::ContainerType;
use crate::value::{NodePath, Object, Value};

/// How deep a JSON document may nest: three levels of JSON a Value level at most (a
/// `$Dictionary`'s entry), over the levels a value may have ([`crate::limits::MAX_DEPTH_CEILING`],
/// the engine's 1,024 with the `grow-stack` feature), with room to spare.
pub const MAX_JSON_DEPTH: usize = 4 * crate::limits::MAX_DEPTH_CEILING;

/// The largest integer magnitude written as a bare JSON number (2^53: every integer up to it is
/// exact in binary64, as JavaScript's `Number` holds it).
const MAX_SAFE: u64 = 1 << 53;

/// The compact JSON text of `value`: no whitespace.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{json::to_json, Value};
/// assert_eq!(to_json(&Value::from(vec![1, 2])), "[1,2]");
/// assert_eq!(to_json(&Value::string_name("jump")), r#"{"$StringName":"jump"}"#);
/// ```
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write(&tree(value), &mut out, None);
    out
}

/// The JSON text of `value` indented by two spaces, one item per line except arrays of numbers,
/// strings and other scalars (a vector's components), which stay on one line.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{json::to_json_pretty, Value};
/// let v = Value::from_iter([("at", Value::vector2(1.0, 2.0))]);
/// assert_eq!(to_json_pretty(&v), "{\n  \"at\": {\"$Vector2\": [1, 2]}\n}");
/// ```
pub fn to_json_pretty(value: &Value) -> String {
    let mut out = String::new();
    write(&tree(value), &mut out, Some(0));
    out
}

/// The value of a JSON text in this projection ([`to_json`]'s inverse); any JSON document
/// reads, plain JSON as plain values.
///
/// # Errors
/// A [`JsonError`] naming the place: text that is not JSON (with its line and column), nesting
/// deeper than [`MAX_JSON_DEPTH`], an integer beyond 64 bits, an unknown tag, a tagged value of
/// the wrong shape.
pub fn from_json(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser {
        text,
        pos: 0,
        path: Vec::new(),
    };
    p.skip_ws();
    let j = p.value()?;
    p.skip_ws();
    if p.pos < text.len() {
        return Err(p.error("text after the JSON value"));
    }
    value(j, &mut Vec::new())
}

/// Why [`from_json`] failed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonError {
    /// Where in the document: `$` the whole, `.key` or `["key"]` an object's member, `[3]` an
    /// array's item (`$.enemies[2].$Vector2`).
    pub path: String,
    /// The line and column (from 1, in characters) of a syntax error; `None` for a document
    /// that is JSON but not a value of this projection.
    pub line_column: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_column {
            Some((line, column)) => write!(
                f,
                "JSON at line {line}, column {column} ({}): {}",
                self.path, self.message
            ),
            None => write!(f, "JSON at {}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for JsonError {}

/// An [`std::io::ErrorKind::InvalidData`] holding the error, so that `?` works in a function
/// that returns `std::io::Result`.
impl From<JsonError> for std::io::Error {
    fn from(e: JsonError) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

/// A parsed JSON document: numbers as their text (an integer's exact digits, a real correctly
/// rounded once its type is known), objects as their entries in order.
enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn is_scalar(&self) -> bool {
        !matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a bool",
            Json::Num(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Value to JSON.

fn tag(name: &str, payload: Json) -> Json {
    Json::Obj(vec![(name.to_owned(), payload)])
}

fn int(i: i64) -> Json {
    if i.unsigned_abs() <= MAX_SAFE {
        Json::Num(i.to_string())
    } else {
        tag("$int", Json::Str(i.to_string()))
    }
}

/// An int64 where the type is known (a packed array's item): a number, or its digits.
fn int_item(i: i64) -> Json {
    if i.unsigned_abs() <= MAX_SAFE {
        Json::Num(i.to_string())
    } else {
        Json::Str(i.to_string())
    }
}

fn id(i: u64) -> Json {
    if i <= MAX_SAFE {
        Json::Num(i.to_string())
    } else {
        Json::Str(i.to_string())
    }
}

/// The shortest text of a finite binary64 that reads back to it, with an exponent when tiny or
/// huge (`Display` alone writes 1e300 with 300 zeros).
fn real_text(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

fn real32_text(x: f32) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// What JSON has no number for: infinities, -0, NaN (with its bits unless the quiet NaN).
fn special64(x: f64) -> Option<String> {
    Some(if x.is_nan() {
        if x.to_bits() == f64::NAN.to_bits() {
            "nan".to_owned()
        } else {
            format!("nan:{:016x}", x.to_bits())
        }
    } else if x == f64::INFINITY {
        "inf".to_owned()
    } else if x == f64::NEG_INFINITY {
        "-inf".to_owned()
    } else if x == 0.0 && x.is_sign_negative() {
        "-0".to_owned()
    } else {
        return None;
    })
}

fn special32(x: f32) -> Option<String> {
    if x.is_nan() && x.to_bits() != f32::NAN.to_bits() {
        return Some(format!("nan:{:08x}", x.to_bits()));
    }
    special64(f64::from(x))
}

fn real(x: f64) -> Json {
    match special64(x) {
        Some(s) => Json::Str(s),
        None => Json::Num(real_text(x)),
    }
}

fn real32(x: f32) -> Json {
    match special32(x) {
        Some(s) => Json::Str(s),
        None => Json::Num(real32_text(x)),
    }
}

fn float(x: f64) -> Json {
    match special64(x) {
        Some(s) => tag("$float", Json::Str(s)),
        None if x.fract() == 0.0 => tag("$float", Json::Num(real_text(x))),
        None => Json::Num(real_text(x)),
    }
}

fn reals(c: &[f64]) -> Json {
    Json::Arr(c.iter().copied().map(real).collect())
}

fn reals32(c: &[f32]) -> Json {
    Json::Arr(c.iter().copied().map(real32).collect())
}

fn ints32(c: &[i32]) -> Json {
    Json::Arr(c.iter().map(|i| Json::Num(i.to_string())).collect())
}

fn strings<S: AsRef<str>>(s: &[S]) -> Json {
    Json::Arr(s.iter().map(|s| Json::Str(s.as_ref().to_owned())).collect())
}

fn container_type(t: &ContainerType) -> Json {
    let name = match t {
        ContainerType::Untyped => return Json::Null,
        ContainerType::Builtin(crate::value::VariantType::Object) => "",
        ContainerType::Builtin(b) => b.name(),
        ContainerType::Class(c) => c,
        ContainerType::Script(p) => p,
    };
    if ContainerType::from_name(name).as_ref() == Ok(t) {
        return Json::Str(name.to_owned());
    }
    let kind = if matches!(t, ContainerType::Script(_)) {
        "script"
    } else {
        "class"
    };
    Json::Obj(vec![(kind.to_owned(), Json::Str(name.to_owned()))])
}

fn pairs<'a>(entries: impl Iterator<Item = (Json, &'a Value)>) -> Json {
    Json::Arr(entries.map(|(k, v)| Json::Arr(vec![k, tree(v)])).collect())
}

fn tree(v: &Value) -> Json {
    guard(|| tree_here(v))
}

fn tree_here(v: &Value) -> Json {
    use Value as V;
    match v {
        V::Dictionary(_) | V::Array(_) | V::Object(_) => container(v),
        _ => leaf(v),
    }
}

/// A container, whose values recurse through [`tree`] (the recursion's frames kept small: a
/// deep value needs little stack on WebAssembly, which shares it with JavaScript).
fn container(v: &Value) -> Json {
    use Value as V;
    match v {
        V::Object(o) => tag(
            "$Object",
            Json::Obj(vec![
                ("class".to_owned(), Json::Str(o.class.clone())),
                (
                    "properties".to_owned(),
                    pairs(o.properties.iter().map(|(k, v)| (Json::Str(k.clone()), v))),
                ),
            ]),
        ),
        V::Dictionary(d) => {
            let entries = d.entries.iter().map(|(k, v)| (k, v));
            if !d.key.is_untyped() || !d.value.is_untyped() {
                return tag(
                    "$Dictionary",
                    Json::Obj(vec![
                        ("key".to_owned(), container_type(&d.key)),
                        ("value".to_owned(), container_type(&d.value)),
                        (
                            "entries".to_owned(),
                            pairs(entries.map(|(k, v)| (tree(k), v))),
                        ),
                    ]),
                );
            }
            let plain = d
                .entries
                .iter()
                .all(|(k, _)| matches!(k, V::String(s) if !s.as_str().starts_with('$')));
            if plain {
                Json::Obj(
                    d.entries
                        .iter()
                        .map(|(k, v)| {
                            let key = match k {
                                V::String(s) => s.as_str().to_owned(),
                                _ => String::new(),
                            };
                            (key, tree(v))
                        })
                        .collect(),
                )
            } else {
                tag("$Dictionary", pairs(entries.map(|(k, v)| (tree(k), v))))
            }
        }
        V::Array(a) if a.element.is_untyped() => Json::Arr(a.items.iter().map(tree).collect()),
        V::Array(a) => tag(
            "$Array",
            Json::Obj(vec![
                ("type".to_owned(), container_type(&a.element)),
                (
                    "items".to_owned(),
                    Json::Arr(a.items.iter().map(tree).collect()),
                ),
            ]),
        ),
        other => leaf(other),
    }
}

/// A value of no nested values, out of the recursion's frames.
#[inline(never)]
fn leaf(v: &Value) -> Json {
    use Value as V;
    match v {
        V::Nil => Json::Null,
        V::Bool(b) => Json::Bool(*b),
        V::Int(i) => int(*i),
        V::Float(x) => float(*x),
        V::String(s) => Json::Str(s.as_str().to_owned()),
        V::Vector2(c) => tag("$Vector2", reals(c)),
        V::Vector2i(c) => tag("$Vector2i", ints32(c)),
        V::Rect2(c) => tag("$Rect2", reals(c.as_slice())),
        V::Rect2i(c) => tag("$Rect2i", ints32(c)),
        V::Vector3(c) => tag("$Vector3", reals(c)),
        V::Vector3i(c) => tag("$Vector3i", ints32(c)),
        V::Transform2D(c) => tag("$Transform2D", reals(c.as_slice())),
        V::Vector4(c) => tag("$Vector4", reals(c.as_slice())),
        V::Vector4i(c) => tag("$Vector4i", ints32(c)),
        V::Plane(c) => tag("$Plane", reals(c.as_slice())),
        V::Quaternion(c) => tag("$Quaternion", reals(c.as_slice())),
        V::Aabb(c) => tag("$AABB", reals(c.as_slice())),
        V::Basis(c) => tag("$Basis", reals(c.as_slice())),
        V::Transform3D(c) => tag("$Transform3D", reals(c.as_slice())),
        V::Projection(c) => tag("$Projection", reals(c.as_slice())),
        V::Color(c) => tag("$Color", reals32(c)),
        V::StringName(s) => tag("$StringName", Json::Str(s.as_str().to_owned())),
        V::NodePath(p) => {
            let text = p.to_string();
            let payload = if NodePath::from(text.as_str()) == **p {
                Json::Str(text)
            } else {
                Json::Obj(vec![
                    ("names".to_owned(), strings(&p.names)),
                    ("subnames".to_owned(), strings(&p.subnames)),
                    ("absolute".to_owned(), Json::Bool(p.absolute)),
                ])
            };
            tag("$NodePath", payload)
        }
        V::Rid(i) => tag("$RID", id(*i)),
        V::ObjectId(i) => tag("$ObjectId", id(*i)),
        V::Callable => tag("$Callable", Json::Null),
        V::Signal { name, object_id } => tag(
            "$Signal",
            Json::Obj(vec![
                ("name".to_owned(), Json::Str(name.to_string())),
                ("object".to_owned(), id(*object_id)),
            ]),
        ),
        V::Dictionary(_) | V::Array(_) | V::Object(_) => container(v),
        V::PackedByteArray(b) => tag("$PackedByteArray", Json::Str(crate::base64::encode(b))),
        V::PackedInt32Array(c) => tag("$PackedInt32Array", ints32(c)),
        V::PackedInt64Array(c) => tag(
            "$PackedInt64Array",
            Json::Arr(c.iter().copied().map(int_item).collect()),
        ),
        V::PackedFloat32Array(c) => tag("$PackedFloat32Array", reals32(c)),
        V::PackedFloat64Array(c) => tag("$PackedFloat64Array", reals(c)),
        V::PackedStringArray(s) => tag(
            "$PackedStringArray",
            Json::Arr(s.iter().map(|s| Json::Str(s.as_str().to_owned())).collect()),
        ),
        V::PackedVector2Array(c) => tag(
            "$PackedVector2Array",
            Json::Arr(c.iter().map(|c| reals(c)).collect()),
        ),
        V::PackedVector3Array(c) => tag(
            "$PackedVector3Array",
            Json::Arr(c.iter().map(|c| reals(c)).collect()),
        ),
        V::PackedVector4Array(c) => tag(
            "$PackedVector4Array",
            Json::Arr(c.iter().map(|c| reals(c)).collect()),
        ),
        V::PackedColorArray(c) => tag(
            "$PackedColorArray",
            Json::Arr(c.iter().map(|c| reals32(c)).collect()),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// JSON text.

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether a pretty document writes `j` on one line: a scalar, an array of scalars, or a tag
/// whose payload is one of those.
fn one_line(j: &Json) -> bool {
    match j {
        Json::Arr(items) => items.iter().all(Json::is_scalar),
        Json::Obj(entries) => match entries.as_slice() {
            [(tag, v)] if tag.starts_with('$') => {
                v.is_scalar() || matches!(v, Json::Arr(items) if items.iter().all(Json::is_scalar))
            }
            _ => entries.is_empty(),
        },
        _ => true,
    }
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
}

/// `indent`: `None` compact, `Some(n)` pretty at `n` spaces. Without recursion (a stack of the
/// open containers): deep documents need no stack of the thread's, which WebAssembly shares
/// with JavaScript.
fn write(j: &Json, out: &mut String, indent: Option<usize>) {
    enum Items<'a> {
        Arr(std::slice::Iter<'a, Json>),
        Obj(std::slice::Iter<'a, (String, Json)>),
    }
    struct Open<'a> {
        items: Items<'a>,
        indent: Option<usize>,
        inline: bool,
        first: bool,
    }
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut next = Some((j, indent));
    loop {
        if let Some((j, indent)) = next.take() {
            let inline = indent.is_some() && one_line(j);
            match j {
                Json::Null => out.push_str("null"),
                Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Json::Num(n) => out.push_str(n),
                Json::Str(s) => quote(s, out),
                Json::Arr(items) => {
                    out.push('[');
                    open.push(Open {
                        items: Items::Arr(items.iter()),
                        indent,
                        inline,
                        first: true,
                    });
                }
                Json::Obj(entries) => {
                    out.push('{');
                    open.push(Open {
                        items: Items::Obj(entries.iter()),
                        indent,
                        inline,
                        first: true,
                    });
                }
            }
        }
        let Some(top) = open.last_mut() else {
            return;
        };
        let (sep, colon) = match top.indent {
            Some(_) if top.inline => (", ", ": "),
            Some(_) => (",", ": "),
            None => (",", ":"),
        };
        let inner = if top.inline {
            None
        } else {
            top.indent.map(|n| n + 2)
        };
        let item_indent = if top.inline {
            top.indent.map(|_| 0)
        } else {
            inner
        };
        let (item, key, close) = match &mut top.items {
            Items::Arr(it) => (it.next(), None, ']'),
            Items::Obj(it) => match it.next() {
                Some((k, v)) => (Some(v), Some(k), '}'),
                None => (None, None, '}'),
            },
        };
        match item {
            Some(v) => {
                if !top.first {
                    out.push_str(sep);
                }
                top.first = false;
                if let Some(n) = inner {
                    newline(out, n);
                }
                if let Some(k) = key {
                    quote(k, out);
                    out.push_str(colon);
                }
                next = Some((v, item_indent));
            }
            None => {
                if let (Some(n), false) = (top.indent, top.first || top.inline) {
                    newline(out, n);
                }
                out.push(close);
                open.pop();
            }
        }
    }
}

enum Seg {
    Index(usize),
    Key(String),
}

fn path_text(path: &[Seg]) -> String {
    let mut s = String::from("$");
    for seg in path {
        match seg {
            Seg::Index(i) => {
                let _ = write!(s, "[{i}]");
            }
            Seg::Key(k) => {
                let plain = k.chars().next().is_some_and(|c| !c.is_ascii_digit())
                    && k.chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
                if plain {
                    s.push('.');
                    s.push_str(k);
                } else {
                    s.push('[');
                    quote(k, &mut s);
                    s.push(']');
                }
            }
        }
    }
    s
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    path: Vec<Seg>,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> JsonError {
        let before = self.text.get(..self.pos).unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        JsonError {
            path: path_text(&self.path),
            line_column: Some((line, column)),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, word: &str, j: Json) -> Result<Json, JsonError> {
        if self
            .text
            .get(self.pos..)
            .is_some_and(|t| t.starts_with(word))
        {
            self.pos += word.len();
            Ok(j)
        } else {
            Err(self.error("not a JSON value"))
        }
    }

    /// An object's key and its `:`, the key put on the path.
    fn key(&mut self) -> Result<String, JsonError> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a key (a string)"));
        }
        let key = self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("expected `:`"));
        }
        self.pos += 1;
        self.path.push(Seg::Key(key.clone()));
        Ok(key)
    }

    /// One JSON value, read without recursion (a stack of the open containers): deep documents
    /// need no stack of the thread's, which WebAssembly shares with JavaScript.
    fn value(&mut self) -> Result<Json, JsonError> {
        enum Open {
            Arr(Vec<Json>),
            Obj(Vec<(String, Json)>, String),
        }
        let mut open: Vec<Open> = Vec::new();
        loop {
            self.skip_ws();
            if open.len() >= MAX_JSON_DEPTH && matches!(self.peek(), Some(b'[' | b'{')) {
                return Err(self.error(format!("nested deeper than {MAX_JSON_DEPTH} levels")));
            }
            let mut done = match self.peek() {
                Some(b'n') => self.expect("null", Json::Null)?,
                Some(b't') => self.expect("true", Json::Bool(true))?,
                Some(b'f') => self.expect("false", Json::Bool(false))?,
                Some(b'"') => Json::Str(self.string()?),
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b'[') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Json::Arr(Vec::new())
                    } else {
                        self.path.push(Seg::Index(0));
                        open.push(Open::Arr(Vec::new()));
                        continue;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Json::Obj(Vec::new())
                    } else {
                        let key = self.key()?;
                        open.push(Open::Obj(Vec::new(), key));
                        continue;
                    }
                }
                None => return Err(self.error("the text ends where a value should be")),
                Some(_) => return Err(self.error("not a JSON value")),
            };
            // A value is done: it goes into the container open around it, which may end too.
            loop {
                let Some(top) = open.last_mut() else {
                    return Ok(done);
                };
                self.skip_ws();
                let closed = match top {
                    Open::Arr(items) => {
                        items.push(done);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.path.pop();
                                self.path.push(Seg::Index(items.len()));
                                break;
                            }
                            Some(b']') => Json::Arr(std::mem::take(items)),
                            _ => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                    Open::Obj(entries, key) => {
                        entries.push((std::mem::take(key), done));
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.path.pop();
                                *key = self.key()?;
                                break;
                            }
                            Some(b'}') => Json::Obj(std::mem::take(entries)),
                            _ => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                };
                self.pos += 1;
                self.path.pop();
                open.pop();
                done = closed;
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let first = self.peek();
        let n = self.digits();
        if n == 0 || (n > 1 && first == Some(b'0')) {
            return Err(self.error("not a JSON number"));
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.error("not a JSON number: digits after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("not a JSON number: digits in the exponent"));
            }
        }
        Ok(Json::Num(
            self.text
                .get(start..self.pos)
                .unwrap_or_default()
                .to_owned(),
        ))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.text.get(self.pos..self.pos + 4);
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(n) if digits.is_some_and(|d| d.bytes().all(|b| b.is_ascii_hexdigit())) => {
                self.pos += 4;
                Ok(n)
            }
            _ => Err(self.error("expected 4 hex digits after `\\u`")),
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            let rest = self.text.get(self.pos..).unwrap_or_default();
            let plain = rest
                .find(|c: char| c == '"' || c == '\\' || u32::from(c) < 0x20)
                .unwrap_or(rest.len());
            out.push_str(rest.get(..plain).unwrap_or_default());
            self.pos += plain;
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = self.peek();
                    self.pos += 1;
                    match c {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let mut cp = hi;
                            if (0xD800..0xDC00).contains(&hi)
                                && self
                                    .text
                                    .get(self.pos..)
                                    .is_some_and(|t| t.starts_with("\\u"))
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    self.pos = save;
                                }
                            }
                            // A lone surrogate (no Rust text holds one): U+FFFD, as the
                            // codec decodes one in a Godot 3 String.
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("not a JSON escape"));
                        }
                    }
                }
                None => return Err(self.error("the text ends inside a string")),
                Some(_) => return Err(self.error("a control character in a string (escape it)")),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// JSON to Value.

fn fail(path: &[Seg], message: impl Into<String>) -> JsonError {
    JsonError {
        path: path_text(path),
        line_column: None,
        message: message.into(),
    }
}

/// Runs `f` with `seg` on the path.
fn at<R>(path: &mut Vec<Seg>, seg: Seg, f: impl FnOnce(&mut Vec<Seg>) -> R) -> R {
    path.push(seg);
    let r = f(path);
    path.pop();
    r
}

fn value(j: Json, path: &mut Vec<Seg>) -> Result<Value, JsonError> {
    guard(|| value_here(j, path))
}

fn value_here(j: Json, path: &mut Vec<Seg>) -> Result<Value, JsonError> {
    Ok(match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(b),
        Json::Num(n) if n.contains(['.', 'e', 'E']) => Value::Float(parse_f64(&n, path)?),
        Json::Num(n) => Value::Int(parse_i64(&n, path)?),
        Json::Str(s) => Value::String(s.into()),
        Json::Arr(items) => Value::array(list(items, path, value)?),
        Json::Obj(entries) => {
            if entries.iter().any(|(k, _)| k.starts_with('$')) {
                let mut entries = entries.into_iter();
                match (entries.next(), entries.next()) {
                    (Some((tag, payload)), None) => {
                        return at(path, Seg::Key(tag.clone()), |path| {
                            tagged(&tag, payload, path)
                        });
                    }
                    _ => return Err(fail(
                        path,
                        "an object with a key that starts with `$` is a tagged value: one key, \
                             the tag (a Dictionary key that starts with `$` is written in the \
                             `$Dictionary` form)",
                    )),
                }
            }
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                let v = at(path, Seg::Key(k.clone()), |path| value(v, path))?;
                out.push((Value::String(k.into()), v));
            }
            Value::dictionary(out)
        }
    })
}

fn list<T>(
    items: Vec<Json>,
    path: &mut Vec<Seg>,
    f: impl Fn(Json, &mut Vec<Seg>) -> Result<T, JsonError>,
) -> Result<Vec<T>, JsonError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        out.push(at(path, Seg::Index(i), |path| f(item, path))?);
    }
    Ok(out)
}

fn array(j: Json, path: &mut Vec<Seg>) -> Result<Vec<Json>, JsonError> {
    match j {
        Json::Arr(items) => Ok(items),
        other => Err(fail(
            path,
            format!("expected an array, not {}", other.kind()),
        )),
    }
}

fn string(j: Json, path: &mut Vec<Seg>) -> Result<String, JsonError> {
    match j {
        Json::Str(s) => Ok(s),
        other => Err(fail(
            path,
            format!("expected a string, not {}", other.kind()),
        )),
    }
}

/// An object's fields by name, each at most once; any other field is an error.
fn fields<const N: usize>(
    j: Json,
    names: [&str; N],
    path: &mut Vec<Seg>,
) -> Result<[Option<Json>; N], JsonError> {
    let Json::Obj(entries) = j else {
        return Err(fail(
            path,
            format!("expected an object with {names:?}, not {}", j.kind()),
        ));
    };
    let mut out: [Option<Json>; N] = std::array::from_fn(|_| None);
    for (k, v) in entries {
        match names.iter().position(|n| *n == k) {
            Some(i) => {
                if let Some(slot) = out.get_mut(i) {
                    if slot.is_some() {
                        return Err(fail(path, format!("{k:?} given twice")));
                    }
                    *slot = Some(v);
                }
            }
            None => {
                return Err(fail(
                    path,
                    format!("unknown field {k:?} (the fields: {names:?})"),
                ))
            }
        }
    }
    Ok(out)
}

fn required(j: Option<Json>, name: &str, path: &[Seg]) -> Result<Json, JsonError> {
    j.ok_or_else(|| fail(path, format!("missing field {name:?}")))
}

fn parse_f64(n: &str, path: &[Seg]) -> Result<f64, JsonError> {
    n.parse()
        .map_err(|_| fail(path, format!("not a number: {n}")))
}

fn parse_i64(n: &str, path: &[Seg]) -> Result<i64, JsonError> {
    n.parse().map_err(|_| {
        fail(
            path,
            format!("{n} is not a 64-bit integer (a float has a fraction or an exponent: 1.0)"),
        )
    })
}

/// An integer: a number without fraction or exponent, or its digits as a string.
fn integer<T: std::str::FromStr>(j: Json, path: &mut Vec<Seg>, what: &str) -> Result<T, JsonError> {
    let (Json::Num(n) | Json::Str(n)) = j else {
        return Err(fail(path, format!("expected {what}, not {}", j.kind())));
    };
    n.parse()
        .map_err(|_| fail(path, format!("{n:?} is not {what}")))
}

/// The number of a special string (`"inf"`, `"nan:7ff8000000000001"` …) in binary64.
fn special_of(s: &str, width: usize) -> Option<u64> {
    Some(match s {
        "nan" if width == 16 => f64::NAN.to_bits(),
        "nan" => u64::from(f32::NAN.to_bits()),
        "inf" if width == 16 => f64::INFINITY.to_bits(),
        "inf" => u64::from(f32::INFINITY.to_bits()),
        "-inf" if width == 16 => f64::NEG_INFINITY.to_bits(),
        "-inf" => u64::from(f32::NEG_INFINITY.to_bits()),
        "-0" if width == 16 => (-0.0f64).to_bits(),
        "-0" => u64::from((-0.0f32).to_bits()),
        _ => {
            let hex = s.strip_prefix("nan:")?;
            if hex.len() != width {
                return None;
            }
            u64::from_str_radix(hex, 16).ok()?
        }
    })
}

fn real_of(j: Json, path: &mut Vec<Seg>) -> Result<f64, JsonError> {
    match j {
        Json::Num(n) => parse_f64(&n, path),
        Json::Str(s) => match special_of(&s, 16).map(f64::from_bits) {
            Some(x) if !x.is_finite() || x == 0.0 => Ok(x),
            _ => Err(fail(
                path,
                format!("{s:?} is not a real: a number, \"inf\", \"-inf\", \"-0\", \"nan\" or \"nan:\" and 16 hex digits"),
            )),
        },
        other => Err(fail(path, format!("expected a real, not {}", other.kind()))),
    }
}

fn real32_of(j: Json, path: &mut Vec<Seg>) -> Result<f32, JsonError> {
    match j {
        Json::Num(n) => n
            .parse()
            .map_err(|_| fail(path, format!("not a number: {n}"))),
        Json::Str(s) => match special_of(&s, 8).and_then(|b| u32::try_from(b).ok()) {
            Some(b) if !f32::from_bits(b).is_finite() || f32::from_bits(b) == 0.0 => {
                Ok(f32::from_bits(b))
            }
            _ => Err(fail(
                path,
                format!("{s:?} is not a binary32 real: a number, \"inf\", \"-inf\", \"-0\", \"nan\" or \"nan:\" and 8 hex digits"),
            )),
        },
        other => Err(fail(path, format!("expected a real, not {}", other.kind()))),
    }
}

fn fixed<T, const N: usize>(
    j: Json,
    path: &mut Vec<Seg>,
    f: impl Fn(Json, &mut Vec<Seg>) -> Result<T, JsonError>,
) -> Result<[T; N], JsonError> {
    let items = array(j, path)?;
    let n = items.len();
    list(items, path, f)?
        .try_into()
        .map_err(|_| fail(path, format!("expected {N} components, not {n}")))
}

fn reals_of<const N: usize>(j: Json, path: &mut Vec<Seg>) -> Result<[f64; N], JsonError> {
    fixed(j, path, real_of)
}

fn boxed<const N: usize>(j: Json, path: &mut Vec<Seg>) -> Result<Box<[f64; N]>, JsonError> {
    reals_of(j, path).map(Box::new)
}

fn ints_of<const N: usize>(j: Json, path: &mut Vec<Seg>) -> Result<[i32; N], JsonError> {
    fixed(j, path, |j, path| integer(j, path, "a 32-bit integer"))
}

fn u64_of(j: Json, path: &mut Vec<Seg>) -> Result<u64, JsonError> {
    integer(j, path, "an id (an integer from 0 to 2^64 - 1)")
}

fn container_type_of(j: Json, path: &mut Vec<Seg>) -> Result<ContainerType, JsonError> {
    match j {
        Json::Null => Ok(ContainerType::Untyped),
        Json::Str(name) => ContainerType::from_name(&name).map_err(|e| fail(path, e.to_string())),
        Json::Obj(_) => {
            let [class, script] = fields(j, ["class", "script"], path)?;
            match (class, script) {
                (Some(c), None) => Ok(ContainerType::Class(string(c, path)?)),
                (None, Some(s)) => Ok(ContainerType::Script(string(s, path)?)),
                _ => Err(fail(path, "expected {\"class\": name} or {\"script\": path}")),
            }
        }
        other => Err(fail(
            path,
            format!("expected a type: a name, null, {{\"class\": name}} or {{\"script\": path}}, not {}", other.kind()),
        )),
    }
}

fn entries_of(j: Json, path: &mut Vec<Seg>) -> Result<Vec<(Value, Value)>, JsonError> {
    let items = array(j, path)?;
    list(items, path, |pair, path| {
        let [k, v] = fixed(pair, path, |j, _| Ok(j))?;
        let k = at(path, Seg::Index(0), |path| value(k, path))?;
        let v = at(path, Seg::Index(1), |path| value(v, path))?;
        Ok((k, v))
    })
}

fn tagged(tag: &str, j: Json, path: &mut Vec<Seg>) -> Result<Value, JsonError> {
    use Value as V;
    Ok(match tag {
        "$int" => V::Int(integer(j, path, "a 64-bit integer")?),
        "$float" => V::Float(real_of(j, path)?),
        "$Vector2" => V::Vector2(reals_of(j, path)?),
        "$Vector2i" => V::Vector2i(ints_of(j, path)?),
        "$Rect2" => V::Rect2(boxed(j, path)?),
        "$Rect2i" => V::Rect2i(ints_of(j, path)?),
        "$Vector3" => V::Vector3(reals_of(j, path)?),
        "$Vector3i" => V::Vector3i(ints_of(j, path)?),
        "$Transform2D" => V::Transform2D(boxed(j, path)?),
        "$Vector4" => V::Vector4(boxed(j, path)?),
        "$Vector4i" => V::Vector4i(ints_of(j, path)?),
        "$Plane" => V::Plane(boxed(j, path)?),
        "$Quaternion" => V::Quaternion(boxed(j, path)?),
        "$AABB" => V::Aabb(boxed(j, path)?),
        "$Basis" => V::Basis(boxed(j, path)?),
        "$Transform3D" => V::Transform3D(boxed(j, path)?),
        "$Projection" => V::Projection(boxed(j, path)?),
        "$Color" => V::Color(fixed(j, path, real32_of)?),
        "$StringName" => V::StringName(string(j, path)?.into()),
        "$NodePath" => V::NodePath(Box::new(match j {
            Json::Str(s) => NodePath::from(s.as_str()),
            j => {
                let [names, subnames, absolute] =
                    fields(j, ["names", "subnames", "absolute"], path)?;
                let names = match names {
                    Some(n) => at(path, Seg::Key("names".into()), |path| {
                        list(array(n, path)?, path, string)
                    })?,
                    None => Vec::new(),
                };
                let subnames = match subnames {
                    Some(n) => at(path, Seg::Key("subnames".into()), |path| {
                        list(array(n, path)?, path, string)
                    })?,
                    None => Vec::new(),
                };
                let absolute = match absolute {
                    None => false,
                    Some(Json::Bool(b)) => b,
                    Some(other) => {
                        return Err(fail(
                            path,
                            format!("\"absolute\" is a bool, not {}", other.kind()),
                        ))
                    }
                };
                NodePath {
                    names,
                    subnames,
                    absolute,
                }
            }
        })),
        "$RID" => V::Rid(u64_of(j, path)?),
        "$ObjectId" => V::ObjectId(u64_of(j, path)?),
        "$Object" => {
            let [class, properties] = fields(j, ["class", "properties"], path)?;
            let class = required(class, "class", path)?;
            let class = at(path, Seg::Key("class".into()), |path| string(class, path))?;
            let properties = match properties {
                None => Vec::new(),
                Some(p) => at(path, Seg::Key("properties".into()), |path| {
                    let items = array(p, path)?;
                    list(items, path, |pair, path| {
                        let [k, v] = fixed(pair, path, |j, _| Ok(j))?;
                        let k = at(path, Seg::Index(0), |path| string(k, path))?;
                        let v = at(path, Seg::Index(1), |path| value(v, path))?;
                        Ok((k, v))
                    })
                })?,
            };
            V::Object(Box::new(Object { class, properties }))
        }
        "$Callable" => match j {
            Json::Null => V::Callable,
            other => {
                return Err(fail(
                    path,
                    format!("a Callable carries nothing: null, not {}", other.kind()),
                ))
            }
        },
        "$Signal" => {
            let [name, object] = fields(j, ["name", "object"], path)?;
            let name = required(name, "name", path)?;
            let name = at(path, Seg::Key("name".into()), |path| string(name, path))?;
            let object_id = match object {
                None => 0,
                Some(o) => at(path, Seg::Key("object".into()), |path| u64_of(o, path))?,
            };
            V::Signal {
                name: name.into(),
                object_id,
            }
        }
        "$Array" => {
            let [ty, items] = fields(j, ["type", "items"], path)?;
            let ty = required(ty, "type", path)?;
            let element = at(path, Seg::Key("type".into()), |path| {
                container_type_of(ty, path)
            })?;
            let items = match items {
                None => Vec::new(),
                Some(i) => at(path, Seg::Key("items".into()), |path| {
                    list(array(i, path)?, path, value)
                })?,
            };
            V::typed_array(element, items)
        }
        "$Dictionary" => match j {
            Json::Arr(_) => V::dictionary(entries_of(j, path)?),
            j => {
                let [key, val, entries] = fields(j, ["key", "value", "entries"], path)?;
                let key = match key {
                    None => ContainerType::Untyped,
                    Some(k) => at(path, Seg::Key("key".into()), |path| {
                        container_type_of(k, path)
                    })?,
                };
                let val = match val {
                    None => ContainerType::Untyped,
                    Some(k) => at(path, Seg::Key("value".into()), |path| {
                        container_type_of(k, path)
                    })?,
                };
                let entries = match entries {
                    None => Vec::new(),
                    Some(e) => at(path, Seg::Key("entries".into()), |path| entries_of(e, path))?,
                };
                V::typed_dictionary(key, val, entries)
            }
        },
        "$PackedByteArray" => V::PackedByteArray(match j {
            Json::Str(s) => {
                crate::base64::decode(&s, true).ok_or_else(|| fail(path, "not base64"))?
            }
            j => {
                let items = array(j, path)?;
                list(items, path, |j, path| integer(j, path, "a byte (0 to 255)"))?
            }
        }),
        "$PackedInt32Array" => V::PackedInt32Array(list(array(j, path)?, path, |j, path| {
            integer(j, path, "a 32-bit integer")
        })?),
        "$PackedInt64Array" => V::PackedInt64Array(list(array(j, path)?, path, |j, path| {
            integer(j, path, "a 64-bit integer")
        })?),
        "$PackedFloat32Array" => V::PackedFloat32Array(list(array(j, path)?, path, real32_of)?),
        "$PackedFloat64Array" => V::PackedFloat64Array(list(array(j, path)?, path, real_of)?),
        "$PackedStringArray" => V::PackedStringArray(
            list(array(j, path)?, path, string)?
                .into_iter()
                .map(Into::into)
                .collect(),
        ),
        "$PackedVector2Array" => V::PackedVector2Array(list(array(j, path)?, path, reals_of)?),
        "$PackedVector3Array" => V::PackedVector3Array(list(array(j, path)?, path, reals_of)?),
        "$PackedVector4Array" => V::PackedVector4Array(list(array(j, path)?, path, reals_of)?),
        "$PackedColorArray" => V::PackedColorArray(list(array(j, path)?, path, |j, path| {
            fixed(j, path, real32_of)
        })?),
        other => {
            path.pop();
            let e = fail(
                path,
                format!("unknown tag {other:?} (a Dictionary key that starts with `$` is written in the `$Dictionary` form)"),
            );
            path.push(Seg::Key(other.to_owned()));
            return Err(e);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_kind() {
        for (text, v) in [
            ("5", Value::Int(5)),
            ("2.0", Value::Float(2.0)),
            ("1e2", Value::Float(100.0)),
            ("0.1", Value::Float(0.1)),
            (r#"{"$int":"9223372036854775807"}"#, Value::Int(i64::MAX)),
            ("9223372036854775807", Value::Int(i64::MAX)),
        ] {
            assert_eq!(from_json(text), Ok(v), "{text}");
        }
        assert!(from_json("9223372036854775808").is_err());
    }

    #[test]
    fn reals_round_trip() {
        for x in [
            0.1,
            -0.0,
            1e300,
            5e-324,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::INFINITY,
            f64::NEG_INFINITY,
            2.0,
            f64::MAX,
            1.0 / 3.0,
        ] {
            for v in [Value::Float(x), Value::vector2(x, -x)] {
                assert_eq!(from_json(&to_json(&v)), Ok(v.clone()), "{}", to_json(&v));
            }
        }
        let c = Value::Color([0.1, f32::NAN, f32::from_bits(0x7f80_0001), -0.0]);
        assert_eq!(from_json(&to_json(&c)), Ok(c.clone()), "{}", to_json(&c));
    }
}

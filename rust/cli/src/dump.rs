//! `dump`: the values with their byte offsets, as text for a person (one line per value,
//! indented by nesting) or as JSON for a program (the golden corpus's Desc, made readable).

use std::io::{self, Write};

use fast_var_codec_core::internals::{DialectSpec, WireKind};
use fast_var_codec_core::internals::{FLAG_64, FLAG_OBJECT_AS_ID, TYPE_MASK};
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::value::{ContainerType, VariantType};
use fast_var_codec_core::{Options, Value};
use serde_json::{json, Map, Value as Json};

use crate::input::{Framing, Item, Resolved};
use crate::tree::{Kind, Node, NodeBuilder};
use crate::{dialect_name, Fail};

/// Strings longer than this many characters are cut in text output (unless `--full`).
const MAX_TEXT_CHARS: usize = 64;
/// Characters of a long string shown.
const SHOWN_TEXT_CHARS: usize = 48;
/// Packed arrays longer than this are cut in text output (unless `--full`).
const MAX_ELEMENTS: usize = 16;
/// Elements of a long packed array shown.
const SHOWN_ELEMENTS: usize = 8;
/// PackedByteArrays longer than this are cut in text output (unless `--full`).
const MAX_BYTES: usize = 32;
/// Bytes of a long PackedByteArray shown.
const SHOWN_BYTES: usize = 16;

/// The wire tree of one value of the input.
fn tree(bytes: &[u8], item: &Item, opts: &Options) -> Result<Node, Fail> {
    let body = bytes
        .get(item.start..)
        .map(|rest| rest.get(..item.available).unwrap_or(rest))
        .unwrap_or_default();
    decode_with(body, 0, opts, &mut NodeBuilder::new(body, item.start))
        .map(|(node, _)| node)
        .map_err(|e| Fail::Invalid(format!("value at byte {}: {e}", item.start)))
}

/// What to write, and how.
pub struct Dump<'a> {
    pub bytes: &'a [u8],
    pub resolved: &'a Resolved,
    pub opts: &'a Options,
    /// No abbreviation of long strings and packed arrays.
    pub full: bool,
}

impl Dump<'_> {
    fn spec(&self) -> &'static DialectSpec {
        self.resolved.decoded.dialect.spec()
    }

    /// The text form.
    pub fn text(&self, out: &mut dyn Write) -> Result<(), Fail> {
        let decoded = &self.resolved.decoded;
        let framed = decoded.framing == Framing::Framed;
        for (i, item) in decoded.items.iter().enumerate() {
            let depth = if let Some(at) = item.frame_at {
                writeln!(out, "frame {i} at {at}: {} bytes", item.available)?;
                1
            } else {
                0
            };
            let node = tree(self.bytes, item, self.opts)?;
            self.node_text(out, &node, depth, "")?;
            if node.to_value() != item.value {
                writeln!(
                    out,
                    "{}note: Godot's decode changes this value (a typed container converts or drops elements, or equal keys merge); shown as written",
                    indent(depth)
                )?;
            }
            if item.unread() > 0 {
                let what = if framed {
                    "left unread in its frame"
                } else {
                    "after the value, ignored (as bytes_to_var does)"
                };
                writeln!(out, "{}{} byte(s) {what}", indent(depth), item.unread())?;
            }
        }
        let n = decoded.items.len();
        writeln!(
            out,
            "{n} value{}, {} bytes ({}{}, {})",
            if n == 1 { "" } else { "s" },
            self.bytes.len(),
            dialect_name(decoded.dialect),
            if self.resolved.dialect_guess.is_some() {
                " guessed"
            } else {
                ""
            },
            decoded.framing.name()
        )?;
        Ok(())
    }

    fn node_text(
        &self,
        out: &mut dyn Write,
        node: &Node,
        depth: usize,
        label: &str,
    ) -> Result<(), Fail> {
        let at = node
            .start
            .map_or_else(|| "?".to_string(), |s| s.to_string());
        let pad = indent(depth);
        let ty = self.type_name(node);
        match &node.kind {
            Kind::Leaf(Value::Callable) => writeln!(out, "{pad}{at}: {label}{ty}")?,
            Kind::Leaf(v) => {
                let text = self.leaf_text(node, v);
                writeln!(out, "{pad}{at}: {label}{ty}: {text}")?;
            }
            Kind::Array { items, .. } => {
                writeln!(
                    out,
                    "{pad}{at}: {label}{ty} ({})",
                    count(items.len(), "item")
                )?;
                for (i, item) in items.iter().enumerate() {
                    self.node_text(out, item, depth + 1, &format!("[{i}] "))?;
                }
            }
            Kind::Dictionary { entries, .. } => {
                writeln!(
                    out,
                    "{pad}{at}: {label}{ty} ({})",
                    count(entries.len(), "entry")
                )?;
                for (k, v) in entries {
                    self.node_text(out, k, depth + 1, "key ")?;
                    self.node_text(out, v, depth + 1, "value ")?;
                }
            }
            Kind::Object { class, properties } => {
                writeln!(
                    out,
                    "{pad}{at}: {label}{ty} {class} ({})",
                    count(properties.len(), "property")
                )?;
                for (name, v) in properties {
                    self.node_text(out, v, depth + 1, &format!(".{name} "))?;
                }
            }
        }
        Ok(())
    }

    /// What the header's wire id stands for, where the reader located the value.
    fn wire_kind(&self, node: &Node) -> Option<(u32, WireKind)> {
        let id = node.header? & TYPE_MASK;
        Some((id, self.spec().kind_of_wire_id(id)?))
    }

    /// The value's type in Godot 4's names, with the wire's own forms where the model has
    /// none (Pandemonium's typed and pool arrays).
    fn type_name(&self, node: &Node) -> String {
        match &node.kind {
            Kind::Leaf(Value::ObjectId(_)) | Kind::Object { .. } => "Object".into(),
            Kind::Leaf(Value::Nil)
                if matches!(
                    self.wire_kind(node),
                    Some((_, WireKind::Type(VariantType::Object)))
                ) =>
            {
                "Object".into()
            }
            Kind::Leaf(v) => v.variant_type().name().into(),
            Kind::Array { element, .. } => match self.wire_kind(node) {
                Some((_, WireKind::IntVectorPool(t))) => {
                    format!("Pool{}Array", t.variant_type().name())
                }
                Some((id, WireKind::TypedArray)) => {
                    let form = if Some(id) == self.spec().typed_array_id.map(u32::from) {
                        "TypedArray"
                    } else {
                        "PackedTypedArray"
                    };
                    format!("{form}[{}]", container_text(element))
                }
                _ if element.is_untyped() => "Array".into(),
                _ => format!("Array[{}]", container_text(element)),
            },
            Kind::Dictionary { key, value, .. } => {
                if key.is_untyped() && value.is_untyped() {
                    "Dictionary".into()
                } else {
                    format!(
                        "Dictionary[{}, {}]",
                        container_text(key),
                        container_text(value)
                    )
                }
            }
        }
    }

    /// Whether the value's reals were binary32 on the wire (the 64-bit flag counts for reals
    /// only in dialects with double-precision builds).
    fn narrow(&self, node: &Node, real: bool) -> bool {
        match node.header {
            Some(h) => h & FLAG_64 == 0 || (real && !self.spec().real_flag),
            None => true,
        }
    }

    fn leaf_text(&self, node: &Node, v: &Value) -> String {
        let full = self.full;
        let narrow_real = self.narrow(node, true);
        let real = |x: f64| real_text(x, narrow_real);
        let reals = |c: &[f64]| tuple(c.iter().map(|&x| real(x)));
        let ints = |c: &[i32]| tuple(c.iter().map(|x| x.to_string()));
        let f32s = |c: &[f32]| tuple(c.iter().map(|&x| real_text(f64::from(x), true)));
        match v {
            Value::Nil => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(x) => real_text(*x, self.narrow(node, false)),
            Value::String(s) => string_text(s, full),
            Value::StringName(s) => format!("&{}", string_text(s, full)),
            Value::Vector2(c) => reals(c),
            Value::Vector2i(c) => ints(c),
            Value::Rect2(c) => reals(c.as_slice()),
            Value::Rect2i(c) => ints(c),
            Value::Vector3(c) => reals(c),
            Value::Vector3i(c) => ints(c),
            Value::Transform2D(c) => reals(c.as_slice()),
            Value::Vector4(c) => reals(c.as_slice()),
            Value::Vector4i(c) => ints(c),
            Value::Plane(c) => reals(c.as_slice()),
            Value::Quaternion(c) => reals(c.as_slice()),
            Value::Aabb(c) => reals(c.as_slice()),
            Value::Basis(c) => reals(c.as_slice()),
            Value::Transform3D(c) => reals(c.as_slice()),
            Value::Projection(c) => reals(c.as_slice()),
            Value::Color(c) => f32s(c),
            Value::NodePath(p) => format!("^{}", string_text(&p.to_string(), full)),
            Value::Rid(id) => id.to_string(),
            Value::ObjectId(id) => format!("id {id}"),
            Value::Object(o) => format!("{} ({})", o.class, count(o.properties.len(), "property")),
            Value::Callable => String::new(),
            Value::Signal { name, object_id } => {
                format!("{} of object {object_id}", string_text(name, full))
            }
            Value::Dictionary(d) => count(d.len(), "entry"),
            Value::Array(a) => count(a.items.len(), "item"),
            Value::PackedByteArray(b) => {
                let shown = if full || b.len() <= MAX_BYTES {
                    b.len()
                } else {
                    SHOWN_BYTES
                };
                let mut s = format!("({})", count(b.len(), "byte"));
                for x in b.iter().take(shown) {
                    s.push_str(&format!(" {x:02x}"));
                }
                if shown < b.len() {
                    s.push_str(&format!(" … (+{} more)", b.len() - shown));
                }
                s
            }
            Value::PackedInt32Array(a) => list(a.iter().map(|x| x.to_string()), a.len(), full),
            Value::PackedInt64Array(a) => list(a.iter().map(|x| x.to_string()), a.len(), full),
            Value::PackedFloat32Array(a) => list(
                a.iter().map(|&x| real_text(f64::from(x), true)),
                a.len(),
                full,
            ),
            Value::PackedFloat64Array(a) => {
                list(a.iter().map(|&x| real_text(x, false)), a.len(), full)
            }
            Value::PackedStringArray(a) => {
                list(a.iter().map(|s| string_text(s, full)), a.len(), full)
            }
            Value::PackedVector2Array(a) => list(a.iter().map(|c| reals(c)), a.len(), full),
            Value::PackedVector3Array(a) => list(a.iter().map(|c| reals(c)), a.len(), full),
            Value::PackedVector4Array(a) => list(a.iter().map(|c| reals(c)), a.len(), full),
            Value::PackedColorArray(a) => list(a.iter().map(|c| f32s(c)), a.len(), full),
        }
    }

    /// The JSON form.
    pub fn json(&self, out: &mut dyn Write) -> Result<(), Fail> {
        let decoded = &self.resolved.decoded;
        let mut values = Vec::with_capacity(decoded.items.len());
        for item in &decoded.items {
            let node = tree(self.bytes, item, self.opts)?;
            let mut entry = Map::new();
            if let Some(at) = item.frame_at {
                entry.insert(
                    "frame".into(),
                    json!({"offset": at, "length": item.available}),
                );
            }
            entry.insert("value".into(), self.node_json(&node));
            if node.to_value() != item.value {
                entry.insert("decoded".into(), value_json(&item.value));
            }
            if item.unread() > 0 {
                entry.insert("unread".into(), json!(item.unread()));
            }
            values.push(Json::Object(entry));
        }
        let mut doc = Map::new();
        doc.insert("dialect".into(), json!(dialect_name(decoded.dialect)));
        if let Some(also) = &self.resolved.dialect_guess {
            doc.insert("dialect_guessed".into(), json!(true));
            doc.insert(
                "also_fits".into(),
                json!(also.iter().map(|d| dialect_name(*d)).collect::<Vec<_>>()),
            );
        }
        doc.insert("framing".into(), json!(decoded.framing.name()));
        doc.insert("size".into(), json!(self.bytes.len()));
        doc.insert("values".into(), Json::Array(values));
        // (An I/O error keeps its kind: a closed pipe ends quietly.)
        serde_json::to_writer(&mut *out, &Json::Object(doc)).map_err(io::Error::from)?;
        writeln!(out)?;
        Ok(())
    }

    fn node_json(&self, node: &Node) -> Json {
        let mut m = Map::new();
        if let Some(start) = node.start {
            m.insert("offset".into(), json!(start));
            m.insert("size".into(), json!(node.size()));
        }
        match &node.kind {
            Kind::Leaf(v) => leaf_json(v, &mut m),
            Kind::Array { element, items } => {
                m.insert("t".into(), json!("array"));
                match self.wire_kind(node) {
                    Some((_, WireKind::IntVectorPool(t))) => {
                        m.insert(
                            "form".into(),
                            json!(format!(
                                "pool_{}_array",
                                t.variant_type().name().to_lowercase()
                            )),
                        );
                    }
                    Some((id, WireKind::TypedArray)) => {
                        let typed = Some(id) == self.spec().typed_array_id.map(u32::from);
                        m.insert(
                            "form".into(),
                            json!(if typed {
                                "typed_array"
                            } else {
                                "packed_typed_array"
                            }),
                        );
                    }
                    _ => {}
                }
                m.insert("typed".into(), typed_json(element));
                m.insert(
                    "items".into(),
                    Json::Array(items.iter().map(|n| self.node_json(n)).collect()),
                );
            }
            Kind::Dictionary {
                key,
                value,
                entries,
            } => {
                m.insert("t".into(), json!("dictionary"));
                m.insert("key_typed".into(), typed_json(key));
                m.insert("value_typed".into(), typed_json(value));
                m.insert(
                    "entries".into(),
                    Json::Array(
                        entries
                            .iter()
                            .map(|(k, v)| json!([self.node_json(k), self.node_json(v)]))
                            .collect(),
                    ),
                );
            }
            Kind::Object { class, properties } => {
                m.insert("t".into(), json!("object"));
                m.insert("class".into(), json!(class));
                m.insert(
                    "props".into(),
                    Json::Array(
                        properties
                            .iter()
                            .map(|(n, v)| json!([n, self.node_json(v)]))
                            .collect(),
                    ),
                );
            }
        }
        if let (Kind::Leaf(Value::Nil), Some(h)) = (&node.kind, node.header) {
            // A null object: the wire says OBJECT, the value is null.
            if self.spec().type_of_wire_id(h & TYPE_MASK) == Some(VariantType::Object)
                && h & FLAG_OBJECT_AS_ID == 0
            {
                m.insert("null_object".into(), json!(true));
            }
        }
        Json::Object(m)
    }
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

fn count(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "entry") => format!("{n} entries"),
        (_, "property") => format!("{n} properties"),
        _ => format!("{n} {what}s"),
    }
}

fn tuple(parts: impl Iterator<Item = String>) -> String {
    format!("({})", parts.collect::<Vec<_>>().join(", "))
}

/// `(n) [a, b, …]`, cut after a few elements unless `full`.
fn list(parts: impl Iterator<Item = String>, len: usize, full: bool) -> String {
    let shown = if full || len <= MAX_ELEMENTS {
        len
    } else {
        SHOWN_ELEMENTS
    };
    let mut items: Vec<String> = parts.take(shown).collect();
    if shown < len {
        items.push(format!("… (+{} more)", len - shown));
    }
    format!("({len}) [{}]", items.join(", "))
}

/// A real as the wire held it: binary32 values in their shortest binary32 form, so `0.1`
/// reads `0.1`, not `0.10000000149011612`.
fn real_text(x: f64, narrow: bool) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if narrow {
        format!("{:?}", x as f32)
    } else {
        format!("{x:?}")
    }
}

/// A quoted, escaped string, cut unless `full`.
fn string_text(s: &str, full: bool) -> String {
    if full || s.chars().count() <= MAX_TEXT_CHARS {
        return format!("{s:?}");
    }
    let shown: String = s.chars().take(SHOWN_TEXT_CHARS).collect();
    format!("{shown:?}… ({} bytes)", s.len())
}

fn container_text(t: &ContainerType) -> String {
    match t {
        ContainerType::Untyped => "Variant".into(),
        ContainerType::Builtin(t) => t.name().into(),
        ContainerType::Class(c) => c.clone(),
        ContainerType::Script(p) => p.clone(),
    }
}

fn typed_json(t: &ContainerType) -> Json {
    match t {
        ContainerType::Untyped => Json::Null,
        ContainerType::Builtin(t) => json!({"kind": "builtin", "type": t.id(), "name": t.name()}),
        ContainerType::Class(c) => json!({"kind": "class", "name": c}),
        ContainerType::Script(p) => json!({"kind": "script", "path": p}),
    }
}

/// A float as JSON: a number where finite, else `"nan"`, `"inf"` or `"-inf"`.
fn num(x: f64) -> Json {
    match serde_json::Number::from_f64(x) {
        Some(n) => Json::Number(n),
        None if x.is_nan() => json!("nan"),
        None if x > 0.0 => json!("inf"),
        None => json!("-inf"),
    }
}

fn nums(c: &[f64]) -> Json {
    Json::Array(c.iter().map(|&x| num(x)).collect())
}

fn nums32(c: &[f32]) -> Json {
    Json::Array(c.iter().map(|&x| num(f64::from(x))).collect())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The Desc type name (`"int"`, `"packed_byte_array"` …) and fields of a value that holds no
/// other value.
fn leaf_json(v: &Value, m: &mut Map<String, Json>) {
    fn set(m: &mut Map<String, Json>, t: &str, v: Json) {
        m.insert("t".into(), json!(t));
        if !v.is_null() {
            m.insert("v".into(), v);
        }
    }
    match v {
        Value::Nil => set(m, "nil", Json::Null),
        Value::Bool(b) => set(m, "bool", json!(b)),
        Value::Int(i) => set(m, "int", json!(i)),
        Value::Float(x) => set(m, "float", num(*x)),
        Value::String(s) => set(m, "string", json!(s.as_str())),
        Value::StringName(s) => set(m, "string_name", json!(s.as_str())),
        Value::Vector2(c) => set(m, "vector2", nums(c)),
        Value::Vector2i(c) => set(m, "vector2i", json!(c)),
        Value::Rect2(c) => set(m, "rect2", nums(c.as_slice())),
        Value::Rect2i(c) => set(m, "rect2i", json!(c)),
        Value::Vector3(c) => set(m, "vector3", nums(c)),
        Value::Vector3i(c) => set(m, "vector3i", json!(c)),
        Value::Transform2D(c) => set(m, "transform2d", nums(c.as_slice())),
        Value::Vector4(c) => set(m, "vector4", nums(c.as_slice())),
        Value::Vector4i(c) => set(m, "vector4i", json!(c)),
        Value::Plane(c) => set(m, "plane", nums(c.as_slice())),
        Value::Quaternion(c) => set(m, "quaternion", nums(c.as_slice())),
        Value::Aabb(c) => set(m, "aabb", nums(c.as_slice())),
        Value::Basis(c) => set(m, "basis", nums(c.as_slice())),
        Value::Transform3D(c) => set(m, "transform3d", nums(c.as_slice())),
        Value::Projection(c) => set(m, "projection", nums(c.as_slice())),
        Value::Color(c) => set(m, "color", nums32(c)),
        Value::NodePath(p) => {
            m.insert("t".into(), json!("node_path"));
            m.insert("names".into(), json!(p.names));
            m.insert("subnames".into(), json!(p.subnames));
            m.insert("absolute".into(), json!(p.absolute));
        }
        Value::Rid(id) => set(m, "rid", json!(id)),
        Value::ObjectId(id) => set(m, "object_id", json!(id)),
        Value::Callable => set(m, "callable", Json::Null),
        Value::Signal { name, object_id } => {
            m.insert("t".into(), json!("signal"));
            m.insert("name".into(), json!(name));
            m.insert("object".into(), json!(object_id));
        }
        Value::PackedByteArray(b) => set(m, "packed_byte_array", json!(hex(b))),
        Value::PackedInt32Array(a) => set(m, "packed_int32_array", json!(a)),
        Value::PackedInt64Array(a) => set(m, "packed_int64_array", json!(a)),
        Value::PackedFloat32Array(a) => set(m, "packed_float32_array", nums32(a)),
        Value::PackedFloat64Array(a) => set(m, "packed_float64_array", nums(a)),
        Value::PackedStringArray(a) => set(
            m,
            "packed_string_array",
            json!(a.iter().map(|s| s.as_str()).collect::<Vec<_>>()),
        ),
        Value::PackedVector2Array(a) => set(
            m,
            "packed_vector2_array",
            Json::Array(a.iter().map(|c| nums(c)).collect()),
        ),
        Value::PackedVector3Array(a) => set(
            m,
            "packed_vector3_array",
            Json::Array(a.iter().map(|c| nums(c)).collect()),
        ),
        Value::PackedVector4Array(a) => set(
            m,
            "packed_vector4_array",
            Json::Array(a.iter().map(|c| nums(c)).collect()),
        ),
        Value::PackedColorArray(a) => set(
            m,
            "packed_color_array",
            Json::Array(a.iter().map(|c| nums32(c)).collect()),
        ),
        // Containers are nodes of their own; as leaves they appear only in `value_json`.
        Value::Object(_) | Value::Array(_) | Value::Dictionary(_) => {
            if let Json::Object(full) = value_json(v) {
                m.extend(full);
            }
        }
    }
}

/// A decoded value as JSON, without offsets (for a value the engine's decode changes).
fn value_json(v: &Value) -> Json {
    let mut m = Map::new();
    match v {
        Value::Array(a) => {
            m.insert("t".into(), json!("array"));
            m.insert("typed".into(), typed_json(&a.element));
            m.insert(
                "items".into(),
                Json::Array(a.items.iter().map(value_json).collect()),
            );
        }
        Value::Dictionary(d) => {
            m.insert("t".into(), json!("dictionary"));
            m.insert("key_typed".into(), typed_json(&d.key));
            m.insert("value_typed".into(), typed_json(&d.value));
            m.insert(
                "entries".into(),
                Json::Array(
                    d.iter()
                        .map(|(k, v)| json!([value_json(k), value_json(v)]))
                        .collect(),
                ),
            );
        }
        Value::Object(o) => {
            m.insert("t".into(), json!("object"));
            m.insert("class".into(), json!(o.class));
            m.insert(
                "props".into(),
                Json::Array(
                    o.properties
                        .iter()
                        .map(|(n, v)| json!([n, value_json(v)]))
                        .collect(),
                ),
            );
        }
        leaf => leaf_json(leaf, &mut m),
    }
    Json::Object(m)
}

//! `dump`: the values with their byte offsets, as text for a person (one line per value,
//! indented by nesting) or as JSON for a program: each value in the core's JSON projection,
//! which `to-json` writes, and its layout (every value inside it with its offset, size and type).

use std::io::Write;

use fast_var_codec_core::json::to_json;
use fast_var_codec_core::reader::{decode_with, WireForm, WireHeader};
use fast_var_codec_core::value::{ContainerType, VariantType};
use fast_var_codec_core::{Options, Value};
use serde_json::Value as Json;

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
    /// What the value's header word says, where the reader located the value.
    fn header(&self, node: &Node) -> Option<WireHeader> {
        self.resolved.decoded.dialect.read_header(node.header?)
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

    /// The value's type in Godot 4's names, with the wire's own forms where the model has
    /// none (Pandemonium's typed and pool arrays).
    fn type_name(&self, node: &Node) -> String {
        match &node.kind {
            Kind::Leaf(Value::ObjectId(_)) | Kind::Object { .. } => "Object".into(),
            Kind::Leaf(Value::Nil)
                if self.header(node).map(|h| h.form)
                    == Some(WireForm::Type(VariantType::Object)) =>
            {
                "Object".into()
            }
            Kind::Leaf(v) => v.variant_type().name().into(),
            Kind::Array { element, .. } => match self.header(node).map(|h| h.form) {
                Some(WireForm::IntVectorPool(t)) => format!("Pool{}Array", t.name()),
                Some(WireForm::TypedArray) => format!("TypedArray[{}]", container_text(element)),
                Some(WireForm::PackedTypedArray) => {
                    format!("PackedTypedArray[{}]", container_text(element))
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

    /// Whether the value's numbers were 32-bit on the wire (a float's payload, a math type's
    /// reals).
    fn narrow(&self, node: &Node) -> bool {
        self.header(node).is_none_or(|h| !h.wide)
    }

    fn leaf_text(&self, node: &Node, v: &Value) -> String {
        let full = self.full;
        let narrow_real = self.narrow(node);
        let real = |x: f64| real_text(x, narrow_real);
        let reals = |c: &[f64]| tuple(c.iter().map(|&x| real(x)));
        let ints = |c: &[i32]| tuple(c.iter().map(|x| x.to_string()));
        let f32s = |c: &[f32]| tuple(c.iter().map(|&x| real_text(f64::from(x), true)));
        match v {
            Value::Nil => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(x) => real_text(*x, self.narrow(node)),
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

    /// The JSON form: each value in the core's JSON projection (what `to-json` writes, placed
    /// in the document as that text, so its numbers and key order are exactly `to-json`'s), with
    /// its layout on the wire beside it.
    pub fn json(&self, out: &mut dyn Write) -> Result<(), Fail> {
        let decoded = &self.resolved.decoded;
        let mut values = Vec::with_capacity(decoded.items.len());
        for item in &decoded.items {
            let node = tree(self.bytes, item, self.opts)?;
            let mut entry = JsonObject::new();
            if let Some(at) = item.frame_at {
                let frame = JsonObject::new()
                    .field("offset", &at.to_string())
                    .field("length", &item.available.to_string())
                    .end();
                entry = entry.field("frame", &frame);
            }
            entry = entry.field("value", &to_json(&item.value));
            let written = node.to_value();
            if written != item.value {
                entry = entry.field("written", &to_json(&written));
            }
            entry = entry.field("layout", &self.layout(&node));
            if item.unread() > 0 {
                entry = entry.field("unread", &item.unread().to_string());
            }
            values.push(entry.end());
        }
        let mut doc =
            JsonObject::new().field("dialect", &json_string(dialect_name(decoded.dialect)));
        if let Some(also) = &self.resolved.dialect_guess {
            doc = doc.field("dialect_guessed", "true").field(
                "also_fits",
                &json_array(also.iter().map(|d| json_string(dialect_name(*d)))),
            );
        }
        let doc = doc
            .field("framing", &json_string(decoded.framing.name()))
            .field("size", &self.bytes.len().to_string())
            .field("values", &json_array(values.into_iter()))
            .end();
        // (An I/O error keeps its kind: a closed pipe ends quietly.)
        writeln!(out, "{doc}")?;
        Ok(())
    }

    /// Where a value and each value inside it lie: `{"offset", "size", "type"}`, with a
    /// leaf's `value` in the core's projection and a container's `items`, `entries` or
    /// `properties` as layouts.
    fn layout(&self, node: &Node) -> String {
        let mut m = JsonObject::new();
        if let Some(start) = node.start {
            m = m
                .field("offset", &start.to_string())
                .field("size", &node.size().to_string());
        }
        m = m.field("type", &json_string(&self.type_name(node)));
        match &node.kind {
            Kind::Leaf(v) => m = m.field("value", &to_json(v)),
            Kind::Array { items, .. } => {
                m = m.field("items", &json_array(items.iter().map(|n| self.layout(n))));
            }
            Kind::Dictionary { entries, .. } => {
                let pairs = entries
                    .iter()
                    .map(|(k, v)| json_array([self.layout(k), self.layout(v)].into_iter()));
                m = m.field("entries", &json_array(pairs));
            }
            Kind::Object { class, properties } => {
                let pairs = properties
                    .iter()
                    .map(|(n, v)| json_array([json_string(n), self.layout(v)].into_iter()));
                m = m
                    .field("class", &json_string(class))
                    .field("properties", &json_array(pairs));
            }
        }
        m.end()
    }
}

/// A JSON object written field by field, each value JSON text already (the core's projection
/// of a value goes in as `to-json` writes it).
struct JsonObject(String);

impl JsonObject {
    fn new() -> Self {
        JsonObject(String::from("{"))
    }

    fn field(mut self, name: &str, json: &str) -> Self {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push_str(&json_string(name));
        self.0.push(':');
        self.0.push_str(json);
        self
    }

    fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// A JSON array of items that are JSON text already.
fn json_array(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(","))
}

/// A text as a JSON string.
fn json_string(text: &str) -> String {
    Json::String(text.to_owned()).to_string()
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

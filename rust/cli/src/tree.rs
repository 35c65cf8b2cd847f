//! The wire's structure: every value with its byte range and header, as the reader finds it
//! (before typed containers convert elements or Dictionaries merge keys). Built by a
//! [`Build`] implementation that records the offsets the core's reader reports
//! ([`Build::located`]); leaves are made by the core's own [`ValueBuilder`].

use std::borrow::Cow;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::options::Utf8Rules;
use fast_var_codec_core::reader::Build;
use fast_var_codec_core::real::WireReals;
use fast_var_codec_core::value::{ContainerType, GodotString, Object, ValueBuilder};
use fast_var_codec_core::value::{IntVectorType, PackedVectorType, RealType};
use fast_var_codec_core::{Options, Value};

/// One value on the wire.
#[derive(Debug, Clone)]
pub struct Node {
    /// Offset of the value's header in the input, `None` where the reader reports none.
    pub start: Option<usize>,
    /// Offset after the value (may pass the input's end by a PackedByteArray's padding).
    pub end: usize,
    /// The value's header word (type id and flags), where the reader located the value.
    pub header: Option<u32>,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub enum Kind {
    /// A value that holds no other value (packed arrays included).
    Leaf(Value),
    Array {
        element: ContainerType,
        items: Vec<Node>,
    },
    Dictionary {
        key: ContainerType,
        value: ContainerType,
        entries: Vec<(Node, Node)>,
    },
    Object {
        class: String,
        properties: Vec<(String, Node)>,
    },
}

impl Node {
    fn new(kind: Kind) -> Node {
        Node {
            start: None,
            end: 0,
            header: None,
            kind,
        }
    }

    fn leaf(value: Value) -> Node {
        Node::new(Kind::Leaf(value))
    }

    /// Bytes the value takes (its padding included).
    pub fn size(&self) -> usize {
        self.start.map_or(0, |s| self.end.saturating_sub(s))
    }

    /// The value as written, without the engine's conversions: for comparing with the decoded
    /// value.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Leaf(v) => v.clone(),
            Kind::Array { element, items } => {
                Value::typed_array(element.clone(), items.iter().map(Node::to_value).collect())
            }
            Kind::Dictionary {
                key,
                value,
                entries,
            } => Value::typed_dictionary(
                key.clone(),
                value.clone(),
                entries
                    .iter()
                    .map(|(k, v)| (k.to_value(), v.to_value()))
                    .collect(),
            ),
            Kind::Object { class, properties } => Value::Object(Box::new(Object {
                class: class.clone(),
                properties: properties
                    .iter()
                    .map(|(n, v)| (n.clone(), v.to_value()))
                    .collect(),
            })),
        }
    }
}

/// Builds [`Node`]s from one input (a raw value or a frame's payload).
pub struct NodeBuilder<'a> {
    /// The bytes given to the decode, to read each value's header.
    bytes: &'a [u8],
    /// Where those bytes start in the file: added to every offset.
    base: usize,
    leaves: ValueBuilder,
    /// The range and header of the value located last.
    last: Option<(usize, usize, Option<u32>)>,
}

impl<'a> NodeBuilder<'a> {
    pub fn new(bytes: &'a [u8], base: usize) -> Self {
        NodeBuilder {
            bytes,
            base,
            leaves: ValueBuilder::default(),
            last: None,
        }
    }
}

impl Build for NodeBuilder<'_> {
    type Value = Node;
    type Array = (ContainerType, Vec<Node>);
    type Dictionary = (ContainerType, ContainerType, Vec<(Node, Node)>);
    type Object = (String, Vec<(String, Node)>);
    type Strings = Vec<GodotString>;

    fn configure(&mut self, opts: &Options) {
        self.leaves.configure(opts);
    }

    fn nil(&mut self) -> Node {
        let mut n = Node::leaf(Value::Nil);
        // A nil the reader reads is located right after this. One it does not (Godot 3's
        // `script` property, which the engine leaves null whatever the wire holds) stands for
        // the value read last: that property's.
        if let Some((start, end, header)) = self.last {
            n.start = Some(start);
            n.end = end;
            n.header = header;
        }
        n
    }
    fn bool(&mut self, v: bool) -> Node {
        Node::leaf(Value::Bool(v))
    }
    fn int(&mut self, v: i64) -> Node {
        Node::leaf(Value::Int(v))
    }
    fn float(&mut self, v: f64) -> Node {
        Node::leaf(Value::Float(v))
    }
    fn string(&mut self, s: &str) -> Node {
        Node::leaf(Value::String(s.to_owned().into()))
    }
    fn string_name(&mut self, s: &str) -> Node {
        Node::leaf(Value::StringName(s.to_owned().into()))
    }
    fn string_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Node> {
        self.leaves.string_utf8(raw, rules).map(Node::leaf)
    }
    fn string_name_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Node> {
        self.leaves.string_name_utf8(raw, rules).map(Node::leaf)
    }
    fn real(&mut self, ty: RealType, components: WireReals<'_>) -> Node {
        Node::leaf(self.leaves.real(ty, components))
    }
    fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Node {
        Node::leaf(self.leaves.int_vector(ty, components))
    }
    fn color(&mut self, rgba: [f32; 4]) -> Node {
        Node::leaf(Value::Color(rgba))
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Node {
        Node::leaf(self.leaves.node_path(names, subnames, absolute))
    }
    fn rid(&mut self, id: u64) -> Node {
        Node::leaf(Value::Rid(id))
    }
    fn object_id(&mut self, id: u64) -> Node {
        Node::leaf(Value::ObjectId(id))
    }
    fn callable(&mut self) -> Node {
        Node::leaf(Value::Callable)
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Node {
        Node::leaf(self.leaves.signal(name, object_id))
    }
    fn packed_bytes(&mut self, bytes: &[u8]) -> Node {
        Node::leaf(Value::PackedByteArray(bytes.to_vec()))
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Node {
        Node::leaf(self.leaves.packed_i32(raw))
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Node {
        Node::leaf(self.leaves.packed_i64(raw))
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Node {
        Node::leaf(self.leaves.packed_f32(raw))
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Node {
        Node::leaf(self.leaves.packed_f64(raw))
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Node {
        Node::leaf(self.leaves.packed_vectors(ty, raw, wide))
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Node {
        Node::leaf(self.leaves.packed_colors(raw))
    }
    fn begin_strings(&mut self, capacity: usize) -> Vec<GodotString> {
        Vec::with_capacity(capacity)
    }
    fn push_string(&mut self, strings: &mut Vec<GodotString>, s: &str) {
        strings.push(s.into());
    }
    fn end_strings(&mut self, strings: Vec<GodotString>) -> Node {
        Node::leaf(Value::PackedStringArray(strings))
    }

    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        _claimed: usize,
    ) -> Result<Self::Array, DecodeReason> {
        Ok((element, Vec::with_capacity(capacity)))
    }
    fn push(&mut self, array: &mut Self::Array, v: Node) -> Result<(), DecodeReason> {
        array.1.push(v);
        Ok(())
    }
    fn end_array(&mut self, (element, items): Self::Array) -> Node {
        Node::new(Kind::Array { element, items })
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        _claimed: usize,
    ) -> Result<Self::Dictionary, DecodeReason> {
        Ok((key, value, Vec::with_capacity(capacity)))
    }
    fn insert(
        &mut self,
        dict: &mut Self::Dictionary,
        key: Node,
        value: Node,
    ) -> Result<(), DecodeReason> {
        dict.2.push((key, value));
        Ok(())
    }
    fn end_dictionary(&mut self, (key, value, entries): Self::Dictionary) -> Node {
        Node::new(Kind::Dictionary {
            key,
            value,
            entries,
        })
    }
    fn begin_object(&mut self, class: &str) -> Result<Self::Object, DecodeReason> {
        Ok((class.to_owned(), Vec::new()))
    }
    fn set_property(
        &mut self,
        object: &mut Self::Object,
        name: &str,
        value: Node,
    ) -> Result<(), DecodeReason> {
        object.1.push((name.to_owned(), value));
        Ok(())
    }
    fn end_object(&mut self, (class, properties): Self::Object) -> Result<Node, DecodeReason> {
        Ok(Node::new(Kind::Object { class, properties }))
    }

    const LOCATES: bool = true;

    fn located(&mut self, mut node: Node, start: usize, end: usize) -> Node {
        let header = start
            .checked_add(4)
            .and_then(|e| self.bytes.get(start..e))
            .and_then(|h| <[u8; 4]>::try_from(h).ok())
            .map(u32::from_le_bytes);
        let (start, end) = (
            self.base.saturating_add(start),
            self.base.saturating_add(end),
        );
        node.start = Some(start);
        node.end = end;
        node.header = header;
        // Pandemonium's int-vector pool arrays: the vectors are data the reader does not
        // locate; they follow the header and the count, all of one size.
        if let Kind::Array { items, .. } = &mut node.kind {
            if !items.is_empty() && items.iter().all(|n| n.start.is_none()) {
                let body = end.saturating_sub(start).saturating_sub(8);
                let size = body / items.len();
                for (i, item) in items.iter_mut().enumerate() {
                    let at = start + 8 + i * size;
                    item.start = Some(at);
                    item.end = at + size;
                }
            }
        }
        self.last = Some((start, end, header));
        node
    }
}

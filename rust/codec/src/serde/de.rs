//! [`Value`] to `Deserialize` types, `Deserialize` for [`Value`], and the builder that records
//! where each decoded value lies (for errors' byte offsets).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use ::serde::de::value::StringDeserializer;
use ::serde::de::{
    self, Deserialize, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use super::error::{Error, Segment};
use super::RAW_VALUE_TOKEN;
use crate::build::Build;
use crate::error::DecodeReason;
use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType};
use crate::value::{Array, DictionaryInProgress, Object, Value, ValueBuilder};

thread_local! {
    /// The value [`Deserializer`] hands to `Value`'s visitor (see [`RAW_VALUE_TOKEN`]).
    static STASH: RefCell<Option<Value>> = const { RefCell::new(None) };
}

/// Where a decoded value lies: the offset of its header, and the same for the values inside
/// it (Array items, Dictionary values, object properties), when known.
#[derive(Debug, Default)]
pub(crate) struct Loc {
    start: usize,
    children: Vec<Loc>,
}

/// Deserializes `T` from a [`Value`] (see the module's mapping). [`super::from_value`] uses it.
pub struct Deserializer<'a> {
    value: Value,
    loc: Option<&'a Loc>,
}

impl Deserializer<'static> {
    /// A deserializer of `value`; its errors carry paths but no byte offsets (a
    /// [`Value`] has none).
    pub fn new(value: Value) -> Self {
        Deserializer { value, loc: None }
    }
}

impl<'a> Deserializer<'a> {
    pub(crate) fn located(value: Value, loc: &'a Loc) -> Self {
        Deserializer {
            value,
            loc: Some(loc),
        }
    }

    fn offset(&self) -> Option<usize> {
        self.loc.map(|l| l.start)
    }

    fn child(&self, i: usize) -> Option<&'a Loc> {
        self.loc.and_then(|l| l.children.get(i))
    }
}

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Nil => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Int(i) => Unexpected::Signed(*i),
        Value::Float(f) => Unexpected::Float(*f),
        Value::String(s) | Value::StringName(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Dictionary(_) => Unexpected::Map,
        other => Unexpected::Other(other.variant_type().name()),
    }
}

fn key_segment(key: &Value) -> Segment {
    match key {
        Value::String(s) | Value::StringName(s) => Segment::Field(s.clone()),
        Value::Int(i) => Segment::Key(i.to_string()),
        other => Segment::Key(other.variant_type().name().to_string()),
    }
}

fn reals<const N: usize>(c: [f64; N]) -> Vec<Value> {
    c.into_iter().map(Value::Float).collect()
}

fn ints<const N: usize>(c: [i32; N]) -> Vec<Value> {
    c.into_iter().map(|x| Value::Int(x.into())).collect()
}

fn floats32<const N: usize>(c: [f32; N]) -> Vec<Value> {
    c.into_iter().map(|x| Value::Float(x.into())).collect()
}

fn rows<const N: usize>(v: Vec<[f64; N]>) -> Vec<Value> {
    v.into_iter().map(|c| Value::array(reals(c))).collect()
}

impl<'a> Deserializer<'a> {
    fn any<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let loc = self.loc;
        let seq = |items: Vec<Value>, visitor: V| visitor.visit_seq(Seq::new(items, None));
        match self.value {
            Value::Nil | Value::Callable => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::String(s) | Value::StringName(s) => visitor.visit_string(s),
            Value::Vector2(c) => seq(reals(c), visitor),
            Value::Vector2i(c) => seq(ints(c), visitor),
            Value::Rect2(c) | Value::Vector4(c) | Value::Plane(c) | Value::Quaternion(c) => {
                seq(reals(c), visitor)
            }
            Value::Rect2i(c) | Value::Vector4i(c) => seq(ints(c), visitor),
            Value::Vector3(c) => seq(reals(c), visitor),
            Value::Vector3i(c) => seq(ints(c), visitor),
            Value::Transform2D(c) | Value::Aabb(c) => seq(reals(c), visitor),
            Value::Basis(c) => seq(reals(c), visitor),
            Value::Transform3D(c) => seq(reals(c), visitor),
            Value::Projection(c) => seq(reals(c), visitor),
            Value::Color(c) => seq(floats32(c), visitor),
            Value::NodePath(p) => visitor.visit_string(p.to_string()),
            Value::Rid(id) | Value::ObjectId(id) => visitor.visit_u64(id),
            Value::Signal { name, .. } => visitor.visit_string(name),
            Value::Object(mut o) => visitor.visit_map(Map::new(
                std::mem::take(&mut o.properties)
                    .into_iter()
                    .map(|(k, v)| (Value::String(k), v))
                    .collect(),
                loc,
            )),
            Value::Dictionary(mut d) => {
                visitor.visit_map(Map::new(std::mem::take(&mut d.entries), loc))
            }
            Value::Array(mut a) => visitor.visit_seq(Seq::new(std::mem::take(&mut a.items), loc)),
            Value::PackedByteArray(b) => visitor.visit_byte_buf(b),
            Value::PackedInt32Array(x) => seq(
                x.into_iter().map(|i| Value::Int(i.into())).collect(),
                visitor,
            ),
            Value::PackedInt64Array(x) => seq(x.into_iter().map(Value::Int).collect(), visitor),
            Value::PackedFloat32Array(x) => seq(
                x.into_iter().map(|f| Value::Float(f.into())).collect(),
                visitor,
            ),
            Value::PackedFloat64Array(x) => seq(x.into_iter().map(Value::Float).collect(), visitor),
            Value::PackedStringArray(x) => seq(x.into_iter().map(Value::String).collect(), visitor),
            Value::PackedVector2Array(x) => seq(rows(x), visitor),
            Value::PackedVector3Array(x) => seq(rows(x), visitor),
            Value::PackedVector4Array(x) => seq(rows(x), visitor),
            Value::PackedColorArray(x) => seq(
                x.into_iter().map(|c| Value::array(floats32(c))).collect(),
                visitor,
            ),
        }
    }

    fn enumeration<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let loc = self.child(0);
        match self.value {
            Value::String(variant) | Value::StringName(variant) => visitor.visit_enum(Enum {
                variant,
                content: None,
                loc: None,
            }),
            Value::Dictionary(mut d) if d.entries.len() == 1 => {
                let mut entries = std::mem::take(&mut d.entries);
                match entries.pop() {
                    Some((Value::String(variant) | Value::StringName(variant), content)) => visitor
                        .visit_enum(Enum {
                            variant,
                            content: Some(content),
                            loc,
                        }),
                    _ => Err(de::Error::custom(
                        "an enum variant is a String or a one-entry Dictionary with a String key",
                    )),
                }
            }
            other => Err(de::Error::invalid_type(
                unexpected(&other),
                &"an enum variant (a String, or a one-entry Dictionary {name: content})",
            )),
        }
    }
}

impl<'de> de::Deserializer<'de> for Deserializer<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.offset();
        self.any(visitor).map_err(|e| e.at_offset(at))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.offset();
        let res = match self.value {
            Value::Nil => visitor.visit_none(),
            _ => visitor.visit_some(self),
        };
        res.map_err(|e| e.at_offset(at))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let at = self.offset();
        if name == RAW_VALUE_TOKEN {
            STASH.with(|s| *s.borrow_mut() = Some(self.value));
            let res: Result<V::Value, Error> = visitor.visit_unit();
            STASH.with(|s| s.borrow_mut().take());
            return res.map_err(|e| e.at_offset(at));
        }
        visitor
            .visit_newtype_struct(self)
            .map_err(|e| e.at_offset(at))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let at = self.offset();
        self.enumeration(visitor).map_err(|e| e.at_offset(at))
    }

    /// A PackedByteArray is bytes to `deserialize_any` (`serde_bytes`), and a sequence of
    /// ints to a `Vec<u8>`.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.offset();
        let res = match self.value {
            Value::PackedByteArray(b) => visitor.visit_seq(Seq::new(
                b.into_iter().map(|x| Value::Int(x.into())).collect(),
                None,
            )),
            _ => self.any(visitor),
        };
        res.map_err(|e| e.at_offset(at))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    /// Struct fields: an int key is the field named by its digits (so it is an unknown field,
    /// ignored or refused by `deny_unknown_fields`, rather than a field index).
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Int(i) => visitor.visit_string(i.to_string()),
            _ => self.deserialize_any(visitor),
        }
    }

    ::serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct tuple_struct map struct ignored_any
    }
}

struct Seq<'a> {
    items: std::vec::IntoIter<Value>,
    index: usize,
    loc: Option<&'a Loc>,
}

impl<'a> Seq<'a> {
    fn new(items: Vec<Value>, loc: Option<&'a Loc>) -> Self {
        Seq {
            items: items.into_iter(),
            index: 0,
            loc,
        }
    }
}

impl<'de> SeqAccess<'de> for Seq<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(value) = self.items.next() else {
            return Ok(None);
        };
        let i = self.index;
        self.index += 1;
        let loc = self.loc.and_then(|l| l.children.get(i));
        // Each level of nesting on a stack with room for it (`crate::stack`).
        crate::stack::guard(|| seed.deserialize(Deserializer { value, loc }))
            .map(Some)
            .map_err(|e| e.within(Segment::Index(i)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'a> {
    entries: std::vec::IntoIter<(Value, Value)>,
    index: usize,
    loc: Option<&'a Loc>,
    pending: Option<(Value, Segment)>,
}

impl<'a> Map<'a> {
    fn new(entries: Vec<(Value, Value)>, loc: Option<&'a Loc>) -> Self {
        Map {
            entries: entries.into_iter(),
            index: 0,
            loc,
            pending: None,
        }
    }
}

impl<'de> MapAccess<'de> for Map<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        let seg = key_segment(&key);
        self.pending = Some((value, seg));
        crate::stack::guard(|| seed.deserialize(Deserializer::new(key))).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (value, seg) = self
            .pending
            .take()
            .ok_or_else(|| Error::message("next_value_seed called before next_key_seed"))?;
        let i = self.index;
        self.index += 1;
        let loc = self.loc.and_then(|l| l.children.get(i));
        crate::stack::guard(|| seed.deserialize(Deserializer { value, loc }))
            .map_err(|e| e.within(seg))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct Enum<'a> {
    variant: String,
    content: Option<Value>,
    loc: Option<&'a Loc>,
}

impl<'de, 'a> EnumAccess<'de> for Enum<'a> {
    type Error = Error;
    type Variant = Variant<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Variant<'a>), Error> {
        let d: StringDeserializer<Error> = self.variant.clone().into_deserializer();
        let name = seed.deserialize(d)?;
        Ok((
            name,
            Variant {
                name: self.variant,
                content: self.content,
                loc: self.loc,
            },
        ))
    }
}

struct Variant<'a> {
    name: String,
    content: Option<Value>,
    loc: Option<&'a Loc>,
}

impl<'a> Variant<'a> {
    fn content(self, expected: &str) -> Result<(Deserializer<'a>, Segment), Error> {
        match self.content {
            Some(value) => Ok((
                Deserializer {
                    value,
                    loc: self.loc,
                },
                Segment::Field(self.name),
            )),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &expected)),
        }
    }
}

impl<'de> VariantAccess<'de> for Variant<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.content {
            None | Some(Value::Nil) => Ok(()),
            Some(other) => Err(de::Error::invalid_type(unexpected(&other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let (d, seg) = self.content("newtype variant")?;
        crate::stack::guard(|| seed.deserialize(d)).map_err(|e| e.within(seg))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let (d, seg) = self.content("tuple variant")?;
        crate::stack::guard(|| de::Deserializer::deserialize_seq(d, visitor))
            .map_err(|e| e.within(seg))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let (d, seg) = self.content("struct variant")?;
        crate::stack::guard(|| de::Deserializer::deserialize_map(d, visitor))
            .map_err(|e| e.within(seg))
    }
}

impl<'de> Deserialize<'de> for Value {
    /// With this crate's [`Deserializer`], the value itself; with other formats, from plain
    /// data (null, bool, int, float, string, bytes, sequences as Arrays, maps as Dictionaries).
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_newtype_struct(RAW_VALUE_TOKEN, ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Godot value")
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(STASH.with(|s| s.borrow_mut().take()).unwrap_or(Value::Nil))
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &"an integer that fits i64"))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::PackedByteArray(v.to_vec()))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::PackedByteArray(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<Value>()? {
            items.push(v);
        }
        Ok(Value::array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(entry) = map.next_entry::<Value, Value>()? {
            entries.push(entry);
        }
        Ok(Value::dictionary(entries))
    }
}

/// A [`ValueBuilder`] that also records where each value lies ([`Build::located`]).
#[derive(Default)]
pub(crate) struct LocatingBuilder {
    inner: ValueBuilder,
}

fn leaf(v: Value) -> (Value, Loc) {
    (v, Loc::default())
}

impl Build for LocatingBuilder {
    type Value = (Value, Loc);
    type Array = (Array, Vec<Loc>);
    type Dictionary = (DictionaryInProgress, Vec<Loc>);
    type Object = (Object, Vec<Loc>);
    type Strings = Vec<String>;

    const LOCATES: bool = true;

    fn located(&mut self, mut value: (Value, Loc), start: usize, _end: usize) -> (Value, Loc) {
        value.1.start = start;
        value
    }

    fn configure(&mut self, opts: &crate::Options) {
        self.inner.configure(opts);
    }
    fn nil(&mut self) -> (Value, Loc) {
        leaf(self.inner.nil())
    }
    fn bool(&mut self, v: bool) -> (Value, Loc) {
        leaf(self.inner.bool(v))
    }
    fn int(&mut self, v: i64) -> (Value, Loc) {
        leaf(self.inner.int(v))
    }
    fn float(&mut self, v: f64) -> (Value, Loc) {
        leaf(self.inner.float(v))
    }
    fn string(&mut self, s: &str) -> (Value, Loc) {
        leaf(self.inner.string(s))
    }
    fn string_name(&mut self, s: &str) -> (Value, Loc) {
        leaf(self.inner.string_name(s))
    }
    fn real(&mut self, ty: RealType, c: crate::real::WireReals<'_>) -> (Value, Loc) {
        leaf(self.inner.real(ty, c))
    }
    fn int_vector(&mut self, ty: IntVectorType, c: &[i32]) -> (Value, Loc) {
        leaf(self.inner.int_vector(ty, c))
    }
    fn color(&mut self, rgba: [f32; 4]) -> (Value, Loc) {
        leaf(self.inner.color(rgba))
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> (Value, Loc) {
        leaf(self.inner.node_path(names, subnames, absolute))
    }
    fn rid(&mut self, id: u64) -> (Value, Loc) {
        leaf(self.inner.rid(id))
    }
    fn object_id(&mut self, id: u64) -> (Value, Loc) {
        leaf(self.inner.object_id(id))
    }
    fn null_object(&mut self) -> (Value, Loc) {
        leaf(self.inner.null_object())
    }
    fn callable(&mut self) -> (Value, Loc) {
        leaf(self.inner.callable())
    }
    fn signal(&mut self, name: &str, object_id: u64) -> (Value, Loc) {
        leaf(self.inner.signal(name, object_id))
    }
    fn packed_bytes(&mut self, bytes: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_bytes(bytes))
    }
    fn packed_i32(&mut self, raw: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_i32(raw))
    }
    fn packed_i64(&mut self, raw: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_i64(raw))
    }
    fn packed_f32(&mut self, raw: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_f32(raw))
    }
    fn packed_f64(&mut self, raw: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_f64(raw))
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> (Value, Loc) {
        leaf(self.inner.packed_vectors(ty, raw, wide))
    }
    fn packed_colors(&mut self, raw: &[u8]) -> (Value, Loc) {
        leaf(self.inner.packed_colors(raw))
    }
    fn begin_strings(&mut self, capacity: usize) -> Vec<String> {
        self.inner.begin_strings(capacity)
    }
    fn push_string(&mut self, strings: &mut Vec<String>, s: &str) {
        self.inner.push_string(strings, s);
    }
    fn end_strings(&mut self, strings: Vec<String>) -> (Value, Loc) {
        leaf(self.inner.end_strings(strings))
    }

    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> Result<(Array, Vec<Loc>), DecodeReason> {
        Ok((
            self.inner.begin_array(element, capacity, claimed)?,
            Vec::new(),
        ))
    }
    fn push(&mut self, array: &mut (Array, Vec<Loc>), v: (Value, Loc)) -> Result<(), DecodeReason> {
        let before = array.0.items.len();
        self.inner.push(&mut array.0, v.0)?;
        // A typed Array drops what it cannot convert: keep the locations aligned.
        if array.0.items.len() > before {
            array.1.push(v.1);
        }
        Ok(())
    }
    fn end_array(&mut self, array: (Array, Vec<Loc>)) -> (Value, Loc) {
        (
            self.inner.end_array(array.0),
            Loc {
                start: 0,
                children: array.1,
            },
        )
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> Result<(DictionaryInProgress, Vec<Loc>), DecodeReason> {
        Ok((
            self.inner.begin_dictionary(key, value, capacity, claimed)?,
            Vec::new(),
        ))
    }
    fn insert(
        &mut self,
        dict: &mut (DictionaryInProgress, Vec<Loc>),
        key: (Value, Loc),
        value: (Value, Loc),
    ) -> Result<(), DecodeReason> {
        self.inner.insert(&mut dict.0, key.0, value.0)?;
        dict.1.push(value.1);
        Ok(())
    }
    fn end_dictionary(&mut self, dict: (DictionaryInProgress, Vec<Loc>)) -> (Value, Loc) {
        let v = self.inner.end_dictionary(dict.0);
        // Merged or dropped keys: the locations no longer line up, so none are given.
        let children = match &v {
            Value::Dictionary(d) if d.entries.len() == dict.1.len() => dict.1,
            _ => Vec::new(),
        };
        (v, Loc { start: 0, children })
    }
    fn check_class(&mut self, class: &str) -> Result<(), DecodeReason> {
        self.inner.check_class(class)
    }
    fn begin_object(&mut self, class: &str) -> Result<(Object, Vec<Loc>), DecodeReason> {
        Ok((self.inner.begin_object(class)?, Vec::new()))
    }
    fn set_property(
        &mut self,
        object: &mut (Object, Vec<Loc>),
        name: &str,
        value: (Value, Loc),
    ) -> Result<(), DecodeReason> {
        self.inner.set_property(&mut object.0, name, value.0)?;
        object.1.push(value.1);
        Ok(())
    }
    fn end_object(&mut self, object: (Object, Vec<Loc>)) -> Result<(Value, Loc), DecodeReason> {
        Ok((
            self.inner.end_object(object.0)?,
            Loc {
                start: 0,
                children: object.1,
            },
        ))
    }
}

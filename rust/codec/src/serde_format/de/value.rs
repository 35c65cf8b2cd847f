//! [`Value`] to `Deserialize` types (`from_value`, and the values the byte deserializer builds
//! whole: objects, math types, NodePaths, packed arrays), and `Deserialize` for [`Value`].

use std::cell::RefCell;
use std::fmt;

use ::serde::de::value::StringDeserializer;
use ::serde::de::{
    self, Deserialize, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};

use super::super::error::{Error, Segment};
use super::super::RAW_VALUE_TOKEN;
use crate::value::Value;

thread_local! {
    /// The value a deserializer of this format hands to `Value`'s visitor (see
    /// [`RAW_VALUE_TOKEN`]).
    static STASH: RefCell<Option<Value>> = const { RefCell::new(None) };
}

/// Deserializes `T` from a [`Value`] (see the module's mapping).
pub(crate) struct ValueDeserializer {
    value: Value,
}

impl ValueDeserializer {
    /// A deserializer of `value`; its errors carry paths but no byte offsets (a [`Value`] has
    /// none: the byte deserializer adds the offset of the value it built).
    pub(crate) fn new(value: Value) -> Self {
        ValueDeserializer { value }
    }
}

pub(crate) fn unexpected(v: &Value) -> Unexpected<'_> {
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

pub(crate) fn key_segment(key: &Value) -> Segment {
    match key {
        Value::String(s) | Value::StringName(s) => Segment::Field(s.to_string()),
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

impl ValueDeserializer {
    fn any<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let seq = |items: Vec<Value>, visitor: V| visitor.visit_seq(Seq::new(items));
        match self.value {
            Value::Nil | Value::Callable => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::String(s) | Value::StringName(s) => visitor.visit_str(&s),
            Value::Vector2(c) => seq(reals(c), visitor),
            Value::Vector2i(c) => seq(ints(c), visitor),
            Value::Rect2(c) | Value::Vector4(c) | Value::Plane(c) | Value::Quaternion(c) => {
                seq(reals(*c), visitor)
            }
            Value::Rect2i(c) | Value::Vector4i(c) => seq(ints(c), visitor),
            Value::Vector3(c) => seq(reals(c), visitor),
            Value::Vector3i(c) => seq(ints(c), visitor),
            Value::Transform2D(c) | Value::Aabb(c) => seq(reals(*c), visitor),
            Value::Basis(c) => seq(reals(*c), visitor),
            Value::Transform3D(c) => seq(reals(*c), visitor),
            Value::Projection(c) => seq(reals(*c), visitor),
            Value::Color(c) => seq(floats32(c), visitor),
            Value::NodePath(p) => visitor.visit_string(p.to_string()),
            Value::Rid(id) | Value::ObjectId(id) => visitor.visit_u64(id),
            Value::Signal { name, .. } => visitor.visit_str(&name),
            Value::Object(mut o) => visitor.visit_map(Map::new(
                std::mem::take(&mut o.properties)
                    .into_iter()
                    .map(|(k, v)| (Value::String(k.into()), v))
                    .collect(),
            )),
            Value::Dictionary(d) => visitor.visit_map(Map::new((*d).into_entries())),
            Value::Array(mut a) => visitor.visit_seq(Seq::new(std::mem::take(&mut a.items))),
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
        match self.value {
            Value::String(variant) | Value::StringName(variant) => visitor.visit_enum(Enum {
                variant: variant.into_string(),
                content: None,
            }),
            Value::Dictionary(d) if d.len() == 1 => {
                let mut entries = (*d).into_entries();
                match entries.pop() {
                    Some((Value::String(variant) | Value::StringName(variant), content)) => visitor
                        .visit_enum(Enum {
                            variant: variant.into_string(),
                            content: Some(content),
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

impl<'de> de::Deserializer<'de> for ValueDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Nil => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE_TOKEN {
            return pass_value(self.value, visitor);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.enumeration(visitor)
    }

    /// A PackedByteArray is bytes to `deserialize_any` (`serde_bytes`), and a sequence of
    /// ints to a `Vec<u8>`.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::PackedByteArray(b) => visitor.visit_seq(Seq::new(
                b.into_iter().map(|x| Value::Int(x.into())).collect(),
            )),
            _ => self.any(visitor),
        }
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

/// Hands `value` to `Value`'s own visitor (see [`RAW_VALUE_TOKEN`]): through [`STASH`], as
/// serde's data model has no way to carry it.
pub(crate) fn pass_value<'de, V: Visitor<'de>>(
    value: Value,
    visitor: V,
) -> Result<V::Value, Error> {
    STASH.with(|s| *s.borrow_mut() = Some(value));
    let res = visitor.visit_unit();
    STASH.with(|s| s.borrow_mut().take());
    res
}

struct Seq {
    items: std::vec::IntoIter<Value>,
    index: usize,
}

impl Seq {
    fn new(items: Vec<Value>) -> Self {
        Seq {
            items: items.into_iter(),
            index: 0,
        }
    }
}

impl<'de> SeqAccess<'de> for Seq {
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
        // Each level of nesting on a stack with room for it (`crate::stack`).
        crate::stack::guard(|| seed.deserialize(ValueDeserializer::new(value)))
            .map(Some)
            .map_err(|e| e.within(Segment::Index(i)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map {
    entries: std::vec::IntoIter<(Value, Value)>,
    pending: Option<(Value, Segment)>,
}

impl Map {
    fn new(entries: Vec<(Value, Value)>) -> Self {
        Map {
            entries: entries.into_iter(),
            pending: None,
        }
    }
}

impl<'de> MapAccess<'de> for Map {
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
        crate::stack::guard(|| seed.deserialize(ValueDeserializer::new(key))).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (value, seg) = self
            .pending
            .take()
            .ok_or_else(|| Error::message("next_value_seed called before next_key_seed"))?;
        crate::stack::guard(|| seed.deserialize(ValueDeserializer::new(value)))
            .map_err(|e| e.within(seg))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct Enum {
    variant: String,
    content: Option<Value>,
}

impl<'de> EnumAccess<'de> for Enum {
    type Error = Error;
    type Variant = Variant;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Variant), Error> {
        let d: StringDeserializer<Error> = self.variant.clone().into_deserializer();
        let name = seed.deserialize(d)?;
        Ok((
            name,
            Variant {
                name: self.variant,
                content: self.content,
            },
        ))
    }
}

struct Variant {
    name: String,
    content: Option<Value>,
}

impl Variant {
    fn content(self, expected: &str) -> Result<(ValueDeserializer, Segment), Error> {
        match self.content {
            Some(value) => Ok((ValueDeserializer::new(value), Segment::Field(self.name))),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &expected)),
        }
    }
}

impl<'de> VariantAccess<'de> for Variant {
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
    /// With this format, the value itself; with other formats, from plain
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
        Ok(Value::String(v.into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v.into()))
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

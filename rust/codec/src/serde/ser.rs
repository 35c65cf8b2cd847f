//! `Serialize` types to [`Value`], and `Serialize` for [`Value`].

use std::cell::RefCell;

use ::serde::ser::{self, Serialize};

use super::error::{Error, Segment};
use super::RAW_VALUE_TOKEN;
use crate::value::Value;

thread_local! {
    /// Set while [`Serializer`] asks a [`Value`] for itself (see [`RAW_VALUE_TOKEN`]): the
    /// value puts a clone here instead of serializing as plain data.
    static CAPTURE: RefCell<Option<Option<Value>>> = const { RefCell::new(None) };
}

/// Serializes into a [`Value`] (see the module's mapping). [`super::to_value`] uses it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serializer;

fn int<T: TryInto<i64> + std::fmt::Display + Copy>(v: T) -> Result<Value, Error> {
    v.try_into()
        .map(Value::Int)
        .map_err(|_| Error::message(format!("integer {v} does not fit Godot's 64-bit int")))
}

fn key_segment(key: &Value) -> Segment {
    match key {
        Value::String(s) => Segment::Field(s.clone()),
        Value::Int(i) => Segment::Key(i.to_string()),
        other => Segment::Key(other.variant_type().name().to_string()),
    }
}

fn one_entry(name: &str, content: Value) -> Value {
    Value::dictionary(vec![(Value::String(name.to_owned()), content)])
}

impl ser::Serializer for Serializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = SeqSerializer;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = MapSerializer;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::Int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, Error> {
        int(v)
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(Value::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        int(v)
    }
    fn serialize_u128(self, v: u128) -> Result<Value, Error> {
        int(v)
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        Ok(Value::Float(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(Value::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        Ok(Value::PackedByteArray(v.to_vec()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Nil)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Nil)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        if name == RAW_VALUE_TOKEN {
            let previous = CAPTURE.with(|c| c.replace(Some(None)));
            let res = value.serialize(self);
            let captured = CAPTURE.with(|c| c.replace(previous)).flatten();
            return match (res, captured) {
                (Err(e), _) => Err(e),
                (Ok(_), Some(v)) => Ok(v),
                (Ok(v), None) => Ok(v),
            };
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        let content = value
            .serialize(self)
            .map_err(|e| e.within(Segment::Field(variant.to_owned())))?;
        Ok(one_entry(variant, content))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer, Error> {
        Ok(SeqSerializer {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, Error> {
        let mut s = self.serialize_seq(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapSerializer, Error> {
        Ok(MapSerializer {
            entries: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapSerializer, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapSerializer, Error> {
        let mut s = self.serialize_map(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
}

/// Arrays (sequences, tuples, and the content of tuple variants).
pub struct SeqSerializer {
    items: Vec<Value>,
    variant: Option<&'static str>,
}

impl SeqSerializer {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        // Each level of nesting on a stack with room for it (`crate::stack`).
        let v = crate::stack::guard(|| value.serialize(Serializer)).map_err(|e| {
            let e = e.within(Segment::Index(self.items.len()));
            match self.variant {
                Some(name) => e.within(Segment::Field(name.to_owned())),
                None => e,
            }
        })?;
        self.items.push(v);
        Ok(())
    }
    fn finish(self) -> Value {
        let array = Value::array(self.items);
        match self.variant {
            Some(name) => one_entry(name, array),
            None => array,
        }
    }
}

impl ser::SerializeSeq for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleStruct for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

/// Dictionaries (maps, structs, and the content of struct variants).
pub struct MapSerializer {
    entries: Vec<(Value, Value)>,
    key: Option<Value>,
    variant: Option<&'static str>,
}

impl MapSerializer {
    fn in_variant(&self, e: Error) -> Error {
        match self.variant {
            Some(name) => e.within(Segment::Field(name.to_owned())),
            None => e,
        }
    }
    fn entry<T: Serialize + ?Sized>(&mut self, key: Value, value: &T) -> Result<(), Error> {
        let v = crate::stack::guard(|| value.serialize(Serializer))
            .map_err(|e| self.in_variant(e.within(key_segment(&key))))?;
        self.entries.push((key, v));
        Ok(())
    }
    fn finish(self) -> Value {
        let dict = Value::dictionary(self.entries);
        match self.variant {
            Some(name) => one_entry(name, dict),
            None => dict,
        }
    }
}

impl ser::SerializeMap for MapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(crate::stack::guard(|| key.serialize(Serializer))?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::message("serialize_value called before serialize_key"))?;
        self.entry(key, value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.entry(Value::String(key.to_owned()), value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for MapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.entry(Value::String(key.to_owned()), value)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(self.finish())
    }
}

/// A [`Value`] under [`RAW_VALUE_TOKEN`]: itself for [`Serializer`], plain data for others.
struct Raw<'a>(&'a Value);

impl Serialize for Raw<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let captured = CAPTURE.with(|c| {
            let mut c = c.borrow_mut();
            match c.as_mut() {
                Some(slot @ None) => {
                    *slot = Some(self.0.clone());
                    true
                }
                _ => false,
            }
        });
        if captured {
            return s.serialize_unit();
        }
        plain(self.0, s)
    }
}

impl Serialize for Value {
    /// With this crate's [`Serializer`], the value itself; with other formats, plain data:
    /// null, bool, int, float, strings, arrays and maps as such, a PackedByteArray as bytes,
    /// math types and packed arrays as arrays of components in wire order, a NodePath as its
    /// text, RID and object ids as integers, objects as maps of their properties.
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(RAW_VALUE_TOKEN, &Raw(self))
    }
}

fn plain<S: ser::Serializer>(v: &Value, s: S) -> Result<S::Ok, S::Error> {
    use ser::{SerializeMap, SerializeSeq};
    match v {
        Value::Nil | Value::Callable => s.serialize_unit(),
        Value::Bool(b) => s.serialize_bool(*b),
        Value::Int(i) => s.serialize_i64(*i),
        Value::Float(f) => s.serialize_f64(*f),
        Value::String(t) | Value::StringName(t) => s.serialize_str(t),
        Value::Vector2(c) => c.serialize(s),
        Value::Vector2i(c) => c.serialize(s),
        Value::Rect2(c) | Value::Vector4(c) | Value::Plane(c) | Value::Quaternion(c) => {
            c.serialize(s)
        }
        Value::Rect2i(c) | Value::Vector4i(c) => c.serialize(s),
        Value::Vector3(c) => c.serialize(s),
        Value::Vector3i(c) => c.serialize(s),
        Value::Transform2D(c) | Value::Aabb(c) => c.serialize(s),
        Value::Basis(c) => c.serialize(s),
        Value::Transform3D(c) => c.serialize(s),
        Value::Projection(c) => c.serialize(s),
        Value::Color(c) => c.serialize(s),
        Value::NodePath(p) => s.serialize_str(&p.to_string()),
        Value::Rid(id) | Value::ObjectId(id) => s.serialize_u64(*id),
        Value::Signal { name, .. } => s.serialize_str(name),
        Value::Object(o) => {
            let mut m = s.serialize_map(Some(o.properties.len()))?;
            for (k, p) in &o.properties {
                m.serialize_entry(k, p)?;
            }
            m.end()
        }
        Value::Dictionary(d) => {
            let mut m = s.serialize_map(Some(d.entries.len()))?;
            for (k, p) in &d.entries {
                m.serialize_entry(k, p)?;
            }
            m.end()
        }
        Value::Array(a) => {
            let mut q = s.serialize_seq(Some(a.items.len()))?;
            for item in &a.items {
                q.serialize_element(item)?;
            }
            q.end()
        }
        Value::PackedByteArray(b) => s.serialize_bytes(b),
        Value::PackedInt32Array(x) => x.serialize(s),
        Value::PackedInt64Array(x) => x.serialize(s),
        Value::PackedFloat32Array(x) => x.serialize(s),
        Value::PackedFloat64Array(x) => x.serialize(s),
        Value::PackedStringArray(x) => x.serialize(s),
        Value::PackedVector2Array(x) => x.serialize(s),
        Value::PackedVector3Array(x) => x.serialize(s),
        Value::PackedVector4Array(x) => x.serialize(s),
        Value::PackedColorArray(x) => x.serialize(s),
    }
}

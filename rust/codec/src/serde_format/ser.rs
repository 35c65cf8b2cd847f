//! `Serialize` types written as Godot's encoding as they go (see the module's mapping), and
//! `Serialize` for [`Value`].
//!
//! Each serde call becomes one call of the [`Writer`], so the format's rules (widths, padding,
//! depth, dialects) stay the writer's. A sequence or map whose length serde does not give (an
//! iterator without an exact size, `#[serde(flatten)]`) is begun with a placeholder count that
//! is written over when it ends ([`Writer::set_count`]): the cost is one 4-byte write, and the
//! bytes are the engine's.

use std::cell::RefCell;

use ::serde::ser::{self, Serialize};

use super::error::{Error, Segment};
use super::RAW_VALUE_TOKEN;
use crate::sink::PatchSink;
use crate::types::ContainerType;
use crate::value::{write_value, Value};
use crate::writer::{CountSlot, Writer};
use crate::CodecError;

thread_local! {
    /// Set while the serializer asks a [`Value`] for itself (see [`RAW_VALUE_TOKEN`]): the
    /// value puts a clone here instead of serializing as plain data.
    static CAPTURE: RefCell<Option<Option<Value>>> = const { RefCell::new(None) };
}

/// Writes serde's data model into a [`Writer`].
pub(crate) struct Serializer<'w, 'o, S: PatchSink> {
    w: &'w mut Writer<'o, S>,
    /// Set while a [`Value`] hands itself over (see [`RAW_VALUE_TOKEN`]): the unit it then
    /// serializes is a placeholder, not a null.
    capturing: bool,
}

impl<'w, 'o, S: PatchSink> Serializer<'w, 'o, S> {
    pub(crate) fn new(w: &'w mut Writer<'o, S>) -> Self {
        Serializer {
            w,
            capturing: false,
        }
    }
}

impl<'o, S: PatchSink> Serializer<'_, 'o, S> {
    /// An int: the writer's common case inline, the rest (64-bit, errors) out of line.
    #[inline(always)]
    fn int(&mut self, v: i64) -> Result<(), Error> {
        if self.w.try_int(v) {
            return Ok(());
        }
        self.rest(|w| w.int(v))
    }

    /// A scalar the writer's `try_*` did not write: out of the loops that inline the common
    /// case, so that they stay small.
    #[cold]
    #[inline(never)]
    fn rest(
        &mut self,
        write: impl FnOnce(&mut Writer<'o, S>) -> Result<(), CodecError>,
    ) -> Result<(), Error> {
        write(self.w).map_err(codec)
    }
}

fn int<T: TryInto<i64> + std::fmt::Display + Copy>(v: T) -> Result<i64, Error> {
    v.try_into()
        .map_err(|_| Error::message(format!("integer {v} does not fit Godot's 64-bit int")))
}

/// A writer error as a serde error (its path is added by the containers it travels through).
fn codec(e: CodecError) -> Error {
    Error::from(e)
}

impl<'a, 'w, 'o, S: PatchSink> ser::Serializer for &'a mut Serializer<'w, 'o, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'w, 'o, S>;
    type SerializeTuple = Compound<'a, 'w, 'o, S>;
    type SerializeTupleStruct = Compound<'a, 'w, 'o, S>;
    type SerializeTupleVariant = Compound<'a, 'w, 'o, S>;
    type SerializeMap = Compound<'a, 'w, 'o, S>;
    type SerializeStruct = Fields<'a, 'w, 'o, S>;
    type SerializeStructVariant = Compound<'a, 'w, 'o, S>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        if self.w.try_bool(v) {
            return Ok(());
        }
        self.rest(|w| w.bool(v))
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.w.int(int(v)?).map_err(codec)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.w.int(int(v)?).map_err(codec)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.w.int(int(v)?).map_err(codec)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if self.w.try_float_f32(v) {
            return Ok(());
        }
        self.rest(|w| w.float(v.into()))
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.w.float(v).map_err(codec)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.w.string(v.encode_utf8(&mut [0; 4])).map_err(codec)
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.w.string(v).map_err(codec)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.w.packed_bytes(v).map_err(codec)
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.w.nil().map_err(codec)
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        if std::mem::take(&mut self.capturing) {
            return Ok(());
        }
        self.w.nil().map_err(codec)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.w.nil().map_err(codec)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.w.string(variant).map_err(codec)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if name == RAW_VALUE_TOKEN {
            let previous = CAPTURE.with(|c| c.replace(Some(None)));
            self.capturing = true;
            let res = value.serialize(&mut *self);
            self.capturing = false;
            let captured = CAPTURE.with(|c| c.replace(previous)).flatten();
            return match (res, captured) {
                (Err(e), _) => Err(e),
                (Ok(()), Some(v)) => write_value(self.w, &v).map_err(codec),
                (Ok(()), None) => Ok(()),
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
    ) -> Result<(), Error> {
        let untyped = ContainerType::Untyped;
        self.w
            .begin_dictionary(&untyped, &untyped, 1)
            .map_err(codec)?;
        self.w.string(variant).map_err(codec)?;
        nested(|| value.serialize(&mut *self))
            .map_err(|e| e.within(Segment::Field(variant.to_owned())))?;
        self.w.end_dictionary();
        Ok(())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::array(self, len, None)
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::array(self, Some(len), None)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::array(self, Some(len), None)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::array(self, Some(len), Some(variant))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::dictionary(self, len, None)
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Fields<'a, 'w, 'o, S>, Error> {
        Fields::begin(self, len)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w, 'o, S>, Error> {
        Compound::dictionary(self, Some(len), Some(variant))
    }
}

/// Serializes one value inside a container: on a stack with room for it (`crate::stack`).
fn nested<R>(f: impl FnOnce() -> R) -> R {
    crate::stack::guard(f)
}

/// Serializes one value inside a container: where it is when the container began with room
/// (`guarded` false), else through [`nested`]. The value's `serialize` is called directly, not
/// through a closure shared by both cases, so that a scalar's is inlined into the loop of its
/// container.
#[inline(always)]
fn inside<T: Serialize + ?Sized, S: PatchSink>(
    guarded: bool,
    ser: &mut Serializer<'_, '_, S>,
    value: &T,
) -> Result<(), Error> {
    if guarded {
        nested(|| value.serialize(&mut *ser))
    } else {
        value.serialize(ser)
    }
}

/// Serializes the top value of a walk: the stack is measured once here, so that the containers
/// inside find room without measuring again (`crate::stack::has_room`).
pub(crate) fn top<R>(f: impl FnOnce() -> R) -> R {
    crate::stack::guard(f)
}

/// The count a container declared, or the slot of one whose count is written at its end.
enum Count {
    Declared(usize),
    Unsized(CountSlot),
}

/// An Array or Dictionary being written (sequences, tuples, maps, structs, and the content of
/// tuple and struct variants, which sits in a one-entry Dictionary).
pub(crate) struct Compound<'a, 'w, 'o, S: PatchSink> {
    ser: &'a mut Serializer<'w, 'o, S>,
    count: Count,
    /// Elements or entries written so far.
    written: usize,
    /// The enclosing variant, for a tuple or struct variant.
    variant: Option<&'static str>,
    /// Where the key of the entry being written starts in the output (maps).
    key_at: usize,
    dictionary: bool,
    /// The container began with little stack left (or on a stack no guard measured): each
    /// value inside is serialized through a guard, which moves to a fresh segment if needed.
    /// Otherwise they run where they are, and those that are containers check again.
    guarded: bool,
}

impl<'a, 'w, 'o, S: PatchSink> Compound<'a, 'w, 'o, S> {
    fn begin(
        ser: &'a mut Serializer<'w, 'o, S>,
        len: Option<usize>,
        variant: Option<&'static str>,
        dictionary: bool,
    ) -> Result<Self, Error> {
        let untyped = ContainerType::Untyped;
        if let Some(name) = variant {
            ser.w
                .begin_dictionary(&untyped, &untyped, 1)
                .map_err(codec)?;
            ser.w.string(name).map_err(codec)?;
        }
        let count = match (len, dictionary) {
            (Some(n), false) => {
                ser.w.begin_array(&untyped, n).map_err(codec)?;
                Count::Declared(n)
            }
            (Some(n), true) => {
                ser.w
                    .begin_dictionary(&untyped, &untyped, n)
                    .map_err(codec)?;
                Count::Declared(n)
            }
            (None, false) => Count::Unsized(ser.w.begin_array_unsized().map_err(codec)?),
            (None, true) => Count::Unsized(ser.w.begin_dictionary_unsized().map_err(codec)?),
        };
        Ok(Compound {
            ser,
            count,
            written: 0,
            variant,
            key_at: 0,
            dictionary,
            guarded: !crate::stack::has_room(),
        })
    }

    fn array(
        ser: &'a mut Serializer<'w, 'o, S>,
        len: Option<usize>,
        variant: Option<&'static str>,
    ) -> Result<Self, Error> {
        Self::begin(ser, len, variant, false)
    }

    fn dictionary(
        ser: &'a mut Serializer<'w, 'o, S>,
        len: Option<usize>,
        variant: Option<&'static str>,
    ) -> Result<Self, Error> {
        Self::begin(ser, len, variant, true)
    }

    /// An error from inside, with the enclosing variant's name added.
    fn in_variant(&self, e: Error) -> Error {
        match self.variant {
            Some(name) => e.within(Segment::Field(name.to_owned())),
            None => e,
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if let Err(e) = inside(self.guarded, self.ser, value) {
            return Err(self.element_error(e));
        }
        self.written += 1;
        Ok(())
    }

    /// An element's error, with its index and the enclosing variant.
    #[cold]
    #[inline(never)]
    fn element_error(&self, e: Error) -> Error {
        self.in_variant(e.within(Segment::Index(self.written)))
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Error> {
        self.ser.w.string(name).map_err(codec)?;
        inside(self.guarded, self.ser, value)
            .map_err(|e| self.in_variant(e.within(Segment::Field(name.to_owned()))))?;
        self.written += 1;
        Ok(())
    }

    #[inline]
    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key_at = self.ser.w.sink().written();
        inside(self.guarded, self.ser, key).map_err(|e| self.in_variant(e))
    }

    #[inline]
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key_at = self.key_at;
        inside(self.guarded, self.ser, value).map_err(|e| {
            let key = key_label(self.ser.w.sink(), key_at, self.ser.w.options());
            self.in_variant(e.within(key))
        })?;
        self.written += 1;
        Ok(())
    }

    fn end(self) -> Result<(), Error> {
        match self.count {
            Count::Declared(n) if n != self.written => {
                let what = if self.dictionary {
                    "entries"
                } else {
                    "elements"
                };
                return Err(self.in_variant(miscounted(self.written, what, n)));
            }
            Count::Declared(_) => {}
            Count::Unsized(slot) => self.ser.w.set_count(slot, self.written).map_err(codec)?,
        }
        if self.dictionary {
            self.ser.w.end_dictionary();
        } else {
            self.ser.w.end_array();
        }
        if self.variant.is_some() {
            self.ser.w.end_dictionary();
        }
        Ok(())
    }
}

/// A container that received another number of values than it declared.
fn miscounted(written: usize, what: &str, declared: usize) -> Error {
    Error::message(format!(
        "serialized {written} {what} where {declared} were declared"
    ))
}

/// A struct's fields, written as a Dictionary with String keys. The hot case of every derived
/// type, kept apart from [`Compound`]: its count is always declared and its keys are the
/// fields' names, so it carries no patch slot, variant or key position.
pub(crate) struct Fields<'a, 'w, 'o, S: PatchSink> {
    ser: &'a mut Serializer<'w, 'o, S>,
    declared: usize,
    written: usize,
    /// As [`Compound`]'s.
    guarded: bool,
}

impl<'a, 'w, 'o, S: PatchSink> Fields<'a, 'w, 'o, S> {
    #[inline]
    fn begin(ser: &'a mut Serializer<'w, 'o, S>, declared: usize) -> Result<Self, Error> {
        ser.w.begin_untyped_dictionary(declared).map_err(codec)?;
        Ok(Fields {
            ser,
            declared,
            written: 0,
            guarded: !crate::stack::has_room(),
        })
    }
}

impl<S: PatchSink> ser::SerializeStruct for Fields<'_, '_, '_, S> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.ser.w.string(key).map_err(codec)?;
        inside(self.guarded, self.ser, value)
            .map_err(|e| e.within(Segment::Field(key.to_owned())))?;
        self.written += 1;
        Ok(())
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        if self.written != self.declared {
            return Err(miscounted(self.written, "entries", self.declared));
        }
        self.ser.w.end_dictionary();
        Ok(())
    }
}

/// The path step of the map key written at `at`, read back from the output (only when an
/// error needs it): `.name` for a String, its digits for an int, else its type.
fn key_label<S: PatchSink>(out: &S, at: usize, opts: &crate::Options) -> Segment {
    let bytes = out.bytes_from(at);
    match crate::decode(bytes, opts) {
        Ok((Value::String(s), _)) | Ok((Value::StringName(s), _)) => {
            Segment::Field(s.into_string())
        }
        Ok((Value::Int(i), _)) => Segment::Key(i.to_string()),
        Ok((other, _)) => Segment::Key(other.variant_type().name().to_string()),
        Err(_) => Segment::Key("?".into()),
    }
}

macro_rules! compound {
    ($($trait:ident { $($body:tt)* })*) => {$(
        impl<S: PatchSink> ser::$trait for Compound<'_, '_, '_, S> {
            type Ok = ();
            type Error = Error;
            $($body)*
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

compound! {
    SerializeSeq {
        #[inline]
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
    }
    SerializeTuple {
        #[inline]
        fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
    }
    SerializeTupleStruct {
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
    }
    SerializeTupleVariant {
        fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.element(value)
        }
    }
    SerializeMap {
        #[inline]
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
            self.key(key)
        }
        #[inline]
        fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.value(value)
        }
    }
    SerializeStructVariant {
        fn serialize_field<T: Serialize + ?Sized>(
            &mut self,
            key: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            self.field(key, value)
        }
    }
}

/// A [`Value`] under [`RAW_VALUE_TOKEN`]: itself for this format, plain data for others.
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
    /// With this format, the value itself; with other formats, plain data:
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

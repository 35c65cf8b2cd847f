//! Godot's encoding to `Deserialize` types, read straight from the bytes (see the module's
//! mapping).
//!
//! The reader's own methods read and check every part (`reader::pull`), so a value is refused
//! exactly where a decode refuses it. Scalars, Strings (borrowed from the input when they can
//! be), PackedByteArrays, Arrays and Dictionaries are read here as the bytes hold them; the
//! values the model gives more meaning (objects, with the object policy; math types, NodePaths,
//! packed arrays, Pandemonium's containers) are built whole as a [`Value`] and read from it
//! ([`value::ValueDeserializer`]), which is also what `from_value` uses.

mod value;

use std::borrow::Cow;

use ::serde::de::{
    self, DeserializeSeed, Deserializer as _, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};

use super::error::{Error, Segment};
use super::RAW_VALUE_TOKEN;
use crate::dialect::WireKind;
use crate::limits::Options;
use crate::reader::{Head, Reader};
use crate::types::VariantType;
use crate::value::{Value, ValueBuilder};
pub(crate) use value::ValueDeserializer;
use value::{key_segment, pass_value, unexpected};

/// Reads `Deserialize` types from Godot's encoding of one value, in the dialect and with the
/// limits and object policy of its [`Options`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::serde_format::{to_bytes, Deserializer};
/// use fast_var_codec_core::Options;
/// use serde::Deserialize;
///
/// let opts = Options::default();
/// let bytes = to_bytes(&("hi", 7), &opts)?;
/// let mut de = Deserializer::from_bytes(&bytes, &opts);
/// let (text, n): (&str, i64) = Deserialize::deserialize(&mut de)?; // the text is borrowed
/// assert_eq!((text, n, de.position()), ("hi", 7, bytes.len()));
/// # Ok::<(), fast_var_codec_core::serde_format::Error>(())
/// ```
pub struct Deserializer<'de, 'o> {
    r: Reader<'de, 'o>,
    /// The nesting depth of the next value.
    depth: usize,
}

impl<'de, 'o> Deserializer<'de, 'o> {
    /// A deserializer of the value at the start of `bytes` (bytes after it are left unread).
    pub fn from_bytes(bytes: &'de [u8], opts: &'o Options) -> Self {
        Deserializer {
            r: Reader::pull(bytes, opts),
            depth: 0,
        }
    }

    /// The offset after what has been read: after a whole value, its size, counting the
    /// padding of a final PackedByteArray even when the input ends without it (as a decode
    /// does).
    pub fn position(&self) -> usize {
        self.r.position()
    }

    #[inline]
    fn head(&mut self) -> Result<Head, Error> {
        Ok(self.r.pull_head(self.depth)?)
    }

    /// The value whose header was read, built whole as a [`Value`].
    fn built(&mut self, head: &Head) -> Result<Value, Error> {
        Ok(self
            .r
            .pull_rest(&mut ValueBuilder::default(), head, self.depth)?)
    }

    /// The value whose header was read, to `visitor`.
    #[inline]
    fn after_head<V: Visitor<'de>>(&mut self, head: Head, visitor: V) -> Result<V::Value, Error> {
        let start = head.start;
        let res = match head.kind {
            WireKind::Type(ty) => match ty {
                VariantType::Nil => visitor.visit_unit(),
                VariantType::Bool => visitor.visit_bool(self.r.pull_bool()?),
                VariantType::Int => visitor.visit_i64(self.r.pull_int(&head)?),
                VariantType::Float => visitor.visit_f64(self.r.pull_float(&head)?),
                VariantType::String | VariantType::StringName => self.visit_text(visitor),
                VariantType::PackedByteArray => visitor.visit_borrowed_bytes(self.r.pull_bytes()?),
                // Each level of nesting on a stack with room for it (`crate::stack`).
                VariantType::Array => {
                    // A typed Array's elements are read as the bytes hold them (a decode into a
                    // Value converts or drops those of another type, as the engine does).
                    let count = self.r.pull_array_count(&head)?;
                    crate::stack::guard(|| self.sequence(count, visitor))
                }
                VariantType::Dictionary => {
                    let count = self.r.pull_dictionary_count(&head)?;
                    crate::stack::guard(|| self.map(count, visitor))
                }
                _ => ValueDeserializer::new(self.built(&head)?).deserialize_any(visitor),
            },
            _ => ValueDeserializer::new(self.built(&head)?).deserialize_any(visitor),
        };
        res.map_err(|e| e.at_offset(Some(start)))
    }

    /// The `count` elements of an Array, to `visitor`; those it leaves are read and dropped.
    fn sequence<V: Visitor<'de>>(&mut self, count: u32, visitor: V) -> Result<V::Value, Error> {
        self.one_level_deeper(|de| {
            let mut access = Elements {
                de,
                left: count,
                index: 0,
            };
            let out = visitor.visit_seq(&mut access)?;
            while access.next_element::<IgnoredAny>()?.is_some() {}
            Ok(out)
        })
    }

    /// The `count` entries of a Dictionary, to `visitor`; those it leaves are read and dropped.
    fn map<V: Visitor<'de>>(&mut self, count: u32, visitor: V) -> Result<V::Value, Error> {
        self.one_level_deeper(|de| {
            let mut access = Entries {
                de,
                left: count,
                key_at: 0,
            };
            let out = visitor.visit_map(&mut access)?;
            while access.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(out)
        })
    }

    /// The values inside a container, one level deeper (the container entered a stack with
    /// room for it): the depth changes once per container, not around each value.
    #[inline]
    fn one_level_deeper<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.depth += 1;
        let res = f(self);
        self.depth -= 1;
        res
    }
}

/// `deserialize_*` methods that read a bool, int or float in place
/// ([`Deserializer::scalar_or_any`]), inlined so that a sequence's loop holds the read rather
/// than a call per element (a fifth of a `Vec<f32>`'s decode).
macro_rules! scalar_or_any {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.scalar_or_any(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let head = self.head()?;
        self.after_head(head, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.r.peek_type() {
            Some(VariantType::Nil) => {
                self.head()?;
                visitor.visit_none()
            }
            // A null object (an id of 0, or no class) is null too.
            Some(VariantType::Object) => {
                let head = self.head()?;
                let v = self.built(&head)?;
                let res = match v {
                    Value::Nil => visitor.visit_none(),
                    v => visitor.visit_some(ValueDeserializer::new(v)),
                };
                res.map_err(|e| e.at_offset(Some(head.start)))
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE_TOKEN {
            let head = self.head()?;
            let v = self.built(&head)?;
            return pass_value(v, visitor).map_err(|e| e.at_offset(Some(head.start)));
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let head = self.head()?;
        let start = head.start;
        let res = match head.kind {
            WireKind::Type(VariantType::String | VariantType::StringName) => {
                let name = self.r.pull_text()?;
                visitor.visit_enum(UnitVariant(name))
            }
            WireKind::Type(VariantType::Dictionary) => {
                let count = self.r.pull_dictionary_count(&head)?;
                self.enum_entry(count, visitor)
            }
            _ => {
                let v = self.built(&head)?;
                Err(de::Error::invalid_type(
                    unexpected(&v),
                    &"an enum variant (a String, or a one-entry Dictionary {name: content})",
                ))
            }
        };
        res.map_err(|e| e.at_offset(Some(start)))
    }

    /// A PackedByteArray is bytes to `deserialize_any` (`serde_bytes`), and a sequence of
    /// ints to a `Vec<u8>`.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.r.peek_type() == Some(VariantType::PackedByteArray) {
            let head = self.head()?;
            let bytes = self.r.pull_bytes()?;
            let res: Result<V::Value, Error> = visitor.visit_seq(ByteInts(bytes.iter()));
            return res.map_err(|e| e.at_offset(Some(head.start)));
        }
        self.deserialize_any(visitor)
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
        let head = self.head()?;
        let res: Result<V::Value, Error> = match head.kind {
            WireKind::Type(VariantType::String | VariantType::StringName) => {
                self.visit_text(visitor)
            }
            WireKind::Type(VariantType::Int) => {
                let i = self.r.pull_int(&head)?;
                visitor.visit_string(i.to_string())
            }
            _ => return self.after_head_out_of_line(head, visitor),
        };
        res.map_err(|e| e.at_offset(Some(head.start)))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.text_or_any(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.text_or_any(visitor)
    }

    // Numbers and bools where one is expected: read in place (the usual struct field, the
    // elements of a `Vec<f32>`), anything else as `deserialize_any` reads it.
    scalar_or_any! {
        deserialize_bool deserialize_i32 deserialize_i64 deserialize_u32 deserialize_u64
        deserialize_f64
    }

    /// As the other numbers, but a binary32 float (what an `f32` is written as) is handed over
    /// as one, not widened to f64 and narrowed back: a `Vec<f32>` decodes a fifth faster.
    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let head = self.head()?;
        if head.kind == WireKind::Type(VariantType::Float) {
            if let Some(v) = self.r.pull_f32(&head)? {
                return visitor
                    .visit_f32(v)
                    .map_err(|e: Error| e.at_offset(Some(head.start)));
            }
        }
        self.scalar_after_head(head, visitor)
    }

    ::serde::forward_to_deserialize_any! {
        i8 i16 i128 u8 u16 u128 char
        bytes byte_buf unit unit_struct tuple_struct map struct ignored_any
    }
}

impl<'de> Deserializer<'de, '_> {
    /// A bool, int or float handed to `visitor` exactly as [`Deserializer::after_head`] hands
    /// it, read here; any other value through a call to it. Kept small, so that a sequence's
    /// loop compiles with the read inside it (inlining `after_head` here made a `Vec<f32>`
    /// decode half again slower).
    #[inline]
    fn scalar_or_any<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let head = self.head()?;
        self.scalar_after_head(head, visitor)
    }

    /// [`Deserializer::scalar_or_any`] once the header is read.
    #[inline]
    fn scalar_after_head<V: Visitor<'de>>(
        &mut self,
        head: Head,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let res: Result<V::Value, Error> = match head.kind {
            WireKind::Type(VariantType::Float) => visitor.visit_f64(self.r.pull_float(&head)?),
            WireKind::Type(VariantType::Int) => visitor.visit_i64(self.r.pull_int(&head)?),
            WireKind::Type(VariantType::Bool) => visitor.visit_bool(self.r.pull_bool()?),
            _ => return self.after_head_out_of_line(head, visitor),
        };
        res.map_err(|e| e.at_offset(Some(head.start)))
    }

    /// A String or StringName where one is expected (a struct's field names and String
    /// fields) read in place; anything else as `deserialize_any` reads it.
    #[inline]
    fn text_or_any<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let head = self.head()?;
        let res: Result<V::Value, Error> = match head.kind {
            WireKind::Type(VariantType::String | VariantType::StringName) => {
                self.visit_text(visitor)
            }
            _ => return self.after_head_out_of_line(head, visitor),
        };
        res.map_err(|e| e.at_offset(Some(head.start)))
    }

    /// The text after a String's or StringName's header, to `visitor`: borrowed when the bytes
    /// are the text.
    #[inline]
    fn visit_text<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        match self.r.pull_text()? {
            Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
            Cow::Owned(s) => visitor.visit_string(s),
        }
    }

    #[inline(never)]
    fn after_head_out_of_line<V: Visitor<'de>>(
        &mut self,
        head: Head,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.after_head(head, visitor)
    }
}

impl<'de> Deserializer<'de, '_> {
    /// A variant as a one-entry Dictionary `{name: content}` of `count` entries.
    fn enum_entry<V: Visitor<'de>>(&mut self, count: u32, visitor: V) -> Result<V::Value, Error> {
        let not_one = || {
            de::Error::custom(
                "an enum variant is a String or a one-entry Dictionary with a String key",
            )
        };
        if count != 1 {
            return Err(not_one());
        }
        self.r.pull_element()?;
        self.depth += 1;
        let key = self.head();
        self.depth -= 1;
        let key = key?;
        let name = match key.kind {
            WireKind::Type(VariantType::String | VariantType::StringName) => self.r.pull_text()?,
            _ => return Err(not_one()),
        };
        visitor.visit_enum(VariantEntry { de: self, name })
    }
}

/// The elements of an Array, read as serde asks for them.
struct Elements<'a, 'de, 'o> {
    de: &'a mut Deserializer<'de, 'o>,
    left: u32,
    index: usize,
}

impl<'de> SeqAccess<'de> for Elements<'_, 'de, '_> {
    type Error = Error;

    // Inlined into the visitor's loop: a call per element cost a third of a `Vec<f32>` decode.
    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.de.r.pull_element()?;
        let i = self.index;
        self.index += 1;
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| e.within(Segment::Index(i)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.r.plausible(self.left))
    }
}

/// The entries of a Dictionary, read as serde asks for them.
struct Entries<'a, 'de, 'o> {
    de: &'a mut Deserializer<'de, 'o>,
    left: u32,
    /// Where the key of the current entry starts (read again to name it in an error).
    key_at: usize,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.de.r.pull_element()?;
        self.key_at = self.de.r.position();
        // A key that does not fit (an unknown field, say) is the Dictionary's error.
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(Error::without_offset)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let key_at = self.key_at;
        seed.deserialize(&mut *self.de).map_err(|e| {
            let input = self.de.r.input();
            let opts = self.de.r.options();
            let key = input
                .get(key_at..)
                .and_then(|rest| crate::decode(rest, opts).ok());
            match key {
                Some((key, _)) => e.within(key_segment(&key)),
                None => e,
            }
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.r.plausible(self.left))
    }
}

/// A unit variant given as its name.
struct UnitVariant<'de>(Cow<'de, str>);

impl<'de> EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = UnitOnly;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, UnitOnly), Error> {
        let name = match self.0 {
            Cow::Borrowed(s) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(s))
            }
            Cow::Owned(s) => seed.deserialize(IntoDeserializer::<Error>::into_deserializer(s)),
        }?;
        Ok((name, UnitOnly))
    }
}

struct UnitOnly;

impl<'de> VariantAccess<'de> for UnitOnly {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// A variant given as a one-entry Dictionary: its name read, its content next.
struct VariantEntry<'a, 'de, 'o> {
    de: &'a mut Deserializer<'de, 'o>,
    name: Cow<'de, str>,
}

impl<'a, 'de, 'o> EnumAccess<'de> for VariantEntry<'a, 'de, 'o> {
    type Error = Error;
    type Variant = VariantContent<'a, 'de, 'o>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantContent<'a, 'de, 'o>), Error> {
        let name = match &self.name {
            Cow::Borrowed(s) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(s))
            }
            Cow::Owned(s) => {
                seed.deserialize(IntoDeserializer::<Error>::into_deserializer(s.as_str()))
            }
        }?;
        Ok((
            name,
            VariantContent {
                de: self.de,
                name: self.name.into_owned(),
            },
        ))
    }
}

struct VariantContent<'a, 'de, 'o> {
    de: &'a mut Deserializer<'de, 'o>,
    name: String,
}

impl<'de> VariantContent<'_, 'de, '_> {
    fn content<T>(
        self,
        f: impl FnOnce(&mut Deserializer<'de, '_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let de = self.de;
        de.depth += 1;
        let res = crate::stack::guard(|| f(&mut *de));
        de.depth -= 1;
        res.map_err(|e| e.within(Segment::Field(self.name)))
    }
}

impl<'de> VariantAccess<'de> for VariantContent<'_, 'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        self.content(|de| match de.r.peek_type() {
            Some(VariantType::Nil) => {
                de.head()?;
                Ok(())
            }
            _ => {
                let head = de.head()?;
                let v = de.built(&head)?;
                Err(de::Error::invalid_type(unexpected(&v), &"unit variant"))
            }
        })
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.content(|de| seed.deserialize(de))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.content(|de| de::Deserializer::deserialize_seq(de, visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.content(|de| de::Deserializer::deserialize_map(de, visitor))
    }
}

/// A PackedByteArray read as a sequence of ints.
struct ByteInts<'a>(std::slice::Iter<'a, u8>);

impl<'de> SeqAccess<'de> for ByteInts<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.0.next() {
            Some(&b) => seed
                .deserialize(IntoDeserializer::<Error>::into_deserializer(i64::from(b)))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

//! The tape: how values cross between JavaScript and WebAssembly in one piece, one byte buffer
//! per call instead of one call per value. It is the package's private business (the JavaScript
//! side is `js/tape.js`, which must agree with this file); every rule of the format is the
//! core's, and the tape only carries the core's `Value` as it is.
//!
//! A value is a tag byte, then its fields, little-endian:
//!
//! | tag | fields |
//! |---|---|
//! | NIL, FALSE, TRUE, CALLABLE | none |
//! | INT32 / INT64 | i32 / i64 |
//! | FLOAT | f64 |
//! | STRING, STRING_NAME | str |
//! | VECTOR2 … PROJECTION (reals) | N f64, in the core's order (Basis and Transform3D rows) |
//! | VECTOR2I, VECTOR3I, VECTOR4I, RECT2I | N i32 |
//! | COLOR | 4 f32 |
//! | NODE_PATH | u8 absolute, u32 n, n str, u32 m, m str |
//! | RID, OBJECT_ID | u64 |
//! | OBJECT | str class, u32 n, n (str name, value) |
//! | SIGNAL | str name, u64 object id |
//! | DICTIONARY | type key, type value, u32 n, n (value key, value) |
//! | ARRAY | type element, u32 n, n value |
//! | PACKED_BYTE | u32 n, n bytes |
//! | PACKED_INT32, PACKED_INT64, PACKED_FLOAT32, PACKED_FLOAT64 | u32 n, n numbers |
//! | PACKED_STRING | u32 n, n str |
//! | PACKED_VECTOR2, PACKED_VECTOR3, PACKED_VECTOR4 | u32 n elements, their components as f64 |
//! | PACKED_COLOR | u32 n elements, 4 n f32 |
//! | PACKED_REF (decode only) | u8 the packed tag, u32 n as that tag's, u32 address, u32 byte length |
//! | PACKED_HOLE (encode only) | u8 the packed tag (bytes, int32, int64, float32, float64), u32 n |
//!
//! PACKED_REF: a decode's large packed array is not copied into the tape; the tape gives where
//! its numbers lie in the WebAssembly's memory (little-endian, as the tag's would be): in the
//! decode's input, or in the decoded value, which is kept until the next call, so that
//! JavaScript copies them out once (`put_numbers`, `write_referencing`).
//!
//! PACKED_HOLE: a large typed array that JavaScript places into the encode's output itself, from
//! its own memory, where the walk leaves room for it (`encode` with `holes`): its numbers never
//! cross into the WebAssembly.
//!
//! str: u32 byte length, then UTF-8. type: u8 0 (untyped), or 1 and a str, the element type's
//! name as [`ContainerType::from_name`] reads it.

use fast_var_codec_core::reader::{short_plain_ascii, vec_from_le};
use fast_var_codec_core::value::ContainerType;
use fast_var_codec_core::value::{Array, GodotString, NodePath, Object, VariantType};
use fast_var_codec_core::writer::LeWord;
use fast_var_codec_core::writer::Sink;
use fast_var_codec_core::Value;

pub const NIL: u8 = 0;
pub const FALSE: u8 = 1;
pub const TRUE: u8 = 2;
pub const INT32: u8 = 3;
pub const INT64: u8 = 4;
pub const FLOAT: u8 = 5;
pub const STRING: u8 = 6;
pub const VECTOR2: u8 = 7;
pub const VECTOR2I: u8 = 8;
pub const RECT2: u8 = 9;
pub const RECT2I: u8 = 10;
pub const VECTOR3: u8 = 11;
pub const VECTOR3I: u8 = 12;
pub const TRANSFORM2D: u8 = 13;
pub const VECTOR4: u8 = 14;
pub const VECTOR4I: u8 = 15;
pub const PLANE: u8 = 16;
pub const QUATERNION: u8 = 17;
pub const AABB: u8 = 18;
pub const BASIS: u8 = 19;
pub const TRANSFORM3D: u8 = 20;
pub const PROJECTION: u8 = 21;
pub const COLOR: u8 = 22;
pub const STRING_NAME: u8 = 23;
pub const NODE_PATH: u8 = 24;
pub const RID: u8 = 25;
pub const OBJECT_ID: u8 = 26;
pub const OBJECT: u8 = 27;
pub const CALLABLE: u8 = 28;
pub const SIGNAL: u8 = 29;
pub const DICTIONARY: u8 = 30;
pub const ARRAY: u8 = 31;
pub const PACKED_BYTE: u8 = 32;
pub const PACKED_INT32: u8 = 33;
pub const PACKED_INT64: u8 = 34;
pub const PACKED_FLOAT32: u8 = 35;
pub const PACKED_FLOAT64: u8 = 36;
pub const PACKED_STRING: u8 = 37;
pub const PACKED_VECTOR2: u8 = 38;
pub const PACKED_VECTOR3: u8 = 39;
pub const PACKED_COLOR: u8 = 40;
pub const PACKED_VECTOR4: u8 = 41;
pub const PACKED_REF: u8 = 42;
pub const PACKED_HOLE: u8 = 43;

/// The packed type of a packed array of numbers' tag (the tags PACKED_REF and PACKED_HOLE carry).
pub fn numbers_type(tag: u8) -> Option<VariantType> {
    Some(match tag {
        PACKED_BYTE => VariantType::PackedByteArray,
        PACKED_INT32 => VariantType::PackedInt32Array,
        PACKED_INT64 => VariantType::PackedInt64Array,
        PACKED_FLOAT32 => VariantType::PackedFloat32Array,
        PACKED_FLOAT64 => VariantType::PackedFloat64Array,
        _ => return None,
    })
}

/// A container's element, key or value type when it has none.
pub(crate) const UNTYPED: u8 = 0;

/// From this many bytes on, `write_referencing` and `put_numbers` refer to a packed array's
/// numbers rather than copying them.
const REF_MIN: usize = 4096;

// ---------------------------------------------------------------------------------------------
// Value to tape (decode)

/// The tape of `v` alone.
pub fn tape_of(v: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    write(&mut out, v);
    out
}

/// Appends `v` to the tape `out`.
pub fn write(out: &mut Vec<u8>, v: &Value) {
    put(out, v, false);
}

/// Appends `v` to the tape `out`, its packed arrays of `REF_MIN` bytes or more as PACKED_REF:
/// `v` must stay where it is, unchanged, until the tape has been read.
pub fn write_referencing(out: &mut Vec<u8>, v: &Value) {
    put(out, v, true);
}

fn put(out: &mut Vec<u8>, v: &Value, refs: bool) {
    match v {
        Value::Nil => out.push(NIL),
        Value::Bool(b) => put_bool(out, *b),
        Value::Int(i) => put_int(out, *i),
        Value::Float(f) => put_float(out, *f),
        Value::String(s) => put_str(out, STRING, s.as_str()),
        Value::Vector2(c) => reals(out, VECTOR2, c),
        Value::Vector2i(c) => ints(out, VECTOR2I, c),
        Value::Rect2(c) => reals(out, RECT2, &c[..]),
        Value::Rect2i(c) => ints(out, RECT2I, c),
        Value::Vector3(c) => reals(out, VECTOR3, c),
        Value::Vector3i(c) => ints(out, VECTOR3I, c),
        Value::Transform2D(c) => reals(out, TRANSFORM2D, &c[..]),
        Value::Vector4(c) => reals(out, VECTOR4, &c[..]),
        Value::Vector4i(c) => ints(out, VECTOR4I, c),
        Value::Plane(c) => reals(out, PLANE, &c[..]),
        Value::Quaternion(c) => reals(out, QUATERNION, &c[..]),
        Value::Aabb(c) => reals(out, AABB, &c[..]),
        Value::Basis(c) => reals(out, BASIS, &c[..]),
        Value::Transform3D(c) => reals(out, TRANSFORM3D, &c[..]),
        Value::Projection(c) => reals(out, PROJECTION, &c[..]),
        Value::Color(c) => {
            out.push(COLOR);
            for x in c {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        Value::StringName(s) => put_str(out, STRING_NAME, s.as_str()),
        Value::NodePath(p) => {
            out.push(NODE_PATH);
            out.push(u8::from(p.absolute));
            len(out, p.names.len());
            for n in &p.names {
                str_(out, n);
            }
            len(out, p.subnames.len());
            for n in &p.subnames {
                str_(out, n);
            }
        }
        Value::Rid(id) => {
            out.push(RID);
            out.extend_from_slice(&id.to_le_bytes());
        }
        Value::ObjectId(id) => {
            out.push(OBJECT_ID);
            out.extend_from_slice(&id.to_le_bytes());
        }
        Value::Object(o) => {
            out.push(OBJECT);
            str_(out, &o.class);
            len(out, o.properties.len());
            for (name, value) in &o.properties {
                str_(out, name);
                put(out, value, refs);
            }
        }
        Value::Callable => out.push(CALLABLE),
        Value::Signal { name, object_id } => {
            out.push(SIGNAL);
            str_(out, name);
            out.extend_from_slice(&object_id.to_le_bytes());
        }
        Value::Dictionary(d) => {
            out.push(DICTIONARY);
            container_type(out, &d.key);
            container_type(out, &d.value);
            len(out, d.len());
            for (k, v) in d.iter() {
                put(out, k, refs);
                put(out, v, refs);
            }
        }
        Value::Array(a) => {
            out.push(ARRAY);
            container_type(out, &a.element);
            len(out, a.items.len());
            for item in &a.items {
                put(out, item, refs);
            }
        }
        Value::PackedByteArray(b) => numbers(out, PACKED_BYTE, b.len(), b, refs),
        Value::PackedInt32Array(a) => numbers(out, PACKED_INT32, a.len(), a, refs),
        Value::PackedInt64Array(a) => numbers(out, PACKED_INT64, a.len(), a, refs),
        Value::PackedFloat32Array(a) => numbers(out, PACKED_FLOAT32, a.len(), a, refs),
        Value::PackedFloat64Array(a) => numbers(out, PACKED_FLOAT64, a.len(), a, refs),
        Value::PackedStringArray(s) => {
            out.push(PACKED_STRING);
            len(out, s.len());
            for x in s {
                str_(out, x.as_str());
            }
        }
        Value::PackedVector2Array(a) => {
            numbers(out, PACKED_VECTOR2, a.len(), a.as_flattened(), refs)
        }
        Value::PackedVector3Array(a) => {
            numbers(out, PACKED_VECTOR3, a.len(), a.as_flattened(), refs)
        }
        Value::PackedVector4Array(a) => {
            numbers(out, PACKED_VECTOR4, a.len(), a.as_flattened(), refs)
        }
        Value::PackedColorArray(a) => numbers(out, PACKED_COLOR, a.len(), a.as_flattened(), refs),
    }
}

fn len(out: &mut Vec<u8>, n: usize) {
    // No value the core decodes in wasm32 has more than u32::MAX of anything.
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn str_(out: &mut Vec<u8>, s: &str) {
    len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// A bool.
pub fn put_bool(out: &mut Vec<u8>, b: bool) {
    out.push(if b { TRUE } else { FALSE });
}

/// An int: INT32 when it fits.
pub fn put_int(out: &mut Vec<u8>, i: i64) {
    match i32::try_from(i) {
        Ok(small) => {
            out.push(INT32);
            out.extend_from_slice(&small.to_le_bytes());
        }
        Err(_) => {
            out.push(INT64);
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
}

/// A float.
pub fn put_float(out: &mut Vec<u8>, f: f64) {
    out.push(FLOAT);
    out.extend_from_slice(&f.to_le_bytes());
}

/// A str (an item of a PackedStringArray).
pub fn put_len_str(out: &mut Vec<u8>, s: &str) {
    str_(out, s);
}

/// A String or StringName (`tag`) value.
pub fn put_str(out: &mut Vec<u8>, tag: u8, s: &str) {
    out.push(tag);
    str_(out, s);
}

/// A packed array of `count` numbers (`tag`) from their little-endian bytes, `raw`; with `refs`
/// and at least `REF_MIN` bytes, PACKED_REF and where `raw` lies instead: it must stay there,
/// unchanged, until the tape has been read.
pub fn put_numbers(out: &mut Vec<u8>, tag: u8, count: usize, raw: &[u8], refs: bool) {
    if refs && raw.len() >= REF_MIN && put_ref(out, tag, count, raw.as_ptr() as usize, raw.len()) {
        return;
    }
    out.push(tag);
    len(out, count);
    out.extend_from_slice(raw);
}

/// PACKED_REF to the `size` bytes at `at` of a packed array of `count` numbers (`tag`); false
/// (nothing written) where an address or size does not fit the tape's u32 (not in wasm32).
fn put_ref(out: &mut Vec<u8>, tag: u8, count: usize, at: usize, size: usize) -> bool {
    let (Ok(at), Ok(size)) = (u32::try_from(at), u32::try_from(size)) else {
        return false;
    };
    out.push(PACKED_REF);
    out.push(tag);
    len(out, count);
    out.extend_from_slice(&at.to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    true
}

fn reals(out: &mut Vec<u8>, tag: u8, c: &[f64]) {
    out.push(tag);
    for x in c {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn ints(out: &mut Vec<u8>, tag: u8, c: &[i32]) {
    out.push(tag);
    for x in c {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// `tag`, `count`, then the numbers' little-endian bytes: their memory as it is on a
/// little-endian machine (WebAssembly is one), copied in one piece; with `refs` and at least
/// `REF_MIN` bytes, PACKED_REF and where that memory is instead.
fn numbers<T: LeWord>(out: &mut Vec<u8>, tag: u8, count: usize, items: &[T], refs: bool) {
    let size = std::mem::size_of_val(items);
    if refs && size >= REF_MIN && put_ref(out, tag, count, items.as_ptr() as usize, size) {
        return;
    }
    out.push(tag);
    len(out, count);
    out.put_words(items);
}

/// The name JavaScript sees for an element type (as the Python package's): a builtin's Godot
/// name, `""` for objects of any class, a class name or a script's path.
pub fn type_name(c: &ContainerType) -> Option<&str> {
    match c {
        ContainerType::Builtin(VariantType::Object) => Some(""),
        ContainerType::Builtin(t) => Some(t.name()),
        ContainerType::Class(name) | ContainerType::Script(name) => Some(name),
        _ => None,
    }
}

fn container_type(out: &mut Vec<u8>, c: &ContainerType) {
    match type_name(c) {
        Some(name) => {
            out.push(1);
            str_(out, name);
        }
        None => out.push(UNTYPED),
    }
}

// ---------------------------------------------------------------------------------------------
// Tape to Value (encode)

/// Why a tape could not be read: a malformed tape (a bug of the JavaScript side) or an element
/// type no type has.
#[derive(Debug)]
pub struct TapeError(pub String);

type TapeResult<T> = Result<T, TapeError>;

/// A container being filled while a tape is read.
enum Open {
    Array {
        a: Array,
        left: usize,
    },
    Dictionary {
        key_type: ContainerType,
        value_type: ContainerType,
        entries: Vec<(Value, Value)>,
        left: usize,
        key: Option<Value>,
    },
    Object {
        class: String,
        properties: Vec<(String, Value)>,
        left: usize,
        name: String,
    },
}

/// Reads values from a tape written by `js/tape.js`.
pub struct Reader<'a> {
    tape: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(tape: &'a [u8]) -> Self {
        Reader { tape, at: 0 }
    }

    pub fn at_end(&self) -> bool {
        self.at >= self.tape.len()
    }

    /// The byte `ahead` bytes after the next one, left unread.
    pub(crate) fn peek(&self, ahead: usize) -> Option<u8> {
        self.tape.get(self.at + ahead).copied()
    }

    /// The u32 `ahead` bytes after the next one, left unread.
    pub(crate) fn peek_u32(&self, ahead: usize) -> Option<usize> {
        let at = self.at + ahead;
        let bytes = self.tape.get(at..at + 4)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?) as usize)
    }

    /// Steps over `n` bytes known to be there (`peek`ed).
    pub(crate) fn skip(&mut self, n: usize) {
        self.at = (self.at + n).min(self.tape.len());
    }

    pub(crate) fn take(&mut self, n: usize) -> TapeResult<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.tape.len())
            .ok_or_else(|| TapeError(format!("the tape ends at {} inside a value", self.at)))?;
        let s = self.tape.get(self.at..end).unwrap_or_default();
        self.at = end;
        Ok(s)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> TapeResult<[u8; N]> {
        let mut b = [0u8; N];
        b.copy_from_slice(self.take(N)?);
        Ok(b)
    }

    fn u8(&mut self) -> TapeResult<u8> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn u32(&mut self) -> TapeResult<usize> {
        Ok(u32::from_le_bytes(self.array()?) as usize)
    }

    fn u64(&mut self) -> TapeResult<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    pub(crate) fn f64(&mut self) -> TapeResult<f64> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    pub(crate) fn str_ref(&mut self) -> TapeResult<&'a str> {
        let n = self.u32()?;
        let b = self.take(n)?;
        // Most tape strings are short keys and names: told ASCII a word at a time, not by
        // from_utf8's loop over the bytes.
        if let Some(plain) = short_plain_ascii(b) {
            return Ok(plain);
        }
        std::str::from_utf8(b).map_err(|_| TapeError("a tape string is not UTF-8".into()))
    }

    fn string(&mut self) -> TapeResult<String> {
        self.str_ref().map(String::from)
    }

    /// A String's or StringName's text, made from the tape in place (a short one without an
    /// allocation).
    fn godot_string(&mut self) -> TapeResult<GodotString> {
        self.str_ref().map(GodotString::from)
    }

    fn strings(&mut self) -> TapeResult<Vec<String>> {
        let n = self.u32()?;
        (0..n).map(|_| self.string()).collect()
    }

    fn reals<const N: usize>(&mut self) -> TapeResult<[f64; N]> {
        let mut c = [0.0; N];
        for x in &mut c {
            *x = self.f64()?;
        }
        Ok(c)
    }

    fn ints<const N: usize>(&mut self) -> TapeResult<[i32; N]> {
        let mut c = [0; N];
        for x in &mut c {
            *x = i32::from_le_bytes(self.array()?);
        }
        Ok(c)
    }

    /// `count` numbers, copied from the tape in one piece (`vec_from_le`).
    fn numbers<T: LeWord>(&mut self, count: usize) -> TapeResult<Vec<T>> {
        let bytes = self.take(
            count
                .checked_mul(T::SIZE)
                .ok_or_else(|| TapeError("a packed array too long".into()))?,
        )?;
        Ok(vec_from_le(bytes))
    }

    fn grouped<const N: usize>(&mut self) -> TapeResult<Vec<[f64; N]>> {
        let n = self.u32()?;
        let flat = self.numbers::<f64>(n.saturating_mul(N))?;
        Ok(flat
            .chunks_exact(N)
            .map(|c| {
                let mut a = [0.0; N];
                a.copy_from_slice(c);
                a
            })
            .collect())
    }

    fn container_type(&mut self) -> TapeResult<ContainerType> {
        match self.u8()? {
            0 => Ok(ContainerType::Untyped),
            _ => {
                let name = self.string()?;
                ContainerType::from_name(&name).map_err(|e| TapeError(e.to_string()))
            }
        }
    }

    /// The next value, read without recursion (a stack of the containers being filled): a
    /// WebAssembly call shares the engine's native stack with JavaScript, and 1,024 levels of
    /// recursion here would take much of it before the core's writer takes its share.
    pub fn value(&mut self) -> TapeResult<Value> {
        let mut open: Vec<Open> = Vec::new();
        loop {
            let tag = self.u8()?;
            let mut done = match tag {
                OBJECT => {
                    let class = self.string()?;
                    let n = self.u32()?;
                    let properties = Vec::with_capacity(n.min(1 << 16));
                    if n > 0 {
                        let name = self.string()?;
                        open.push(Open::Object {
                            class,
                            properties,
                            left: n,
                            name,
                        });
                        continue;
                    }
                    Value::Object(Box::new(Object { class, properties }))
                }
                DICTIONARY => {
                    let key = self.container_type()?;
                    let value = self.container_type()?;
                    let n = self.u32()?;
                    if n > 0 {
                        open.push(Open::Dictionary {
                            key_type: key,
                            value_type: value,
                            entries: Vec::with_capacity(n.min(1 << 16)),
                            left: n,
                            key: None,
                        });
                        continue;
                    }
                    Value::typed_dictionary(key, value, Vec::new())
                }
                ARRAY => {
                    let element = self.container_type()?;
                    let n = self.u32()?;
                    let a = Array {
                        element,
                        items: Vec::with_capacity(n.min(1 << 16)),
                    };
                    if n > 0 {
                        open.push(Open::Array { a, left: n });
                        continue;
                    }
                    Value::Array(Box::new(a))
                }
                _ => self.scalar(tag)?,
            };
            // Hand the finished value to the containers it completes.
            loop {
                let Some(top) = open.last_mut() else {
                    return Ok(done);
                };
                match top {
                    Open::Array { a, left } => {
                        a.items.push(done);
                        *left -= 1;
                        if *left > 0 {
                            break;
                        }
                    }
                    Open::Dictionary {
                        entries, left, key, ..
                    } => match key.take() {
                        None => {
                            *key = Some(done);
                            break;
                        }
                        Some(k) => {
                            entries.push((k, done));
                            *left -= 1;
                            if *left > 0 {
                                break;
                            }
                        }
                    },
                    Open::Object {
                        properties,
                        left,
                        name,
                        ..
                    } => {
                        properties.push((std::mem::take(name), done));
                        *left -= 1;
                        if *left > 0 {
                            *name = self.string()?;
                            break;
                        }
                    }
                }
                done = match open.pop() {
                    Some(Open::Array { a, .. }) => Value::Array(Box::new(a)),
                    Some(Open::Dictionary {
                        key_type,
                        value_type,
                        entries,
                        ..
                    }) => Value::typed_dictionary(key_type, value_type, entries),
                    Some(Open::Object {
                        class, properties, ..
                    }) => Value::Object(Box::new(Object { class, properties })),
                    None => return Err(TapeError("no container to close".into())),
                };
            }
        }
    }

    /// A value that holds no other value.
    #[inline(never)]
    fn scalar(&mut self, tag: u8) -> TapeResult<Value> {
        Ok(match tag {
            NIL => Value::Nil,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            INT32 => Value::Int(i64::from(i32::from_le_bytes(self.array()?))),
            INT64 => Value::Int(i64::from_le_bytes(self.array()?)),
            FLOAT => Value::Float(self.f64()?),
            STRING => Value::String(self.godot_string()?),
            VECTOR2 => Value::Vector2(self.reals()?),
            VECTOR2I => Value::Vector2i(self.ints()?),
            RECT2 => Value::Rect2(Box::new(self.reals()?)),
            RECT2I => Value::Rect2i(self.ints()?),
            VECTOR3 => Value::Vector3(self.reals()?),
            VECTOR3I => Value::Vector3i(self.ints()?),
            TRANSFORM2D => Value::Transform2D(Box::new(self.reals()?)),
            VECTOR4 => Value::Vector4(Box::new(self.reals()?)),
            VECTOR4I => Value::Vector4i(self.ints()?),
            PLANE => Value::Plane(Box::new(self.reals()?)),
            QUATERNION => Value::Quaternion(Box::new(self.reals()?)),
            AABB => Value::Aabb(Box::new(self.reals()?)),
            BASIS => Value::Basis(Box::new(self.reals()?)),
            TRANSFORM3D => Value::Transform3D(Box::new(self.reals()?)),
            PROJECTION => Value::Projection(Box::new(self.reals()?)),
            COLOR => {
                let mut c = [0f32; 4];
                for x in &mut c {
                    *x = f32::from_le_bytes(self.array()?);
                }
                Value::Color(c)
            }
            STRING_NAME => Value::StringName(self.godot_string()?),
            NODE_PATH => {
                let absolute = self.u8()? != 0;
                let names = self.strings()?;
                let subnames = self.strings()?;
                Value::NodePath(Box::new(NodePath {
                    names,
                    subnames,
                    absolute,
                }))
            }
            RID => Value::Rid(self.u64()?),
            OBJECT_ID => Value::ObjectId(self.u64()?),
            CALLABLE => Value::Callable,
            SIGNAL => {
                let name = self.string()?.into_boxed_str();
                Value::Signal {
                    name,
                    object_id: self.u64()?,
                }
            }
            PACKED_BYTE => {
                let n = self.u32()?;
                Value::PackedByteArray(self.take(n)?.to_vec())
            }
            PACKED_INT32 => {
                let n = self.u32()?;
                Value::PackedInt32Array(self.numbers(n)?)
            }
            PACKED_INT64 => {
                let n = self.u32()?;
                Value::PackedInt64Array(self.numbers(n)?)
            }
            PACKED_FLOAT32 => {
                let n = self.u32()?;
                Value::PackedFloat32Array(self.numbers(n)?)
            }
            PACKED_FLOAT64 => {
                let n = self.u32()?;
                Value::PackedFloat64Array(self.numbers(n)?)
            }
            PACKED_STRING => {
                let n = self.u32()?;
                Value::PackedStringArray(
                    (0..n)
                        .map(|_| self.godot_string())
                        .collect::<TapeResult<_>>()?,
                )
            }
            PACKED_VECTOR2 => Value::PackedVector2Array(self.grouped()?),
            PACKED_VECTOR3 => Value::PackedVector3Array(self.grouped()?),
            PACKED_VECTOR4 => Value::PackedVector4Array(self.grouped()?),
            PACKED_COLOR => {
                let n = self.u32()?;
                let flat = self.numbers::<f32>(n.saturating_mul(4))?;
                Value::PackedColorArray(
                    flat.chunks_exact(4)
                        .map(|c| {
                            let mut a = [0f32; 4];
                            a.copy_from_slice(c);
                            a
                        })
                        .collect(),
                )
            }
            other => {
                return Err(TapeError(format!(
                    "unknown tape tag {other} at {}",
                    self.at - 1
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_javascript_side_has_the_same_tags() {
        let js = include_str!("../js/tags.js");
        let src = include_str!("tape.rs");
        let mut count = 0;
        for line in src.lines() {
            let Some(rest) = line.strip_prefix("pub const ") else {
                continue;
            };
            let Some((name, value)) = rest.split_once(": u8 = ") else {
                continue;
            };
            let value = value.trim_end_matches(';');
            let expected = format!("export const {name} = {value};");
            assert!(js.contains(&expected), "js/tags.js lacks {expected}");
            count += 1;
        }
        assert_eq!(count, 44);
        assert_eq!(js.matches("export const ").count(), count);
    }

    #[test]
    fn every_kind_of_value_crosses_the_tape_unchanged() {
        let values = vec![
            Value::Nil,
            Value::Bool(true),
            Value::Int(-5),
            Value::Int(1 << 40),
            Value::Float(0.5),
            Value::String("zoë".into()),
            Value::Vector2([1.0, 2.0]),
            Value::Vector3i([1, 2, 3]),
            Value::Color([0.5, 0.25, 1.0, 1.0]),
            Value::NodePath(Box::new(NodePath::from("/root/a:b"))),
            Value::Rid(7),
            Value::Signal {
                name: "hit".into(),
                object_id: u64::MAX,
            },
            Value::PackedInt64Array(vec![1, -1]),
            Value::PackedVector3Array(vec![[1.0, 2.0, 3.0]]),
            Value::PackedColorArray(vec![[1.0, 0.0, 0.0, 1.0]]),
        ];
        let v = Value::dictionary(vec![(Value::String("k".into()), Value::array(values))]);
        let mut tape = Vec::new();
        write(&mut tape, &v);
        let mut r = Reader::new(&tape);
        assert_eq!(r.value().ok(), Some(v));
        assert!(r.at_end());
    }
}

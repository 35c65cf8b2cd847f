//! The path of the value a decode fails in (`["players"][3]["name"]`), for errors that name
//! it besides the byte offset: [`failing_path`].

use std::borrow::Cow;

use crate::build::Build;
use crate::dialect::Utf8Rules;
use crate::error::{DecodeReason, PathSegment, ValuePath};
use crate::limits::Options;
use crate::real::WireReals;
use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType};
use crate::value::{Value, ValueBuilder};

/// The path, outermost step first, from the value decoded at `offset` of `bytes` to the
/// innermost Array or Dictionary entry being read where the decode fails: an Array's item by
/// index, a Dictionary's entry by its key (spelled as encode errors spell it: `"name"`, `3`,
/// `&"sn"`, or the key's type), once the key is read whole. `None` when the value decodes.
/// The steps stop at a full object (its properties are read before it is made) and at a key
/// that fails itself.
///
/// Decodes again, keeping track of where it is: call it after a decode has failed, to say
/// where.
///
/// # Examples
/// ```
/// use fast_var_codec_core::locate::failing_path;
/// use fast_var_codec_core::{decode, encode, Options, Value};
///
/// let opts = Options::default();
/// let player = Value::dictionary(vec![(Value::from("name"), Value::from("Ann"))]);
/// let save = Value::dictionary(vec![(Value::from("players"), Value::array(vec![player]))]);
/// let mut bytes = encode(&save, &opts)?;
/// // Spoil the name's UTF-8 ("Ann" sits just before its padding, at the end).
/// let at = bytes.len() - 4;
/// bytes[at] = 0xff;
/// assert!(decode(&bytes, &opts).is_err());
/// let path = failing_path(&bytes, 0, &opts).expect("the decode fails");
/// assert_eq!(path.to_string(), r#"["players"][0]["name"]"#);
/// assert_eq!(failing_path(&encode(&save, &opts)?, 0, &opts), None);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn failing_path(bytes: &[u8], offset: usize, opts: &Options) -> Option<ValuePath> {
    let mut b = PathTracking::default();
    match crate::reader::decode_with(bytes, offset, opts, &mut b) {
        Ok(_) => None,
        Err(_) => Some(b.path()),
    }
}

/// A container being read.
#[derive(Debug)]
enum Open {
    /// An Array and how many of its items were added.
    Array { items: usize },
    /// A Dictionary and the key of the entry being read, once read whole.
    Dictionary { key: Option<String> },
}

/// A [`ValueBuilder`] that keeps the containers being read open on a stack.
#[derive(Debug, Default)]
struct PathTracking {
    inner: ValueBuilder,
    open: Vec<Open>,
}

impl PathTracking {
    fn path(&self) -> ValuePath {
        let mut segments = Vec::new();
        for open in &self.open {
            match open {
                Open::Array { items } => segments.push(PathSegment::Index(*items)),
                Open::Dictionary { key: Some(k) } => segments.push(PathSegment::Key(k.clone())),
                Open::Dictionary { key: None } => break,
            }
        }
        segments.into_iter().collect()
    }
}

impl Build for PathTracking {
    type Value = Value;
    type Array = <ValueBuilder as Build>::Array;
    type Dictionary = <ValueBuilder as Build>::Dictionary;
    type Object = <ValueBuilder as Build>::Object;
    type Strings = <ValueBuilder as Build>::Strings;

    fn configure(&mut self, opts: &Options) {
        self.inner.configure(opts)
    }
    fn nil(&mut self) -> Self::Value {
        self.inner.nil()
    }
    fn bool(&mut self, v: bool) -> Self::Value {
        self.inner.bool(v)
    }
    fn int(&mut self, v: i64) -> Self::Value {
        self.inner.int(v)
    }
    fn float(&mut self, v: f64) -> Self::Value {
        self.inner.float(v)
    }
    fn string(&mut self, s: &str) -> Self::Value {
        self.inner.string(s)
    }
    fn string_name(&mut self, s: &str) -> Self::Value {
        self.inner.string_name(s)
    }
    fn string_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Self::Value> {
        self.inner.string_utf8(raw, rules)
    }
    fn string_name_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Self::Value> {
        self.inner.string_name_utf8(raw, rules)
    }
    fn push_string_utf8(
        &mut self,
        strings: &mut Self::Strings,
        raw: &[u8],
        rules: Utf8Rules,
    ) -> bool {
        self.inner.push_string_utf8(strings, raw, rules)
    }
    fn real(&mut self, ty: RealType, components: WireReals<'_>) -> Self::Value {
        self.inner.real(ty, components)
    }
    fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Self::Value {
        self.inner.int_vector(ty, components)
    }
    fn color(&mut self, rgba: [f32; 4]) -> Self::Value {
        self.inner.color(rgba)
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Self::Value {
        self.inner.node_path(names, subnames, absolute)
    }
    fn rid(&mut self, id: u64) -> Self::Value {
        self.inner.rid(id)
    }
    fn object_id(&mut self, id: u64) -> Self::Value {
        self.inner.object_id(id)
    }
    fn null_object(&mut self) -> Self::Value {
        self.inner.null_object()
    }
    fn callable(&mut self) -> Self::Value {
        self.inner.callable()
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Self::Value {
        self.inner.signal(name, object_id)
    }
    fn packed_bytes(&mut self, bytes: &[u8]) -> Self::Value {
        self.inner.packed_bytes(bytes)
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Self::Value {
        self.inner.packed_i32(raw)
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Self::Value {
        self.inner.packed_i64(raw)
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Self::Value {
        self.inner.packed_f32(raw)
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Self::Value {
        self.inner.packed_f64(raw)
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Self::Value {
        self.inner.packed_vectors(ty, raw, wide)
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Self::Value {
        self.inner.packed_colors(raw)
    }
    fn begin_strings(&mut self, capacity: usize) -> Self::Strings {
        self.inner.begin_strings(capacity)
    }
    fn push_string(&mut self, strings: &mut Self::Strings, s: &str) {
        self.inner.push_string(strings, s)
    }
    fn end_strings(&mut self, strings: Self::Strings) -> Self::Value {
        self.inner.end_strings(strings)
    }
    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<Self::Array, DecodeReason> {
        let array = self.inner.begin_array(element, capacity, claimed)?;
        self.open.push(Open::Array { items: 0 });
        Ok(array)
    }
    fn push(
        &mut self,
        array: &mut Self::Array,
        v: Self::Value,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.push(array, v)?;
        if let Some(Open::Array { items }) = self.open.last_mut() {
            *items += 1;
        }
        Ok(())
    }
    fn end_array(&mut self, array: Self::Array) -> Self::Value {
        self.open.pop();
        self.inner.end_array(array)
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<Self::Dictionary, DecodeReason> {
        let dict = self.inner.begin_dictionary(key, value, capacity, claimed)?;
        self.open.push(Open::Dictionary { key: None });
        Ok(dict)
    }
    fn insert(
        &mut self,
        dict: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.insert(dict, key, value)?;
        if let Some(Open::Dictionary { key }) = self.open.last_mut() {
            *key = None;
        }
        Ok(())
    }
    fn end_dictionary(&mut self, dict: Self::Dictionary) -> Self::Value {
        self.open.pop();
        self.inner.end_dictionary(dict)
    }
    fn check_class(&mut self, class: &str) -> std::result::Result<(), DecodeReason> {
        self.inner.check_class(class)
    }
    fn begin_object(&mut self, class: &str) -> std::result::Result<Self::Object, DecodeReason> {
        self.inner.begin_object(class)
    }
    fn set_property(
        &mut self,
        object: &mut Self::Object,
        name: &str,
        value: Self::Value,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.set_property(object, name, value)
    }
    fn set_script(
        &mut self,
        object: &mut Self::Object,
        value: Self::Value,
        path: &str,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.set_script(object, value, path)
    }
    fn end_object(
        &mut self,
        object: Self::Object,
    ) -> std::result::Result<Self::Value, DecodeReason> {
        self.inner.end_object(object)
    }

    const LOCATES: bool = true;

    /// The first value read whole inside a Dictionary's entry is its key.
    fn located(&mut self, value: Self::Value, _start: usize, _end: usize) -> Self::Value {
        if let Some(Open::Dictionary { key: key @ None }) = self.open.last_mut() {
            *key = Some(value.key_label());
        }
        value
    }
}

//! The path of the value a decode fails in (`["players"][3]["name"]`), for errors that name
//! it besides the byte offset: [`failing_path`].

use crate::build::Build;
use crate::error::{DecodeReason, PathSegment, ValuePath};
use crate::limits::Options;
use crate::types::ContainerType;
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

    crate::build::forward_values_to_inner!();

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
    const LOCATES: bool = true;

    /// The first value read whole inside a Dictionary's entry is its key.
    fn located(&mut self, value: Self::Value, _start: usize, _end: usize) -> Self::Value {
        if let Some(Open::Dictionary { key: key @ None }) = self.open.last_mut() {
            *key = Some(value.key_label());
        }
        value
    }
}

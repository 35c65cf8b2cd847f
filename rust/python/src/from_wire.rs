//! The core's reader building Python objects directly (its [`Build`] trait), without a `Value`
//! tree: the plain types (None, bool, int, float, str, bytes, number packed arrays, untyped
//! lists and dicts with str or int keys) are made here, every other leaf is made by the core's
//! `ValueBuilder` and translated alone by `convert`.
//!
//! What the engine does on decode beyond that (typed containers converting or dropping
//! elements, keys it finds equal merging, full objects) is the model's: on meeting one the
//! build stops and the whole input is decoded again through the `Value` tree, so the result is
//! exactly the reference translation's.

use std::borrow::Cow;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::reader::{decode_with, Build};
use fast_var_codec_core::real::WireReals;
use fast_var_codec_core::value::{
    ContainerType, GodotString, IntVectorType, PackedVectorType, RealType, ValueBuilder,
};
use fast_var_codec_core::{Options, Value};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString};

use crate::classes::{types, Types};
use crate::convert::{number_array, python_of};
use crate::errors::codec_error;

/// The value at `offset` of `bytes` and the bytes it used, built directly; None when the
/// input holds what only the model decodes as the engine does (the caller decodes it through
/// `Value`).
pub fn decode_at<'py>(
    py: Python<'py>,
    bytes: &[u8],
    offset: usize,
    opts: &Options,
) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
    let mut builder = PyBuild {
        py,
        t: types(py)?,
        model: ValueBuilder::default(),
        failed: None,
        needs_model: false,
        short: ShortStrs::taken(),
    };
    let built = decode_with(bytes, offset, opts, &mut builder);
    let PyBuild {
        failed,
        needs_model,
        short,
        ..
    } = builder;
    short.put_back();
    if needs_model {
        return Ok(None);
    }
    let (v, used) = built.map_err(codec_error)?;
    match failed {
        Some(e) => Err(e),
        None => Ok(Some((v, used))),
    }
}

struct PyBuild<'py, 't> {
    py: Python<'py>,
    t: &'t Types,
    /// Makes the leaves this builder does not make itself, as the reference decode does.
    model: ValueBuilder,
    /// The first Python error while building (the trait's leaves cannot fail).
    failed: Option<PyErr>,
    /// Met something only the model decodes as the engine does: decode again through it.
    needs_model: bool,
    short: ShortStrs,
}

/// How many short strs a decode keeps (in pairs: a str's hash picks a pair, the last used of
/// the two first), and how long they may be (in UTF-8 bytes).
const SHORT_SLOTS: usize = 256;
const SHORT_LEN: usize = 16;

/// Short strs made once and handed out again: a Dictionary's keys come again in every record
/// and every message, and a str made once keeps its hash for every dict it goes in. Kept from
/// one decode to the next (strs are immutable).
struct ShortStrs {
    slots: Vec<Option<ShortStr>>,
}

impl Default for ShortStrs {
    fn default() -> Self {
        ShortStrs {
            slots: std::iter::repeat_with(|| None).take(SHORT_SLOTS).collect(),
        }
    }
}

/// The strs of the last decode; a decode takes them (another thread's decode meanwhile makes
/// its own) and puts them back.
static KEPT: std::sync::Mutex<Option<ShortStrs>> = std::sync::Mutex::new(None);

/// A kept str: its UTF-8 length and bytes, and the str.
type ShortStr = (u8, [u8; SHORT_LEN], Py<PyString>);

impl ShortStrs {
    fn taken() -> ShortStrs {
        KEPT.lock()
            .ok()
            .and_then(|mut kept| kept.take())
            .unwrap_or_default()
    }

    fn put_back(self) {
        if let Ok(mut kept) = KEPT.lock() {
            *kept = Some(self);
        }
    }

    fn get<'py>(&mut self, py: Python<'py>, s: &str) -> Bound<'py, PyString> {
        let raw = s.as_bytes();
        let Some(len) = u8::try_from(raw.len())
            .ok()
            .filter(|n| usize::from(*n) <= SHORT_LEN)
        else {
            return PyString::new(py, s);
        };
        let hash = raw.iter().fold(u32::from(len), |h, b| {
            (h ^ u32::from(*b)).wrapping_mul(0x0100_0193)
        });
        // The pair's first slot, then its second.
        let first = ((hash.wrapping_mul(0x9E37_79B1) >> 24) as usize % SHORT_SLOTS) & !1;
        let holds = |slot: &Option<ShortStr>| matches!(slot, Some((n, bytes, _)) if *n == len && bytes.get(..raw.len()) == Some(raw));
        if let Some((_, _, made)) = self
            .slots
            .get(first)
            .filter(|s| holds(s))
            .and_then(Option::as_ref)
        {
            return made.bind(py).clone();
        }
        if self.slots.get(first + 1).is_some_and(holds) {
            // The last used first.
            self.slots.swap(first, first + 1);
            if let Some(Some((_, _, made))) = self.slots.get(first) {
                return made.bind(py).clone();
            }
        }
        let made = PyString::new(py, s);
        let mut bytes = [0; SHORT_LEN];
        if let Some(head) = bytes.get_mut(..raw.len()) {
            head.copy_from_slice(raw);
        }
        // The first moves to the second slot; the new str takes the first.
        self.slots.swap(first, first + 1);
        if let Some(slot) = self.slots.get_mut(first) {
            *slot = Some((len, bytes, made.clone().unbind()));
        }
        made
    }
}

impl<'py> PyBuild<'py, '_> {
    fn none(&self) -> Bound<'py, PyAny> {
        self.py.None().into_bound(self.py)
    }

    /// `made`, or None with its error kept.
    fn kept(&mut self, made: PyResult<Bound<'py, PyAny>>) -> Bound<'py, PyAny> {
        match made {
            Ok(v) => v,
            Err(e) => {
                self.failed.get_or_insert(e);
                self.none()
            }
        }
    }

    /// The Python object of a leaf the model made.
    fn of(&mut self, v: Value) -> Bound<'py, PyAny> {
        let made = python_of(self.py, self.t, &v);
        self.kept(made)
    }

    /// A number packed array from the wire's little-endian words of `N` bytes.
    fn numbers<const N: usize>(&mut self, typecode: &str, raw: &[u8]) -> Bound<'py, PyAny> {
        let made = if cfg!(target_endian = "little") {
            number_array(self.py, self.t, typecode, raw)
        } else {
            let native: Vec<u8> = raw
                .chunks_exact(N)
                .flat_map(|c| c.iter().rev().copied())
                .collect();
            number_array(self.py, self.t, typecode, &native)
        };
        self.kept(made)
    }

    /// Stops the build: only the model decodes this as the engine does.
    fn model_only<T>(&mut self) -> Result<T, DecodeReason> {
        self.needs_model = true;
        Err(DecodeReason::Refused(
            "decoded through the model instead".into(),
        ))
    }
}

impl<'py> Build for PyBuild<'py, '_> {
    type Value = Bound<'py, PyAny>;
    type Array = Bound<'py, PyList>;
    type Dictionary = Bound<'py, PyDict>;
    type Object = ();
    type Strings = Vec<GodotString>;

    fn configure(&mut self, opts: &Options) {
        self.model.configure(opts);
    }

    fn nil(&mut self) -> Self::Value {
        self.none()
    }
    fn bool(&mut self, v: bool) -> Self::Value {
        PyBool::new(self.py, v).to_owned().into_any()
    }
    fn int(&mut self, v: i64) -> Self::Value {
        PyInt::new(self.py, v).into_any()
    }
    fn float(&mut self, v: f64) -> Self::Value {
        PyFloat::new(self.py, v).into_any()
    }
    fn string(&mut self, s: &str) -> Self::Value {
        self.short.get(self.py, s).into_any()
    }
    fn string_name(&mut self, s: &str) -> Self::Value {
        let v = self.model.string_name(s);
        self.of(v)
    }
    fn real(&mut self, ty: RealType, components: WireReals<'_>) -> Self::Value {
        let v = self.model.real(ty, components);
        self.of(v)
    }
    fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Self::Value {
        let v = self.model.int_vector(ty, components);
        self.of(v)
    }
    fn color(&mut self, rgba: [f32; 4]) -> Self::Value {
        let v = self.model.color(rgba);
        self.of(v)
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Self::Value {
        let v = self.model.node_path(names, subnames, absolute);
        self.of(v)
    }
    fn rid(&mut self, id: u64) -> Self::Value {
        let v = self.model.rid(id);
        self.of(v)
    }
    fn object_id(&mut self, id: u64) -> Self::Value {
        let v = self.model.object_id(id);
        self.of(v)
    }
    fn callable(&mut self) -> Self::Value {
        let v = self.model.callable();
        self.of(v)
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Self::Value {
        let v = self.model.signal(name, object_id);
        self.of(v)
    }
    fn packed_bytes(&mut self, bytes: &[u8]) -> Self::Value {
        PyBytes::new(self.py, bytes).into_any()
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Self::Value {
        self.numbers::<4>("i", raw)
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Self::Value {
        self.numbers::<8>("q", raw)
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Self::Value {
        self.numbers::<4>("f", raw)
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Self::Value {
        self.numbers::<8>("d", raw)
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Self::Value {
        let v = self.model.packed_vectors(ty, raw, wide);
        self.of(v)
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Self::Value {
        let v = self.model.packed_colors(raw);
        self.of(v)
    }
    fn begin_strings(&mut self, capacity: usize) -> Self::Strings {
        self.model.begin_strings(capacity)
    }
    fn push_string(&mut self, strings: &mut Self::Strings, s: &str) {
        self.model.push_string(strings, s);
    }
    fn end_strings(&mut self, strings: Self::Strings) -> Self::Value {
        let v = self.model.end_strings(strings);
        self.of(v)
    }

    fn begin_array(
        &mut self,
        element: ContainerType,
        _capacity: usize,
        _claimed: usize,
    ) -> Result<Self::Array, DecodeReason> {
        if !element.is_untyped() {
            return self.model_only();
        }
        Ok(PyList::empty(self.py))
    }
    fn push(&mut self, array: &mut Self::Array, v: Self::Value) -> Result<(), DecodeReason> {
        if let Err(e) = array.append(v) {
            self.failed.get_or_insert(e);
        }
        Ok(())
    }
    fn end_array(&mut self, array: Self::Array) -> Self::Value {
        array.into_any()
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        _capacity: usize,
        _claimed: usize,
    ) -> Result<Self::Dictionary, DecodeReason> {
        if !key.is_untyped() || !value.is_untyped() {
            return self.model_only();
        }
        Ok(PyDict::new(self.py))
    }
    /// Keys that are str or int (not bool) and all different: a dict holds them as the model
    /// does. Any other key (one the engine may find equal to another, or Python may) goes to
    /// the model.
    fn insert(
        &mut self,
        dict: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), DecodeReason> {
        if !(key.is_exact_instance_of::<PyString>() || key.is_exact_instance_of::<PyInt>()) {
            return self.model_only();
        }
        let before = dict.len();
        if let Err(e) = dict.set_item(key, value) {
            self.failed.get_or_insert(e);
            return Ok(());
        }
        if dict.len() == before {
            return self.model_only();
        }
        Ok(())
    }
    fn end_dictionary(&mut self, dict: Self::Dictionary) -> Self::Value {
        dict.into_any()
    }
    fn begin_object(&mut self, _class: &str) -> Result<Self::Object, DecodeReason> {
        self.model_only()
    }
    fn set_property(
        &mut self,
        _object: &mut Self::Object,
        _name: &str,
        _value: Self::Value,
    ) -> Result<(), DecodeReason> {
        self.model_only()
    }
    fn end_object(&mut self, _object: Self::Object) -> Result<Self::Value, DecodeReason> {
        self.model_only()
    }
}

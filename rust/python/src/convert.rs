//! Python objects to the core's `Value` and back. The type mapping (docs/python.md):
//! None, bool, int, float, str, bytes, list, dict for the plain types; the package's classes
//! (`crate::classes`) for the others; `array.array` for the number packed arrays.

use fast_var_codec_core::reader::guard_stack;
use fast_var_codec_core::value::ContainerType;
use fast_var_codec_core::value::{Array, Dictionary, GodotString, NodePath, Object, VariantType};
use fast_var_codec_core::Value;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType,
};

use crate::classes::{types, Kind, Types};
use crate::errors::encode_error;
use crate::frozen::FrozenLayout;

/// Deeper Python values are refused on encode (as the core refuses deeper input): a cycle
/// (a list that holds itself) ends here too.
pub(crate) const MAX_DEPTH: usize = fast_var_codec_core::options::MAX_DEPTH_CEILING;

// ---------------------------------------------------------------------------------------------
// Python to Value

/// Why a Python value could not be translated: a Python error, or a value with no Godot type,
/// with the path to it (innermost step first).
pub(crate) enum ToError {
    Py(PyErr),
    Bad {
        rev_path: Vec<String>,
        message: String,
    },
}

impl From<PyErr> for ToError {
    fn from(e: PyErr) -> Self {
        ToError::Py(e)
    }
}

impl ToError {
    fn within(mut self, step: impl FnOnce() -> String) -> Self {
        if let ToError::Bad { rev_path, .. } = &mut self {
            rev_path.push(step());
        }
        self
    }
}

fn bad<T>(message: impl Into<String>) -> Result<T, ToError> {
    Err(ToError::Bad {
        rev_path: Vec::new(),
        message: message.into(),
    })
}

pub(crate) type ToResult<T> = Result<T, ToError>;

/// The `Value` of a Python object; an `EncodeError` for one that has no Godot type.
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let py = obj.py();
    let t = types(py)?;
    let converter = Converter { t };
    match converter.value(obj, 0) {
        Ok(v) => Ok(v),
        Err(ToError::Py(e)) => Err(e),
        Err(ToError::Bad { rev_path, message }) => {
            let path: String = rev_path.iter().rev().map(String::as_str).collect();
            Err(encode_error(py, &path, message))
        }
    }
}

/// The `Value` of `obj` found at `depth` inside the value being encoded, for the walk that
/// writes straight from Python objects (`to_wire`) on what it does not take itself; None when
/// it has none ([`to_value`] of the whole value says why and where).
pub(crate) fn value_at(t: &Types, obj: &Bound<'_, PyAny>, depth: usize) -> Option<Value> {
    Converter { t }.value(obj, depth).ok()
}

/// The `Value` of an instance of exactly `Vector2` or `Vector3` (a message's usual math values),
/// read from its slots as [`value_at`] reads its attributes; None for any other object, or
/// components that are not floats ([`value_at`] then reads it).
pub(crate) fn exact_vector(t: &Types, obj: &Bound<'_, PyAny>) -> Option<Value> {
    let ty = obj.get_type_ptr();
    if ty == t.vector2.as_ptr().cast() {
        return Some(Value::Vector2(slot_reals(t, &t.vector2, obj)?));
    }
    if ty == t.vector3.as_ptr().cast() {
        return Some(Value::Vector3(slot_reals(t, &t.vector3, obj)?));
    }
    None
}

fn slot_reals<const N: usize>(
    t: &Types,
    cls: &Py<PyType>,
    obj: &Bound<'_, PyAny>,
) -> Option<[f64; N]> {
    let key = cls.as_ptr() as usize;
    let (_, layout) = t.slots.iter().find(|(k, _)| *k == key)?;
    let mut out = [0.0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = layout.slot(obj, i)?.cast_exact::<PyFloat>().ok()?.value();
    }
    Some(out)
}

struct Converter<'t> {
    t: &'t Types,
}

/// An attribute of `obj`; the components' names as interned strs made once (a str made per
/// lookup, and its hash, was a good part of a Vector2's encode).
fn attr<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let key = match name {
        "x" => intern!(py, "x"),
        "y" => intern!(py, "y"),
        "z" => intern!(py, "z"),
        "w" => intern!(py, "w"),
        "r" => intern!(py, "r"),
        "g" => intern!(py, "g"),
        "b" => intern!(py, "b"),
        "a" => intern!(py, "a"),
        "position" => intern!(py, "position"),
        "size" => intern!(py, "size"),
        "name" => intern!(py, "name"),
        other => return obj.getattr(other),
    };
    obj.getattr(key)
}

fn real(obj: &Bound<'_, PyAny>, name: &str) -> ToResult<f64> {
    Ok(attr(obj, name)?.extract::<f64>()?)
}

fn int32(obj: &Bound<'_, PyAny>, name: &str) -> ToResult<i32> {
    let v = attr(obj, name)?;
    match v.extract::<i32>() {
        Ok(i) => Ok(i),
        Err(_) => bad(format!("component {name} = {v} is not an int32")),
    }
}

fn u64_of(obj: &Bound<'_, PyAny>, name: &str) -> ToResult<u64> {
    let v = attr(obj, name)?;
    match v.extract::<u64>() {
        Ok(i) => Ok(i),
        Err(_) => bad(format!("{name} = {v} is not a 64-bit unsigned id")),
    }
}

fn reals<const N: usize>(obj: &Bound<'_, PyAny>, names: [&str; N]) -> ToResult<[f64; N]> {
    let mut out = [0.0; N];
    for (slot, name) in out.iter_mut().zip(names) {
        *slot = real(obj, name)?;
    }
    Ok(out)
}

fn ints<const N: usize>(obj: &Bound<'_, PyAny>, names: [&str; N]) -> ToResult<[i32; N]> {
    let mut out = [0; N];
    for (slot, name) in out.iter_mut().zip(names) {
        *slot = int32(obj, name)?;
    }
    Ok(out)
}

const XY: [&str; 2] = ["x", "y"];
const XYZ: [&str; 3] = ["x", "y", "z"];
const XYZW: [&str; 4] = ["x", "y", "z", "w"];

/// The `ContainerType` of an element type: None, or a name as the core reads it
/// (`ContainerType::from_name`: a builtin as Godot spells it, a class, a `res://` script path).
fn container_type(obj: &Bound<'_, PyAny>) -> ToResult<ContainerType> {
    if obj.is_none() {
        return Ok(ContainerType::Untyped);
    }
    let Ok(name) = obj.extract::<String>() else {
        return bad(format!(
            "an element type is a type's name (\"int\", \"Node\", \"res://x.gd\") or None, not {obj}"
        ));
    };
    ContainerType::from_name(&name).or_else(|e| bad(e.to_string()))
}

/// The bytes of an `array.array` as elements of `N` bytes, each made by `make` from its
/// native-order bytes.
fn array_elements<const N: usize, T>(
    obj: &Bound<'_, PyAny>,
    make: impl Fn([u8; N]) -> T,
) -> ToResult<Vec<T>> {
    let raw = obj.call_method0("tobytes")?;
    let raw = raw.cast::<PyBytes>().map_err(PyErr::from)?;
    Ok(raw
        .as_bytes()
        .chunks_exact(N)
        .map(|c| {
            let mut b = [0u8; N];
            b.copy_from_slice(c);
            make(b)
        })
        .collect())
}

/// The components of a packed vector array's `data` (an `array('d')`, or `array('f')` for
/// colors), grouped by `N`.
fn grouped<const N: usize>(data: &[f64]) -> Vec<[f64; N]> {
    data.chunks_exact(N)
        .map(|c| {
            let mut a = [0.0; N];
            a.copy_from_slice(c);
            a
        })
        .collect()
}

fn flat_reals(obj: &Bound<'_, PyAny>) -> ToResult<Vec<f64>> {
    let data = attr(obj, "data")?;
    let code: String = attr(&data, "typecode")?.extract()?;
    match code.as_str() {
        "d" => array_elements(&data, f64::from_ne_bytes),
        "f" => array_elements(&data, |b| f64::from(f32::from_ne_bytes(b))),
        other => bad(format!(
            "a packed vector array's data of typecode {other:?}"
        )),
    }
}

impl Converter<'_> {
    /// The `Value` of `obj`, each level on a stack with room (the core's guard: a deep value
    /// would otherwise overflow a small thread stack, or any stack in an unoptimized build).
    fn value(&self, obj: &Bound<'_, PyAny>, depth: usize) -> ToResult<Value> {
        guard_stack(|| self.value_here(obj, depth))
    }

    fn value_here(&self, obj: &Bound<'_, PyAny>, depth: usize) -> ToResult<Value> {
        if depth > MAX_DEPTH {
            return bad(format!(
                "nested deeper than {MAX_DEPTH} levels (or holds itself)"
            ));
        }
        if obj.is_none() {
            return Ok(Value::Nil);
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if obj.is_instance_of::<PyInt>() {
            return match obj.extract::<i64>() {
                Ok(i) => Ok(Value::Int(i)),
                Err(_) => bad(format!("the int {obj} is outside Godot's 64-bit range")),
            };
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return Ok(Value::Float(f.value()));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(Value::String(GodotString::from(utf8(s)?)));
        }
        if let Ok(list) = obj.cast::<PyList>() {
            return Ok(Value::array(self.items(list.iter(), depth)?));
        }
        if let Ok(dict) = obj.cast::<PyDict>() {
            return Ok(Value::dictionary(
                self.entries(dict.iter().map(|(k, v)| Ok((k, v))), depth)?,
            ));
        }
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return Ok(Value::array(self.items(tuple.iter(), depth)?));
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Value::PackedByteArray(b.as_bytes().to_vec()));
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            return Ok(Value::PackedByteArray(b.to_vec()));
        }
        let ty = obj.get_type();
        let kind = self
            .t
            .kinds
            .iter()
            .find(|(cls, _)| cls.as_ptr() == ty.as_ptr())
            .or_else(|| {
                self.t
                    .kinds
                    .iter()
                    .find(|(cls, _)| obj.is_instance(cls.bind(obj.py())).unwrap_or(false))
            })
            .map(|(_, k)| *k);
        let Some(kind) = kind else {
            if obj.hasattr("dtype")? && obj.hasattr("tobytes")? {
                return numpy_value(obj);
            }
            if obj.hasattr("__index__")? {
                return index_int(obj);
            }
            if let Some(v) = buffer_value(obj)? {
                return Ok(v);
            }
            return bad(format!(
                "a value of type {} has no Godot type",
                ty.name().map(|n| n.to_string()).unwrap_or_default()
            ));
        };
        self.registered(obj, kind, depth)
    }

    fn items<'py>(
        &self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        depth: usize,
    ) -> ToResult<Vec<Value>> {
        items
            .enumerate()
            .map(|(i, item)| {
                self.value(&item, depth + 1)
                    .map_err(|e| e.within(|| format!("[{i}]")))
            })
            .collect()
    }

    fn entries<'py>(
        &self,
        entries: impl Iterator<Item = PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)>>,
        depth: usize,
    ) -> ToResult<Vec<(Value, Value)>> {
        entries
            .map(|entry| {
                let (k, v) = entry?;
                // As the core labels keys (`["hp"]`); other keys by their repr.
                let label = || match k
                    .cast::<PyString>()
                    .ok()
                    .and_then(|s| s.to_cow().ok().map(|c| c.into_owned()))
                {
                    Some(s) => format!("[{s:?}]"),
                    None => format!("[{}]", k.repr().map(|r| r.to_string()).unwrap_or_default()),
                };
                let key = self.value(&k, depth + 1).map_err(|e| e.within(label))?;
                let value = self.value(&v, depth + 1).map_err(|e| e.within(label))?;
                Ok((key, value))
            })
            .collect()
    }

    fn registered(&self, obj: &Bound<'_, PyAny>, kind: Kind, depth: usize) -> ToResult<Value> {
        let sub = |name: &str| attr(obj, name);
        Ok(match kind {
            Kind::Vector2 => Value::Vector2(reals(obj, XY)?),
            Kind::Vector2i => Value::Vector2i(ints(obj, XY)?),
            Kind::Vector3 => Value::Vector3(reals(obj, XYZ)?),
            Kind::Vector3i => Value::Vector3i(ints(obj, XYZ)?),
            Kind::Vector4 => Value::Vector4(Box::new(reals(obj, XYZW)?)),
            Kind::Vector4i => Value::Vector4i(ints(obj, XYZW)?),
            Kind::Quaternion => Value::Quaternion(Box::new(reals(obj, XYZW)?)),
            Kind::Color => {
                let c = reals(obj, ["r", "g", "b", "a"])?;
                Value::Color(c.map(|x| x as f32))
            }
            Kind::Rect2 => {
                let [px, py] = reals(&sub("position")?, XY)?;
                let [sx, sy] = reals(&sub("size")?, XY)?;
                Value::Rect2(Box::new([px, py, sx, sy]))
            }
            Kind::Rect2i => {
                let [px, py] = ints(&sub("position")?, XY)?;
                let [sx, sy] = ints(&sub("size")?, XY)?;
                Value::Rect2i([px, py, sx, sy])
            }
            Kind::Aabb => {
                let [px, py, pz] = reals(&sub("position")?, XYZ)?;
                let [sx, sy, sz] = reals(&sub("size")?, XYZ)?;
                Value::Aabb(Box::new([px, py, pz, sx, sy, sz]))
            }
            Kind::Plane => {
                let [x, y, z] = reals(&sub("normal")?, XYZ)?;
                Value::Plane(Box::new([x, y, z, real(obj, "d")?]))
            }
            Kind::Transform2D => {
                let [xx, xy] = reals(&sub("x")?, XY)?;
                let [yx, yy] = reals(&sub("y")?, XY)?;
                let [ox, oy] = reals(&sub("origin")?, XY)?;
                Value::Transform2D(Box::new([xx, xy, yx, yy, ox, oy]))
            }
            Kind::Basis => Value::Basis(Box::new(basis_rows(obj)?)),
            Kind::Transform3D => {
                let rows = basis_rows(&sub("basis")?)?;
                let origin = reals(&sub("origin")?, XYZ)?;
                let mut w = [0.0; 12];
                w[..9].copy_from_slice(&rows);
                w[9..].copy_from_slice(&origin);
                Value::Transform3D(Box::new(w))
            }
            Kind::Projection => {
                let mut w = [0.0; 16];
                for (i, column) in XYZW.iter().enumerate() {
                    w[i * 4..i * 4 + 4].copy_from_slice(&reals(&sub(column)?, XYZW)?);
                }
                Value::Projection(Box::new(w))
            }
            Kind::StringName => Value::StringName(GodotString::from(text(&sub("name")?)?)),
            Kind::NodePath => Value::NodePath(Box::new(NodePath {
                names: texts(&sub("names")?)?,
                subnames: texts(&sub("subnames")?)?,
                absolute: sub("absolute")?.extract()?,
            })),
            Kind::Rid => Value::Rid(u64_of(obj, "id")?),
            Kind::ObjectId => Value::ObjectId(u64_of(obj, "object_id")?),
            Kind::Callable => Value::Callable,
            Kind::Signal => Value::Signal {
                name: text(&sub("name")?)?.into_boxed_str(),
                object_id: u64_of(obj, "object_id")?,
            },
            Kind::Object => {
                let props = sub("properties")?;
                let props = props.cast::<PyDict>().map_err(PyErr::from)?;
                let mut properties = Vec::with_capacity(props.len());
                for (k, v) in props.iter() {
                    if !k.is_instance_of::<PyString>() {
                        return bad(format!("an Object's property name must be a str, not {k}"));
                    }
                    let name = text(&k)?;
                    let value = self
                        .value(&v, depth + 1)
                        .map_err(|e| e.within(|| format!(".{name}")))?;
                    properties.push((name, value));
                }
                Value::Object(Box::new(Object {
                    class: text(&sub("class_name")?)?,
                    properties,
                }))
            }
            Kind::TypedArray => {
                let element = container_type(&sub("element_type")?)?;
                let items = sub("items")?.try_iter()?.collect::<PyResult<Vec<_>>>()?;
                let items = self.items(items.into_iter(), depth)?;
                Value::Array(Box::new(Array { element, items }))
            }
            Kind::TypedDictionary => {
                let key = container_type(&sub("key_type")?)?;
                let value = container_type(&sub("value_type")?)?;
                // Its entries in order, as (key, value) pairs: keys a dict could not hold too.
                let items = obj.call_method0("pairs")?;
                let pairs = items.try_iter()?.map(|pair| {
                    let pair = pair?;
                    Ok((pair.get_item(0)?, pair.get_item(1)?))
                });
                let entries = self.entries(pairs, depth)?;
                Value::typed_dictionary(key, value, entries)
            }
            Kind::PackedStrings => {
                let strings: Vec<String> = texts(&sub("strings")?)?;
                Value::PackedStringArray(strings.into_iter().map(GodotString::from).collect())
            }
            Kind::PackedVector2 => Value::PackedVector2Array(grouped(&flat_reals(obj)?)),
            Kind::PackedVector3 => Value::PackedVector3Array(grouped(&flat_reals(obj)?)),
            Kind::PackedVector4 => Value::PackedVector4Array(grouped(&flat_reals(obj)?)),
            Kind::PackedColor => Value::PackedColorArray(
                grouped::<4>(&flat_reals(obj)?)
                    .into_iter()
                    .map(|c| c.map(|x| x as f32))
                    .collect(),
            ),
            Kind::NumberArray => number_array_value(obj)?,
        })
    }
}

/// The UTF-8 text of a str; an encode error for one that has none (a lone surrogate, which
/// Python's str may hold but UTF-8, and so Godot's binary format, cannot).
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> ToResult<std::borrow::Cow<'a, str>> {
    match s.to_cow() {
        Ok(text) => Ok(text),
        Err(e) => {
            let py = s.py();
            let at = e
                .value(py)
                .getattr("start")
                .and_then(|a| a.extract::<usize>())
                .ok();
            let ch = at
                .and_then(|i| s.get_item(i).ok())
                .and_then(|c| {
                    py.import("builtins")
                        .ok()?
                        .getattr("ord")
                        .ok()?
                        .call1((c,))
                        .ok()
                })
                .and_then(|o| o.extract::<u32>().ok());
            bad(match (at, ch) {
                (Some(i), Some(c)) => format!(
                    "a str holding a lone surrogate (U+{c:04X} at index {i}) has no UTF-8 form, and Godot's binary format holds only UTF-8"
                ),
                _ => "a str holding a lone surrogate has no UTF-8 form, and Godot's binary format holds only UTF-8".to_owned(),
            })
        }
    }
}

/// The text of a str field (a StringName's name, a class or property name ...).
fn text(obj: &Bound<'_, PyAny>) -> ToResult<String> {
    let s = obj.cast::<PyString>().map_err(PyErr::from)?;
    Ok(utf8(s)?.into_owned())
}

/// The texts of an iterable of str (NodePath parts, PackedStringArray items).
fn texts(obj: &Bound<'_, PyAny>) -> ToResult<Vec<String>> {
    obj.try_iter()?.map(|item| text(&item?)).collect()
}

/// The int of an object with `__index__` (numpy's integer scalars, ...), as Python's
/// `operator.index` gives it.
fn index_int(obj: &Bound<'_, PyAny>) -> ToResult<Value> {
    let i = obj.call_method0("__index__")?;
    match i.extract::<i64>() {
        Ok(i) => Ok(Value::Int(i)),
        Err(_) => bad(format!("the int {i} is outside Godot's 64-bit range")),
    }
}

/// A numpy value (anything with numpy's `dtype`, `ndim` and `tobytes`): a scalar (0
/// dimensions) of a bool, int or float dtype as a bool, int or float; an array as
/// [`numpy_array`] takes it.
fn numpy_value(obj: &Bound<'_, PyAny>) -> ToResult<Value> {
    let ndim: usize = attr(obj, "ndim")?.extract()?;
    if ndim == 0 {
        let kind: String = attr(&attr(obj, "dtype")?, "kind")?.extract()?;
        match kind.as_str() {
            "b" => return Ok(Value::Bool(obj.is_truthy()?)),
            "i" | "u" => return index_int(obj),
            "f" => {
                let f = obj.py().get_type::<PyFloat>().call1((obj,))?;
                return Ok(Value::Float(f.extract::<f64>()?));
            }
            _ => {}
        }
    }
    numpy_array(obj)
}

/// A copy of the bytes of any object with the buffer protocol (`memoryview(obj).tobytes()`);
/// None for an object without it.
pub fn buffer_bytes<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let py = obj.py();
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Some(PyBytes::new(py, &b.to_vec())));
    }
    let view = match py.get_type::<pyo3::types::PyMemoryView>().call1((obj,)) {
        Ok(view) => view,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) => return Ok(None),
        Err(e) => return Err(e),
    };
    let raw = view.call_method0("tobytes")?;
    Ok(Some(raw.cast_into::<PyBytes>()?))
}

/// The packed array of an object with the buffer protocol (a `memoryview`, an `mmap` ...), by
/// its format as for `array.array`: bytes ('B') as a PackedByteArray, 'i', 'q', 'f', 'd' as the
/// number packed arrays. None for an object without it.
fn buffer_value(obj: &Bound<'_, PyAny>) -> ToResult<Option<Value>> {
    let py = obj.py();
    let view = match py.get_type::<pyo3::types::PyMemoryView>().call1((obj,)) {
        Ok(view) => view,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let format: String = attr(&view, "format")?.extract()?;
    let size: usize = attr(&view, "itemsize")?.extract()?;
    let raw = view.call_method0("tobytes")?;
    let raw = raw.cast::<PyBytes>().map_err(PyErr::from)?.as_bytes();
    fn words<const N: usize, T>(raw: &[u8], make: fn([u8; N]) -> T) -> Vec<T> {
        raw.chunks_exact(N)
            .map(|c| {
                let mut b = [0u8; N];
                b.copy_from_slice(c);
                make(b)
            })
            .collect()
    }
    let code = format.strip_prefix('@').unwrap_or(&format);
    Ok(Some(match (code, size) {
        ("B" | "c", 1) => Value::PackedByteArray(raw.to_vec()),
        ("i" | "l", 4) => Value::PackedInt32Array(words(raw, i32::from_ne_bytes)),
        ("q" | "l", 8) => Value::PackedInt64Array(words(raw, i64::from_ne_bytes)),
        ("f", 4) => Value::PackedFloat32Array(words(raw, f32::from_ne_bytes)),
        ("d", 8) => Value::PackedFloat64Array(words(raw, f64::from_ne_bytes)),
        _ => {
            return bad(format!(
                "a buffer of format {format:?} ({size}-byte items) has no packed type (use 'B', 'i', 'q', 'f' or 'd')"
            ))
        }
    }))
}

/// The wire's rows of a Basis given by its axes (columns) x, y, z.
fn basis_rows(obj: &Bound<'_, PyAny>) -> ToResult<[f64; 9]> {
    let x = reals(&attr(obj, "x")?, XYZ)?;
    let y = reals(&attr(obj, "y")?, XYZ)?;
    let z = reals(&attr(obj, "z")?, XYZ)?;
    Ok([x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]])
}

/// A number packed array of an `array.array`, by its typecode and item size.
fn number_array_value(obj: &Bound<'_, PyAny>) -> ToResult<Value> {
    let code: String = attr(obj, "typecode")?.extract()?;
    let size: usize = attr(obj, "itemsize")?.extract()?;
    Ok(match (code.as_str(), size) {
        ("B", 1) => Value::PackedByteArray(array_elements(obj, |[b]: [u8; 1]| b)?),
        ("i" | "l", 4) => Value::PackedInt32Array(array_elements(obj, i32::from_ne_bytes)?),
        ("q" | "l", 8) => Value::PackedInt64Array(array_elements(obj, i64::from_ne_bytes)?),
        ("f", 4) => Value::PackedFloat32Array(array_elements(obj, f32::from_ne_bytes)?),
        ("d", 8) => Value::PackedFloat64Array(array_elements(obj, f64::from_ne_bytes)?),
        _ => {
            return bad(format!(
                "an array('{code}') of {size}-byte items has no packed type (use 'B', 'i', 'q', 'f' or 'd')"
            ))
        }
    })
}

/// A number packed array of a one-dimensional numpy array (or anything with numpy's `dtype`,
/// `ndim` and `tobytes`), by its dtype: u1, i4, i8, f4, f8 in either byte order. numpy itself is
/// never imported.
fn numpy_array(obj: &Bound<'_, PyAny>) -> ToResult<Value> {
    let ndim: usize = attr(obj, "ndim")?.extract()?;
    let dtype: String = attr(&attr(obj, "dtype")?, "str")?.extract()?;
    if ndim != 1 {
        return bad(format!(
            "a {ndim}-dimensional array of {dtype} has no packed type (one dimension only)"
        ));
    }
    let raw = obj.call_method0("tobytes")?;
    let raw = raw.cast::<PyBytes>().map_err(PyErr::from)?.as_bytes();
    let big = dtype.starts_with('>') || (dtype.starts_with('=') && cfg!(target_endian = "big"));
    fn words<const N: usize, T>(raw: &[u8], big: bool, make: fn([u8; N]) -> T) -> Vec<T> {
        raw.chunks_exact(N)
            .map(|c| {
                let mut b = [0u8; N];
                b.copy_from_slice(c);
                if big {
                    b.reverse();
                }
                make(b)
            })
            .collect()
    }
    Ok(match dtype.get(1..) {
        Some("u1") => Value::PackedByteArray(raw.to_vec()),
        Some("i4") => Value::PackedInt32Array(words(raw, big, i32::from_le_bytes)),
        Some("i8") => Value::PackedInt64Array(words(raw, big, i64::from_le_bytes)),
        Some("f4") => Value::PackedFloat32Array(words(raw, big, f32::from_le_bytes)),
        Some("f8") => Value::PackedFloat64Array(words(raw, big, f64::from_le_bytes)),
        _ => {
            return bad(format!(
            "an array of dtype {dtype} has no packed type (uint8, int32, int64, float32, float64)"
        ))
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Value to Python

/// The Python object of a decoded `Value`.
pub fn from_value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    let t = types(py)?;
    Builder { py, t }.build(v)
}

/// [`from_value`] with the classes already looked up.
pub(crate) fn python_of<'py>(py: Python<'py>, t: &Types, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Builder { py, t }.build(v)
}

/// An `array.array` of `typecode` holding `bytes` (native order).
pub(crate) fn number_array<'py>(
    py: Python<'py>,
    t: &Types,
    typecode: &str,
    bytes: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    Builder { py, t }.number_array(typecode, bytes)
}

struct Builder<'py, 't> {
    py: Python<'py>,
    t: &'t Types,
}

impl<'py> Builder<'py, '_> {
    fn call(
        &self,
        cls: &Py<PyType>,
        args: impl pyo3::call::PyCallArgs<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        cls.bind(self.py).call1(args)
    }

    /// An instance of a frozen class with its slots set from `args` in order, as its `__init__`
    /// sets them, without running it: a Python frame for each Vector2 of a decode was most of
    /// its time. Classes not listed in `Types::slots` are called.
    fn frozen<A>(&self, cls: &Py<PyType>, args: A) -> PyResult<Bound<'py, PyAny>>
    where
        A: IntoPyObject<'py, Target = PyTuple, Output = Bound<'py, PyTuple>>,
        PyErr: From<A::Error>,
    {
        let args = args.into_pyobject(self.py)?;
        let cls = cls.bind(self.py);
        match self.layout(cls) {
            Some(layout) => layout.make_from_tuple(cls, &args),
            None => cls.call1(args),
        }
    }

    /// The layout of a frozen class, None for another class.
    fn layout(&self, cls: &Bound<'py, PyType>) -> Option<&FrozenLayout> {
        let key = cls.as_ptr() as usize;
        self.t
            .slots
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, layout)| layout)
    }

    /// An instance of a frozen class of real components (a Vector2 ...), as [`Builder::frozen`].
    fn reals<const N: usize>(&self, cls: &Py<PyType>, c: [f64; N]) -> PyResult<Bound<'py, PyAny>> {
        let cls = cls.bind(self.py);
        let values = c.map(|x| PyFloat::new(self.py, x).into_any());
        match self.layout(cls) {
            Some(layout) => layout.make(cls, &values),
            None => cls.call1(PyTuple::new(self.py, values)?),
        }
    }

    fn v2(&self, c: [f64; 2]) -> PyResult<Bound<'py, PyAny>> {
        self.reals(&self.t.vector2, c)
    }

    fn v2i(&self, c: [i32; 2]) -> PyResult<Bound<'py, PyAny>> {
        self.frozen(&self.t.vector2i, (c[0], c[1]))
    }

    fn v3(&self, c: [f64; 3]) -> PyResult<Bound<'py, PyAny>> {
        self.reals(&self.t.vector3, c)
    }

    fn v4(&self, c: [f64; 4]) -> PyResult<Bound<'py, PyAny>> {
        self.reals(&self.t.vector4, c)
    }

    fn basis(&self, w: &[f64]) -> PyResult<Bound<'py, PyAny>> {
        let col = |i: usize| self.v3([w[i], w[i + 3], w[i + 6]]);
        self.frozen(&self.t.basis, (col(0)?, col(1)?, col(2)?))
    }

    /// An `array.array` of `typecode` holding `bytes` (native order), copied once: the array
    /// reads them through a memoryview of them, released before they can go.
    fn number_array(&self, typecode: &str, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let a = self.call(&self.t.array, (typecode,))?;
        let len = pyo3::ffi::Py_ssize_t::try_from(bytes.len())
            .map_err(|e| pyo3::exceptions::PyOverflowError::new_err(e.to_string()))?;
        // Read-only (the C API's PyBUF_READ).
        const READ_ONLY: std::os::raw::c_int = 0x100;
        // SAFETY: `bytes` is valid for `len` bytes for this call, the lock held (`self.py`);
        // the memoryview only reads them (read-only), and is released below before `bytes` can
        // go: `frombytes` copies what it reads and keeps no reference to the view. The call
        // returns a new reference, or NULL with a Python error set.
        let view = unsafe {
            Bound::from_owned_ptr_or_err(
                self.py,
                pyo3::ffi::PyMemoryView_FromMemory(
                    bytes.as_ptr().cast_mut().cast(),
                    len,
                    READ_ONLY,
                ),
            )?
        };
        let read = a.call_method1("frombytes", (&view,));
        view.call_method0("release")?;
        read?;
        Ok(a)
    }

    fn element_type(&self, c: &ContainerType) -> PyResult<Bound<'py, PyAny>> {
        Ok(match c {
            ContainerType::Builtin(VariantType::Object) => PyString::new(self.py, "").into_any(),
            ContainerType::Builtin(t) => PyString::new(self.py, t.name()).into_any(),
            ContainerType::Class(name) | ContainerType::Script(name) => {
                PyString::new(self.py, name).into_any()
            }
            _ => self.py.None().into_bound(self.py),
        })
    }

    /// The Python object of `v`, each level on a stack with room (as `Converter::value`).
    fn build(&self, v: &Value) -> PyResult<Bound<'py, PyAny>> {
        guard_stack(|| self.build_here(v))
    }

    fn build_here(&self, v: &Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let t = self.t;
        Ok(match v {
            Value::Nil => py.None().into_bound(py),
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Value::Int(i) => i.into_pyobject(py)?.into_any(),
            Value::Float(f) => PyFloat::new(py, *f).into_any(),
            Value::String(s) => PyString::new(py, s.as_str()).into_any(),
            Value::Vector2(c) => self.v2(*c)?,
            Value::Vector2i(c) => self.v2i(*c)?,
            Value::Rect2(c) => {
                self.frozen(&t.rect2, (self.v2([c[0], c[1]])?, self.v2([c[2], c[3]])?))?
            }
            Value::Rect2i(c) => self.frozen(
                &t.rect2i,
                (self.v2i([c[0], c[1]])?, self.v2i([c[2], c[3]])?),
            )?,
            Value::Vector3(c) => self.v3(*c)?,
            Value::Vector3i(c) => self.frozen(&t.vector3i, (c[0], c[1], c[2]))?,
            Value::Transform2D(c) => self.frozen(
                &t.transform2d,
                (
                    self.v2([c[0], c[1]])?,
                    self.v2([c[2], c[3]])?,
                    self.v2([c[4], c[5]])?,
                ),
            )?,
            Value::Vector4(c) => self.v4(**c)?,
            Value::Vector4i(c) => self.frozen(&t.vector4i, (c[0], c[1], c[2], c[3]))?,
            Value::Plane(c) => self.frozen(&t.plane, (self.v3([c[0], c[1], c[2]])?, c[3]))?,
            Value::Quaternion(c) => self.frozen(&t.quaternion, (c[0], c[1], c[2], c[3]))?,
            Value::Aabb(c) => self.frozen(
                &t.aabb,
                (self.v3([c[0], c[1], c[2]])?, self.v3([c[3], c[4], c[5]])?),
            )?,
            Value::Basis(c) => self.basis(&c[..])?,
            Value::Transform3D(c) => self.frozen(
                &t.transform3d,
                (self.basis(&c[..9])?, self.v3([c[9], c[10], c[11]])?),
            )?,
            Value::Projection(c) => {
                let col = |i: usize| self.v4([c[i], c[i + 1], c[i + 2], c[i + 3]]);
                self.frozen(&t.projection, (col(0)?, col(4)?, col(8)?, col(12)?))?
            }
            Value::Color(c) => self.frozen(
                &t.color,
                (
                    f64::from(c[0]),
                    f64::from(c[1]),
                    f64::from(c[2]),
                    f64::from(c[3]),
                ),
            )?,
            Value::StringName(s) => self.frozen(&t.string_name, (s.as_str(),))?,
            Value::NodePath(p) => {
                let kwargs = pyo3::types::PyDict::new(py);
                kwargs.set_item("names", PyTuple::new(py, &p.names)?)?;
                kwargs.set_item("subnames", PyTuple::new(py, &p.subnames)?)?;
                kwargs.set_item("absolute", p.absolute)?;
                t.node_path.bind(py).call(("",), Some(&kwargs))?
            }
            Value::Rid(id) => self.frozen(&t.rid, (*id,))?,
            Value::ObjectId(id) => self.frozen(&t.object_id, (*id,))?,
            Value::Object(o) => {
                let props = PyDict::new(py);
                for (k, v) in &o.properties {
                    props.set_item(k, self.build(v)?)?;
                }
                self.frozen(&t.object, (o.class.as_str(), props))?
            }
            Value::Callable => self.call(&t.callable, ())?,
            Value::Signal { name, object_id } => self.frozen(&t.signal, (&**name, *object_id))?,
            Value::Dictionary(d) => self.dictionary(d)?,
            Value::Array(a) => {
                let list = PyList::empty(py);
                for item in &a.items {
                    list.append(self.build(item)?)?;
                }
                if a.element.is_untyped() {
                    list.into_any()
                } else {
                    self.frozen(&t.typed_array, (self.element_type(&a.element)?, list))?
                }
            }
            Value::PackedByteArray(b) => PyBytes::new(py, b).into_any(),
            Value::PackedInt32Array(a) => {
                self.number_array("i", &ne_bytes(a, |x| x.to_ne_bytes()))?
            }
            Value::PackedInt64Array(a) => {
                self.number_array("q", &ne_bytes(a, |x| x.to_ne_bytes()))?
            }
            Value::PackedFloat32Array(a) => {
                self.number_array("f", &ne_bytes(a, |x| x.to_ne_bytes()))?
            }
            Value::PackedFloat64Array(a) => {
                self.number_array("d", &ne_bytes(a, |x| x.to_ne_bytes()))?
            }
            Value::PackedStringArray(s) => {
                let strings = PyTuple::new(py, s.iter().map(|s| s.as_str()))?;
                self.call(&t.packed_strings, (strings,))?
            }
            Value::PackedVector2Array(a) => {
                self.packed_vectors(&t.packed_vector2, a.as_flattened())?
            }
            Value::PackedVector3Array(a) => {
                self.packed_vectors(&t.packed_vector3, a.as_flattened())?
            }
            Value::PackedVector4Array(a) => {
                self.packed_vectors(&t.packed_vector4, a.as_flattened())?
            }
            Value::PackedColorArray(a) => {
                let data =
                    self.number_array("f", &ne_bytes(a.as_flattened(), |x| x.to_ne_bytes()))?;
                self.call(&t.packed_color, (data,))?
            }
        })
    }

    fn packed_vectors(&self, cls: &Py<PyType>, flat: &[f64]) -> PyResult<Bound<'py, PyAny>> {
        let data = self.number_array("d", &ne_bytes(flat, |x| x.to_ne_bytes()))?;
        self.call(cls, (data,))
    }

    /// A dict, or a TypedDictionary when typed or when a dict cannot hold the keys (unhashable,
    /// or equal in Python but two keys in Godot).
    fn dictionary(&self, d: &Dictionary) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let mut pairs = Vec::with_capacity(d.len());
        for (k, v) in d {
            pairs.push((self.build(k)?, self.build(v)?));
        }
        let dict = PyDict::new(py);
        let mut fits = true;
        for (k, v) in &pairs {
            if dict.set_item(k, v).is_err() {
                fits = false;
                break;
            }
        }
        fits &= dict.len() == pairs.len();
        let typed = !d.key.is_untyped() || !d.value.is_untyped();
        if fits && !typed {
            return Ok(dict.into_any());
        }
        let items = if fits {
            dict.into_any()
        } else {
            let list = PyList::empty(py);
            for (k, v) in pairs {
                list.append(PyTuple::new(py, [k, v])?)?;
            }
            list.into_any()
        };
        self.call(
            &self.t.typed_dictionary,
            (
                self.element_type(&d.key)?,
                self.element_type(&d.value)?,
                items,
            ),
        )
    }
}

/// The native-order bytes of numbers, for `array.frombytes`.
fn ne_bytes<T: Copy, const N: usize>(items: &[T], bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(items.len() * N);
    for &x in items {
        out.extend_from_slice(&bytes(x));
    }
    out
}

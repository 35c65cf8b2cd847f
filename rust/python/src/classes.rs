//! The package's Python classes (`fast_var_codec._types`, `fast_var_codec._containers`) and
//! exceptions, imported once: what the conversion builds and recognizes (`convert`, `from_wire`,
//! `to_wire`) and what errors are raised as (`errors`).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::frozen::FrozenLayout;

/// The Python classes the conversion builds and recognizes, looked up once.
pub(crate) struct Types {
    pub(crate) kinds: Vec<(Py<PyType>, Kind)>,
    pub(crate) array: Py<PyType>,
    pub(crate) vector2: Py<PyType>,
    pub(crate) vector2i: Py<PyType>,
    pub(crate) rect2: Py<PyType>,
    pub(crate) rect2i: Py<PyType>,
    pub(crate) vector3: Py<PyType>,
    pub(crate) vector3i: Py<PyType>,
    pub(crate) transform2d: Py<PyType>,
    pub(crate) vector4: Py<PyType>,
    pub(crate) vector4i: Py<PyType>,
    pub(crate) plane: Py<PyType>,
    pub(crate) quaternion: Py<PyType>,
    pub(crate) aabb: Py<PyType>,
    pub(crate) basis: Py<PyType>,
    pub(crate) transform3d: Py<PyType>,
    pub(crate) projection: Py<PyType>,
    pub(crate) color: Py<PyType>,
    pub(crate) string_name: Py<PyType>,
    pub(crate) node_path: Py<PyType>,
    pub(crate) rid: Py<PyType>,
    pub(crate) object_id: Py<PyType>,
    pub(crate) object: Py<PyType>,
    pub(crate) callable: Py<PyType>,
    pub(crate) signal: Py<PyType>,
    pub(crate) typed_array: Py<PyType>,
    pub(crate) typed_dictionary: Py<PyType>,
    pub(crate) packed_strings: Py<PyType>,
    pub(crate) packed_vector2: Py<PyType>,
    pub(crate) packed_vector3: Py<PyType>,
    pub(crate) packed_vector4: Py<PyType>,
    pub(crate) packed_color: Py<PyType>,
    pub(crate) decode_error: Py<PyType>,
    pub(crate) extra_data: Py<PyType>,
    pub(crate) encode_error: Py<PyType>,
    pub(crate) save_file_error: Py<PyType>,
    pub(crate) out_of_data: Py<PyType>,
    /// Each frozen class's slots (keyed by the class's address): how decoded values are
    /// made without their `__init__`.
    pub(crate) slots: Vec<(usize, FrozenLayout)>,
}

/// Which Godot type a registered class stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Vector2,
    Vector2i,
    Rect2,
    Rect2i,
    Vector3,
    Vector3i,
    Transform2D,
    Vector4,
    Vector4i,
    Plane,
    Quaternion,
    Aabb,
    Basis,
    Transform3D,
    Projection,
    Color,
    StringName,
    NodePath,
    Rid,
    ObjectId,
    Object,
    Callable,
    Signal,
    TypedArray,
    TypedDictionary,
    PackedStrings,
    PackedVector2,
    PackedVector3,
    PackedVector4,
    PackedColor,
    NumberArray,
}

static TYPES: PyOnceLock<Types> = PyOnceLock::new();

/// The classes, imported on first use.
pub(crate) fn types(py: Python<'_>) -> PyResult<&Types> {
    TYPES.get_or_try_init(py, || {
        let m = py.import("fast_var_codec._types")?;
        let get = |name: &str| -> PyResult<Py<PyType>> {
            Ok(m.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        let containers = py.import("fast_var_codec._containers")?;
        let container = |name: &str| -> PyResult<Py<PyType>> {
            Ok(containers.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        let array = py
            .import("array")?
            .getattr("array")?
            .cast_into::<PyType>()?
            .unbind();
        let mut t = Types {
            kinds: Vec::new(),
            array,
            vector2: get("Vector2")?,
            vector2i: get("Vector2i")?,
            rect2: get("Rect2")?,
            rect2i: get("Rect2i")?,
            vector3: get("Vector3")?,
            vector3i: get("Vector3i")?,
            transform2d: get("Transform2D")?,
            vector4: get("Vector4")?,
            vector4i: get("Vector4i")?,
            plane: get("Plane")?,
            quaternion: get("Quaternion")?,
            aabb: get("AABB")?,
            basis: get("Basis")?,
            transform3d: get("Transform3D")?,
            projection: get("Projection")?,
            color: get("Color")?,
            string_name: get("StringName")?,
            node_path: get("NodePath")?,
            rid: get("RID")?,
            object_id: get("EncodedObjectAsID")?,
            object: get("Object")?,
            callable: get("Callable")?,
            signal: get("Signal")?,
            typed_array: container("TypedArray")?,
            typed_dictionary: container("TypedDictionary")?,
            packed_strings: get("PackedStringArray")?,
            packed_vector2: get("PackedVector2Array")?,
            packed_vector3: get("PackedVector3Array")?,
            packed_vector4: get("PackedVector4Array")?,
            packed_color: get("PackedColorArray")?,
            decode_error: get("DecodeError")?,
            extra_data: get("ExtraData")?,
            encode_error: get("EncodeError")?,
            save_file_error: get("SaveFileError")?,
            out_of_data: get("OutOfData")?,
            slots: Vec::new(),
        };
        let c = |p: &Py<PyType>| p.clone_ref(py);
        // The classes whose `__init__` only stores its arguments, converted to the field's
        // type: what the builder passes already is of that type.
        for cls in [
            &t.vector2,
            &t.vector2i,
            &t.rect2,
            &t.rect2i,
            &t.vector3,
            &t.vector3i,
            &t.transform2d,
            &t.vector4,
            &t.vector4i,
            &t.plane,
            &t.quaternion,
            &t.aabb,
            &t.basis,
            &t.transform3d,
            &t.projection,
            &t.color,
            &t.string_name,
            &t.rid,
            &t.object_id,
            &t.object,
            &t.signal,
            &t.typed_array,
        ] {
            let layout = FrozenLayout::of(cls.bind(py))?;
            t.slots.push((cls.as_ptr() as usize, layout));
        }
        t.kinds = vec![
            (c(&t.vector2), Kind::Vector2),
            (c(&t.vector3), Kind::Vector3),
            (c(&t.color), Kind::Color),
            (c(&t.string_name), Kind::StringName),
            (c(&t.vector2i), Kind::Vector2i),
            (c(&t.vector3i), Kind::Vector3i),
            (c(&t.quaternion), Kind::Quaternion),
            (c(&t.rect2), Kind::Rect2),
            (c(&t.rect2i), Kind::Rect2i),
            (c(&t.transform2d), Kind::Transform2D),
            (c(&t.vector4), Kind::Vector4),
            (c(&t.vector4i), Kind::Vector4i),
            (c(&t.plane), Kind::Plane),
            (c(&t.aabb), Kind::Aabb),
            (c(&t.basis), Kind::Basis),
            (c(&t.transform3d), Kind::Transform3D),
            (c(&t.projection), Kind::Projection),
            (c(&t.node_path), Kind::NodePath),
            (c(&t.rid), Kind::Rid),
            (c(&t.object_id), Kind::ObjectId),
            (c(&t.object), Kind::Object),
            (c(&t.callable), Kind::Callable),
            (c(&t.signal), Kind::Signal),
            (c(&t.typed_array), Kind::TypedArray),
            (c(&t.typed_dictionary), Kind::TypedDictionary),
            (c(&t.packed_strings), Kind::PackedStrings),
            (c(&t.packed_vector2), Kind::PackedVector2),
            (c(&t.packed_vector3), Kind::PackedVector3),
            (c(&t.packed_vector4), Kind::PackedVector4),
            (c(&t.packed_color), Kind::PackedColor),
            (c(&t.array), Kind::NumberArray),
        ];
        Ok(t)
    })
}

//! The walk that feeds a [`Value`] to the [`Writer`]: every encode of the model goes through it.

use super::build::{admit_element, type_kept_as_is};
use super::Value;
use crate::dialect::Precision;
use crate::error::{CodecError, EncodeReason, PathSegment, Result};
use crate::sink::Sink;
use crate::stack;
use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType, VariantType};
use crate::writer::Writer;

/// Feeds `v` to the writer; errors carry the path to the value that failed.
///
/// # Errors
/// What the [`Writer`] refuses (see [`crate::encode`]), with the path from `v` to the value
/// that failed; [`EncodeReason::Invalid`] for an object's `script` property that is neither
/// a String nor NIL.
pub fn write_value<S: Sink>(w: &mut Writer<'_, S>, v: &Value) -> Result<()> {
    match v {
        // Each level of nesting on a stack with room for it (`crate::stack`).
        Value::Object(_) | Value::Dictionary(_) | Value::Array(_) => {
            stack::guard(|| write_container(w, v))
        }
        leaf => write_leaf(w, leaf),
    }
}

/// An Object, Dictionary or Array and what it holds.
fn write_container<S: Sink>(w: &mut Writer<'_, S>, v: &Value) -> Result<()> {
    match v {
        Value::Object(o) => {
            w.begin_object(o.class.as_str(), o.properties.len())?;
            for (name, value) in &o.properties {
                let at = || PathSegment::Property(name.clone());
                match (name.as_str(), value) {
                    ("script", Value::Nil) => w.script_property(None)?,
                    ("script", Value::String(path)) => {
                        w.script_property(Some(path)).map_err(|e| e.within(at()))?
                    }
                    ("script", _) => {
                        return Err(CodecError::encode(EncodeReason::Invalid(
                            "a script property holds a res:// path or null".into(),
                        ))
                        .within(at()))
                    }
                    _ => {
                        w.property_name(name.as_str())?;
                        write_value(w, value).map_err(|e| e.within(at()))?;
                    }
                }
            }
            w.end_object();
            Ok(())
        }
        Value::Dictionary(d) => {
            let spec = w.options().dialect.spec();
            let typed = spec.typed_dictionaries;
            w.begin_dictionary(&d.key, &d.value, d.entries.len())?;
            for (k, v) in &d.entries {
                let at = || PathSegment::Key(k.key_label());
                if typed {
                    let container = || format!("Dictionary[{}, {}]", d.key, d.value);
                    write_element(w, &d.key, k, "key", &container).map_err(|e| e.within(at()))?;
                    // Values as they are: the engine keeps a value of another type on decode
                    // (only keys are converted or dropped), so nothing is lost.
                    write_value(w, v).map_err(|e| e.within(at()))?;
                } else {
                    write_value(w, k).map_err(|e| e.within(at()))?;
                    write_value(w, v).map_err(|e| e.within(at()))?;
                }
            }
            w.end_dictionary();
            Ok(())
        }
        Value::Array(a) => {
            let spec = w.options().dialect.spec();
            let typed = spec.typed_arrays || spec.typed_array_id.is_some();
            w.begin_array(&a.element, a.items.len())?;
            for (i, item) in a.items.iter().enumerate() {
                let written = if typed {
                    write_element(w, &a.element, item, "item", &|| {
                        format!("Array[{}]", a.element)
                    })
                } else {
                    write_value(w, item)
                };
                written.map_err(|e| e.within(PathSegment::Index(i)))?;
            }
            w.end_array();
            Ok(())
        }
        leaf => write_leaf(w, leaf),
    }
}

/// An element of a typed container (an Array item, a Dictionary key or value) of type `ty`:
/// written as it is when a decoding engine keeps it so (an object or null in an object type,
/// whose classes only the decoding engine knows), converted when the engine's strict
/// conversion to `ty` is exact both ways (an int in `Array[float]` is written as the float,
/// as an engine writes it), refused otherwise: the engine would drop it or change its value on
/// decode. `container` names the container for the message (`Array[int]`).
fn write_element<S: Sink>(
    w: &mut Writer<'_, S>,
    ty: &ContainerType,
    v: &Value,
    what: &str,
    container: &dyn Fn() -> String,
) -> Result<()> {
    if type_kept_as_is(ty, v.variant_type()) {
        return write_value(w, v);
    }
    // Object types: whatever the class, an object (full or as an id) or null, as the engines
    // write them; only the decoding engine knows the classes.
    let object_type = matches!(
        ty,
        ContainerType::Class(_)
            | ContainerType::Script(_)
            | ContainerType::Builtin(VariantType::Object)
    );
    if object_type && matches!(v, Value::Nil | Value::ObjectId(_) | Value::Object(_)) {
        return write_value(w, v);
    }
    let opts = w.options();
    let rules = opts.dialect.spec().variant_rules;
    let precision = if opts.dialect.spec().real_flag {
        opts.precision
    } else {
        Precision::Single
    };
    let admit = |ty: &ContainerType, v: Value| admit_element(ty, v, rules, precision, None);
    match admit(ty, v.clone()) {
        Some(same) if same == *v => return write_value(w, v),
        Some(converted) => {
            let back = admit(&ContainerType::Builtin(v.variant_type()), converted.clone());
            if back.as_ref() == Some(v) {
                return write_value(w, &converted);
            }
        }
        None => {}
    }
    Err(CodecError::encode(EncodeReason::Invalid(format!(
        "{} {what} does not fit {}: an engine would drop it or change it on decode",
        v.variant_type().name(),
        container()
    ))))
}

/// Values that hold no nested value, kept out of [`write_value`] so that the frame of the
/// recursion stays small.
#[inline(never)]
fn write_leaf<S: Sink>(w: &mut Writer<'_, S>, v: &Value) -> Result<()> {
    match v {
        Value::Nil => w.nil(),
        Value::Bool(b) => w.bool(*b),
        Value::Int(i) => w.int(*i),
        Value::Float(f) => w.float(*f),
        Value::String(s) => w.string(s.as_str()),
        Value::StringName(s) => w.string_name(s.as_str()),
        Value::Vector2(c) => w.real(RealType::Vector2, c),
        Value::Rect2(c) => w.real(RealType::Rect2, c.as_slice()),
        Value::Vector3(c) => w.real(RealType::Vector3, c),
        Value::Transform2D(c) => w.real(RealType::Transform2D, c.as_slice()),
        Value::Vector4(c) => w.real(RealType::Vector4, c.as_slice()),
        Value::Plane(c) => w.real(RealType::Plane, c.as_slice()),
        Value::Quaternion(c) => w.real(RealType::Quaternion, c.as_slice()),
        Value::Aabb(c) => w.real(RealType::Aabb, c.as_slice()),
        Value::Basis(c) => w.real(RealType::Basis, c.as_slice()),
        Value::Transform3D(c) => w.real(RealType::Transform3D, c.as_slice()),
        Value::Projection(c) => w.real(RealType::Projection, c.as_slice()),
        Value::Vector2i(c) => w.int_vector(IntVectorType::Vector2i, c),
        Value::Rect2i(c) => w.int_vector(IntVectorType::Rect2i, c),
        Value::Vector3i(c) => w.int_vector(IntVectorType::Vector3i, c),
        Value::Vector4i(c) => w.int_vector(IntVectorType::Vector4i, c),
        Value::Color(c) => w.color(*c),
        Value::NodePath(p) => {
            w.begin_node_path(p.names.len(), p.subnames.len(), p.absolute)?;
            for part in p.names.iter().chain(&p.subnames) {
                w.node_path_part(part.as_str())?;
            }
            Ok(())
        }
        Value::Rid(id) => w.rid(*id),
        Value::ObjectId(id) => w.object_id(*id),
        Value::Callable => w.callable(),
        Value::Signal { name, object_id } => w.signal(&**name, *object_id),
        Value::PackedByteArray(b) => w.packed_bytes(b),
        Value::PackedInt32Array(v) => w.packed_i32(v),
        Value::PackedInt64Array(v) => w.packed_i64(v),
        Value::PackedFloat32Array(v) => w.packed_f32(v),
        Value::PackedFloat64Array(v) => w.packed_f64(v),
        Value::PackedStringArray(v) => {
            w.begin_packed_strings(v.len())?;
            for s in v {
                w.packed_string_item(s.as_str())?;
            }
            Ok(())
        }
        Value::PackedVector2Array(v) => {
            w.packed_vectors(PackedVectorType::Vector2, v.as_flattened())
        }
        Value::PackedVector3Array(v) => {
            w.packed_vectors(PackedVectorType::Vector3, v.as_flattened())
        }
        Value::PackedVector4Array(v) => {
            w.packed_vectors(PackedVectorType::Vector4, v.as_flattened())
        }
        Value::PackedColorArray(v) => w.packed_colors(v.as_flattened()),
        Value::Object(_) | Value::Dictionary(_) | Value::Array(_) => write_value(w, v),
    }
}

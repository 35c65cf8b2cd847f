//! What typed containers do to their elements on decode: Godot's strict conversions between
//! builtin types.

use super::{array_of, GodotString, Value};
use crate::dialect::Precision;
use crate::real::{narrow_as_engine, widen_as_engine};
use crate::types::VariantType;

/// Godot's strict conversions between builtin types (`Variant::can_convert_strict`), as typed
/// containers apply them on decode. Math conversions the model cannot reproduce exactly
/// (Basis from Quaternion and the like) are treated as impossible, so such elements are dropped.
pub(super) fn convert_strict(v: Value, to: VariantType, precision: Precision) -> Option<Value> {
    use VariantType as T;
    if v.variant_type() == to {
        return Some(v);
    }
    let ints = |f: &[f64]| f.iter().map(|&x| x as i32).collect::<Vec<_>>();
    // Into real_t: binary32 in single-precision engines (16777217 becomes 16777216).
    let reals = |i: &[i32]| {
        i.iter()
            .map(|&x| match precision {
                Precision::Single => super::real32(f64::from(x)),
                Precision::Double => f64::from(x),
            })
            .collect::<Vec<_>>()
    };
    Some(match (v, to) {
        (Value::Int(i), T::Float) => Value::Float(i as f64),
        (Value::Int(i), T::Bool) => Value::Bool(i != 0),
        (Value::Float(f), T::Int) => Value::Int(f as i64),
        (Value::Float(f), T::Bool) => Value::Bool(f != 0.0),
        (Value::Bool(b), T::Int) => Value::Int(i64::from(b)),
        (Value::Bool(b), T::Float) => Value::Float(f64::from(u8::from(b))),
        (Value::StringName(s), T::String) => Value::String(s),
        (Value::NodePath(p), T::String) => Value::String(p.to_string().into()),
        (Value::String(s), T::StringName) => Value::StringName(s),
        (Value::Vector2i(c), T::Vector2) => Value::Vector2(array_of(&reals(&c))),
        (Value::Vector2(c), T::Vector2i) => Value::Vector2i(int_array(&ints(&c))),
        (Value::Vector3i(c), T::Vector3) => Value::Vector3(array_of(&reals(&c))),
        (Value::Vector3(c), T::Vector3i) => Value::Vector3i(int_array(&ints(&c))),
        (Value::Vector4i(c), T::Vector4) => Value::Vector4(Box::new(array_of(&reals(&c)))),
        (Value::Vector4(c), T::Vector4i) => Value::Vector4i(int_array(&ints(c.as_slice()))),
        (Value::Rect2i(c), T::Rect2) => Value::Rect2(Box::new(array_of(&reals(&c)))),
        (Value::Rect2(c), T::Rect2i) => Value::Rect2i(int_array(&ints(c.as_slice()))),
        (Value::Array(mut a), to) => packed_from_items(std::mem::take(&mut a.items), to)?,
        (packed, T::Array) => Value::array(packed_items(packed)?),
        _ => return None,
    })
}

fn int_array<const N: usize>(c: &[i32]) -> [i32; N] {
    let mut a = [0; N];
    for (d, s) in a.iter_mut().zip(c) {
        *d = *s;
    }
    a
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => 0.0,
    }
}

fn as_i64(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::Float(f) => *f as i64,
        Value::Bool(b) => i64::from(*b),
        _ => 0,
    }
}

/// A packed array built from Array items, element by element as Godot converts them.
fn packed_from_items(items: Vec<Value>, to: VariantType) -> Option<Value> {
    use VariantType as T;
    Some(match to {
        T::PackedByteArray => {
            Value::PackedByteArray(items.iter().map(|v| as_i64(v) as u8).collect())
        }
        T::PackedInt32Array => {
            Value::PackedInt32Array(items.iter().map(|v| as_i64(v) as i32).collect())
        }
        T::PackedInt64Array => Value::PackedInt64Array(items.iter().map(as_i64).collect()),
        T::PackedFloat32Array => {
            Value::PackedFloat32Array(items.iter().map(|v| narrow_as_engine(as_f64(v))).collect())
        }
        T::PackedFloat64Array => Value::PackedFloat64Array(items.iter().map(as_f64).collect()),
        T::PackedStringArray => Value::PackedStringArray(
            items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) | Value::StringName(s) => s,
                    _ => GodotString::default(),
                })
                .collect(),
        ),
        _ => return None,
    })
}

/// The items of a packed array as Values.
fn packed_items(v: Value) -> Option<Vec<Value>> {
    Some(match v {
        Value::PackedByteArray(b) => b.into_iter().map(|x| Value::Int(i64::from(x))).collect(),
        Value::PackedInt32Array(b) => b.into_iter().map(|x| Value::Int(i64::from(x))).collect(),
        Value::PackedInt64Array(b) => b.into_iter().map(Value::Int).collect(),
        Value::PackedFloat32Array(b) => b
            .into_iter()
            .map(|x| Value::Float(widen_as_engine(x)))
            .collect(),
        Value::PackedFloat64Array(b) => b.into_iter().map(Value::Float).collect(),
        Value::PackedStringArray(b) => b.into_iter().map(Value::String).collect(),
        Value::PackedVector2Array(b) => b.into_iter().map(Value::Vector2).collect(),
        Value::PackedVector3Array(b) => b.into_iter().map(Value::Vector3).collect(),
        Value::PackedVector4Array(b) => {
            b.into_iter().map(|c| Value::Vector4(Box::new(c))).collect()
        }
        Value::PackedColorArray(b) => b.into_iter().map(Value::Color).collect(),
        _ => return None,
    })
}

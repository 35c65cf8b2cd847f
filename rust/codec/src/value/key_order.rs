//! The order in which the engines' text writers (`var_to_str`, `var2str`, a ConfigFile's or a
//! text resource's save) write a Dictionary's keys: each sorts them, by an order that is not
//! total, with its own sort (`engine_sort`), so the text is the engine's only when both the
//! order and the sort's steps are the engine's.

use super::engine_sort::{engine_sort, Partition};
use super::Value;
use crate::dialect::Dialect;

/// Sorts a Dictionary's entries as the engine writes them: Godot 4's (`StringLikeVariantOrder`)
/// or Godot 3's (`Variant::operator<`).
pub(crate) fn sort_keys(entries: &mut [&(Value, Value)], godot3: bool) {
    if godot3 {
        engine_sort(entries, Partition::StopsAtBounds, |a, b| {
            godot3_less(&a.0, &b.0)
        });
    } else {
        engine_sort(entries, Partition::StopsAtPivot, |a, b| {
            key_less(&a.0, &b.0)
        });
    }
}

/// Godot's `StringLikeVariantOrder::compare`, by which the engine's writer sorts a Dictionary's
/// keys: text for two string-like keys, else `Variant::operator<`. Not a total order: Strings and
/// StringNames interleave by text while other types sort between them by type id.
fn key_less(a: &Value, b: &Value) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x < y,
        _ => variant_less(a, b),
    }
}

/// Godot 4's `Variant::operator<`: by type id across types; within a type, the `<` operator
/// where Godot defines one (false elsewhere).
fn variant_less(a: &Value, b: &Value) -> bool {
    let (ta, tb) = (a.variant_type(), b.variant_type());
    if ta != tb {
        return ta.id() < tb.id();
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x < y,
        (Value::Int(x), Value::Int(y)) => x < y,
        (Value::Float(x), Value::Float(y)) => x < y,
        (Value::String(x), Value::String(y)) | (Value::StringName(x), Value::StringName(y)) => {
            x < y
        }
        (Value::Vector2(x), Value::Vector2(y)) => lex(x, y),
        (Value::Vector2i(x), Value::Vector2i(y)) => lex(x, y),
        (Value::Vector3(x), Value::Vector3(y)) => lex(x, y),
        (Value::Vector3i(x), Value::Vector3i(y)) => lex(x, y),
        (Value::Vector4(x), Value::Vector4(y)) => lex(x.as_slice(), y.as_slice()),
        (Value::Vector4i(x), Value::Vector4i(y)) => lex(x, y),
        (Value::Rid(x), Value::Rid(y)) => x < y,
        (Value::Array(x), Value::Array(y)) => crate::stack::guard(|| {
            for (p, q) in x.items.iter().zip(&y.items) {
                if variant_less(p, q) {
                    return true;
                }
                if variant_less(q, p) {
                    return false;
                }
            }
            x.items.len() < y.items.len()
        }),
        _ => false,
    }
}

/// Godot 3's `Variant::operator<`: by Godot 3's type id across types; within a type, its `<`
/// where Godot 3 defines one (false elsewhere: Colors, NodePaths, Dictionaries …), among them two
/// that are no order: an Array is less than another of no fewer items when any of its items is
/// not less than the other's, and a pool array less than another when it is shorter or any of
/// their items differ. (Godot 3 compares two PoolVector2Arrays with Vector3's stride, reading past
/// their end; that is not reproduced: here their items are compared.)
fn godot3_less(a: &Value, b: &Value) -> bool {
    let (ta, tb) = (a.variant_type(), b.variant_type());
    if ta != tb {
        let id = |t| Dialect::Godot3.wire_id(t).map_or(u32::MAX, u32::from);
        return id(ta) < id(tb);
    }
    /// A pool array's `<` (Godot 3's `DEFAULT_OP_ARRAY_LT`).
    fn pool<T: PartialEq>(x: &[T], y: &[T]) -> bool {
        x.len() < y.len() || x.iter().enumerate().any(|(i, p)| y.get(i) != Some(p))
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x < y,
        (Value::Int(x), Value::Int(y)) => x < y,
        (Value::Float(x), Value::Float(y)) => x < y,
        (Value::String(x), Value::String(y)) => x < y,
        (Value::Vector2(x), Value::Vector2(y)) => lex(x, y),
        (Value::Vector3(x), Value::Vector3(y)) => lex(x, y),
        (Value::Rid(x), Value::Rid(y)) => x < y,
        (Value::Array(x), Value::Array(y)) => crate::stack::guard(|| {
            x.items.len() <= y.items.len()
                && x.items
                    .iter()
                    .zip(&y.items)
                    .any(|(p, q)| !godot3_less(p, q))
        }),
        (Value::PackedByteArray(x), Value::PackedByteArray(y)) => pool(x, y),
        (Value::PackedInt32Array(x), Value::PackedInt32Array(y)) => pool(x, y),
        (Value::PackedFloat32Array(x), Value::PackedFloat32Array(y)) => pool(x, y),
        (Value::PackedStringArray(x), Value::PackedStringArray(y)) => pool(x, y),
        (Value::PackedVector2Array(x), Value::PackedVector2Array(y)) => pool(x, y),
        (Value::PackedVector3Array(x), Value::PackedVector3Array(y)) => pool(x, y),
        (Value::PackedColorArray(x), Value::PackedColorArray(y)) => pool(x, y),
        _ => false,
    }
}

/// Lexicographic `<` of two vectors' components, as Godot's vectors define it.
fn lex<T: PartialOrd>(x: &[T], y: &[T]) -> bool {
    for (p, q) in x.iter().zip(y) {
        if p != q {
            return p < q;
        }
    }
    false
}

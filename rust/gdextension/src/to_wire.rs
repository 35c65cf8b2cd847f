//! Walks a Godot Variant and feeds the core [`Writer`]: no bytes are written here, so every
//! rule of the format stays in the core.

use fast_var_codec_core::error::{CodecError, EncodeReason, PathSegment, Result};
use fast_var_codec_core::reader::guard_stack;
use fast_var_codec_core::value::{ContainerType, VariantType as T};
use fast_var_codec_core::value::{IntVectorType, PackedVectorType, RealType};
use fast_var_codec_core::writer::{Sink, Writer};
use godot::builtin::{
    real, AnyArray, AnyDictionary, Callable, Color, GString, NodePath, PackedByteArray,
    PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array,
    PackedStringArray, PackedVector2Array, PackedVector3Array, PackedVector4Array, Projection, Rid,
    Signal, StringName, Transform2D, Transform3D, Variant,
};
use godot::classes::{ClassDb, Object};
use godot::meta::FromGodot;
use godot::obj::{EngineBitfield, Gd, Singleton};
use godot::register::info::PropertyUsageFlags;
use godot::sys::GodotFfi;

use crate::fast_access::{
    elements, engine_typing, untyped_entries, EngineTyping, Payload, Typed, TypedSide,
};
use crate::layout::flat;

fn invalid(msg: String) -> CodecError {
    CodecError::encode(EncodeReason::Invalid(msg))
}

/// The payload of `v` read in place (see [`crate::fast_access`]).
fn fast<P: Payload>(v: Typed<'_>) -> Result<&P> {
    v.payload::<P>()
        .ok_or_else(|| invalid(format!("cannot read a {} payload", v.ty())))
}

fn get<V: FromGodot>(v: &Variant) -> Result<V> {
    v.try_to::<V>().map_err(|e| invalid(e.to_string()))
}

/// Container type of a typed Array or Dictionary side, as the engine's encoder sees it: a
/// script when there is one, else the class, else the builtin type.
fn container_type(typing: Option<EngineTyping>) -> ContainerType {
    let Some(t) = typing else {
        return ContainerType::Untyped;
    };
    if t.builtin != T::Object as i64 {
        return u32::try_from(t.builtin)
            .ok()
            .and_then(T::from_id)
            .filter(|ty| *ty != T::Nil)
            .map_or(ContainerType::Untyped, ContainerType::Builtin);
    }
    if let Ok(script) = t.script.try_to::<Gd<godot::classes::Script>>() {
        return ContainerType::Script(script.get_path().to_string());
    }
    let class = t.class_name.to_string();
    if class.is_empty() {
        ContainerType::Builtin(T::Object)
    } else {
        ContainerType::Class(class)
    }
}

/// A short rendering of a dictionary key for error paths.
fn key_label(k: &Variant) -> String {
    match k.get_type() {
        godot::builtin::VariantType::STRING => format!("{:?}", k.to_string()),
        godot::builtin::VariantType::STRING_NAME => format!("&{:?}", k.to_string()),
        godot::builtin::VariantType::INT | godot::builtin::VariantType::BOOL => k.to_string(),
        other => format!("{other:?}"),
    }
}

/// Writes `v`; errors carry the path to the failing value.
pub fn write_variant<S: Sink>(w: &mut Writer<'_, S>, v: &Variant) -> Result<()> {
    let Some(typed) = Typed::of(v) else {
        return Err(invalid(format!("unknown Variant type {:?}", v.get_type())));
    };
    match typed.ty() {
        // Each level of nesting on a stack with room for it (the core's stack guard).
        T::Object | T::Dictionary | T::Array => guard_stack(|| write_container(w, v, typed)),
        _ => write_leaf(w, typed),
    }
}

/// An Object, Dictionary or Array and what it holds.
fn write_container<S: Sink>(w: &mut Writer<'_, S>, v: &Variant, typed: Typed<'_>) -> Result<()> {
    match typed.ty() {
        T::Object => write_object(w, v),
        T::Dictionary => {
            if !w.options().full_objects {
                // SAFETY: without full objects no object getter runs while the entries are
                // written, so no engine or script code can change the Dictionary; other
                // threads must not write to a value being encoded (README, "Threads").
                if let Some(entries) = unsafe { untyped_entries(typed) } {
                    let untyped = ContainerType::Untyped;
                    w.begin_dictionary(&untyped, &untyped, entries.len())?;
                    if !entries.for_each(|k, val| write_entry(w, k, val))? {
                        return Err(invalid(
                            "the Dictionary changed while it was being encoded".into(),
                        ));
                    }
                    w.end_dictionary();
                    return Ok(());
                }
            }
            let d: AnyDictionary = get(v)?;
            // SAFETY: `d` is a live Dictionary, held for the calls.
            let (kt, vt) = unsafe {
                (
                    container_type(engine_typing(d.sys(), TypedSide::DictionaryKey)),
                    container_type(engine_typing(d.sys(), TypedSide::DictionaryValue)),
                )
            };
            // Our own copies of the keys and values: nothing else can change them.
            let (keys, values) = (d.keys_array(), d.values_array());
            w.begin_dictionary(&kt, &vt, keys.len())?;
            // SAFETY: `keys` and `values` are this call's own new arrays: no other code or
            // thread holds them, and writing keys and values runs no code that could reach them.
            match unsafe { (elements(&keys), elements(&values)) } {
                (Some(ks), Some(vs)) if ks.len() == vs.len() => {
                    for (k, val) in ks.iter().zip(vs) {
                        write_entry(w, k, val)?;
                    }
                }
                _ => {
                    for (k, val) in keys.iter_shared().zip(values.iter_shared()) {
                        write_entry(w, &k, &val)?;
                    }
                }
            }
            w.end_dictionary();
            Ok(())
        }
        T::Array => {
            let a: AnyArray = get(v)?;
            // SAFETY: `a` is a live Array, held for the call.
            let element = container_type(unsafe { engine_typing(a.sys(), TypedSide::Array) });
            w.begin_array(&element, a.len())?;
            // Read in place unless object getters (script code) may run meanwhile.
            let in_place = if w.options().full_objects {
                None
            } else {
                // SAFETY: without full objects no object getter runs while the items are
                // written (objects travel as ids), so no engine or script code can change `a`;
                // other threads must not write to a value being encoded, as for the engine's
                // var_to_bytes (README, "Threads").
                unsafe { elements(&a) }
            };
            match in_place {
                Some(items) => {
                    for (i, item) in items.iter().enumerate() {
                        write_variant(w, item).map_err(|e| e.within(PathSegment::Index(i)))?;
                    }
                }
                None => {
                    for (i, item) in a.iter_shared().enumerate() {
                        write_variant(w, &item).map_err(|e| e.within(PathSegment::Index(i)))?;
                    }
                }
            }
            w.end_array();
            Ok(())
        }
        _ => write_leaf(w, typed),
    }
}

/// One Dictionary entry; errors carry the key.
fn write_entry<S: Sink>(w: &mut Writer<'_, S>, k: &Variant, val: &Variant) -> Result<()> {
    let at = || PathSegment::Key(key_label(k));
    write_variant(w, k).map_err(|e| e.within(at()))?;
    write_variant(w, val).map_err(|e| e.within(at()))
}

/// Everything that holds no nested value, kept out of [`write_variant`] so that the frame of
/// the recursion stays small.
#[inline(never)]
fn write_leaf<S: Sink>(w: &mut Writer<'_, S>, typed: Typed<'_>) -> Result<()> {
    let (v, ty) = (typed.variant(), typed.ty());
    match ty {
        T::Nil => w.nil(),
        T::Bool => w.bool(*fast::<bool>(typed)?),
        T::Int => w.int(*fast::<i64>(typed)?),
        T::Float => w.float(*fast::<f64>(typed)?),
        T::String => w.string(fast::<GString>(typed)?.chars()),
        T::StringName => w.string_name(GString::from(fast::<StringName>(typed)?).chars()),
        T::Vector2 => {
            let x = fast::<godot::builtin::Vector2>(typed)?;
            w.real(RealType::Vector2, &[x.x, x.y])
        }
        T::Rect2 => {
            let r = fast::<godot::builtin::Rect2>(typed)?;
            w.real(
                RealType::Rect2,
                &[r.position.x, r.position.y, r.size.x, r.size.y],
            )
        }
        T::Vector3 => {
            let x = fast::<godot::builtin::Vector3>(typed)?;
            w.real(RealType::Vector3, &[x.x, x.y, x.z])
        }
        T::Transform2D => {
            let t = fast::<Transform2D>(typed)?;
            w.real(
                RealType::Transform2D,
                &[t.a.x, t.a.y, t.b.x, t.b.y, t.origin.x, t.origin.y],
            )
        }
        T::Vector4 => {
            let x = fast::<godot::builtin::Vector4>(typed)?;
            w.real(RealType::Vector4, &[x.x, x.y, x.z, x.w])
        }
        T::Plane => {
            let p = fast::<godot::builtin::Plane>(typed)?;
            w.real(RealType::Plane, &[p.normal.x, p.normal.y, p.normal.z, p.d])
        }
        T::Quaternion => {
            let q = fast::<godot::builtin::Quaternion>(typed)?;
            w.real(RealType::Quaternion, &[q.x, q.y, q.z, q.w])
        }
        T::Aabb => {
            let b = fast::<godot::builtin::Aabb>(typed)?;
            let (p, s) = (b.position, b.size);
            w.real(RealType::Aabb, &[p.x, p.y, p.z, s.x, s.y, s.z])
        }
        T::Basis => {
            let b = fast::<godot::builtin::Basis>(typed)?;
            w.real(RealType::Basis, &basis_rows(b))
        }
        T::Transform3D => {
            let t = fast::<Transform3D>(typed)?;
            let r = basis_rows(&t.basis);
            let o = t.origin;
            let c = [
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], o.x, o.y, o.z,
            ];
            w.real(RealType::Transform3D, &c)
        }
        T::Projection => {
            let p = fast::<Projection>(typed)?;
            let mut c: [real; 16] = [0.0; 16];
            for (i, col) in p.cols.iter().enumerate() {
                if let Some(dst) = c.get_mut(i * 4..i * 4 + 4) {
                    dst.copy_from_slice(&[col.x, col.y, col.z, col.w]);
                }
            }
            w.real(RealType::Projection, &c)
        }
        T::Vector2i => {
            let x = fast::<godot::builtin::Vector2i>(typed)?;
            w.int_vector(IntVectorType::Vector2i, &[x.x, x.y])
        }
        T::Rect2i => {
            let r = fast::<godot::builtin::Rect2i>(typed)?;
            w.int_vector(
                IntVectorType::Rect2i,
                &[r.position.x, r.position.y, r.size.x, r.size.y],
            )
        }
        T::Vector3i => {
            let x = fast::<godot::builtin::Vector3i>(typed)?;
            w.int_vector(IntVectorType::Vector3i, &[x.x, x.y, x.z])
        }
        T::Vector4i => {
            let x = fast::<godot::builtin::Vector4i>(typed)?;
            w.int_vector(IntVectorType::Vector4i, &[x.x, x.y, x.z, x.w])
        }
        T::Color => {
            let c = fast::<Color>(typed)?;
            w.color([c.r, c.g, c.b, c.a])
        }
        T::NodePath => {
            let p: NodePath = get(v)?;
            let (names, subnames) = (p.get_name_count(), p.get_subname_count());
            w.begin_node_path(names, subnames, p.is_absolute())?;
            for i in 0..names {
                w.node_path_part(GString::from(&p.get_name(i)).chars())?;
            }
            for i in 0..subnames {
                w.node_path_part(GString::from(&p.get_subname(i)).chars())?;
            }
            Ok(())
        }
        T::Rid => w.rid(get::<Rid>(v)?.to_u64()),
        T::Callable => {
            let _: Callable = get(v)?;
            w.callable()
        }
        T::Signal => {
            let s: Signal = get(v)?;
            let id = s.object_id().map_or(0, |i| i.to_i64() as u64);
            w.signal(GString::from(&s.name()).chars(), id)
        }
        T::PackedByteArray => w.packed_bytes(get::<PackedByteArray>(v)?.as_slice()),
        T::PackedInt32Array => w.packed_i32(get::<PackedInt32Array>(v)?.as_slice()),
        T::PackedInt64Array => w.packed_i64(get::<PackedInt64Array>(v)?.as_slice()),
        T::PackedFloat32Array => w.packed_f32(get::<PackedFloat32Array>(v)?.as_slice()),
        T::PackedFloat64Array => w.packed_f64(get::<PackedFloat64Array>(v)?.as_slice()),
        T::PackedStringArray => {
            let a: PackedStringArray = get(v)?;
            let items = a.as_slice();
            w.begin_packed_strings(items.len())?;
            for s in items {
                w.packed_string_item(s.chars())?;
            }
            Ok(())
        }
        T::PackedVector2Array => {
            let a: PackedVector2Array = get(v)?;
            w.packed_vectors(PackedVectorType::Vector2, flat(a.as_slice()))
        }
        T::PackedVector3Array => {
            let a: PackedVector3Array = get(v)?;
            w.packed_vectors(PackedVectorType::Vector3, flat(a.as_slice()))
        }
        T::PackedVector4Array => {
            let a: PackedVector4Array = get(v)?;
            w.packed_vectors(PackedVectorType::Vector4, flat(a.as_slice()))
        }
        T::PackedColorArray => w.packed_colors(flat(get::<PackedColorArray>(v)?.as_slice())),
        T::Object | T::Dictionary | T::Array => write_variant(w, v),
        // A type a later core knows and this extension does not.
        other => Err(invalid(format!(
            "{other} is not supported by this extension"
        ))),
    }
}

/// Basis rows in wire order (row-major).
fn basis_rows(b: &godot::builtin::Basis) -> [real; 9] {
    let [r0, r1, r2] = b.rows;
    [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
}

/// An object: NIL when null or freed, its instance id, or (full objects) its class and the
/// properties the engine would store, in property-list order.
fn write_object<S: Sink>(w: &mut Writer<'_, S>, v: &Variant) -> Result<()> {
    let Ok(obj) = v.try_to::<Gd<Object>>() else {
        return w.object_null();
    };
    if !w.options().full_objects {
        return w.object_id(obj.instance_id().to_i64() as u64);
    }
    let class = obj.get_class();
    if !ClassDb::singleton().can_instantiate(&StringName::from(&class)) {
        return Err(invalid(format!(
            "class {class} cannot be instantiated, so it cannot be sent as a full object"
        )));
    }
    let storage = PropertyUsageFlags::STORAGE.ord();
    let names: Vec<StringName> = obj
        .get_property_list()
        .iter_shared()
        .filter(|p| {
            p.get("usage")
                .and_then(|u| u.try_to::<i64>().ok())
                .unwrap_or(0) as u64
                & storage
                != 0
        })
        .filter_map(|p| {
            p.get("name")
                .and_then(|n| n.try_to_relaxed::<StringName>().ok())
        })
        .collect();
    w.begin_object(class.chars(), names.len())?;
    for name in &names {
        let at = || PathSegment::Property(name.to_string());
        if name == &StringName::from("script") {
            let path = obj.get_script().map(|s| s.get_path().to_string());
            w.script_property(path.as_deref())
                .map_err(|e| e.within(at()))?;
            continue;
        }
        w.property_name(GString::from(name).chars())?;
        write_variant(w, &obj.get(name)).map_err(|e| e.within(at()))?;
    }
    w.end_object();
    Ok(())
}

//! Builds Godot Variants from what the core reader finds, with the engine's own checks on
//! classes and scripts (`admission`), and the engine's own typed containers (`containers`, the
//! engine's C interface) and strings (`text`).

mod admission;
mod containers;
mod text;

use std::borrow::Cow;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::options::Utf8Rules;
use fast_var_codec_core::reader::Build;
use fast_var_codec_core::reader::{copy_from_le, push_in_place};
use fast_var_codec_core::real::WireReals;
use fast_var_codec_core::real::{real_width, reals_from_le};
use fast_var_codec_core::value::{ContainerType, VariantType as T};
use fast_var_codec_core::value::{IntVectorType, PackedVectorType, RealType};
use fast_var_codec_core::writer::Writer;
use fast_var_codec_core::Options;
use godot::builtin::{
    real, Aabb, Basis, Callable, Color, GString, PackedByteArray, PackedColorArray,
    PackedFloat32Array, PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray,
    PackedVector2Array, PackedVector3Array, PackedVector4Array, Plane, Projection, Quaternion,
    Rect2, Rect2i, Rid, StringName, Transform2D, Transform3D, VarArray, VarDictionary, Variant,
    Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
use godot::classes::{ClassDb, EncodedObjectAsId, Object};
use godot::meta::ToGodot;
use godot::obj::{Gd, NewGd, Singleton};
use godot::sys::{interface_fn, GodotFfi};

use crate::engine_bytes::ByteSource;
use crate::fast_access::type_of;
use crate::layout::{flat_mut, FlatComponents};
use crate::string_cache::StringCache;
use crate::variant_layout;
use admission::{engine_type, load_script, EngineType};
use containers::{holds_nothing, move_into, new_typed_array, new_typed_dictionary};
use text::{gstring, text_by_rules};

/// Makes Variants. Full objects are instantiated through ClassDB, as the engine does, once the
/// core's object policy has admitted their class and script.
#[derive(Default)]
pub struct VariantBuilder<'s> {
    /// Objects made by this decode that no reference count frees: freed if the decode fails.
    manual: Vec<Gd<Object>>,
    /// Short Strings already built in this decode, shared when they come again.
    strings: StringCache,
    /// The engine array the decode reads, when it reads one: large byte arrays are copied
    /// out of it by the engine.
    source: Option<ByteSource<'s>>,
}

impl<'s> VariantBuilder<'s> {
    /// A builder for the decode of the bytes of `source`, when known.
    pub(crate) fn reading(source: Option<ByteSource<'s>>) -> Self {
        VariantBuilder {
            source,
            ..VariantBuilder::default()
        }
    }

    /// Frees what a failed decode made and nobody will own.
    pub fn discard(self) {
        for object in self.manual {
            if object.is_instance_valid() {
                object.free();
            }
        }
    }
}

/// An untyped Array of `items`, moved in: no copy of any item and no engine call per item
/// (`FastVarStream.get_vars`' values).
pub(crate) fn untyped_array_of(mut items: Vec<Variant>) -> VarArray {
    let mut arr = VarArray::new();
    // SAFETY: `arr` is untyped, so it takes every item as it is.
    if unsafe { move_into(&mut arr, &mut items) } {
        // SAFETY: after the swap every item holds a new slot's former contents, NIL, which
        // owns no memory (`holds_nothing`): skipping their destructors leaks nothing.
        debug_assert!(holds_nothing(T::Nil));
        unsafe { items.set_len(0) };
        return arr;
    }
    for item in &items {
        arr.push(item);
    }
    arr
}

/// An Array being filled: its elements are gathered here and moved into the engine's array in
/// one go (see [`VariantBuilder::end_array`]).
pub struct ArrayInProgress {
    items: Vec<Variant>,
    typed: Option<EngineType>,
}

/// Filled through the engine's `Dictionary::operator[]` (gdext's `set`): typed keys are
/// converted or dropped, values are not checked, exactly as the engine's decoder does.
pub struct DictionaryInProgress {
    dict: VarDictionary,
    /// Neither keys nor values typed: its Variant can take over `dict` (`variant_layout`).
    untyped: bool,
}

pub struct ObjectInProgress {
    /// Holds the reference for RefCounted objects while properties are set.
    variant: Variant,
    object: Gd<Object>,
}

/// Fills a resized packed array from wire components as this build's `real_t`: one copy when
/// the widths agree, else converted as the engine converts (the core's `real` module).
fn fill_vectors<V: FlatComponents<Scalar = real>>(dst: &mut [V], raw: &[u8], wide: bool) {
    reals_from_le(raw, wide, flat_mut(dst));
}

/// [`Build::begin_dictionary`] of a typed Dictionary, out of the decode's loops.
#[inline(never)]
fn begin_typed_dictionary(
    key: &ContainerType,
    value: &ContainerType,
) -> Result<DictionaryInProgress, DecodeReason> {
    let (k, v) = (engine_type(key)?, engine_type(value)?);
    Ok(DictionaryInProgress {
        dict: new_typed_dictionary(k.as_ref(), v.as_ref()),
        untyped: false,
    })
}

impl Build for VariantBuilder<'_> {
    type Value = Variant;
    type Array = ArrayInProgress;
    type Dictionary = DictionaryInProgress;
    type Object = ObjectInProgress;
    type Strings = Vec<GString>;

    fn nil(&mut self) -> Variant {
        Variant::nil()
    }
    #[inline(always)]
    fn bool(&mut self, v: bool) -> Variant {
        variant_layout::bool(v)
    }
    #[inline(always)]
    fn int(&mut self, v: i64) -> Variant {
        variant_layout::int(v)
    }
    #[inline(always)]
    fn float(&mut self, v: f64) -> Variant {
        variant_layout::float(v)
    }
    fn string(&mut self, s: &str) -> Variant {
        variant_layout::string(gstring(s))
    }
    fn string_name(&mut self, s: &str) -> Variant {
        StringName::from(&gstring(s)).to_variant()
    }
    fn real(&mut self, ty: RealType, x: WireReals<'_>) -> Variant {
        // As this build's real_t, converted as its engine converts: straight from the wire's
        // bits, never through another width when the widths agree.
        let mut a: [real; RealType::MAX_COMPONENTS] = [0.0; RealType::MAX_COMPONENTS];
        x.read_into(&mut a);
        let v2 = |i: [real; 2]| Vector2::new(i[0], i[1]);
        let v3 = |i: [real; 3]| Vector3::new(i[0], i[1], i[2]);
        let v4 = |i: [real; 4]| Vector4::new(i[0], i[1], i[2], i[3]);
        let [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15] = a;
        match ty {
            RealType::Vector2 => variant_layout::inline(v2([p0, p1])),
            RealType::Rect2 => variant_layout::inline(Rect2::new(v2([p0, p1]), v2([p2, p3]))),
            RealType::Vector3 => variant_layout::inline(v3([p0, p1, p2])),
            RealType::Transform2D => {
                Transform2D::from_cols(v2([p0, p1]), v2([p2, p3]), v2([p4, p5])).to_variant()
            }
            RealType::Vector4 => variant_layout::inline(v4([p0, p1, p2, p3])),
            RealType::Plane => variant_layout::inline(Plane {
                normal: v3([p0, p1, p2]),
                d: p3,
            }),
            RealType::Quaternion => variant_layout::inline(Quaternion::new(p0, p1, p2, p3)),
            RealType::Aabb => Aabb::new(v3([p0, p1, p2]), v3([p3, p4, p5])).to_variant(),
            RealType::Basis => {
                Basis::from_rows(v3([p0, p1, p2]), v3([p3, p4, p5]), v3([p6, p7, p8])).to_variant()
            }
            RealType::Transform3D => Transform3D::new(
                Basis::from_rows(v3([p0, p1, p2]), v3([p3, p4, p5]), v3([p6, p7, p8])),
                v3([p9, p10, p11]),
            )
            .to_variant(),
            RealType::Projection => Projection::from_cols(
                v4([p0, p1, p2, p3]),
                v4([p4, p5, p6, p7]),
                v4([p8, p9, p10, p11]),
                v4([p12, p13, p14, p15]),
            )
            .to_variant(),
        }
    }
    fn int_vector(&mut self, ty: IntVectorType, x: &[i32]) -> Variant {
        let mut a = [0i32; 4];
        for (d, s) in a.iter_mut().zip(x) {
            *d = *s;
        }
        let [x, y, z, w] = a;
        match ty {
            IntVectorType::Vector2i => variant_layout::inline(Vector2i::new(x, y)),
            IntVectorType::Vector3i => variant_layout::inline(Vector3i::new(x, y, z)),
            IntVectorType::Vector4i => variant_layout::inline(Vector4i::new(x, y, z, w)),
            IntVectorType::Rect2i => {
                variant_layout::inline(Rect2i::new(Vector2i::new(x, y), Vector2i::new(z, w)))
            }
        }
    }
    fn color(&mut self, [r, g, b, a]: [f32; 4]) -> Variant {
        variant_layout::inline(Color::from_rgba(r, g, b, a))
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Variant {
        // gdext has no NodePath constructor from parts, and parsing text would split parts that
        // contain '/' or ':' and lose empty ones: let the engine build it from its own bytes.
        engine_decode(|w| {
            w.begin_node_path(names.len(), subnames.len(), absolute)?;
            for part in names.iter().chain(subnames) {
                w.node_path_part(part.as_ref())?;
            }
            Ok(())
        })
    }
    fn rid(&mut self, id: u64) -> Variant {
        Rid::new(id).to_variant()
    }
    fn object_id(&mut self, id: u64) -> Variant {
        let mut obj = EncodedObjectAsId::new_gd();
        obj.set_object_id(id);
        obj.to_variant()
    }
    fn callable(&mut self) -> Variant {
        Callable::invalid().to_variant()
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Variant {
        // gdext builds Signals only from live objects; let the engine rebuild it from bytes.
        engine_decode(|w| w.signal(name, object_id))
    }
    fn null_object(&mut self) -> Variant {
        // A Variant of type OBJECT holding null, as the engine decodes it (not NIL).
        engine_decode(|w| w.object_id(0))
    }

    fn packed_bytes(&mut self, bytes: &[u8]) -> Variant {
        let copied = self.source.and_then(|source| source.copy_of(bytes));
        copied
            .unwrap_or_else(|| PackedByteArray::from(bytes))
            .to_variant()
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Variant {
        let mut a = PackedInt32Array::new();
        a.resize(raw.len() / 4);
        copy_from_le(raw, a.as_mut_slice());
        a.to_variant()
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Variant {
        let mut a = PackedInt64Array::new();
        a.resize(raw.len() / 8);
        copy_from_le(raw, a.as_mut_slice());
        a.to_variant()
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Variant {
        let mut a = PackedFloat32Array::new();
        a.resize(raw.len() / 4);
        copy_from_le(raw, a.as_mut_slice());
        a.to_variant()
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Variant {
        let mut a = PackedFloat64Array::new();
        a.resize(raw.len() / 8);
        copy_from_le(raw, a.as_mut_slice());
        a.to_variant()
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Variant {
        let count = raw.len() / (ty.components() * real_width(wide));
        match ty {
            PackedVectorType::Vector2 => {
                let mut a = PackedVector2Array::new();
                a.resize(count);
                fill_vectors(a.as_mut_slice(), raw, wide);
                a.to_variant()
            }
            PackedVectorType::Vector3 => {
                let mut a = PackedVector3Array::new();
                a.resize(count);
                fill_vectors(a.as_mut_slice(), raw, wide);
                a.to_variant()
            }
            PackedVectorType::Vector4 => {
                let mut a = PackedVector4Array::new();
                a.resize(count);
                fill_vectors(a.as_mut_slice(), raw, wide);
                a.to_variant()
            }
        }
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Variant {
        let mut a = PackedColorArray::new();
        a.resize(raw.len() / 16);
        copy_from_le(raw, flat_mut(a.as_mut_slice()));
        a.to_variant()
    }
    fn begin_strings(&mut self, capacity: usize) -> Vec<GString> {
        Vec::with_capacity(capacity)
    }
    fn string_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Variant> {
        self.strings.get_or_make(raw, |raw| {
            text_by_rules(raw, rules).map(variant_layout::string)
        })
    }
    fn string_name_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Variant> {
        text_by_rules(raw, rules).map(|g| StringName::from(&g).to_variant())
    }
    fn push_string_utf8(
        &mut self,
        strings: &mut Vec<GString>,
        raw: &[u8],
        rules: Utf8Rules,
    ) -> bool {
        let g = text_by_rules(raw, rules);
        match g {
            Some(g) => {
                strings.push(g);
                true
            }
            None => false,
        }
    }
    fn push_string(&mut self, strings: &mut Vec<GString>, s: &str) {
        strings.push(gstring(s));
    }
    fn end_strings(&mut self, strings: Vec<GString>) -> Variant {
        // Moved into the engine's array in one go.
        PackedStringArray::from(strings).to_variant()
    }

    #[inline]
    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        _claimed: usize,
    ) -> Result<ArrayInProgress, DecodeReason> {
        Ok(ArrayInProgress {
            items: Vec::with_capacity(capacity),
            typed: engine_type(&element)?,
        })
    }
    #[inline]
    fn push(&mut self, array: &mut ArrayInProgress, v: Variant) -> Result<(), DecodeReason> {
        push_in_place(&mut array.items, v);
        Ok(())
    }
    fn end_array(&mut self, array: ArrayInProgress) -> Variant {
        let ArrayInProgress { mut items, typed } = array;
        let (mut arr, exact) = match &typed {
            None => (VarArray::new(), true),
            Some(ty) => {
                // Elements of exactly the element type need no conversion; objects are checked
                // by the engine against their class.
                let exact =
                    ty.builtin != T::Object && items.iter().all(|v| type_of(v) == Some(ty.builtin));
                (new_typed_array(ty), exact)
            }
        };
        // SAFETY: `arr` is untyped, or typed with an element type that is not OBJECT and that
        // every item has exactly (`exact`).
        if exact && unsafe { move_into(&mut arr, &mut items) } {
            let element = typed.as_ref().map_or(T::Nil, |t| t.builtin);
            if holds_nothing(element) {
                // SAFETY: after the swap every item holds the slots' former contents: NIL or
                // the element type's default, which own no memory (`holds_nothing`), so
                // skipping their destructors leaks nothing; the Vec's buffer is still freed.
                unsafe { items.set_len(0) };
            }
            return match typed {
                None => variant_layout::untyped_array(arr),
                Some(_) => arr.to_variant(),
            };
        }
        // The engine pushes one by one, converting or dropping what does not fit its type.
        let v = arr.to_variant();
        for item in items {
            v.call("push_back", &[item]);
        }
        v
    }
    #[inline(always)]
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        _capacity: usize,
        _claimed: usize,
    ) -> Result<DictionaryInProgress, DecodeReason> {
        if key.is_untyped() && value.is_untyped() {
            return Ok(DictionaryInProgress {
                dict: VarDictionary::new(),
                untyped: true,
            });
        }
        begin_typed_dictionary(&key, &value)
    }
    #[inline]
    fn insert(
        &mut self,
        d: &mut DictionaryInProgress,
        key: Variant,
        value: Variant,
    ) -> Result<(), DecodeReason> {
        // The engine's `operator[]`, as gdext's `set` uses it, with the value moved in rather
        // than copied: the slot of `key` (made if new; for a key a typed Dictionary refuses, the
        // engine's fallback slot, whose value it discards).
        // SAFETY: `d.dict` is this decode's own dictionary and `key` a valid Variant; the engine
        // returns a valid pointer to an initialized Variant slot (never null: see
        // `Dictionary::operator[]`), which the assignment below drops and replaces. A new key's
        // slot holds NIL, which owns nothing: it is written over without a call to its
        // destructor (`is_nil_in_place` reads the tag only under the layout check).
        unsafe {
            let slot = interface_fn!(dictionary_operator_index)(d.dict.sys_mut(), key.var_sys());
            match slot.cast::<Variant>().as_mut() {
                Some(slot) if variant_layout::is_nil_in_place(slot) => std::ptr::write(slot, value),
                Some(slot) => *slot = value,
                None => d.dict.set(&key, &value),
            }
        }
        Ok(())
    }
    #[inline]
    fn end_dictionary(&mut self, d: DictionaryInProgress) -> Variant {
        if d.untyped {
            variant_layout::untyped_dictionary(d.dict)
        } else {
            d.dict.to_variant()
        }
    }
    fn check_class(&mut self, class: &str) -> Result<(), DecodeReason> {
        if ClassDb::singleton().can_instantiate(&StringName::from(class)) {
            Ok(())
        } else {
            Err(DecodeReason::UnknownClass(class.to_owned()))
        }
    }
    fn begin_object(&mut self, class: &str) -> Result<ObjectInProgress, DecodeReason> {
        let variant = ClassDb::singleton().instantiate(&StringName::from(class));
        let object = variant
            .try_to::<Gd<Object>>()
            .map_err(|_| DecodeReason::UnavailableClass(class.to_owned()))?;
        if !object.is_class("RefCounted") {
            self.manual.push(object.clone());
        }
        Ok(ObjectInProgress { variant, object })
    }
    fn set_property(
        &mut self,
        o: &mut ObjectInProgress,
        name: &str,
        value: Variant,
    ) -> Result<(), DecodeReason> {
        o.object.set(&StringName::from(name), &value);
        Ok(())
    }
    fn set_script(
        &mut self,
        o: &mut ObjectInProgress,
        _value: Variant,
        path: &str,
    ) -> Result<(), DecodeReason> {
        // The core has checked this res:// path against the object policy.
        let script = load_script(path)?;
        o.object.set_script(&script);
        Ok(())
    }
    fn end_object(&mut self, o: ObjectInProgress) -> Result<Variant, DecodeReason> {
        Ok(o.variant)
    }
}

/// A value the engine builds from Godot 4 bytes written by `write` (for the few Variants gdext
/// cannot construct directly).
fn engine_decode(
    write: impl FnOnce(&mut Writer<'_, Vec<u8>>) -> fast_var_codec_core::Result<()>,
) -> Variant {
    let opts = Options::default();
    let Ok(mut w) = Writer::new(Vec::new(), &opts) else {
        return Variant::nil();
    };
    if write(&mut w).is_err() {
        return Variant::nil();
    }
    godot::global::bytes_to_var(&PackedByteArray::from(w.into_sink().as_slice()))
}

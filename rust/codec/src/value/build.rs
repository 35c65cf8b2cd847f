//! [`ValueBuilder`]: the reader's [`Build`] for the model, applying what the engine does on
//! decode (typed containers convert or drop elements, equal keys merge).

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::Arc;

use super::convert::convert_strict;
use super::{array_of, keys, Array, Dictionary, GodotString, NodePath, Object, Value};
use crate::build::{push_in_place, Build};
use crate::dialect::{Precision, VariantRules};
use crate::error::DecodeReason;
use crate::real::{held_all, held_from_le, WireReals};
use crate::sink::vec_from_le;
use crate::types::{
    ContainerType, IntVectorType, PackedVectorType, RealType, VariantType, ENCODED_OBJECT_AS_ID,
};

/// Builds [`Value`]s, doing what the engine does to typed containers on decode: elements
/// of another type are converted where Godot converts strictly and dropped otherwise (a Godot 3
/// fork converts nothing: see the dialect's variant rules), and dictionary keys that the dialect's engine
/// considers equal are merged.
///
/// Full objects of any class are accepted unless the builder knows which classes exist
/// ([`ValueBuilder::with_classes`]): then others are refused as the engine refuses them.
#[derive(Debug, Default, Clone)]
pub struct ValueBuilder {
    classes: Option<Arc<HashSet<String>>>,
    scripts: Option<Arc<HashSet<String>>>,
    /// The `real_t` of the engine whose decode this models (binary32 in the dialects that have
    /// no double layout), set from the decode's options by [`Build::configure`].
    precision: Precision,
    /// Digests of Dictionary keys (see `keys`).
    key_hashing: keys::KeyHashing,
    /// The decode's dialect's rules for keys and typed elements (set by [`Build::configure`]).
    rules: VariantRules,
    /// [`crate::Options::refuse_dropped_elements`] of the decode.
    refuse_dropped: bool,
}

/// A Dictionary under construction, with what merges equal keys.
pub struct DictionaryInProgress {
    dict: Dictionary,
    keys: keys::DictionaryKeys,
}

impl ValueBuilder {
    /// The `real_t` precision the decode models (see [`crate::real`]).
    pub(crate) fn precision(&self) -> Precision {
        self.precision
    }

    /// Accepts full objects only of these classes (e.g. an engine's instantiable classes, or
    /// the few a server expects).
    pub fn with_classes<I: IntoIterator<Item = String>>(mut self, classes: I) -> Self {
        self.classes = Some(Arc::new(classes.into_iter().collect()));
        self
    }

    /// Accepts only these script paths (in `script` properties and script-typed containers),
    /// as an engine accepts only scripts that exist in its project.
    pub fn with_scripts<I: IntoIterator<Item = String>>(mut self, paths: I) -> Self {
        self.scripts = Some(Arc::new(paths.into_iter().collect()));
        self
    }

    fn check_script(&self, path: &str) -> Result<(), DecodeReason> {
        match &self.scripts {
            Some(known) if !known.contains(path) => Err(DecodeReason::Refused(format!(
                "script {path:?} does not exist"
            ))),
            _ => Ok(()),
        }
    }

    /// The source's check of a container's type (a script type must exist when scripts are
    /// listed), made before its elements are read.
    pub(crate) fn check_container_type(&self, ty: &ContainerType) -> Result<(), DecodeReason> {
        match ty {
            ContainerType::Script(path) => self.check_script(path),
            _ => Ok(()),
        }
    }

    /// `Some(v)` when `v` may sit in a container of type `ty` (converted if needed).
    pub(crate) fn admit(&self, ty: &ContainerType, v: Value) -> Option<Value> {
        admit_element(ty, v, self.rules, self.precision, self.classes.as_deref())
    }
}

/// `Some(v)` when a decoding engine keeps `v` in a container of type `ty` (converted where it
/// converts strictly), `None` when it drops it: under `rules`, in an engine of `precision`,
/// knowing which classes exist when `classes` is given. The writer asks the same question of
/// what it writes ([`super::write`]).
pub(crate) fn admit_element(
    ty: &ContainerType,
    v: Value,
    rules: VariantRules,
    precision: Precision,
    classes: Option<&HashSet<String>>,
) -> Option<Value> {
    if kept_as_is(ty, &v) {
        return Some(v);
    }
    match ty {
        ContainerType::Untyped => Some(v),
        ContainerType::Builtin(VariantType::Object) => match v {
            Value::Nil | Value::ObjectId(_) | Value::Object(_) => Some(v),
            _ => None,
        },
        // Godot 3 forks (Pandemonium 5's TypedArray) convert nothing.
        ContainerType::Builtin(t) if rules == VariantRules::Godot3 => {
            (v.variant_type() == *t).then_some(v)
        }
        ContainerType::Builtin(t) => convert_strict(v, *t, precision),
        // Inheritance is unknown without a ClassDB: a full object is let in unless its
        // container names a class that does not exist.
        ContainerType::Class(class) => match v {
            Value::Nil => Some(v),
            Value::Object(_) => match classes {
                Some(known) if !known.contains(class.as_str()) => None,
                _ => Some(v),
            },
            Value::ObjectId(_)
                if matches!(
                    class.as_str(),
                    ENCODED_OBJECT_AS_ID | "Object" | "RefCounted"
                ) =>
            {
                Some(v)
            }
            _ => None,
        },
        // An object belongs to a script type when its `script` property names that script.
        ContainerType::Script(path) => match &v {
            Value::Nil => Some(v),
            Value::Object(o) => o
                .properties
                .iter()
                .any(|(k, p)| k == "script" && matches!(p, Value::String(s) if s == path))
                .then_some(v),
            _ => None,
        },
    }
}

/// Whether `v` sits in a container of type `ty` as it is, in every dialect: any value in an
/// untyped container, and a value of exactly a typed container's builtin type (but Object,
/// whose elements are checked by class).
#[inline(always)]
fn kept_as_is(ty: &ContainerType, v: &Value) -> bool {
    match ty {
        ContainerType::Untyped => true,
        _ => type_kept_as_is(ty, v.variant_type()),
    }
}

/// [`kept_as_is`] for any value of type `vt`, known before the value is made.
#[inline(always)]
pub(crate) fn type_kept_as_is(ty: &ContainerType, vt: VariantType) -> bool {
    match ty {
        ContainerType::Untyped => true,
        ContainerType::Builtin(t) => *t != VariantType::Object && vt == *t,
        _ => false,
    }
}

/// The error for an element the engine would drop.
#[cold]
fn dropped(
    what: &'static str,
    found: VariantType,
    container: impl FnOnce() -> String,
) -> DecodeReason {
    DecodeReason::DroppedElement {
        what,
        found,
        container: container(),
    }
}

/// Flat components in groups of N.
fn chunks<const N: usize, T: Copy + Default>(flat: Vec<T>) -> Vec<[T; N]> {
    flat.chunks_exact(N)
        .map(|c| {
            let mut a = [T::default(); N];
            a.copy_from_slice(c);
            a
        })
        .collect()
}

impl Build for ValueBuilder {
    type Value = Value;
    type Array = Array;
    type Dictionary = DictionaryInProgress;
    type Object = Object;
    type Strings = Vec<GodotString>;

    fn configure(&mut self, opts: &crate::Options) {
        self.precision = if opts.dialect.spec().real_flag {
            opts.precision
        } else {
            Precision::Single
        };
        self.rules = opts.dialect.spec().variant_rules;
        self.refuse_dropped = opts.refuse_dropped_elements;
        self.key_hashing.clear(self.rules);
    }

    fn nil(&mut self) -> Value {
        Value::Nil
    }
    fn bool(&mut self, v: bool) -> Value {
        Value::Bool(v)
    }
    fn int(&mut self, v: i64) -> Value {
        Value::Int(v)
    }
    fn float(&mut self, v: f64) -> Value {
        Value::Float(v)
    }
    #[inline]
    fn string(&mut self, s: &str) -> Value {
        Value::String(s.into())
    }
    #[inline]
    fn string_name(&mut self, s: &str) -> Value {
        Value::StringName(s.into())
    }
    fn real(&mut self, ty: RealType, wire: WireReals<'_>) -> Value {
        let mut held = [0f64; RealType::MAX_COMPONENTS];
        held_all(self.precision, wire, &mut held);
        let c = &held;
        match ty {
            RealType::Vector2 => Value::Vector2(array_of(c)),
            RealType::Rect2 => Value::Rect2(Box::new(array_of(c))),
            RealType::Vector3 => Value::Vector3(array_of(c)),
            RealType::Transform2D => Value::Transform2D(Box::new(array_of(c))),
            RealType::Vector4 => Value::Vector4(Box::new(array_of(c))),
            RealType::Plane => Value::Plane(Box::new(array_of(c))),
            RealType::Quaternion => Value::Quaternion(Box::new(array_of(c))),
            RealType::Aabb => Value::Aabb(Box::new(array_of(c))),
            RealType::Basis => Value::Basis(Box::new(array_of(c))),
            RealType::Transform3D => Value::Transform3D(Box::new(array_of(c))),
            RealType::Projection => Value::Projection(Box::new(array_of(c))),
        }
    }
    fn int_vector(&mut self, ty: IntVectorType, c: &[i32]) -> Value {
        let mut a = [0i32; 4];
        for (d, s) in a.iter_mut().zip(c) {
            *d = *s;
        }
        let [x, y, z, w] = a;
        match ty {
            IntVectorType::Vector2i => Value::Vector2i([x, y]),
            IntVectorType::Vector3i => Value::Vector3i([x, y, z]),
            IntVectorType::Rect2i => Value::Rect2i(a),
            IntVectorType::Vector4i => Value::Vector4i([x, y, z, w]),
        }
    }
    fn color(&mut self, rgba: [f32; 4]) -> Value {
        Value::Color(rgba)
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Value {
        Value::NodePath(Box::new(NodePath {
            names: names.iter().map(|s| s.to_string()).collect(),
            subnames: subnames.iter().map(|s| s.to_string()).collect(),
            absolute,
        }))
    }
    fn rid(&mut self, id: u64) -> Value {
        Value::Rid(id)
    }
    fn object_id(&mut self, id: u64) -> Value {
        Value::ObjectId(id)
    }
    fn callable(&mut self) -> Value {
        Value::Callable
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Value {
        Value::Signal {
            name: name.to_owned().into(),
            object_id,
        }
    }
    fn packed_bytes(&mut self, bytes: &[u8]) -> Value {
        Value::PackedByteArray(bytes.to_vec())
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Value {
        Value::PackedInt32Array(vec_from_le(raw))
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Value {
        Value::PackedInt64Array(vec_from_le(raw))
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Value {
        Value::PackedFloat32Array(vec_from_le(raw))
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Value {
        Value::PackedFloat64Array(vec_from_le(raw))
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Value {
        let flat = held_from_le(self.precision, raw, wide);
        match ty {
            PackedVectorType::Vector2 => Value::PackedVector2Array(chunks(flat)),
            PackedVectorType::Vector3 => Value::PackedVector3Array(chunks(flat)),
            PackedVectorType::Vector4 => Value::PackedVector4Array(chunks(flat)),
        }
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Value {
        Value::PackedColorArray(chunks(vec_from_le::<f32>(raw)))
    }
    fn begin_strings(&mut self, capacity: usize) -> Vec<GodotString> {
        Vec::with_capacity(capacity)
    }
    fn push_string(&mut self, strings: &mut Vec<GodotString>, s: &str) {
        strings.push(s.into());
    }
    fn end_strings(&mut self, strings: Vec<GodotString>) -> Value {
        Value::PackedStringArray(strings)
    }

    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        _claimed: usize,
    ) -> Result<Array, DecodeReason> {
        self.check_container_type(&element)?;
        Ok(Array {
            element,
            items: Vec::with_capacity(capacity),
        })
    }
    #[inline(always)]
    fn push(&mut self, array: &mut Array, v: Value) -> Result<(), DecodeReason> {
        // The usual elements moved straight in, not through `admit`.
        if kept_as_is(&array.element, &v) {
            push_in_place(&mut array.items, v);
            return Ok(());
        }
        let found = v.variant_type();
        match self.admit(&array.element, v) {
            Some(v) => array.items.push(v),
            None if self.refuse_dropped => {
                return Err(dropped("an Array item", found, || {
                    format!("Array[{}]", array.element)
                }))
            }
            None => {}
        }
        Ok(())
    }
    fn end_array(&mut self, array: Array) -> Value {
        Value::Array(Box::new(array))
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        _claimed: usize,
    ) -> Result<DictionaryInProgress, DecodeReason> {
        self.check_container_type(&key)?;
        self.check_container_type(&value)?;
        Ok(DictionaryInProgress {
            dict: Dictionary::from_parts(key, value, Vec::with_capacity(capacity)),
            keys: keys::DictionaryKeys::default(),
        })
    }
    fn insert(
        &mut self,
        d: &mut DictionaryInProgress,
        key: Value,
        value: Value,
    ) -> Result<(), DecodeReason> {
        let key = if d.dict.key == ContainerType::Untyped {
            key
        } else {
            let found = key.variant_type();
            match self.admit(&d.dict.key, key) {
                Some(key) => key,
                None if self.refuse_dropped => {
                    return Err(dropped("a Dictionary key", found, || {
                        format!("Dictionary[{}, {}]", d.dict.key, d.dict.value)
                    }))
                }
                None => return Ok(()),
            }
        };
        d.keys
            .insert(&mut d.dict.entries, key, value, &self.key_hashing);
        Ok(())
    }
    fn end_dictionary(&mut self, d: DictionaryInProgress) -> Value {
        self.key_hashing.finish(&d.dict, d.keys);
        Value::Dictionary(Box::new(d.dict))
    }
    fn check_class(&mut self, class: &str) -> Result<(), DecodeReason> {
        match &self.classes {
            Some(known) if !known.contains(class) => {
                Err(DecodeReason::UnknownClass(class.to_owned()))
            }
            _ => Ok(()),
        }
    }
    fn begin_object(&mut self, class: &str) -> Result<Object, DecodeReason> {
        Ok(Object {
            class: class.to_owned(),
            properties: Vec::new(),
        })
    }
    fn set_property(
        &mut self,
        object: &mut Object,
        name: &str,
        value: Value,
    ) -> Result<(), DecodeReason> {
        if let (Value::String(path), "script") = (&value, name) {
            self.check_script(path)?;
        }
        object.properties.push((name.to_owned(), value));
        Ok(())
    }
    fn end_object(&mut self, object: Object) -> Result<Value, DecodeReason> {
        Ok(Value::Object(Box::new(object)))
    }
}

#[cfg(feature = "text")]
impl super::parse_text::TextBuild for ValueBuilder {
    fn assign_value(
        &mut self,
        d: &DictionaryInProgress,
        value: Value,
    ) -> Result<Value, DecodeReason> {
        if d.dict.value == ContainerType::Untyped {
            return Ok(value);
        }
        let found = value.variant_type();
        self.admit(&d.dict.value, value).ok_or_else(|| {
            dropped("a Dictionary value", found, || {
                format!("Dictionary[{}, {}]", d.dict.key, d.dict.value)
            })
        })
    }
}

#[cfg(test)]
mod godot3_family_tests {
    use crate::value::{Array, ContainerType, VariantType};
    use crate::{decode, Dialect, Options, Value};

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.split_whitespace().collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
            .collect()
    }

    fn typed(t: VariantType, items: Vec<Value>) -> Value {
        Value::Array(Box::new(Array {
            element: ContainerType::Builtin(t),
            items,
        }))
    }

    /// Pandemonium v5.2.0's TypedArray takes elements of exactly its type and converts
    /// nothing (Godot 4 would make 5 a float and 1.5 an int): engine-made in the golden corpus
    /// as craft/typed_array/float_with_int_item and craft/typed_array/int_with_float_item.
    #[test]
    fn pandemonium_typed_arrays_convert_nothing() {
        let opts = Options::new(Dialect::Pandemonium5);
        for (bytes, expected) in [
            (
                "1b000000 03000000 02000000 02000000 05000000 03000000 0000c03f",
                typed(VariantType::Float, vec![Value::Float(1.5)]),
            ),
            (
                "1b000000 02000000 02000000 03000000 0000c03f 02000000 05000000",
                typed(VariantType::Int, vec![Value::Int(5)]),
            ),
            (
                "1b000000 04000000 01000000 18000000 01000000 61000000",
                typed(VariantType::String, vec![]),
            ),
        ] {
            assert_eq!(
                decode(&hex(bytes), &opts).expect("decode").0,
                expected,
                "{bytes}"
            );
        }
    }

    /// Bit 31 of a TYPED_ARRAY count is ignored, as in an Array's (Pandemonium v5.2.0:
    /// craft/typed_array/count_bit31_with_item).
    #[test]
    fn pandemonium_typed_array_count_ignores_bit_31() {
        let opts = Options::new(Dialect::Pandemonium5);
        let bytes = hex("1b000000 02000000 01000080 02000000 05000000");
        assert_eq!(
            decode(&bytes, &opts).expect("decode"),
            (typed(VariantType::Int, vec![Value::Int(5)]), bytes.len())
        );
        // All ones is 2^31 - 1 elements, which the input does not hold.
        assert!(decode(&hex("1b000000 02000000 ffffffff 02000000 05000000"), &opts).is_err());
    }
}

//! The core's reader writing the tape directly (its [`Build`] trait), without a `Value` tree:
//! one pass over the bytes where the model's decode makes a tree and `tape::write` walks it.
//! Every leaf is written by the code that writes the model's (`tape::write`, `tape::put_str`,
//! `tape::put_numbers`), the math types, paths and the like made by the core's `ValueBuilder`
//! first, so the tape is byte for byte `tape::write`'s of the model's value; or, built
//! `referencing`, with its large packed arrays of numbers as PACKED_REF to their bytes in the
//! input, whose little-endian numbers are the tape's.
//!
//! What the engine does on decode beyond that (typed containers converting or dropping
//! elements, keys it finds equal merging, full objects) is the model's: on meeting one the
//! build stops and the caller decodes the input again through the `Value` tree, as the Python
//! package does. Untyped Dictionaries whose keys are Strings and ints, all different, are
//! written as they come: the model keeps such keys apart and in wire order too (a large one's
//! keys are told apart by a Dictionary of the model's).

use std::borrow::Cow;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::reader::Build;
use fast_var_codec_core::real::WireReals;
use fast_var_codec_core::value::{
    ContainerType, IntVectorType, PackedVectorType, RealType, ValueBuilder,
};
use fast_var_codec_core::{Options, Value};

use crate::tape;

/// Where a value's tape starts (its tag).
#[derive(Clone, Copy)]
pub struct Mark(usize);

/// A container being written: where its count goes, its count so far, and where it starts.
pub struct Open {
    count_at: usize,
    count: usize,
    start: Mark,
}

/// A Dictionary being written: its count, where its keys start on the builder's key stack, and
/// once it has more than `FEW_KEYS`, its keys in a Dictionary of the model's (which finds an
/// equal one in constant time).
pub struct OpenDictionary {
    open: Open,
    keys_from: usize,
    model: Option<<ValueBuilder as Build>::Dictionary>,
}

/// A key of a Dictionary being written: where it lies in the tape (from its tag: a String's or
/// an int's bytes there are the key), and its first bytes (tag, length and the first three of a
/// String), which tell most keys apart without comparing them whole.
#[derive(Clone, Copy)]
struct Key {
    start: usize,
    end: usize,
    head: u64,
}

impl Key {
    fn new(tape: &[u8], start: usize, end: usize) -> Key {
        let bytes = tape.get(start..end).unwrap_or_default();
        let head = match bytes.first_chunk::<8>() {
            Some(first) => u64::from_le_bytes(*first),
            // Shorter keys (an INT32's 5 bytes): byte by byte, no copy call.
            None => bytes
                .iter()
                .enumerate()
                .fold(0, |h, (i, &b)| h | u64::from(b) << (8 * i)),
        };
        Key { start, end, head }
    }

    fn bytes<'a>(&self, tape: &'a [u8]) -> &'a [u8] {
        tape.get(self.start..self.end).unwrap_or_default()
    }

    fn same(&self, other: &Key, tape: &[u8]) -> bool {
        self.head == other.head
            && self.end - self.start == other.end - other.start
            && self.bytes(tape) == other.bytes(tape)
    }
}

/// Up to this many keys, each key of a Dictionary is compared with those before it (mostly by
/// `Key::head`); a larger Dictionary's keys go into one of the model's.
const FEW_KEYS: usize = 16;

/// Writes a decode's tape into `out` as the reader goes.
pub struct TapeBuilder<'t> {
    out: &'t mut Vec<u8>,
    /// Makes the leaves that are not numbers, strings or packed numbers, as the model does.
    model: ValueBuilder,
    /// Met something only the model decodes as the engine does.
    needs_model: bool,
    /// The keys of the Dictionaries being written, innermost last: a Dictionary's inner ones
    /// are done before its next key comes.
    keys: Vec<Key>,
    /// Large packed arrays of numbers as PACKED_REF to their bytes in the input.
    refer: bool,
}

thread_local! {
    /// The key stack of the last build, kept for the next (a small value's decode would
    /// otherwise allocate it again each time).
    static KEYS: std::cell::Cell<Vec<Key>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for TapeBuilder<'_> {
    fn drop(&mut self) {
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        KEYS.set(keys);
    }
}

impl<'t> TapeBuilder<'t> {
    pub fn new(out: &'t mut Vec<u8>) -> Self {
        TapeBuilder {
            out,
            model: ValueBuilder::default(),
            needs_model: false,
            keys: KEYS.take(),
            refer: false,
        }
    }

    /// A builder whose tape refers to the large packed arrays of numbers where their bytes lie
    /// in the input (PACKED_REF), not copied: the input must stay where it is, unchanged, until
    /// the tape has been read.
    pub fn referencing(out: &'t mut Vec<u8>) -> Self {
        let mut builder = TapeBuilder::new(out);
        builder.refer = true;
        builder
    }

    /// Whether the build stopped at something only the model decodes as the engine does (the
    /// tape written is then incomplete: decode again through `Value`).
    pub fn needs_model(&self) -> bool {
        self.needs_model
    }

    fn mark(&self) -> Mark {
        Mark(self.out.len())
    }

    /// Writes a leaf the model made.
    fn leaf(&mut self, v: &Value) -> Mark {
        let at = self.mark();
        tape::write(self.out, v);
        at
    }

    /// A container's tag and types (untyped), then its count, filled in at its end.
    fn open(&mut self, head: &[u8]) -> Open {
        self.out.extend_from_slice(head);
        let count_at = self.out.len();
        self.out.extend_from_slice(&[0; 4]);
        Open {
            count_at,
            count: 0,
            start: Mark(count_at - head.len()),
        }
    }

    fn close(&mut self, open: &Open) {
        let count = u32::try_from(open.count).unwrap_or(u32::MAX).to_le_bytes();
        if let Some(slot) = self.out.get_mut(open.count_at..open.count_at + 4) {
            slot.copy_from_slice(&count);
        }
    }

    /// Stops the build: only the model decodes this as the engine does.
    fn model_only<T>(&mut self) -> Result<T, DecodeReason> {
        self.needs_model = true;
        Err(DecodeReason::Refused(
            "decoded through the model instead".into(),
        ))
    }
}

impl TapeBuilder<'_> {
    /// Adds the key written from `key` to `value` (the value after it) to `dict`'s; false when it
    /// may equal one already there.
    fn add_key(&mut self, dict: &mut OpenDictionary, key: Mark, value: Mark) -> bool {
        let tape = &self.out[..];
        let key = Key::new(tape, key.0, value.0);
        if dict.model.is_none() {
            let seen = self.keys.get(dict.keys_from..).unwrap_or_default();
            if seen.iter().any(|k| k.same(&key, tape)) {
                return false;
            }
            if seen.len() < FEW_KEYS {
                self.keys.push(key);
                return true;
            }
        }
        self.add_key_to_model(dict, key)
    }

    /// [`TapeBuilder::add_key`] from the `FEW_KEYS`th key on: the keys so far moved into a
    /// Dictionary of the model's first.
    #[cold]
    #[inline(never)]
    fn add_key_to_model(&mut self, dict: &mut OpenDictionary, key: Key) -> bool {
        let tape = &self.out[..];
        if dict.model.is_none() {
            let untyped = ContainerType::Untyped;
            let Ok(mut model) = self.model.begin_dictionary(untyped.clone(), untyped, 0, 0) else {
                return false;
            };
            let seen = self.keys.get(dict.keys_from..).unwrap_or_default();
            for k in seen {
                if !admit_key(&mut self.model, &mut model, k.bytes(tape)) {
                    return false;
                }
            }
            self.keys.truncate(dict.keys_from);
            dict.model = Some(model);
        }
        match &mut dict.model {
            Some(model) => admit_key(&mut self.model, model, key.bytes(tape)),
            None => false,
        }
    }
}

/// Adds the key of tape `bytes` to the model's Dictionary `keys` (which merges it with an equal
/// one there: `end_dictionary` counts them).
fn admit_key(
    builder: &mut ValueBuilder,
    keys: &mut <ValueBuilder as Build>::Dictionary,
    bytes: &[u8],
) -> bool {
    match tape::Reader::new(bytes).value() {
        Ok(key) => builder.insert(keys, key, Value::Nil).is_ok(),
        Err(_) => false,
    }
}

impl Build for TapeBuilder<'_> {
    type Value = Mark;
    type Array = Open;
    type Dictionary = OpenDictionary;
    type Object = ();
    type Strings = Open;

    fn configure(&mut self, opts: &Options) {
        self.model.configure(opts);
    }

    fn nil(&mut self) -> Mark {
        let at = self.mark();
        self.out.push(tape::NIL);
        at
    }
    fn bool(&mut self, v: bool) -> Mark {
        let at = self.mark();
        tape::put_bool(self.out, v);
        at
    }
    fn int(&mut self, v: i64) -> Mark {
        let at = self.mark();
        tape::put_int(self.out, v);
        at
    }
    fn float(&mut self, v: f64) -> Mark {
        let at = self.mark();
        tape::put_float(self.out, v);
        at
    }
    fn string(&mut self, s: &str) -> Mark {
        let at = self.mark();
        tape::put_str(self.out, tape::STRING, s);
        at
    }
    fn string_name(&mut self, s: &str) -> Mark {
        let at = self.mark();
        tape::put_str(self.out, tape::STRING_NAME, s);
        at
    }
    fn real(&mut self, ty: RealType, components: WireReals<'_>) -> Mark {
        let v = self.model.real(ty, components);
        self.leaf(&v)
    }
    fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Mark {
        let v = self.model.int_vector(ty, components);
        self.leaf(&v)
    }
    fn color(&mut self, rgba: [f32; 4]) -> Mark {
        let v = self.model.color(rgba);
        self.leaf(&v)
    }
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Mark {
        let v = self.model.node_path(names, subnames, absolute);
        self.leaf(&v)
    }
    fn rid(&mut self, id: u64) -> Mark {
        let v = self.model.rid(id);
        self.leaf(&v)
    }
    fn object_id(&mut self, id: u64) -> Mark {
        let v = self.model.object_id(id);
        self.leaf(&v)
    }
    fn null_object(&mut self) -> Mark {
        let v = self.model.null_object();
        self.leaf(&v)
    }
    fn callable(&mut self) -> Mark {
        let v = self.model.callable();
        self.leaf(&v)
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Mark {
        let v = self.model.signal(name, object_id);
        self.leaf(&v)
    }

    fn packed_bytes(&mut self, bytes: &[u8]) -> Mark {
        let at = self.mark();
        tape::put_numbers(self.out, tape::PACKED_BYTE, bytes.len(), bytes, self.refer);
        at
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Mark {
        let at = self.mark();
        tape::put_numbers(self.out, tape::PACKED_INT32, raw.len() / 4, raw, self.refer);
        at
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Mark {
        let at = self.mark();
        tape::put_numbers(self.out, tape::PACKED_INT64, raw.len() / 8, raw, self.refer);
        at
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Mark {
        let at = self.mark();
        tape::put_numbers(
            self.out,
            tape::PACKED_FLOAT32,
            raw.len() / 4,
            raw,
            self.refer,
        );
        at
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Mark {
        let at = self.mark();
        tape::put_numbers(
            self.out,
            tape::PACKED_FLOAT64,
            raw.len() / 8,
            raw,
            self.refer,
        );
        at
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Mark {
        let v = self.model.packed_vectors(ty, raw, wide);
        self.leaf(&v)
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Mark {
        let v = self.model.packed_colors(raw);
        self.leaf(&v)
    }
    fn begin_strings(&mut self, _capacity: usize) -> Open {
        self.open(&[tape::PACKED_STRING])
    }
    fn push_string(&mut self, strings: &mut Open, s: &str) {
        tape::put_len_str(self.out, s);
        strings.count += 1;
    }
    fn end_strings(&mut self, strings: Open) -> Mark {
        self.close(&strings);
        strings.start
    }

    fn begin_array(
        &mut self,
        element: ContainerType,
        _capacity: usize,
        _claimed: usize,
    ) -> Result<Open, DecodeReason> {
        if !element.is_untyped() {
            return self.model_only();
        }
        Ok(self.open(&[tape::ARRAY, tape::UNTYPED]))
    }
    fn push(&mut self, array: &mut Open, _v: Mark) -> Result<(), DecodeReason> {
        array.count += 1;
        Ok(())
    }
    fn end_array(&mut self, array: Open) -> Mark {
        self.close(&array);
        array.start
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        _capacity: usize,
        _claimed: usize,
    ) -> Result<OpenDictionary, DecodeReason> {
        if !key.is_untyped() || !value.is_untyped() {
            return self.model_only();
        }
        let open = self.open(&[tape::DICTIONARY, tape::UNTYPED, tape::UNTYPED]);
        Ok(OpenDictionary {
            open,
            keys_from: self.keys.len(),
            model: None,
        })
    }
    /// Keys that are Strings or ints and all different: the model keeps them as they come. Any
    /// other key (one the engine may find equal to another) goes to the model.
    fn insert(
        &mut self,
        dict: &mut OpenDictionary,
        key: Mark,
        value: Mark,
    ) -> Result<(), DecodeReason> {
        let plain = matches!(
            self.out.get(key.0),
            Some(&(tape::STRING | tape::INT32 | tape::INT64))
        );
        if !plain || !self.add_key(dict, key, value) {
            return self.model_only();
        }
        dict.open.count += 1;
        Ok(())
    }
    fn end_dictionary(&mut self, dict: OpenDictionary) -> Mark {
        self.keys.truncate(dict.keys_from);
        if let Some(model) = dict.model {
            let keys = self.model.end_dictionary(model);
            if keys.len() != Some(dict.open.count) {
                // Two keys were equal. The reader goes on; the caller then decodes through the
                // model.
                self.needs_model = true;
            }
        }
        self.close(&dict.open);
        dict.open.start
    }
    fn check_class(&mut self, _class: &str) -> Result<(), DecodeReason> {
        self.model_only()
    }
    fn begin_object(&mut self, _class: &str) -> Result<(), DecodeReason> {
        self.model_only()
    }
    fn set_property(
        &mut self,
        _object: &mut (),
        _name: &str,
        _value: Mark,
    ) -> Result<(), DecodeReason> {
        self.model_only()
    }
    fn end_object(&mut self, _object: ()) -> Result<Mark, DecodeReason> {
        self.model_only()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fast_var_codec_core::reader::decode_with;
    use fast_var_codec_core::value::{NodePath, VariantType};
    use fast_var_codec_core::Dialect;

    /// The tape built directly from `v`'s bytes in `dialect`, or None when the build asks for
    /// the model; checked against the model's tape of the same bytes.
    fn direct(v: &Value, dialect: Dialect) -> Option<Vec<u8>> {
        let opts = Options::new(dialect);
        let bytes = fast_var_codec_core::encode(v, &opts).expect("encodes");
        let mut tape = Vec::new();
        let mut builder = TapeBuilder::new(&mut tape);
        let built = decode_with(&bytes, 0, &opts, &mut builder);
        let needs_model = builder.needs_model();
        drop(builder);
        if needs_model {
            return None;
        }
        let (_, used) = built.expect("decodes");
        assert_eq!(used, bytes.len());
        let (model, _) = fast_var_codec_core::decode_at(&bytes, 0, &opts).expect("decodes");
        let mut expected = Vec::new();
        tape::write(&mut expected, &model);
        assert_eq!(tape, expected, "{model:?}");
        Some(tape)
    }

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    #[test]
    fn writes_the_tape_of_the_models_value() {
        let leaves = vec![
            Value::Nil,
            Value::Bool(false),
            Value::Int(-5),
            Value::Int(1 << 40),
            Value::Float(0.1),
            s("zoë"),
            Value::StringName("name".into()),
            Value::Vector2([1.5, 2.0]),
            Value::Vector3i([1, 2, 3]),
            Value::Transform3D(Box::new([
                1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 4.0, 5.0, 6.0,
            ])),
            Value::Color([0.5, 0.25, 1.0, 1.0]),
            Value::NodePath(Box::new(NodePath::from("/root/a:b"))),
            Value::Rid(7),
            Value::Callable,
            Value::Signal {
                name: "hit".into(),
                object_id: 9,
            },
            Value::PackedByteArray(vec![1, 2, 3]),
            Value::PackedInt32Array(vec![1, -1]),
            Value::PackedInt64Array(vec![1, -1]),
            Value::PackedFloat32Array(vec![0.5; 2000]),
            Value::PackedFloat64Array(vec![0.1, 0.2]),
            Value::PackedStringArray(vec!["a".into(), "ü".into()]),
            Value::PackedVector3Array(vec![[1.0, 2.0, 3.0]]),
            Value::PackedColorArray(vec![[1.0, 0.0, 0.0, 1.0]]),
            Value::array(vec![]),
            Value::dictionary(vec![]),
        ];
        let keyed: Vec<(Value, Value)> = (0..40)
            .map(|i| (s(&format!("key{i}")), Value::Int(i)))
            .chain([(Value::Int(1), s("one")), (Value::Int(1 << 40), s("big"))])
            .collect();
        let v = Value::array(vec![
            Value::array(leaves.clone()),
            Value::dictionary(vec![
                (s("leaves"), Value::array(leaves)),
                (
                    s("nested"),
                    Value::dictionary(vec![(s("leaves"), Value::Nil)]),
                ),
                (s("keyed"), Value::dictionary(keyed)),
            ]),
        ]);
        for dialect in [Dialect::Godot4, Dialect::Godot3] {
            let v = if dialect == Dialect::Godot3 {
                // What Godot 3 has no type for, left out.
                let g3 = fast_var_codec_core::encode(&v, &Options::new(dialect));
                assert!(g3.is_err());
                Value::dictionary(vec![
                    (s("k"), Value::Vector2([1.0, 2.0])),
                    (Value::Int(2), s("ü")),
                ])
            } else {
                v.clone()
            };
            assert!(direct(&v, dialect).is_some(), "{dialect:?}");
        }
    }

    #[test]
    fn leaves_to_the_model_what_only_it_decodes_as_the_engine_does() {
        let dict = |k: Value| Value::dictionary(vec![(s("a"), Value::Nil), (k, Value::Nil)]);
        // Keys the engine may find equal to another, or that are equal.
        for key in [
            Value::StringName("a".into()),
            Value::Float(1.0),
            Value::Nil,
            s("a"),
        ] {
            assert!(
                direct(&dict(key.clone()), Dialect::Godot4).is_none(),
                "{key:?}"
            );
        }
        let many: Vec<(Value, Value)> = (0..40).map(|i| (Value::Int(i % 39), Value::Nil)).collect();
        assert!(direct(&Value::dictionary(many), Dialect::Godot4).is_none());
        // More keys than are compared one by one: two equal ones, at either end.
        let large = |last: i64| {
            let keys = (0..100).map(Value::Int).chain([Value::Int(last)]);
            Value::dictionary(keys.map(|k| (k, Value::Nil)).collect())
        };
        assert!(direct(&large(100), Dialect::Godot4).is_some());
        assert!(direct(&large(99), Dialect::Godot4).is_none());
        assert!(direct(&large(0), Dialect::Godot4).is_none());
        // Typed containers.
        let typed = Value::typed_array(
            ContainerType::Builtin(VariantType::Int),
            vec![Value::Int(1)],
        );
        assert!(direct(&typed, Dialect::Godot4).is_none());
        // Different keys stay direct, each of them written.
        let apart = Value::dictionary(vec![(s("a"), Value::Nil), (s("b"), Value::Nil)]);
        assert!(direct(&apart, Dialect::Godot4).is_some());
    }
}

//! Dictionary keys as the engine merges them on decode, found in expected constant time per key
//! whatever their kind.
//!
//! What Godot 4.6.3 merges when `bytes_to_var` decodes a Dictionary (observed with the headless
//! engine on crafted input: `tests/engine_probes/dictionary_keys.gd` checks the table that
//! `keys/tests.rs` tests):
//!
//! * As a key: String and StringName of the same text are one key; otherwise the types must be
//!   the same (1 and 1.0 are two keys). A Float compares by value, with -0.0 == 0.0 and
//!   NaN == NaN whatever the payload. The keys of a Dictionary inside a key compare the same way.
//! * Inside a key (Array items, Dictionary values) the types must be exactly the same (String
//!   and StringName differ) and a Float compares with `==`: -0.0 == 0.0, but a NaN equals
//!   nothing, so a key that holds one is never merged.
//! * At any depth, the components of the math types and Color, and the elements of the packed
//!   float, vector and color arrays, compare with -0.0 == 0.0 and NaN == NaN.
//! * Arrays compare item by item, whatever their element type; Dictionaries entry by entry **in
//!   order** (`{a: 1, b: 2}` and `{b: 2, a: 1}` are two keys), whatever their key and value types.
//! * Objects are never merged: each decoded object, full or sent as an id, is a new instance.
//!   (A null object is `Value::Nil` in this model, so it merges with a Nil key; the engine keeps
//!   the two apart.)
//! * Everything else compares by value.
//!
//! Godot 3 and Pandemonium ([`VariantRules::Godot3`], 3.x's `Variant::hash_compare`, observed on
//! Godot 3.2.3, 3.6.2 and Pandemonium v4.9.0 / v5.2.0) differ in three points: String and
//! StringName are two keys; a Float inside an Array key compares as at the top (NaN == NaN); and
//! a Dictionary, as a key or inside one, equals no other (3.x compares Dictionaries by
//! identity), so such a key is never merged.
//!
//! [`DictionaryKeys`] scans small dictionaries of plain keys and indexes the others by a digest
//! of each key's content under that equality (keyed SipHash, one random seed per builder): the
//! digest feeds a canonical form of the key (-0.0 as 0.0, one NaN, String and StringName alike
//! only where they are equal), and keys that equal nothing are not indexed. Each key is digested
//! once, and a Dictionary inside a key is digested from the digests its own index kept for its
//! keys ([`KeyHashing`] remembers them when it is finished), so no part of the input is hashed
//! twice however deeply keys nest in keys. Comparisons happen on equal digests (the later key is
//! then dropped) or in the scan of up to 15 plain keys, so a decode costs expected time linear in
//! its input whatever the keys.

use std::cell::OnceCell;
use std::collections::hash_map::{DefaultHasher, Entry, RandomState};
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use super::{Dictionary, Key, Value};
use crate::dialect::VariantRules;
use crate::stack;
use crate::types::VariantType;

/// Up to this many entries, an equal key is found by scanning instead of hashing.
pub(super) const SMALL_DICTIONARY: usize = 16;

/// Where a value sits: a Dictionary key (or a key of a Dictionary inside one), or inside a key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Key,
    Inside,
}

/// Godot's equality of two Dictionary keys (see the module documentation).
#[inline]
pub(super) fn keys_equal(a: &Value, b: &Value, rules: VariantRules) -> bool {
    match (a, b) {
        // The usual keys, first.
        (Value::String(x), Value::String(y)) | (Value::StringName(x), Value::StringName(y)) => {
            x == y
        }
        (Value::String(x), Value::StringName(y)) | (Value::StringName(x), Value::String(y)) => {
            rules == VariantRules::Godot4 && x == y
        }
        (Value::Int(x), Value::Int(y)) => x == y,
        _ => equal(a, b, At::Key, rules),
    }
}

/// Floats of math types and packed arrays: -0.0 == 0.0 and NaN == NaN.
fn same(x: f64, y: f64) -> bool {
    x == y || (x.is_nan() && y.is_nan())
}

fn reals(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(*x, *y))
}

fn reals32(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| same(f64::from(*x), f64::from(*y)))
}

fn equal(a: &Value, b: &Value, at: At, rules: VariantRules) -> bool {
    use Value as V;
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + 1));
    let godot4 = rules == VariantRules::Godot4;
    match a {
        V::String(x) | V::StringName(x) if at == At::Key && godot4 => {
            matches!(b, V::String(y) | V::StringName(y) if x == y)
        }
        V::Float(x) => matches!(b, V::Float(y) if match at {
            At::Inside if godot4 => x == y,
            _ => same(*x, *y),
        }),
        V::Vector2(x) => matches!(b, V::Vector2(y) if reals(x, y)),
        V::Rect2(x) => matches!(b, V::Rect2(y) if reals(x.as_slice(), y.as_slice())),
        V::Vector3(x) => matches!(b, V::Vector3(y) if reals(x, y)),
        V::Transform2D(x) => matches!(b, V::Transform2D(y) if reals(x.as_slice(), y.as_slice())),
        V::Vector4(x) => matches!(b, V::Vector4(y) if reals(x.as_slice(), y.as_slice())),
        V::Plane(x) => matches!(b, V::Plane(y) if reals(x.as_slice(), y.as_slice())),
        V::Quaternion(x) => matches!(b, V::Quaternion(y) if reals(x.as_slice(), y.as_slice())),
        V::Aabb(x) => matches!(b, V::Aabb(y) if reals(x.as_slice(), y.as_slice())),
        V::Basis(x) => matches!(b, V::Basis(y) if reals(x.as_slice(), y.as_slice())),
        V::Transform3D(x) => matches!(b, V::Transform3D(y) if reals(x.as_slice(), y.as_slice())),
        V::Projection(x) => matches!(b, V::Projection(y) if reals(x.as_slice(), y.as_slice())),
        V::Color(x) => matches!(b, V::Color(y) if reals32(x, y)),
        V::PackedFloat32Array(x) => matches!(b, V::PackedFloat32Array(y) if reals32(x, y)),
        V::PackedFloat64Array(x) => matches!(b, V::PackedFloat64Array(y) if reals(x, y)),
        V::PackedVector2Array(x) => {
            matches!(b, V::PackedVector2Array(y) if reals(x.as_flattened(), y.as_flattened()))
        }
        V::PackedVector3Array(x) => {
            matches!(b, V::PackedVector3Array(y) if reals(x.as_flattened(), y.as_flattened()))
        }
        V::PackedVector4Array(x) => {
            matches!(b, V::PackedVector4Array(y) if reals(x.as_flattened(), y.as_flattened()))
        }
        V::PackedColorArray(x) => {
            matches!(b, V::PackedColorArray(y) if reals32(x.as_flattened(), y.as_flattened()))
        }
        // Keys nest as deep as values: each level on a stack with room for it.
        V::Array(x) => matches!(b, V::Array(y) if x.items.len() == y.items.len()
            && stack::guard(|| x.items.iter().zip(&y.items)
                .all(|(p, q)| equal(p, q, At::Inside, rules)))),
        V::Dictionary(x) => {
            godot4
                && matches!(b, V::Dictionary(y) if x.entries.len() == y.entries.len()
                && stack::guard(|| x.entries.iter().zip(&y.entries).all(|((k, v), (l, w))| {
                    equal(k, l, At::Key, rules) && equal(v, w, At::Inside, rules)
                })))
        }
        V::Object(_) | V::ObjectId(_) => false,
        V::Nil
        | V::Bool(_)
        | V::Int(_)
        | V::String(_)
        | V::StringName(_)
        | V::Vector2i(_)
        | V::Rect2i(_)
        | V::Vector3i(_)
        | V::Vector4i(_)
        | V::NodePath(_)
        | V::Rid(_)
        | V::Callable
        | V::Signal { .. }
        | V::PackedByteArray(_)
        | V::PackedInt32Array(_)
        | V::PackedInt64Array(_)
        | V::PackedStringArray(_) => a == b,
    }
}

/// The bits of a float with every NaN one NaN and -0.0 as 0.0.
fn canonical(x: f64) -> u64 {
    if x.is_nan() {
        f64::NAN.to_bits()
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

fn feed_reals(h: &mut DefaultHasher, c: &[f64]) {
    for x in c {
        h.write_u64(canonical(*x));
    }
}

fn feed_reals32(h: &mut DefaultHasher, c: &[f32]) {
    for x in c {
        h.write_u64(canonical(f64::from(*x)));
    }
}

fn feed_text(h: &mut DefaultHasher, s: &str) {
    h.write_usize(s.len());
    h.write(s.as_bytes());
}

/// Feeds `v`, as found at `at`, to `h`: values [`equal`] at `at` feed the same words, and
/// different values different sequences (lengths and type tags keep them apart). Returns false
/// when `v` equals no value at all (what was fed is then meaningless).
fn feed(v: &Value, at: At, h: &mut DefaultHasher, hashing: &Digests<'_>) -> bool {
    use Value as V;
    #[cfg(test)]
    WORK.with(|w| w.set(w.get() + 1));
    let godot4 = hashing.rules == VariantRules::Godot4;
    let tag = match (v, at) {
        // One key whichever of the two it was sent as.
        (V::StringName(_), At::Key) if godot4 => VariantType::String,
        _ => v.variant_type(),
    };
    h.write_u8(tag as u8);
    match v {
        V::Nil | V::Callable => {}
        V::Bool(b) => h.write_u8(u8::from(*b)),
        V::Int(i) => h.write_i64(*i),
        V::Float(x) => {
            if at == At::Inside && x.is_nan() && godot4 {
                return false;
            }
            h.write_u64(canonical(*x));
        }
        V::String(s) | V::StringName(s) => feed_text(h, s),
        V::Vector2(c) => feed_reals(h, c),
        V::Rect2(c) | V::Vector4(c) | V::Plane(c) | V::Quaternion(c) => feed_reals(h, c.as_slice()),
        V::Vector3(c) => feed_reals(h, c),
        V::Transform2D(c) | V::Aabb(c) => feed_reals(h, c.as_slice()),
        V::Basis(c) => feed_reals(h, c.as_slice()),
        V::Transform3D(c) => feed_reals(h, c.as_slice()),
        V::Projection(c) => feed_reals(h, c.as_slice()),
        V::Color(c) => feed_reals32(h, c),
        V::Vector2i(c) => c.iter().for_each(|x| h.write_i32(*x)),
        V::Vector3i(c) => c.iter().for_each(|x| h.write_i32(*x)),
        V::Rect2i(c) | V::Vector4i(c) => c.iter().for_each(|x| h.write_i32(*x)),
        V::NodePath(p) => {
            h.write_u8(u8::from(p.absolute));
            for part in [&p.names, &p.subnames] {
                h.write_usize(part.len());
                part.iter().for_each(|s| feed_text(h, s));
            }
        }
        V::Rid(id) => h.write_u64(*id),
        V::Object(_) | V::ObjectId(_) => return false,
        V::Signal { name, object_id } => {
            feed_text(h, name);
            h.write_u64(*object_id);
        }
        V::Dictionary(_) if !godot4 => return false,
        V::Dictionary(d) => match stack::guard(|| hashing.dictionary_digest(d)) {
            Some(digest) => h.write_u64(digest),
            None => return false,
        },
        V::Array(a) => {
            h.write_usize(a.items.len());
            let all = stack::guard(|| {
                a.items
                    .iter()
                    .all(|item| feed(item, At::Inside, h, hashing))
            });
            if !all {
                return false;
            }
        }
        V::PackedByteArray(b) => {
            h.write_usize(b.len());
            h.write(b);
        }
        V::PackedInt32Array(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|i| h.write_i32(*i));
        }
        V::PackedInt64Array(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|i| h.write_i64(*i));
        }
        V::PackedFloat32Array(x) => {
            h.write_usize(x.len());
            feed_reals32(h, x);
        }
        V::PackedFloat64Array(x) => {
            h.write_usize(x.len());
            feed_reals(h, x);
        }
        V::PackedStringArray(x) => {
            h.write_usize(x.len());
            x.iter().for_each(|s| feed_text(h, s));
        }
        V::PackedVector2Array(x) => {
            h.write_usize(x.len());
            feed_reals(h, x.as_flattened());
        }
        V::PackedVector3Array(x) => {
            h.write_usize(x.len());
            feed_reals(h, x.as_flattened());
        }
        V::PackedVector4Array(x) => {
            h.write_usize(x.len());
            feed_reals(h, x.as_flattened());
        }
        V::PackedColorArray(x) => {
            h.write_usize(x.len());
            feed_reals32(h, x.as_flattened());
        }
    }
    true
}

#[cfg(test)]
thread_local! {
    static PROBES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Key comparisons made by dictionary inserts, and by [`Dictionary`] lookups, on this thread so
/// far.
#[cfg(test)]
pub(super) fn probes() -> u64 {
    PROBES.with(|p| p.get())
}

/// Values visited by key comparisons and digests on this thread so far.
#[cfg(test)]
pub(super) fn work() -> u64 {
    WORK.with(|w| w.get())
}

/// Whether a [`Dictionary`] entry's key `k` is `key` (counted in tests).
#[inline]
pub(super) fn matches<K: Key + ?Sized>(key: &K, k: &Value) -> bool {
    #[cfg(test)]
    PROBES.with(|p| p.set(p.get() + 1));
    key.matches_key(k)
}

/// Compares a new key with one already in the dictionary (counted in tests).
fn probe(old: &Value, new: &Value, rules: VariantRules) -> bool {
    #[cfg(test)]
    PROBES.with(|p| p.set(p.get() + 1));
    keys_equal(old, new, rules)
}

/// A hash that arrives already mixed (a keyed SipHash of the content) is used as it is.
#[derive(Default)]
struct Premixed(u64);

impl Hasher for Premixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Addresses of entries (not chosen by the input) mixed by a folded multiplication.
#[derive(Default)]
struct Address(u64);

impl Hasher for Address {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        let m = u128::from(n) * 0x9e37_79b9_7f4a_7c15;
        self.0 = (m >> 64) as u64 ^ m as u64;
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The key digests of finished Dictionaries, by the address of their entries.
type Finished = HashMap<usize, Option<Vec<u64>>, BuildHasherDefault<Address>>;

/// No further entry in a hash chain.
const END: usize = usize::MAX;

/// What the digests of one builder share: the seed, and the key digests of the finished
/// Dictionaries that had an index, by the address of their entries (`None`: one of the keys
/// equals nothing). The address identifies the Dictionary: every Dictionary the builder makes
/// passes through [`KeyHashing::finish`], which records or forgets its address, and its entries
/// never move or change afterwards; a Dictionary freed during the decode can only leave its
/// address to one that is finished later, which overwrites the record. (This holds for the
/// values the reader hands to the builder; a Dictionary made elsewhere and given to
/// `Build::insert` by hand is digested in full unless it happens to reuse such an address.)
///
/// Both are made when first needed, so that decodes without large or nested keys pay nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyHashing {
    seed: OnceCell<RandomState>,
    finished: Finished,
    /// Whose key equality (the decode's dialect).
    rules: VariantRules,
}

impl KeyHashing {
    /// Forgets the finished Dictionaries and takes the key equality of the decode's dialect
    /// (at the start of a decode).
    pub(crate) fn clear(&mut self, rules: VariantRules) {
        self.finished.clear();
        self.rules = rules;
    }

    /// The digests of this decode's keys: its seed (made on first use), its finished
    /// Dictionaries and its dialect's equality.
    fn digests(&self) -> Digests<'_> {
        Digests {
            seed: self.seed.get_or_init(RandomState::new),
            finished: Some(&self.finished),
            rules: self.rules,
        }
    }

    /// Records what a Dictionary's index knew of its keys, or that it had none.
    pub(super) fn finish(&mut self, d: &Dictionary, keys: DictionaryKeys) {
        let at = d.entries.as_ptr() as usize;
        match keys.index {
            Some(index) if !d.entries.is_empty() => {
                let Index {
                    digests,
                    equals_nothing,
                    ..
                } = *index;
                let digests = (!equals_nothing).then_some(digests);
                self.finished.insert(at, digests);
            }
            _ => {
                if !self.finished.is_empty() {
                    self.finished.remove(&at);
                }
            }
        }
    }
}

/// How keys are digested: a keyed SipHash of their content under one dialect's equality.
/// Values equal under it have the same digest; a key that equals nothing has none.
#[derive(Clone, Copy)]
pub(super) struct Digests<'a> {
    seed: &'a RandomState,
    /// The key digests of the Dictionaries a decode has finished (see [`KeyHashing`]); `None`
    /// outside a decode, where a Dictionary inside a key is digested in full.
    finished: Option<&'a Finished>,
    rules: VariantRules,
}

impl<'a> Digests<'a> {
    /// Godot 4's key equality, as [`Dictionary`] lookups use it, under `seed`.
    pub(super) fn godot4(seed: &'a RandomState) -> Digests<'a> {
        Digests {
            seed,
            finished: None,
            rules: VariantRules::Godot4,
        }
    }

    fn hasher(&self) -> DefaultHasher {
        self.seed.build_hasher()
    }

    /// `None` when the key equals nothing.
    pub(super) fn key_digest(&self, key: &Value) -> Option<u64> {
        let mut h = self.hasher();
        feed(key, At::Key, &mut h, self).then(|| h.finish())
    }

    /// The digest of a String or StringName key of this text (under Godot 4's rules, where
    /// the two are one key): what [`Digests::key_digest`] gives for `Value::String(text)`.
    pub(super) fn text_key_digest(&self, text: &str) -> u64 {
        #[cfg(test)]
        WORK.with(|w| w.set(w.get() + 1));
        let mut h = self.hasher();
        h.write_u8(VariantType::String as u8);
        feed_text(&mut h, text);
        h.finish()
    }

    /// The digest of an int key: what [`Digests::key_digest`] gives for `Value::Int(i)`.
    pub(super) fn int_key_digest(&self, i: i64) -> u64 {
        #[cfg(test)]
        WORK.with(|w| w.set(w.get() + 1));
        let mut h = self.hasher();
        h.write_u8(VariantType::Int as u8);
        h.write_i64(i);
        h.finish()
    }

    /// A Dictionary inside a key, as one word; from its recorded key digests when a decode
    /// indexed it.
    fn dictionary_digest(&self, d: &Dictionary) -> Option<u64> {
        let recorded = match self
            .finished
            .and_then(|f| f.get(&(d.entries.as_ptr() as usize)))
        {
            Some(None) if !d.entries.is_empty() => return None,
            Some(Some(keys)) if keys.len() == d.entries.len() && !keys.is_empty() => Some(keys),
            _ => None,
        };
        let mut h = self.hasher();
        h.write_usize(d.entries.len());
        for (i, (k, v)) in d.entries.iter().enumerate() {
            let key = match recorded.and_then(|keys| keys.get(i)) {
                Some(digest) => *digest,
                None => self.key_digest(k)?,
            };
            h.write_u64(key);
            if !feed(v, At::Inside, &mut h, self) {
                return None;
            }
        }
        Some(h.finish())
    }
}

/// Entries by the digest of their key.
struct Index {
    /// The last entry whose key has this digest.
    last: HashMap<u64, usize, BuildHasherDefault<Premixed>>,
    /// For each entry, the previous entry whose key has the same digest ([`END`] if none, or if
    /// its key equals nothing and is not indexed). Distinct keys share a digest only by a 64-bit
    /// collision.
    previous: Vec<usize>,
    /// For each entry, the digest of its key (0 if it equals nothing).
    digests: Vec<u64>,
    /// Whether some key equals nothing.
    equals_nothing: bool,
}

impl Index {
    /// Indexes entries whose keys are already known to be distinct.
    fn new<V>(entries: &[(Value, V)], hashing: &Digests<'_>) -> Index {
        let mut index = Index {
            last: HashMap::default(),
            previous: Vec::with_capacity(entries.len()),
            digests: Vec::with_capacity(entries.len()),
            equals_nothing: false,
        };
        for (i, (k, _)) in entries.iter().enumerate() {
            let digest = hashing.key_digest(k);
            let previous = match digest {
                Some(digest) => index.last.insert(digest, i).unwrap_or(END),
                None => END,
            };
            index.push(digest, previous);
        }
        index
    }

    fn push(&mut self, digest: Option<u64>, previous: usize) {
        self.previous.push(previous);
        self.digests.push(digest.unwrap_or(0));
        self.equals_nothing |= digest.is_none();
    }

    /// The position of the entry whose key equals `key`; if there is none, `key` is indexed as
    /// the entry that the caller appends next.
    fn find_or_add<V>(
        &mut self,
        entries: &[(Value, V)],
        key: &Value,
        hashing: &Digests<'_>,
    ) -> Option<usize> {
        let new = entries.len();
        let Some(digest) = hashing.key_digest(key) else {
            self.push(None, END);
            return None;
        };
        let previous = match self.last.entry(digest) {
            Entry::Vacant(slot) => {
                slot.insert(new);
                END
            }
            Entry::Occupied(mut slot) => {
                let mut i = *slot.get();
                while let Some((k, _)) = entries.get(i) {
                    if probe(k, key, hashing.rules) {
                        return Some(i);
                    }
                    i = self.previous.get(i).copied().unwrap_or(END);
                }
                slot.insert(new)
            }
        };
        self.push(Some(digest), previous);
        None
    }
}

/// Merges equal keys as a Dictionary is decoded.
#[derive(Default)]
pub(crate) struct DictionaryKeys {
    /// Built when the dictionary outgrows [`SMALL_DICTIONARY`] or gets an Array or Dictionary
    /// key (boxed: most Dictionaries never need one).
    index: Option<Box<Index>>,
}

impl DictionaryKeys {
    /// Adds an entry, or gives `value` to the entry whose key equals `key` (which keeps its key,
    /// as in the engine).
    pub(super) fn insert(
        &mut self,
        entries: &mut Vec<(Value, Value)>,
        key: Value,
        value: Value,
        hashing: &KeyHashing,
    ) {
        match self
            .position(entries, &key, hashing)
            .and_then(|i| entries.get_mut(i))
        {
            Some(entry) => entry.1 = value,
            None => entries.push((key, value)),
        }
    }

    /// The position of the entry whose key equals `key`, whatever the entries hold beside their
    /// keys; `None` when there is none, and then the caller appends `key` as the next entry.
    pub(crate) fn position<V>(
        &mut self,
        entries: &[(Value, V)],
        key: &Value,
        hashing: &KeyHashing,
    ) -> Option<usize> {
        // Containers are never scanned: comparing two of them may walk both, which repeated at
        // each level of keys nested in keys would cost more than the input.
        let plain = !matches!(key, Value::Array(_) | Value::Dictionary(_));
        match &mut self.index {
            None if plain && entries.len() < SMALL_DICTIONARY => entries
                .iter()
                .position(|(k, _)| probe(k, key, hashing.rules)),
            None => {
                let digests = hashing.digests();
                self.index
                    .insert(Box::new(Index::new(entries, &digests)))
                    .find_or_add(entries, key, &digests)
            }
            Some(index) => index.find_or_add(entries, key, &hashing.digests()),
        }
    }
}

#[cfg(test)]
mod tests;

//! The index of a large [`Dictionary`](super::Dictionary) built or searched from Rust: the
//! positions of its entries in a hash table, by the digest of their key under Godot 4's key
//! equality (`keys::Digests`, the digest the decoder merges keys with), so that `get` and
//! `insert` cost expected constant time however many entries there are.
//!
//! Only the first of keys equal under that equality is indexed: a Godot 3 decode keeps `"hp"`
//! and `&"hp"` apart, and a lookup finds the first of them, as a scan in order would. Keys that
//! equal nothing (objects, a NaN inside an Array …) have no digest and are never indexed, so
//! never found.

use std::collections::hash_map::RandomState;

use hashbrown::hash_table::{Entry, HashTable};

use super::keys::{self, Digests};
use super::{Key, Value};

/// Up to this many entries, a key is found by scanning (no index, no allocation).
pub(super) const SMALL: usize = keys::SMALL_DICTIONARY;

/// An indexed entry: its key's digest (kept, so that growing the table hashes nothing again)
/// and its position.
struct Slot {
    digest: u64,
    at: usize,
}

/// The positions of a Dictionary's entries by the digest of their key.
pub(crate) struct KeyIndex {
    /// The key of the digests, one per index.
    seed: RandomState,
    slots: HashTable<Slot>,
}

impl KeyIndex {
    /// Indexes `entries`, the first of equal keys only.
    pub(super) fn new(entries: &[(Value, Value)]) -> KeyIndex {
        let mut index = KeyIndex {
            seed: RandomState::new(),
            slots: HashTable::with_capacity(entries.len()),
        };
        for (at, (k, _)) in entries.iter().enumerate() {
            let earlier = entries.get(..at).unwrap_or_default();
            index.find_or_add(earlier, k);
        }
        index
    }

    /// The position of the first entry whose key is `key`.
    pub(super) fn find<K: Key + ?Sized>(
        &self,
        entries: &[(Value, Value)],
        key: &K,
    ) -> Option<usize> {
        let digest = key.key_digest(&self.seed)?;
        self.slots
            .find(digest, |s| {
                s.digest == digest
                    && entries
                        .get(s.at)
                        .is_some_and(|(k, _)| keys::matches(key, k))
            })
            .map(|s| s.at)
    }

    /// The position of the first entry whose key equals `key`; if there is none, `key` is
    /// indexed as the entry at `entries.len()`, which the caller appends next.
    pub(super) fn find_or_add(&mut self, entries: &[(Value, Value)], key: &Value) -> Option<usize> {
        let digest = Digests::godot4(&self.seed).key_digest(key)?;
        let same = |s: &Slot| {
            s.digest == digest
                && entries
                    .get(s.at)
                    .is_some_and(|(k, _)| keys::matches(key, k))
        };
        match self.slots.entry(digest, same, |s| s.digest) {
            Entry::Occupied(slot) => Some(slot.get().at),
            Entry::Vacant(slot) => {
                slot.insert(Slot {
                    digest,
                    at: entries.len(),
                });
                None
            }
        }
    }
}

/// A lookup digest for each kind of [`Key`]: the digest its equal `Value` key has.
pub(super) fn text_digest(text: &str, seed: &RandomState) -> Option<u64> {
    Some(Digests::godot4(seed).text_key_digest(text))
}

pub(super) fn int_digest(i: i64, seed: &RandomState) -> Option<u64> {
    Some(Digests::godot4(seed).int_key_digest(i))
}

pub(super) fn value_digest(key: &Value, seed: &RandomState) -> Option<u64> {
    Digests::godot4(seed).key_digest(key)
}

#[cfg(test)]
mod tests;

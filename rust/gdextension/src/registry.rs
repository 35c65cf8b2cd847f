//! Objects' Rust state by a pointer-sized key, for calls that skip gdext's instance binding
//! (`crate::direct_methods`): one uncontended read lock and a hash lookup.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, PoisonError, RwLock};

/// Hashes one `usize` (an address) by a multiply: keys are distinct addresses, not chosen by
/// outside data, so no keyed hash is needed.
#[derive(Default)]
pub struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Map<T> = HashMap<usize, Arc<T>, BuildHasherDefault<AddressHasher>>;

pub struct Registry<T> {
    map: RwLock<Option<Map<T>>>,
}

impl<T> Registry<T> {
    pub const fn new() -> Self {
        Registry {
            map: RwLock::new(None),
        }
    }

    pub fn get(&self, key: usize) -> Option<Arc<T>> {
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        map.as_ref().and_then(|m| m.get(&key)).cloned()
    }

    pub fn insert(&self, key: usize, value: Arc<T>) {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        map.get_or_insert_with(Map::default).insert(key, value);
    }

    pub fn remove(&self, key: usize) {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = map.as_mut() {
            m.remove(&key);
        }
    }
}

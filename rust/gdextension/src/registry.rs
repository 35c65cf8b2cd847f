//! Objects' Rust state by instance id, for calls that skip gdext's instance binding.
//!
//! With `experimental-threads`, binding an object (`&self` in a `#[func]`) goes through a
//! blocking cell that locks a mutex, looks up the current thread and wakes a futex on every
//! call. A `#[func(gd_self)]` method gets only the `Gd`, and finds the object's state here: one
//! uncontended read lock and a hash lookup.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

pub struct Registry<T> {
    map: RwLock<Option<HashMap<i64, Arc<T>>>>,
}

impl<T> Registry<T> {
    pub const fn new() -> Self {
        Registry {
            map: RwLock::new(None),
        }
    }

    pub fn get(&self, id: i64) -> Option<Arc<T>> {
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        map.as_ref().and_then(|m| m.get(&id)).cloned()
    }

    pub fn insert(&self, id: i64, value: Arc<T>) {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        map.get_or_insert_with(HashMap::new).insert(id, value);
    }

    pub fn remove(&self, id: i64) {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = map.as_mut() {
            m.remove(&id);
        }
    }
}

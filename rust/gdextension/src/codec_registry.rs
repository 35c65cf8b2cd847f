//! Codec states by the engine's instance pointer, for the per-value methods that skip gdext's
//! instance binding (`crate::direct`): a map behind an uncontended read lock, and in front of it
//! each thread's most recent codec with a snapshot of its options. A codec is entered on its first
//! direct call and leaves when it is dropped ([`forget`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use fast_var_codec_core::Options;

use crate::codec_state::CodecState;

/// Hashes one `usize` (an address) by a multiply: keys are distinct addresses, not chosen by
/// outside data, so no keyed hash is needed.
#[derive(Default)]
struct AddressHasher(u64);

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

type Map = HashMap<usize, Arc<CodecState>, BuildHasherDefault<AddressHasher>>;

/// Codec states by the engine's instance pointer (gdext's instance storage, only ever used here
/// as a key).
static CODECS: RwLock<Option<Map>> = RwLock::new(None);

/// Counts codecs leaving [`CODECS`]: a thread's [`Recent`] older than the last removal may name
/// a dropped codec's address, which a new codec can now have.
static REMOVALS: AtomicU64 = AtomicU64::new(0);

/// The codec a thread called last, with a snapshot of its options: the next call on it needs
/// neither the registry's lock nor the settings' (two atomic loads tell whether it still holds).
/// Plain Rust values only, so it may outlive the engine.
struct Recent {
    key: usize,
    removals: u64,
    version: u64,
    state: Arc<CodecState>,
    opts: Arc<Options>,
}

thread_local! {
    static RECENT: RefCell<Option<Recent>> = const { RefCell::new(None) };
}

/// The state registered under `key`, or `find`'s (then registered under `key`).
fn lookup(key: usize, find: impl FnOnce() -> Arc<CodecState>) -> Arc<CodecState> {
    let known = CODECS
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|m| m.get(&key).cloned());
    if let Some(state) = known {
        return state;
    }
    let state = find();
    if state.registered.set(key).is_ok() {
        CODECS
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(Map::default)
            .insert(key, state.clone());
    }
    state
}

/// Runs `f` with the state and the options of the codec under `key` (the instance pointer the
/// engine passes); `find` gives its state the first time.
pub(crate) fn with_codec<R>(
    key: usize,
    find: impl FnOnce() -> Arc<CodecState>,
    f: impl FnOnce(&CodecState, &Options) -> R,
) -> R {
    RECENT.with(|cell| {
        // A shared borrow for the whole call: a call nested in it (a setter's script calling a
        // codec) may read the entry too, but not replace it while it is in use.
        if let Ok(recent) = cell.try_borrow() {
            if let Some(r) = recent.as_ref() {
                if r.key == key
                    && r.removals == REMOVALS.load(Ordering::Acquire)
                    && r.version == r.state.version.load(Ordering::Acquire)
                {
                    return f(&r.state, &r.opts);
                }
            }
        }
        // Read before the lookup: a removal in between makes the new entry stale at once.
        let removals = REMOVALS.load(Ordering::Acquire);
        let state = lookup(key, find);
        let (opts, version) = state.options_and_version();
        let out = f(&state, &opts);
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = Some(Recent {
                key,
                removals,
                version,
                state,
                opts,
            });
        }
        out
    })
}

/// Forgets a dropped codec.
pub(crate) fn forget(state: &CodecState) {
    if let Some(key) = state.registered.get() {
        if let Some(m) = CODECS
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
        {
            m.remove(key);
        }
        REMOVALS.fetch_add(1, Ordering::Release);
    }
}

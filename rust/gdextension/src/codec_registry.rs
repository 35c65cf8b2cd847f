//! Codec and stream states by the engine's instance pointer, for the methods that skip gdext's
//! instance binding (`crate::direct`): a map behind an uncontended read lock, and for codecs in
//! front of it each thread's most recent codec with a snapshot of its options. A state is entered
//! on its object's first direct call and leaves when the object is dropped ([`forget`],
//! [`forget_stream`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use fast_var_codec_core::Options;

use crate::codec_state::CodecState;
use crate::stream_state::StreamShared;

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

/// States by address.
type Map<S> = HashMap<usize, Arc<S>, BuildHasherDefault<AddressHasher>>;

/// What a [`Registry`] holds: the shared state of one object of a directly registered class.
pub(crate) trait Registrable: Send + Sync + 'static {
    /// The key the state is registered under, once it is.
    fn registered(&self) -> &OnceLock<usize>;
}

/// States by the engine's instance pointer (gdext's instance storage, only ever used here as a
/// key), behind an uncontended read lock.
pub(crate) struct Registry<S> {
    map: RwLock<Option<Map<S>>>,
    /// Counts states leaving the map: a thread's cached entry older than the last removal may
    /// name a dropped object's address, which a new object can now have.
    removals: AtomicU64,
}

impl<S: Registrable> Registry<S> {
    pub(crate) const fn new() -> Self {
        Registry {
            map: RwLock::new(None),
            removals: AtomicU64::new(0),
        }
    }

    /// The state registered under `key`, or `find`'s (then registered under `key`).
    pub(crate) fn lookup(&self, key: usize, find: impl FnOnce() -> Arc<S>) -> Arc<S> {
        let known = self
            .map
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .and_then(|m| m.get(&key).cloned());
        if let Some(state) = known {
            return state;
        }
        let state = find();
        if state.registered().set(key).is_ok() {
            self.map
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(HashMap::default)
                .insert(key, state.clone());
        }
        state
    }

    /// Forgets the state of a dropped object.
    pub(crate) fn forget(&self, state: &S) {
        if let Some(key) = state.registered().get() {
            if let Some(m) = self
                .map
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .as_mut()
            {
                m.remove(key);
            }
            self.removals.fetch_add(1, Ordering::Release);
        }
    }

    fn removals(&self) -> u64 {
        self.removals.load(Ordering::Acquire)
    }
}

impl Registrable for CodecState {
    fn registered(&self) -> &OnceLock<usize> {
        &self.registered
    }
}

/// The codecs called directly.
static CODECS: Registry<CodecState> = Registry::new();

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
                    && r.removals == CODECS.removals()
                    && r.version == r.state.version.load(Ordering::Acquire)
                {
                    return f(&r.state, &r.opts);
                }
            }
        }
        // Read before the lookup: a removal in between makes the new entry stale at once.
        let removals = CODECS.removals();
        let state = CODECS.lookup(key, find);
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
    CODECS.forget(state);
}

impl Registrable for StreamShared {
    fn registered(&self) -> &OnceLock<usize> {
        &self.registered
    }
}

/// The streams called directly.
static STREAMS: Registry<StreamShared> = Registry::new();

/// Runs `f` with the state of the stream under `key` (the instance pointer the engine passes);
/// `find` gives it the first time.
pub(crate) fn with_stream<R>(
    key: usize,
    find: impl FnOnce() -> Arc<StreamShared>,
    f: impl FnOnce(&StreamShared) -> R,
) -> R {
    f(&STREAMS.lookup(key, find))
}

/// Forgets a dropped stream.
pub(crate) fn forget_stream(state: &StreamShared) {
    STREAMS.forget(state);
}

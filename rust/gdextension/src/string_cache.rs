//! Short Strings that repeat within one decode — the keys of an Array of records, above all —
//! are built once and then shared: Godot Strings are reference-counted, so a copy of the
//! Variant costs one engine call instead of an allocation, a UTF-8 parse and two more calls.
//!
//! Which payloads were seen is kept in a small direct-mapped table per thread, reused by every
//! decode on that thread and holding plain bytes only (so it may outlive the engine). Each
//! decode marks its entries with its own generation, and keeps the Strings it shares in its
//! own list: engine values never outlive the decode that made them. A payload is built
//! normally the first time and kept only when it comes again, so Strings that never repeat cost
//! a hash and a copy of at most [`MAX_LEN`] bytes; the first few of a decode skip the table.
//! Bytes are compared in full, so a hash collision (even a crafted one) only costs a miss.

use std::cell::{Cell, RefCell};

use godot::builtin::Variant;

/// Longest payload kept, in bytes (keys and short names; longer text rarely repeats).
pub const MAX_LEN: usize = 24;
const SLOTS: usize = 64;
const NOT_KEPT: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Slot {
    generation: u64,
    len: u8,
    bytes: [u8; MAX_LEN],
    /// Index into the decode's own list of shared Strings, once the payload came twice.
    kept: u32,
}

const EMPTY: Slot = Slot {
    generation: 0,
    len: 0,
    bytes: [0; MAX_LEN],
    kept: NOT_KEPT,
};

thread_local! {
    static SEEN: RefCell<[Slot; SLOTS]> = const { RefCell::new([EMPTY; SLOTS]) };
    static LAST_GENERATION: Cell<u64> = const { Cell::new(0) };
}

/// Short Strings a decode builds before it starts using the table: a small message (a few keys,
/// each once) never pays for it.
const UNCACHED_FIRST: u32 = 16;

/// One decode's view of the table, and the Strings it shares.
#[derive(Default)]
pub struct StringCache {
    /// Short Strings seen so far, up to [`UNCACHED_FIRST`].
    seen: u32,
    /// 0 until the decode uses the table.
    generation: u64,
    kept: Vec<Variant>,
}

/// FNV-1a over at most [`MAX_LEN`] bytes: cheap and well spread for short keys.
fn slot_of(raw: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in raw {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h ^ (h >> 32)) as usize % SLOTS
}

impl StringCache {
    /// The String for payload `raw`: shared when it was built before in this decode, else made
    /// by `make` (`None`: the payload is rejected, and nothing is kept).
    pub fn get_or_make(
        &mut self,
        raw: &[u8],
        make: impl FnOnce(&[u8]) -> Option<Variant>,
    ) -> Option<Variant> {
        if raw.len() > MAX_LEN {
            return make(raw);
        }
        if self.seen < UNCACHED_FIRST {
            self.seen += 1;
            return make(raw);
        }
        if self.generation == 0 {
            self.generation = LAST_GENERATION.with(|g| {
                g.set(g.get() + 1);
                g.get()
            });
        }
        let i = slot_of(raw);
        // Copied out: `make` runs engine code, and a decode nested in it may use the table.
        let seen = SEEN.with(|t| t.try_borrow().ok().and_then(|t| t.get(i).copied()));
        let Some(seen) = seen else {
            return make(raw);
        };
        let same = seen.generation == self.generation
            && seen.bytes.get(..usize::from(seen.len)) == Some(raw);
        if same {
            if let Some(v) = self.kept.get(seen.kept as usize) {
                return Some(v.clone());
            }
        }
        let v = make(raw)?;
        let mut slot = Slot {
            generation: self.generation,
            len: raw.len() as u8,
            bytes: [0; MAX_LEN],
            kept: NOT_KEPT,
        };
        if let Some(dst) = slot.bytes.get_mut(..raw.len()) {
            dst.copy_from_slice(raw);
        }
        if same {
            // Second sighting: keep it for the next ones.
            slot.kept = u32::try_from(self.kept.len()).unwrap_or(NOT_KEPT);
            self.kept.push(v.clone());
        }
        SEEN.with(|t| {
            if let Ok(mut t) = t.try_borrow_mut() {
                if let Some(s) = t.get_mut(i) {
                    *s = slot;
                }
            }
        });
        Some(v)
    }
}

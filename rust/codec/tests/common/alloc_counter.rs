//! The project's one allocation-counting harness. The core's integration tests include it through
//! `tests/common/mod.rs`; the fuzz crate includes this same file (`rust/fuzz/src/lib.rs`,
//! `#[path = …]`).
//!
//! Including it installs [`Counting`] as the `#[global_allocator]`: every call goes to the system
//! allocator unchanged, and while [`measure`] runs on a thread, that thread's allocations are
//! counted in thread-local counters. Other threads (tests running in parallel in the same binary,
//! or threads `f` spawns) are not counted, so a measurement sees only the work of `f` on its own
//! thread. The counters are a `Cell` with a `const` initialiser and no destructor: touching them
//! never allocates, so the allocator cannot recurse into itself.

// Each includer uses a part of this file (the fuzz crate only `Usage::peak`, for instance).
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Every decode may hold at most `HEAP_PER_INPUT_BYTE` bytes of heap per input byte, plus
/// [`HEAP_SLACK`]: the bound the fuzz targets and the fuzz regression tests both hold decodes
/// to. The largest legitimate ratio is about 140: a typed `Array[Array]` turns each byte of a
/// PackedByteArray element into a 136-byte `Value` (as the engine turns it into a Variant); four
/// bytes of NIL make one `Value` (34).
pub const HEAP_PER_INPUT_BYTE: usize = 256;
pub const HEAP_SLACK: usize = 1 << 20;

/// True when `usage` stays within the bound above for an input of `input_len` bytes.
pub fn within_heap_bound(usage: &Usage, input_len: usize) -> bool {
    usage.peak
        <= HEAP_PER_INPUT_BYTE
            .saturating_mul(input_len)
            .saturating_add(HEAP_SLACK)
}

/// What a [`measure`]d closure did with the heap on its thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes asked of the allocator: every allocation's size and every reallocation's new size,
    /// freed again or not.
    pub allocated: usize,
    /// The most heap held at once beyond what was live when the measurement began (capacity
    /// reserved counts, touched or not).
    pub peak: usize,
}

#[derive(Clone, Copy)]
struct Counters {
    armed: bool,
    allocated: usize,
    /// Heap held now minus heap held when armed: negative after freeing older blocks.
    net: isize,
    peak: usize,
}

const IDLE: Counters = Counters {
    armed: false,
    allocated: 0,
    net: 0,
    peak: 0,
};

thread_local! {
    static COUNTERS: Cell<Counters> = const { Cell::new(IDLE) };
}

/// Records on this thread (when armed) that `asked` bytes were requested and the heap held
/// changed by `delta` bytes.
fn record(asked: usize, delta: isize) {
    // `try_with`: never panic inside the allocator (the key has no destructor, so it does not
    // fail in practice).
    let _ = COUNTERS.try_with(|c| {
        let mut n = c.get();
        if n.armed {
            n.allocated = n.allocated.saturating_add(asked);
            n.net = n.net.saturating_add(delta);
            n.peak = n.peak.max(usize::try_from(n.net).unwrap_or(0));
            c.set(n);
        }
    });
}

fn signed(n: usize) -> isize {
    isize::try_from(n).unwrap_or(isize::MAX)
}

/// The system allocator, counting (see the module documentation).
pub struct Counting;

// SAFETY: every call goes to the system allocator unchanged; only sizes are recorded, in
// thread-local cells that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: our caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            record(layout.size(), signed(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            record(layout.size(), signed(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        record(0, -signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            record(new_size, signed(new_size) - signed(layout.size()));
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Disarms the counters when [`measure`] ends, also by a panic.
struct Armed;

impl Drop for Armed {
    fn drop(&mut self) {
        let _ = COUNTERS.try_with(|c| {
            let mut n = c.get();
            n.armed = false;
            c.set(n);
        });
    }
}

/// Runs `f` and returns its result with what it did with the heap on this thread. Not nested:
/// a `measure` inside `f` panics.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Usage) {
    assert!(
        !COUNTERS.with(|c| c.get().armed),
        "alloc_counter::measure does not nest"
    );
    COUNTERS.with(|c| {
        c.set(Counters {
            armed: true,
            ..IDLE
        })
    });
    let armed = Armed;
    let r = f();
    drop(armed);
    let n = COUNTERS.with(|c| c.get());
    (
        r,
        Usage {
            allocated: n.allocated,
            peak: n.peak,
        },
    )
}

//! Deep values on any thread's stack. Decoding, encoding, transcoding and serde walk nested
//! values by recursion, which costs stack per level (about 1 KB in a release build, ten times
//! that unoptimized); 1,024 levels (the engine's limit, a few KB of input) would overflow the
//! small stacks threads often have (512 KB on macOS, 256 KB in some servers). So every walk
//! enters each container through [`guard`]: while the thread has at least [`RED_ZONE`] of stack
//! left it costs one comparison, and below that the walk goes on on a fresh stack segment of
//! [`SEGMENT`] from the heap (the `stacker` crate, as rustc and serde_stacker use it), freed
//! when that level returns.

/// The stack a walk may use between two guarded levels: one level's frames (a few KB even
/// unoptimized) and whatever engine code a builder calls at a level (the Godot extension's
/// builder makes Variants, loads scripts), with room to spare.
pub const RED_ZONE: usize = 128 * 1024;

/// The size of each stack segment a deep walk gets from the heap.
pub const SEGMENT: usize = 1024 * 1024;

/// Runs `f` (one nesting level of a walk), first moving to a fresh stack segment when the
/// thread's stack has less than `RED_ZONE` (128 KB) left.
#[inline]
pub fn guard<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

//! Deep values on any thread's stack. Decoding, encoding, transcoding and serde walk nested
//! values by recursion, which costs stack per level (about 1 KB in a release build, ten times
//! that unoptimized); 1,024 levels (the engine's limit, a few KB of input) would overflow the
//! small stacks threads often have (512 KB on macOS, 256 KB in some servers). So every walk
//! enters each nested value through [`guard`] (serde's serializer, which does not drive a
//! container's iteration, asks [`has_room`] where each container begins instead, and guards
//! the values inside only when it has little): while the thread has at least [`RED_ZONE`] of
//! stack left it costs one comparison, and below that the walk goes on on a fresh stack segment
//! of [`SEGMENT`] from the heap (the `stacker` crate, as rustc and serde_stacker use it), freed
//! when that level returns.
//!
//! Asking `stacker` how much stack is left costs a call into assembly and a thread-local
//! lookup, a fifth of a serde encode that guards every field. So the first guard of a walk
//! asks once and remembers, per thread, the range of addresses on the current stack above
//! which more than [`RED_ZONE`] is left; the guards below it compare the address of a local
//! with that range and ask again only outside it (near the end of a stack, or on a stack
//! switched by other code between two guards). Stacks grow downwards on every target this
//! crate builds for.
//!
//! Without the `grow-stack` feature (no `stacker`, whose build needs a C compiler) a guard is
//! the call itself, and what keeps a walk on the thread's stack is the depth: nesting is bounded
//! by [`crate::limits::MAX_DEPTH_CEILING`], lowered then to a depth whose walks fit a thread's
//! default stack even unoptimized; a deeper value is refused with the depth error, as any value
//! past the limits is.

#[cfg(feature = "grow-stack")]
use std::cell::Cell;

/// The stack a walk may use between two guarded levels: one level's frames (a few KB even
/// unoptimized) and whatever engine code a builder calls at a level (the Godot extension's
/// builder makes Variants, loads scripts), with room to spare.
#[cfg(feature = "grow-stack")]
pub const RED_ZONE: usize = 128 * 1024;

/// The size of each stack segment a deep walk gets from the heap.
#[cfg(feature = "grow-stack")]
pub const SEGMENT: usize = 1024 * 1024;

#[cfg(feature = "grow-stack")]
/// How far above the address where the range was measured a later guard's local may sit: a
/// guard inlined into the measuring frame can place its local a little higher in that frame.
const FRAME_SLACK: usize = 16 * 1024;

#[cfg(feature = "grow-stack")]
thread_local! {
    /// `(floor, ceiling)`: a guard whose local lies strictly between them has more than
    /// [`RED_ZONE`] of stack left. `(0, 0)` (nothing inside) when no walk runs on this thread.
    static ROOMY: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

#[cfg(feature = "grow-stack")]
/// The address of a local of the caller's frame (inlined), close to the stack pointer
/// (`black_box` keeps the local on the stack, where the optimizer could otherwise fold it).
#[inline(always)]
fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(std::ptr::addr_of!(marker)) as usize
}

/// Runs `f` (one nesting level of a walk), first moving to a fresh stack segment when the
/// thread's stack has less than `RED_ZONE` (128 KB) left.
///
/// # Examples
/// ```
/// use fast_var_codec_core::reader::guard_stack;
///
/// // A recursive walk of one's own nested values, each level entered through the guard.
/// fn depth(levels: usize) -> usize {
///     if levels == 0 { 0 } else { 1 + guard_stack(|| depth(levels - 1)) }
/// }
/// assert_eq!(depth(10_000), 10_000);
/// ```
#[cfg(feature = "grow-stack")]
#[inline]
pub fn guard<R>(f: impl FnOnce() -> R) -> R {
    if has_room() {
        return f();
    }
    measured(f)
}

/// Whether the caller has more than [`RED_ZONE`] of stack left by what a guard of the walk
/// running on this thread measured, without measuring again (`false` outside a walk and near
/// the end of the stack). For a walk that cannot put each container's iteration inside a
/// [`guard`] (serde's serializer, driven by the value's own code): when a container begins with
/// room, the values inside it are serialized without a guard each; those that are containers
/// ask again.
#[cfg(feature = "grow-stack")]
#[inline]
pub fn has_room() -> bool {
    let at = here();
    let (floor, ceiling) = ROOMY.with(Cell::get);
    floor < at && at < ceiling
}

/// [`guard`]'s slow path: asks `stacker` how much stack is left, moves to a new segment if that
/// is too little, and runs `f` with the range of the stack it runs on remembered for the guards
/// inside it.
#[cfg(feature = "grow-stack")]
#[cold]
#[inline(never)]
fn measured<R>(f: impl FnOnce() -> R) -> R {
    match roomy_range() {
        Some(roomy) => with_range(roomy, f),
        None => stacker::grow(SEGMENT, || match roomy_range() {
            Some(roomy) => with_range(roomy, f),
            // A fresh segment always has room; should the platform not say so, every guard
            // inside asks again.
            None => with_range((0, 0), f),
        }),
    }
}

/// The range above the red zone of the stack the caller runs on, `None` when less than the red
/// zone is left there. Where the platform cannot tell (WebAssembly), the whole address space:
/// asking again at every guard would tell no more, and the walk stays on this stack either way.
#[cfg(feature = "grow-stack")]
#[inline(always)]
fn roomy_range() -> Option<(usize, usize)> {
    let at = here();
    match stacker::remaining_stack() {
        Some(left) if left < RED_ZONE => None,
        Some(left) => Some((
            at.saturating_sub(left).saturating_add(RED_ZONE),
            at.saturating_add(FRAME_SLACK),
        )),
        None => Some((0, usize::MAX)),
    }
}

#[cfg(feature = "grow-stack")]
#[inline(always)]
fn with_range<R>(roomy: (usize, usize), f: impl FnOnce() -> R) -> R {
    let _restore = Restore(ROOMY.with(|r| r.replace(roomy)));
    f()
}

#[cfg(feature = "grow-stack")]
/// Puts back the range of the enclosing walk (or none) when a measured level returns or
/// unwinds.
struct Restore((usize, usize));

#[cfg(feature = "grow-stack")]
impl Drop for Restore {
    fn drop(&mut self) {
        ROOMY.with(|r| r.set(self.0));
    }
}

/// Runs `f` (one nesting level of a walk) on the thread's own stack: without `grow-stack` the
/// depth bound keeps every walk within a default stack (see the module's documentation).
#[cfg(not(feature = "grow-stack"))]
#[inline(always)]
pub fn guard<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Always `true` without `grow-stack`: a guard never moves to another stack, so no walk needs to
/// ask.
#[cfg(not(feature = "grow-stack"))]
#[cfg_attr(not(feature = "serde"), allow(dead_code))] // asked by serde's serializer only
#[inline(always)]
pub fn has_room() -> bool {
    true
}

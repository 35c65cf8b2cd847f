//! Godot's vector structs seen as flat runs of f32 components, so packed arrays move as
//! slices. Valid for single-precision builds only, which the asserts below pin down.

use godot::builtin::{real, Color, Vector2, Vector3, Vector4};

const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<real>() == 4);
    assert!(size_of::<Vector2>() == 8 && align_of::<Vector2>() == 4);
    assert!(size_of::<Vector3>() == 12 && align_of::<Vector3>() == 4);
    assert!(size_of::<Vector4>() == 16 && align_of::<Vector4>() == 4);
    assert!(size_of::<Color>() == 16 && align_of::<Color>() == 4);
};

/// A `#[repr(C)]` struct of exactly `N` f32 fields and nothing else.
///
/// # Safety
/// Implement only for types whose layout is `N` consecutive f32 with no padding.
pub unsafe trait F32Components: Copy {
    const N: usize;
}

// SAFETY: gdext declares these `#[repr(C)]` with f32 fields (real = f32, asserted above), in
// wire order (x, y[, z[, w]] and r, g, b, a); the sizes asserted above leave no room for padding.
unsafe impl F32Components for Vector2 {
    const N: usize = 2;
}
// SAFETY: as above.
unsafe impl F32Components for Vector3 {
    const N: usize = 3;
}
// SAFETY: as above.
unsafe impl F32Components for Vector4 {
    const N: usize = 4;
}
// SAFETY: as above (Color is always f32).
unsafe impl F32Components for Color {
    const N: usize = 4;
}

pub fn flat<T: F32Components>(items: &[T]) -> &[f32] {
    // SAFETY: `T` is N packed f32 (trait contract), so `items` is `len * N` valid, aligned f32
    // living as long as the borrow.
    unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<f32>(), items.len() * T::N) }
}

pub fn flat_mut<T: F32Components>(items: &mut [T]) -> &mut [f32] {
    // SAFETY: as in `flat`; the unique borrow of `items` is handed on, and any f32 bit pattern
    // is a valid component.
    unsafe { std::slice::from_raw_parts_mut(items.as_mut_ptr().cast::<f32>(), items.len() * T::N) }
}

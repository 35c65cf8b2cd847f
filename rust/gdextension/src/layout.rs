//! Godot's vector structs seen as flat runs of their components, so packed arrays move as
//! slices: `real` components for vectors (f32, or f64 in a `double-precision` build), f32 for
//! colours. The asserts below pin the layouts down for either build.

use godot::builtin::{real, Color, Vector2, Vector3, Vector4};

const _: () = {
    use std::mem::{align_of, size_of};
    let r = size_of::<real>();
    assert!(r == 4 || r == 8);
    assert!(size_of::<Vector2>() == 2 * r && align_of::<Vector2>() == align_of::<real>());
    assert!(size_of::<Vector3>() == 3 * r && align_of::<Vector3>() == align_of::<real>());
    assert!(size_of::<Vector4>() == 4 * r && align_of::<Vector4>() == align_of::<real>());
    assert!(size_of::<Color>() == 16 && align_of::<Color>() == 4);
};

/// A `#[repr(C)]` struct of exactly `N` fields of type `Scalar` and nothing else.
///
/// # Safety
/// Implement only for types whose layout is `N` consecutive `Scalar` with no padding, where any
/// bit pattern of `Scalar` is a valid field value.
pub unsafe trait FlatComponents: Copy {
    type Scalar: Copy;
    const N: usize;
}

// SAFETY: gdext declares these `#[repr(C)]` with `real` fields, in wire order (x, y[, z[, w]]);
// the sizes asserted above leave no room for padding, and every float bit pattern is valid.
unsafe impl FlatComponents for Vector2 {
    type Scalar = real;
    const N: usize = 2;
}
// SAFETY: as above.
unsafe impl FlatComponents for Vector3 {
    type Scalar = real;
    const N: usize = 3;
}
// SAFETY: as above.
unsafe impl FlatComponents for Vector4 {
    type Scalar = real;
    const N: usize = 4;
}
// SAFETY: as above, with f32 fields r, g, b, a (Color is f32 in every build).
unsafe impl FlatComponents for Color {
    type Scalar = f32;
    const N: usize = 4;
}

pub fn flat<T: FlatComponents>(items: &[T]) -> &[T::Scalar] {
    // SAFETY: `T` is N packed `Scalar` (trait contract), so `items` is `len * N` valid, aligned
    // `Scalar` living as long as the borrow.
    unsafe { std::slice::from_raw_parts(items.as_ptr().cast::<T::Scalar>(), items.len() * T::N) }
}

pub fn flat_mut<T: FlatComponents>(items: &mut [T]) -> &mut [T::Scalar] {
    // SAFETY: as in `flat`; the unique borrow of `items` is handed on, and any bit pattern of
    // `Scalar` is a valid component (trait contract).
    unsafe {
        std::slice::from_raw_parts_mut(items.as_mut_ptr().cast::<T::Scalar>(), items.len() * T::N)
    }
}

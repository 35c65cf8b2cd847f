//! The engine PackedByteArray a decode reads, kept beside its bytes, so that a large
//! PackedByteArray inside the value is copied out of it by the engine.
//!
//! The interface's only way to size a new PackedByteArray, `resize`, zero-fills it first; the
//! engine's own `StreamPeerBuffer.get_data` sizes its result without the fill and copies into
//! it. For 4 MiB the fill is about a third of the decode of such an array; below about 128 KiB
//! the object `get_data` needs costs more than the fill saves (docs/performance.md).
//!
//! The array is only named here, not looked at: a decode that meets no large byte array, which
//! is almost every decode, pays nothing for it.

use godot::builtin::{PackedByteArray, Variant};
use godot::classes::StreamPeerBuffer;
use godot::global::Error;
use godot::obj::NewGd;
use godot::sys::{self, GodotFfi};

use crate::engine_methods::data_reply;
use crate::fast_access::{packed_byte_array_in, packed_bytes_at, Typed};

/// The smallest PackedByteArray that [`ByteSource::copy_of`] has the engine copy (256 KiB).
pub(crate) const ENGINE_COPY_MIN: usize = 256 * 1024;

/// Where a decode's input bytes live: an engine PackedByteArray, live for `'a`, that nothing
/// writes to meanwhile (a write through another reference copies the storage first).
#[derive(Clone, Copy)]
pub(crate) enum ByteSource<'a> {
    /// The array a ptrcall's argument points to (see [`ByteSource::argument`]).
    Argument(
        sys::GDExtensionConstTypePtr,
        std::marker::PhantomData<&'a ()>,
    ),
    /// The array a Variant holds.
    Variant(&'a Variant),
    /// An array of gdext's.
    Array(&'a PackedByteArray),
}

impl<'a> ByteSource<'a> {
    /// The array a ptrcall's argument points to.
    ///
    /// # Safety
    /// `array` must point to a live engine PackedByteArray that nothing writes to during `'a`.
    pub(crate) unsafe fn argument(array: sys::GDExtensionConstTypePtr) -> Self {
        ByteSource::Argument(array, std::marker::PhantomData)
    }

    /// The array's pointer and bytes; `None` if the engine cannot show them, or for a Variant
    /// that holds no PackedByteArray.
    fn resolve(self) -> Option<(sys::GDExtensionConstTypePtr, &'a [u8])> {
        match self {
            // SAFETY: a live, unwritten PackedByteArray for `'a` (`ByteSource::argument`).
            ByteSource::Argument(array, _) => Some((array, unsafe { packed_bytes_at(array) }?)),
            ByteSource::Variant(v) => {
                let array = packed_byte_array_in(Typed::of(v)?)?;
                // SAFETY: the array inside `v`, which the borrow `'a` keeps alive and unwritten.
                Some((array, unsafe { packed_bytes_at(array) }?))
            }
            ByteSource::Array(array) => Some((array.sys(), array.as_slice())),
        }
    }

    /// A new PackedByteArray holding `part`, copied by the engine, when `part` is at least
    /// [`ENGINE_COPY_MIN`] long and lies inside this array's bytes; `None` otherwise, or if the
    /// engine's copy is not exactly `part`'s size (the caller then copies it itself).
    pub(crate) fn copy_of(self, part: &[u8]) -> Option<PackedByteArray> {
        if part.len() < ENGINE_COPY_MIN {
            return None;
        }
        let (array, bytes) = self.resolve()?;
        let offset = (part.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize)?;
        if offset.checked_add(part.len())? > bytes.len() {
            return None;
        }
        let (offset, len) = (i32::try_from(offset).ok()?, i32::try_from(part.len()).ok()?);
        // SAFETY: `array` is a live engine PackedByteArray (`resolve`); this makes one more
        // reference to it (copy-on-write: nothing is copied).
        let whole = unsafe { PackedByteArray::new_from_sys(array) };
        let mut peer = StreamPeerBuffer::new_gd();
        peer.set_data_array(&whole);
        peer.seek(offset);
        // `[error, data]`: the bytes at `offset` in `whole`, which are `part`'s.
        let (status, data) = data_reply(&peer.get_data(len));
        (status == Error::OK && data.len() == part.len()).then_some(data)
    }
}

//! FastVarCodec for Godot 4: the `FastVarCodec` class, a thin adapter between Godot Variants
//! and the engine-free codec in `fast_var_codec_core`.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod allow_list;
mod call_state;
mod codec;
mod codec_state;
mod fast_access;
mod from_wire;
mod layout;
mod registry;
mod stream_class;
mod to_wire;

use godot::prelude::*;

struct FastVarCodecExtension;

// SAFETY: the entry point gdext generates for this library; nothing else runs at load time.
#[gdextension]
unsafe impl ExtensionLibrary for FastVarCodecExtension {}

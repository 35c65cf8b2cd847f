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
mod direct_methods;
mod fast_access;
mod files;
mod from_wire;
mod layout;
mod registry;
mod stream_class;
mod string_cache;
mod to_wire;

use godot::prelude::*;

struct FastVarCodecExtension;

// SAFETY: the entry point gdext generates for this library; at load time only the direct
// methods' editor help is collected (below).
#[gdextension]
unsafe impl ExtensionLibrary for FastVarCodecExtension {
    fn on_stage_init(stage: godot::init::InitStage) {
        // gdext has registered the classes of this stage; FastVarCodec's per-value methods are
        // added to it here.
        if stage == godot::init::InitStage::Scene {
            direct_methods::register();
        }
    }
}

// The editor help of the direct methods, gathered with the help gdext makes from `///` comments.
godot::sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
godot::private::DocsShard::new::<codec::FastVarCodec>(godot::private::DocsItem::ITraitImpl(
    Box::leak(direct_methods::docs_xml().into_boxed_str())
)));

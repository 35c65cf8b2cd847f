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
mod class_enums;
mod codec;
mod codec_registry;
mod codec_state;
mod direct;
mod engine_bytes;
mod engine_methods;
mod fast_access;
mod files;
mod from_wire;
mod json_saves;
mod layout;
mod peer_io;
mod settings;
mod store_var_files;
mod stream_class;
mod stream_state;
mod string_cache;
mod text_resources;
mod to_wire;
mod value_calls;
mod variant_layout;

use godot::prelude::*;

struct FastVarCodecExtension;

// SAFETY: the entry point gdext generates for this library; at load time only the direct
// methods' editor help is collected (below).
#[gdextension]
unsafe impl ExtensionLibrary for FastVarCodecExtension {
    fn on_stage_init(stage: godot::init::InitStage) {
        // gdext has registered the classes of this stage; the methods called per value or per
        // message are added to them here.
        if stage == godot::init::InitStage::Scene {
            direct::register();
            variant_layout::check();
        }
    }
}

// The editor help of the direct methods, gathered with the help gdext makes from `///` comments.
// gdext's docs registry is `godot::private`, not its public API: a gdext release that changes it
// fails to compile here, and one that stops reading these shards leaves the direct methods' help
// empty, which the docs step (tests/check_docs.sh: a description for every method) fails.
godot::sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
godot::private::DocsShard::new::<codec::FastVarCodec>(godot::private::DocsItem::ITraitImpl(
    Box::leak(direct::codec_docs_xml().into_boxed_str())
)));
// The help of the enum constants `direct` registers.
godot::sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
godot::private::DocsShard::new::<codec::FastVarCodec>(godot::private::DocsItem::InherentImpl(
    godot::private::InherentImplDocs {
        methods_xml: "",
        signals_xml: "",
        constants_xml: Box::leak(direct::codec_constants_docs_xml().into_boxed_str()),
    }
)));
godot::sys::shard_add!(godot::private::__GODOT_DOCS_REGISTRY;
godot::private::DocsShard::new::<stream_class::FastVarStream>(godot::private::DocsItem::ITraitImpl(
    Box::leak(direct::stream_docs_xml().into_boxed_str())
)));

/// The editor help as gdext hands it to the engine, for `tests/check_docs.sh`.
#[cfg(test)]
mod editor_help {
    use std::io::Error;
    use std::path::Path;

    /// gdext's editor help, one XML document per class: what the engine receives through
    /// `editor_help_load_xml_from_utf8_chars_and_len` when an editor loads the library. With
    /// `FVC_EDITOR_HELP_DIR` set, each is written there as `<Class>.xml`, where Godot's doctool
    /// (which never sees that help on its own) merges it into the classes it lists.
    #[test]
    fn xml_per_class() -> Result<(), Error> {
        let out = std::env::var_os("FVC_EDITOR_HELP_DIR");
        let mut classes = Vec::new();
        for xml in godot::docs::__gather_xml_docs() {
            let name = xml
                .split_once("<class name=\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(name, _)| name.to_string())
                .ok_or_else(|| Error::other("a class document without a name"))?;
            if let Some(dir) = &out {
                std::fs::create_dir_all(dir)?;
                std::fs::write(Path::new(dir).join(format!("{name}.xml")), &xml)?;
            }
            classes.push(name);
        }
        classes.sort_unstable();
        assert_eq!(
            classes,
            [
                "FastVarCodec",
                "FastVarResourceReference",
                "FastVarStream",
                "FastVarTextResource"
            ]
        );
        Ok(())
    }

    /// The class description of `FastVarCodec` names every `Dialect` constant, so its help says
    /// which one a peer of each engine needs.
    #[test]
    fn class_help_names_every_dialect() -> Result<(), Error> {
        let xml = godot::docs::__gather_xml_docs()
            .into_iter()
            .find(|xml| xml.contains("<class name=\"FastVarCodec\""))
            .ok_or_else(|| Error::other("no help for FastVarCodec"))?;
        let description = xml
            .split_once("<description>")
            .and_then(|(_, rest)| rest.split_once("</description>"))
            .map(|(text, _)| text)
            .ok_or_else(|| Error::other("no class description"))?;
        let dialects = &crate::class_enums::CODEC_ENUMS[0];
        assert_eq!(dialects.name, "Dialect");
        for (name, _, _) in dialects.constants {
            assert!(
                description.contains(&format!("[constant {name}]")),
                "the class description does not name {name}"
            );
        }
        Ok(())
    }
}

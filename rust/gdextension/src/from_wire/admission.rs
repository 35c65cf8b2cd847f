//! What the engine admits while a decode builds objects and typed containers: scripts that
//! exist and load, and the engine's form of a container type. (Which classes and scripts a
//! decode may name at all is the core's allow-list, decided before anything here runs.)

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::options::is_script_path;
use fast_var_codec_core::value::{ContainerType, VariantType as T};
use godot::builtin::{GString, StringName, Variant};
use godot::classes::{ResourceLoader, Script};
use godot::meta::ToGodot;
use godot::obj::{Gd, Singleton};

pub(super) fn refuse(msg: String) -> DecodeReason {
    DecodeReason::Refused(msg)
}

/// A script the engine would accept: exists under `res://` and loads.
pub(super) fn load_script(path: &str) -> Result<Gd<Script>, DecodeReason> {
    let gpath = GString::from(path);
    let mut loader = ResourceLoader::singleton();
    if !is_script_path(path) || !loader.exists_ex(&gpath).type_hint("Script").done() {
        return Err(refuse(format!("script {path:?} does not exist")));
    }
    loader
        .load_ex(&gpath)
        .type_hint("Script")
        .done()
        .and_then(|res| res.try_cast::<Script>().ok())
        .ok_or_else(|| refuse(format!("script {path:?} cannot be loaded")))
}

/// A container's element (key, value) type as the engine's `set_typed` takes it.
pub(super) struct EngineType {
    /// The builtin type: OBJECT for classes and scripts.
    pub(super) builtin: T,
    /// The class of OBJECT elements (a script's base class); empty otherwise.
    pub(super) class: StringName,
    /// The script of OBJECT elements; NIL otherwise.
    pub(super) script: Variant,
}

/// The engine's form of a container type, `None` when untyped; a script must load.
pub(super) fn engine_type(ty: &ContainerType) -> Result<Option<EngineType>, DecodeReason> {
    let of = |builtin, class, script| {
        Some(EngineType {
            builtin,
            class,
            script,
        })
    };
    Ok(match ty {
        ContainerType::Untyped => None,
        ContainerType::Builtin(t) => of(*t, StringName::default(), Variant::nil()),
        ContainerType::Class(name) => {
            of(T::Object, StringName::from(name.as_str()), Variant::nil())
        }
        ContainerType::Script(path) => {
            let script = load_script(path)?;
            of(
                T::Object,
                script.get_instance_base_type(),
                script.to_variant(),
            )
        }
    })
}

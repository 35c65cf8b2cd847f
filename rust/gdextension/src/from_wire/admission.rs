//! What the engine admits while a decode builds objects and typed containers: scripts that
//! exist and load, and the engine's form of a container type. (Which classes and scripts a
//! decode may name at all is the core's allow-list, decided before anything here runs.)

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::{ContainerType, VariantType as T};
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
    if !path.starts_with("res://") || !loader.exists_ex(&gpath).type_hint("Script").done() {
        return Err(refuse(format!("script {path:?} does not exist")));
    }
    loader
        .load_ex(&gpath)
        .type_hint("Script")
        .done()
        .and_then(|res| res.try_cast::<Script>().ok())
        .ok_or_else(|| refuse(format!("script {path:?} cannot be loaded")))
}

/// (builtin type id, class name, script) for the engine's `set_typed`, `None` when untyped.
pub(super) fn engine_type(
    ty: &ContainerType,
) -> Result<Option<(i32, StringName, Variant)>, DecodeReason> {
    let object = T::Object.id() as i32;
    Ok(match ty {
        ContainerType::Untyped => None,
        ContainerType::Builtin(T::Object) => Some((object, StringName::default(), Variant::nil())),
        ContainerType::Builtin(t) => Some((t.id() as i32, StringName::default(), Variant::nil())),
        ContainerType::Class(name) => {
            Some((object, StringName::from(name.as_str()), Variant::nil()))
        }
        ContainerType::Script(path) => {
            let script = load_script(path)?;
            let base = script.get_instance_base_type();
            Some((object, base, script.to_variant()))
        }
    })
}

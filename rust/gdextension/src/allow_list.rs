//! Turns `allowed_classes` entries into the core's [`AllowList`]: what only the engine knows
//! (which script a class name means, which native class a script extends) is looked up once,
//! when the list is set; every decision during a decode is the core's.

use std::collections::HashMap;

use fast_var_codec_core::options::is_script_path;
use fast_var_codec_core::options::AllowList;
use godot::builtin::{GString, StringName};
use godot::classes::{ClassDb, FileAccess, ProjectSettings, ResourceLoader, Script};
use godot::obj::Singleton;

/// A project's named script classes: name → (path, base class name).
struct GlobalClasses(HashMap<String, (String, String)>);

impl GlobalClasses {
    fn of_project() -> Self {
        let mut map = HashMap::new();
        for entry in ProjectSettings::singleton()
            .get_global_class_list()
            .iter_shared()
        {
            let field = |k: &str| entry.get(k).map(|v| v.to_string()).unwrap_or_default();
            map.insert(field("class"), (field("path"), field("base")));
        }
        GlobalClasses(map)
    }

    fn by_path(&self, path: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(_, (p, _))| p == path)
            .map(|(name, _)| name.as_str())
    }

    /// The native class at the root of a named class's inheritance (bounded, in case of a
    /// cycle in a broken project).
    fn native_base(&self, name: &str) -> Option<String> {
        let mut name = name.to_owned();
        for _ in 0..64 {
            match self.0.get(&name) {
                Some((_, base)) => name = base.clone(),
                None => {
                    return ClassDb::singleton()
                        .class_exists(&StringName::from(name.as_str()))
                        .then_some(name)
                }
            }
        }
        None
    }
}

/// The native class objects carrying the script at `path` have, by loading it.
fn loaded_script_base(path: &str) -> Option<String> {
    let script = ResourceLoader::singleton()
        .load_ex(&GString::from(path))
        .type_hint("Script")
        .done()?
        .try_cast::<Script>()
        .ok()?;
    Some(script.get_instance_base_type().to_string())
}

/// The first of `entries` that names nothing this project has: neither a class (native, or a
/// script's class name) nor the path of an existing script. Looked up without loading
/// anything, so that a typo is refused when the list is set instead of admitting nothing.
/// `any` (the entry admitting everything) is not looked up.
pub fn unknown_entry<'a>(entries: &'a [String], any: &str) -> Option<&'a String> {
    let globals = GlobalClasses::of_project();
    entries.iter().find(|entry| {
        let entry = entry.as_str();
        if entry == any {
            return false;
        }
        if is_script_path(entry) {
            let path = GString::from(entry);
            return !(ResourceLoader::singleton().exists(&path) || FileAccess::file_exists(&path));
        }
        !(globals.0.contains_key(entry)
            || ClassDb::singleton().class_exists(&StringName::from(entry)))
    })
}

/// The allow-list for `entries`, made without loading anything: `res://` paths are scripts,
/// names of the project's global classes are their scripts, and the rest is the core's rule for
/// a user's names ([`AllowList::with_name`]: `"*"` admits every class and script, other names
/// native classes).
/// The native class of a listed script with no class name is learnt only by loading it, which
/// runs its static initializer: such scripts are returned apart, their base class still
/// unknown in the list, for [`script_bases`] to learn when a decode needs them.
pub fn resolve(entries: &[String]) -> (AllowList, Vec<String>) {
    // A list that admits everything needs no script looked up (nor loaded).
    let core_list = AllowList::from_names(entries);
    if core_list.admits_any() {
        return (core_list, Vec::new());
    }
    let globals = GlobalClasses::of_project();
    let mut list = AllowList::new();
    let mut unloaded = Vec::new();
    for entry in entries {
        if is_script_path(entry) {
            let base = globals
                .by_path(entry)
                .and_then(|name| globals.native_base(name));
            if globals.by_path(entry).is_none() {
                unloaded.push(entry.clone());
            }
            list = list.with_script(entry, base.as_deref());
        } else if let Some((path, _)) = globals.0.get(entry.as_str()) {
            list = list.with_script(path, globals.native_base(entry).as_deref());
        } else {
            list = list.with_name(entry);
        }
    }
    (list, unloaded)
}

/// The native class each script at `paths` extends, learnt by loading it (the project's own
/// scripts, listed by the game).
pub fn script_bases(paths: &[String]) -> Vec<(String, Option<String>)> {
    paths
        .iter()
        .map(|path| (path.clone(), loaded_script_base(path)))
        .collect()
}

//! Turns `allowed_classes` entries into the core's [`AllowList`]: what only the engine knows
//! (which script a class name means, which native class a script extends) is looked up once,
//! when the list is set; every decision during a decode is the core's.

use std::collections::HashMap;

use fast_var_codec_core::options::is_script_path;
use fast_var_codec_core::options::AllowList;
use godot::builtin::{GString, StringName};
use godot::classes::{ClassDb, ProjectSettings, ResourceLoader, Script};
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

/// The native class objects carrying the script at `path` have: from the global class list
/// when the script has a class name, else by loading the listed script (the project's own).
fn script_base(globals: &GlobalClasses, path: &str) -> Option<String> {
    if let Some(name) = globals.by_path(path) {
        return globals.native_base(name);
    }
    let script = ResourceLoader::singleton()
        .load_ex(&GString::from(path))
        .type_hint("Script")
        .done()?
        .try_cast::<Script>()
        .ok()?;
    Some(script.get_instance_base_type().to_string())
}

/// The allow-list for `entries`: `res://` paths are scripts, names of the project's global
/// classes are their scripts, and the rest is the core's rule for a user's names
/// ([`AllowList::with_name`]: `"*"` admits every class and script, other names native classes).
pub fn resolve(entries: &[String]) -> AllowList {
    // A list that admits everything needs no script looked up (nor loaded).
    let core_list = AllowList::from_names(entries);
    if core_list.admits_any() {
        return core_list;
    }
    let globals = GlobalClasses::of_project();
    let mut list = AllowList::new();
    for entry in entries {
        if is_script_path(entry) {
            list = list.with_script(entry, script_base(&globals, entry).as_deref());
        } else if let Some((path, _)) = globals.0.get(entry.as_str()) {
            list = list.with_script(path, globals.native_base(entry).as_deref());
        } else {
            list = list.with_name(entry);
        }
    }
    list
}

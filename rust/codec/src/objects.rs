//! Which classes and scripts a decode may touch: the one decision every builder obeys.
//!
//! Bytes name classes and scripts in four places: a full object's class, its `script` property,
//! the element type of a typed Array and the key and value types of a typed Dictionary. The
//! reader asks the object policy (what the [`AllowList`] of [`crate::Options::allowed_objects`]
//! decides) about each of them *before* a builder hears of it, so no builder instantiates,
//! loads or sets anything the policy refuses, and the engine-free builder and the Godot builder
//! cannot disagree.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::DecodeReason;
pub use crate::types::is_script_path;
use crate::types::{ContainerType, ENCODED_OBJECT_AS_ID};

/// The entry of a list of names ([`AllowList::from_names`], [`AllowList::with_name`]) that
/// admits every class and script: for trusted input only. No class or script is named `*`.
pub const ANY_CLASS: &str = "*";

/// The classes and scripts a decode may make objects of, when full objects are allowed.
///
/// Names match exactly (a listed `Resource` does not admit an `Image`): the core knows no
/// class hierarchy, and an exact list is the one an attacker cannot widen.
///
/// # Examples
/// ```
/// use fast_var_codec_core::options::AllowList;
///
/// let list = AllowList::new()
///     .with_class("Resource")
///     .with_script("res://save_data.gd", Some("Resource"));
/// assert!(list.allows_class("Resource"));
/// assert!(!list.allows_class("Node"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList {
    /// Every class and script is admitted ([`ANY_CLASS`] was listed).
    any: bool,
    classes: BTreeSet<String>,
    /// Script path → the native class its objects have (`None`: unknown, so such an object is
    /// admitted only when its class is listed too).
    scripts: BTreeMap<String, Option<String>>,
}

impl AllowList {
    /// An empty list: admits nothing.
    pub fn new() -> Self {
        AllowList::default()
    }

    /// A list that admits every class and script, as no list at all does: for trusted input only.
    pub fn any() -> Self {
        AllowList {
            any: true,
            ..AllowList::default()
        }
    }

    /// A list of names as a user writes them, each read by [`AllowList::with_name`].
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::options::AllowList;
    ///
    /// let list = AllowList::from_names(["Resource", "res://save.gd"]);
    /// assert!(list.allows_class("Resource"));
    /// assert!(!list.allows_class("Node"));
    /// assert!(AllowList::from_names(["*"]).allows_class("Node"));
    /// ```
    pub fn from_names<I: IntoIterator<Item = S>, S: AsRef<str>>(names: I) -> Self {
        names
            .into_iter()
            .fold(AllowList::new(), |list, name| list.with_name(name.as_ref()))
    }

    /// Admits one name as a user writes it: [`ANY_CLASS`] (`"*"`) every class and script, a
    /// `res://` path ([`is_script_path`]) that script (its base class unknown), anything else
    /// the native class of that name. Every surface reads its users' lists by this one rule.
    pub fn with_name(self, name: &str) -> Self {
        if name == ANY_CLASS {
            AllowList { any: true, ..self }
        } else if is_script_path(name) {
            self.with_script(name, None)
        } else {
            self.with_class(name)
        }
    }

    /// Whether the list admits every class and script ([`AllowList::any`], or [`ANY_CLASS`] listed).
    pub fn admits_any(&self) -> bool {
        self.any
    }

    /// Admits objects of the native class `name` (without a script, or with a listed one).
    pub fn with_class(mut self, name: &str) -> Self {
        self.classes.insert(name.to_owned());
        self
    }

    /// Admits the script at `path` (a `res://` path) in `script` properties and as a container
    /// type, and objects of `base_class` (the native class the script extends) carrying it.
    pub fn with_script(mut self, path: &str, base_class: Option<&str>) -> Self {
        self.scripts
            .insert(path.to_owned(), base_class.map(str::to_owned));
        self
    }

    /// Whether an object of `class` may be made at all (with or without a listed script).
    pub fn allows_class(&self, class: &str) -> bool {
        self.any
            || self.classes.contains(class)
            || self
                .scripts
                .values()
                .any(|base| base.as_deref() == Some(class))
    }

    /// Whether the script at `path` may be loaded.
    pub fn allows_script(&self, path: &str) -> bool {
        self.any || self.scripts.contains_key(path)
    }

    /// Whether an object of `class` carrying `script` (`None`: no script) may be made.
    pub fn allows_object(&self, class: &str, script: Option<&str>) -> bool {
        if self.any {
            return true;
        }
        match script {
            None => self.classes.contains(class),
            Some(path) => match self.scripts.get(path) {
                None => false,
                Some(base) => self.classes.contains(class) || base.as_deref() == Some(class),
            },
        }
    }
}

/// The decisions, over the allow-list of a decode's [`crate::Options`] (`None`: no list, so
/// every class and script the engine has is admitted, as the engine does; never for untrusted
/// bytes). Only consulted when full objects are allowed at all.
#[derive(Clone, Copy)]
pub(crate) struct ObjectPolicy<'a>(pub(crate) Option<&'a AllowList>);

impl ObjectPolicy<'_> {
    /// The class name of a full object, as soon as it is read: refused when no script on the
    /// list could make it allowed either.
    pub(crate) fn check_class(self, class: &str) -> Result<(), DecodeReason> {
        match self.0 {
            Some(list) if !list.allows_class(class) => {
                Err(DecodeReason::NotAllowed(format!("class {class}")))
            }
            _ => Ok(()),
        }
    }

    /// A whole object, once its `script` property is known and before anything is made.
    pub(crate) fn check_object(
        self,
        class: &str,
        script: Option<&str>,
    ) -> Result<(), DecodeReason> {
        match self.0 {
            Some(list) if !list.allows_object(class, script) => {
                Err(DecodeReason::NotAllowed(match script {
                    Some(path) => format!("class {class} with script {path}"),
                    None => format!("class {class}"),
                }))
            }
            _ => Ok(()),
        }
    }

    /// The element, key or value type of a typed container.
    pub(crate) fn check_container(self, ty: &ContainerType) -> Result<(), DecodeReason> {
        let Some(list) = self.0 else {
            return Ok(());
        };
        match ty {
            ContainerType::Class(name) if name == ENCODED_OBJECT_AS_ID => Ok(()),
            ContainerType::Class(name) if !list.allows_class(name) => {
                Err(DecodeReason::NotAllowed(format!("class {name}")))
            }
            ContainerType::Script(path) if !list.allows_script(path) => {
                Err(DecodeReason::NotAllowed(format!("script {path}")))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_script_admits_only_its_own_base_class() {
        let list = AllowList::new().with_script("res://a.gd", Some("Resource"));
        let p = ObjectPolicy(Some(&list));
        assert!(p.check_class("Resource").is_ok());
        assert!(p.check_class("Node").is_err());
        assert!(p.check_object("Resource", Some("res://a.gd")).is_ok());
        assert!(p.check_object("Resource", None).is_err());
        assert!(p.check_object("Resource", Some("res://b.gd")).is_err());
    }

    #[test]
    fn containers_name_only_listed_classes_and_scripts() {
        let list = AllowList::new()
            .with_class("RefCounted")
            .with_class("Resource");
        let p = ObjectPolicy(Some(&list));
        let script = ContainerType::Script("res://x.gd".into());
        assert!(p.check_container(&script).is_err());
        assert!(p
            .check_container(&ContainerType::Class("Node".into()))
            .is_err());
        assert!(p
            .check_container(&ContainerType::Class("Resource".into()))
            .is_ok());
        assert!(p
            .check_container(&ContainerType::Class(ENCODED_OBJECT_AS_ID.into()))
            .is_ok());
    }

    #[test]
    fn no_list_admits_everything() {
        let p = ObjectPolicy(None);
        assert!(p.check_object("Node", Some("res://x.gd")).is_ok());
        assert!(p
            .check_container(&ContainerType::Script("res://x.gd".into()))
            .is_ok());
    }
}

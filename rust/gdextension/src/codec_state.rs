//! What a `FastVarCodec` holds, apart from the engine's view of the class: the settings shared
//! by every thread that calls it (the table of their values lives in `settings`), with their
//! getters and setters, and the per-thread reports of its calls. The calls themselves are in
//! `value_calls` (encode, decode), `peer_io` (peers) and `files`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock, RwLockReadGuard};

use fast_var_codec_core::options::ANY_CLASS;
use fast_var_codec_core::Options;
use godot::global::Error;
use godot::prelude::*;

use crate::allow_list;
use crate::call_state::CallState;
use crate::settings::{self, Settings};

/// Everything a codec holds, shared by the threads that call it.
pub(crate) struct CodecState {
    settings: RwLock<Settings>,
    pub(crate) calls: CallState,
    /// The key it is registered under for direct calls, once one has registered it
    /// (`crate::codec_registry`).
    pub(crate) registered: OnceLock<usize>,
    /// Counts settings changes, so a thread's cached copy of the options knows it is stale.
    pub(crate) version: AtomicU64,
    /// `allow_trailing_bytes`: `decode` accepts bytes after the value (read per decode, outside
    /// the settings' lock; it is no option of the core's).
    allow_trailing_bytes: AtomicBool,
    /// Whether `settings.unloaded_scripts` may be non-empty (checked on every call, without
    /// the lock).
    scripts_unloaded: AtomicBool,
}

impl CodecState {
    pub(crate) fn new() -> Self {
        CodecState {
            settings: RwLock::new(Settings::new()),
            calls: CallState::default(),
            registered: OnceLock::new(),
            version: AtomicU64::new(0),
            allow_trailing_bytes: AtomicBool::new(false),
            scripts_unloaded: AtomicBool::new(false),
        }
    }

    pub(crate) fn settings(&self) -> RwLockReadGuard<'_, Settings> {
        self.settings.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies a settings change unless it makes options that cannot work; `f` may refuse with
    /// a message (an unknown constant, a value out of range). A refused change keeps every
    /// setting as it was and is reported as this thread's last call ([`Error::ERR_INVALID_PARAMETER`]
    /// from `get_error()`, the reason from `get_error_message()`), besides the engine's error
    /// log: a script can tell that its setting did not apply. An applied one reports `OK`.
    pub(crate) fn change(
        &self,
        what: &str,
        f: impl FnOnce(&mut Settings) -> Result<(), String>,
    ) -> Error {
        let mut guard = self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let mut next = guard.clone();
        let refused = match f(&mut next) {
            Err(why) => Some(format!("{why}; {what} not changed")),
            Ok(()) => next
                .opts
                .check()
                .err()
                .map(|e| format!("{what} not changed: {e}")),
        };
        if let Some(message) = refused {
            drop(guard);
            crate::call_state::log_error(
                &format!("set_{what}"),
                &format!("FastVarCodec: {message}"),
            );
            return self.calls.fail_with(Error::ERR_INVALID_PARAMETER, message);
        }
        *guard = next;
        self.version.fetch_add(1, Ordering::Release);
        drop(guard);
        self.calls.ok()
    }

    /// A snapshot of the options for one call (settings changed meanwhile apply to the next).
    pub(crate) fn options(&self) -> Arc<Options> {
        self.load_listed_scripts();
        self.settings().opts.clone()
    }

    /// The options, and the settings version they belong to (read together).
    pub(crate) fn options_and_version(&self) -> (Arc<Options>, u64) {
        self.load_listed_scripts();
        let settings = self.settings();
        (settings.opts.clone(), self.version.load(Ordering::Acquire))
    }

    /// Whether listed scripts wait to be loaded ([`Self::load_listed_scripts`]).
    pub(crate) fn has_unloaded_scripts(&self) -> bool {
        self.scripts_unloaded.load(Ordering::Acquire)
    }

    /// Learns the native class of the listed scripts that have no class name, by loading them,
    /// once objects are allowed and a call is about to use the options: listing a script runs
    /// none of its code, a decode that may meet its objects does. Called without any lock of
    /// this codec or a stream held (a script's static initializer may call them).
    pub(crate) fn load_listed_scripts(&self) {
        if !self.has_unloaded_scripts() {
            return;
        }
        let paths = {
            let settings = self.settings();
            if !settings.opts.allow_objects {
                return;
            }
            settings.unloaded_scripts.clone()
        };
        let bases = allow_list::script_bases(&paths);
        let mut guard = self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        // A list set meanwhile has its own scripts to load.
        if guard.unloaded_scripts != paths {
            return;
        }
        if let Some(list) = guard.opts.allowed_objects.clone() {
            let list = bases.iter().fold((*list).clone(), |l, (path, base)| {
                l.with_script(path, base.as_deref())
            });
            guard.opts_mut().allowed_objects = Some(Arc::new(list));
        }
        guard.unloaded_scripts.clear();
        self.scripts_unloaded.store(false, Ordering::Release);
        self.version.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn get_dialect(&self) -> i64 {
        self.settings().dialect()
    }
    pub(crate) fn set_dialect(&self, value: i64) -> Error {
        self.change("dialect", |s| {
            s.set_dialect(value)
                .then_some(())
                .ok_or_else(|| format!("unknown dialect {value}"))
        })
    }
    pub(crate) fn get_precision(&self) -> i64 {
        self.settings().precision()
    }
    pub(crate) fn set_precision(&self, value: i64) -> Error {
        self.change("precision", |s| {
            s.set_precision(value)
                .then_some(())
                .ok_or_else(|| format!("unknown precision {value}"))
        })
    }
    pub(crate) fn get_full_objects(&self) -> bool {
        self.settings().opts.full_objects
    }
    pub(crate) fn set_full_objects(&self, on: bool) -> Error {
        self.change("full_objects", |s| {
            s.opts_mut().full_objects = on;
            Ok(())
        })
    }
    pub(crate) fn get_allow_objects(&self) -> bool {
        self.settings().opts.allow_objects
    }
    pub(crate) fn set_allow_objects(&self, on: bool) -> Error {
        self.change("allow_objects", |s| {
            s.opts_mut().allow_objects = on;
            Ok(())
        })
    }
    pub(crate) fn allow_trailing_bytes(&self) -> bool {
        self.allow_trailing_bytes.load(Ordering::Relaxed)
    }
    pub(crate) fn set_allow_trailing_bytes(&self, on: bool) -> Error {
        self.allow_trailing_bytes.store(on, Ordering::Relaxed);
        self.calls.ok()
    }
    pub(crate) fn get_allow_lossy(&self) -> bool {
        self.settings().opts.allow_lossy
    }
    pub(crate) fn set_allow_lossy(&self, on: bool) -> Error {
        self.change("allow_lossy", |s| {
            s.opts_mut().allow_lossy = on;
            Ok(())
        })
    }
    pub(crate) fn get_max_depth(&self) -> i64 {
        self.settings().opts.limits.max_depth as i64
    }
    pub(crate) fn set_max_depth(&self, depth: i64) -> Error {
        self.change("max_depth", |s| {
            s.opts_mut().limits.max_depth = settings::max_depth(depth)?;
            Ok(())
        })
    }
    pub(crate) fn get_max_elements(&self) -> i64 {
        settings::limit_to_godot(self.settings().opts.limits.max_elements)
    }
    pub(crate) fn set_max_elements(&self, n: i64) -> Error {
        self.change("max_elements", |s| {
            s.opts_mut().limits.max_elements =
                settings::limit_from_godot(n).ok_or("max_elements is -1 (no limit) or a count")?;
            Ok(())
        })
    }
    pub(crate) fn get_max_bytes(&self) -> i64 {
        settings::limit_to_godot(self.settings().opts.limits.max_bytes)
    }
    pub(crate) fn set_max_bytes(&self, n: i64) -> Error {
        self.change("max_bytes", |s| {
            s.opts_mut().limits.max_bytes =
                settings::limit_from_godot(n).ok_or("max_bytes is -1 (no limit) or a count")?;
            Ok(())
        })
    }
    pub(crate) fn get_max_message_size(&self) -> i64 {
        self.settings().max_message as i64
    }
    pub(crate) fn set_max_message_size(&self, size: i64) -> Error {
        self.change("max_message_size", |s| {
            s.max_message = settings::message_size(size)?;
            Ok(())
        })
    }
    pub(crate) fn get_max_payload(&self) -> i64 {
        settings::limit_to_godot(self.settings().max_payload)
    }
    pub(crate) fn set_max_payload(&self, n: i64) -> Error {
        self.change("max_payload", |s| {
            s.max_payload =
                settings::limit_from_godot(n).ok_or("max_payload is -1 (no limit) or a size")?;
            Ok(())
        })
    }
    pub(crate) fn get_allowed_classes(&self) -> PackedStringArray {
        self.settings()
            .allowed_classes
            .iter()
            .map(|c| GString::from(c.as_str()))
            .collect()
    }
    /// Sets `allowed_classes`: with objects allowed, an empty list admits no object at all, and
    /// only the core's `ANY_CLASS` (`"*"`) admits every class and script (trusted input only).
    pub(crate) fn set_allowed_classes(&self, classes: PackedStringArray) -> Error {
        let entries: Vec<String> = classes.as_slice().iter().map(|c| c.to_string()).collect();
        if let Some(unknown) = allow_list::unknown_entry(&entries, ANY_CLASS) {
            let why = format!(
                "allowed_classes: {unknown:?} is neither a class (ClassDB, or a script's class_name) \
                 nor the path of an existing script"
            );
            return self.change("allowed_classes", |_| Err(why));
        }
        let (list, unloaded) = allow_list::resolve(&entries);
        let list = Some(Arc::new(list));
        let waiting = !unloaded.is_empty();
        let result = self.change("allowed_classes", |s| {
            s.opts_mut().allowed_objects = list;
            s.allowed_classes = entries;
            s.unloaded_scripts = unloaded;
            Ok(())
        });
        if result == Error::OK {
            self.scripts_unloaded.store(waiting, Ordering::Release);
        }
        result
    }
    pub(crate) fn get_decoded_size(&self) -> i64 {
        self.calls.decoded_size()
    }
    pub(crate) fn get_error(&self) -> Error {
        self.calls.error()
    }
    pub(crate) fn get_error_message(&self) -> GString {
        self.calls.message()
    }
}

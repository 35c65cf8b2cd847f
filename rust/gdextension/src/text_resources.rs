//! Godot's text resources (`.tres`) for GDScript: `FastVarTextResource`, the core's
//! `save::TextResource` held whole (what is not read or set stays as the file had it), its
//! values handed out as the engine's; and `FastVarResourceReference`, a reference to one of the
//! file's entries as a value. Every rule of the file (its grammar, which values are references,
//! the text written) is the core's; here only the translation.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use fast_var_codec_core::options::AllowList;
use fast_var_codec_core::save::TextResource;
use fast_var_codec_core::value::{Dictionary, Object};
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use godot::classes::{IRefCounted, RefCounted};
use godot::global::Error;
use godot::prelude::*;

use crate::call_state::CallState;
use crate::codec_state::CodecState;
use crate::value_calls::{encode_to_packed, variant_of_value};

/// The class a reference is made as for scripts.
const REFERENCE_CLASS: &str = "FastVarResourceReference";

/// A reference in a text resource ([FastVarTextResource]) to one of the file's entries.
///
/// What the file writes [code]ExtResource("1_ab")[/code] (a file it names, such as a script) or
/// [code]SubResource("Resource_x")[/code] (a resource inside it, one of its sections). Nothing is
/// loaded or made of it: find the entry with [method FastVarTextResource.find_entry].
///
/// ```gdscript
/// var script_ref = res.get_value(res.find_section("resource"), "script")
/// var entry := res.find_entry(script_ref)
/// print(res.get_section_attributes(entry).path)  # res://save.gd
/// ```
#[derive(GodotClass)]
#[class(tool, init, base = RefCounted)]
pub struct FastVarResourceReference {
    /// [code]"ExtResource"[/code] or [code]"SubResource"[/code].
    #[export]
    kind: GString,
    /// The entry's [code]id[/code] attribute: a String (a Godot 3 file's ids are ints).
    #[export]
    id: Variant,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for FastVarResourceReference {
    /// The text the file writes for it: [code]ExtResource("1_ab")[/code].
    fn to_string(&self) -> GString {
        let id = if self.id.get_type() == VariantType::STRING {
            format!("{:?}", self.id.to_string())
        } else {
            self.id.to_string()
        };
        GString::from(&format!("{}({id})", self.kind))
    }
}

/// A Godot text resource ([code].tres[/code], what [method ResourceSaver.save] writes for a
/// [Resource]) as data, read without the engine's loader.
///
/// Made by [method FastVarCodec.load_text_resource] or
/// [method FastVarCodec.parse_text_resource]. Where [method ResourceLoader.load] loads every
/// [code]ext_resource[/code] the file names (running their scripts) and makes every
/// [code]sub_resource[/code], this one keeps the file's sections as data, in the file's order:
/// its header ([code]gd_resource[/code]), the [code]ext_resource[/code] entries (files it refers
/// to), the [code]sub_resource[/code] entries (resources inside it, such as a save's items) and
/// the [code]resource[/code] itself. Each section has a tag, attributes
/// ([code]type[/code], [code]path[/code], [code]id[/code] …) and values, read and set as a
/// [ConfigFile]'s; a reference to an entry is a [FastVarResourceReference].
///
/// ```gdscript
/// var codec := FastVarCodec.new()
/// var res := codec.load_text_resource("user://save.tres")
/// if res == null:
///     push_error(codec.get_error_message())
///     return
/// var main := res.find_section("resource")
/// res.set_value(main, "gold", res.get_value(main, "gold") + 10)
/// res.save("user://save.tres")
/// ```
///
/// What is not set is written back as the file had it: the file read, byte for byte, when
/// nothing was set; an edited value as the engine writes it. A container typed by one of the
/// file's entries ([code]Array[ExtResource("2_x")][/code], what
/// [code]@export var items: Array[Item][/code] saves) has no type a script can hold: reading it
/// fails with [constant ERR_UNAVAILABLE], and it is written back as it was.
///
/// [b]Threads:[/b] every method may be called from any thread; [method get_error] and
/// [method get_error_message] report the last call made from the calling thread.
#[derive(GodotClass)]
#[class(tool, no_init, base = RefCounted)]
pub struct FastVarTextResource {
    doc: Mutex<TextResource>,
    /// The options of the codec that read it: its object gates and limits.
    opts: Arc<Options>,
    calls: CallState,
    base: Base<RefCounted>,
}

impl FastVarTextResource {
    fn doc(&self) -> MutexGuard<'_, TextResource> {
        self.doc.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a failure of a section index out of range; `None` then.
    fn section_index(&self, doc: &TextResource, section: i64) -> Option<usize> {
        let count = doc.sections().len();
        match usize::try_from(section) {
            Ok(i) if i < count => Some(i),
            _ => {
                self.calls.fail_with(
                    Error::ERR_INVALID_PARAMETER,
                    format!(
                        "section {section}: the file has {count} (0 to {})",
                        count.max(1) - 1
                    ),
                );
                None
            }
        }
    }

    fn variant(&self, value: &Value, what: &str) -> Variant {
        match engine_value(value, &self.opts) {
            Ok(v) => {
                self.calls.ok();
                v
            }
            Err((error, message)) => {
                self.calls.fail_with(error, format!("{what}: {message}"));
                Variant::nil()
            }
        }
    }
}

#[godot_api]
impl FastVarTextResource {
    /// How many sections the file has, its header the first.
    #[func]
    fn get_section_count(&self) -> i64 {
        i64::try_from(self.doc().sections().len()).unwrap_or(i64::MAX)
    }

    /// The tag of [param section]: [code]"gd_resource"[/code], [code]"ext_resource"[/code],
    /// [code]"sub_resource"[/code], [code]"resource"[/code]; [code]""[/code] for a section the
    /// file has not ([constant ERR_INVALID_PARAMETER]).
    #[func]
    fn get_section_tag(&self, section: i64) -> GString {
        let doc = self.doc();
        let Some(i) = self.section_index(&doc, section) else {
            return GString::new();
        };
        self.calls.ok();
        doc.sections()
            .get(i)
            .map(|s| GString::from(s.tag()))
            .unwrap_or_default()
    }

    /// The attributes of [param section]'s tag, such as [code]{"type": "Script", "path":
    /// "res://save.gd", "id": "1_ab"}[/code].
    #[func]
    fn get_section_attributes(&self, section: i64) -> VarDictionary {
        let attributes: Value = {
            let doc = self.doc();
            let Some(i) = self.section_index(&doc, section) else {
                return VarDictionary::new();
            };
            doc.sections()
                .get(i)
                .map(|s| {
                    s.attributes()
                        .map(|(k, v)| (Value::from(k), v.clone()))
                        .collect()
                })
                .unwrap_or_default()
        };
        let i = section;
        self.variant(&attributes, &format!("section {i}'s attributes"))
            .try_to::<VarDictionary>()
            .unwrap_or_default()
    }

    /// The first section of [param tag], [code]-1[/code] when there is none:
    /// [code]find_section("resource")[/code] is the resource itself.
    #[func]
    fn find_section(&self, tag: GString) -> i64 {
        let tag = tag.to_string();
        self.calls.ok();
        self.doc()
            .sections()
            .iter()
            .position(|s| s.tag() == tag)
            .and_then(|i| i64::try_from(i).ok())
            .unwrap_or(-1)
    }

    /// The section of the entry [param reference] names (an [code]ext_resource[/code] or a
    /// [code]sub_resource[/code] of its id); [code]-1[/code] when the file has none
    /// ([constant ERR_DOES_NOT_EXIST]).
    #[func]
    fn find_entry(&self, reference: Option<Gd<FastVarResourceReference>>) -> i64 {
        let Some(reference) = reference else {
            self.calls
                .fail_with(Error::ERR_INVALID_PARAMETER, "reference is null".into());
            return -1;
        };
        let value = match core_value(&reference.to_variant(), &self.opts) {
            Ok(v) => v,
            Err((error, message)) => {
                self.calls.fail_with(error, message);
                return -1;
            }
        };
        let doc = self.doc();
        let entry = doc
            .ext_resource_of(&value)
            .or_else(|| doc.sub_resource_of(&value));
        let at = entry.and_then(|e| doc.sections().iter().position(|s| std::ptr::eq(s, e)));
        match at.and_then(|i| i64::try_from(i).ok()) {
            Some(i) => {
                self.calls.ok();
                i
            }
            None => {
                self.calls.fail_with(
                    Error::ERR_DOES_NOT_EXIST,
                    format!("the file has no entry {}", reference.bind().to_string()),
                );
                -1
            }
        }
    }

    /// The names of [param section]'s values, in the file's order.
    #[func]
    fn get_section_keys(&self, section: i64) -> PackedStringArray {
        let doc = self.doc();
        let Some(i) = self.section_index(&doc, section) else {
            return PackedStringArray::new();
        };
        self.calls.ok();
        doc.sections()
            .get(i)
            .map(|s| s.properties().map(|(k, _)| GString::from(k)).collect())
            .unwrap_or_default()
    }

    /// The value [param key] of [param section], as the engine's value; a reference to one of
    /// the file's entries is a [FastVarResourceReference]. [code]null[/code] when there is none
    /// ([constant ERR_DOES_NOT_EXIST]), and for a container typed by one of the file's entries
    /// ([constant ERR_UNAVAILABLE]: no script can hold its type).
    #[func]
    fn get_value(&self, section: i64, key: GString) -> Variant {
        let key = key.to_string();
        // Copied out, the document unlocked: making the value may run code (an admitted
        // class's setters) that calls this object again.
        let (i, found) = {
            let doc = self.doc();
            let Some(i) = self.section_index(&doc, section) else {
                return Variant::nil();
            };
            (i, doc.sections().get(i).and_then(|s| s.get(&key)).cloned())
        };
        match found {
            Some(value) => self.variant(&value, &format!("section {i}'s {key}")),
            None => {
                self.calls.fail_with(
                    Error::ERR_DOES_NOT_EXIST,
                    format!("section {i} has no value {key:?}"),
                );
                Variant::nil()
            }
        }
    }

    /// Sets the value [param key] of [param section] (added last when it has none), written as
    /// the engine writes it. A [FastVarResourceReference] is written as the reference it is.
    /// Returns [constant OK], or [constant ERR_INVALID_PARAMETER] for a value the file cannot
    /// hold (a reference of another [member FastVarResourceReference.kind], an object of a
    /// class not admitted: nothing is set then).
    #[func(gd_self)]
    fn set_value(this: Gd<Self>, section: i64, key: GString, value: Variant) -> Error {
        let me = this.bind();
        let value = match core_value(&value, &me.opts) {
            Ok(v) => v,
            Err((error, message)) => {
                return me.calls.fail_with(error, format!("{key}: {message}"));
            }
        };
        let mut doc = me.doc();
        let Some(i) = me.section_index(&doc, section) else {
            return me.calls.error();
        };
        match doc.section_mut(i) {
            Some(s) => {
                s.set(&key.to_string(), value);
                me.calls.ok()
            }
            None => me.calls.error(),
        }
    }

    /// The file's text: the text read, byte for byte, while nothing was set; otherwise the text
    /// Godot writes for its sections.
    #[func]
    fn encode_to_text(&self) -> GString {
        self.calls.ok();
        GString::from(&self.doc().to_text())
    }

    /// Writes [method encode_to_text]'s text to [param path], beside it first and then renamed
    /// over it: on any failure the file that was there stays as it was.
    #[func(gd_self)]
    fn save(this: Gd<Self>, path: GString) -> Error {
        let me = this.bind();
        let text = me.doc().to_text();
        crate::store_var_files::write_whole(&me.calls, &path, text.as_bytes())
    }

    /// The error of the last call made from this thread: [constant OK] when it succeeded.
    #[func]
    fn get_error(&self) -> Error {
        self.calls.error()
    }

    /// What went wrong in the last call made from this thread, and where; [code]""[/code] after
    /// a success.
    #[func]
    fn get_error_message(&self) -> GString {
        self.calls.message()
    }
}

/// The options values are made with for scripts: the codec's gates, and the reference class
/// admitted besides (references are the file's data, whatever the gates say).
fn engine_options(codec: &Options) -> Options {
    let mut o = codec.clone().with_full_objects(true);
    o.dialect = Dialect::Godot4;
    o.allowed_objects = match (codec.allow_objects, &codec.allowed_objects) {
        (true, None) => None,
        (true, Some(list)) => Some(Arc::new((**list).clone().with_class(REFERENCE_CLASS))),
        (false, _) => Some(Arc::new(AllowList::new().with_class(REFERENCE_CLASS))),
    };
    o.allow_objects = true;
    o
}

/// The engine's value of a file's `value`, its references made [`REFERENCE_CLASS`] objects.
fn engine_value(value: &Value, codec: &Options) -> Result<Variant, (Error, String)> {
    let mut value = value.clone();
    references_to_engine(&mut value).map_err(|m| (Error::ERR_UNAVAILABLE, m))?;
    variant_of_value(&value, &engine_options(codec)).map_err(|e| failure(&e))
}

/// The file's value of a script's `value`: through its Godot 4 bytes with full objects (a
/// script's own value, so every class is read), its [`REFERENCE_CLASS`] objects made references.
fn core_value(value: &Variant, codec: &Options) -> Result<Value, (Error, String)> {
    let mut opts = codec.clone().with_full_objects(true);
    opts.dialect = Dialect::Godot4;
    opts.allow_objects = true;
    opts.allowed_objects = None;
    let bytes = encode_to_packed(&opts, value).map_err(|e| failure(&e))?;
    let (mut value, _) =
        fast_var_codec_core::decode(bytes.as_slice(), &opts).map_err(|e| failure(&e))?;
    references_from_engine(&mut value).map_err(|m| (Error::ERR_INVALID_PARAMETER, m))?;
    Ok(value)
}

fn failure(e: &CodecError) -> (Error, String) {
    (crate::call_state::godot_error(e.code()), e.to_string())
}

/// Applies `f` to every value inside `value` (items, keys, values, properties) and to `value`,
/// the containers' types checked by `typed`.
fn walk(
    value: &mut Value,
    typed: &impl Fn(&fast_var_codec_core::value::ContainerType) -> Result<(), String>,
    f: &impl Fn(&mut Value) -> Result<bool, String>,
) -> Result<(), String> {
    if f(value)? {
        return Ok(());
    }
    match value {
        Value::Array(a) => {
            typed(&a.element)?;
            for item in a.items.iter_mut() {
                walk(item, typed, f)?;
            }
        }
        Value::Dictionary(d) => {
            typed(&d.key)?;
            typed(&d.value)?;
            let old = std::mem::take(&mut **d);
            let mut rebuilt = Dictionary::new();
            rebuilt.key = old.key.clone();
            rebuilt.value = old.value.clone();
            for (mut k, mut v) in old {
                walk(&mut k, typed, f)?;
                walk(&mut v, typed, f)?;
                rebuilt.insert(k, v);
            }
            **d = rebuilt;
        }
        Value::Object(o) => {
            for (_, p) in o.properties.iter_mut() {
                walk(p, typed, f)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The file's references made [`REFERENCE_CLASS`] objects; an error for a container typed by
/// one of the file's entries, which no script can hold.
fn references_to_engine(value: &mut Value) -> Result<(), String> {
    let typed = |t: &fast_var_codec_core::value::ContainerType| match t {
        fast_var_codec_core::value::ContainerType::Class(name) if t.is_text_reference() => {
            Err(format!(
                "a container typed by {name}, one of the file's entries: no script can hold its \
                 type (it is written back as it was)"
            ))
        }
        _ => Ok(()),
    };
    walk(value, &typed, &|v| {
        let Value::Object(o) = v else {
            return Ok(false);
        };
        let Some(id) = o.text_reference_id().cloned() else {
            return Ok(false);
        };
        let kind = std::mem::take(&mut o.class);
        let mut reference = Object::new(REFERENCE_CLASS);
        reference.set("kind", kind);
        reference.set("id", id);
        **o = reference;
        Ok(true)
    })
}

/// [`REFERENCE_CLASS`] objects made the file's references again.
fn references_from_engine(value: &mut Value) -> Result<(), String> {
    walk(value, &|_| Ok(()), &|v| {
        let Value::Object(o) = v else {
            return Ok(false);
        };
        if o.class != REFERENCE_CLASS {
            return Ok(false);
        }
        let kind = match o.get("kind").and_then(Value::as_str) {
            Some(k @ ("ExtResource" | "SubResource")) => k.to_owned(),
            other => {
                return Err(format!(
                    "a FastVarResourceReference of kind {}: \"ExtResource\" or \"SubResource\"",
                    other.map_or_else(|| "none".to_owned(), |k| format!("{k:?}"))
                ))
            }
        };
        let id = match o.get("id") {
            Some(id @ (Value::String(_) | Value::Int(_))) => id.clone(),
            other => {
                return Err(format!(
                    "a FastVarResourceReference whose id is {}: a String (or a Godot 3 file's int)",
                    other.map_or_else(|| "none".to_owned(), |v| v.variant_type().to_string())
                ))
            }
        };
        let mut reference = Object::new(kind);
        reference.set("id", id);
        **o = reference;
        Ok(true)
    })
}

impl CodecState {
    /// `FastVarCodec.load_text_resource`: the file at `path` read by the core with the codec's
    /// gates and limits; `None` on failure, recorded.
    pub(crate) fn load_text_resource(&self, path: &GString) -> Option<Gd<FastVarTextResource>> {
        let file = self.file_bytes(path)?;
        let opts = self.options();
        match TextResource::from_bytes(file.as_slice(), &opts) {
            Ok(doc) => Some(self.text_resource(doc, opts)),
            Err(e) => {
                self.calls
                    .fail_with(godot_error_of(&e), format!("{path}: {e}"));
                None
            }
        }
    }

    /// `FastVarCodec.parse_text_resource`: [`CodecState::load_text_resource`] for a text.
    pub(crate) fn parse_text_resource(&self, text: &str) -> Option<Gd<FastVarTextResource>> {
        let opts = self.options();
        match TextResource::parse(text, &opts) {
            Ok(doc) => Some(self.text_resource(doc, opts)),
            Err(e) => {
                self.calls.fail(&e);
                None
            }
        }
    }

    fn text_resource(&self, doc: TextResource, opts: Arc<Options>) -> Gd<FastVarTextResource> {
        self.calls.ok();
        Gd::from_init_fn(|base| FastVarTextResource {
            doc: Mutex::new(doc),
            opts,
            calls: CallState::default(),
            base,
        })
    }
}

fn godot_error_of(e: &CodecError) -> Error {
    crate::call_state::godot_error(e.code())
}

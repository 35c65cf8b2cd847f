//! JSON saves (`store_string(JSON.stringify(data))`, Godot 3's `JSON.print`), plain or in
//! either engine's encrypted container: read and written by the core's `save::JsonSave`, whose
//! rules they all are (the engine's parsing, the style found, the text written); here only the
//! engine's values and a Dictionary of the style.

use fast_var_codec_core::save::{JsonSave, JsonStyle};
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use godot::builtin::{GString, PackedByteArray, VarDictionary, Variant};
use godot::global::Error;

use crate::call_state::godot_error;
use crate::codec_state::CodecState;
use crate::settings::{by_value, value_of, DIALECTS};
use crate::value_calls::{encode_to_packed, variant_of_value};

/// The keys of a style Dictionary, as `load_json_save` gives it and `write_json_save` takes it.
const STYLE_KEYS: [&str; 4] = ["dialect", "indent", "sort_keys", "full_precision"];

/// The core's value of a script's `value`, through its Godot 4 bytes: objects are ids (which
/// no JSON save holds, so writing one fails naming its place).
fn value_of_variant(value: &Variant, opts: &Options) -> Result<Value, CodecError> {
    let bytes = encode_to_packed(opts, value)?;
    fast_var_codec_core::decode(bytes.as_slice(), opts).map(|(v, _)| v)
}

impl CodecState {
    /// `FastVarCodec.load_json_save`: the save at `path` read by the core in the codec's
    /// dialect, its value as the engine's, with the style it was written in; `{}` on failure,
    /// recorded.
    pub(crate) fn load_json_save(
        &self,
        path: &GString,
        password: &GString,
        key: &PackedByteArray,
    ) -> VarDictionary {
        let Some(key) = self.file_key(password, key) else {
            return VarDictionary::new();
        };
        let Some(file) = self.file_bytes(path) else {
            return VarDictionary::new();
        };
        let opts = self.options();
        let save = match JsonSave::from_file(file.as_slice(), key.as_ref(), &opts) {
            Ok(save) => save,
            Err(e) => {
                self.calls
                    .fail_with(godot_error(e.code()), format!("{path}: {e}"));
                return VarDictionary::new();
            }
        };
        let mut godot4 = (*opts).clone();
        godot4.dialect = Dialect::Godot4;
        let value = match variant_of_value(save.value(), &godot4) {
            Ok(v) => v,
            Err(e) => {
                self.calls
                    .fail_with(godot_error(e.code()), format!("{path}: {e}"));
                return VarDictionary::new();
            }
        };
        let style = save.style();
        let mut style_dict = VarDictionary::new();
        style_dict.set("dialect", value_of(&DIALECTS, style.dialect));
        style_dict.set("indent", style.indent.as_str());
        style_dict.set("sort_keys", style.sort_keys);
        style_dict.set("full_precision", style.full_precision);
        let mut found = VarDictionary::new();
        found.set("value", &value);
        found.set("style", &style_dict);
        found.set("engine_text", save.is_engine_text());
        self.calls.ok();
        found
    }

    /// `FastVarCodec.write_json_save`: `value` as the core writes a JSON save in `style`, in an
    /// encrypted container with `password` or `key`, written whole or not at all.
    pub(crate) fn write_json_save(
        &self,
        path: &GString,
        value: &Variant,
        style: &VarDictionary,
        password: &GString,
        key: &PackedByteArray,
    ) -> Error {
        let style = match self.json_style(style) {
            Ok(s) => s,
            Err(message) => return self.calls.fail_with(Error::ERR_INVALID_PARAMETER, message),
        };
        let Some(key) = self.file_key(password, key) else {
            return self.calls.error();
        };
        let mut opts = (*self.options()).clone();
        opts.dialect = Dialect::Godot4;
        let value = match value_of_variant(value, &opts) {
            Ok(v) => v,
            Err(e) => {
                self.calls.fail_write(&e);
                return self.calls.fail_with(
                    self.calls.error(),
                    format!("{path}: {}", self.calls.message()),
                );
            }
        };
        match JsonSave::new(value, style).to_file(key.as_ref()) {
            Ok(bytes) => self.write_whole(path, &bytes),
            Err(e) => self
                .calls
                .fail_with(godot_error(e.code()), format!("{path}: {e}")),
        }
    }

    /// The core's style of a style Dictionary: what is left out is the engine's default in the
    /// codec's dialect (or the dialect given).
    fn json_style(&self, given: &VarDictionary) -> Result<JsonStyle, String> {
        for k in given.keys_array().iter_shared() {
            let name = k.to_string();
            if !STYLE_KEYS.contains(&name.as_str()) {
                return Err(format!(
                    "style: unknown key {k}; the keys are {}",
                    STYLE_KEYS.join(", ")
                ));
            }
        }
        let typed = |name: &str, want: &str| format!("style.{name} is not {want}");
        let dialect = match given.get("dialect") {
            None => self.options().dialect,
            Some(d) => d
                .try_to::<i64>()
                .ok()
                .and_then(|d| by_value(&DIALECTS, d))
                .ok_or_else(|| typed("dialect", "a FastVarCodec.Dialect"))?,
        };
        let mut style = JsonStyle::new(dialect);
        if let Some(indent) = given.get("indent") {
            let indent = indent
                .try_to::<GString>()
                .map_err(|_| typed("indent", "a String"))?;
            style = style.with_indent(indent.to_string());
        }
        if let Some(sorted) = given.get("sort_keys") {
            let sorted = sorted
                .try_to::<bool>()
                .map_err(|_| typed("sort_keys", "a bool"))?;
            style = style.with_sort_keys(sorted);
        }
        if let Some(full) = given.get("full_precision") {
            let full = full
                .try_to::<bool>()
                .map_err(|_| typed("full_precision", "a bool"))?;
            style = style.with_full_precision(full);
        }
        Ok(style)
    }
}

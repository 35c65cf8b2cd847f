//! Godot's `ConfigFile`: sections of key → value in text, plain or in an encrypted container, read
//! without an engine and written as the engine writes it.
//!
//! The engine's reader makes what the text names: a value `Object(Node,"script":…)` instantiates a
//! class and runs its script, `Resource("res://…")` loads a file. Here the values pass the gates of
//! [`Options`] as in a binary decode, and stay data.

use indexmap::IndexMap;

use super::{detect, Container, FileError, FileKey, OpenOptions};
use crate::error::{CodecError, ErrorCode, PathSegment};
use crate::value::parse_text::TextCursor;
use crate::{Dialect, Options, Value};

/// The sections of a Godot `ConfigFile`, each a map of key → value, in the engine's order.
///
/// It reads and writes what `ConfigFile.parse`, `load` and `save` (and their `_encrypted` and
/// `_encrypted_pass` forms) read and write, in Godot 4 and Godot 3, byte for
/// byte (checked against Godot 4.6.3 and 3.6.2). As in the engine, keys and sections keep the
/// order they were first set in, and setting [`Value::Nil`] erases a key (and a section left
/// empty). The section `""` holds the keys before any `[section]`.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::ConfigFile;
/// use fast_var_codec_core::{Dialect, Options, Value};
///
/// let mut cfg = ConfigFile::parse("[player]\nname=\"Ada\"\npos=Vector2(1, 2)\n", &Options::default())?;
/// assert_eq!(cfg.get("player", "name"), Some(&Value::from("Ada")));
/// cfg.set("player", "hp", 10);
/// assert_eq!(
///     cfg.to_text(Dialect::Godot4).as_deref(),
///     Some("[player]\n\nname=\"Ada\"\npos=Vector2(1, 2)\nhp=10\n")
/// );
///
/// // A value that would run code in the engine is refused, not made.
/// let evil = "[s]\nk=Object(RefCounted,\"script\":Resource(\"res://evil.gd\"))\n";
/// assert!(ConfigFile::parse(evil, &Options::default()).is_err());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigFile {
    sections: IndexMap<String, IndexMap<String, Value>>,
}

/// Why a ConfigFile could not be read or written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigFileError {
    /// The encrypted container: no key, a wrong key, a damaged file.
    #[error(transparent)]
    File(#[from] FileError),
    /// The text: not UTF-8, not Godot's, an object the options do not admit, past the limits.
    #[error(transparent)]
    Text(#[from] CodecError),
    /// A value that is not a Dictionary of sections of keys ([`ConfigFile::from_value`]); the
    /// field says where.
    #[error("not a ConfigFile: {0}")]
    NotSections(String),
    /// The text of this dialect's engine was not checked against it, so none is written; the
    /// field is the dialect's name.
    #[error("{0}'s ConfigFile text is not written: it was not checked against the engine")]
    TextNotChecked(&'static str),
}

impl ConfigFileError {
    /// The engine's `Error` for it: [`FileError::code`], [`CodecError::code`],
    /// `ERR_INVALID_PARAMETER` for a value that is no ConfigFile, or `ERR_UNAVAILABLE` for a
    /// dialect whose text is not written.
    pub fn code(&self) -> ErrorCode {
        match self {
            ConfigFileError::File(e) => e.code(),
            ConfigFileError::Text(e) => e.code(),
            ConfigFileError::TextNotChecked(_) => ErrorCode::Unavailable,
            ConfigFileError::NotSections(_) => ErrorCode::InvalidParameter,
        }
    }
}

/// An `std::io::Error` holding the error, so that `?` works in a function that returns
/// `std::io::Result`: the container's kind ([`FileError`]'s conversion), of kind
/// [`std::io::ErrorKind::InvalidData`] for the text, [`std::io::ErrorKind::InvalidInput`] for a
/// value that is no ConfigFile, [`std::io::ErrorKind::Unsupported`] for a dialect not written.
impl From<ConfigFileError> for std::io::Error {
    fn from(e: ConfigFileError) -> Self {
        use std::io::ErrorKind as K;
        match e {
            ConfigFileError::File(e) => e.into(),
            ConfigFileError::Text(e) => e.into(),
            ConfigFileError::NotSections(_) => std::io::Error::new(K::InvalidInput, e),
            ConfigFileError::TextNotChecked(_) => std::io::Error::new(K::Unsupported, e),
        }
    }
}

impl ConfigFile {
    /// An empty ConfigFile.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the text of a ConfigFile, as `ConfigFile.parse` does, in either engine's form.
    ///
    /// The engine's grammar: a `[section]` line starts a section (its name trimmed; `\]` is a
    /// `]` in it); `key=value` sets a key of the current one (keys before the first section go to
    /// section `""`); a key is the characters before `=` with white space left out, or a quoted
    /// string; `;` starts a comment; a value is Godot's text format
    /// ([`Value::from_godot_text`]), under `opts`' limits and object gates, which apply to the
    /// whole file. Where the engine ignores a key without `=` at the end of the text (a file's
    /// path given for its text reads as nothing), this refuses it.
    ///
    /// # Errors
    /// [`CodecError`] as [`Value::from_godot_text`] gives it, at the byte where the text went
    /// wrong (a tag without `]`, a value missing or malformed, an object refused, a key without
    /// `=` at the end).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::ConfigFile;
    /// use fast_var_codec_core::{Options, Value};
    ///
    /// let cfg = ConfigFile::parse("top=1\n; comment\n[s]\n\"a key\"=[1, 2]\n", &Options::default())?;
    /// assert_eq!(cfg.sections().collect::<Vec<_>>(), ["", "s"]);
    /// assert_eq!(cfg.get("s", "a key"), Some(&Value::from(vec![Value::Int(1), Value::Int(2)])));
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn parse(text: &str, opts: &Options) -> Result<Self, CodecError> {
        let godot3 = opts.dialect.family() != 4; // Godot 3 and its fork, Pandemonium
        let mut cfg = ConfigFile::new();
        let mut cursor = TextCursor::new(text, opts);
        let mut section = String::new();
        let mut key = String::new();
        let mut key_at = 0;
        loop {
            let at = cursor.pos();
            let Some(c) = cursor.next_char() else {
                if key.is_empty() {
                    return Ok(cfg);
                }
                // The engine drops it without a word: a path given for the text, say.
                return Err(cursor.syntax(key_at, format!("{key:?} has no '=' and no value")));
            };
            if key.is_empty() {
                key_at = at;
            }
            match c {
                '\0' => return Err(cursor.syntax(at, "a NUL character")),
                ';' => while !matches!(cursor.next_char(), Some('\n') | None) {},
                '[' if key.is_empty() => {
                    let name = section_name(&mut cursor, at, godot3)?;
                    if !name.is_empty() {
                        section = name;
                    }
                }
                '"' => key = cursor.string_at(at)?,
                '=' => {
                    let value = cursor.value()?;
                    let name = std::mem::take(&mut key);
                    if !name.is_empty() {
                        cursor.charge_elements(1)?;
                        cfg.set(&section, &name, value);
                    }
                }
                c if u32::from(c) > 32 => key.push(c),
                _ => {}
            }
        }
    }

    /// Reads a ConfigFile as `ConfigFile.load` does, or `load_encrypted_pass` and
    /// `load_encrypted` when `key` is given ([`FileKey::from_password`], [`FileKey::from_bytes`]):
    /// the text, or either engine's encrypted container of it.
    ///
    /// # Errors
    /// [`ConfigFileError::File`] for an encrypted file without a key or with a wrong one, or a
    /// damaged one; [`ConfigFileError::Text`] for text that is not UTF-8 or not a ConfigFile
    /// ([`ConfigFile::parse`]).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::{ConfigFile, FileKey};
    /// use fast_var_codec_core::{Dialect, Options, Value};
    ///
    /// let mut cfg = ConfigFile::new();
    /// cfg.set("save", "level", 3);
    /// let key = FileKey::from_password("hunter2");
    /// let file = cfg.to_file(Dialect::Godot4, Some(&key))?;
    /// assert_eq!(&file[..4], b"GDEC");
    /// let back = ConfigFile::from_file(&file, Some(&key), &Options::default())?;
    /// assert_eq!(back.get("save", "level"), Some(&Value::Int(3)));
    /// assert!(ConfigFile::from_file(&file, None, &Options::default()).is_err());
    /// # Ok::<(), fast_var_codec_core::save::ConfigFileError>(())
    /// ```
    pub fn from_file(
        file: &[u8],
        key: Option<&FileKey>,
        opts: &Options,
    ) -> Result<Self, ConfigFileError> {
        let opened;
        let text = match detect(file) {
            // Either engine's container, as `save::open` tells them apart without a dialect.
            Container::Encrypted => {
                let opts = OpenOptions::new().with_key(key);
                let no_blocks =
                    |_: &[u8], _, _| Err::<Vec<u8>, _>("an encrypted file has no blocks");
                opened = super::open(file, None, &opts, no_blocks)?;
                &opened.payload[..]
            }
            _ => file,
        };
        Ok(ConfigFile::parse(utf8_text(text, opts)?, opts)?)
    }

    /// The text `ConfigFile.save` writes in the engine of `dialect`; `None` for Pandemonium's,
    /// whose text was not checked against its engines. (Godot 4.6.3's `encode_to_text` writes the
    /// same but for a `]` in a section's name, which it does not escape, so that its text of such
    /// a name does not read back.)
    ///
    /// Both put keys that need it in quotes (a space, `=`, `;`, `"`, `[`, `]`, a control or
    /// non-ASCII character). Godot 4 writes `]` in a section's name as `\]`, and the section `""`
    /// first, without a header; Godot 3 writes names as they are and the section `""` in its
    /// place as `[]`, so that, as in Godot 3, a name with `]` or keys after `[]` do not read
    /// back where they were.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::ConfigFile;
    /// use fast_var_codec_core::{Dialect, Value};
    ///
    /// let mut cfg = ConfigFile::new();
    /// cfg.set("s", "a b", Value::vector2(1.0, 2.0));
    /// assert_eq!(cfg.to_text(Dialect::Godot4).as_deref(), Some("[s]\n\n\"a b\"=Vector2(1, 2)\n"));
    /// assert_eq!(cfg.to_text(Dialect::Godot3).as_deref(), Some("[s]\n\n\"a b\"=Vector2( 1, 2 )\n"));
    /// ```
    pub fn to_text(&self, dialect: Dialect) -> Option<String> {
        let godot3 = match dialect {
            Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2 => false,
            Dialect::Godot3 => true,
            Dialect::Pandemonium38 | Dialect::Pandemonium5 => return None,
        };
        let mut out = String::new();
        // Godot 4 writes the section "" first (its keys have no header: they must come first).
        let top = self.sections.get_key_value("").filter(|_| !godot3);
        let rest = self
            .sections
            .iter()
            .filter(|(s, _)| godot3 || !s.is_empty());
        for (i, (section, entries)) in top.into_iter().chain(rest).enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if godot3 {
                out.push_str(&format!("[{section}]\n\n"));
            } else if !section.is_empty() {
                out.push_str(&format!("[{}]\n\n", section.replace(']', "\\]")));
            }
            for (key, value) in entries {
                push_key(&mut out, key);
                out.push('=');
                out.push_str(&value.to_godot_text(dialect)?);
                out.push('\n');
            }
        }
        Some(out)
    }

    /// The file `ConfigFile.save` writes in the engine of `dialect`, or `save_encrypted_pass` and
    /// `save_encrypted` when `key` is given: Godot 4's encrypted container with a random IV, or
    /// Godot 3's.
    ///
    /// # Errors
    /// [`ConfigFileError::TextNotChecked`] for the Pandemonium dialects;
    /// [`ConfigFileError::Text`] for a value the dialect's engine does not have (a Vector4 in
    /// Godot 3), naming its section and key; [`FileError::NoRandom`] when the system has no
    /// random IV to give.
    pub fn to_file(
        &self,
        dialect: Dialect,
        key: Option<&FileKey>,
    ) -> Result<Vec<u8>, ConfigFileError> {
        let text = self
            .to_text(dialect)
            .ok_or(ConfigFileError::TextNotChecked(dialect.name()))?;
        // A value the dialect's engine does not have (a Vector4 in Godot 3) has no text it reads.
        let opts = Options::new(dialect)
            .with_allow_objects(true)
            .with_full_objects(true);
        for (section, key, value) in self.iter() {
            crate::encoded_size(value, &opts).map_err(|e| {
                // The path of the Dictionary of sections (`to_value`): ["section"]["key"].
                let e = e
                    .within(PathSegment::Key(format!("{key:?}")))
                    .within(PathSegment::Key(format!("{section:?}")));
                ConfigFileError::Text(e)
            })?;
        }
        Ok(match key {
            None => text.into_bytes(),
            Some(key) => {
                let opts = super::StoreOptions::new().with_key(Some(key));
                super::store(text.as_bytes(), dialect, &opts, super::uncompressed)?
            }
        })
    }

    /// The value of `key` in `section`.
    pub fn get(&self, section: &str, key: &str) -> Option<&Value> {
        self.sections.get(section)?.get(key)
    }

    /// Sets `key` of `section` to `value`, as `ConfigFile.set_value` does: a new key goes after
    /// the others of its section, a new section after the others; [`Value::Nil`] erases the
    /// key, and its section when that leaves it empty.
    pub fn set(&mut self, section: &str, key: &str, value: impl Into<Value>) {
        let value = value.into();
        if value.is_nil() {
            self.erase_section_key(section, key);
            return;
        }
        self.sections
            .entry(section.to_owned())
            .or_default()
            .insert(key.to_owned(), value);
    }

    /// Whether the section exists (it holds a key: an empty one is never kept).
    pub fn has_section(&self, section: &str) -> bool {
        self.sections.contains_key(section)
    }

    /// Whether `key` of `section` is set.
    pub fn has_section_key(&self, section: &str, key: &str) -> bool {
        self.get(section, key).is_some()
    }

    /// The sections' names, in order.
    pub fn sections(&self) -> impl Iterator<Item = &str> + '_ {
        self.sections.keys().map(String::as_str)
    }

    /// The keys of `section`, in order (none for a section that does not exist).
    pub fn section_keys<'a>(&'a self, section: &str) -> impl Iterator<Item = &'a str> + 'a {
        self.sections
            .get(section)
            .into_iter()
            .flat_map(|entries| entries.keys().map(String::as_str))
    }

    /// Every entry as (section, key, value), in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, &Value)> + '_ {
        self.sections.iter().flat_map(|(section, entries)| {
            entries
                .iter()
                .map(move |(key, value)| (section.as_str(), key.as_str(), value))
        })
    }

    /// Removes `section` and its keys; `false` when there was none.
    pub fn erase_section(&mut self, section: &str) -> bool {
        self.sections.shift_remove(section).is_some()
    }

    /// Removes `key` of `section` (and the section when that leaves it empty), giving its value.
    pub fn erase_section_key(&mut self, section: &str, key: &str) -> Option<Value> {
        let entries = self.sections.get_mut(section)?;
        let value = entries.shift_remove(key);
        if entries.is_empty() {
            self.sections.shift_remove(section);
        }
        value
    }

    /// The ConfigFile as a Dictionary of sections, each a Dictionary of key → value, in order:
    /// the shape the Python and JavaScript packages give it.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::ConfigFile;
    /// use fast_var_codec_core::Value;
    ///
    /// let mut cfg = ConfigFile::new();
    /// cfg.set("player", "hp", 10);
    /// let v = cfg.to_value();
    /// assert_eq!(v["player"]["hp"], Value::Int(10));
    /// assert_eq!(ConfigFile::from_value(&v)?, cfg);
    /// # Ok::<(), fast_var_codec_core::save::ConfigFileError>(())
    /// ```
    pub fn to_value(&self) -> Value {
        self.sections
            .iter()
            .map(|(section, entries)| {
                let entries: Value = entries
                    .iter()
                    .map(|(key, value)| (Value::from(key.as_str()), value.clone()))
                    .collect();
                (Value::from(section.as_str()), entries)
            })
            .collect()
    }

    /// The ConfigFile of a Dictionary of sections, each a Dictionary of key → value
    /// ([`ConfigFile::to_value`]'s inverse).
    ///
    /// # Errors
    /// [`ConfigFileError::NotSections`] for anything else: a section or key that is not a
    /// String (or StringName), a section that is not a Dictionary, or a null value, which a
    /// ConfigFile cannot hold (`set_value` erases the key).
    pub fn from_value(value: &Value) -> Result<Self, ConfigFileError> {
        let not = |why: String| ConfigFileError::NotSections(why);
        let sections = value.as_dictionary().ok_or_else(|| {
            not(format!(
                "a {} is not a Dictionary of sections",
                value.variant_type()
            ))
        })?;
        let mut cfg = ConfigFile::new();
        for (section, entries) in sections.iter() {
            let name = section.as_str().ok_or_else(|| {
                not(format!(
                    "a section's name must be a String, not a {}",
                    section.variant_type()
                ))
            })?;
            let entries = entries.as_dictionary().ok_or_else(|| {
                not(format!(
                    "section {name:?} is a {}, not a Dictionary of keys",
                    entries.variant_type()
                ))
            })?;
            for (key, value) in entries.iter() {
                let key = key.as_str().ok_or_else(|| {
                    not(format!(
                        "a key of section {name:?} must be a String, not a {}",
                        key.variant_type()
                    ))
                })?;
                if value.is_nil() {
                    return Err(not(format!(
                        "[{name}] {key} is null: a ConfigFile cannot hold null (setting it erases the key)"
                    )));
                }
                cfg.set(name, key, value.clone());
            }
        }
        Ok(cfg)
    }

    /// Whether there is no section (and so no key).
    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }
}

/// A text file's bytes as text, or the syntax error at the first byte that is not UTF-8 (with
/// the line and column of the text before it).
pub(super) fn utf8_text<'a>(bytes: &'a [u8], opts: &Options) -> Result<&'a str, CodecError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = bytes.get(..at).and_then(|b| std::str::from_utf8(b).ok());
        TextCursor::new(before.unwrap_or_default(), opts).syntax(at, "not UTF-8 text")
    })
}

/// The name of a `[section]` tag whose `[` is at `at`: up to the `]`, trimmed; Godot 4 reads
/// `\]` as a `]` of the name, Godot 3 ends the name at the first `]`.
fn section_name(
    cursor: &mut TextCursor<'_, '_>,
    at: usize,
    godot3: bool,
) -> Result<String, CodecError> {
    let mut name = String::new();
    let mut escaping = false;
    loop {
        let Some(c) = cursor.next_char() else {
            return Err(cursor.syntax(at, "a section's '[' without its ']'"));
        };
        match c {
            '\0' => return Err(cursor.syntax(cursor.pos() - 1, "a NUL character")),
            ']' if godot3 || !escaping => break,
            ']' => {
                name.pop(); // the backslash
                escaping = false;
            }
            '\\' => escaping = !godot3,
            _ => escaping = false,
        }
        name.push(c);
    }
    Ok(name.trim_matches(|c: char| u32::from(c) <= 32).to_owned())
}

/// A key as Godot writes it (`String::property_name_encode`): as it is, or in quotes with `"`
/// and `\` escaped when it holds a space or control character, `=`, `"`, `;`, `[`, `]` or a
/// character past `~`.
pub(super) fn push_key(out: &mut String, key: &str) {
    let plain = key
        .chars()
        .all(|c| ('!'..='~').contains(&c) && !matches!(c, '=' | '"' | ';' | '[' | ']'));
    if plain {
        out.push_str(key);
        return;
    }
    out.push('"');
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

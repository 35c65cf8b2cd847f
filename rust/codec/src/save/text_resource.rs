//! Godot's text resources, `.tres` (what `ResourceSaver.save` writes for a `Resource`): a header
//! tag, the external and internal resources it refers to, and the resource's properties; read
//! without an engine, written back byte for byte, and rewritten as the engine writes it where
//! changed.
//!
//! The engine's loader loads every `ext_resource` it names (and so runs their scripts) and makes
//! every `sub_resource`. Here they stay data: sections of tags and properties, whose references
//! (`ExtResource("1_ab")`, `SubResource("Resource_x")`) are values naming their entry.

use super::config_file::{push_key, utf8_text};
use crate::error::CodecError;
use crate::value::godot_text::{reference_id, ResourceFormat, ResourceValueText};
use crate::value::parse_text::TextCursor;
use crate::{Options, Value};

/// A text resource (`.tres`, and a scene's `.tscn`, of the same grammar): its sections in the
/// file's order, the first one its header.
///
/// Every section is a tag with attributes (`[ext_resource type="Script" path="res://a.gd"
/// id="1_ab"]`) and the properties after it (`name = value`). A `.tres` holds its header
/// (`gd_resource`), its `ext_resource`s (files it refers to: scripts, textures), its
/// `sub_resource`s (resources inside it: a save's items) and the `resource` itself.
///
/// A reference to one of the file's entries is a value: an object of class `ExtResource` or
/// `SubResource` holding only its `id` (a String; a Godot 3 file's ids are ints), found with
/// [`TextResource::ext_resource`] and [`TextResource::sub_resource`]. A typed container of a
/// script the file refers to keeps its type as written, as a class name:
/// `Array[ExtResource("1_ab")]`. Nothing is loaded, made or run: inline values
/// (`Object(…)`) pass the gates of [`Options`] as in a binary decode.
///
/// [`TextResource::to_text`] gives the text read as it was while nothing has changed, and
/// otherwise the text Godot writes for the sections: checked against what Godot 4.6.3 and 3.6.2
/// save (`tests/text_resource.rs`).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::TextResource;
/// use fast_var_codec_core::{Options, Value};
///
/// let text = "[gd_resource type=\"Resource\" script_class=\"Save\" format=3]\n\n\
///             [ext_resource type=\"Script\" path=\"res://save.gd\" id=\"1_ab\"]\n\n\
///             [resource]\nscript = ExtResource(\"1_ab\")\nlevel = 7\n";
/// let mut save = TextResource::parse(text, &Options::default())?;
/// assert_eq!(save.to_text(), text); // unchanged: byte for byte
///
/// let main = save.resource_mut().expect("a [resource] section");
/// assert_eq!(main.get("level"), Some(&Value::Int(7)));
/// main.set("level", 8);
/// main.set("name", "Ada");
/// assert!(save.to_text().ends_with("level = 8\nname = \"Ada\"\n"));
///
/// // The script is a reference, never loaded.
/// let script = save.resource().and_then(|r| r.get("script")).expect("script");
/// let entry = save.ext_resource_of(script).expect("its entry");
/// assert_eq!(entry.attribute("path"), Some(&Value::from("res://save.gd")));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TextResource {
    sections: Vec<ResourceSection>,
    /// The text read, while nothing has changed.
    source: Option<String>,
}

/// Why a [`Value`] is no [`TextResource`] ([`TextResource::from_value`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a text resource: {0}")]
pub struct NotTextResource(pub String);

impl From<NotTextResource> for std::io::Error {
    fn from(e: NotTextResource) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

/// One section of a [`TextResource`]: its tag, the tag's attributes, and its properties, in
/// their order.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSection {
    tag: String,
    attributes: Vec<(String, Value)>,
    properties: Vec<(String, Value)>,
}

impl TextResource {
    /// Reads a text resource as Godot's loader reads its tags and properties, without loading
    /// or making anything.
    ///
    /// The grammar: a tag `[name key=value …]` starts a section (the first one, the header, is
    /// `gd_resource` or `gd_scene`); `key = value` lines set its properties, a key being the
    /// characters before `=` without white space, or a quoted string; `;` starts a comment. The
    /// values are Godot's text format ([`Value::from_godot_text`]), under `opts`' limits, which
    /// apply to the whole file, and its object gates for inline objects; references to the
    /// file's entries are read as [`TextResource`] says.
    ///
    /// # Errors
    /// [`CodecError`] at the byte where the text went wrong: a text that does not start with a
    /// `gd_resource` or `gd_scene` tag, a tag without `]`, a property without a value, a value
    /// malformed or refused.
    pub fn parse(text: &str, opts: &Options) -> Result<Self, CodecError> {
        let mut cursor = TextCursor::resource_file(text, opts);
        let mut sections: Vec<ResourceSection> = Vec::new();
        let mut key = String::new();
        let mut key_at = 0;
        loop {
            let at = cursor.pos();
            let Some(c) = cursor.next_char() else {
                if !key.is_empty() {
                    return Err(cursor.syntax(key_at, format!("{key:?} has no '=' and no value")));
                }
                break;
            };
            if key.is_empty() {
                key_at = at;
            }
            match c {
                '\0' => return Err(cursor.syntax(at, "a NUL character")),
                ';' => while !matches!(cursor.next_char(), Some('\n') | None) {},
                '[' if key.is_empty() => {
                    let section = tag(&mut cursor, at)?;
                    if sections.is_empty() && !matches!(section.tag(), "gd_resource" | "gd_scene") {
                        return Err(cursor.syntax(
                            at,
                            "not a text resource: it starts with no [gd_resource] or [gd_scene] tag",
                        ));
                    }
                    sections.push(section);
                }
                '"' => key = cursor.string_at(at)?,
                '=' => {
                    let value = cursor.value()?;
                    let name = std::mem::take(&mut key);
                    let Some(section) = sections.last_mut() else {
                        return Err(cursor.syntax(key_at, "a property before any tag"));
                    };
                    cursor.charge_elements(1)?;
                    section.properties.push((name, value));
                }
                c if u32::from(c) > 32 => key.push(c),
                _ => {}
            }
        }
        if sections.is_empty() {
            return Err(cursor.syntax(0, "not a text resource: no [gd_resource] tag"));
        }
        Ok(TextResource {
            sections,
            source: Some(text.to_owned()),
        })
    }

    /// Reads a text resource's file, its bytes: as [`TextResource::parse`] reads its text.
    ///
    /// # Errors
    /// As [`TextResource::parse`], and a syntax error at the first byte that is not UTF-8.
    pub fn from_bytes(file: &[u8], opts: &Options) -> Result<Self, CodecError> {
        TextResource::parse(utf8_text(file, opts)?, opts)
    }

    /// The text of the file: the text read, byte for byte, while nothing has changed (no
    /// `_mut` accessor was called); otherwise the text Godot writes for these sections.
    ///
    /// Godot's text: each tag on its line with its attributes (`key=value`), each property as
    /// `key = value` after it (a key quoted where it holds a space, `=`, `"`, `;`, `[`, `]`, a
    /// control or non-ASCII character), a blank line between sections but between two
    /// `ext_resource`s; values as `var_to_str` writes them, Godot 3's `var2str` for a file of
    /// format 1 or 2. A Godot 4 file is of format 4 when it holds a PackedVector4Array, and of
    /// format 3 otherwise; a file of format 4 writes -inf as `-inf` (`var_to_str`: `inf_neg`) and
    /// a PackedByteArray in base64 (Godot 4.6.3's rules).
    pub fn to_text(&self) -> String {
        if let Some(text) = &self.source {
            return text.clone();
        }
        let godot3 = self.is_godot3();
        let format4 = !godot3 && self.holds_packed_vector4();
        let format = ResourceFormat { format4 };
        let mut out = String::new();
        let mut previous: Option<&str> = None;
        for (i, section) in self.sections.iter().enumerate() {
            if previous.is_some_and(|p| !(p == "ext_resource" && section.tag == "ext_resource")) {
                out.push('\n');
            }
            out.push('[');
            out.push_str(&section.tag);
            for (name, value) in &section.attributes {
                out.push(' ');
                out.push_str(name);
                out.push('=');
                let value = match (i, name.as_str(), value) {
                    // The format the text is written in, as the engine chooses it.
                    (0, "format", Value::Int(3 | 4)) if !godot3 => {
                        &Value::Int(if format4 { 4 } else { 3 })
                    }
                    _ => value,
                };
                push_value(&mut out, value, godot3, format);
            }
            out.push_str("]\n");
            for (name, value) in &section.properties {
                push_key(&mut out, name);
                out.push_str(" = ");
                push_value(&mut out, value, godot3, format);
                out.push('\n');
            }
            previous = Some(&section.tag);
        }
        out
    }

    /// The header's `format`: 3 or 4 for Godot 4's files, 2 (or 1) for Godot 3's.
    pub fn format(&self) -> Option<i64> {
        self.header().attribute("format").and_then(Value::as_i64)
    }

    /// Whether Godot 3 wrote the file (its header's format is 2 or less): its values are written
    /// in Godot 3's text.
    pub fn is_godot3(&self) -> bool {
        self.format().is_some_and(|f| f <= 2)
    }

    /// The header: `[gd_resource type="Resource" format=3]` (`type`, `script_class`, `format`,
    /// `uid`, Godot 3's `load_steps`).
    pub fn header(&self) -> &ResourceSection {
        // `parse` and `from_value` make no TextResource without its header, and nothing
        // removes it.
        static NONE: ResourceSection = ResourceSection {
            tag: String::new(),
            attributes: Vec::new(),
            properties: Vec::new(),
        };
        self.sections.first().unwrap_or(&NONE)
    }

    /// Every section, the header first.
    pub fn sections(&self) -> &[ResourceSection] {
        &self.sections
    }

    /// The section at `index` ([`TextResource::sections`]) to change; the text is then written
    /// anew.
    pub fn section_mut(&mut self, index: usize) -> Option<&mut ResourceSection> {
        self.source = None;
        self.sections.get_mut(index)
    }

    /// The `[resource]` section: the resource's own properties.
    pub fn resource(&self) -> Option<&ResourceSection> {
        self.sections.iter().find(|s| s.tag == "resource")
    }

    /// The `[resource]` section to change; the text is then written anew.
    pub fn resource_mut(&mut self) -> Option<&mut ResourceSection> {
        self.source = None;
        self.sections.iter_mut().find(|s| s.tag == "resource")
    }

    /// The `[ext_resource]` with this `id`: a file the resource refers to (its `path`, `type`).
    pub fn ext_resource(&self, id: impl Into<Value>) -> Option<&ResourceSection> {
        self.entry("ext_resource", &id.into())
    }

    /// The `[sub_resource]` with this `id`: a resource inside the file (its `type`, its
    /// properties).
    pub fn sub_resource(&self, id: impl Into<Value>) -> Option<&ResourceSection> {
        self.entry("sub_resource", &id.into())
    }

    /// The `[ext_resource]` a reference value (`ExtResource("1_ab")`) names.
    pub fn ext_resource_of(&self, reference: &Value) -> Option<&ResourceSection> {
        match reference.as_object() {
            Some(o) if o.class == "ExtResource" => self.entry("ext_resource", reference_id(o)?),
            _ => None,
        }
    }

    /// The `[sub_resource]` a reference value (`SubResource("Resource_x")`) names.
    pub fn sub_resource_of(&self, reference: &Value) -> Option<&ResourceSection> {
        match reference.as_object() {
            Some(o) if o.class == "SubResource" => self.entry("sub_resource", reference_id(o)?),
            _ => None,
        }
    }

    /// The resource as Godot 4 writes it, from a Godot 3 file (format 2 or less); the same
    /// resource for a Godot 4 file.
    ///
    /// What changes: the header loses `load_steps` and is of format 3; the ids of the entries
    /// and of the references to them become Strings (`ExtResource( 1 )` → `ExtResource("1")`),
    /// an `ext_resource`'s attributes take Godot 4's order (`type`, `path`, `id`); Godot 3's
    /// `__meta__` Dictionary becomes Godot 4's `metadata/name` properties, after the others; the
    /// values are written in Godot 4's text (`Transform` is `Transform3D`, `PoolIntArray` is
    /// `PackedInt32Array` …). What does not: the class names of the entries' `type`s and the
    /// scripts they refer to, which a Godot 4 project must provide. (Godot 4.6.3 loads a Godot 3
    /// file itself, but drops its metadata and gives its external entries new ids.)
    ///
    /// # Errors
    /// [`NotTextResource`] for a scene (`gd_scene`), whose nodes changed between the engines,
    /// and for `__meta__` that is not a Dictionary of String keys.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::TextResource;
    /// use fast_var_codec_core::Options;
    ///
    /// let godot3 = "[gd_resource type=\"Resource\" load_steps=2 format=2]\n\n\
    ///               [ext_resource path=\"res://save.gd\" type=\"Script\" id=1]\n\n\
    ///               [resource]\nscript = ExtResource( 1 )\n__meta__ = {\n\"note\": \"hi\"\n}\n\
    ///               at = Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 )\n";
    /// let res = TextResource::parse(godot3, &Options::default())?;
    /// assert_eq!(
    ///     res.to_godot4()?.to_text(),
    ///     "[gd_resource type=\"Resource\" format=3]\n\n\
    ///      [ext_resource type=\"Script\" path=\"res://save.gd\" id=\"1\"]\n\n\
    ///      [resource]\nscript = ExtResource(\"1\")\n\
    ///      at = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)\nmetadata/note = \"hi\"\n"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_godot4(&self) -> Result<TextResource, NotTextResource> {
        if !self.is_godot3() {
            return Ok(self.clone());
        }
        if self.header().tag != "gd_resource" {
            return Err(NotTextResource(format!(
                "a Godot 3 {} is not converted: only resources (gd_resource) are",
                self.header().tag
            )));
        }
        let mut sections = Vec::with_capacity(self.sections.len());
        for (i, section) in self.sections.iter().enumerate() {
            let mut attributes: Vec<(String, Value)> = section
                .attributes
                .iter()
                .filter(|(k, _)| !(i == 0 && k == "load_steps"))
                .map(|(k, v)| match (i, k.as_str()) {
                    (0, "format") => (k.clone(), Value::Int(3)),
                    (_, "id") => (k.clone(), string_id(v)),
                    _ => (k.clone(), v.clone()),
                })
                .collect();
            if section.tag == "ext_resource" {
                // Godot 4's order: type, path, id (Godot 3 wrote path, type, id).
                let rank = |k: &str| match k {
                    "type" => 0,
                    "uid" => 1,
                    "path" => 2,
                    "id" => 3,
                    _ => 4,
                };
                attributes.sort_by_key(|(k, _)| rank(k));
            }
            let mut properties = Vec::with_capacity(section.properties.len());
            let mut metadata = Vec::new();
            for (name, value) in &section.properties {
                if name == "__meta__" {
                    let entries = value.as_dictionary().ok_or_else(|| {
                        NotTextResource(format!(
                            "__meta__ is a {}, not a Dictionary",
                            value.variant_type()
                        ))
                    })?;
                    for (k, v) in entries.iter() {
                        let k = k.as_str().ok_or_else(|| {
                            NotTextResource(format!(
                                "a __meta__ name is a {}, not a String",
                                k.variant_type()
                            ))
                        })?;
                        metadata.push((format!("metadata/{k}"), with_string_ids(v)));
                    }
                } else {
                    properties.push((name.clone(), with_string_ids(value)));
                }
            }
            properties.extend(metadata);
            sections.push(ResourceSection {
                tag: section.tag.clone(),
                attributes,
                properties,
            });
        }
        Ok(TextResource {
            sections,
            source: None,
        })
    }

    /// The resource as a value: an Array of its sections, each a Dictionary `{"tag": String,
    /// "attributes": {name: value, …}, "properties": {name: value, …}}` in the file's order, the
    /// shape the command line's JSON and the Python and JavaScript packages give it.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::TextResource;
    /// use fast_var_codec_core::{Options, Value};
    ///
    /// let text = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = 10\n";
    /// let res = TextResource::parse(text, &Options::default())?;
    /// let v = res.to_value();
    /// assert_eq!(v[1]["tag"], Value::from("resource"));
    /// assert_eq!(v[1]["properties"]["hp"], Value::Int(10));
    /// assert_eq!(TextResource::from_value(&v)?.to_text(), text);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let pairs = |items: &[(String, Value)]| -> Value {
            items
                .iter()
                .map(|(k, v)| (Value::from(k.as_str()), v.clone()))
                .collect()
        };
        self.sections
            .iter()
            .map(|s| {
                Value::from_iter([
                    ("tag", Value::from(s.tag.as_str())),
                    ("attributes", pairs(&s.attributes)),
                    ("properties", pairs(&s.properties)),
                ])
            })
            .collect()
    }

    /// The text resource of an Array of sections ([`TextResource::to_value`]'s inverse), its
    /// text written as Godot writes it.
    ///
    /// # Errors
    /// [`NotTextResource`] for anything else: not an Array of Dictionaries with a String `tag`
    /// (the first `gd_resource` or `gd_scene`) and Dictionaries of String keys as `attributes`
    /// and `properties` (either may be left out).
    pub fn from_value(value: &Value) -> Result<Self, NotTextResource> {
        let not = |why: String| NotTextResource(why);
        let list = value.as_array().ok_or_else(|| {
            not(format!(
                "a {} is not an Array of sections",
                value.variant_type()
            ))
        })?;
        let mut sections = Vec::with_capacity(list.len());
        for (i, section) in list.items.iter().enumerate() {
            let tag = section
                .get("tag")
                .and_then(Value::as_str)
                .ok_or_else(|| not(format!("section {i} has no \"tag\" String")))?;
            if i == 0 && !matches!(tag, "gd_resource" | "gd_scene") {
                return Err(not(format!(
                    "the first section's tag is {tag:?}, not \"gd_resource\" or \"gd_scene\""
                )));
            }
            let pairs = |field: &str| -> Result<Vec<(String, Value)>, NotTextResource> {
                match section.get(field) {
                    None => Ok(Vec::new()),
                    Some(Value::Dictionary(d)) => d
                        .iter()
                        .map(|(k, v)| match k.as_str() {
                            Some(k) => Ok((k.to_owned(), v.clone())),
                            None => Err(not(format!(
                                "a name in section {i}'s {field} is a {}, not a String",
                                k.variant_type()
                            ))),
                        })
                        .collect(),
                    Some(other) => Err(not(format!(
                        "section {i}'s {field} is a {}, not a Dictionary",
                        other.variant_type()
                    ))),
                }
            };
            sections.push(ResourceSection {
                tag: tag.to_owned(),
                attributes: pairs("attributes")?,
                properties: pairs("properties")?,
            });
        }
        if sections.is_empty() {
            return Err(not("no sections: a text resource has its header".into()));
        }
        Ok(TextResource {
            sections,
            source: None,
        })
    }

    fn entry(&self, tag: &str, id: &Value) -> Option<&ResourceSection> {
        self.sections
            .iter()
            .find(|s| s.tag == tag && s.attribute("id") == Some(id))
    }

    fn holds_packed_vector4(&self) -> bool {
        fn holds(v: &Value) -> bool {
            match v {
                Value::PackedVector4Array(_) => true,
                Value::Array(a) => a.items.iter().any(holds),
                Value::Dictionary(d) => d.iter().any(|(k, v)| holds(k) || holds(v)),
                Value::Object(o) => o.properties.iter().any(|(_, v)| holds(v)),
                _ => false,
            }
        }
        self.sections
            .iter()
            .flat_map(|s| &s.properties)
            .any(|(_, v)| crate::stack::guard(|| holds(v)))
    }
}

impl ResourceSection {
    /// A section of tag `tag` without attributes or properties.
    pub fn new(tag: impl Into<String>) -> Self {
        ResourceSection {
            tag: tag.into(),
            attributes: Vec::new(),
            properties: Vec::new(),
        }
    }

    /// The tag's name: `gd_resource`, `ext_resource`, `sub_resource`, `resource`.
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// The tag's attribute `name` (`type`, `id`, `path`).
    pub fn attribute(&self, name: &str) -> Option<&Value> {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The tag's attributes, in their order.
    pub fn attributes(&self) -> impl Iterator<Item = (&str, &Value)> + '_ {
        self.attributes.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The property `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.properties
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The property `name` to change in place.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.properties
            .iter_mut()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }

    /// The properties, in their order.
    pub fn properties(&self) -> impl Iterator<Item = (&str, &Value)> + '_ {
        self.properties.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Sets the property `name`: in its place when the section has it, after the others when
    /// not.
    pub fn set(&mut self, name: &str, value: impl Into<Value>) {
        let value = value.into();
        match self.get_mut(name) {
            Some(v) => *v = value,
            None => self.properties.push((name.to_owned(), value)),
        }
    }

    /// Removes the property `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let at = self.properties.iter().position(|(k, _)| k == name)?;
        Some(self.properties.remove(at).1)
    }

    /// Sets the tag's attribute `name`, in its place or after the others.
    pub fn set_attribute(&mut self, name: &str, value: impl Into<Value>) {
        let value = value.into();
        match self.attributes.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value,
            None => self.attributes.push((name.to_owned(), value)),
        }
    }
}

/// An entry's id as Godot 4 writes it: a String (Godot 3's ints in their digits).
fn string_id(id: &Value) -> Value {
    match id {
        Value::Int(n) => Value::from(n.to_string()),
        other => other.clone(),
    }
}

/// `v` with the ids of its references to the file's entries made Strings ([`string_id`]).
fn with_string_ids(v: &Value) -> Value {
    match v {
        Value::Object(o) if reference_id(o).is_some() => {
            let mut o = o.clone();
            for (_, id) in &mut o.properties {
                *id = string_id(id);
            }
            Value::Object(o)
        }
        Value::Object(o) => {
            let mut o = o.clone();
            for (_, p) in &mut o.properties {
                *p = crate::stack::guard(|| with_string_ids(p));
            }
            Value::Object(o)
        }
        Value::Array(a) => {
            let mut a = a.clone();
            for item in &mut a.items {
                *item = crate::stack::guard(|| with_string_ids(item));
            }
            Value::Array(a)
        }
        Value::Dictionary(d) => {
            let entries = d
                .iter()
                .map(|(k, v)| {
                    (
                        crate::stack::guard(|| with_string_ids(k)),
                        crate::stack::guard(|| with_string_ids(v)),
                    )
                })
                .collect();
            Value::typed_dictionary(d.key.clone(), d.value.clone(), entries)
        }
        other => other.clone(),
    }
}

/// A tag whose `[` is at `at`: its name up to white space or `]`, then `key=value` attributes
/// up to the `]`.
fn tag(cursor: &mut TextCursor<'_, '_>, at: usize) -> Result<ResourceSection, CodecError> {
    let mut name = String::new();
    while let Some(c) = cursor.peek_char() {
        if u32::from(c) <= 32 || c == ']' {
            break;
        }
        cursor.next_char();
        name.push(c);
    }
    if name.is_empty() {
        return Err(cursor.syntax(at, "a tag without a name"));
    }
    let mut section = ResourceSection::new(name);
    let mut key = String::new();
    loop {
        let c_at = cursor.pos();
        let Some(c) = cursor.next_char() else {
            return Err(cursor.syntax(at, "a tag's '[' without its ']'"));
        };
        match c {
            '\0' => return Err(cursor.syntax(c_at, "a NUL character")),
            ']' if key.is_empty() => return Ok(section),
            '=' if !key.is_empty() => {
                let value = cursor.value()?;
                cursor.charge_elements(1)?;
                section.attributes.push((std::mem::take(&mut key), value));
            }
            ']' | '=' => {
                return Err(cursor.syntax(c_at, "expected an attribute as name=value"));
            }
            c if u32::from(c) <= 32 => {
                if !key.is_empty() {
                    return Err(cursor.syntax(c_at, format!("expected '=' after {key:?}")));
                }
            }
            c => key.push(c),
        }
    }
}

fn push_value(out: &mut String, value: &Value, godot3: bool, format: ResourceFormat) {
    use std::fmt::Write;
    let _ = write!(
        out,
        "{}",
        ResourceValueText {
            value,
            godot3,
            format,
        }
    );
}

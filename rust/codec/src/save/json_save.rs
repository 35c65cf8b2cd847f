//! JSON saves: the text of Godot's `JSON.stringify` (Godot 4) and `JSON.print` (Godot 3), as
//! games write it with `store_string`, plain or in an encrypted container; read as the engine's
//! `JSON.parse` reads it and written back in the style the file was written in.
//!
//! Not the core's lossless JSON projection ([`crate::json`], `--features json`): this is the
//! engine's own JSON, which holds nulls, bools, numbers, strings, arrays and dictionaries only.

use super::config_file::utf8_text;
use super::{detect, Container, FileError, FileKey, OpenOptions};
use crate::error::{CodecError, DecodeReason, ErrorCode, LimitKind};
use crate::value::parse_text::engine_float;
use crate::value::Dictionary;
use crate::{Dialect, Options, Value};

/// A JSON save: its value, and the style its text was written in.
///
/// [`JsonSave::parse`] reads what `JSON.parse` reads (in Godot 4 and Godot 3: trailing commas,
/// a later key replacing an earlier one, control characters in strings), with one difference
/// kept on purpose: a number written without a fraction or an exponent that fits 64 bits reads
/// as an [`Value::Int`], where the engine's parser gives a float for every number. The engine
/// writes an int so, and the int is what the game saved; it also writes it back so.
///
/// It finds the style the text was written in ([`JsonStyle`]: the engine, the indent, whether
/// keys are sorted, Godot 4's `full_precision`): the first style whose text of the value is the
/// text read ([`JsonSave::is_engine_text`]), or else the text's indent and key order with Godot
/// 4's defaults. [`JsonSave::to_text`] gives the text read, byte for byte, while nothing has
/// changed, and otherwise what the engine writes in that style (checked against Godot 4.6.3 and
/// 3.6.2, `tests/json_save.rs`).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::JsonSave;
/// use fast_var_codec_core::{Dialect, Options, Value};
///
/// let text = "{\n\t\"hp\": 10,\n\t\"name\": \"Ada\",\n\t\"speed\": 2.5\n}";
/// let mut save = JsonSave::parse(text, &Options::default())?;
/// assert_eq!(save.value()["hp"], Value::Int(10));
/// assert!(save.is_engine_text()); // JSON.stringify(data, "\t")
/// assert_eq!(save.style().indent, "\t");
///
/// save.value_mut()["hp"] = Value::Int(12);
/// assert_eq!(
///     save.to_text().as_deref(),
///     Ok("{\n\t\"hp\": 12,\n\t\"name\": \"Ada\",\n\t\"speed\": 2.5\n}")
/// );
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct JsonSave {
    value: Value,
    style: JsonStyle,
    engine_text: bool,
    /// The text read, while nothing has changed.
    source: Option<String>,
}

/// How a JSON save's text is written: the arguments of the engine's writer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonStyle {
    /// Whose writer: Godot 4's `JSON.stringify` (any Godot 4 dialect), or Godot 3's
    /// `JSON.print` (Godot 3 and Pandemonium). They differ in floats (Godot 4 writes `10.0`, 14
    /// significant digits and `1e99999` for infinity; Godot 3 `10`, six decimals) and in an
    /// empty array in indented text (Godot 3 puts its `]` on a line of its own).
    pub dialect: Dialect,
    /// The indent of one level; `""` writes the text on one line, without spaces.
    pub indent: String,
    /// Keys in code point order (`sort_keys`), else in the Dictionary's order.
    pub sort_keys: bool,
    /// Godot 4's `full_precision`: floats with the digits `var_to_str` writes, rather than 14
    /// significant digits. Godot 3 has none.
    pub full_precision: bool,
}

impl JsonStyle {
    /// The engine's defaults in `dialect`: no indent, Godot 4 sorting keys (Godot 3 not), 14
    /// significant digits.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::JsonStyle;
    /// use fast_var_codec_core::Dialect;
    ///
    /// assert!(JsonStyle::new(Dialect::Godot4).sort_keys);
    /// assert!(!JsonStyle::new(Dialect::Godot3).sort_keys);
    /// ```
    pub fn new(dialect: Dialect) -> Self {
        JsonStyle {
            dialect,
            indent: String::new(),
            sort_keys: dialect.family() == 4,
            full_precision: false,
        }
    }

    /// This style with `indent` for each level.
    pub fn with_indent(mut self, indent: impl Into<String>) -> Self {
        self.indent = indent.into();
        self
    }

    /// This style, keys sorted or not.
    pub fn with_sort_keys(mut self, sort_keys: bool) -> Self {
        self.sort_keys = sort_keys;
        self
    }

    /// This style, with Godot 4's `full_precision` or not.
    pub fn with_full_precision(mut self, full_precision: bool) -> Self {
        self.full_precision = full_precision;
        self
    }

    fn godot3(&self) -> bool {
        self.dialect.family() != 4
    }
}

impl Default for JsonStyle {
    /// Godot 4's defaults ([`JsonStyle::new`]).
    fn default() -> Self {
        JsonStyle::new(Dialect::Godot4)
    }
}

/// A value a JSON save cannot hold as it is ([`JsonSave::to_text`]): the engine would write
/// something that reads back as another value (a Vector2 as the String `"(1.0, 2.0)"`, a NaN as
/// `null`) or not at all (Godot 3's `inf`). It says what and where (`$.player.pos`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a JSON save: {0}")]
pub struct NotJsonSave(pub String);

impl From<NotJsonSave> for std::io::Error {
    fn from(e: NotJsonSave) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

impl JsonSave {
    /// A JSON save of `value`, to write in `style`.
    pub fn new(value: impl Into<Value>, style: JsonStyle) -> Self {
        JsonSave {
            value: value.into(),
            style,
            engine_text: false,
            source: None,
        }
    }

    /// Reads a JSON save's text as the engine's `JSON.parse` does (Godot 3's escapes and
    /// surrogates when `opts.dialect` is Godot 3's or Pandemonium's), under `opts`' limits, and
    /// finds its style (see [`JsonSave`]).
    ///
    /// # Errors
    /// [`CodecError`] at the byte where the text went wrong ([`DecodeReason::BadText`], with its
    /// line and column), or past a limit: deeper than `max_depth`, more elements than
    /// `max_elements`, more bytes of strings than `max_bytes`.
    pub fn parse(text: &str, opts: &Options) -> Result<Self, CodecError> {
        let mut reader = Reader {
            src: text,
            pos: 0,
            opts,
            godot3: opts.dialect.family() != 4,
            elements: 0,
            bytes: 0,
            sorted: true,
        };
        let value = reader.document()?;
        let sorted = reader.sorted;
        let found = Self::styles(text, opts.dialect, sorted)
            .into_iter()
            .find(|style| write_text(&value, style).is_ok_and(|t| t == text));
        let (style, engine_text) = match found {
            Some(style) => (style, true),
            None => (
                JsonStyle::new(if opts.dialect.family() == 4 {
                    opts.dialect
                } else {
                    Dialect::Godot3
                })
                .with_indent(indent_of(text))
                .with_sort_keys(sorted),
                false,
            ),
        };
        Ok(JsonSave {
            value,
            style,
            engine_text,
            source: Some(text.to_owned()),
        })
    }

    /// Reads a JSON save's bytes (UTF-8 text), as [`JsonSave::parse`].
    ///
    /// # Errors
    /// As [`JsonSave::parse`], and a syntax error at the first byte that is not UTF-8.
    pub fn from_bytes(file: &[u8], opts: &Options) -> Result<Self, CodecError> {
        JsonSave::parse(utf8_text(file, opts)?, opts)
    }

    /// Reads a JSON save's file: its text, or either engine's encrypted container of it
    /// (`open_encrypted_with_pass`, `open_encrypted`) with `key`.
    ///
    /// # Errors
    /// [`FileError`] (as `std::io::Error`'s source, through [`JsonFileError`]) for an encrypted
    /// file without a key, with a wrong one, or damaged; the text's as [`JsonSave::parse`].
    pub fn from_file(
        file: &[u8],
        key: Option<&FileKey>,
        opts: &Options,
    ) -> Result<Self, JsonFileError> {
        let opened;
        let text = match detect(file) {
            Container::Encrypted => {
                let opts = OpenOptions::new().with_key(key);
                let no_blocks =
                    |_: &[u8], _, _| Err::<Vec<u8>, _>("an encrypted file has no blocks");
                opened = super::open(file, None, &opts, no_blocks)?;
                &opened.payload[..]
            }
            _ => file,
        };
        Ok(JsonSave::from_bytes(text, opts)?)
    }

    /// The value.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value, to change: the text is then the engine's for the style.
    pub fn value_mut(&mut self) -> &mut Value {
        self.source = None;
        &mut self.value
    }

    /// The value, the save dropped.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The style the text is written in.
    pub fn style(&self) -> &JsonStyle {
        &self.style
    }

    /// Sets the style to write the text in.
    pub fn set_style(&mut self, style: JsonStyle) {
        self.source = None;
        self.style = style;
    }

    /// Whether the text read is what the engine writes for its value in [`JsonSave::style`]:
    /// an engine wrote it (so an edited file differs from it only where edited), rather than a
    /// person or another program.
    pub fn is_engine_text(&self) -> bool {
        self.engine_text
    }

    /// The text: the text read, byte for byte, while nothing has changed; otherwise what the
    /// engine writes for the value in [`JsonSave::style`].
    ///
    /// Godot 4 (`JSON.stringify`): ints as digits; floats as `10.0`, with 14 significant digits
    /// in plain notation (at most 32 decimals: smaller ones are `0.0`), or `var_to_str`'s digits
    /// with `full_precision`; infinities as `1e99999` and `-1e99999`. Godot 3 (`JSON.print`):
    /// floats with six decimals, trailing zeros dropped (`10`, `0.333333`, `-0`). Both escape
    /// `"`, `\`, backspace, tab, line feed, vertical tab (as `\v`, which their readers refuse),
    /// form feed and carriage return, and write every other character as it is. Indented text
    /// puts each item on its own line and `": "` after a key; an empty Dictionary is `{`, two line
    /// breaks, and `}` at its indent; an empty Array `[]` (Godot 3: as the Dictionary).
    ///
    /// # Errors
    /// [`NotJsonSave`] for a value the engine would write as another (a type JSON has not: a
    /// Vector2 becomes a String; a key that is not a String; a NaN, written `null`; a vertical
    /// tab in a string, written `\v`) or as text
    /// its reader refuses (an infinity in Godot 3) or another number (Godot 3 cuts a number of
    /// more than 255 characters), naming its place.
    pub fn to_text(&self) -> Result<String, NotJsonSave> {
        match &self.source {
            Some(text) => Ok(text.clone()),
            None => write_text(&self.value, &self.style),
        }
    }

    /// The file: [`JsonSave::to_text`]'s text, or its encrypted container with `key`
    /// (`open_encrypted_with_pass` / `open_encrypted` in the style's engine: Godot 4's with a
    /// random IV, or Godot 3's).
    ///
    /// # Errors
    /// As [`JsonSave::to_text`]; [`FileError::NoRandom`] when the system has no random IV to
    /// give, and Pandemonium's container, which is not written.
    pub fn to_file(&self, key: Option<&FileKey>) -> Result<Vec<u8>, JsonFileError> {
        let text = self.to_text()?;
        Ok(match key {
            None => text.into_bytes(),
            Some(key) => {
                let opts = super::StoreOptions::new().with_key(Some(key));
                super::store(
                    text.as_bytes(),
                    self.style.dialect,
                    &opts,
                    super::uncompressed,
                )?
            }
        })
    }

    /// The styles a text may have been written in, in the order they are tried: `dialect`'s
    /// engine (both, Godot 4's first, for a Godot 4 dialect: the default), the text's indent,
    /// its keys sorted where they all are.
    fn styles(text: &str, dialect: Dialect, sorted: bool) -> Vec<JsonStyle> {
        let base = |d: Dialect| {
            JsonStyle::new(d)
                .with_indent(indent_of(text))
                .with_sort_keys(sorted)
        };
        let godot4 = [base(dialect), base(dialect).with_full_precision(true)];
        if dialect.family() == 4 {
            let mut all = godot4.to_vec();
            all.push(base(Dialect::Godot3));
            all
        } else {
            vec![base(Dialect::Godot3)]
        }
    }
}

/// Why a JSON save's file could not be read or written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonFileError {
    /// The encrypted container: no key, a wrong key, a damaged file.
    #[error(transparent)]
    File(#[from] FileError),
    /// The text: not UTF-8, not JSON, past the limits.
    #[error(transparent)]
    Text(#[from] CodecError),
    /// A value the save cannot hold ([`JsonSave::to_text`]).
    #[error(transparent)]
    NotJson(#[from] NotJsonSave),
}

impl JsonFileError {
    /// The engine's `Error` for it: [`FileError::code`], [`CodecError::code`], or
    /// `ERR_INVALID_PARAMETER` for a value the save cannot hold.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::error::ErrorCode;
    /// use fast_var_codec_core::save::{JsonSave, JsonStyle};
    /// use fast_var_codec_core::Value;
    ///
    /// let save = JsonSave::new(Value::Vector2([1.0, 2.0]), JsonStyle::default());
    /// let e = save.to_file(None).unwrap_err();
    /// assert_eq!(e.code(), ErrorCode::InvalidParameter);
    /// ```
    pub fn code(&self) -> ErrorCode {
        match self {
            JsonFileError::File(e) => e.code(),
            JsonFileError::Text(e) => e.code(),
            JsonFileError::NotJson(_) => ErrorCode::InvalidParameter,
        }
    }
}

/// The indent of one level: the white space that starts the first indented line (`""` for text
/// on one line).
fn indent_of(text: &str) -> String {
    let text = text.trim();
    if !text.contains('\n') {
        return String::new();
    }
    let indented = text.lines().skip(1).find_map(|line| {
        let n = line.len() - line.trim_start_matches([' ', '\t']).len();
        (n > 0).then(|| line[..n].to_owned())
    });
    // Text on several lines without an indented one (`[`, a blank line, `]`: Godot 3's empty
    // Array) is written alike with any indent.
    indented.unwrap_or_else(|| "\t".to_owned())
}

// ---------------------------------------------------------------------------------------------
// Reading.

struct Reader<'a, 'o> {
    src: &'a str,
    pos: usize,
    opts: &'o Options,
    godot3: bool,
    elements: usize,
    bytes: usize,
    /// Whether every object's keys so far are in code point order.
    sorted: bool,
}

type ReadResult<T> = std::result::Result<T, CodecError>;

impl Reader<'_, '_> {
    fn document(&mut self) -> ReadResult<Value> {
        let v = self.value(0)?;
        self.skip_space();
        if self.pos < self.src.len() {
            return Err(self.syntax(self.pos, "text after the value"));
        }
        Ok(v)
    }

    fn syntax(&self, at: usize, message: impl Into<String>) -> CodecError {
        let before = self.src.get(..at).unwrap_or(self.src);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        CodecError::decode(
            at,
            DecodeReason::BadText {
                line,
                column,
                message: message.into(),
            },
        )
    }

    fn limit(&self, limit: LimitKind, max: usize) -> CodecError {
        CodecError::decode(self.pos, DecodeReason::Limit { limit, max })
    }

    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Skips what the engine's reader skips between tokens: every character up to the space.
    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b <= b' ' && b != 0) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> ReadResult<Value> {
        self.skip_space();
        let at = self.pos;
        match self.peek() {
            None => Err(self.syntax(at, "expected a value, found the end of the text")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => {
                self.pos += 1;
                Ok(Value::String(self.string(at)?.into()))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b) if b.is_ascii_alphabetic() => {
                let word: String = self.src[at..]
                    .chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect();
                self.pos += word.len();
                match word.as_str() {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "null" => Ok(Value::Nil),
                    _ => Err(self.syntax(
                        at,
                        format!("expected 'true', 'false' or 'null', found {word:?}"),
                    )),
                }
            }
            Some(_) => {
                let c = self.src[at..].chars().next().unwrap_or_default();
                Err(self.syntax(at, format!("unexpected character {c:?}")))
            }
        }
    }

    fn enter(&self, depth: usize) -> ReadResult<()> {
        let max = self.opts.limits.max_depth;
        if depth > max {
            return Err(CodecError::decode(self.pos, DecodeReason::TooDeep(max)));
        }
        Ok(())
    }

    fn charge(&mut self, elements: usize, bytes: usize) -> ReadResult<()> {
        self.elements = self.elements.saturating_add(elements);
        self.bytes = self.bytes.saturating_add(bytes);
        let limits = &self.opts.limits;
        if self.elements > limits.max_elements {
            return Err(self.limit(LimitKind::Elements, limits.max_elements));
        }
        if self.bytes > limits.max_bytes {
            return Err(self.limit(LimitKind::Bytes, limits.max_bytes));
        }
        Ok(())
    }

    /// After an item: `,` (then the closing bracket may come: a trailing comma reads) or the
    /// closing bracket. Whether the container ends.
    fn after_item(&mut self, close: u8) -> ReadResult<bool> {
        self.skip_space();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.skip_space();
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return Ok(true);
                }
                Ok(false)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(true)
            }
            _ => Err(self.syntax(self.pos, format!("expected ',' or '{}'", close as char))),
        }
    }

    fn array(&mut self, depth: usize) -> ReadResult<Value> {
        self.enter(depth)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::from(items));
        }
        loop {
            self.charge(1, 0)?;
            items.push(self.value(depth)?);
            if self.after_item(b']')? {
                return Ok(Value::from(items));
            }
        }
    }

    fn object(&mut self, depth: usize) -> ReadResult<Value> {
        self.enter(depth)?;
        self.pos += 1;
        let mut dict = Dictionary::new();
        let mut last: Option<String> = None;
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::from(dict));
        }
        loop {
            self.skip_space();
            let at = self.pos;
            if self.peek() != Some(b'"') {
                return Err(self.syntax(at, "expected a key (a string)"));
            }
            self.pos += 1;
            let key = self.string(at)?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.syntax(self.pos, "expected ':' after the key"));
            }
            self.pos += 1;
            self.charge(1, 0)?;
            let value = self.value(depth)?;
            if last.as_ref().is_some_and(|l| *l > key) {
                self.sorted = false;
            }
            last = Some(key.clone());
            // A key given twice: the later value, in the first one's place (as the engine's
            // Dictionary assignment).
            dict.insert(key, value);
            if self.after_item(b'}')? {
                return Ok(Value::from(dict));
            }
        }
    }

    /// A string's characters after its opening quote (at `at`), escapes read.
    fn string(&mut self, at: usize) -> ReadResult<String> {
        let mut out = String::new();
        loop {
            let rest = &self.src[self.pos..];
            let run = rest.find(['"', '\\']).unwrap_or(rest.len());
            out.push_str(&rest[..run]);
            self.pos += run;
            match self.peek() {
                None => return Err(self.syntax(at, "unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    self.charge(0, out.len())?;
                    return Ok(out);
                }
                _ => {
                    let c = self.escape()?;
                    out.push(c);
                }
            }
        }
    }

    /// One escape, from its `\`.
    fn escape(&mut self) -> ReadResult<char> {
        let at = self.pos;
        self.pos += 1;
        let c = self.src[self.pos..].chars().next();
        let Some(c) = c else {
            return Err(self.syntax(at, "unterminated string"));
        };
        self.pos += c.len_utf8();
        Ok(match c {
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            '"' | '\\' | '/' => c,
            'u' => return self.unicode(at),
            // Godot 3 reads any other escaped character as itself.
            c if self.godot3 => c,
            c => return Err(self.syntax(at, format!("invalid escape sequence \\{c}"))),
        })
    }

    fn hex4(&mut self, at: usize) -> ReadResult<u32> {
        let digits = self.src.get(self.pos..self.pos + 4);
        match digits.and_then(|d| {
            d.bytes()
                .all(|b| b.is_ascii_hexdigit())
                .then(|| u32::from_str_radix(d, 16).ok())
                .flatten()
        }) {
            Some(n) => {
                self.pos += 4;
                Ok(n)
            }
            None => Err(self.syntax(at, "malformed \\u escape (four hex digits)")),
        }
    }

    /// A `\u` escape (its `\` at `at`): a surrogate pair makes one character. An unpaired
    /// surrogate is refused by Godot 4, a space in Godot 3; `\u0000` is U+FFFD in Godot 4, and
    /// refused in Godot 3.
    fn unicode(&mut self, at: usize) -> ReadResult<char> {
        let n = self.hex4(at)?;
        let code = match n {
            0xd800..=0xdbff => {
                let rest = &self.src[self.pos..];
                if rest.starts_with("\\u") {
                    let save = self.pos;
                    self.pos += 2;
                    let low = self.hex4(at)?;
                    if (0xdc00..=0xdfff).contains(&low) {
                        0x10000 + ((n - 0xd800) << 10) + (low - 0xdc00)
                    } else {
                        self.pos = save;
                        return self.unpaired(at, "lead");
                    }
                } else {
                    return self.unpaired(at, "lead");
                }
            }
            0xdc00..=0xdfff => return self.unpaired(at, "trail"),
            0 if !self.godot3 => 0xfffd,
            // Godot 3 puts the NUL in its String, which no value here holds (a NUL ends a
            // string when it is encoded).
            0 => return Err(self.syntax(at, "\\u0000: a NUL character, which Godot 3 reads into its String and no String here holds")),
            n => n,
        };
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    fn unpaired(&self, at: usize, which: &str) -> ReadResult<char> {
        if self.godot3 {
            Ok(' ')
        } else {
            Err(self.syntax(at, format!("an unpaired {which} surrogate")))
        }
    }

    /// A number: `-`, digits, a fraction, an exponent. An int where it has no fraction or
    /// exponent and fits 64 bits (but `-0`, a float), else a float as the engine reads it
    /// ([`engine_float`]).
    fn number(&mut self) -> ReadResult<Value> {
        let at = self.pos;
        let bytes = self.src.as_bytes();
        let digits = |p: &mut usize| {
            let start = *p;
            while bytes.get(*p).is_some_and(u8::is_ascii_digit) {
                *p += 1;
            }
            *p - start
        };
        let mut p = at;
        if bytes.get(p) == Some(&b'-') {
            p += 1;
        }
        let mut count = digits(&mut p);
        let mut integral = true;
        if bytes.get(p) == Some(&b'.') {
            integral = false;
            p += 1;
            count += digits(&mut p);
        }
        if count == 0 {
            return Err(self.syntax(at, "a number without digits"));
        }
        if matches!(bytes.get(p), Some(b'e' | b'E')) {
            let mut q = p + 1;
            if matches!(bytes.get(q), Some(b'+' | b'-')) {
                q += 1;
            }
            if digits(&mut q) > 0 {
                integral = false;
                p = q;
            }
        }
        self.pos = p;
        let text = self.src.get(at..p).unwrap_or_default();
        if integral {
            if text.trim_start_matches('-').bytes().all(|b| b == b'0') {
                // `-0` is what Godot 3 writes for -0.0; `0`, `00` the int 0.
                return Ok(if text.starts_with('-') {
                    Value::Float(-0.0)
                } else {
                    Value::Int(0)
                });
            }
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Int(i));
            }
        }
        Ok(Value::Float(engine_float(text)))
    }
}

// ---------------------------------------------------------------------------------------------
// Writing.

fn write_text(value: &Value, style: &JsonStyle) -> std::result::Result<String, NotJsonSave> {
    let mut w = Writer {
        out: String::new(),
        style,
        path: vec!["$".to_owned()],
    };
    w.value(value, 0)?;
    Ok(w.out)
}

struct Writer<'s> {
    out: String,
    style: &'s JsonStyle,
    /// Where the value being written is, for errors: `$`, `.player`, `[2]`.
    path: Vec<String>,
}

impl Writer<'_> {
    fn refuse(&self, what: String) -> NotJsonSave {
        NotJsonSave(format!("{what} at {}", self.path.concat()))
    }

    fn newline(&mut self, level: usize) {
        if !self.style.indent.is_empty() {
            self.out.push('\n');
            for _ in 0..level {
                self.out.push_str(&self.style.indent);
            }
        }
    }

    fn value(&mut self, value: &Value, level: usize) -> std::result::Result<(), NotJsonSave> {
        match value {
            Value::Nil => self.out.push_str("null"),
            Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => self.out.push_str(&i.to_string()),
            Value::Float(x) => {
                let text = self.float(*x)?;
                self.out.push_str(&text);
            }
            Value::String(s) => self.string(s.as_str())?,
            Value::Array(a) => {
                if a.is_empty() {
                    if self.style.godot3() && !self.style.indent.is_empty() {
                        self.out.push_str("[\n");
                        self.newline(level);
                        self.out.push(']');
                    } else {
                        self.out.push_str("[]");
                    }
                    return Ok(());
                }
                self.out.push('[');
                for (i, item) in a.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(level + 1);
                    self.path.push(format!("[{i}]"));
                    self.value(item, level + 1)?;
                    self.path.pop();
                }
                self.newline(level);
                self.out.push(']');
            }
            Value::Dictionary(d) => {
                let mut entries = Vec::with_capacity(d.len());
                for (key, item) in d.iter() {
                    match key {
                        Value::String(k) => entries.push((k.as_str(), item)),
                        other => {
                            return Err(self.refuse(format!(
                                "a {} key, {other} (JSON's keys are strings)",
                                other.variant_type()
                            )))
                        }
                    }
                }
                if self.style.sort_keys {
                    entries.sort_by(|a, b| a.0.cmp(b.0));
                }
                self.out.push('{');
                if entries.is_empty() {
                    if !self.style.indent.is_empty() {
                        self.out.push('\n');
                    }
                    self.newline(level);
                    self.out.push('}');
                    return Ok(());
                }
                let colon = if self.style.indent.is_empty() {
                    ":"
                } else {
                    ": "
                };
                for (i, (key, item)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(level + 1);
                    self.path.push(format!(".{key}"));
                    self.string(key)?;
                    self.path.pop();
                    self.out.push_str(colon);
                    self.path.push(format!(".{key}"));
                    self.value(item, level + 1)?;
                    self.path.pop();
                }
                self.newline(level);
                self.out.push('}');
            }
            other => {
                return Err(self.refuse(format!(
                "a {} (JSON has none: the engine writes it as a String, which reads back as one)",
                other.variant_type()
            )))
            }
        }
        Ok(())
    }

    /// A string, quoted; a vertical tab refused: the engines write it `\v`, which Godot 4's
    /// reader refuses and Godot 3's reads as `v`.
    fn string(&mut self, s: &str) -> std::result::Result<(), NotJsonSave> {
        if s.contains('\u{b}') {
            return Err(self.refuse(
                "a vertical tab (U+000B: the engine writes \\v, which Godot 4 does not read and \
                 Godot 3 reads as v)"
                    .to_owned(),
            ));
        }
        push_string(&mut self.out, s);
        Ok(())
    }

    fn float(&self, x: f64) -> std::result::Result<String, NotJsonSave> {
        if x.is_nan() {
            return Err(self.refuse("NaN (the engine writes null)".to_owned()));
        }
        if self.style.godot3() {
            if x.is_infinite() {
                return Err(self.refuse(format!(
                    "{} (Godot 3 writes {}, which no JSON reader reads)",
                    if x > 0.0 { "inf" } else { "-inf" },
                    if x > 0.0 { "inf" } else { "-inf" }
                )));
            }
            let text = format!("{x:.6}");
            // The engine's buffer holds 255 characters: it writes the first 255 of a longer
            // number (|x| of about 1e248 and more), another number.
            if text.len() > 255 {
                return Err(self.refuse(format!(
                    "{x:e} (Godot 3's JSON.print cuts a number of more than 255 characters, \
                     writing another one)"
                )));
            }
            return Ok(trimmed(text));
        }
        if x.is_infinite() {
            return Ok(if x > 0.0 { "1e99999" } else { "-1e99999" }.to_owned());
        }
        if x == 0.0 {
            return Ok("0.0".to_owned());
        }
        let mut text = if self.style.full_precision {
            Value::Float(x).to_string()
        } else {
            let magnitude = x.abs().log10().floor();
            let decimals = (14.0 - magnitude).clamp(1.0, 32.0) as usize;
            trimmed(format!("{x:.decimals$}"))
        };
        if !text.contains(['.', 'e']) {
            text.push_str(".0");
        }
        Ok(text)
    }
}

/// Decimal text without its trailing zeros, nor a point left last (`"2.500"` is `"2.5"`,
/// `"3.000"` is `"3"`).
fn trimmed(mut text: String) -> String {
    if text.contains('.') {
        let kept = text.trim_end_matches('0').trim_end_matches('.').len();
        text.truncate(kept);
    }
    text
}

/// A string as the engines' JSON writers quote it.
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c => out.push(c),
        }
    }
    out.push('"');
}

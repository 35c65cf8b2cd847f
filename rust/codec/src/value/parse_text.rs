//! Reading Godot's text Variant format (what `var_to_str` writes and `str_to_var` reads, also
//! ConfigFile values and `.tres` properties) into any [`Build`]er, without an engine: nothing is
//! instantiated, loaded or run. The grammar is that of Godot 4's `VariantParser` (which also reads
//! Godot 3's type names: `Vector2( 1, 2 )`, `Transform(…)`, `Quat(…)`, `PoolIntArray(…)`), and
//! the values are the ones the binary decode of the same value gives.
//!
//! The engine's reader makes what the text names: `Object(Node,…)` instantiates a class and sets
//! its properties (its `script` too, whose code then runs), `Resource("res://…")` loads a file.
//! Here, objects pass the same gates as in the binary decode ([`crate::Options::allow_objects`]
//! and the allow-list of [`crate::Options::allowed_objects`]) and stay data: a class and its
//! properties; a resource reference is kept as an object of class `Resource` with its
//! `resource_path`, and is admitted only when the allow-list admits the class `Resource`. The
//! limits of [`crate::Options::limits`] bound depth, elements and string and packed-array bytes,
//! as they bound a binary decode.
//!
//! Where the engine is lax, this reader refuses: text after the value (the engine ignores it),
//! a NUL character (the engine stops reading there), and an escape that makes a NUL. And it
//! reads `\a` and `\v`, which the engine's writer makes of BEL and VT, as those characters (the
//! engine's reader takes them for `a` and `v`).

use std::borrow::Cow;

use crate::build::Build;

use crate::error::{CodecError, DecodeReason, LimitKind};
use crate::limits::Options;
use crate::real::WireReals;
use crate::types::{
    is_script_path, ContainerType, IntVectorType, PackedVectorType, RealType, VariantType,
    ENCODED_OBJECT_AS_ID,
};

type Result<T> = std::result::Result<T, CodecError>;

/// What the text reader asks of a builder beyond [`Build`]: Godot's reader fills a typed
/// Dictionary by `assign`, which converts its values to the value type as well as its keys (the
/// binary decode checks only keys).
pub(crate) trait TextBuild: Build {
    /// `value` converted to the value type of `dict`, or the element the engine's `assign` refuses.
    fn assign_value(
        &mut self,
        dict: &Self::Dictionary,
        value: Self::Value,
    ) -> std::result::Result<Self::Value, DecodeReason>;
}

/// Parses one value from `text` with builder `b`; only white space and `;` comments may follow it.
///
/// An element of a typed Array or Dictionary that does not convert to its type is refused
/// ([`DecodeReason::DroppedElement`]) whatever [`Options::refuse_dropped_elements`] says: the
/// engine's reader leaves such a container empty.
pub(crate) fn parse_with<B: TextBuild>(text: &str, opts: &Options, b: &mut B) -> Result<B::Value> {
    let mut p = Parser::new(text, opts, b);
    let v = p.next_value(b)?;
    let (tok, at) = p.token()?;
    match tok {
        Tok::Eof => Ok(v),
        _ => Err(p.syntax(at, "unexpected text after the value")),
    }
}

/// A reader of several values from one text, between the keys and section tags its caller reads
/// itself (a ConfigFile's): the values share one budget of [`Options::limits`], and objects pass
/// the same gates as in [`parse_with`].
#[cfg(feature = "files")]
pub(crate) struct TextCursor<'a, 'o> {
    parser: Parser<'a, 'o>,
    builder: super::ValueBuilder,
}

#[cfg(feature = "files")]
impl<'a, 'o> TextCursor<'a, 'o> {
    pub(crate) fn new(text: &'a str, opts: &'o Options) -> Self {
        let mut builder = super::ValueBuilder::default();
        let parser = Parser::new(text, opts, &mut builder);
        TextCursor { parser, builder }
    }

    /// A reader of a text resource's values (`.tres`): `ExtResource(id)` and `SubResource(id)`
    /// are read as references, objects of class `ExtResource` or `SubResource` holding their
    /// `id` (a String, or a Godot 3 file's int), whatever the object policy, as nothing is made
    /// or loaded of them; a typed container keeps the type it names as written (a container of
    /// `ExtResource("1_ab")`, an external script, has the class `ExtResource("1_ab")`).
    pub(crate) fn resource_file(text: &'a str, opts: &'o Options) -> Self {
        let mut cursor = TextCursor::new(text, opts);
        cursor.parser.resource_file = true;
        cursor
    }

    /// The byte offset of the next character.
    pub(crate) fn pos(&self) -> usize {
        self.parser.pos
    }

    pub(crate) fn next_char(&mut self) -> Option<char> {
        self.parser.next_char()
    }

    /// The next character, left to read.
    pub(crate) fn peek_char(&self) -> Option<char> {
        self.parser.src.get(self.parser.pos..)?.chars().next()
    }

    /// A syntax error at byte `at`, with its line and column.
    pub(crate) fn syntax(&self, at: usize, message: impl Into<String>) -> CodecError {
        self.parser.syntax(at, message)
    }

    /// Counts `n` more entries against [`crate::options::Limits::max_elements`].
    pub(crate) fn charge_elements(&mut self, n: usize) -> Result<()> {
        let at = self.parser.pos;
        self.parser.charge_elements(n, at)
    }

    /// The value that starts at the next token (white space and `;` comments before it skipped).
    pub(crate) fn value(&mut self) -> Result<crate::Value> {
        self.parser.next_value(&mut self.builder)
    }

    /// The quoted string that starts at byte `at` (a `"`), with its escapes read.
    pub(crate) fn string_at(&mut self, at: usize) -> Result<String> {
        self.parser.pos = at;
        match self.parser.token()? {
            (Tok::Str(s), _) => Ok(s),
            (tok, at) => Err(self
                .parser
                .syntax(at, format!("expected a string, found {}", tok.describe()))),
        }
    }
}

/// A token of the text.
#[derive(Debug)]
enum Tok<'a> {
    CurlyOpen,
    CurlyClose,
    BracketOpen,
    BracketClose,
    ParenOpen,
    ParenClose,
    Colon,
    Comma,
    Period,
    Equal,
    /// A name (`Vector2`, `true`, `inf`), with its leading `-` when it had one (`-inf`).
    Ident(&'a str),
    Str(String),
    StrName(String),
    Int(i64),
    Float(f64),
    /// `#rrggbb` and its shorter and longer forms.
    Color([f32; 4]),
    Eof,
}

impl Tok<'_> {
    /// How an error names the token.
    fn describe(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Tok::CurlyOpen => "'{'",
            Tok::CurlyClose => "'}'",
            Tok::BracketOpen => "'['",
            Tok::BracketClose => "']'",
            Tok::ParenOpen => "'('",
            Tok::ParenClose => "')'",
            Tok::Colon => "':'",
            Tok::Comma => "','",
            Tok::Period => "'.'",
            Tok::Equal => "'='",
            Tok::Ident(name) => return Cow::Owned(format!("identifier {:?}", shown(name))),
            Tok::Str(_) => "a string",
            Tok::StrName(_) => "a StringName",
            Tok::Int(_) | Tok::Float(_) => "a number",
            Tok::Color(_) => "a color",
            Tok::Eof => "the end of the text",
        })
    }

    /// The number a constructor's argument holds: a number, or `inf`, `-inf`, `inf_neg`, `nan`.
    fn number(&self) -> Option<Number> {
        match self {
            Tok::Int(i) => Some(Number::Int(*i)),
            Tok::Float(x) => Some(Number::Float(*x)),
            Tok::Ident(name) => special_float(name).map(Number::Float),
            _ => None,
        }
    }
}

/// A number as the engine's tokenizer makes it: an int without `.` or exponent, else a float.
#[derive(Debug, Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(x) => x,
        }
    }
    /// The number in a 64-bit int slot: an int as it is, a float truncated where it fits.
    /// `None` for a float that does not fit (NaN, an infinity, beyond the range): the engines
    /// convert it by the platform's rule (x86_64 makes it the smallest int, arm64 saturates),
    /// so no one value is the engine's.
    fn to_i64(self) -> Option<i64> {
        match self {
            Number::Int(i) => Some(i),
            Number::Float(x) => (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0)
                .contains(&x)
                .then_some(x as i64),
        }
    }

    /// The number in a 32-bit int slot: an int wrapped to 32 bits, as the engine stores it; a
    /// float truncated where it fits, `None` otherwise (as [`Number::to_i64`]).
    fn to_i32(self) -> Option<i32> {
        match self {
            Number::Int(i) => Some(i as i32),
            Number::Float(x) => (x > -2_147_483_649.0 && x < 2_147_483_648.0).then_some(x as i32),
        }
    }
}

/// The int of a number's digits (an optional `-`, then ASCII digits) as the engine's reader
/// makes it: the digits accumulate in 64 bits, wrapping on the last one, and a number that has
/// passed `i64::MAX / 10` before its last digits holds the bound of its sign. So
/// `9223372036854775808` reads as `i64::MIN` and `-9223372036854775809` as `i64::MAX`, as in
/// Godot 4.6.3 (its golden texts), where larger ones read as the bound.
fn engine_int(text: &str) -> i64 {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let mut n: i64 = 0;
    for d in digits.bytes() {
        if n > i64::MAX / 10 {
            return if negative { i64::MIN } else { i64::MAX };
        }
        n = n
            .wrapping_mul(10)
            .wrapping_add(i64::from(d.wrapping_sub(b'0')));
    }
    if negative {
        n.wrapping_neg()
    } else {
        n
    }
}

/// The float of a decimal number's text (an optional sign, digits with at most one point, an
/// optional exponent) as the engines' reader (`String::to_float`) makes it, which is not always
/// the nearest binary64: the first 18 significant digits only (`1e300` written out in full reads
/// as 9.999999999999999e299), accumulated as two integers of nine digits; the power of ten built
/// from binary64 powers 10, 100, 1e4 … 1e256 (an exponent past 511 counts as 511, so that
/// `2.2250738585072014e-308` reads as 0 and `1e400` as inf), then multiplied or divided, each
/// step rounded. Godot 4.6.3 and 3.6.2 read their JSON texts and the reals of their text format
/// so (their golden texts: a fifth of 17,082 reals' texts read to another binary64 than the
/// nearest).
pub(crate) fn engine_float(text: &str) -> f64 {
    const POWERS: [f64; 9] = [1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256];
    let s = text.as_bytes();
    let (negative, mut p) = match s.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let start = p;
    let mut point = None;
    while let Some(&b) = s.get(p) {
        if b == b'.' && point.is_none() {
            point = Some(p - start);
        } else if !b.is_ascii_digit() {
            break;
        }
        p += 1;
    }
    let mut digits = (p - start) as i64;
    let point_at = match point {
        Some(at) => {
            digits -= 1;
            at as i64
        }
        None => digits,
    };
    let mut fraction_exponent = point_at - digits;
    if digits > 18 {
        fraction_exponent = point_at - 18;
        digits = 18;
    }
    let sign = |x: f64| if negative { -x } else { x };
    if digits == 0 {
        return sign(0.0);
    }
    let mantissa = s
        .get(start..p)
        .unwrap_or_default()
        .iter()
        .filter(|b| b.is_ascii_digit());
    let (mut high, mut low) = (0i64, 0i64);
    for (i, d) in mantissa.take(digits as usize).enumerate() {
        let d = i64::from(d - b'0');
        if (i as i64) < digits - 9 {
            high = high * 10 + d;
        } else {
            low = low * 10 + d;
        }
    }
    let fraction = 1.0e9 * high as f64 + low as f64;
    let mut exponent: i64 = 0;
    if matches!(s.get(p), Some(b'e' | b'E')) {
        p += 1;
        let minus = match s.get(p) {
            Some(b'-') => {
                p += 1;
                true
            }
            Some(b'+') => {
                p += 1;
                false
            }
            _ => false,
        };
        while let Some(d) = s.get(p).filter(|b| b.is_ascii_digit()) {
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(d - b'0'));
            p += 1;
        }
        if minus {
            exponent = -exponent;
        }
    }
    let exponent = fraction_exponent.saturating_add(exponent);
    let mut e = exponent.unsigned_abs().min(511);
    let mut power = 1.0;
    for ten in POWERS {
        if e == 0 {
            break;
        }
        if e & 1 == 1 {
            power *= ten;
        }
        e >>= 1;
    }
    sign(if exponent < 0 {
        fraction / power
    } else {
        fraction * power
    })
}

/// Text from the input as an error shows it: at most 40 characters, so that a message stays
/// short whatever the input holds.
fn shown(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(40) {
        Some((cut, _)) => Cow::Owned(format!("{}…", text.get(..cut).unwrap_or_default())),
        None => Cow::Borrowed(text),
    }
}

/// The float names the engine reads (`inf_neg` is the older spelling of `-inf`).
fn special_float(name: &str) -> Option<f64> {
    match name {
        "inf" => Some(f64::INFINITY),
        "-inf" | "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

struct Parser<'a, 'o> {
    src: &'a str,
    /// The byte offset of the next character.
    pos: usize,
    opts: &'o Options,
    max_depth: usize,
    /// Container elements so far ([`crate::options::Limits::max_elements`]).
    elements: usize,
    /// Bytes of strings and packed data so far ([`crate::options::Limits::max_bytes`]).
    text_bytes: usize,
    /// Reading a text resource's values: `ExtResource(…)` and `SubResource(…)` are references
    /// to the file's own entries, kept as such ([`Parser::reference`]), and typed containers
    /// keep the class or script they name as written.
    resource_file: bool,
}

impl<'a, 'o> Parser<'a, 'o> {
    /// A reader of `text` at its start, with `b` set up for it: an element that does not fit its
    /// typed container is refused, as the engine's reader leaves the container empty.
    fn new<B: TextBuild>(text: &'a str, opts: &'o Options, b: &mut B) -> Self {
        b.configure(&opts.clone().with_refuse_dropped_elements(true));
        Parser {
            src: text,
            pos: 0,
            opts,
            max_depth: opts.limits.depth(),
            elements: 0,
            text_bytes: 0,
            resource_file: false,
        }
    }

    /// The value that starts at the next token.
    fn next_value<B: TextBuild>(&mut self, b: &mut B) -> Result<B::Value> {
        let (tok, at) = self.token()?;
        if let Tok::Eof = tok {
            return Err(self.syntax(at, "expected a value, found the end of the text"));
        }
        self.value(b, tok, at, 0)
    }
}

impl<'a> Parser<'a, '_> {
    /// A syntax error at byte `at`, with its line and column.
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

    fn fail(&self, at: usize, reason: DecodeReason) -> CodecError {
        CodecError::decode(at, reason)
    }

    fn charge_elements(&mut self, n: usize, at: usize) -> Result<()> {
        self.elements = self.elements.saturating_add(n);
        let max = self.opts.limits.max_elements;
        if self.elements > max {
            return Err(self.fail(
                at,
                DecodeReason::Limit {
                    limit: LimitKind::Elements,
                    max,
                },
            ));
        }
        Ok(())
    }

    fn charge_bytes(&mut self, n: usize, at: usize) -> Result<()> {
        self.text_bytes = self.text_bytes.saturating_add(n);
        let max = self.opts.limits.max_bytes;
        if self.text_bytes > max {
            return Err(self.fail(
                at,
                DecodeReason::Limit {
                    limit: LimitKind::Bytes,
                    max,
                },
            ));
        }
        Ok(())
    }

    fn peek_char(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn next_char(&mut self) -> Option<char> {
        let c = self.peek_char()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// The next token and the byte where it starts.
    fn token(&mut self) -> Result<(Tok<'a>, usize)> {
        loop {
            let at = self.pos;
            let Some(c) = self.next_char() else {
                return Ok((Tok::Eof, at));
            };
            let tok = match c {
                '\0' => return Err(self.syntax(at, "a NUL character")),
                '{' => Tok::CurlyOpen,
                '}' => Tok::CurlyClose,
                '[' => Tok::BracketOpen,
                ']' => Tok::BracketClose,
                '(' => Tok::ParenOpen,
                ')' => Tok::ParenClose,
                ':' => Tok::Colon,
                ',' => Tok::Comma,
                '.' => Tok::Period,
                '=' => Tok::Equal,
                ';' => {
                    // A comment, to the end of the line.
                    while let Some(c) = self.next_char() {
                        if c == '\n' {
                            break;
                        }
                    }
                    continue;
                }
                '#' => self.color(at)?,
                // `@"…"` is Godot 3's StringName.
                '&' | '@' => {
                    if self.next_char() != Some('"') {
                        return Err(self.syntax(at, "expected '\"' after '&'"));
                    }
                    Tok::StrName(self.string_body(at)?)
                }
                '"' => Tok::Str(self.string_body(at)?),
                c if u32::from(c) <= 32 => continue,
                '-' | '0'..='9' | 'a'..='z' | 'A'..='Z' | '_' => self.word(at, c)?,
                _ => return Err(self.syntax(at, format!("unexpected character {c:?}"))),
            };
            return Ok((tok, at));
        }
    }

    /// A number or a name, whose first character `first` (at `at`) is read.
    fn word(&mut self, at: usize, first: char) -> Result<Tok<'a>> {
        let mut c = Some(first);
        if first == '-' {
            c = self.peek_char();
            match c {
                Some('0'..='9') => {
                    self.pos += 1;
                }
                Some(ch) if ch.is_ascii_alphabetic() || ch == '_' => {
                    self.pos += 1;
                }
                _ => return Err(self.syntax(at, "expected a number or a name after '-'")),
            }
        }
        if matches!(c, Some('0'..='9')) {
            return self.number(at);
        }
        while matches!(self.peek_char(), Some(ch) if ch.is_ascii_alphanumeric() || ch == '_') {
            self.pos += 1;
        }
        Ok(Tok::Ident(self.src.get(at..self.pos).unwrap_or_default()))
    }

    /// A number from `at` (its sign and first digit read): digits, then a fraction and an
    /// exponent, as the engine's tokenizer reads them.
    fn number(&mut self, at: usize) -> Result<Tok<'a>> {
        let bytes = self.src.as_bytes();
        let digits = |p: &mut usize| {
            while bytes.get(*p).is_some_and(u8::is_ascii_digit) {
                *p += 1;
            }
        };
        let mut p = self.pos;
        digits(&mut p);
        let mut is_float = false;
        if bytes.get(p) == Some(&b'.') {
            is_float = true;
            p += 1;
            digits(&mut p);
        }
        let mut bare_exponent = false;
        if matches!(bytes.get(p), Some(b'e' | b'E')) {
            is_float = true;
            p += 1;
            if matches!(bytes.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            let exponent = p;
            digits(&mut p);
            bare_exponent = p == exponent;
        }
        self.pos = p;
        let text = self.src.get(at..p).unwrap_or_default();
        if is_float {
            let parsed = if bare_exponent {
                // An exponent without digits (`1e`, `2e+`, `1.5e`): the engine's reader reads the
                // mantissa's digits as one integer, its point dropped, and its first 18 digits
                // only, leading zeros counted (`1.5e` is 15.0, `0.001e` 1.0), as Godot 4.6.3
                // does (golden texts).
                let digits: String = text
                    .trim_end_matches(['e', 'E', '+', '-'])
                    .chars()
                    .filter(char::is_ascii_digit)
                    .take(18)
                    .collect();
                let sign = if text.starts_with('-') { "-" } else { "" };
                format!("{sign}{digits}0").parse::<f64>().map(|x| x / 10.0)
            } else {
                // The engines' own reader, not the nearest binary64.
                Ok(engine_float(text))
            };
            match parsed {
                Ok(x) => Ok(Tok::Float(x)),
                Err(_) => Err(self.syntax(at, format!("malformed number {:?}", shown(text)))),
            }
        } else {
            Ok(Tok::Int(engine_int(text)))
        }
    }

    /// The text of a string after its opening quote (the token started at `at`), escapes read.
    fn string_body(&mut self, at: usize) -> Result<String> {
        let mut out = String::new();
        loop {
            let rest = self.src.get(self.pos..).unwrap_or_default();
            // Plain runs copied at once.
            let run = rest.find(['"', '\\', '\0']).unwrap_or(rest.len());
            out.push_str(rest.get(..run).unwrap_or_default());
            self.pos += run;
            let esc_at = self.pos;
            match self.next_char() {
                None | Some('\0') => return Err(self.syntax(at, "unterminated string")),
                Some('"') => return Ok(out),
                Some(_) => {
                    let c = self.escape(esc_at, at)?;
                    out.push(c);
                }
            }
        }
    }

    /// One escape after its `\` (at `esc_at`, in the string starting at `at`): C's escapes,
    /// `\uXXXX` (a UTF-16 pair in two of them) and `\UXXXXXX`; any other character stands
    /// for itself. `\a` and `\v` are the control characters the engine's writer escapes so
    /// (in a StringName, a NodePath, a PackedStringArray item), though its reader takes them for
    /// `a` and `v`: read here as written, the text reads as the value it was written from.
    fn escape(&mut self, esc_at: usize, at: usize) -> Result<char> {
        let Some(next) = self.next_char() else {
            return Err(self.syntax(at, "unterminated string"));
        };
        let code = match next {
            'a' => 7,
            'b' => 8,
            't' => 9,
            'n' => 10,
            'f' => 12,
            'r' => 13,
            'v' => 11,
            'u' => self.hex_code(4, at)?,
            'U' => self.hex_code(6, at)?,
            '\0' => return Err(self.syntax(at, "unterminated string")),
            c => return Ok(c),
        };
        let code = if (0xd800..0xdc00).contains(&code) {
            // A lead surrogate: its trail must follow, as `\uDC00`.
            let trail_at = self.pos;
            let trail = match (self.next_char(), self.next_char()) {
                (Some('\\'), Some('u')) => self.hex_code(4, at)?,
                _ => return Err(self.syntax(trail_at, "a UTF-16 lead surrogate without its trail")),
            };
            if !(0xdc00..0xe000).contains(&trail) {
                return Err(self.syntax(trail_at, "a UTF-16 lead surrogate without its trail"));
            }
            0x10000 + ((code - 0xd800) << 10) + (trail - 0xdc00)
        } else if (0xdc00..0xe000).contains(&code) {
            return Err(self.syntax(esc_at, "a UTF-16 trail surrogate without its lead"));
        } else {
            code
        };
        match char::from_u32(code) {
            Some('\0') => Err(self.syntax(esc_at, "an escape of the NUL character")),
            Some(c) => Ok(c),
            None => Err(self.syntax(esc_at, format!("no character U+{code:X}"))),
        }
    }

    fn hex_code(&mut self, len: usize, at: usize) -> Result<u32> {
        let mut code = 0u32;
        for _ in 0..len {
            let digit_at = self.pos;
            match self.next_char() {
                None | Some('\0') => return Err(self.syntax(at, "unterminated string")),
                Some(c) => match c.to_digit(16) {
                    Some(d) => code = code << 4 | d,
                    None => return Err(self.syntax(digit_at, "malformed hex escape in string")),
                },
            }
        }
        Ok(code)
    }

    /// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (Godot's `Color.html`), after its `#`.
    fn color(&mut self, at: usize) -> Result<Tok<'a>> {
        let start = self.pos;
        while matches!(self.peek_char(), Some(c) if c.is_ascii_hexdigit()) {
            self.pos += 1;
        }
        let hex = self.src.get(start..self.pos).unwrap_or_default();
        if self.pos == self.src.len() {
            // The engine's reader asks for the character after a color and fails at the end
            // (`str_to_var("#ff0000")` is null there, `"#ff0000 "` a color).
            return Err(self.syntax(at, "a color at the very end of the text"));
        }
        let digit = |i: usize| {
            hex.get(i..i + 1)
                .and_then(|d| u32::from_str_radix(d, 16).ok())
                .unwrap_or(0)
        };
        let short = |i: usize| (digit(i) * 17) as f32 / 255.0;
        let long = |i: usize| (digit(i) * 16 + digit(i + 1)) as f32 / 255.0;
        let rgba = match hex.len() {
            3 => [short(0), short(1), short(2), 1.0],
            4 => [short(0), short(1), short(2), short(3)],
            6 => [long(0), long(2), long(4), 1.0],
            8 => [long(0), long(2), long(4), long(6)],
            _ => return Err(self.syntax(at, format!("malformed color #{}", shown(hex)))),
        };
        Ok(Tok::Color(rgba))
    }

    /// The next token, which must be `want` (named `what` in the error).
    fn expect(&mut self, want: fn(&Tok<'_>) -> bool, what: &str) -> Result<usize> {
        let (tok, at) = self.token()?;
        if want(&tok) {
            Ok(at)
        } else {
            Err(self.syntax(at, format!("expected {what}, found {}", tok.describe())))
        }
    }

    fn expect_open(&mut self) -> Result<usize> {
        self.expect(|t| matches!(t, Tok::ParenOpen), "'('")
    }

    fn expect_close(&mut self) -> Result<usize> {
        self.expect(|t| matches!(t, Tok::ParenClose), "')'")
    }

    /// The value that starts with `tok` (at `at`), `depth` containers deep.
    fn value<B: TextBuild>(
        &mut self,
        b: &mut B,
        tok: Tok<'a>,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        if depth > self.max_depth {
            return Err(self.fail(at, DecodeReason::TooDeep(self.max_depth)));
        }
        match tok {
            Tok::CurlyOpen => crate::stack::guard(|| {
                let d = b
                    .begin_dictionary(ContainerType::Untyped, ContainerType::Untyped, 0, 0)
                    .map_err(|r| self.fail(at, r))?;
                self.dictionary_body(b, d, at, depth)
            }),
            Tok::BracketOpen => crate::stack::guard(|| {
                let a = b
                    .begin_array(ContainerType::Untyped, 0, 0)
                    .map_err(|r| self.fail(at, r))?;
                self.array_body(b, a, at, depth)
            }),
            Tok::Int(i) => Ok(b.int(i)),
            Tok::Float(x) => Ok(b.float(x)),
            Tok::Str(s) => {
                self.charge_bytes(s.len(), at)?;
                Ok(b.string(&s))
            }
            Tok::StrName(s) => {
                self.charge_bytes(s.len(), at)?;
                Ok(b.string_name(&s))
            }
            Tok::Color(rgba) => Ok(b.color(rgba)),
            Tok::Ident(name) => self.named(b, name, at, depth),
            other => Err(self.syntax(at, format!("expected a value, found {}", other.describe()))),
        }
    }

    /// A value that starts with a name: a constant or a constructor.
    fn named<B: TextBuild>(
        &mut self,
        b: &mut B,
        name: &'a str,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        use RealType as R;
        let real_type = match name {
            "Vector2" => Some(R::Vector2),
            "Rect2" => Some(R::Rect2),
            "Vector3" => Some(R::Vector3),
            "Transform2D" | "Matrix32" => Some(R::Transform2D),
            "Vector4" => Some(R::Vector4),
            "Plane" => Some(R::Plane),
            "Quaternion" | "Quat" => Some(R::Quaternion),
            "AABB" | "Rect3" => Some(R::Aabb),
            "Basis" | "Matrix3" => Some(R::Basis),
            "Transform3D" | "Transform" => Some(R::Transform3D),
            "Projection" => Some(R::Projection),
            _ => None,
        };
        if let Some(ty) = real_type {
            let args = self.numbers()?;
            let len = ty.components();
            let reals: Vec<f64> = args.iter().map(|n| n.as_f64()).collect();
            self.arity(at, name, reals.len(), len)?;
            return Ok(b.real(ty, WireReals::Binary64(&reals)));
        }
        let int_type = match name {
            "Vector2i" => Some(IntVectorType::Vector2i),
            "Rect2i" => Some(IntVectorType::Rect2i),
            "Vector3i" => Some(IntVectorType::Vector3i),
            "Vector4i" => Some(IntVectorType::Vector4i),
            _ => None,
        };
        if let Some(ty) = int_type {
            let args = self.numbers()?;
            self.arity(at, name, args.len(), ty.components())?;
            let ints = self.ints32(at, name, &args)?;
            return Ok(b.int_vector(ty, &ints));
        }
        if let Some(x) = special_float(name) {
            return Ok(b.float(x));
        }
        match name {
            "true" => Ok(b.bool(true)),
            "false" => Ok(b.bool(false)),
            "null" | "nil" => Ok(b.nil()),
            "Color" => {
                let args = self.numbers()?;
                self.arity(at, name, args.len(), 4)?;
                let mut rgba = [0f32; 4];
                for (c, n) in rgba.iter_mut().zip(&args) {
                    *c = n.as_f64() as f32;
                }
                Ok(b.color(rgba))
            }
            "NodePath" => {
                self.expect_open()?;
                let (tok, s_at) = self.token()?;
                let Tok::Str(text) = tok else {
                    return Err(self.syntax(s_at, "expected a string as NodePath's argument"));
                };
                self.expect_close()?;
                let path = super::NodePath::from(text.as_str());
                self.charge_elements(path.names.len() + path.subnames.len(), at)?;
                self.charge_bytes(text.len(), at)?;
                let names: Vec<Cow<'_, str>> = path
                    .names
                    .iter()
                    .map(|s| Cow::Borrowed(s.as_str()))
                    .collect();
                let subnames: Vec<Cow<'_, str>> = path
                    .subnames
                    .iter()
                    .map(|s| Cow::Borrowed(s.as_str()))
                    .collect();
                Ok(b.node_path(&names, &subnames, path.absolute))
            }
            "RID" => {
                self.expect_open()?;
                let (tok, n_at) = self.token()?;
                let id = match tok {
                    Tok::ParenClose => return Ok(b.rid(0)),
                    tok => match tok.number().map(Number::to_i64) {
                        Some(Some(n)) => n as u64,
                        Some(None) => return Err(self.unfit(n_at, name, 64)),
                        None => {
                            return Err(self.syntax(n_at, "expected a number as RID's argument"))
                        }
                    },
                };
                self.expect_close()?;
                Ok(b.rid(id))
            }
            // The engine writes neither's target, and reads both as empty.
            "Signal" => {
                self.expect_open()?;
                self.expect_close()?;
                Ok(b.signal("", 0))
            }
            "Callable" => {
                self.expect_open()?;
                self.expect_close()?;
                Ok(b.callable())
            }
            "Object" => crate::stack::guard(|| self.object(b, at, depth)),
            "SubResource" | "ExtResource" if self.resource_file => {
                crate::stack::guard(|| self.reference(b, name, at, depth))
            }
            "Resource" | "SubResource" | "ExtResource" => {
                crate::stack::guard(|| self.resource(b, name, at, depth))
            }
            "Array" => crate::stack::guard(|| self.typed_array(b, at, depth)),
            "Dictionary" => crate::stack::guard(|| self.typed_dictionary(b, at, depth)),
            "PackedByteArray" | "PoolByteArray" | "ByteArray" => self.packed_bytes(b, at),
            "PackedInt32Array" | "PackedIntArray" | "PoolIntArray" | "IntArray" => {
                let args = self.numbers()?;
                self.charge_bytes(args.len() * 4, at)?;
                let raw: Vec<u8> = self
                    .ints32(at, name, &args)?
                    .iter()
                    .flat_map(|i| i.to_le_bytes())
                    .collect();
                Ok(b.packed_i32(&raw))
            }
            "PackedInt64Array" => {
                let args = self.numbers()?;
                self.charge_bytes(args.len() * 8, at)?;
                let mut raw = Vec::with_capacity(args.len() * 8);
                for n in &args {
                    let i = n.to_i64().ok_or_else(|| self.unfit(at, name, 64))?;
                    raw.extend_from_slice(&i.to_le_bytes());
                }
                Ok(b.packed_i64(&raw))
            }
            "PackedFloat32Array" | "PackedRealArray" | "PoolRealArray" | "FloatArray" => {
                let args = self.numbers()?;
                self.charge_bytes(args.len() * 4, at)?;
                let raw: Vec<u8> = args
                    .iter()
                    .flat_map(|n| (n.as_f64() as f32).to_le_bytes())
                    .collect();
                Ok(b.packed_f32(&raw))
            }
            "PackedFloat64Array" => {
                let args = self.numbers()?;
                self.charge_bytes(args.len() * 8, at)?;
                let raw: Vec<u8> = args.iter().flat_map(|n| n.as_f64().to_le_bytes()).collect();
                Ok(b.packed_f64(&raw))
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => self.packed_strings(b),
            "PackedVector2Array" | "PoolVector2Array" | "Vector2Array" => {
                self.packed_vectors(b, PackedVectorType::Vector2, at)
            }
            "PackedVector3Array" | "PoolVector3Array" | "Vector3Array" => {
                self.packed_vectors(b, PackedVectorType::Vector3, at)
            }
            "PackedVector4Array" | "PoolVector4Array" | "Vector4Array" => {
                self.packed_vectors(b, PackedVectorType::Vector4, at)
            }
            "PackedColorArray" | "PoolColorArray" | "ColorArray" => {
                let args = self.numbers()?;
                let whole = args.len() / 4 * 4;
                self.charge_bytes(whole * 4, at)?;
                let raw: Vec<u8> = args
                    .iter()
                    .take(whole)
                    .flat_map(|n| (n.as_f64() as f32).to_le_bytes())
                    .collect();
                Ok(b.packed_colors(&raw))
            }
            _ => Err(self.syntax(at, format!("unknown name {:?}", shown(name)))),
        }
    }

    /// The numbers of a constructor's 32-bit int slots ([`Number::to_i32`]), or the error of
    /// the first that does not fit.
    fn ints32(&self, at: usize, name: &str, args: &[Number]) -> Result<Vec<i32>> {
        args.iter()
            .map(|n| n.to_i32().ok_or_else(|| self.unfit(at, name, 32)))
            .collect()
    }

    /// A float in an int slot of `bits` that does not fit it.
    fn unfit(&self, at: usize, name: &str, bits: u32) -> CodecError {
        self.syntax(
            at,
            format!(
                "{name} holds a float that does not fit a {bits}-bit int (NaN, an infinity or \
                 beyond its range), which the engines read differently by platform"
            ),
        )
    }

    fn arity(&self, at: usize, name: &str, got: usize, want: usize) -> Result<()> {
        if got == want {
            Ok(())
        } else {
            Err(self.syntax(at, format!("{name} takes {want} numbers, found {got}")))
        }
    }

    /// A constructor's numbers: `(` then numbers separated by `,`, then `)`.
    fn numbers(&mut self) -> Result<Vec<Number>> {
        self.expect_open()?;
        let mut out = Vec::new();
        loop {
            let (tok, n_at) = self.token()?;
            if out.is_empty() && matches!(tok, Tok::ParenClose) {
                return Ok(out);
            }
            match tok.number() {
                Some(n) => out.push(n),
                None => {
                    return Err(
                        self.syntax(n_at, format!("expected a number, found {}", tok.describe()))
                    )
                }
            }
            let (tok, sep_at) = self.token()?;
            match tok {
                Tok::Comma => {}
                Tok::ParenClose => return Ok(out),
                tok => {
                    return Err(self.syntax(
                        sep_at,
                        format!("expected ',' or ')', found {}", tok.describe()),
                    ))
                }
            }
        }
    }

    fn packed_vectors<B: TextBuild>(
        &mut self,
        b: &mut B,
        ty: PackedVectorType,
        at: usize,
    ) -> Result<B::Value> {
        let args = self.numbers()?;
        // As the engine: a last incomplete vector is dropped.
        let whole = args.len() / ty.components() * ty.components();
        self.charge_bytes(whole * 8, at)?;
        let raw: Vec<u8> = args
            .iter()
            .take(whole)
            .flat_map(|n| n.as_f64().to_le_bytes())
            .collect();
        Ok(b.packed_vectors(ty, &raw, true))
    }

    /// `PackedByteArray(1, 2)`, or its bytes as one base64 string.
    fn packed_bytes<B: TextBuild>(&mut self, b: &mut B, at: usize) -> Result<B::Value> {
        self.expect_open()?;
        let (tok, s_at) = self.token()?;
        if let Tok::Str(text) = tok {
            // Padded, as the engine's decoder wants it (it refuses `"AQI"`, takes `"AQI="`).
            let bytes = Some(&text)
                .filter(|t| t.len() % 4 == 0)
                .and_then(|t| crate::base64::decode(t, false))
                .ok_or_else(|| self.syntax(s_at, "invalid base64 in PackedByteArray"))?;
            self.expect_close()?;
            self.charge_bytes(bytes.len(), at)?;
            return Ok(b.packed_bytes(&bytes));
        }
        let mut out = Vec::new();
        let mut tok = (tok, s_at);
        if !matches!(tok.0, Tok::ParenClose) {
            loop {
                match tok.0.number() {
                    Some(n) => match n.to_i32() {
                        // The engine keeps an int's low byte.
                        Some(i) => out.push(i as u8),
                        None => return Err(self.unfit(tok.1, "PackedByteArray", 32)),
                    },
                    None => {
                        return Err(self.syntax(
                            tok.1,
                            format!("expected a number, found {}", tok.0.describe()),
                        ))
                    }
                }
                let (sep, sep_at) = self.token()?;
                match sep {
                    Tok::Comma => {}
                    Tok::ParenClose => break,
                    sep => {
                        return Err(self.syntax(
                            sep_at,
                            format!("expected ',' or ')', found {}", sep.describe()),
                        ))
                    }
                }
                tok = self.token()?;
            }
        }
        self.charge_bytes(out.len(), at)?;
        Ok(b.packed_bytes(&out))
    }

    fn packed_strings<B: TextBuild>(&mut self, b: &mut B) -> Result<B::Value> {
        self.expect_open()?;
        let mut strings = b.begin_strings(0);
        loop {
            let (tok, s_at) = self.token()?;
            match tok {
                // Also after a comma: the engine takes `PackedStringArray("a",)`.
                Tok::ParenClose => break,
                Tok::Str(s) => {
                    self.charge_bytes(s.len(), s_at)?;
                    b.push_string(&mut strings, &s);
                }
                tok => {
                    return Err(
                        self.syntax(s_at, format!("expected a string, found {}", tok.describe()))
                    )
                }
            }
            let (sep, sep_at) = self.token()?;
            match sep {
                Tok::Comma => {}
                Tok::ParenClose => break,
                sep => {
                    return Err(self.syntax(
                        sep_at,
                        format!("expected ',' or ')', found {}", sep.describe()),
                    ))
                }
            }
        }
        Ok(b.end_strings(strings))
    }

    /// The items of an Array after its `[` (at `at`), and its `]`.
    fn array_body<B: TextBuild>(
        &mut self,
        b: &mut B,
        mut array: B::Array,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        let mut need_comma = false;
        loop {
            let (tok, t_at) = self.token()?;
            match tok {
                Tok::BracketClose => return Ok(b.end_array(array)),
                Tok::Eof => return Err(self.syntax(at, "an Array without its ']'")),
                Tok::Comma if need_comma => {
                    need_comma = false;
                    continue;
                }
                tok if need_comma => {
                    return Err(self.syntax(
                        t_at,
                        format!("expected ',' or ']', found {}", tok.describe()),
                    ))
                }
                tok => {
                    self.charge_elements(1, t_at)?;
                    let v = self.value(b, tok, t_at, depth + 1)?;
                    b.push(&mut array, v).map_err(|r| self.fail(at, r))?;
                    need_comma = true;
                }
            }
        }
    }

    /// The entries of a Dictionary after its `{` (at `at`), and its `}`.
    fn dictionary_body<B: TextBuild>(
        &mut self,
        b: &mut B,
        mut dict: B::Dictionary,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        let mut need_comma = false;
        loop {
            let (tok, t_at) = self.token()?;
            match tok {
                Tok::CurlyClose => return Ok(b.end_dictionary(dict)),
                Tok::Eof => return Err(self.syntax(at, "a Dictionary without its '}'")),
                Tok::Comma if need_comma => {
                    need_comma = false;
                    continue;
                }
                tok if need_comma => {
                    return Err(self.syntax(
                        t_at,
                        format!("expected ',' or '}}', found {}", tok.describe()),
                    ))
                }
                tok => {
                    self.charge_elements(1, t_at)?;
                    let key = self.value(b, tok, t_at, depth + 1)?;
                    self.expect(|t| matches!(t, Tok::Colon), "':' after a key")?;
                    let (tok, v_at) = self.token()?;
                    let value = self.value(b, tok, v_at, depth + 1)?;
                    let value = b
                        .assign_value(&dict, value)
                        .map_err(|r| self.fail(v_at, r))?;
                    b.insert(&mut dict, key, value)
                        .map_err(|r| self.fail(t_at, r))?;
                    need_comma = true;
                }
            }
        }
    }

    /// The type of a typed container: a builtin type's name, `Variant` (none), a class name,
    /// or a script as `Resource("res://…")`; admitted as the binary decode admits it. Returns
    /// it and the token after it.
    fn container_type(&mut self) -> Result<(ContainerType, Tok<'a>, usize)> {
        let (tok, at) = self.token()?;
        let Tok::Ident(name) = tok else {
            return Err(self.syntax(
                at,
                format!("expected a type name, found {}", tok.describe()),
            ));
        };
        let (after, after_at) = self.token()?;
        if let (true, "SubResource" | "ExtResource", Tok::ParenOpen) =
            (self.resource_file, name, &after)
        {
            // One of the file's entries, by its id: kept as written.
            self.reference_id_in_parens()?;
            let written = self.src.get(at..self.pos).unwrap_or_default().to_owned();
            let (after, after_at) = self.token()?;
            return Ok((ContainerType::Class(written), after, after_at));
        }
        let (ty, after, after_at) =
            if let ("Resource" | "SubResource" | "ExtResource", Tok::ParenOpen) = (name, &after) {
                let (tok, p_at) = self.token()?;
                let Tok::Str(path) = tok else {
                    return Err(self.syntax(p_at, "expected a script path as a string"));
                };
                self.expect_close()?;
                // As in the binary decode: judged only where objects are read at all.
                if self.opts.allow_objects && !is_script_path(&path) {
                    return Err(self.fail(
                        p_at,
                        DecodeReason::BadContainerType(format!(
                            "script path {:?} is not a res:// path",
                            shown(&path)
                        )),
                    ));
                }
                let (after, after_at) = self.token()?;
                (ContainerType::Script(path), after, after_at)
            } else {
                let ty = match name.parse::<VariantType>() {
                    Ok(VariantType::Nil) => ContainerType::Untyped,
                    Ok(t) => ContainerType::Builtin(t),
                    Err(_) if name == "Variant" => ContainerType::Untyped,
                    Err(_) => ContainerType::Class(name.to_owned()),
                };
                (ty, after, after_at)
            };
        let ty = match ty {
            // A text resource's types are data, kept as written.
            ty if self.resource_file => ty,
            // Without objects, the binary decode holds every object type as the id form.
            ContainerType::Builtin(VariantType::Object)
            | ContainerType::Class(_)
            | ContainerType::Script(_)
                if !self.opts.allow_objects =>
            {
                ContainerType::Class(ENCODED_OBJECT_AS_ID.into())
            }
            ty => {
                if self.opts.allow_objects {
                    self.opts
                        .object_policy()
                        .check_container(&ty)
                        .map_err(|r| self.fail(at, r))?;
                }
                ty
            }
        };
        Ok((ty, after, after_at))
    }

    /// `Array[T]([…])`, after `Array` (at `at`).
    fn typed_array<B: TextBuild>(
        &mut self,
        b: &mut B,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        self.expect(|t| matches!(t, Tok::BracketOpen), "'[' after Array")?;
        let (element, after, after_at) = self.container_type()?;
        if !matches!(after, Tok::BracketClose) {
            return Err(self.syntax(
                after_at,
                format!("expected ']', found {}", after.describe()),
            ));
        }
        self.expect_open()?;
        let open = self.expect(|t| matches!(t, Tok::BracketOpen), "'['")?;
        let array = b.begin_array(element, 0, 0).map_err(|r| self.fail(at, r))?;
        let v = self.array_body(b, array, open, depth)?;
        self.expect_close()?;
        Ok(v)
    }

    /// `Dictionary[K, V]({…})`, after `Dictionary` (at `at`).
    fn typed_dictionary<B: TextBuild>(
        &mut self,
        b: &mut B,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        self.expect(|t| matches!(t, Tok::BracketOpen), "'[' after Dictionary")?;
        let (key, after, after_at) = self.container_type()?;
        if !matches!(after, Tok::Comma) {
            return Err(self.syntax(
                after_at,
                format!("expected ',', found {}", after.describe()),
            ));
        }
        let (value, after, after_at) = self.container_type()?;
        if !matches!(after, Tok::BracketClose) {
            return Err(self.syntax(
                after_at,
                format!("expected ']', found {}", after.describe()),
            ));
        }
        self.expect_open()?;
        let open = self.expect(|t| matches!(t, Tok::CurlyOpen), "'{'")?;
        let dict = b
            .begin_dictionary(key, value, 0, 0)
            .map_err(|r| self.fail(at, r))?;
        let v = self.dictionary_body(b, dict, open, depth)?;
        self.expect_close()?;
        Ok(v)
    }

    /// `Object(Class, "property": value, …)`, after `Object` (at `at`): an instance id for
    /// `EncodedObjectAsID`, else a full object that the options must admit, kept as data.
    fn object<B: TextBuild>(&mut self, b: &mut B, at: usize, depth: usize) -> Result<B::Value> {
        self.expect_open()?;
        let (tok, class_at) = self.token()?;
        let Tok::Ident(class) = tok else {
            return Err(self.syntax(class_at, "expected the object's class name"));
        };
        self.expect(|t| matches!(t, Tok::Comma), "',' after the class name")?;
        let is_id = class == ENCODED_OBJECT_AS_ID;
        if !is_id {
            if !self.opts.allow_objects {
                return Err(self.fail(at, DecodeReason::ObjectsNotAllowed));
            }
            self.opts
                .object_policy()
                .check_class(class)
                .map_err(|r| self.fail(class_at, r))?;
            b.check_class(class).map_err(|r| self.fail(class_at, r))?;
        }
        // Every property is read before anything is made, so that the policy sees the script
        // wherever it stands.
        let mut properties: Vec<(usize, String, Property<B::Value>)> = Vec::new();
        let mut script: Option<String> = None;
        let mut object_id: u64 = 0;
        let mut need_comma = false;
        loop {
            let (tok, t_at) = self.token()?;
            match tok {
                Tok::ParenClose => break,
                Tok::Comma if need_comma => need_comma = false,
                Tok::Str(name) if !need_comma => {
                    self.charge_elements(1, t_at)?;
                    self.expect(|t| matches!(t, Tok::Colon), "':' after a property name")?;
                    let (tok, v_at) = self.token()?;
                    let property = if name == "script" {
                        match self.script_property(tok, v_at)? {
                            Some(path) => {
                                script = Some(path.clone());
                                Property::Script(path)
                            }
                            None => Property::Value(b.nil()),
                        }
                    } else if is_id && name == "object_id" {
                        match tok.number().map(Number::to_i64) {
                            Some(Some(n)) => object_id = n as u64,
                            Some(None) => return Err(self.unfit(v_at, ENCODED_OBJECT_AS_ID, 64)),
                            None => {
                                return Err(self.syntax(v_at, "expected the object id as a number"))
                            }
                        }
                        Property::Value(b.nil())
                    } else if is_id {
                        return Err(self.syntax(
                            t_at,
                            format!("{ENCODED_OBJECT_AS_ID} has no property {:?}", shown(&name)),
                        ));
                    } else {
                        Property::Value(self.value(b, tok, v_at, depth + 1)?)
                    };
                    properties.push((t_at, name, property));
                    need_comma = true;
                }
                Tok::Eof => return Err(self.syntax(at, "an Object without its ')'")),
                tok => {
                    let what = if need_comma {
                        "',' or ')'"
                    } else {
                        "a property name as a string"
                    };
                    return Err(
                        self.syntax(t_at, format!("expected {what}, found {}", tok.describe()))
                    );
                }
            }
        }
        if is_id {
            if script.is_some() {
                return Err(self.syntax(at, format!("{ENCODED_OBJECT_AS_ID} with a script")));
            }
            return Ok(if object_id == 0 {
                b.null_object()
            } else {
                b.object_id(object_id)
            });
        }
        self.opts
            .object_policy()
            .check_object(class, script.as_deref())
            .map_err(|r| self.fail(at, r))?;
        let mut obj = b.begin_object(class).map_err(|r| self.fail(at, r))?;
        for (name_at, name, property) in properties {
            match property {
                Property::Script(path) => {
                    let v = b.string(&path);
                    b.set_script(&mut obj, v, &path)
                }
                Property::Value(v) => b.set_property(&mut obj, &name, v),
            }
            .map_err(|r| self.fail(name_at, r))?;
        }
        b.end_object(obj).map_err(|r| self.fail(at, r))
    }

    /// An object's `script` property (its value's first token `tok`, at `at`): `null`, or the
    /// script's `res://` path as `Resource("res://…")`. Never anything to load or run here.
    fn script_property(&mut self, tok: Tok<'a>, at: usize) -> Result<Option<String>> {
        let refuse = |p: &Self, why: &str| {
            p.fail(
                at,
                DecodeReason::Refused(format!("invalid \"script\" property: {why}")),
            )
        };
        match tok {
            Tok::Ident("null" | "nil") => Ok(None),
            Tok::Ident("Resource" | "ExtResource" | "SubResource") => {
                let (paths, _) = self.resource_paths()?;
                match paths {
                    Some(path) if is_script_path(&path) => {
                        self.charge_bytes(path.len(), at)?;
                        Ok(Some(path))
                    }
                    _ => Err(refuse(self, "not a res:// path")),
                }
            }
            _ => Err(refuse(self, "expected null or Resource(\"res://…\")")),
        }
    }

    /// A resource reference's arguments after its name: `("path")`, or a `uid://` and a path in
    /// either order. Returns the path (the uid when there is no other) and the uid.
    fn resource_paths(&mut self) -> Result<(Option<String>, Option<String>)> {
        self.expect_open()?;
        let (mut path, mut uid) = (None, None);
        loop {
            let (tok, at) = self.token()?;
            let Tok::Str(text) = tok else {
                return Err(self.syntax(
                    at,
                    format!("expected a path as a string, found {}", tok.describe()),
                ));
            };
            let slot = if text.starts_with("uid://") {
                &mut uid
            } else {
                &mut path
            };
            if slot.is_some() {
                return Err(self.syntax(at, "two paths of one kind in a resource reference"));
            }
            *slot = Some(text);
            let (tok, at) = self.token()?;
            match tok {
                Tok::ParenClose => break,
                Tok::Comma if path.is_none() || uid.is_none() => {}
                tok => {
                    return Err(self.syntax(at, format!("expected ')', found {}", tok.describe())))
                }
            }
        }
        Ok((path.or_else(|| uid.clone()), uid))
    }

    /// A text resource's reference to one of its entries after its name (at `at`):
    /// `ExtResource("1_ab")` (Godot 3: `ExtResource( 1 )`), kept as an object of class `name`
    /// holding the `id`, one level deeper as an object's properties are.
    fn reference<B: TextBuild>(
        &mut self,
        b: &mut B,
        name: &str,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        let id = self.reference_id()?;
        if depth + 1 > self.max_depth {
            return Err(self.fail(at, DecodeReason::TooDeep(self.max_depth)));
        }
        self.charge_elements(1, at)?;
        let mut obj = b.begin_object(name).map_err(|r| self.fail(at, r))?;
        let v = match id {
            RefId::Int(n) => b.int(n),
            RefId::Text(text) => {
                self.charge_bytes(text.len(), at)?;
                b.string(&text)
            }
        };
        b.set_property(&mut obj, "id", v)
            .map_err(|r| self.fail(at, r))?;
        b.end_object(obj).map_err(|r| self.fail(at, r))
    }

    /// A reference's `(id)`.
    fn reference_id(&mut self) -> Result<RefId> {
        self.expect_open()?;
        self.reference_id_in_parens()
    }

    /// A reference's `id)`, after its `(`.
    fn reference_id_in_parens(&mut self) -> Result<RefId> {
        let (tok, at) = self.token()?;
        let id = match tok {
            Tok::Int(n) => RefId::Int(n),
            Tok::Str(text) => RefId::Text(text),
            tok => return Err(self.syntax(at, format!("expected an id, found {}", tok.describe()))),
        };
        self.expect_close()?;
        Ok(id)
    }

    /// `Resource("res://…")` (or `ExtResource`, `SubResource`) as a value, after its name (at
    /// `at`): the engine loads the file; here it is an object of class `Resource` holding the
    /// path as its `resource_path`, when the options admit the class `Resource`. That object, at
    /// `depth`, holds its path one level deeper, as `Object(Resource,"resource_path":…)`, the
    /// text it writes, would: the limit of depth counts it so.
    fn resource<B: TextBuild>(
        &mut self,
        b: &mut B,
        name: &str,
        at: usize,
        depth: usize,
    ) -> Result<B::Value> {
        let (path, _) = self.resource_paths()?;
        let path = path.unwrap_or_default();
        if !self.opts.allow_objects {
            return Err(self.fail(at, DecodeReason::ObjectsNotAllowed));
        }
        if depth + 1 > self.max_depth {
            return Err(self.fail(at, DecodeReason::TooDeep(self.max_depth)));
        }
        const CLASS: &str = "Resource";
        self.opts
            .object_policy()
            .check_object(CLASS, None)
            .map_err(|_| {
                self.fail(
                    at,
                    DecodeReason::NotAllowed(format!(
                        "class {CLASS} (a resource loaded by path: {name}({path:?}))"
                    )),
                )
            })?;
        b.check_class(CLASS).map_err(|r| self.fail(at, r))?;
        self.charge_elements(1, at)?;
        self.charge_bytes(path.len(), at)?;
        let mut obj = b.begin_object(CLASS).map_err(|r| self.fail(at, r))?;
        let v = b.string(&path);
        b.set_property(&mut obj, "resource_path", v)
            .map_err(|r| self.fail(at, r))?;
        b.end_object(obj).map_err(|r| self.fail(at, r))
    }
}

/// The id of a text resource's reference: Godot 3's are ints, Godot 4's strings.
enum RefId {
    Int(i64),
    Text(String),
}

/// A property of an object being read.
enum Property<V> {
    Value(V),
    /// The `res://` path of its script.
    Script(String),
}

impl crate::Value {
    /// Reads Godot's text Variant format, what `var_to_str` writes (and `Display` of a
    /// [`crate::Value`]): the same value [`crate::decode`] gives from `var_to_bytes` of it, without
    /// making or loading anything.
    ///
    /// The grammar is Godot 4's `str_to_var`, which also reads Godot 3's names
    /// (`Vector2( 1, 2 )`, `Transform(…)`, `Quat(…)`, `PoolIntArray(…)`). From `opts` it takes
    /// what a binary decode takes: the precision of `real_t` components, the dialect's rules for
    /// typed containers and keys, the [`crate::options::Limits`], and the object policy.
    ///
    /// Godot's own `str_to_var` instantiates the classes the text names and loads the files it
    /// references (and so runs their scripts). Here `Object(Class, "p": v, …)` is refused unless
    /// [`crate::Options::allow_objects`] is on and [`crate::Options::allowed_objects`] admits
    /// the class and its script, and even then it stays data (a [`crate::value::Object`] whose
    /// `script` property holds the script's path). `Resource("res://…")`, `ExtResource(…)` and
    /// `SubResource(…)` are references the engine would load: admitted only as the class
    /// `Resource`, and kept as such an object holding the reference as its `resource_path`.
    /// `Object(EncodedObjectAsID, "object_id": n, …)` is [`crate::Value::ObjectId`], as in the
    /// binary format. `Callable()` and `Signal()` carry nothing, as in the engine's text.
    ///
    /// Typed containers are filled as the engine's reader fills them (its `assign`): elements,
    /// keys and values converted where Godot converts strictly. One that does not convert is
    /// refused with [`DecodeReason::DroppedElement`] (the engine logs an error and leaves the
    /// whole container empty).
    ///
    /// Stricter than the engine: only white space and `;` comments may follow the value (the
    /// engine ignores the rest), and a NUL character is refused.
    ///
    /// # Errors
    /// A [`crate::CodecError::Decode`] at the byte where the text went wrong:
    /// [`DecodeReason::BadText`] with the line and column for text that is not Godot's
    /// ([`crate::error::ErrorCode::ParseError`]); [`DecodeReason::ObjectsNotAllowed`] or
    /// [`DecodeReason::NotAllowed`] for an object or resource the options do not admit;
    /// [`DecodeReason::TooDeep`] or [`DecodeReason::Limit`] past the limits;
    /// [`DecodeReason::DroppedElement`] for an element that does not fit its typed container.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::{Options, Value};
    /// use fast_var_codec_core::error::ErrorCode;
    ///
    /// let opts = Options::default();
    /// let v = Value::from_godot_text("{\n\"hp\": 10,\n\"pos\": Vector2(1, 0.5)\n}", &opts)?;
    /// assert_eq!(v["hp"], Value::Int(10));
    /// assert_eq!(v["pos"], Value::vector2(1.0, 0.5));
    /// assert_eq!(Value::from_godot_text(&v.to_string(), &opts)?, v); // Display's text reads back
    ///
    /// // An object is not made, and without allow_objects not even read.
    /// let err = Value::from_godot_text("Object(Node,\"script\":Resource(\"res://evil.gd\"))", &opts);
    /// assert_eq!(err.unwrap_err().code(), ErrorCode::Unauthorized);
    ///
    /// let err = Value::from_godot_text("[1,\n 2", &opts).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::ParseError);
    /// assert!(err.to_string().contains("line 1, column 1"), "{err}");
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn from_godot_text(text: &str, opts: &Options) -> Result<crate::Value> {
        parse_with(text, opts, &mut super::ValueBuilder::default())
    }
}

/// [`crate::Value::from_godot_text`] with the default [`Options`] (Godot 4, single precision,
/// no objects): `"[1, 2]".parse::<Value>()`.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
///
/// let v: Value = "PackedInt32Array(1, 2, 3)".parse()?;
/// assert_eq!(v, Value::PackedInt32Array(vec![1, 2, 3]));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
impl std::str::FromStr for crate::Value {
    type Err = CodecError;

    fn from_str(text: &str) -> Result<crate::Value> {
        crate::Value::from_godot_text(text, &Options::default())
    }
}

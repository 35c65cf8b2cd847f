//! `fast-var-codec`: dump, check and convert Godot's binary Variant format (`var_to_bytes`,
//! `store_var`) and its ConfigFiles from the command line, with the `fast_var_codec_core` crate.
//!
//! Exit codes: 0 done (the input is valid), 1 the input is invalid or cannot be read or
//! written, 2 the command line is wrong.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod config;
mod dump;
mod input;
mod output;
mod secret;
mod tree;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use bytes::BytesMut;
use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use fast_var_codec_core::options::{Limits, Precision};
use fast_var_codec_core::stream::ByteOrder;
use fast_var_codec_core::transcode::{transcode_bare_into_frame, transcode_into};
use fast_var_codec_core::{encode_into, json, stream, Dialect, Options, Value};

use fast_var_codec_core::save::{self, ConfigFile, FileKey, TextResource};

use crate::input::{resolve, Framing, Resolved};
use crate::output::{CompressArg, Container};
use crate::secret::{OutSecretArgs, SecretArgs};

/// Why a command failed.
#[derive(Debug)]
pub enum Fail {
    /// The input is invalid or unreadable, an output unwritable: exit code 1.
    Invalid(String),
    /// The command line asks for something impossible: exit code 2.
    Usage(String),
    /// Writing the output failed (a closed pipe ends quietly).
    Io(io::Error),
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        Fail::Io(e)
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "fast-var-codec",
    version,
    about = "Dump, check and convert Godot's binary Variant format (var_to_bytes, store_var files).",
    long_about = "Dump, check and convert Godot's binary Variant format: the bytes of \
var_to_bytes / var2bytes (raw: one value) and of FileAccess.store_var / StreamPeer.put_var \
(framed: a u32 length, then the value, repeated), in the Godot 4, Godot 4.3, Godot 4.0-4.2, \
Godot 3 and Pandemonium dialects.\n\n\
Exit codes: 0 done (the input is valid), 1 the input is invalid or cannot be read or written, \
2 the command line is wrong."
)]
struct Cli {
    /// Write nothing to stderr but errors (no notes on guesses or unread bytes).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show every value with its byte offset, type and contents.
    #[command(
        long_about = "Show every value with its byte offset, type and contents: one line \
per value, indented by nesting, `offset: type: value` (long strings and packed arrays \
abbreviated unless --full). Offsets count from the start of the input (of the payload for a \
compressed or encrypted file (Godot 3's or Godot 4's), which is opened as its magic says). The values are shown as written; where Godot's decode changes \
one (a typed container converts or drops elements, equal keys merge) a note says so.\n\n\
--json writes one JSON document instead: {\"dialect\", \"framing\", \"size\", \"values\": \
[{\"frame\": {\"offset\", \"length\"} (framed only), \"value\": V, \"written\": V (only where \
Godot's decode changes the value: as the bytes hold it), \"layout\": L, \"unread\": N (bytes \
after the value)}]}. V is a value as to-json writes it (the core's JSON projection: 5, \
{\"$Vector2\": [1, 2]} ...). L says where the value and each value inside it lie: {\"offset\", \
\"size\", \"type\", \"value\": V} for a value holding no other, {\"offset\", \"size\", \"type\", \
\"items\": [L]} for an Array, \"entries\": [[L, L]] for a Dictionary, \"class\" and \
\"properties\": [[name, L]] for an Object; \"type\" is the text form's (\"int\", \"Array[int]\", \
\"PackedByteArray\")."
    )]
    Dump(DumpArgs),
    /// Transcode from one dialect to another, bytes to bytes.
    #[command(
        long_about = "Transcode every value of IN from one dialect to another into OUT, framed \
or raw as IN is: bytes to bytes, without building the values, and byte for byte what decoding \
then encoding gives (Godot's conversions in typed containers, merged keys, zeroed padding). \
Values one dialect has and the other has not are refused unless --allow-lossy converts them to \
their closest form. Errors name the value and the byte offset of what failed."
    )]
    Convert(ConvertArgs),
    /// Check that a file decodes, within limits.
    #[command(
        long_about = "Check that every value of the input decodes, as the engine's \
decoder would, within the given limits. Prints a one-line summary and exits 0 when valid; \
prints a one-line reason on stderr and exits 1 otherwise. Bytes after a raw value are \
ignored, as bytes_to_var ignores them (a note says how many)."
    )]
    Check(CheckArgs),
    /// Write the values as JSON: the core's lossless projection.
    #[command(
        long_about = "Write the values of IN as JSON, the core's lossless projection \
(fast_var_codec_core::json, docs/rust.md): JSON's own types where they say the same thing (null, \
bools, strings, ints as integral numbers, floats with a fraction, Arrays, Dictionaries of String \
keys as objects) and one-key tagged objects for the rest ({\"$Vector2\": [1, 2]}, \
{\"$float\": 2}, {\"$int\": \"9007199254740993\"}, {\"$Dictionary\": [[key, value]]} ...). \
A raw input is one JSON value; a framed one an array of its values, one per frame. from-json \
reads it back to the same values, so to the same bytes."
    )]
    ToJson(ToJsonArgs),
    /// Read JSON (the projection to-json writes) and write its value(s) as bytes.
    #[command(
        long_about = "Read the JSON of IN (the projection to-json writes, or any JSON: plain \
JSON reads as plain values) and write it as var_to_bytes does to OUT, in the dialect of --to; \
with --framed the JSON is an array and each of its items is written as store_var writes it (a \
length, then the value). Errors name the place in the JSON ($.enemies[2].$Vector2) or the value \
that cannot be written."
    )]
    FromJson(FromJsonArgs),
}

/// Where the values are and how they are laid out.
#[derive(Args, Debug)]
struct InputArgs {
    /// store_var / put_var framing: a u32 length before each value, repeated.
    /// Neither --framed nor --raw: guessed (framed if the whole input splits into frames).
    #[arg(long, conflicts_with = "raw")]
    framed: bool,
    /// One value, as var_to_bytes writes it.
    #[arg(long)]
    raw: bool,
    /// Byte order of the framing's length prefixes (FileAccess.big_endian); values are always
    /// little-endian.
    #[arg(long, value_enum, default_value_t = ByteOrderArg::Little)]
    byte_order: ByteOrderArg,
    /// Decode full objects (bytes_to_var_with_objects / get_var(true)); refused otherwise.
    #[arg(long)]
    allow_objects: bool,
    #[command(flatten)]
    secret: SecretArgs,
    /// The largest payload a compressed or encrypted file may announce, in bytes: nothing
    /// larger is inflated or decrypted.
    #[arg(long, value_name = "BYTES", default_value_t = fast_var_codec_core::save::DEFAULT_MAX_PAYLOAD)]
    max_payload: usize,
    /// The input is one value's packet compressed with PackedByteArray.compress(MODE)
    /// (var_to_bytes(v).compress(MODE)): decompressed to at most --max-payload bytes, then read
    /// as --raw.
    #[arg(long, value_enum, value_name = "MODE", conflicts_with = "framed")]
    packet: Option<CompressArg>,
    /// What the input holds: values (var), a ConfigFile's text (config), plain or encrypted, or
    /// a text resource (resource); auto: a ConfigFile for a .cfg file, a text resource for a
    /// .tres file.
    #[arg(long, value_enum, default_value_t = config::FormatArg::Auto)]
    format: config::FormatArg,
}

impl InputArgs {
    fn framing(&self) -> Option<Framing> {
        match (self.framed, self.raw || self.packet.is_some()) {
            (true, _) => Some(Framing::Framed),
            (_, true) => Some(Framing::Raw),
            _ => None,
        }
    }
}

#[derive(Args, Debug)]
struct DumpArgs {
    /// The dialect; auto: try each, prefer one that decodes the whole input (a guess, said
    /// so on stderr).
    #[arg(long, value_enum, default_value_t = DialectArg::AUTO)]
    dialect: DialectArg,
    /// real_t of the engine that wrote the bytes (the 64-bit flag of each value decides how
    /// it is read; this decides how Godot converts typed-container elements).
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// Write JSON for programs instead of text.
    #[arg(long)]
    json: bool,
    /// Show long strings and packed arrays whole.
    #[arg(long)]
    full: bool,
    #[command(flatten)]
    input: InputArgs,
    /// The file to read; - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// The dialect IN is in; auto (the default): detected by the core, the guess said on
    /// stderr.
    #[arg(long, visible_alias = "dialect", value_enum, default_value_t = DialectArg::AUTO)]
    from: DialectArg,
    /// The dialect to write.
    #[arg(long, value_enum)]
    to: OutDialectArg,
    /// real_t of both engines (double: binary64 reals, Godot 4 only).
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// Convert values the target dialect lacks to their closest form instead of refusing.
    #[arg(long)]
    allow_lossy: bool,
    /// Write OUT as a compressed file (open_compressed) of this compression.
    #[arg(long, value_enum, value_name = "MODE", conflicts_with = "encrypt")]
    compress: Option<CompressArg>,
    /// Write OUT as an encrypted file (open_encrypted_with_pass / open_encrypted, in the
    /// container of --to's engine), with the --out- password or key, else with the input's.
    #[arg(long)]
    encrypt: bool,
    #[command(flatten)]
    out_secret: OutSecretArgs,
    #[command(flatten)]
    input: InputArgs,
    /// The file to read; - for standard input.
    #[arg(value_name = "IN")]
    input_file: String,
    /// The file to write; - for standard output.
    #[arg(value_name = "OUT")]
    output_file: String,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The dialect; auto: valid if any dialect decodes it (the guess is said on stderr).
    #[arg(long, value_enum, default_value_t = DialectArg::AUTO)]
    dialect: DialectArg,
    /// real_t of the engine that is to read the bytes.
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// Deepest nesting allowed (the engine's 1024 at most).
    #[arg(long, value_name = "N")]
    max_depth: Option<usize>,
    /// Most bytes of strings and packed arrays one value may hold.
    #[arg(long, value_name = "N")]
    max_bytes: Option<usize>,
    /// Most container elements (items, entries, properties, NodePath parts) one value may hold.
    #[arg(long, value_name = "N")]
    max_elements: Option<usize>,
    #[command(flatten)]
    input: InputArgs,
    /// The file to read; - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
}

#[derive(Args, Debug)]
struct ToJsonArgs {
    /// The dialect IN is in (auto: guessed, said so on stderr).
    #[arg(long, value_enum, default_value_t = DialectArg::AUTO)]
    dialect: DialectArg,
    /// real_t of the engine that wrote the bytes.
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// One line, no spaces (indented by default).
    #[arg(long)]
    compact: bool,
    #[command(flatten)]
    input: InputArgs,
    /// The file to read; - for standard input.
    #[arg(value_name = "IN")]
    input_file: String,
    /// The file to write; - (the default) for standard output.
    #[arg(value_name = "OUT", default_value = "-")]
    output_file: String,
}

#[derive(Args, Debug)]
struct FromJsonArgs {
    /// The dialect to write (needed but for a text resource, written in the engine its header
    /// names).
    #[arg(long, value_enum)]
    to: Option<OutDialectArg>,
    /// real_t of the engine that is to read the bytes (double: Godot 4 only).
    #[arg(long, value_enum, default_value_t = PrecisionArg::Single)]
    precision: PrecisionArg,
    /// Convert values the dialect lacks to their closest form instead of refusing.
    #[arg(long)]
    allow_lossy: bool,
    /// Write full objects (var_to_bytes_with_objects / store_var(v, true)).
    #[arg(long)]
    allow_objects: bool,
    /// The JSON is an array: write each item as store_var does (a u32 length, then the value).
    #[arg(long)]
    framed: bool,
    /// Write the value as a packet compressed with PackedByteArray.compress(MODE), which
    /// bytes_to_var(packet.decompress_dynamic(max_size, MODE)) reads (decompress(size, MODE) for
    /// FastLZ and Zstd).
    #[arg(long, value_enum, value_name = "MODE", conflicts_with = "framed")]
    packet: Option<CompressArg>,
    /// Byte order of the framing's length prefixes (FileAccess.big_endian).
    #[arg(long, value_enum, default_value_t = ByteOrderArg::Little, requires = "framed")]
    byte_order: ByteOrderArg,
    /// What to write: values (var), a ConfigFile (config: the JSON is an object of sections,
    /// each an object of keys, as to-json writes a ConfigFile), or a text resource (resource:
    /// the JSON is an array of sections, as to-json writes a .tres); auto: a ConfigFile for a
    /// .cfg file, a text resource for a .tres file.
    #[arg(long, value_enum, default_value_t = config::FormatArg::Auto)]
    format: config::FormatArg,
    /// The JSON file to read; - for standard input.
    #[arg(value_name = "IN")]
    input_file: String,
    /// The file to write; - for standard output.
    #[arg(value_name = "OUT")]
    output_file: String,
}

/// A dialect to read: one of the core's ([`Dialect::ALL`], by [`Dialect::short_name`]), or
/// `auto` (`None`): the dialect the input's records tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DialectArg(Option<Dialect>);

impl DialectArg {
    const AUTO: DialectArg = DialectArg(None);

    /// The dialect this names; `None` for auto.
    fn dialect(self) -> Option<Dialect> {
        self.0
    }
}

impl ValueEnum for DialectArg {
    fn value_variants<'a>() -> &'a [Self] {
        static CHOICES: OnceLock<Vec<DialectArg>> = OnceLock::new();
        CHOICES.get_or_init(|| {
            let named = Dialect::ALL.into_iter().map(|d| DialectArg(Some(d)));
            named.chain([DialectArg::AUTO]).collect()
        })
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self.0 {
            Some(d) => dialect_choice(d),
            None => PossibleValue::new("auto").help("Detected from the input"),
        })
    }
}

/// A dialect to write: one of the core's (nothing to detect in an output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OutDialectArg(Dialect);

impl OutDialectArg {
    /// The dialect this names.
    fn dialect(self) -> Dialect {
        self.0
    }
}

impl ValueEnum for OutDialectArg {
    fn value_variants<'a>() -> &'a [Self] {
        static CHOICES: OnceLock<Vec<OutDialectArg>> = OnceLock::new();
        CHOICES.get_or_init(|| Dialect::ALL.into_iter().map(OutDialectArg).collect())
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(dialect_choice(self.0))
    }
}

/// A dialect as a command-line choice: its short name, and the engines that speak it.
fn dialect_choice(d: Dialect) -> PossibleValue {
    PossibleValue::new(d.short_name()).help(d.engines())
}

/// The command-line name of a dialect.
pub fn dialect_name(d: Dialect) -> &'static str {
    d.short_name()
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum PrecisionArg {
    Single,
    Double,
}

impl PrecisionArg {
    fn precision(self) -> Precision {
        match self {
            PrecisionArg::Single => Precision::Single,
            PrecisionArg::Double => Precision::Double,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum ByteOrderArg {
    Little,
    Big,
}

impl ByteOrderArg {
    fn order(self) -> ByteOrder {
        match self {
            ByteOrderArg::Little => ByteOrder::Little,
            ByteOrderArg::Big => ByteOrder::Big,
        }
    }
}

/// Set by --quiet: notes are not written.
static QUIET: AtomicBool = AtomicBool::new(false);

/// A note on stderr, unless --quiet (nothing to do if stderr is gone).
fn note(msg: &str) {
    if !QUIET.load(Ordering::Relaxed) {
        say(msg);
    }
}

/// A line on stderr, --quiet or not: errors.
fn say(msg: &str) {
    let _ = writeln!(io::stderr().lock(), "{msg}");
}

/// Tells on stderr what was guessed.
fn tell_guesses(r: &Resolved) {
    let d = &r.decoded;
    if let Some(also) = &r.dialect_guess {
        let others = if also.is_empty() {
            "no other dialect fits".to_string()
        } else {
            format!(
                "also fits: {}",
                also.iter()
                    .map(|d| dialect_name(*d))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        note(&format!(
            "note: dialect guessed: {} ({others}); pass --dialect to choose",
            dialect_name(d.dialect)
        ));
    }
    if r.framing_guessed {
        let how = match d.framing {
            Framing::Framed => format!(
                "framed ({} length-prefixed value{}, as store_var writes them)",
                d.items.len(),
                if d.items.len() == 1 { "" } else { "s" }
            ),
            Framing::Raw => "raw (one value, as var_to_bytes writes it)".to_string(),
        };
        note(&format!(
            "note: framing guessed: {how}; pass --framed or --raw to choose"
        ));
    }
}

fn base_options(precision: PrecisionArg, input: &InputArgs) -> Options {
    Options::default()
        .with_precision(precision.precision())
        .with_allow_objects(input.allow_objects)
}

/// Reads and decodes the input of a command.
fn load(
    file: &str,
    input: &InputArgs,
    dialect: DialectArg,
    opts: &Options,
    key: Option<&FileKey>,
) -> Result<(Vec<u8>, Resolved), Fail> {
    let mut bytes = input::read_input(file, key, dialect.dialect(), input.max_payload)?;
    if let Some(mode) = input.packet {
        bytes = save::decompress(&bytes, mode.compression()?, input.max_payload)
            .map_err(|e| Fail::Invalid(format!("{file}: {e} (--packet, --max-payload)")))?;
    }
    let resolved = resolve(
        &bytes,
        dialect.dialect(),
        input.framing(),
        input.byte_order.order(),
        opts,
    )?;
    tell_guesses(&resolved);
    Ok((bytes, resolved))
}

fn run_dump(args: &DumpArgs, out: &mut dyn Write) -> Result<(), Fail> {
    let text_file = if args.input.format.is_config(&args.file) {
        Some("a ConfigFile")
    } else if args.input.format.is_resource(&args.file) {
        Some("a text resource")
    } else {
        None
    };
    if let Some(what) = text_file {
        return Err(Fail::Usage(format!(
            "dump shows the bytes of values; {} is {what}, whose text to-json shows as JSON (or pass --format var)",
            args.file
        )));
    }
    let opts = base_options(args.precision, &args.input);
    let (bytes, resolved) = load(
        &args.file,
        &args.input,
        args.dialect,
        &opts,
        args.input.secret.key()?.as_ref(),
    )?;
    let mut opts = opts;
    opts.dialect = resolved.decoded.dialect;
    let dump = dump::Dump {
        bytes: &bytes,
        resolved: &resolved,
        opts: &opts,
        full: args.full,
    };
    if args.json {
        dump.json(out)
    } else {
        dump.text(out)
    }
}

fn run_check(args: &CheckArgs, out: &mut dyn Write) -> Result<(), Fail> {
    let defaults = Limits::default();
    let limits = Limits {
        max_depth: args.max_depth.unwrap_or(defaults.max_depth),
        max_bytes: args.max_bytes.unwrap_or(defaults.max_bytes),
        max_elements: args.max_elements.unwrap_or(defaults.max_elements),
    };
    let opts = base_options(args.precision, &args.input).with_limits(limits);
    if args.input.format.is_config(&args.file) {
        let cfg = config::read(
            &args.file,
            args.input.secret.key()?.as_ref(),
            args.dialect.dialect(),
            args.input.max_payload,
            &opts,
        )?;
        let keys = cfg.iter().count();
        writeln!(
            out,
            "valid: ConfigFile, {} section(s), {keys} key(s)",
            cfg.sections().count()
        )?;
        return Ok(());
    }
    if args.input.format.is_resource(&args.file) {
        let res = config::read_resource(&args.file, args.input.max_payload, &opts)?;
        let properties: usize = res.sections().iter().map(|s| s.properties().count()).sum();
        writeln!(
            out,
            "valid: text resource, {} section(s), {properties} propert{}",
            res.sections().len(),
            if properties == 1 { "y" } else { "ies" }
        )?;
        return Ok(());
    }
    let (bytes, resolved) = load(
        &args.file,
        &args.input,
        args.dialect,
        &opts,
        args.input.secret.key()?.as_ref(),
    )?;
    let d = &resolved.decoded;
    let unread: usize = d.items.iter().map(|i| i.unread()).sum();
    if unread > 0 {
        let what = match d.framing {
            Framing::Framed => "left unread inside frames",
            Framing::Raw => "after the value, ignored as bytes_to_var ignores them",
        };
        note(&format!("note: {unread} byte(s) {what}"));
    }
    let n = d.items.len();
    writeln!(
        out,
        "valid: {n} value{}, {} bytes ({}, {})",
        if n == 1 { "" } else { "s" },
        bytes.len(),
        dialect_name(d.dialect),
        d.framing.name()
    )?;
    Ok(())
}

fn run_convert(args: &ConvertArgs, out: &mut dyn Write) -> Result<(), Fail> {
    let to = args.to.dialect();
    let in_key = args.input.secret.key()?;
    let container = if let Some(c) = args.compress {
        Container::Compressed(c)
    } else if args.encrypt {
        match (args.out_secret.key()?, in_key.clone()) {
            (Some(k), _) | (None, Some(k)) => Container::Encrypted(k),
            (None, None) => {
                return Err(Fail::Usage(
                    "--encrypt needs a password or key: --password-env, --password-file, --key-file (or their --out- forms) ...".into(),
                ))
            }
        }
    } else {
        Container::Plain
    };
    let opts = base_options(args.precision, &args.input);
    if args.input.format.is_resource(&args.input_file) {
        let res = config::read_resource(&args.input_file, args.input.max_payload, &opts)?;
        let res = match (res.is_godot3(), to) {
            (_, Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2) => res
                .to_godot4()
                .map_err(|e| Fail::Invalid(format!("{}: {e}", args.input_file)))?,
            (true, Dialect::Godot3) => res,
            _ => {
                return Err(Fail::Usage(format!(
                "a text resource converts from Godot 3 to Godot 4 only; {} is not written in {}",
                args.input_file,
                dialect_name(to)
            )))
            }
        };
        if !matches!(container, Container::Plain) {
            return Err(Fail::Usage(
                "a text resource is written plain, never compressed or encrypted".into(),
            ));
        }
        return write_output(&args.output_file, res.to_text().as_bytes(), out);
    }
    if args.input.format.is_config(&args.input_file) {
        let cfg = config::read(
            &args.input_file,
            in_key.as_ref(),
            args.from.dialect(),
            args.input.max_payload,
            &opts,
        )?;
        let key = match container {
            Container::Plain => None,
            Container::Encrypted(k) => Some(k),
            Container::Compressed(_) => {
                return Err(Fail::Usage(
                    "a ConfigFile is written plain or encrypted, never compressed".into(),
                ))
            }
        };
        let file = config::write(&cfg, to, key.as_ref())?;
        return write_output(&args.output_file, &file, out);
    }
    let (bytes, resolved) = load(
        &args.input_file,
        &args.input,
        args.from,
        &opts,
        in_key.as_ref(),
    )?;
    let d = &resolved.decoded;
    let mut from_opts = opts.clone();
    from_opts.dialect = d.dialect;
    let out_opts = Options::new(to)
        .with_precision(args.precision.precision())
        .with_allow_lossy(args.allow_lossy)
        .with_allow_objects(args.input.allow_objects)
        .with_full_objects(args.input.allow_objects);
    let order = args.input.byte_order.order();
    // Bytes to bytes (fast_var_codec_core::transcode), value by value, from the bytes each
    // value may take: its frame, or the rest of a raw input.
    let mut encoded = BytesMut::new();
    for (i, item) in d.items.iter().enumerate() {
        let end = item.start.saturating_add(item.available).min(bytes.len());
        let input = bytes.get(item.start..end).unwrap_or_default();
        let res = match d.framing {
            Framing::Framed => {
                transcode_bare_into_frame(input, &from_opts, &out_opts, order, &mut encoded)
            }
            Framing::Raw => transcode_into(input, &from_opts, &out_opts, &mut encoded),
        };
        res.map_err(|e| {
            Fail::Invalid(format!(
                "value {i} (at byte {}) cannot be written in {}: {}",
                item.start,
                dialect_name(to),
                e.shifted(item.start)
            ))
        })?;
        if item.unread() > 0 {
            note(&format!(
                "note: value {i}: {} byte(s) after it not converted",
                item.unread()
            ));
        }
    }
    let file = output::wrap(encoded.to_vec(), container, to)?;
    write_output(&args.output_file, &file, out)
}

/// Writes `bytes` to `file` (`-`: `out`).
fn write_output(file: &str, bytes: &[u8], out: &mut dyn Write) -> Result<(), Fail> {
    if file == "-" {
        out.write_all(bytes)?;
        Ok(())
    } else {
        std::fs::write(file, bytes).map_err(|e| Fail::Invalid(format!("cannot write {file}: {e}")))
    }
}

fn run_to_json(args: &ToJsonArgs, out: &mut dyn Write) -> Result<(), Fail> {
    let opts = base_options(args.precision, &args.input);
    let text_file = args.input.format.is_resource(&args.input_file)
        || args.input.format.is_config(&args.input_file);
    if args.input.packet.is_some() && text_file {
        return Err(Fail::Usage(
            "--packet reads one value; a ConfigFile or text resource is a text file".into(),
        ));
    }
    let value = if args.input.format.is_config(&args.input_file) {
        config::read(
            &args.input_file,
            args.input.secret.key()?.as_ref(),
            args.dialect.dialect(),
            args.input.max_payload,
            &opts,
        )?
        .to_value()
    } else if args.input.format.is_resource(&args.input_file) {
        config::read_resource(&args.input_file, args.input.max_payload, &opts)?.to_value()
    } else {
        values_of(args, &opts)?
    };
    let mut text = if args.compact {
        json::to_json(&value)
    } else {
        json::to_json_pretty(&value)
    };
    text.push('\n');
    write_output(&args.output_file, text.as_bytes(), out)
}

/// The values of to-json's input: the one value of a raw input, an Array of a framed one's.
fn values_of(args: &ToJsonArgs, opts: &Options) -> Result<Value, Fail> {
    let (_, resolved) = load(
        &args.input_file,
        &args.input,
        args.dialect,
        opts,
        args.input.secret.key()?.as_ref(),
    )?;
    let d = resolved.decoded;
    Ok(match d.framing {
        Framing::Raw => d
            .items
            .into_iter()
            .next()
            .map(|i| i.value)
            .unwrap_or_default(),
        Framing::Framed => Value::array(d.items.into_iter().map(|i| i.value).collect()),
    })
}

/// The text of `file` (`-`: standard input).
fn read_text_input(file: &str) -> Result<String, Fail> {
    if file == "-" {
        io::read_to_string(io::stdin().lock())
            .map_err(|e| Fail::Invalid(format!("cannot read standard input: {e}")))
    } else {
        std::fs::read_to_string(file).map_err(|e| Fail::Invalid(format!("cannot read {file}: {e}")))
    }
}

fn run_from_json(args: &FromJsonArgs, out: &mut dyn Write) -> Result<(), Fail> {
    let text_file =
        args.format.is_resource(&args.output_file) || args.format.is_config(&args.output_file);
    if args.packet.is_some() && text_file {
        return Err(Fail::Usage(
            "--packet writes one value; a ConfigFile or text resource is a text file".into(),
        ));
    }
    if args.format.is_resource(&args.output_file) {
        let value = json::from_json(&read_text_input(&args.input_file)?)
            .map_err(|e| Fail::Invalid(e.to_string()))?;
        let res = TextResource::from_value(&value).map_err(|e| Fail::Invalid(e.to_string()))?;
        let res = match args.to.map(OutDialectArg::dialect) {
            None => res,
            Some(Dialect::Godot3) if res.is_godot3() => res,
            Some(Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2) => {
                res.to_godot4().map_err(|e| Fail::Invalid(e.to_string()))?
            }
            Some(to) => {
                return Err(Fail::Usage(format!(
                    "a text resource is written in its own engine's text or converted from Godot 3 to Godot 4, not to {}",
                    dialect_name(to)
                )))
            }
        };
        return write_output(&args.output_file, res.to_text().as_bytes(), out);
    }
    let to = args
        .to
        .ok_or_else(|| Fail::Usage("--to is needed: the dialect to write".into()))?
        .dialect();
    let opts = Options::new(to)
        .with_precision(args.precision.precision())
        .with_allow_lossy(args.allow_lossy)
        .with_allow_objects(args.allow_objects)
        .with_full_objects(args.allow_objects);
    opts.check()
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", dialect_name(to))))?;
    let value = json::from_json(&read_text_input(&args.input_file)?)
        .map_err(|e| Fail::Invalid(e.to_string()))?;
    if args.format.is_config(&args.output_file) {
        let cfg = ConfigFile::from_value(&value).map_err(|e| Fail::Invalid(e.to_string()))?;
        return write_output(&args.output_file, &config::write(&cfg, to, None)?, out);
    }
    let mut encoded = BytesMut::new();
    if args.framed {
        let items = match value {
            Value::Array(mut a) if a.element.is_untyped() => std::mem::take(&mut a.items),
            _ => {
                return Err(Fail::Invalid(
                    "--framed writes the items of a JSON array, one frame each: the JSON is not an array".into(),
                ))
            }
        };
        let order = args.byte_order.order();
        for (i, item) in items.iter().enumerate() {
            stream::frame(item, &opts, order, &mut encoded).map_err(|e| {
                Fail::Invalid(format!(
                    "item {i} cannot be written in {}: {e}",
                    dialect_name(to)
                ))
            })?;
        }
    } else {
        encode_into(&value, &opts, &mut encoded).map_err(|e| {
            Fail::Invalid(format!("cannot be written in {}: {e}", dialect_name(to)))
        })?;
        if let Some(mode) = args.packet {
            let packet = save::compress(&encoded, mode.compression()?)
                .map_err(|e| Fail::Invalid(format!("cannot compress the value: {e}")))?;
            return write_output(&args.output_file, &packet, out);
        }
    }
    write_output(&args.output_file, &encoded, out)
}

fn run(cli: &Cli) -> Result<(), Fail> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match &cli.command {
        Command::Dump(a) => run_dump(a, &mut out)?,
        Command::Check(a) => run_check(a, &mut out)?,
        Command::Convert(a) => run_convert(a, &mut out)?,
        Command::ToJson(a) => run_to_json(a, &mut out)?,
        Command::FromJson(a) => run_from_json(a, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

fn exit_code(res: Result<(), Fail>) -> ExitCode {
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Invalid(msg)) => {
            say(&format!("error: {msg}"));
            ExitCode::from(1)
        }
        Err(Fail::Usage(msg)) => {
            say(&format!("error: {msg}"));
            ExitCode::from(2)
        }
        // The reader of the output went away (`| head`): nothing more to say.
        Err(Fail::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Fail::Io(e)) => {
            say(&format!("error: cannot write the output: {e}"));
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version exit 0, usage errors 2.
        Err(e) => e.exit(),
    };
    QUIET.store(cli.quiet, Ordering::Relaxed);
    // Values nest 1024 levels deep (the engine's limit), and the decoder, the dump and the
    // JSON writer each recurse once per level: a thread with room for that.
    let worker = std::thread::Builder::new()
        .name("fast-var-codec".into())
        .stack_size(256 << 20)
        .spawn(move || run(&cli));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(res) => exit_code(res),
            Err(_) => {
                say("error: internal error (a bug: please report it with the input)");
                ExitCode::from(1)
            }
        },
        Err(e) => {
            say(&format!("error: cannot start the worker thread: {e}"));
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;
    use fast_var_codec_core::Dialect;

    use super::{DialectArg, OutDialectArg};

    /// Every `--dialect` value but `auto` is a core dialect's short name, and every core
    /// dialect has one.
    #[test]
    fn dialect_choices_are_the_core_dialects() {
        let named: Vec<Dialect> = DialectArg::value_variants()
            .iter()
            .filter_map(|a| a.dialect())
            .collect();
        assert_eq!(named, Dialect::ALL);
        let names: Vec<String> = DialectArg::value_variants()
            .iter()
            .filter_map(|a| a.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        let mut expected: Vec<String> = Dialect::ALL.map(|d| d.short_name().to_string()).into();
        expected.push("auto".into());
        assert_eq!(names, expected);
        let written: Vec<Dialect> = OutDialectArg::value_variants()
            .iter()
            .map(|a| a.dialect())
            .collect();
        assert_eq!(written, Dialect::ALL);
    }
}

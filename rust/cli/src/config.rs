//! Godot's text files on the command line: `to-json`, `from-json`, `convert` and `check` read and
//! write a ConfigFile (`.cfg`) with the core's `save::ConfigFile`, plain or in either engine's
//! encrypted container, Godot 3's or Godot 4's; `to-json`, `from-json` and `check` a text resource
//! (`.tres`) with `save::TextResource`; never making an object their values name or loading a
//! file they refer to.

use clap::ValueEnum;
use fast_var_codec_core::save::{ConfigFile, FileKey, TextResource};
use fast_var_codec_core::{Dialect, Options};

use crate::{dialect_name, input, Fail};

/// What a file holds.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FormatArg {
    /// A ConfigFile for a `.cfg` file, store_var / var_to_bytes values otherwise.
    #[default]
    Auto,
    /// store_var / var_to_bytes values.
    Var,
    /// A ConfigFile's text (ConfigFile.save, save_encrypted_pass).
    Config,
    /// A text resource (.tres: ResourceSaver.save).
    Resource,
}

impl FormatArg {
    /// Whether the file at `path` is taken for a ConfigFile.
    pub fn is_config(self, path: &str) -> bool {
        match self {
            FormatArg::Auto => path.to_ascii_lowercase().ends_with(".cfg"),
            FormatArg::Config => true,
            FormatArg::Var | FormatArg::Resource => false,
        }
    }

    /// Whether the file at `path` is taken for a text resource.
    pub fn is_resource(self, path: &str) -> bool {
        match self {
            FormatArg::Auto => path.to_ascii_lowercase().ends_with(".tres"),
            FormatArg::Resource => true,
            FormatArg::Var | FormatArg::Config => false,
        }
    }
}

/// Reads the ConfigFile at `path` (`-`: standard input), decrypting it with `key` (asked for on
/// a terminal when it is encrypted and none was given), its text read in `dialect`'s grammar
/// (Godot 4's when none is given: Godot 3's ends a section's name at its first `]`).
pub fn read(
    path: &str,
    key: Option<&FileKey>,
    dialect: Option<Dialect>,
    max_payload: usize,
    opts: &Options,
) -> Result<ConfigFile, Fail> {
    let text = input::read_input(path, key, None, max_payload)?;
    let mut opts = opts.clone();
    opts.dialect = dialect.unwrap_or(Dialect::Godot4);
    ConfigFile::from_file(&text, None, &opts)
        .map_err(|e| Fail::Invalid(format!("{path} is not a ConfigFile that reads: {e}")))
}

/// The file of `cfg` as the engine of `dialect` saves it: plain, or encrypted with `key` as
/// `save_encrypted_pass` / `save_encrypted` writes it.
pub fn write(cfg: &ConfigFile, dialect: Dialect, key: Option<&FileKey>) -> Result<Vec<u8>, Fail> {
    cfg.to_file(dialect, key).map_err(|e| {
        Fail::Usage(format!(
            "cannot write a ConfigFile in {}: {e}",
            dialect_name(dialect)
        ))
    })
}

/// Reads the text resource at `path` (`-`: standard input).
pub fn read_resource(path: &str, max_payload: usize, opts: &Options) -> Result<TextResource, Fail> {
    let bytes = input::read_input(path, None, None, max_payload)?;
    TextResource::from_bytes(&bytes, opts)
        .map_err(|e| Fail::Invalid(format!("{path} is not a text resource that reads: {e}")))
}

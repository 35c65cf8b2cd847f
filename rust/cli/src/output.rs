//! Writing an output: as it is, or in the container a game opens it with (a compressed file of
//! `open_compressed`, an encrypted one of `open_encrypted(_with_pass)`), made by the core's
//! `save` module.

use clap::ValueEnum;
use fast_var_codec_core::save::{compress_block, store, Compression, StoreOptions};
use fast_var_codec_core::save::{FileError, FileKey};
use fast_var_codec_core::Dialect;

use crate::{dialect_name, Fail};

/// A compression of `open_compressed`'s files and of `PackedByteArray.compress`'s packets (the
/// core's [`Compression`]).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompressArg {
    /// FastLZ (COMPRESSION_FASTLZ, the engine's default).
    Fastlz,
    /// zlib (COMPRESSION_DEFLATE).
    Deflate,
    /// Zstandard (COMPRESSION_ZSTD).
    Zstd,
    /// gzip (COMPRESSION_GZIP).
    Gzip,
}

impl CompressArg {
    /// The core's mode of this name.
    pub fn compression(self) -> Result<Compression, Fail> {
        let name = self
            .to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default();
        Compression::from_name(&name)
            .ok_or_else(|| Fail::Usage(format!("{name} is not a compression the core writes")))
    }
}

/// The container the output goes in.
pub enum Container {
    Plain,
    Compressed(CompressArg),
    /// Encrypted with this key, in the container of the output dialect's engine.
    Encrypted(FileKey),
}

/// `payload` in `container`, as the engine of `dialect` writes it (the core's `save::store`:
/// Godot 4's encrypted container with a random IV, as the engine draws one per file).
pub fn wrap(payload: Vec<u8>, container: Container, dialect: Dialect) -> Result<Vec<u8>, Fail> {
    let opts = match &container {
        Container::Plain => return Ok(payload),
        Container::Compressed(c) => StoreOptions::new().with_compression(Some(c.compression()?)),
        Container::Encrypted(key) => StoreOptions::new().with_key(Some(key)),
    };
    store(&payload, dialect, &opts, compress_block).map_err(|e| match e {
        FileError::EncryptionNotChecked(_) => Fail::Usage(format!(
            "cannot encrypt the output in {}: {e}",
            dialect_name(dialect)
        )),
        e => Fail::Invalid(format!("cannot write the output's container: {e}")),
    })
}

/// Every mode of the core is offered, and each name is the core's.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_compression_is_offered() {
        let offered: Vec<Compression> = CompressArg::value_variants()
            .iter()
            .map(|c| c.compression().expect("a core mode"))
            .collect();
        assert_eq!(offered, Compression::ALL);
    }
}

//! Save files of Godot 3 and Godot 4 in one step: which container a file is, its payload (the
//! `store_var` records), and those records; and the files themselves, written as the engines
//! write them. Every container of both engines (the `files` feature, on by default):
//!
//! | container | engine call | read | write |
//! |---|---|---|---|
//! | plain | `File.open` (3), `FileAccess.open` (4) | [`open`] (the payload is the file) | the records ([`crate::stream::frame`] each value) |
//! | compressed, FastLZ, Deflate, Zstd or Gzip | `open_compressed` (both, the same `GCPF` container) | [`open`] with `decompress_block` (the `compression` feature) or a decompressor of your own | [`compress_godot3`] with `compress_block` or a compressor of your own, and a [`Compression`] |
//! | encrypted with a key, Godot 3 | `File.open_encrypted` | [`open`] with [`OpenOptions::with_key`] and [`FileKey::from_bytes`] | [`encrypt`] in [`Dialect::Godot3`] |
//! | encrypted with a password, Godot 3 | `File.open_encrypted_with_pass` | as with a key, [`FileKey::from_password`] | as with a key |
//! | encrypted with a key, Godot 4 | `FileAccess.open_encrypted` | [`open`] with [`OpenOptions::with_key`] and [`FileKey::from_bytes`] | [`encrypt`] in [`Dialect::Godot4`] with [`random_iv`] |
//! | encrypted with a password, Godot 4 | `FileAccess.open_encrypted_with_pass` | as with a key, [`FileKey::from_password`] | as with a key |
//!
//! [`open`] tells the containers apart by their magic ([`detect`]) and, for an encrypted file
//! without a dialect, tries Godot 3's container, then Godot 4's. The records of a payload are
//! the same in both engines: each value's length (u32, little-endian), then the value, in the
//! engine's dialect ([`records`], [`crate::save::decode_records`]). Godot 4's Brotli mode (4)
//! is read-only in the engine, which writes no such file; it is refused here as
//! [`FileError::UnknownCompression`]. Pandemonium's files are read as Godot 3's; its encrypted
//! ones are not written ([`encrypt`]).
//!
//! Games compress network packets too, with no container: `var_to_bytes(v).compress(mode)`,
//! read back with `decompress_dynamic`. The `compression` feature reads and writes them:
//! `compress`, `decompress` (bounded by the size you give, in every mode) and
//! `decode_compressed` (the value, checked to fill the packet).
//!
//! The compressed container (docs/godot3_save_files.md, checked against files Godot 3.6.2, 3.2.3
//! and 4.6.3 wrote):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `GCPF` |
//! | 4 | mode, u32 LE: 0 FastLZ, 1 Deflate (zlib), 2 Zstd, 3 Gzip |
//! | 4 | block size, u32 LE (4096 in every file the engines write) |
//! | 4 | payload size, u32 LE |
//! | 4 × n | compressed size of each block, n = payload size / block size + 1 |
//! | … | the blocks, each compressed on its own; each holds a block size of payload, the last the rest (possibly nothing) |
//! | 4 | magic `GCPF` again (not checked, as the engines do not) |
//!
//! ## The encrypted containers
//!
//! Godot's encrypted file containers: what `File.open_encrypted` and `open_encrypted_with_pass`
//! write, and `ConfigFile.save_encrypted(_pass)` uses. Godot 4 changed the container (an IV and
//! another cipher mode), so its `FileAccess.open_encrypted*` cannot read Godot 3's files, nor
//! Godot 3 its; this module turns a file of either into its plaintext (whose `store_var` values
//! then decode in that engine's dialect) and back. Godot 3's layout (docs/godot3_save_files.md):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `GDEC` |
//! | 4 | mode, u32 LE: 1 (AES-256) |
//! | 16 | MD5 of the plaintext |
//! | 8 | plaintext length, u64 LE |
//! | rest | the plaintext zero-padded to 16 bytes, AES-256 encrypted block by block (ECB) |
//!
//! Godot 4's ([`decrypt_godot4`], [`encrypt_godot4`]; read in Godot 4.6.3's
//! `core/io/file_access_encrypted.cpp` and checked against files it wrote and read):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `GDEC` |
//! | 16 | MD5 of the plaintext |
//! | 8 | plaintext length, u64 LE |
//! | 16 | the IV, random for each file |
//! | rest | the plaintext zero-padded to 16 bytes, AES-256 in CFB mode (full-block feedback) |
//!
//! Both take the same key, and derive a password's the same way ([`FileKey::from_password`]);
//! Godot 4's IV is random for each file ([`random_iv`]). The cryptography is
//! RustCrypto's (`aes`, `cfb-mode`, `md-5`).
//!
//! [`payload`] hands each compressed block to the caller's decompressor (the Godot extension
//! uses the engine's) and checks what comes back, so a damaged block is reported, not passed on;
//! [`compress_godot3`] (named for the container Godot 3 made, which Godot 4 kept) writes the
//! container with the caller's compressor. The `compression` feature adds both codecs made of
//! pure-Rust crates, `decompress_block` and `compress_block`, which the command-line tool and
//! the Python package use; without it the core names no compression library.
//!
//! ```
//! use fast_var_codec_core::save::{detect, payload, records, Container};
//! use fast_var_codec_core::{decode, Dialect, Options, Value};
//!
//! // Two store_var records as Godot 3 writes them: the int 7, then true.
//! let file = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
//! assert_eq!(detect(&file), Container::Plain);
//! let no_codec = |_: &[u8], _: fast_var_codec_core::save::Compression, _: usize| -> Result<Vec<u8>, String> {
//!     Err("no decompressor".into())
//! };
//! let bytes = payload(&file, None, no_codec)?;
//! let opts = Options::new(Dialect::Godot3);
//! let mut values = Vec::new();
//! for record in records(&bytes) {
//!     let (value, _) = decode(record?.bytes, &opts).expect("a valid value");
//!     values.push(value);
//! }
//! assert_eq!(values, [Value::Int(7), Value::Bool(true)]);
//! # Ok::<(), fast_var_codec_core::save::FileError>(())
//! ```

#[cfg(feature = "compression")]
mod blocks;
#[cfg(feature = "compression")]
pub use blocks::{compress_block, decompress_block};
#[cfg(feature = "compression")]
mod packets;
#[cfg(feature = "compression")]
pub use packets::{compress, decode_compressed, decode_compressed_with, decompress};
mod config_file;
pub use config_file::{ConfigFile, ConfigFileError};
mod json_save;
pub use json_save::{JsonFileError, JsonSave, JsonStyle, NotJsonSave};
mod text_resource;
pub use text_resource::{NotTextResource, ResourceSection, TextResource};
mod values;
pub use values::{decode_records, detect_records, DetectError, RecordError};

use std::borrow::Cow;

mod encrypted;
use crate::stream::{prefix_len, ByteOrder, PREFIX_LEN};
use crate::Dialect;
use encrypted::MAGIC as ENCRYPTED_MAGIC;
pub use encrypted::{
    decrypt_godot3, decrypt_godot4, encrypt_godot3, encrypt_godot4, random_iv, EncryptedFormat,
    FileError, FileKey,
};

/// The magic at both ends of a Godot 3 (and 4) compressed file.
pub const COMPRESSED_MAGIC: &[u8; 4] = b"GCPF";
/// Fixed header of a compressed file: magic, mode, block size, payload size.
const COMPRESSED_HEADER: usize = 16;
/// The block size of a compressed file: what the engines write, and [`compress_godot3`] too.
pub const BLOCK_SIZE: u32 = 4096;
/// The largest block size accepted: the engines write 4096; a bigger one would let a damaged
/// header ask a decompressor for gigabytes per block.
pub const MAX_BLOCK_SIZE: u32 = 1 << 20;

/// Default for [`OpenOptions::max_payload`]: 256 MiB. A compressed file of a few megabytes can
/// announce gigabytes; no payload above the limit is inflated or decrypted. Raise it for larger
/// saves.
pub const DEFAULT_MAX_PAYLOAD: usize = 256 << 20;

/// How a file is opened: the key of an encrypted one, and the largest payload accepted.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{open, OpenOptions, DEFAULT_MAX_PAYLOAD};
///
/// let opts = OpenOptions::new();
/// assert_eq!(opts.max_payload, DEFAULT_MAX_PAYLOAD);
/// let plain = [2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]; // no container: the records themselves
/// let no_codec = |_: &[u8], _, _| Err::<Vec<u8>, _>("none");
/// let opened = open(&plain, None, &opts, no_codec)?;
/// assert_eq!(opened.payload.len(), 12);
/// // A compressed file announcing 1 GiB is refused before a block is inflated.
/// let mut bomb = b"GCPF".to_vec();
/// for word in [1u32, 4096, 1 << 30] {
///     bomb.extend_from_slice(&word.to_le_bytes());
/// }
/// bomb.resize(16 + 4 * ((1 << 30) / 4096 + 1), 0); // the block table
/// assert!(open(&bomb, None, &opts, no_codec).is_err());
/// # Ok::<(), fast_var_codec_core::save::FileError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenOptions<'k> {
    /// The key (or [`FileKey::from_password`]'s) of an encrypted file.
    pub key: Option<&'k FileKey>,
    /// The largest payload accepted, in bytes ([`DEFAULT_MAX_PAYLOAD`]): checked against what a
    /// compressed or encrypted file's header announces, before anything is inflated or
    /// decrypted. (A plain file is its own payload: it is already in memory.)
    pub max_payload: usize,
}

impl Default for OpenOptions<'_> {
    fn default() -> Self {
        OpenOptions {
            key: None,
            max_payload: DEFAULT_MAX_PAYLOAD,
        }
    }
}

impl<'k> OpenOptions<'k> {
    /// No key, [`DEFAULT_MAX_PAYLOAD`].
    pub fn new() -> Self {
        OpenOptions::default()
    }

    /// Sets [`OpenOptions::key`].
    pub fn with_key(mut self, key: Option<&'k FileKey>) -> Self {
        self.key = key;
        self
    }

    /// Sets [`OpenOptions::max_payload`] (`usize::MAX`: no limit).
    pub fn with_max_payload(mut self, max: usize) -> Self {
        self.max_payload = max;
        self
    }
}

/// What [`open`] found: the payload and the container it was in, to write a changed payload
/// back the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Opened<'a> {
    /// The `store_var` records (or whatever the file holds).
    pub payload: Cow<'a, [u8]>,
    /// Its container.
    pub container: Container,
    /// A compressed file's compression.
    pub compression: Option<Compression>,
    /// An encrypted file's container (Godot 3's or Godot 4's).
    pub encryption: Option<EncryptedFormat>,
}

/// Opens a file of any container: plain, compressed (each block given to `decompress`, as for
/// [`decompress_godot3`]) or encrypted with `opts.key`, in the container of `dialect`'s engine
/// ([`encrypted_format`]) or, without a dialect, Godot 3's container and else Godot 4's.
/// Nothing is inflated or decrypted when the header announces more than `opts.max_payload`.
///
/// # Errors
/// [`FileError::PayloadOverLimit`] (`ERR_OUT_OF_MEMORY`) above the limit;
/// [`FileError::KeyNeeded`] for an encrypted file without a key; those of the decryption and of
/// [`decompress_godot3`]. Without a dialect, when both encrypted containers fail, the error of
/// the one whose header the file has.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{FileError, FileKey};
/// use fast_var_codec_core::save::{encrypt, open, EncryptedFormat, OpenOptions};
/// use fast_var_codec_core::Dialect;
///
/// let key = FileKey::from_password("pw");
/// let file = encrypt(Dialect::Godot4, b"records", &key, [3; 16])?;
/// let no_codec = |_: &[u8], _, _| Err::<Vec<u8>, _>("none");
/// let opened = open(&file, None, &OpenOptions::new().with_key(Some(&key)), no_codec)?;
/// assert_eq!(&*opened.payload, b"records");
/// assert_eq!(opened.encryption, Some(EncryptedFormat::Godot4));
/// # Ok::<(), FileError>(())
/// ```
pub fn open<'a, E: std::fmt::Display>(
    file: &'a [u8],
    dialect: Option<Dialect>,
    opts: &OpenOptions<'_>,
    decompress: impl FnMut(&[u8], Compression, usize) -> Result<Vec<u8>, E>,
) -> Result<Opened<'a>, FileError> {
    let container = detect(file);
    let over = |announced: u64| FileError::PayloadOverLimit {
        announced,
        limit: opts.max_payload,
    };
    match container {
        Container::Plain => Ok(Opened {
            payload: Cow::Borrowed(file),
            container,
            compression: None,
            encryption: None,
        }),
        Container::Compressed => {
            // The limit first: the block table of a huge payload is itself large.
            if let Some(size) = le_u32(file, 12).filter(|s| *s as usize > opts.max_payload) {
                return Err(over(u64::from(size)));
            }
            let parsed = compressed_file(file)?;
            Ok(Opened {
                payload: Cow::Owned(inflate(&parsed, decompress)?),
                container,
                compression: Some(parsed.compression),
                encryption: None,
            })
        }
        Container::Encrypted => {
            let key = opts.key.ok_or(FileError::KeyNeeded)?;
            let decrypt = |format: EncryptedFormat| {
                // The blocks must be in the file, so a length beyond it fails in the
                // decryption, before anything is allocated (and is no payload of this
                // container: the other one's header read in the wrong places).
                if let Some(len) = encrypted::announced_len(file, format) {
                    if len > opts.max_payload as u64 && len <= file.len() as u64 {
                        return Err(over(len));
                    }
                }
                match format {
                    EncryptedFormat::Godot3 => decrypt_godot3(file, key),
                    EncryptedFormat::Godot4 => decrypt_godot4(file, key),
                }
            };
            let (format, plain) = match dialect {
                Some(d) => {
                    let format = encrypted_format(d);
                    (format, decrypt(format)?)
                }
                None => match decrypt(EncryptedFormat::Godot3) {
                    Ok(p) => (EncryptedFormat::Godot3, p),
                    Err(e3 @ FileError::PayloadOverLimit { .. }) => return Err(e3),
                    Err(e3) => match decrypt(EncryptedFormat::Godot4) {
                        Ok(p) => (EncryptedFormat::Godot4, p),
                        // A wrong key fails both: the error of the container whose header
                        // the file has (Godot 3's has a mode word).
                        Err(e4) => {
                            return Err(match e3 {
                                FileError::UnknownMode(_) => e4,
                                e3 => e3,
                            })
                        }
                    },
                },
            };
            Ok(Opened {
                payload: Cow::Owned(plain),
                container,
                compression: None,
                encryption: Some(format),
            })
        }
    }
}

/// Which container a Godot 3 save file is, by its first four bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// `File.open` + `store_var`: the records, no header.
    Plain,
    /// `File.open_compressed`: starts with `GCPF`.
    Compressed,
    /// `File.open_encrypted` / `open_encrypted_with_pass`: starts with `GDEC`.
    Encrypted,
}

impl Container {
    /// Its name on every surface: `"plain"`, `"compressed"` or `"encrypted"`.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::{detect, Container};
    /// assert_eq!(detect(b"GCPF\x01\0\0\0").name(), "compressed");
    /// assert_eq!(Container::Plain.name(), "plain");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Container::Plain => "plain",
            Container::Compressed => "compressed",
            Container::Encrypted => "encrypted",
        }
    }
}

/// Which container `file` is. A plain file cannot start with either magic: its first bytes are a
/// record's length, and no record is 1.1 GiB long.
pub fn detect(file: &[u8]) -> Container {
    match file.first_chunk::<4>() {
        Some(m) if m == COMPRESSED_MAGIC => Container::Compressed,
        Some(m) if m == ENCRYPTED_MAGIC => Container::Encrypted,
        _ => Container::Plain,
    }
}

/// The compression of a `GCPF` file: the header's mode word (Godot 3's `File.COMPRESSION_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// 0: FastLZ level 1. A block of less than 16 bytes is stored padded with zeros to 16.
    FastLz,
    /// 1: a zlib stream (RFC 1950) per block.
    Deflate,
    /// 2: a Zstandard frame per block.
    Zstd,
    /// 3: a gzip member (RFC 1952) per block.
    Gzip,
}

impl Compression {
    /// The mode for a header's mode word, if Godot 3 has one of that number.
    pub fn from_mode(mode: u32) -> Option<Self> {
        match mode {
            0 => Some(Compression::FastLz),
            1 => Some(Compression::Deflate),
            2 => Some(Compression::Zstd),
            3 => Some(Compression::Gzip),
            _ => None,
        }
    }

    /// The header's mode word: the value of `File.COMPRESSION_*` (and Godot 4's
    /// `FileAccess.COMPRESSION_*`).
    pub fn mode(self) -> u32 {
        match self {
            Compression::FastLz => 0,
            Compression::Deflate => 1,
            Compression::Zstd => 2,
            Compression::Gzip => 3,
        }
    }

    /// Every mode, in the order of their mode words.
    pub const ALL: [Compression; 4] = [
        Compression::FastLz,
        Compression::Deflate,
        Compression::Zstd,
        Compression::Gzip,
    ];

    /// The mode of an engine's name ([`Compression::name`]), in any case: `"zstd"` is
    /// `FileAccess.COMPRESSION_ZSTD`'s.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::Compression;
    /// assert_eq!(Compression::from_name("zstd"), Some(Compression::Zstd));
    /// assert_eq!(Compression::from_name("FastLZ"), Some(Compression::FastLz));
    /// assert_eq!(Compression::from_name("brotli"), None); // Godot 4 reads it, never writes it
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The engine's name of the mode: `"FastLZ"`, `"Deflate"`, `"Zstd"`, `"Gzip"`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::FastLz => "FastLZ",
            Compression::Deflate => "Deflate",
            Compression::Zstd => "Zstd",
            Compression::Gzip => "Gzip",
        }
    }

    /// How many bytes a block holding `size` payload bytes decompresses to: `size`, except that
    /// FastLZ blocks of less than 16 bytes were compressed padded to 16.
    pub fn decompressed_len(self, size: usize) -> usize {
        match self {
            Compression::FastLz => size.max(16),
            _ => size,
        }
    }
}

/// One compressed block of a `GCPF` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    /// The block's offset in the file.
    pub offset: usize,
    /// Its compressed bytes.
    pub data: &'a [u8],
    /// The payload bytes it holds (the block size, or less for the last block).
    pub size: usize,
}

/// The parsed header and block table of a `GCPF` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedFile<'a> {
    /// The header's mode.
    pub compression: Compression,
    /// The header's block size.
    pub block_size: u32,
    /// The payload size (what `get_length()` reports once opened).
    pub payload_size: u32,
    /// The blocks, in order.
    pub blocks: Vec<Block<'a>>,
}

fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at.checked_add(4)?)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
}

/// Reads a `GCPF` file's header and block table, checking that every block is present.
///
/// # Errors
/// [`FileError::NotCompressed`] without the magic; [`FileError::UnknownCompression`],
/// [`FileError::BlockSize`] for a header the engines never write; [`FileError::CompressedCut`]
/// when the file ends inside the header, the block table or a block.
pub fn compressed_file(file: &[u8]) -> Result<CompressedFile<'_>, FileError> {
    if detect(file) != Container::Compressed {
        return Err(FileError::NotCompressed);
    }
    let cut = |needed: u64| FileError::CompressedCut {
        needed,
        length: file.len(),
    };
    let (Some(mode), Some(block_size), Some(payload_size)) =
        (le_u32(file, 4), le_u32(file, 8), le_u32(file, 12))
    else {
        return Err(cut(COMPRESSED_HEADER as u64));
    };
    let compression = Compression::from_mode(mode).ok_or(FileError::UnknownCompression(mode))?;
    if block_size == 0 || block_size > MAX_BLOCK_SIZE {
        return Err(FileError::BlockSize(block_size));
    }
    let count = u64::from(payload_size / block_size) + 1;
    let table_end = COMPRESSED_HEADER as u64 + 4 * count;
    // The table must be there before anything is allocated for it.
    if (file.len() as u64) < table_end {
        return Err(cut(table_end));
    }
    let mut blocks = Vec::with_capacity(count as usize);
    let mut at = table_end as usize;
    let mut left = payload_size as usize;
    for i in 0..count as usize {
        let csize = le_u32(file, COMPRESSED_HEADER + 4 * i).ok_or(cut(table_end))? as usize;
        let end = at.checked_add(csize).ok_or(cut(u64::MAX))?;
        let data = file.get(at..end).ok_or(cut(end as u64))?;
        let size = left.min(block_size as usize);
        left -= size;
        blocks.push(Block {
            offset: at,
            data,
            size,
        });
        at = end;
    }
    Ok(CompressedFile {
        compression,
        block_size,
        payload_size,
        blocks,
    })
}

/// The payload of a `GCPF` file: each block given to `decompress(data, compression, len)`, which
/// returns the block's decompressed bytes (`len` of them, [`Compression::decompressed_len`]) or
/// why it could not. A block whose decompressor fails or returns another length is reported as
/// [`FileError::BlockDamaged`]; the engines' own readers pass such a block on unnoticed. A file
/// announcing more than [`DEFAULT_MAX_PAYLOAD`] is refused before any block is inflated: [`open`]
/// takes another limit.
///
/// # Errors
/// Those of [`compressed_file`], [`FileError::PayloadOverLimit`] and [`FileError::BlockDamaged`].
pub fn decompress_godot3<E: std::fmt::Display>(
    file: &[u8],
    decompress: impl FnMut(&[u8], Compression, usize) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, FileError> {
    let parsed = compressed_file(file)?;
    if parsed.payload_size as usize > DEFAULT_MAX_PAYLOAD {
        return Err(FileError::PayloadOverLimit {
            announced: u64::from(parsed.payload_size),
            limit: DEFAULT_MAX_PAYLOAD,
        });
    }
    inflate(&parsed, decompress)
}

/// The blocks of a parsed `GCPF` file decompressed and checked, one after the other: never more
/// than the header's payload size, which the caller has checked against its limit.
fn inflate<E: std::fmt::Display>(
    parsed: &CompressedFile<'_>,
    mut decompress: impl FnMut(&[u8], Compression, usize) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, FileError> {
    let mode = parsed.compression;
    let mut out = Vec::with_capacity(parsed.payload_size.min(1 << 24) as usize);
    for (index, block) in parsed.blocks.iter().enumerate() {
        let want = mode.decompressed_len(block.size);
        let damaged = |reason: String| FileError::BlockDamaged {
            index,
            offset: block.offset,
            reason,
        };
        let got = decompress(block.data, mode, want).map_err(|e| damaged(e.to_string()))?;
        if got.len() != want {
            return Err(damaged(format!(
                "decompressed to {} bytes, {want} expected",
                got.len()
            )));
        }
        out.extend_from_slice(got.get(..block.size).unwrap_or_default());
    }
    Ok(out)
}

/// A `GCPF` file holding `payload`, as the engines' `open_compressed` writes it: blocks of
/// [`BLOCK_SIZE`] bytes, each compressed on its own by `compress(block, compression)` (the
/// `compression` feature's `compress_block` is one), the last block the rest of the payload,
/// possibly nothing. A FastLZ block of less than 16 bytes is handed over padded with zeros to 16,
/// as the engines pad it. Godot 3's `File.open_compressed` and Godot 4's
/// `FileAccess.open_compressed` read the result; [`decompress_godot3`] undoes it.
///
/// # Errors
/// [`FileError::PayloadTooLarge`] for a payload of 4 GiB or more; [`FileError::CompressFailed`]
/// with the compressor's error.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{compress_godot3, decompress_godot3, Compression};
///
/// // A "compressor" that stores each block as it is shows the container's layout.
/// let store = |block: &[u8], _: Compression| Ok::<_, String>(block.to_vec());
/// let file = compress_godot3(b"payload", Compression::Deflate, store)?;
/// assert_eq!(&file[..4], b"GCPF");
/// let copy = |block: &[u8], _: Compression, _: usize| Ok::<_, String>(block.to_vec());
/// assert_eq!(decompress_godot3(&file, copy)?, b"payload");
/// # Ok::<(), fast_var_codec_core::save::FileError>(())
/// ```
pub fn compress_godot3<E: std::fmt::Display>(
    payload: &[u8],
    compression: Compression,
    mut compress: impl FnMut(&[u8], Compression) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, FileError> {
    let payload_size =
        u32::try_from(payload.len()).map_err(|_| FileError::PayloadTooLarge(payload.len()))?;
    let block = BLOCK_SIZE as usize;
    // Every full block, then the rest: empty when the payload fills its last block.
    let full = payload.chunks_exact(block);
    let blocks = full.clone().chain(std::iter::once(full.remainder()));
    let mut compressed = Vec::with_capacity(payload.len() / block + 1);
    for (index, data) in blocks.enumerate() {
        let mut padded = data.to_vec();
        padded.resize(compression.decompressed_len(data.len()), 0);
        let out = compress(&padded, compression).map_err(|e| FileError::CompressFailed {
            index,
            reason: e.to_string(),
        })?;
        compressed.push(out);
    }
    let table = 4 * compressed.len();
    let body: usize = compressed.iter().map(Vec::len).sum();
    let mut file = Vec::with_capacity(COMPRESSED_HEADER + table + body + 4);
    file.extend_from_slice(COMPRESSED_MAGIC);
    file.extend_from_slice(&compression.mode().to_le_bytes());
    file.extend_from_slice(&BLOCK_SIZE.to_le_bytes());
    file.extend_from_slice(&payload_size.to_le_bytes());
    for c in &compressed {
        // A block of at most 1 MiB never compresses to 4 GiB.
        file.extend_from_slice(&(c.len() as u32).to_le_bytes());
    }
    for c in &compressed {
        file.extend_from_slice(c);
    }
    file.extend_from_slice(COMPRESSED_MAGIC);
    Ok(file)
}

/// The `store_var` payload of a Godot 3 save file of any container: the file itself when plain,
/// decompressed ([`decompress_godot3`], with the caller's `decompress`) when compressed,
/// decrypted with `key` when encrypted; at most [`DEFAULT_MAX_PAYLOAD`] bytes ([`open`] takes
/// another limit).
///
/// # Errors
/// [`FileError::KeyNeeded`] for an encrypted file without a key; [`FileError::PayloadOverLimit`];
/// those of [`decrypt_godot3`] and [`decompress_godot3`].
pub fn payload<'a, E: std::fmt::Display>(
    file: &'a [u8],
    key: Option<&FileKey>,
    decompress: impl FnMut(&[u8], Compression, usize) -> Result<Vec<u8>, E>,
) -> Result<Cow<'a, [u8]>, FileError> {
    payload_of(Dialect::Godot3, file, key, decompress)
}

/// As [`payload`], for a file the engine of `dialect` wrote: compressed files are one container
/// in every engine; encrypted ones are Godot 4's ([`decrypt_godot4`]) for the
/// Godot 4 dialects, Godot 3's for the others ([`encrypted_format`]); at most
/// [`DEFAULT_MAX_PAYLOAD`] bytes ([`open`] takes another limit, and finds the container itself).
///
/// # Errors
/// [`FileError::KeyNeeded`] for an encrypted file without a key; [`FileError::PayloadOverLimit`];
/// those of the decryption and of [`decompress_godot3`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::FileKey;
/// use fast_var_codec_core::save::{encrypt, payload_of};
/// use fast_var_codec_core::Dialect;
///
/// let key = FileKey::from_password("pw");
/// let file = encrypt(Dialect::Godot4, b"records", &key, [3; 16])?;
/// let no_codec = |_: &[u8], _, _| Err::<Vec<u8>, _>("none");
/// assert_eq!(&*payload_of(Dialect::Godot4, &file, Some(&key), no_codec)?, b"records");
/// assert!(payload_of(Dialect::Godot3, &file, Some(&key), no_codec).is_err());
/// # Ok::<(), fast_var_codec_core::save::FileError>(())
/// ```
pub fn payload_of<'a, E: std::fmt::Display>(
    dialect: Dialect,
    file: &'a [u8],
    key: Option<&FileKey>,
    decompress: impl FnMut(&[u8], Compression, usize) -> Result<Vec<u8>, E>,
) -> Result<Cow<'a, [u8]>, FileError> {
    let opts = OpenOptions::new().with_key(key);
    open(file, Some(dialect), &opts, decompress).map(|o| o.payload)
}

/// The encrypted file holding `plaintext` that the engine of `dialect` writes with
/// `open_encrypted(_with_pass)` ([`encrypted_format`]); `iv` is used by Godot 4's container only,
/// and should be random for each file, as Godot 4 draws it.
///
/// # Errors
/// [`FileError::EncryptionNotChecked`] for the Pandemonium dialects: their files are read as
/// Godot 3's container, but none was checked against a Pandemonium engine, so none is written.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{FileError, FileKey};
/// use fast_var_codec_core::save::encrypt;
/// use fast_var_codec_core::Dialect;
///
/// let key = FileKey::from_password("pw");
/// assert_eq!(&encrypt(Dialect::Godot3, b"records", &key, [0; 16])?[..4], b"GDEC");
/// assert!(matches!(
///     encrypt(Dialect::Pandemonium5, b"records", &key, [0; 16]),
///     Err(FileError::EncryptionNotChecked(_))
/// ));
/// # Ok::<(), FileError>(())
/// ```
pub fn encrypt(
    dialect: Dialect,
    plaintext: &[u8],
    key: &FileKey,
    iv: [u8; 16],
) -> Result<Vec<u8>, FileError> {
    if matches!(dialect, Dialect::Pandemonium38 | Dialect::Pandemonium5) {
        return Err(FileError::EncryptionNotChecked(dialect.name()));
    }
    Ok(match encrypted_format(dialect) {
        EncryptedFormat::Godot3 => encrypt_godot3(plaintext, key),
        EncryptedFormat::Godot4 => encrypt_godot4(plaintext, key, iv),
    })
}

/// How [`store`] keeps a payload in a file: as `FileAccess.open` writes it (the default),
/// `open_compressed` ([`StoreOptions::compression`]) or `open_encrypted` /
/// `open_encrypted_with_pass` ([`StoreOptions::key`]); never both.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{Compression, FileKey, StoreOptions};
///
/// let key = FileKey::from_password("pw");
/// let encrypted = StoreOptions::new().with_key(Some(&key));
/// assert_eq!(encrypted.compression, None);
/// let compressed = StoreOptions::new().with_compression(Some(Compression::Zstd));
/// assert!(compressed.key.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct StoreOptions<'k> {
    /// The compression of a compressed file.
    pub compression: Option<Compression>,
    /// The key (or [`FileKey::from_password`]'s) of an encrypted file.
    pub key: Option<&'k FileKey>,
    /// The IV of Godot 4's encrypted container; `None`: a random one ([`random_iv`]), as the
    /// engine draws one for each file. (Godot 3's container has none.)
    pub iv: Option<[u8; 16]>,
}

impl<'k> StoreOptions<'k> {
    /// A plain file.
    pub fn new() -> Self {
        StoreOptions::default()
    }

    /// Sets [`StoreOptions::compression`].
    pub fn with_compression(mut self, compression: Option<Compression>) -> Self {
        self.compression = compression;
        self
    }

    /// Sets [`StoreOptions::key`].
    pub fn with_key(mut self, key: Option<&'k FileKey>) -> Self {
        self.key = key;
        self
    }

    /// Sets [`StoreOptions::iv`].
    pub fn with_iv(mut self, iv: Option<[u8; 16]>) -> Self {
        self.iv = iv;
        self
    }
}

/// The file the engine of `dialect` writes when it stores `payload` (`store_var` records, say)
/// in a file opened as `opts` says: the payload itself, compressed as [`compress_godot3`] with
/// the caller's `compress`, or encrypted as [`encrypt`] (with a random IV unless `opts` gives
/// one). [`open`] reads it back.
///
/// # Errors
/// [`FileError::CompressedAndEncrypted`] when `opts` has both a compression and a key; those of
/// [`encrypt`], [`random_iv`] and [`compress_godot3`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{open, store, FileError, FileKey, OpenOptions, StoreOptions};
/// use fast_var_codec_core::Dialect;
///
/// let no_codec = |_: &[u8], _| Err::<Vec<u8>, _>("none");
/// assert_eq!(store(b"records", Dialect::Godot4, &StoreOptions::new(), no_codec)?, b"records");
///
/// let key = FileKey::from_password("pw");
/// let file = store(b"records", Dialect::Godot4, &StoreOptions::new().with_key(Some(&key)), no_codec)?;
/// let no_codec = |_: &[u8], _, _| Err::<Vec<u8>, _>("none");
/// let opened = open(&file, Some(Dialect::Godot4), &OpenOptions::new().with_key(Some(&key)), no_codec)?;
/// assert_eq!(&*opened.payload, b"records");
/// # Ok::<(), FileError>(())
/// ```
pub fn store<E: std::fmt::Display>(
    payload: &[u8],
    dialect: Dialect,
    opts: &StoreOptions<'_>,
    compress: impl FnMut(&[u8], Compression) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, FileError> {
    match (opts.key, opts.compression) {
        (Some(_), Some(_)) => Err(FileError::CompressedAndEncrypted),
        (Some(key), None) => {
            let iv = match opts.iv {
                Some(iv) => iv,
                None if encrypted_format(dialect) == EncryptedFormat::Godot4 => random_iv()?,
                None => [0; 16],
            };
            encrypt(dialect, payload, key, iv)
        }
        (None, Some(compression)) => compress_godot3(payload, compression, compress),
        (None, None) => Ok(payload.to_vec()),
    }
}

/// The compressor of a [`store`] that compresses nothing (a text file's container is plain or
/// encrypted).
pub(crate) fn uncompressed(_: &[u8], mode: Compression) -> Result<Vec<u8>, &'static str> {
    Err(mode.name())
}

/// The encrypted container of the engine of `dialect`: Godot 4's for the Godot 4 dialects
/// (checked against Godot 4.6.3; taken to hold for 4.0 – 4.3, which were not run), Godot 3's for
/// Godot 3 and Pandemonium (a fork of Godot 3; its encrypted files were not checked, so
/// [`encrypt`] writes none).
pub fn encrypted_format(dialect: Dialect) -> EncryptedFormat {
    match dialect {
        Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2 => EncryptedFormat::Godot4,
        _ => EncryptedFormat::Godot3,
    }
}

/// One `store_var` record of a payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    /// Where its 4-byte length is in the payload.
    pub offset: usize,
    /// The value's encoding (what the length announces).
    pub bytes: &'a [u8],
}

/// The records of a `store_var` payload, in order (Godot 3 writes lengths little-endian). A
/// payload that ends inside a record yields [`FileError::RecordCut`], then nothing more.
pub fn records(payload: &[u8]) -> Records<'_> {
    Records { payload, at: 0 }
}

/// The iterator of [`records`].
#[derive(Debug, Clone)]
pub struct Records<'a> {
    payload: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, FileError>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.payload.get(self.at..).filter(|r| !r.is_empty())?;
        let offset = self.at;
        let cut = |announced: Option<usize>| FileError::RecordCut {
            offset,
            announced,
            available: match announced {
                Some(_) => rest.len().saturating_sub(PREFIX_LEN),
                None => rest.len(),
            },
        };
        let Some(head) = rest.first_chunk::<PREFIX_LEN>() else {
            self.at = self.payload.len();
            return Some(Err(cut(None)));
        };
        let len = prefix_len(*head, ByteOrder::Little);
        let Some(bytes) = rest.get(PREFIX_LEN..PREFIX_LEN.saturating_add(len)) else {
            self.at = self.payload.len();
            return Some(Err(cut(Some(len))));
        };
        self.at += PREFIX_LEN + len;
        Some(Ok(Record { offset, bytes }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &[u8], _: Compression, _: usize) -> Result<Vec<u8>, String> {
        Err("no decompressor".into())
    }

    /// A compressed file whose "codec" stores each block as it is.
    fn stored(payload: &[u8], block: usize) -> Vec<u8> {
        let chunks: Vec<&[u8]> = payload.chunks(block).collect();
        let mut blocks: Vec<&[u8]> = chunks.clone();
        if payload.len().is_multiple_of(block) {
            blocks.push(&[]);
        }
        let mut f = b"GCPF".to_vec();
        f.extend_from_slice(&1u32.to_le_bytes());
        f.extend_from_slice(&(block as u32).to_le_bytes());
        f.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        for b in &blocks {
            f.extend_from_slice(&(b.len() as u32).to_le_bytes());
        }
        for b in &blocks {
            f.extend_from_slice(b);
        }
        f.extend_from_slice(b"GCPF");
        f
    }

    fn copy(d: &[u8], _: Compression, _: usize) -> Result<Vec<u8>, String> {
        Ok(d.to_vec())
    }

    /// `store` is the lower writers chosen by its options: the same bytes as `compress_godot3`
    /// and `encrypt` (Godot 3's container, which has no IV), a fresh IV for each Godot 4 file,
    /// the given one when there is one, and never a file both compressed and encrypted.
    #[test]
    fn store_writes_what_the_lower_writers_write() {
        let store_blocks = |b: &[u8], _: Compression| Ok::<_, String>(b.to_vec());
        let key = FileKey::from_password("pw");
        let plain = StoreOptions::new();
        assert_eq!(
            store(b"abc", Dialect::Godot4, &plain, store_blocks).unwrap(),
            b"abc"
        );
        let zstd = plain.with_compression(Some(Compression::Zstd));
        assert_eq!(
            store(b"abc", Dialect::Godot3, &zstd, store_blocks).unwrap(),
            compress_godot3(b"abc", Compression::Zstd, store_blocks).unwrap()
        );
        let keyed = plain.with_key(Some(&key));
        assert_eq!(
            store(b"abc", Dialect::Godot3, &keyed, store_blocks).unwrap(),
            encrypt_godot3(b"abc", &key)
        );
        let a = store(b"abc", Dialect::Godot4, &keyed, store_blocks).unwrap();
        let b = store(b"abc", Dialect::Godot4, &keyed, store_blocks).unwrap();
        assert_ne!(a[28..44], b[28..44], "a random IV for each Godot 4 file");
        assert_eq!(decrypt_godot4(&a, &key).unwrap(), b"abc");
        let given = keyed.with_iv(Some([9; 16]));
        assert_eq!(
            store(b"abc", Dialect::Godot4, &given, store_blocks).unwrap(),
            encrypt_godot4(b"abc", &key, [9; 16])
        );
        let both = keyed.with_compression(Some(Compression::Zstd));
        let refused = store(b"abc", Dialect::Godot4, &both, store_blocks).unwrap_err();
        assert_eq!(refused, FileError::CompressedAndEncrypted);
        assert_eq!(refused.code(), crate::error::ErrorCode::InvalidParameter);
    }

    #[test]
    fn detects_each_container() {
        assert_eq!(detect(b""), Container::Plain);
        assert_eq!(detect(b"GCP"), Container::Plain);
        assert_eq!(detect(b"GCPF...."), Container::Compressed);
        assert_eq!(detect(b"GDEC...."), Container::Encrypted);
        assert_eq!(detect(&[4, 0, 0, 0, 0, 0, 0, 0]), Container::Plain);
    }

    #[test]
    fn walks_blocks_and_checks_their_sizes() {
        let payload: Vec<u8> = (0..10u8).collect();
        for block in [1, 3, 5, 10, 16] {
            let f = stored(&payload, block);
            assert_eq!(
                decompress_godot3(&f, copy).unwrap(),
                payload,
                "block {block}"
            );
            let parsed = compressed_file(&f).unwrap();
            assert_eq!(parsed.blocks.len(), 10 / block + 1);
        }
        let f = stored(&payload, 4);
        let short = |d: &[u8], _: Compression, _: usize| -> Result<Vec<u8>, String> {
            Ok(d.get(1..).unwrap_or_default().to_vec())
        };
        assert!(matches!(
            decompress_godot3(&f, short),
            Err(FileError::BlockDamaged { index: 0, .. })
        ));
        assert!(matches!(
            decompress_godot3(&f, none),
            Err(FileError::BlockDamaged { index: 0, .. })
        ));
        for cut in 0..f.len() - 4 {
            assert!(compressed_file(&f[..cut]).is_err(), "cut at {cut}");
        }
        let mut bad = f.clone();
        bad[4] = 9;
        assert_eq!(compressed_file(&bad), Err(FileError::UnknownCompression(9)));
        let mut bad = f.clone();
        bad[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(compressed_file(&bad), Err(FileError::BlockSize(0)));
        let mut huge = f;
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            compressed_file(&huge),
            Err(FileError::CompressedCut { .. })
        ));
    }

    #[test]
    fn writes_blocks_of_4096_and_reports_a_failed_one() {
        let payload: Vec<u8> = (0..9000u32).map(|i| i as u8).collect();
        let keep = |d: &[u8], _: Compression| Ok::<_, String>(d.to_vec());
        let f = compress_godot3(&payload, Compression::Zstd, keep).unwrap();
        let parsed = compressed_file(&f).unwrap();
        let sizes: Vec<usize> = parsed.blocks.iter().map(|b| b.data.len()).collect();
        assert_eq!(sizes, [4096, 4096, 808]);
        assert_eq!(decompress_godot3(&f, copy).unwrap(), payload);
        // FastLZ blocks under 16 bytes go to the compressor padded, as the engines pad them.
        let f = compress_godot3(&[5, 6], Compression::FastLz, keep).unwrap();
        assert_eq!(compressed_file(&f).unwrap().blocks[0].data.len(), 16);
        let mut calls = 0;
        let fail_second = |d: &[u8], _: Compression| {
            calls += 1;
            if calls == 2 {
                Err("no room")
            } else {
                Ok(d.to_vec())
            }
        };
        assert_eq!(
            compress_godot3(&payload, Compression::Gzip, fail_second),
            Err(FileError::CompressFailed {
                index: 1,
                reason: "no room".into()
            })
        );
    }

    #[test]
    fn splits_records_and_reports_a_cut_one() {
        let p = [1, 0, 0, 0, 9, 0, 0, 0, 0, 3, 0, 0, 0, 1];
        let got: Vec<_> = records(&p).collect();
        assert_eq!(
            got,
            [
                Ok(Record {
                    offset: 0,
                    bytes: &[9]
                }),
                Ok(Record {
                    offset: 5,
                    bytes: &[]
                }),
                Err(FileError::RecordCut {
                    offset: 9,
                    announced: Some(3),
                    available: 1
                }),
            ]
        );
        assert_eq!(
            records(&[1, 0]).collect::<Vec<_>>(),
            [Err(FileError::RecordCut {
                offset: 0,
                announced: None,
                available: 2
            })]
        );
        assert_eq!(records(&[]).count(), 0);
        assert!(matches!(
            payload(b"GDEC", None, none),
            Err(FileError::KeyNeeded)
        ));
    }
}

//! The encrypted containers, re-exported by [`super`] (whose documentation describes them).

use aes::cipher::generic_array::GenericArray;
use aes::cipher::{BlockDecrypt, BlockEncrypt, KeyInit};
use aes::Aes256;
use md5::{Digest, Md5};

/// The magic a Godot 3 encrypted file starts with.
pub(crate) const MAGIC: &[u8; 4] = b"GDEC";
/// The only mode Godot 3 writes (its `MODE_WRITE_AES256`); 0 is read mode, never stored.
const MODE_AES256: u32 = 1;
const HEADER: usize = 4 + 4 + 16 + 8;
/// Godot 4's header: magic, MD5, length, IV.
const GODOT4_HEADER: usize = 4 + 16 + 8 + 16;
const BLOCK: usize = 16;

/// A 32-byte AES-256 key, as Godot 3 and Godot 4 use it for their encrypted files (both
/// engines' containers take the same key, and derive a password's the same way).
#[derive(Clone, PartialEq, Eq)]
pub struct FileKey([u8; 32]);

impl FileKey {
    /// The key `open_encrypted_with_pass` derives from a password: the 32 ASCII characters of
    /// the lowercase hex MD5 of the password's UTF-8 bytes.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::FileKey;
    /// let key = FileKey::from_password("secret");
    /// assert_eq!(key.as_bytes(), b"5ebe2294ecd0e0f08eab7690d2a6ee69");
    /// ```
    pub fn from_password(password: &str) -> Self {
        let digest = Md5::digest(password.as_bytes());
        let mut key = [0u8; 32];
        for (pair, byte) in key.chunks_exact_mut(2).zip(digest.iter()) {
            pair.copy_from_slice(&hex_pair(*byte));
        }
        FileKey(key)
    }

    /// A raw key, as `open_encrypted(path, mode, key)` takes it.
    pub fn from_bytes(key: [u8; 32]) -> Self {
        FileKey(key)
    }

    /// A raw key from a slice, which must hold exactly 32 bytes.
    ///
    /// # Errors
    /// [`FileError::KeyLength`] when `key` is not 32 bytes long.
    pub fn from_slice(key: &[u8]) -> Result<Self, FileError> {
        let key: [u8; 32] = key
            .try_into()
            .map_err(|_| FileError::KeyLength(key.len()))?;
        Ok(FileKey(key))
    }

    /// The 32 key bytes, to hand to another implementation (the `Debug` output hides them).
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    fn cipher(&self) -> Aes256 {
        Aes256::new(GenericArray::from_slice(&self.0))
    }
}

impl std::fmt::Debug for FileKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileKey(..)") // never print key material
    }
}

fn hex_pair(byte: u8) -> [u8; 2] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |n: u8| DIGITS.get(usize::from(n & 15)).copied().unwrap_or(b'0');
    [digit(byte >> 4), digit(byte)]
}

/// Why a Godot 3 file could not be read (or, for the last three, written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// The file does not start with the `GDEC` magic: plain data, or another container.
    #[error("not a Godot 3 encrypted file (no GDEC magic)")]
    NotEncrypted,
    /// The file ends inside its header (32 bytes in Godot 3, 44 in Godot 4); the field is the
    /// file's length.
    #[error("encrypted file cut short inside its header: {0} bytes")]
    HeaderTruncated(usize),
    /// The header's mode is not 1 (AES-256), the only one Godot 3 writes.
    #[error("unknown encryption mode {0} (Godot 3 writes 1)")]
    UnknownMode(u32),
    /// Fewer encrypted blocks follow the header than its plaintext length needs.
    #[error("the header announces {length} bytes of plaintext, {blocks} bytes of blocks, but only {available} follow")]
    DataTruncated {
        /// The plaintext length the header announces.
        length: u64,
        /// That length rounded up to whole 16-byte blocks: the bytes that must follow.
        blocks: u64,
        /// The bytes that do follow the header.
        available: usize,
    },
    /// The decrypted data does not match the header's MD5: a wrong key or password (which
    /// cannot be told apart from damage), or a damaged file.
    #[error("the MD5 of the decrypted data does not match the header: wrong key or password, or a damaged file")]
    WrongKeyOrDamaged,
    /// A raw key given to [`FileKey::from_slice`] is not 32 bytes long; the field is its length.
    #[error("a key must be 32 bytes, got {0}")]
    KeyLength(usize),
    /// The file is encrypted and no password or key was given.
    #[error("a Godot 3 encrypted file (GDEC): its password or key is needed")]
    KeyNeeded,
    /// The file does not start with the `GCPF` magic of a compressed file.
    #[error("not a Godot 3 compressed file (no GCPF magic)")]
    NotCompressed,
    /// A compressed file's mode word is none of Godot 3's four.
    #[error("unknown compression mode {0} (Godot 3 writes 0 FastLZ, 1 Deflate, 2 Zstd, 3 Gzip)")]
    UnknownCompression(u32),
    /// A compressed file's block size is 0 or above [`crate::save::MAX_BLOCK_SIZE`].
    #[error("compressed block size {0} (the engines write 4096)")]
    BlockSize(u32),
    /// A compressed file ends inside its header, block table or blocks.
    #[error("compressed file cut short: {length} bytes, its header and block table need {needed}")]
    CompressedCut {
        /// The bytes the header, the block table and the blocks up to the missing one need.
        needed: u64,
        /// The file's length.
        length: usize,
    },
    /// A compressed block does not decompress to the size it must have.
    #[error("compressed block {index} (file offset {offset}) is damaged: {reason}")]
    BlockDamaged {
        /// The block's index (0 for the first).
        index: usize,
        /// The block's offset in the file.
        offset: usize,
        /// What the decompressor said, or the size it gave.
        reason: String,
    },
    /// The decompressor has no codec for the file's compression mode.
    #[error("{0} compression is not supported here")]
    UnsupportedCompression(&'static str),
    /// The payload ends inside a `store_var` record.
    #[error("{}", record_cut(*offset, *announced, *available))]
    RecordCut {
        /// Where the record's length is in the payload.
        offset: usize,
        /// The length it announces (`None`: the payload ends inside the length itself).
        announced: Option<usize>,
        /// The payload bytes after the length (when it is whole), or left at `offset`.
        available: usize,
    },
    /// Encrypted files of this dialect's engine are not written: their container was not
    /// checked against the engine ([`crate::save::encrypt`]); the field is the dialect's name.
    #[error(
        "{0}'s encrypted files are not written: their container was not checked against the engine"
    )]
    EncryptionNotChecked(&'static str),
    /// A payload of 4 GiB or more cannot be compressed: the header keeps its size in 32 bits.
    #[error("a compressed file holds less than 4 GiB, the payload is {0} bytes")]
    PayloadTooLarge(usize),
    /// A file's header announces a payload above the reader's limit
    /// ([`crate::save::OpenOptions::max_payload`]); nothing was inflated or decrypted.
    #[error("the file announces a payload of {announced} bytes, above the limit of {limit} bytes (raise max_payload to read it)")]
    PayloadOverLimit {
        /// The payload size the header announces.
        announced: u64,
        /// The limit.
        limit: usize,
    },
    /// The system's random number generator could not make an IV ([`random_iv`]); the field is
    /// what it said.
    #[error("no random IV: the system's random number generator failed: {0}")]
    NoRandom(String),
    /// A file was asked to be both compressed and encrypted ([`crate::save::store`]): no
    /// engine writes or opens one, its `FileAccess` opens a file one way.
    #[error("a file is compressed or encrypted, not both (the engines open it one way)")]
    CompressedAndEncrypted,
    /// The compressor could not compress a block.
    #[error("compressing block {index} failed: {reason}")]
    CompressFailed {
        /// The block's index (0 for the first).
        index: usize,
        /// What the compressor said.
        reason: String,
    },
}

fn record_cut(offset: usize, announced: Option<usize>, available: usize) -> String {
    match announced {
        Some(len) => format!(
            "the record at payload offset {offset} announces {len} bytes, {available} follow: cut short or damaged"
        ),
        None => format!(
            "{available} bytes at payload offset {offset}: a record's 4-byte length cut short"
        ),
    }
}

impl FileError {
    /// The `Error` for it, as Godot 3 reports the same file where it does:
    /// `ERR_FILE_UNRECOGNIZED` for no magic, `ERR_INVALID_PARAMETER` for a bad key,
    /// `ERR_UNAUTHORIZED` for a missing one, `ERR_UNAVAILABLE` for a compression this build
    /// cannot read (or an encrypted file not written), `ERR_FILE_EOF` for a record cut short; in
    /// writing, `ERR_OUT_OF_MEMORY` for a payload too large and `FAILED` for a block the
    /// compressor refused; `ERR_FILE_CORRUPT` otherwise.
    pub fn code(&self) -> crate::error::ErrorCode {
        match self {
            FileError::NotEncrypted | FileError::NotCompressed => {
                crate::error::ErrorCode::FileUnrecognized
            }
            FileError::KeyLength(_) | FileError::CompressedAndEncrypted => {
                crate::error::ErrorCode::InvalidParameter
            }
            FileError::KeyNeeded => crate::error::ErrorCode::Unauthorized,
            FileError::UnsupportedCompression(_)
            | FileError::EncryptionNotChecked(_)
            | FileError::NoRandom(_) => crate::error::ErrorCode::Unavailable,
            FileError::RecordCut { .. } => crate::error::ErrorCode::FileEof,
            FileError::PayloadTooLarge(_) | FileError::PayloadOverLimit { .. } => {
                crate::error::ErrorCode::OutOfMemory
            }
            FileError::CompressFailed { .. } => crate::error::ErrorCode::Failed,
            _ => crate::error::ErrorCode::FileCorrupt,
        }
    }

    /// Whether the file ends before its own header says it does: an encrypted file cut inside
    /// its header or its blocks, a compressed file cut inside its header, block table or
    /// blocks, a `store_var` record cut short. No password or key opens such a file, though
    /// Godot reports the encrypted one as it reports a wrong key (`ERR_FILE_CORRUPT`, its
    /// [`code`](Self::code)): this tells the two apart.
    pub fn is_cut_short(&self) -> bool {
        matches!(
            self,
            FileError::HeaderTruncated(_)
                | FileError::DataTruncated { .. }
                | FileError::CompressedCut { .. }
                | FileError::RecordCut { .. }
        )
    }
}

/// An `std::io::Error` holding the error, so that `?` works in a function that returns
/// `std::io::Result`: of kind [`std::io::ErrorKind::InvalidInput`] for a key of the wrong
/// length, [`std::io::ErrorKind::Unsupported`] for a compression this build cannot read (or an
/// encrypted container not written), [`std::io::ErrorKind::InvalidData`] for everything else
/// (a file that is not one, damaged, cut short, over the limit, a missing key …).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{decrypt_godot3, FileKey};
///
/// fn open(file: &[u8]) -> std::io::Result<Vec<u8>> {
///     Ok(decrypt_godot3(file, &FileKey::from_password("secret"))?)
/// }
/// let err = open(b"not encrypted").unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// assert!(err.to_string().contains("GDEC"));
/// ```
impl From<FileError> for std::io::Error {
    fn from(e: FileError) -> Self {
        use std::io::ErrorKind as K;
        let kind = match e {
            FileError::KeyLength(_) => K::InvalidInput,
            FileError::UnsupportedCompression(_) | FileError::EncryptionNotChecked(_) => {
                K::Unsupported
            }
            FileError::NoRandom(_) => K::Other,
            _ => K::InvalidData,
        };
        std::io::Error::new(kind, e)
    }
}

/// The plaintext of a Godot 3 encrypted file (bytes following the last block are ignored, as
/// Godot 3 does).
///
/// # Errors
/// [`FileError::NotEncrypted`], [`FileError::HeaderTruncated`], [`FileError::UnknownMode`] and
/// [`FileError::DataTruncated`] for a file that is not one or is cut short;
/// [`FileError::WrongKeyOrDamaged`] when the MD5 check fails.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{decrypt_godot3, encrypt_godot3, FileError, FileKey};
/// let key = FileKey::from_password("secret");
/// let file = encrypt_godot3(b"hello", &key);
/// assert_eq!(decrypt_godot3(&file, &key)?, b"hello");
/// let wrong = FileKey::from_password("Secret");
/// assert_eq!(decrypt_godot3(&file, &wrong), Err(FileError::WrongKeyOrDamaged));
/// # Ok::<(), FileError>(())
/// ```
pub fn decrypt_godot3(file: &[u8], key: &FileKey) -> Result<Vec<u8>, FileError> {
    let (rest, body) = split_header::<HEADER>(file)?;
    let (mode, rest) = rest.split_at(4);
    let (md5, length) = rest.split_at(16);
    let mode = u32::from_le_bytes(mode.try_into().unwrap_or_default());
    if mode != MODE_AES256 {
        return Err(FileError::UnknownMode(mode));
    }
    let (length, mut plain) = ciphertext(length, body)?;
    let cipher = key.cipher();
    for block in plain.chunks_exact_mut(BLOCK) {
        cipher.decrypt_block(GenericArray::from_mut_slice(block));
    }
    checked(plain, length, md5)
}

/// Which encrypted container an engine writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncryptedFormat {
    /// Godot 3's: AES-256 block by block, no IV ([`crate::save::encrypt_godot3`]).
    Godot3,
    /// Godot 4's: AES-256-CFB with a random IV ([`crate::save::encrypt_godot4`]).
    Godot4,
}

impl EncryptedFormat {
    /// Its name on every surface: `"godot3"` or `"godot4"`, the short name of the engine's
    /// dialect.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::save::EncryptedFormat;
    /// assert_eq!(EncryptedFormat::Godot3.name(), "godot3");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            EncryptedFormat::Godot3 => "godot3",
            EncryptedFormat::Godot4 => "godot4",
        }
    }
}

/// The plaintext length an encrypted file's header announces, in either engine's container
/// (`None` when the header is cut short or not one): read before anything is decrypted.
pub(crate) fn announced_len(file: &[u8], format: EncryptedFormat) -> Option<u64> {
    let at = match format {
        EncryptedFormat::Godot3 => 24,
        EncryptedFormat::Godot4 => 20,
    };
    let field = file.get(at..at + 8)?;
    Some(u64::from_le_bytes(field.try_into().ok()?))
}

/// An `N`-byte header that starts with the `GDEC` magic: the header's bytes after the magic, and
/// the bytes after the header.
fn split_header<const N: usize>(file: &[u8]) -> Result<(&[u8], &[u8]), FileError> {
    let (header, body) = file
        .split_first_chunk::<N>()
        .ok_or_else(|| match file.get(..4) {
            Some(m) if m != MAGIC => FileError::NotEncrypted,
            _ => FileError::HeaderTruncated(file.len()),
        })?;
    match header.split_at_checked(4) {
        Some((magic, rest)) if magic == MAGIC => Ok((rest, body)),
        _ => Err(FileError::NotEncrypted),
    }
}

/// The whole 16-byte blocks after a header announcing `length` plaintext bytes (its 8-byte
/// little-endian field), copied to be decrypted in place.
fn ciphertext(length: &[u8], body: &[u8]) -> Result<(u64, Vec<u8>), FileError> {
    let length = u64::from_le_bytes(length.try_into().unwrap_or_default());
    let blocks = length.div_ceil(BLOCK as u64).saturating_mul(BLOCK as u64);
    let truncated = FileError::DataTruncated {
        length,
        blocks,
        available: body.len(),
    };
    let blocks_len = usize::try_from(blocks).map_err(|_| truncated.clone())?;
    let data = body.get(..blocks_len).ok_or(truncated)?;
    Ok((length, data.to_vec()))
}

/// The decrypted blocks cut to `length`, if their MD5 is the header's.
fn checked(mut plain: Vec<u8>, length: u64, md5: &[u8]) -> Result<Vec<u8>, FileError> {
    // The blocks hold at least `length` bytes, so it fits in usize.
    plain.truncate(length as usize);
    if Md5::digest(&plain).as_slice() != md5 {
        return Err(FileError::WrongKeyOrDamaged);
    }
    Ok(plain)
}

/// A Godot 3 encrypted file holding `plaintext`, as `File.open_encrypted(_with_pass)` writes it
/// (Godot 3's `File.get_var` and `ConfigFile.load_encrypted(_pass)` read it).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{encrypt_godot3, FileKey};
/// let file = encrypt_godot3(&[1, 2, 3], &FileKey::from_bytes([7; 32]));
/// assert_eq!(&file[..4], b"GDEC");
/// assert_eq!(file.len(), 32 + 16); // header, then one block
/// ```
pub fn encrypt_godot3(plaintext: &[u8], key: &FileKey) -> Vec<u8> {
    let blocks = plaintext.len().div_ceil(BLOCK) * BLOCK;
    let mut out = Vec::with_capacity(HEADER + blocks);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&MODE_AES256.to_le_bytes());
    out.extend_from_slice(&Md5::digest(plaintext));
    out.extend_from_slice(&(plaintext.len() as u64).to_le_bytes());
    out.extend_from_slice(plaintext);
    out.resize(HEADER + blocks, 0);
    let cipher = key.cipher();
    if let Some(data) = out.get_mut(HEADER..) {
        for block in data.chunks_exact_mut(BLOCK) {
            cipher.encrypt_block(GenericArray::from_mut_slice(block));
        }
    }
    out
}

/// The plaintext of a Godot 4 encrypted file, as `FileAccess.open_encrypted(_with_pass)` reads it
/// (bytes following the last block are ignored, as Godot 4 does).
///
/// # Errors
/// As [`decrypt_godot3`]: [`FileError::NotEncrypted`], [`FileError::HeaderTruncated`],
/// [`FileError::DataTruncated`], and [`FileError::WrongKeyOrDamaged`] when the MD5 check fails
/// (also what a Godot 3 file gives here).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{decrypt_godot4, encrypt_godot4, FileError, FileKey};
/// let key = FileKey::from_password("secret");
/// let file = encrypt_godot4(b"hello", &key, [9; 16]);
/// assert_eq!(decrypt_godot4(&file, &key)?, b"hello");
/// let wrong = FileKey::from_password("Secret");
/// assert_eq!(decrypt_godot4(&file, &wrong), Err(FileError::WrongKeyOrDamaged));
/// # Ok::<(), FileError>(())
/// ```
pub fn decrypt_godot4(file: &[u8], key: &FileKey) -> Result<Vec<u8>, FileError> {
    use cfb_mode::cipher::{AsyncStreamCipher, KeyIvInit};
    let (rest, body) = split_header::<GODOT4_HEADER>(file)?;
    let (md5, rest) = rest.split_at(16);
    let (length, iv) = rest.split_at(8);
    let (length, mut plain) = ciphertext(length, body)?;
    cfb_mode::Decryptor::<Aes256>::new(
        GenericArray::from_slice(key.as_bytes()),
        GenericArray::from_slice(iv),
    )
    .decrypt(&mut plain);
    checked(plain, length, md5)
}

/// 16 bytes from the system's random number generator (the `getrandom` crate; in a browser or
/// Node, `crypto.getRandomValues`): the IV of a Godot 4 encrypted file, fresh for each file as
/// the engine draws it. The one way the crate's surfaces make their IVs.
///
/// # Errors
/// [`FileError::NoRandom`] when the system has no generator to give (never on the desktop
/// systems; a JavaScript runtime without `crypto.getRandomValues`).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{decrypt_godot4, encrypt_godot4, random_iv, FileKey};
///
/// let key = FileKey::from_password("secret");
/// let (a, b) = (random_iv()?, random_iv()?);
/// assert_ne!(a, b);
/// let file = encrypt_godot4(b"hello", &key, a);
/// assert_eq!(&file[28..44], &a); // the IV follows magic, MD5 and length
/// assert_eq!(decrypt_godot4(&file, &key)?, b"hello");
/// # Ok::<(), fast_var_codec_core::save::FileError>(())
/// ```
pub fn random_iv() -> Result<[u8; 16], FileError> {
    let mut iv = [0u8; 16];
    getrandom::fill(&mut iv).map_err(|e| FileError::NoRandom(e.to_string()))?;
    Ok(iv)
}

/// A Godot 4 encrypted file holding `plaintext`, as `FileAccess.open_encrypted(_with_pass)` writes
/// it, with the IV `iv` (Godot 4 draws a random one for each file; so should the caller, with
/// [`random_iv`]: the same key and IV for two files lets one who has both learn about their
/// contents).
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{encrypt_godot4, FileKey};
/// let file = encrypt_godot4(&[1, 2, 3], &FileKey::from_bytes([7; 32]), [0x5a; 16]);
/// assert_eq!(&file[..4], b"GDEC");
/// assert_eq!(file.len(), 44 + 16); // header, then one block
/// ```
pub fn encrypt_godot4(plaintext: &[u8], key: &FileKey, iv: [u8; 16]) -> Vec<u8> {
    use cfb_mode::cipher::{AsyncStreamCipher, KeyIvInit};
    let blocks = plaintext.len().div_ceil(BLOCK) * BLOCK;
    let mut out = Vec::with_capacity(GODOT4_HEADER + blocks);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&Md5::digest(plaintext));
    out.extend_from_slice(&(plaintext.len() as u64).to_le_bytes());
    out.extend_from_slice(&iv);
    out.extend_from_slice(plaintext);
    out.resize(GODOT4_HEADER + blocks, 0);
    if let Some(data) = out.get_mut(GODOT4_HEADER..) {
        cfb_mode::Encryptor::<Aes256>::new(
            GenericArray::from_slice(key.as_bytes()),
            GenericArray::from_slice(&iv),
        )
        .encrypt(data);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn godot4_round_trips_every_length_around_a_block() {
        let key = FileKey::from_password("pw");
        for n in 0..70usize {
            let plain: Vec<u8> = (0..n as u8).collect();
            let file = encrypt_godot4(&plain, &key, [n as u8; 16]);
            assert_eq!(file.len(), GODOT4_HEADER + n.div_ceil(16) * 16);
            assert_eq!(decrypt_godot4(&file, &key).unwrap(), plain);
            for cut in [0, 3, 4, 43] {
                assert!(
                    decrypt_godot4(&file[..cut], &key).is_err(),
                    "{n} cut at {cut}"
                );
            }
        }
        // One container is not the other.
        let g3 = encrypt_godot3(b"some plaintext", &key);
        assert!(decrypt_godot4(&g3, &key).is_err());
        let g4 = encrypt_godot4(b"some plaintext", &key, [1; 16]);
        assert!(decrypt_godot3(&g4, &key).is_err());
    }

    #[test]
    fn round_trips_every_length_around_a_block() {
        let key = FileKey::from_password("pw");
        for n in 0..70usize {
            let plain: Vec<u8> = (0..n as u8).collect();
            let file = encrypt_godot3(&plain, &key);
            assert_eq!(file.len(), HEADER + n.div_ceil(16) * 16);
            assert_eq!(decrypt_godot3(&file, &key).unwrap(), plain);
        }
    }

    #[test]
    fn refuses_what_is_not_a_whole_encrypted_file() {
        let key = FileKey::from_bytes([3; 32]);
        let file = encrypt_godot3(b"some plaintext of two blocks", &key);
        assert_eq!(decrypt_godot3(b"GDSC", &key), Err(FileError::NotEncrypted));
        assert_eq!(
            decrypt_godot3(b"GDE", &key),
            Err(FileError::HeaderTruncated(3))
        );
        for cut in 0..file.len() {
            assert!(decrypt_godot3(&file[..cut], &key).is_err(), "cut at {cut}");
        }
        let mut bad_mode = file.clone();
        bad_mode[4] = 0;
        assert_eq!(
            decrypt_godot3(&bad_mode, &key),
            Err(FileError::UnknownMode(0))
        );
        let mut flipped = file.clone();
        flipped[HEADER + 3] ^= 1;
        assert_eq!(
            decrypt_godot3(&flipped, &key),
            Err(FileError::WrongKeyOrDamaged)
        );
        let mut huge = file;
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            decrypt_godot3(&huge, &key),
            Err(FileError::DataTruncated { .. })
        ));
        assert_eq!(
            FileKey::from_slice(&[0; 31]).unwrap_err(),
            FileError::KeyLength(31)
        );
    }

    #[test]
    fn an_encrypted_file_shorter_than_its_header_says_is_cut_short_not_a_wrong_key() {
        let key = FileKey::from_password("pw");
        let wrong = FileKey::from_password("not pw");
        let plain: Vec<u8> = (0..100u8).collect();
        let files = [
            (encrypt_godot3(&plain, &key), 32),
            (encrypt_godot4(&plain, &key, [5; 16]), 44),
        ];
        for (file, header) in files {
            let decrypt = |f: &[u8], k: &FileKey| {
                if header == 32 {
                    decrypt_godot3(f, k)
                } else {
                    decrypt_godot4(f, k)
                }
            };
            for cut in 0..file.len() {
                // With the right key or a wrong one: the file cannot hold what it announces.
                for k in [&key, &wrong] {
                    let e = decrypt(&file[..cut], k).unwrap_err();
                    assert!(e.is_cut_short(), "cut at {cut} of {}: {e:?}", file.len());
                    if cut >= header {
                        assert!(matches!(e, FileError::DataTruncated { .. }), "{e:?}");
                    }
                }
            }
            // Whole: a wrong key is not a cut file.
            let e = decrypt(&file, &wrong).unwrap_err();
            assert_eq!(e, FileError::WrongKeyOrDamaged);
            assert!(!e.is_cut_short());
        }
        assert!(!FileError::NotEncrypted.is_cut_short());
        assert!(!FileError::KeyNeeded.is_cut_short());
    }
}

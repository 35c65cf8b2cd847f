//! The codecs of Godot 3's compressed files, one block at a time (the `decompress` feature): zlib
//! and gzip from flate2, Zstandard from ruzstd, FastLZ level 1 from fastlz-rs, all pure Rust.
//! [`super::payload`] and [`super::decompress_godot3`] own the container's layout and check each
//! block's size; this only undoes one block.

use std::io::Read;

use super::Compression;

/// The decompressed bytes of one block of a Godot 3 compressed file that must give `len` bytes:
/// at most `len + 1` of them (one more tells a block that says more than it should), or what the
/// codec found wrong. Hand it to [`super::payload`] or [`super::decompress_godot3`].
///
/// # Errors
/// The codec's own message, prefixed with its name (`"zlib: ..."`), for a block it cannot undo.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{decompress_block, payload, Compression};
///
/// // A plain file needs no decompressor, but the call is the same for every container.
/// let file = [2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
/// let bytes = payload(&file, None, decompress_block)?;
/// assert_eq!(bytes.len(), 12);
/// // A block that is not zlib data is reported, not passed on.
/// assert!(decompress_block(&[1, 2, 3], Compression::Deflate, 4).is_err());
/// # Ok::<(), fast_var_codec_core::encrypted::FileError>(())
/// ```
pub fn decompress_block(data: &[u8], mode: Compression, len: usize) -> Result<Vec<u8>, String> {
    let bound = len as u64 + 1;
    let mut out = Vec::with_capacity(len);
    match mode {
        Compression::Deflate => flate2::read::ZlibDecoder::new(data)
            .take(bound)
            .read_to_end(&mut out)
            .map_err(|e| format!("zlib: {e}"))?,
        Compression::Gzip => flate2::read::GzDecoder::new(data)
            .take(bound)
            .read_to_end(&mut out)
            .map_err(|e| format!("gzip: {e}"))?,
        Compression::Zstd => {
            out.resize(len, 0);
            let n = ruzstd::decoding::FrameDecoder::new()
                .decode_all(data, &mut out)
                .map_err(|e| format!("zstd: {e}"))?;
            out.truncate(n);
            n
        }
        Compression::FastLz => {
            out.resize(len, 0);
            let n =
                fastlz_rs::decompress_to_buf(data, &mut out).map_err(|e| format!("FastLZ: {e}"))?;
            out.truncate(n);
            n
        }
    };
    Ok(out)
}

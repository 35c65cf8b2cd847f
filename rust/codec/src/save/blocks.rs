//! The codecs of Godot 3's compressed files, one block at a time (the `compression` feature):
//! zlib and gzip from flate2, Zstandard from ruzstd, FastLZ level 1 from fastlz-rs, all pure Rust.
//! [`super::payload`], [`super::decompress_godot3`] and [`super::compress_godot3`] own the
//! container's layout and check each block's size; this only does or undoes one block.

use std::io::{Read, Write};

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
/// # Ok::<(), fast_var_codec_core::save::FileError>(())
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

/// One block of a Godot 3 (or 4) compressed file, compressed as the engines can read it: zlib or
/// gzip at zlib's default level (the engines' default), Zstandard at ruzstd's fastest level (a
/// valid frame; the engines write level 3), FastLZ level 1 (what the engines write for blocks
/// under 64 KiB). The bytes differ from the engines' own compressors', the payload they hold
/// does not. Hand it to [`super::compress_godot3`].
///
/// # Errors
/// The codec's own message, prefixed with its name; none of these codecs fails on data in memory.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{compress_block, decompress_block, Compression};
///
/// let block = [7u8; 100];
/// let zlib = compress_block(&block, Compression::Deflate)?;
/// assert!(zlib.len() < block.len());
/// assert_eq!(decompress_block(&zlib, Compression::Deflate, 100)?, block);
/// # Ok::<(), String>(())
/// ```
pub fn compress_block(data: &[u8], mode: Compression) -> Result<Vec<u8>, String> {
    let level = flate2::Compression::default();
    match mode {
        Compression::Deflate => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), level);
            z.write_all(data)
                .and_then(|()| z.finish())
                .map_err(|e| format!("zlib: {e}"))
        }
        Compression::Gzip => {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), level);
            z.write_all(data)
                .and_then(|()| z.finish())
                .map_err(|e| format!("gzip: {e}"))
        }
        Compression::Zstd => Ok(ruzstd::encoding::compress_to_vec(
            data,
            ruzstd::encoding::CompressionLevel::Fastest,
        )),
        Compression::FastLz => {
            if data.is_empty() {
                // fastlz-rs writes nothing for nothing; the engines never ask (they pad to 16).
                return Err(
                    "FastLZ: an empty block (the container pads blocks to 16 bytes)".into(),
                );
            }
            fastlz_rs::CompressState::new_boxed()
                .compress_to_vec(data, fastlz_rs::CompressionLevel::Level1)
                .map_err(|e| format!("FastLZ: {e}"))
        }
    }
}

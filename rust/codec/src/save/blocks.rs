//! The codecs of Godot's compressed files and packets, one block at a time (the `compression`
//! feature): zlib and gzip from flate2, Zstandard from ruzstd, FastLZ from fastlz-rs, all pure
//! Rust.
//! [`super::payload`], [`super::decompress_godot3`] and [`super::compress_godot3`] own the
//! container's layout and check each block's size; this only does or undoes one block.

use std::io::{Read, Write};

use super::Compression;

/// The decompressed bytes of one block of a Godot 3 compressed file that must give `len` bytes:
/// what it decompresses to, if that is at most `len` bytes (the caller checks it is exactly
/// `len`), or what the codec found wrong. Hand it to [`super::payload`] or
/// [`super::decompress_godot3`].
///
/// # Errors
/// The codec's own message, prefixed with its name (`"Deflate: ..."`), for a block it cannot
/// undo or that gives more than `len` bytes.
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
    match undo(data, mode, len) {
        Ok(bytes) => Ok(bytes),
        Err(Undone::OverLimit) => Err(format!("{}: more than {len} bytes", mode.name())),
        Err(Undone::Damaged(reason)) => Err(reason),
    }
}

/// Why [`undo`] gave no bytes.
pub(crate) enum Undone {
    /// The data decompresses to more than the limit; decompression stopped there.
    OverLimit,
    /// The codec's message, prefixed with its name (`"zlib: ..."`).
    Damaged(String),
}

/// The most bytes one byte of FastLZ data can stand for: a level-2 match grows by 255 bytes for
/// each length byte it adds. It bounds the buffer a FastLZ decompression needs.
const FASTLZ_MAX_RATIO: usize = 256;

/// `data` decompressed in `mode`, never producing more than `limit` bytes: the one decompression
/// of blocks and packets. Each codec reads as the engines' do: one zlib stream, one gzip member,
/// one Zstandard frame, FastLZ of either level (bytes after the stream are not read).
pub(crate) fn undo(data: &[u8], mode: Compression, limit: usize) -> Result<Vec<u8>, Undone> {
    let bound = (limit as u64).saturating_add(1);
    let mut out = Vec::new();
    let read = |mut reader: Box<dyn Read + '_>, out: &mut Vec<u8>| {
        reader
            .as_mut()
            .take(bound)
            .read_to_end(out)
            .map_err(|e| Undone::Damaged(format!("{}: {e}", mode.name())))
    };
    match mode {
        Compression::Deflate => read(Box::new(flate2::read::ZlibDecoder::new(data)), &mut out)?,
        Compression::Gzip => read(Box::new(flate2::read::GzDecoder::new(data)), &mut out)?,
        Compression::Zstd => {
            let frame = ruzstd::decoding::StreamingDecoder::new(data)
                .map_err(|e| Undone::Damaged(format!("Zstd: {e}")))?;
            read(Box::new(frame), &mut out)?
        }
        Compression::FastLz => {
            let room = limit.min(
                data.len()
                    .saturating_mul(FASTLZ_MAX_RATIO)
                    .saturating_add(16),
            );
            out.resize(room, 0);
            match fastlz_rs::decompress_to_buf(data, &mut out) {
                Ok(n) => {
                    out.truncate(n);
                    n
                }
                Err(fastlz_rs::DecompressError::OutputTooSmall) if room == limit => {
                    return Err(Undone::OverLimit)
                }
                Err(e) => return Err(Undone::Damaged(format!("FastLZ: {e}"))),
            }
        }
    };
    if out.len() > limit {
        return Err(Undone::OverLimit);
    }
    Ok(out)
}

/// One block of a Godot 3 (or 4) compressed file, compressed as the engines can read it: zlib or
/// gzip at zlib's default level (the engines' default), Zstandard at ruzstd's fastest level (a
/// valid frame; the engines write level 3), FastLZ at the engines' level (1 below 64 KiB, 2 from
/// there). The zlib, gzip and Zstandard bytes may differ from the engines' own compressors', the
/// payload they hold does not. Hand it to [`super::compress_godot3`].
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
            // The engines' gzip header: no name, no time, "Unix" as the system (flate2 says
            // "unknown" unless told).
            let mut z = flate2::GzBuilder::new()
                .operating_system(3)
                .write(Vec::new(), level);
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
                .compress_to_vec(data, fastlz_rs::CompressionLevel::Default)
                .map_err(|e| format!("FastLZ: {e}"))
        }
    }
}

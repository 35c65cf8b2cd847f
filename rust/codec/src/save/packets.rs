//! Compressed packets: a value's bytes compressed on their own, as games send them over the
//! network (`var_to_bytes(v).compress(mode)`, read back with
//! `bytes_to_var(packet.decompress_dynamic(max_size, mode))`). No header: the receiver knows the
//! mode.

use super::blocks::{compress_block, undo, Undone};
use super::Compression;
use crate::build::Build;
use crate::error::{DecodeReason, EncodeReason};
use crate::reader::decode_with;
use crate::value::ValueBuilder;
use crate::{CodecError, Options, Value};

/// `data` compressed as Godot's `PackedByteArray.compress(mode)` compresses it, for the engine's
/// `decompress` and `decompress_dynamic` (or [`decompress`]) to undo: nothing for nothing, and
/// FastLZ data of fewer than 16 bytes padded with zeros to 16 first, as the engine pads it.
/// The engines read every packet it makes, but its bytes are not always theirs: FastLZ (at the
/// engine's level, 1 below 64 KiB and 2 from there) is fastlz-rs, zlib and gzip are
/// miniz_oxide at zlib's default level (the engine's header, often the engine's bytes), and
/// Zstandard is ruzstd's fastest level, about zstd's level 1 where the engine uses 3.
///
/// # Errors
/// What the compressor said, as [`EncodeReason::Invalid`]; none of the codecs fails on data in
/// memory.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{compress, decompress, Compression};
/// use fast_var_codec_core::{encode, Options, Value};
///
/// let bytes = encode(&Value::from("hello, hello, hello, hello"), &Options::default())?;
/// let packet = compress(&bytes, Compression::Deflate)?;
/// assert!(packet.len() < bytes.len());
/// assert_eq!(decompress(&packet, Compression::Deflate, 1024)?, bytes);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn compress(data: &[u8], mode: Compression) -> Result<Vec<u8>, CodecError> {
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let padded_len = mode.decompressed_len(data.len());
    let result = if padded_len > data.len() {
        let mut padded = data.to_vec();
        padded.resize(padded_len, 0);
        compress_block(&padded, mode)
    } else {
        compress_block(data, mode)
    };
    result.map_err(|reason| CodecError::encode(EncodeReason::Invalid(reason)))
}

/// The bytes of a packet `compress(mode)` made, at most `max_size` of them: the engine's
/// `decompress_dynamic(max_size, mode)`, for every mode (the engine's takes Deflate and Gzip
/// only; its `decompress(buffer_size, mode)` takes the others). Nothing beyond `max_size` bytes
/// is made, so a hostile packet cannot make more. A FastLZ packet of a value under 16 bytes
/// gives 16, the rest zeros, as the engine's `decompress` gives them; [`decode_compressed`]
/// reads the value and checks the padding. An empty packet gives nothing (what compressing
/// nothing gave).
///
/// # Errors
/// [`DecodeReason::NotDecompressed`] with what the decompressor said (`ERR_INVALID_DATA`);
/// [`DecodeReason::DecompressedTooLong`] when the packet holds more than `max_size` bytes
/// (`ERR_OUT_OF_MEMORY`). The error's offset is 0.
///
/// # Examples
/// ```
/// use fast_var_codec_core::error::DecodeReason;
/// use fast_var_codec_core::save::{compress, decompress, Compression};
/// use fast_var_codec_core::CodecError;
///
/// let packet = compress(&[0; 10_000], Compression::Zstd)?;
/// assert_eq!(decompress(&packet, Compression::Zstd, 10_000)?.len(), 10_000);
/// let too_long = decompress(&packet, Compression::Zstd, 9_999).unwrap_err();
/// assert!(matches!(
///     too_long,
///     CodecError::Decode { reason: DecodeReason::DecompressedTooLong { max: 9_999 }, .. }
/// ));
/// // FastLZ pads what is shorter than 16 bytes.
/// let short = compress(&[1, 2, 3], Compression::FastLz)?;
/// assert_eq!(decompress(&short, Compression::FastLz, 100)?, [1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// # Ok::<(), CodecError>(())
/// ```
pub fn decompress(
    packet: &[u8],
    mode: Compression,
    max_size: usize,
) -> Result<Vec<u8>, CodecError> {
    if packet.is_empty() {
        return Ok(Vec::new());
    }
    undo(packet, mode, max_size).map_err(|undone| {
        CodecError::decode(
            0,
            match undone {
                Undone::OverLimit => DecodeReason::DecompressedTooLong { max: max_size },
                Undone::Damaged(reason) => DecodeReason::NotDecompressed(reason),
            },
        )
    })
}

/// The value of a packet `var_to_bytes(value).compress(mode)` made, its bytes decompressed to at
/// most `max_size` ([`decompress`]) and decoded with `opts`. The value must take the bytes
/// whole, as a `store_var` record's must, except for the zeros a FastLZ packet of a value under
/// 16 bytes is padded with.
///
/// # Errors
/// Those of [`decompress`]; a decode error (its offset counted in the decompressed bytes);
/// [`DecodeReason::RecordNotWhole`] when the value leaves bytes unread.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::{compress, decode_compressed, Compression};
/// use fast_var_codec_core::{encode, Options, Value};
///
/// let opts = Options::default();
/// for mode in Compression::ALL {
///     let packet = compress(&encode(&Value::Int(42), &opts)?, mode)?;
///     assert_eq!(decode_compressed(&packet, mode, 1 << 20, &opts)?, Value::Int(42));
/// }
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn decode_compressed(
    packet: &[u8],
    mode: Compression,
    max_size: usize,
    opts: &Options,
) -> Result<Value, CodecError> {
    decode_compressed_with(packet, mode, max_size, opts, &mut ValueBuilder::default())
}

/// [`decode_compressed`] building the value with `builder` (the Godot extension builds engine
/// Variants).
///
/// # Errors
/// As [`decode_compressed`].
pub fn decode_compressed_with<B: Build>(
    packet: &[u8],
    mode: Compression,
    max_size: usize,
    opts: &Options,
    builder: &mut B,
) -> Result<B::Value, CodecError> {
    let bytes = decompress(packet, mode, max_size)?;
    let (value, used) = decode_with(&bytes, 0, opts, builder)?;
    let rest = bytes.get(used..).unwrap_or_default();
    let padding = mode.decompressed_len(used) == bytes.len() && rest.iter().all(|b| *b == 0);
    if !padding {
        crate::record::check_whole(&bytes, used, opts)?;
    }
    Ok(value)
}

//! The codecs of Godot 3's compressed saves, one block at a time, for the core's
//! `save::payload` (which owns the container's layout and checks each block's size): the same
//! pure-Rust crates as the command-line tool (flate2, ruzstd, fastlz-rs). Each block's output is
//! bounded by the size it must have (plus one byte, to tell a block that says more).

use std::io::Read;

use fast_var_codec_core::save::Compression;

/// The decompressed bytes of one block that must give `len` bytes: at most `len + 1` of them,
/// or what the codec found wrong.
pub fn block(data: &[u8], mode: Compression, len: usize) -> Result<Vec<u8>, String> {
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

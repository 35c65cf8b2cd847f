//! The codecs of Godot 3's compressed files, one block at a time, for the core's
//! `save::decompress_godot3` (which owns the container's layout and checks each block's size):
//! zlib and gzip from flate2, Zstandard from ruzstd, FastLZ level 1 from fastlz-rs, all pure
//! Rust. Each block's output is bounded by the size it must have (plus one byte, to tell a
//! block that says more).

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

#[cfg(test)]
mod tests {
    use fast_var_codec_core::save::{compressed_file, payload, Compression};

    /// The raw payloads Godot 3.6.2 and 3.2.3 compressed in each mode (tests/saves/, sizes on
    /// and around the 4096-byte blocks) come back byte for byte.
    #[test]
    fn engine_compressed_buffers_decompress_to_their_payloads() {
        let saves = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/saves");
        for engine in ["godot3_6_2", "godot3_2_3"] {
            for size in [0usize, 8192, 12295] {
                let raw = match size {
                    0 => Vec::new(),
                    n => std::fs::read(saves.join(engine).join(format!("buffer_{n}.bin")))
                        .expect("raw payload"),
                };
                assert_eq!(raw.len(), size);
                for (mode, compression) in [
                    ("fastlz", Compression::FastLz),
                    ("deflate", Compression::Deflate),
                    ("zstd", Compression::Zstd),
                    ("gzip", Compression::Gzip),
                ] {
                    let name = format!("{engine}/buffer_{size}_{mode}.bin");
                    let file = std::fs::read(saves.join(&name)).expect("fixture");
                    let parsed = compressed_file(&file).expect("header");
                    assert_eq!(parsed.compression, compression, "{name}");
                    assert_eq!(parsed.blocks.len(), size / 4096 + 1, "{name}");
                    let got = payload(&file, None, super::block).expect("decompresses");
                    assert!(got.as_ref() == raw.as_slice(), "{name}: the payload");
                }
            }
        }
    }
}

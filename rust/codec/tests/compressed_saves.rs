//! `save::decompress_block` and `save::compress_block` (the `compression` feature) against the
//! files Godot 3 compressed.
#![cfg(feature = "compression")]

mod corpus;

use fast_var_codec_core::save::{compressed_file, decompress_block, payload, Compression};

/// Each file Godot 3.6.2 and 3.2.3 compressed from a raw payload (tests/saves/, sizes on and
/// around the 4096-byte blocks), in each mode: its name, the raw payload, the mode, the file.
fn engine_files() -> Vec<(String, Vec<u8>, Compression, Vec<u8>)> {
    let saves = corpus::repo_path("tests/saves");
    let mut all = Vec::new();
    for engine in ["godot3_6_2", "godot3_2_3"] {
        for size in [0usize, 8192, 12295] {
            let raw = match size {
                0 => Vec::new(),
                n => std::fs::read(saves.join(engine).join(format!("buffer_{n}.bin")))
                    .expect("raw payload"),
            };
            assert_eq!(raw.len(), size);
            for mode in Compression::ALL {
                let name = format!("{engine}/buffer_{size}_{}.bin", mode.name().to_lowercase());
                let file = std::fs::read(saves.join(&name)).expect("fixture");
                all.push((name, raw.clone(), mode, file));
            }
        }
    }
    all
}

/// The raw payloads the engines compressed in each mode come back byte for byte.
#[test]
fn engine_compressed_buffers_decompress_to_their_payloads() {
    let files = engine_files();
    assert_eq!(files.len(), 2 * 3 * 4);
    for (name, raw, mode, file) in &files {
        let parsed = compressed_file(file).expect("header");
        assert_eq!(parsed.compression, *mode, "{name}");
        assert_eq!(parsed.blocks.len(), raw.len() / 4096 + 1, "{name}");
        let got = payload(file, None, decompress_block).expect("decompresses");
        assert!(got.as_ref() == raw.as_slice(), "{name}: the payload");
    }
}

/// A block that decompresses to more than it must is an error, and nothing past that size is
/// made; a damaged block is the codec's error.
#[test]
fn a_block_is_bounded_and_a_damaged_one_is_an_error() {
    let saves = corpus::repo_path("tests/saves");
    let file = std::fs::read(saves.join("godot3_6_2/buffer_8192_deflate.bin")).expect("fixture");
    let parsed = compressed_file(&file).expect("header");
    let first = parsed.blocks[0].data;
    let err = decompress_block(first, Compression::Deflate, 100).unwrap_err();
    assert_eq!(err, "Deflate: more than 100 bytes");
    assert_eq!(
        decompress_block(first, Compression::Deflate, 4096).map(|b| b.len()),
        Ok(4096)
    );
    let err = decompress_block(&first[..first.len() / 2], Compression::Zstd, 4096).unwrap_err();
    assert!(err.starts_with("Zstd: "), "{err}");
}

/// What `compress_godot3` with `compress_block` writes decompresses to its payload in every mode,
/// for sizes on and around the 4096-byte blocks and the 16-byte FastLZ padding; its header and
/// block table have the shape of the engine's file of the same payload (the files Godot 3.6.2
/// and 3.2.3 wrote). The blocks' bytes are not the engine's (other compressors: the engines
/// read them, which tests/run_python_tests.sh checks with Godot 3.6.2, 3.2.3 and 4.6.3).
#[test]
fn compressed_files_are_written_as_the_engines_write_them() {
    use fast_var_codec_core::save::{compress_block, compress_godot3, decompress_godot3};
    for size in [0usize, 1, 15, 16, 17, 4095, 4096, 4097, 8192, 12295, 70_000] {
        let payload: Vec<u8> = (0..size)
            .map(|i| (i * 7 % 251) as u8 ^ (i / 300) as u8)
            .collect();
        for mode in Compression::ALL {
            let file = compress_godot3(&payload, mode, compress_block).expect("compresses");
            let parsed = compressed_file(&file).expect("its header");
            assert_eq!(parsed.compression, mode);
            assert_eq!(parsed.block_size, 4096);
            assert_eq!(parsed.payload_size as usize, size);
            assert_eq!(parsed.blocks.len(), size / 4096 + 1, "{size} {mode:?}");
            assert_eq!(&file[file.len() - 4..], b"GCPF");
            let back = decompress_godot3(&file, decompress_block).expect("decompresses");
            assert!(back == payload, "{size} bytes, {}", mode.name());
        }
    }
    for (name, raw, mode, engine_file) in engine_files() {
        let ours = compress_godot3(&raw, mode, compress_block).expect("compresses");
        assert_eq!(ours[..16], engine_file[..16], "{name}: the header");
    }
}

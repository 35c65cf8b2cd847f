//! The edges where a codec can lose data or make it up without a word: typed containers that
//! drop elements, records read in the wrong dialect, files that announce more than they hold.

mod common;
mod corpus;

use bytes::BytesMut;
#[cfg(feature = "compression")]
use common::alloc_counter::measure;
use fast_var_codec_core::error::{DecodeReason, EncodeReason};
use fast_var_codec_core::record::decode_record;
use fast_var_codec_core::save::FileError;
use fast_var_codec_core::save::{decode_records, RecordError};
use fast_var_codec_core::save::{open, records, OpenOptions};
use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
use fast_var_codec_core::value::{ContainerType, VariantType};
use fast_var_codec_core::writer::Writer;
use fast_var_codec_core::{decode, encode, CodecError, Dialect, Options, Value};

fn saves() -> std::path::PathBuf {
    corpus::repo_path("tests/saves")
}

fn int_array(items: Vec<Value>) -> Value {
    Value::typed_array(ContainerType::Builtin(VariantType::Int), items)
}

fn encode_error(v: &Value, opts: &Options) -> (String, String) {
    match encode(v, opts) {
        Err(CodecError::Encode { path, reason }) => (path.to_string(), reason.to_string()),
        other => panic!("expected an encode error, got {other:?}"),
    }
}

#[test]
fn a_typed_array_item_of_another_type_is_refused_with_its_path() {
    let v = int_array(vec![Value::Int(1), Value::from("x")]);
    for dialect in [Dialect::Godot4, Dialect::Godot4_3, Dialect::Pandemonium5] {
        let (path, reason) = encode_error(&v, &Options::new(dialect));
        assert_eq!(path, "[1]", "{dialect:?}");
        assert!(
            reason.contains("String item does not fit Array[int]"),
            "{reason}"
        );
    }
    // Nested: the path leads to it.
    let outer = Value::from_iter([("scores", v.clone())]);
    let (path, _) = encode_error(&outer, &Options::default());
    assert_eq!(path, "[\"scores\"][1]");
    // A dialect without typed Arrays writes it untyped: nothing is dropped on decode.
    for dialect in [Dialect::Godot3, Dialect::Godot4_0To4_2] {
        let opts = Options::new(dialect);
        let bytes = encode(&v, &opts).expect("untyped in this dialect");
        assert_eq!(
            decode(&bytes, &opts).unwrap().0,
            Value::array(vec![1.into(), "x".into()])
        );
    }
    // A Python-style type name taken as a class: its Strings are refused, not lost.
    let str_class = Value::typed_array(ContainerType::Class("str".into()), vec!["a".into()]);
    let (path, reason) = encode_error(&str_class, &Options::default());
    assert_eq!(
        (path.as_str(), reason.contains("Array[str]")),
        ("[0]", true)
    );
}

#[test]
fn a_value_an_engine_converts_exactly_is_written_converted() {
    // An int in Array[float] is written as the float, as an engine holds it.
    let floats = |items| Value::typed_array(ContainerType::Builtin(VariantType::Float), items);
    let opts = Options::default();
    assert_eq!(
        encode(&floats(vec![Value::Int(3)]), &opts).unwrap(),
        encode(&floats(vec![Value::Float(3.0)]), &opts).unwrap()
    );
    // A float with a fraction would change in Array[int]: refused.
    let (path, reason) = encode_error(&int_array(vec![Value::Float(1.5)]), &opts);
    assert_eq!(path, "[0]");
    assert!(
        reason.contains("float item does not fit Array[int]"),
        "{reason}"
    );
    // Objects and null in an object type are written: only the decoding engine knows classes.
    let nodes = Value::typed_array(
        ContainerType::Class("Node".into()),
        vec![Value::Nil, Value::ObjectId(7)],
    );
    assert!(encode(&nodes, &opts).is_ok());
}

#[test]
fn a_typed_dictionary_entry_of_another_type_is_refused() {
    let d = Value::typed_dictionary(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Builtin(VariantType::Int),
        vec![("a".into(), Value::from("x"))],
    );
    // A value of another type is written as it is: the engine keeps it on decode.
    let bytes = encode(&d, &Options::default()).unwrap();
    assert_eq!(decode(&bytes, &Options::default()).unwrap().0, d);
    let d = Value::typed_dictionary(
        ContainerType::Builtin(VariantType::String),
        ContainerType::Builtin(VariantType::Int),
        vec![(Value::Int(1), Value::Int(2))],
    );
    let (_, reason) = encode_error(&d, &Options::default());
    assert!(reason.contains("int key does not fit"), "{reason}");
    // Godot 4.3 has no typed Dictionaries: written untyped, kept whole.
    assert!(encode(&d, &Options::new(Dialect::Godot4_3)).is_ok());
    assert!(matches!(
        encode(&d, &Options::default()),
        Err(CodecError::Encode {
            reason: EncodeReason::Invalid(_),
            ..
        })
    ));
}

/// Bytes no engine writes: an Array[int] holding a String (the writer, by hand).
fn int_array_with_a_string() -> BytesMut {
    let opts = Options::default();
    let mut w = Writer::new(BytesMut::new(), &opts).unwrap();
    w.begin_array(&ContainerType::Builtin(VariantType::Int), 2)
        .unwrap();
    w.int(1).unwrap();
    w.string("x").unwrap();
    w.end_array();
    w.into_sink()
}

#[test]
fn dropped_elements_are_the_engines_result_or_an_error_when_asked() {
    let bytes = int_array_with_a_string();
    let opts = Options::default();
    assert_eq!(
        decode(&bytes, &opts).unwrap().0,
        int_array(vec![Value::Int(1)])
    );
    let strict = opts.with_refuse_dropped_elements(true);
    match decode(&bytes, &strict) {
        Err(CodecError::Decode {
            reason:
                DecodeReason::DroppedElement {
                    found, container, ..
                },
            ..
        }) => {
            assert_eq!(found, VariantType::String);
            assert_eq!(container, "Array[int]");
        }
        other => panic!("{other:?}"),
    }
}

/// The payload of a Godot 3.6.2 fixture (any container) and its 59 values read as Godot 3.
fn godot3_fixture(name: &str) -> (Vec<u8>, Vec<Value>) {
    let file = std::fs::read(saves().join("godot3_6_2").join(name)).expect("fixture");
    let payload = open(&file, Some(Dialect::Godot3), &OpenOptions::new(), no_codec)
        .map(|o| o.payload.into_owned())
        .or_else(|_| decompressed(&file))
        .expect("payload");
    let opts = Options::new(Dialect::Godot3).with_allow_objects(true);
    let values = records(&payload)
        .map(|r| decode(r.unwrap().bytes, &opts).unwrap().0)
        .collect();
    (payload, values)
}

/// The fixtures hold full objects.
fn with_objects() -> Options {
    Options::default().with_allow_objects(true)
}

fn no_codec(
    _: &[u8],
    _: fast_var_codec_core::save::Compression,
    _: usize,
) -> Result<Vec<u8>, String> {
    Err("no codec".into())
}

#[cfg(feature = "compression")]
fn decompressed(file: &[u8]) -> Result<Vec<u8>, FileError> {
    use fast_var_codec_core::save::decompress_block;
    open(file, None, &OpenOptions::new(), decompress_block).map(|o| o.payload.into_owned())
}

#[cfg(not(feature = "compression"))]
fn decompressed(_: &[u8]) -> Result<Vec<u8>, FileError> {
    Err(FileError::UnsupportedCompression("any"))
}

#[test]
fn a_godot3_save_is_found_without_its_dialect_and_refused_as_godot4() {
    let (payload, expected) = godot3_fixture("plain.bin");
    assert_eq!(expected.len(), 59);
    let (dialect, values) = decode_records(&payload, None, &with_objects()).unwrap();
    assert_eq!(dialect, Dialect::Godot3);
    assert_eq!(values, expected);
    // Named as Godot 4, the first record Godot 4 reads differently is an error naming Godot 3.
    let err = decode_records(&payload, Some(Dialect::Godot4), &with_objects()).unwrap_err();
    let RecordError::Value { error, .. } = &err else {
        panic!("{err}")
    };
    let text = err.to_string();
    eprintln!("{text}");
    assert!(
        matches!(
            error,
            CodecError::Decode {
                reason: DecodeReason::RecordNotWhole {
                    whole_in: Some(Dialect::Godot3),
                    ..
                },
                ..
            }
        ),
        "{text}"
    );
    assert!(text.contains("reads whole as Godot 3"), "{text}");
}

#[cfg(feature = "compression")]
#[test]
fn every_compressed_godot3_save_is_found_without_its_dialect() {
    let (_, expected) = godot3_fixture("plain.bin");
    for mode in ["fastlz", "deflate", "zstd", "gzip"] {
        let file =
            std::fs::read(saves().join(format!("godot3_6_2/compressed_{mode}.bin"))).unwrap();
        let payload = decompressed(&file).unwrap();
        let (dialect, values) = decode_records(&payload, None, &with_objects()).unwrap();
        assert_eq!(
            (dialect, values.len()),
            (Dialect::Godot3, expected.len()),
            "{mode}"
        );
    }
}

#[test]
fn a_frame_with_bytes_its_value_leaves_unread_is_an_error() {
    // A Godot 3 Rect2 (16 bytes of reals) is a Godot 4 Vector2i (8): as Godot 4, 8 left over.
    let g3 = Options::new(Dialect::Godot3);
    let mut out = BytesMut::new();
    frame(
        &Value::rect2(1.0, 2.0, 3.0, 4.0),
        &g3,
        ByteOrder::Little,
        &mut out,
    )
    .unwrap();
    frame(&Value::Int(5), &g3, ByteOrder::Little, &mut out).unwrap();
    let mut reader = StreamReader::new(Options::default());
    reader.feed(&out).unwrap();
    let err = reader.next_value().unwrap_err();
    assert!(
        matches!(
            &err,
            CodecError::Decode {
                offset: 16,
                reason: DecodeReason::RecordNotWhole {
                    used: 12,
                    len: 20,
                    whole_in: Some(Dialect::Godot3),
                    ..
                }
            }
        ),
        "{err}"
    );
    // The stream goes on after it.
    assert_eq!(reader.next_value().unwrap(), Some(Value::Int(5)));
    // The same record alone, and in its own dialect.
    let record = encode(&Value::rect2(1.0, 2.0, 3.0, 4.0), &g3).unwrap();
    assert!(decode_record(&record, &Options::default()).is_err());
    assert_eq!(
        decode_record(&record, &g3).unwrap(),
        Value::rect2(1.0, 2.0, 3.0, 4.0)
    );
}

/// A compressed file of valid 4 KiB zlib blocks of zeros announcing 1 GiB: a few megabytes that
/// would inflate to 1 GiB.
#[cfg(feature = "compression")]
fn deflate_bomb(payload: u32) -> Vec<u8> {
    use fast_var_codec_core::save::{compress_block, Compression};
    let block = compress_block(&[0; 4096], Compression::Deflate).unwrap();
    let count = payload as usize / 4096 + 1;
    let mut file = b"GCPF".to_vec();
    for word in [1u32, 4096, payload] {
        file.extend_from_slice(&word.to_le_bytes());
    }
    let last = compress_block(&[], Compression::Deflate).unwrap();
    for i in 0..count {
        let len = if i + 1 == count {
            last.len()
        } else {
            block.len()
        };
        file.extend_from_slice(&(len as u32).to_le_bytes());
    }
    for _ in 1..count {
        file.extend_from_slice(&block);
    }
    file.extend_from_slice(&last);
    file.extend_from_slice(b"GCPF");
    file
}

#[cfg(feature = "compression")]
#[test]
fn a_small_file_announcing_1_gib_is_refused_before_anything_is_inflated() {
    use fast_var_codec_core::save::{decompress_block, payload_of, DEFAULT_MAX_PAYLOAD};
    let file = deflate_bomb(1 << 30);
    let (res, usage) = measure(|| open(&file, None, &OpenOptions::new(), decompress_block));
    eprintln!(
        "a {} byte file announcing 1 GiB: refused with a peak of {} bytes of heap",
        file.len(),
        usage.peak
    );
    assert!(file.len() < 8 << 20);
    assert_eq!(
        res.unwrap_err(),
        FileError::PayloadOverLimit {
            announced: 1 << 30,
            limit: DEFAULT_MAX_PAYLOAD
        }
    );
    // The block table is read in place: nothing near the payload is allocated.
    assert!(usage.peak < file.len(), "peak {}", usage.peak);
    // The shortcuts have the same default.
    assert!(matches!(
        payload_of(Dialect::Godot4, &file, None, decompress_block),
        Err(FileError::PayloadOverLimit { .. })
    ));
    // A lower limit refuses a smaller file the same way; a payload within it is read.
    let small = deflate_bomb(64 << 10);
    let limited = OpenOptions::new().with_max_payload(32 << 10);
    assert!(matches!(
        open(&small, None, &limited, decompress_block),
        Err(FileError::PayloadOverLimit {
            announced: 65536,
            limit: 32768
        })
    ));
    let opened = open(
        &small,
        None,
        &OpenOptions::new().with_max_payload(64 << 10),
        decompress_block,
    )
    .unwrap();
    assert_eq!(opened.payload.len(), 64 << 10);
}

#[test]
fn a_packed_arrays_head_then_its_little_endian_numbers_make_the_writers_bytes() {
    // What a value source that places the numbers itself writes (the npm package's large typed
    // arrays): the head, the numbers' little-endian bytes, then zeros to the size it gives.
    let values = [
        (
            Value::PackedByteArray(vec![1, 2, 3, 4, 5]),
            5,
            vec![1, 2, 3, 4, 5],
        ),
        (Value::PackedByteArray(vec![]), 0, vec![]),
        (
            Value::PackedInt32Array(vec![-1, 7]),
            2,
            [(-1i32).to_le_bytes(), 7i32.to_le_bytes()].concat(),
        ),
        (
            Value::PackedInt64Array(vec![-1 << 40]),
            1,
            (-1i64 << 40).to_le_bytes().to_vec(),
        ),
        (
            Value::PackedFloat32Array(vec![0.5, -2.0]),
            2,
            [0.5f32.to_le_bytes(), (-2.0f32).to_le_bytes()].concat(),
        ),
        (
            Value::PackedFloat64Array(vec![0.1]),
            1,
            0.1f64.to_le_bytes().to_vec(),
        ),
    ];
    let mut placed = 0;
    for dialect in Dialect::ALL {
        let opts = Options::new(dialect);
        for (v, count, numbers) in &values {
            let ty = v.variant_type();
            let mut w = Writer::new(Vec::new(), &opts).expect("a writer");
            match w.packed_numbers_head(ty, *count).expect("a head") {
                Some(size) => {
                    let mut bytes = w.into_sink();
                    assert!(size >= numbers.len() && size - numbers.len() < 4);
                    bytes.extend_from_slice(numbers);
                    bytes.resize(bytes.len() + size - numbers.len(), 0);
                    assert_eq!(
                        bytes,
                        encode(v, &opts).expect("encodes").to_vec(),
                        "{v:?} in {dialect:?}"
                    );
                    placed += 1;
                }
                // Only where the dialect has no such type (the writer, strict, refuses it).
                None => {
                    assert!(w.into_sink().is_empty());
                    assert!(encode(v, &opts).is_err(), "{v:?} in {dialect:?}");
                }
            }
        }
    }
    assert!(placed >= 4 * Dialect::ALL.len());
    // No head for what is not a packed array of numbers.
    let opts = Options::default();
    let mut w = Writer::new(Vec::new(), &opts).expect("a writer");
    assert_eq!(
        w.packed_numbers_head(VariantType::PackedStringArray, 1)
            .ok(),
        Some(None)
    );
}

//! Transcoding equals decode then encode: on every engine-made case and malformed input of the
//! golden corpora (tests/golden/*.json, written by real engines), cut and altered forms of them,
//! and values with repeated keys, for every target dialect and precision, strict and lossy.
//!
//! `FVC_CORPUS_STRIDE=N` checks every Nth input of each corpus (all of them by default): the arm64
//! step runs these tests under an emulator, where the whole corpora take five minutes.

mod common;
mod corpus;

use fast_var_codec_core::options::Precision;
use fast_var_codec_core::transcode::{transcode, transcode_frames};
use fast_var_codec_core::{decode, encode, stream, CodecError, Dialect, Options, Result, Value};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Every target: each dialect in each precision it has, strict and lossy.
fn targets(objects: bool) -> Vec<Options> {
    let mut all = Vec::new();
    for dialect in Dialect::ALL {
        for precision in [Precision::Single, Precision::Double] {
            for lossy in [false, true] {
                let to = Options::new(dialect)
                    .with_precision(precision)
                    .with_allow_lossy(lossy)
                    .with_allow_objects(objects)
                    .with_full_objects(objects);
                if to.check().is_ok() {
                    all.push(to);
                }
            }
        }
    }
    all
}

fn decode_encode(bytes: &[u8], from: &Options, to: &Options) -> Result<(Vec<u8>, usize)> {
    let (v, used) = decode(bytes, from)?;
    Ok((encode(&v, to)?.to_vec(), used))
}

/// Same bytes and size, or both refused; a decode error is the same error.
fn same(bytes: &[u8], from: &Options, to: &Options, what: &str) {
    let expected = decode_encode(bytes, from, to);
    let got = transcode(bytes, from, to).map(|(b, used)| (b.to_vec(), used));
    match (&expected, &got) {
        (Ok(e), Ok(g)) => assert_eq!(e, g, "{what}: {from:?} -> {to:?}"),
        (Err(_), Err(_)) => {
            let decoded = decode(bytes, from);
            if let (Err(d), Err(g @ CodecError::Decode { .. })) = (&decoded, &got) {
                assert_eq!(d, g, "{what}: the decode error");
            }
        }
        _ => {
            panic!("{what}: {from:?} -> {to:?}\n decode+encode: {expected:?}\n transcode: {got:?}")
        }
    }
}

/// The inputs a corpus gives, with the options the engine read them with.
fn inputs(corpus: &Json) -> Vec<(String, Vec<u8>, bool)> {
    let mut all = Vec::new();
    for case in corpus["cases"].as_array().expect("cases") {
        let bytes = hex(case["bytes"].as_str().expect("bytes"));
        let objects = case["full_objects"].as_bool().unwrap_or(false);
        let name = case["name"].as_str().unwrap_or("?").to_owned();
        // Cut and altered: every error path of the reader, halfway through values.
        let len = bytes.len();
        for cut in [len / 2, len.saturating_sub(1), len.saturating_sub(5)] {
            if cut < len {
                all.push((
                    format!("{name} cut at {cut}"),
                    bytes[..cut].to_vec(),
                    objects,
                ));
            }
        }
        let mut flipped = bytes.clone();
        if let Some(b) = flipped.get_mut(len / 3) {
            *b ^= 0x5a;
            all.push((format!("{name} altered"), flipped, objects));
        }
        all.push((name, bytes, objects));
    }
    for m in corpus["malformed"].as_array().expect("malformed") {
        let bytes = hex(m["bytes"].as_str().expect("bytes"));
        let objects = m["allow_objects"].as_bool().unwrap_or(false);
        all.push((m["name"].as_str().unwrap_or("?").to_owned(), bytes, objects));
    }
    all
}

/// In a thread with room for the corpora's 1024-level values in an unoptimised build.
fn check_corpus(file: &'static str) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || check_corpus_here(file))
        .expect("a thread")
        .join()
        .expect("the check");
}

fn check_corpus_here(file: &str) {
    let corpus = corpus::load(file);
    let dialect: Dialect = corpus["dialect"]
        .as_str()
        .expect("dialect")
        .parse()
        .expect("a known dialect");
    let precision = match corpus["precision"].as_str() {
        Some("double") => Precision::Double,
        _ => Precision::Single,
    };
    let inputs = inputs(&corpus);
    assert!(inputs.len() > 100, "{file}: only {} inputs", inputs.len());
    let stride = common::corpus::stride();
    for objects in [false, true] {
        let from = Options::new(dialect)
            .with_precision(precision)
            .with_allow_objects(objects)
            .with_full_objects(objects);
        let targets = targets(objects);
        for (name, bytes, needs_objects) in inputs.iter().step_by(stride) {
            if *needs_objects && !objects {
                continue;
            }
            for to in &targets {
                same(bytes, &from, to, &format!("{file}: {name}"));
            }
        }
    }
}

#[test]
fn godot4_6_3() {
    check_corpus("godot4_6_3.json");
}

#[test]
fn godot4_6_3_double() {
    check_corpus("godot4_6_3_double.json");
}

#[test]
fn godot3_6_2() {
    check_corpus("godot3_6_2.json");
}

#[test]
fn godot3_2_3() {
    check_corpus("godot3_2_3.json");
}

#[test]
fn pandemonium_4_9_0() {
    check_corpus("pandemonium_4_9_0.json");
}

#[test]
fn pandemonium_5_2_0() {
    check_corpus("pandemonium_5_2_0.json");
}

fn s(x: &str) -> Value {
    Value::String(x.into())
}

fn vector2i() -> Value {
    Value::Vector2i([1, 2])
}

/// Repeated keys: the first key stays where it is with the last value; a value the target
/// cannot hold is forgiven when a later repeated key replaces it, and fails otherwise; the
/// same at every level.
#[test]
fn repeated_keys_merge_as_decode_merges_them() {
    let godot4 = Options::new(Dialect::Godot4);
    let godot3 = Options::new(Dialect::Godot3);
    let dict = |entries: Vec<(Value, Value)>| Value::dictionary(entries);
    let values = [
        dict(vec![
            (s("k"), Value::Int(1)),
            (s("a"), s("x")),
            (s("k"), Value::Int(2)),
        ]),
        // Three times, with a container value in between.
        dict(vec![
            (s("k"), Value::Int(1)),
            (s("a"), Value::array(vec![Value::Int(5); 3])),
            (s("k"), s("two")),
            (
                s("k"),
                dict(vec![(s("z"), Value::Nil), (s("z"), Value::Bool(true))]),
            ),
        ]),
        // Forgiven: Vector2i, which Godot 3 lacks, is replaced.
        dict(vec![(s("k"), vector2i()), (s("k"), Value::Int(1))]),
        // Not forgiven: it is the last value.
        dict(vec![(s("k"), Value::Int(1)), (s("k"), vector2i())]),
        // Deep inside a value that a later key replaces.
        dict(vec![
            (
                s("k"),
                Value::array(vec![Value::Int(1), dict(vec![(s("q"), vector2i())])]),
            ),
            (s("b"), Value::Int(3)),
            (s("k"), Value::Int(1)),
        ]),
        // Nested: the inner dictionary merges and is itself replaced, then kept.
        dict(vec![
            (
                s("o"),
                dict(vec![(s("i"), vector2i()), (s("i"), Value::Int(0))]),
            ),
            (
                s("o"),
                dict(vec![(s("j"), Value::Int(1)), (s("j"), Value::Int(2))]),
            ),
        ]),
        // String and StringName of the same text: one key in Godot 4, two in Godot 3.
        dict(vec![
            (s("n"), Value::Int(1)),
            (Value::StringName("n".into()), Value::Int(2)),
        ]),
        // A key Godot 3 cannot hold.
        dict(vec![(vector2i(), Value::Int(1))]),
        Value::array(vec![
            dict(vec![(s("k"), vector2i()), (s("k"), Value::Nil)]);
            3
        ]),
    ];
    for (i, v) in values.iter().enumerate() {
        for (from, to) in [(&godot4, &godot3), (&godot4, &godot4), (&godot3, &godot4)] {
            let Ok(bytes) = encode(v, from) else { continue };
            same(&bytes, from, to, &format!("value {i}"));
            let lossy = to.clone().with_allow_lossy(true);
            same(&bytes, from, &lossy, &format!("value {i}, lossy"));
        }
    }
}

/// A typed Array is written as it is read, its count mended when the engine drops elements; one
/// whose every element is dropped is empty, and an empty Array fits one level deeper than the
/// depth limit lets any other: it is transcoded as decode then encode treats it.
#[test]
fn typed_arrays_emptied_by_dropped_elements_fit_the_depth_limit() {
    // [Array[int](["x"])]: Godot 4.6.3 drops a String from an Array[int] (the corpus case
    // craft/array_typed_int_with_float_and_string).
    let bytes = hex(concat!(
        "1c000000", "01000000", "1c000100", "02000000", "01000000", "04000000", "01000000",
        "78000000"
    ));
    let from = Options::new(Dialect::Godot4);
    let (decoded, _) = decode(&bytes, &from).unwrap();
    let typed_empty = match &decoded {
        Value::Array(outer) => {
            matches!(&outer.items[..], [Value::Array(inner)] if inner.items.is_empty())
        }
        _ => false,
    };
    assert!(typed_empty, "the String is dropped: {decoded:?}");
    for depth in [1, 2] {
        let to = Options::new(Dialect::Godot4).with_max_depth(depth);
        same(&bytes, &from, &to, &format!("max_depth {depth}"));
        let (out, _) = transcode(&bytes, &from, &to).unwrap();
        assert_eq!(out.to_vec(), encode(&decoded, &to).unwrap().to_vec());
    }
}

/// A value the target cannot hold is reported with where it lies in the input.
#[test]
fn errors_give_the_input_offset() {
    let godot4 = Options::new(Dialect::Godot4);
    let godot3 = Options::new(Dialect::Godot3);
    let v = Value::array(vec![Value::Int(1), vector2i()]);
    let bytes = encode(&v, &godot4).unwrap();
    match transcode(&bytes, &godot4, &godot3) {
        Err(CodecError::Transcode { offset, .. }) => assert_eq!(offset, 16),
        other => panic!("expected a transcode error, got {other:?}"),
    }
}

/// Framed sequences, streamed: the same as framing each decoded value, with offsets counted
/// from the start of the input, and a frame above the maximum refused before it is read.
#[test]
fn frames_stream_as_decode_and_frame() {
    let godot3 = Options::new(Dialect::Godot3);
    let godot4 = Options::new(Dialect::Godot4);
    let values = [
        Value::Int(7),
        Value::dictionary(vec![(s("hp"), Value::Float(0.5)), (s("hp"), Value::Int(3))]),
        Value::PackedByteArray(vec![1, 2, 3]),
    ];
    let mut input = bytes::BytesMut::new();
    let mut expected = bytes::BytesMut::new();
    for v in &values {
        stream::frame(v, &godot3, stream::ByteOrder::Little, &mut input).unwrap();
        let decoded = decode(&encode(v, &godot3).unwrap(), &godot3).unwrap().0;
        stream::frame(&decoded, &godot4, stream::ByteOrder::Little, &mut expected).unwrap();
    }
    let mut out = Vec::new();
    let n = transcode_frames(
        &input[..],
        &mut out,
        &godot3,
        &godot4,
        stream::ByteOrder::Little,
        stream::DEFAULT_MAX_MESSAGE,
    )
    .unwrap();
    assert_eq!(n, 3);
    assert_eq!(out, expected.to_vec());

    // A bad type id in the third frame: the offset counts from the start of the input.
    let mut broken = input.to_vec();
    let third = broken.len() - 16; // prefix, header, count, 3 bytes, 1 of padding
    broken[third + 4] = 99;
    let err = transcode_frames(
        &broken[..],
        std::io::sink(),
        &godot3,
        &godot4,
        stream::ByteOrder::Little,
        stream::DEFAULT_MAX_MESSAGE,
    )
    .unwrap_err();
    let inner = err.into_inner().unwrap().downcast::<CodecError>().unwrap();
    assert!(
        matches!(*inner, CodecError::Decode { offset, .. } if offset == third + 4),
        "{inner}"
    );

    // A frame claiming more than the maximum.
    let err = transcode_frames(
        &[0xff, 0xff, 0xff, 0x7f, 0, 0][..],
        std::io::sink(),
        &godot3,
        &godot4,
        stream::ByteOrder::Little,
        1024,
    )
    .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    // Cut inside a frame.
    let err = transcode_frames(
        &input[..input.len() - 2],
        std::io::sink(),
        &godot3,
        &godot4,
        stream::ByteOrder::Little,
        1024,
    )
    .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
}

/// Inputs the `transcode` fuzz target found. A Pandemonium 5 PoolVector2Array holding a
/// signalling NaN: the Value model widens binary32 components to f64, which quiets it, and the
/// transcoder must give the same bytes. Dictionaries nested 1,023 deep ({"k": {"k": …}}): every
/// level goes through the transcoder's callbacks, which must keep the reader's frame small.
#[test]
fn fuzz_found_inputs() {
    let snan = hex("2100010001000000" /* PoolVector2Array, 1 */).into_iter();
    let bytes: Vec<u8> = snan.chain(hex("9a9999999999b97f")).collect();
    same(
        &bytes,
        &Options::new(Dialect::Pandemonium5),
        &Options::new(Dialect::Godot4),
        "a signalling NaN in a PoolVector2Array",
    );
    let mut deep = Vec::new();
    for _ in 0..1023 {
        deep.extend(hex("1b000000010000000400000001000000" /* {"k": */));
        deep.extend(hex("6b000000"));
    }
    deep.extend(hex("00000000"));
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let (g4, g3) = (Options::new(Dialect::Godot4), Options::new(Dialect::Godot3));
            same(&deep, &g4, &g3, "dictionaries 1,023 deep");
            assert!(transcode(&deep, &g4, &g3).is_ok());
        })
        .expect("a thread")
        .join()
        .expect("the check");
}

/// `transcode_bare_into_frame` reads one bare value; given `store_var` records Godot 3.6.2
/// wrote (the engine's file from its first record whose length is no type id: there a bare read
/// fails, with the length taken for an unknown type id), it says the input is framed. (A
/// length that is a type id can read as some other value: the bare reader cannot tell.) The
/// deprecated `transcode_framed_into` is the same function.
#[test]
fn framed_input_to_the_bare_reader_is_named() {
    use bytes::BytesMut;
    use fast_var_codec_core::error::DecodeReason;
    use fast_var_codec_core::save::records;
    use fast_var_codec_core::stream::ByteOrder;
    use fast_var_codec_core::transcode::transcode_bare_into_frame;
    /// Godot 3's type ids: 0 (nil) to 26 (PoolColorArray).
    const GODOT3_TYPES: usize = 27;

    let path = corpus::repo_path("tests/saves/godot3_6_2/plain.bin");
    let file = std::fs::read(&path).expect("the engine's store_var file");
    let godot3 = Options::new(Dialect::Godot3);
    let record = records(&file)
        .map(|r| r.expect("whole records"))
        .find(|r| r.bytes.len() >= GODOT3_TYPES && r.bytes.len() < 256)
        .expect("a record of such a length");
    let framed = &file[record.offset..];
    let len = record.bytes.len();
    // What a bare decode says of it: the length as a type id.
    let bare = decode(framed, &godot3).expect_err("no such type id");
    assert!(
        matches!(&bare, CodecError::Decode { reason: DecodeReason::UnknownType(t), .. } if *t as usize == len),
        "{bare}"
    );

    let mut out = BytesMut::from(&b"kept"[..]);
    let err = transcode_bare_into_frame(framed, &godot3, &godot3, ByteOrder::Little, &mut out)
        .expect_err("framed records are not one bare value");
    assert_eq!(
        err,
        CodecError::Decode {
            offset: 0,
            reason: DecodeReason::FramedInput { announced: len }
        }
    );
    assert!(err.to_string().contains("transcode_frames"), "{err}");
    assert_eq!(&out[..], b"kept");

    // The record's value, bare, is read and framed again: the engine's own bytes.
    let used =
        transcode_bare_into_frame(record.bytes, &godot3, &godot3, ByteOrder::Little, &mut out)
            .expect("a bare value");
    assert_eq!(used, len);
    assert_eq!(&out[4..], &framed[..4 + len]);
}

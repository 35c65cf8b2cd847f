//! serde over the bytes agrees with the codec on any input, in every dialect:
//! - reading any value and dropping it (`IgnoredAny`) succeeds exactly when `decode` does, uses
//!   the same number of bytes, and fails with the decoder's own error when the bytes are bad;
//! - a `Value` read through serde encodes to what `decode` then `encode` gives;
//! - a typed message read from the input writes back with `to_bytes` to bytes the codec decodes
//!   and re-encodes unchanged, and that reads back to the same bytes again (a fixpoint);
//! - `from_bytes` holds its allocations to the bound decodes are held to.
//!
//! Selector byte: src/lib.rs (bit 0 allows objects; bits 5-6 the depth limit).
#![no_main]
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::serde_format::{from_bytes, to_bytes, Deserializer};
use fast_var_codec_core::{decode, encode, CodecError, Dialect, Options, Value};
use fast_var_codec_fuzz::serde_message::Message;
use fast_var_codec_fuzz::{measure, within_heap_bound, Selector};
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde::Deserialize;

fuzz_target!(|data: &[u8]| {
    let Some((sel, data)) = Selector::split(data) else {
        return;
    };
    for dialect in Dialect::ALL {
        for precision in [Precision::Single, Precision::Double] {
            let opts = sel.options(dialect, precision);
            check(data, &opts);
        }
    }
});

fn check(data: &[u8], opts: &Options) {
    let decoded = decode(data, opts);

    // Any value, read and dropped.
    let mut de = Deserializer::from_bytes(data, opts);
    let (ignored, usage) = measure(|| IgnoredAny::deserialize(&mut de));
    assert!(
        within_heap_bound(&usage, data.len()),
        "reading {} bytes held {} bytes of heap",
        data.len(),
        usage.peak
    );
    match (&decoded, &ignored) {
        (Ok((_, used)), Ok(_)) => assert_eq!(*used, de.position(), "the size read"),
        (Err(d), Err(s)) => {
            if let Some(e @ CodecError::Decode { .. }) = s.codec_error() {
                assert_eq!(d, e, "the decode error");
            } else {
                panic!("decode refused with {d:?}, serde with {s:?}");
            }
        }
        _ => panic!("decode {decoded:?}, serde {ignored:?}"),
    }

    // A Value, through serde.
    let (through_serde, usage) = measure(|| from_bytes::<Value>(data, opts));
    assert!(within_heap_bound(&usage, data.len()));
    match (&decoded, &through_serde) {
        (Ok((v, _)), Ok(s)) => assert_eq!(
            encode(v, opts).map(|b| b.to_vec()),
            encode(s, opts).map(|b| b.to_vec()),
            "a Value read by decode and by serde"
        ),
        (Err(_), Err(_)) => {}
        _ => panic!("decode {decoded:?}, serde {through_serde:?}"),
    }

    // A typed message, written back.
    let (message, usage) = measure(|| from_bytes::<Message>(data, opts));
    assert!(within_heap_bound(&usage, data.len()));
    let Ok(message) = message else {
        return;
    };
    let Ok(written) = to_bytes(&message, opts) else {
        // What was read can fail to be written only where the model holds more than the
        // dialect carries: a Value inside, which decode takes in as well.
        return;
    };
    let (value, used) = decode(&written, opts).expect("to_bytes writes what decode reads");
    assert_eq!(used, written.len());
    assert_eq!(
        encode(&value, opts)
            .expect("a decoded value encodes")
            .to_vec(),
        written,
        "to_bytes writes the codec's bytes"
    );
    let again: Message = from_bytes(&written, opts).expect("written bytes read back");
    assert_eq!(
        to_bytes(&again, opts).expect("and write again"),
        written,
        "written, read and written again"
    );
}

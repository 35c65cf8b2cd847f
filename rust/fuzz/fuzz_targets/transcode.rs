//! Transcoding equals decode then encode on any input: for each source dialect and a few
//! targets (the other family strict and lossy, the same dialect, Godot 4 at double precision),
//! `transcode` must give the bytes and size that `decode` then `encode` give, or refuse when
//! either of them refuses (and, when the decode itself fails, with that very error unless a
//! value the target cannot hold came first). Its allocations are held to the bound decodes are
//! held to. Selector byte: src/lib.rs (bit 0 sets allow_objects and full_objects; bits 5-6 the
//! depth limit, applied to source and target alike). Runs in a thread with a 64 MiB stack: under
//! AddressSanitizer the transcoder's 1024 levels need more than the main thread's 8 MiB (in a
//! release build they fit in 2 MiB, as a decode's do).
#![no_main]
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::transcode::transcode;
use fast_var_codec_core::{decode, encode, CodecError, Dialect};
use fast_var_codec_fuzz::{measure, within_heap_bound, Selector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || check(&data))
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
});

fn check(data: &[u8]) {
    let Some((sel, data)) = Selector::split(data) else {
        return;
    };
    let full = sel.allow_objects;
    for from_dialect in Dialect::ALL {
        let from = sel.options(from_dialect, Precision::Single);
        let targets = [
            (Dialect::Godot4, Precision::Single, false),
            (Dialect::Godot4, Precision::Double, false),
            (Dialect::Godot3, Precision::Single, false),
            (Dialect::Godot3, Precision::Single, true),
            (from_dialect, Precision::Single, false),
        ];
        for (dialect, precision, lossy) in targets {
            let to = sel
                .options(dialect, precision)
                .with_full_objects(full)
                .with_allow_lossy(lossy);
            let expected = decode(data, &from)
                .and_then(|(v, used)| encode(&v, &to).map(|b| (b.to_vec(), used)));
            let (got, usage) = measure(|| transcode(data, &from, &to));
            assert!(
                within_heap_bound(&usage, data.len()),
                "transcoding {} bytes held {} bytes of heap",
                data.len(),
                usage.peak
            );
            let got = got.map(|(b, used)| (b.to_vec(), used));
            match (&expected, &got) {
                (Ok(e), Ok(g)) => assert_eq!(e, g, "{from_dialect:?} -> {dialect:?}"),
                (Err(_), Err(g)) => {
                    if let (Err(d), CodecError::Decode { .. }) = (decode(data, &from), g) {
                        assert_eq!(&d, g, "the decode error");
                    }
                }
                _ => panic!(
                    "{from_dialect:?} -> {dialect:?} {precision:?} lossy {lossy}:\n decode+encode {expected:?}\n transcode {got:?}"
                ),
            }
        }
    }
}

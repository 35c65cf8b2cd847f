//! Save files and `store_var` files of every container (plain, compressed in the four modes,
//! encrypted in either engine's container) opened with `save::open` and their records read with
//! `save::decode_records`, as the command-line tool, the Python package and the GDScript
//! `read_godot3_save` read them.
//!
//! Input: `flags`, then the file. Flags bit 0: a Godot 3 dialect named (else found: `None`);
//! bit 1: objects allowed. Encrypted files are opened with the test fixtures' password
//! (tests/saves/FORMAT.md), so the seeds from tests/saves/ decrypt.
//!
//! Checks: nothing panics; a file announcing more than `MAX_PAYLOAD` is refused with
//! `PayloadOverLimit` before anything is inflated; the heap held at once stays within the
//! harness' bound for the file plus its payload (so a file can never take memory its bytes do not
//! justify, whatever it announces; a compressed file whose block fails to inflate, the payload its
//! header announced, which the limit bounds), which libFuzzer's `-rss_limit_mb` backs; what is read has
//! every record whole in the dialect returned.
#![no_main]
use fast_var_codec_core::save::decode_records;
use fast_var_codec_core::save::{compressed_file, decompress_block, open, records, OpenOptions};
use fast_var_codec_core::save::{FileError, FileKey};
use fast_var_codec_core::{Dialect, Options};
use fast_var_codec_fuzz::{measure, within_heap_bound, Usage};
use libfuzzer_sys::fuzz_target;

/// The payload limit here: small, so that the bound below is tight.
const MAX_PAYLOAD: usize = 4 << 20;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, file)) = data.split_first() else {
        return;
    };
    let dialect = (flags & 1 != 0).then_some(Dialect::Godot3);
    let opts = Options::default().with_allow_objects(flags & 2 != 0);
    let key = FileKey::from_password("fvc secret ✓");
    let open_opts = OpenOptions::new()
        .with_key(Some(&key))
        .with_max_payload(MAX_PAYLOAD);
    let (result, usage) = measure(|| {
        let opened = open(file, dialect, &open_opts, decompress_block)?;
        let payload_len = opened.payload.len();
        assert!(
            payload_len <= MAX_PAYLOAD.max(file.len()),
            "payload of {payload_len} bytes"
        );
        let read = decode_records(&opened.payload, dialect, &opts);
        if let Ok((found, values)) = &read {
            assert!(dialect.is_none_or(|d| d == *found));
            assert_eq!(values.len(), records(&opened.payload).count());
        }
        Ok::<_, FileError>((payload_len, read.map(|(_, v)| v.len())))
    });
    // What the file may hold besides what its bytes justify: the payload read (which the records
    // decoded from it may multiply, as any decode's input), or the output buffers of a
    // compressed file whose block fails to inflate.
    let (payload_len, buffers) = match &result {
        Ok((n, _)) => (*n, 0),
        Err(FileError::PayloadOverLimit { announced, limit }) => {
            assert!(*announced > *limit as u64);
            (0, 0)
        }
        // The payload its header announced was accepted under the limit before any block was
        // inflated; the payload being assembled and the block being inflated are sized by it.
        Err(FileError::BlockDamaged { .. }) => {
            let announced = compressed_file(file).map_or(MAX_PAYLOAD, |c| c.payload_size as usize);
            (0, 2 * announced.min(MAX_PAYLOAD))
        }
        Err(e) => {
            let _ = e.to_string();
            (0, 0)
        }
    };
    let held = Usage {
        peak: usage.peak.saturating_sub(buffers),
        ..usage
    };
    assert!(
        within_heap_bound(&held, file.len() + payload_len),
        "a {}-byte file (payload {payload_len}, buffers {buffers}) held {} bytes of heap at once",
        file.len(),
        usage.peak
    );
});

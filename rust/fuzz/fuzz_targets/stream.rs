//! `stream::StreamReader`: the input is a byte stream of length-prefixed messages, fed in chunks
//! whose sizes come from the input; after each chunk every ready message is taken.
//!
//! Input: `flags`, `seed`, then the stream.
//!
//! | flags bits | meaning |
//! |---|---|
//! | 0 | big-endian length prefixes |
//! | 1 | allow_objects |
//! | 2 | Godot 3 dialect (else Godot 4) |
//! | 3 | max_message = `seed` (0–255 bytes), else the default 8 MiB |
//! | 4–5 | chunk sizes: 1–8, 1–64, 1–1024 bytes (from a xorshift seeded by `seed`), or all at once |
//! | 6 | take messages only after the last chunk (else after every chunk) |
//!
//! Checks, against a model that splits the whole stream at once and decodes each payload with
//! `decode_with`: the reader yields exactly the model's sequence — each complete message either
//! its value (when it takes the whole message) or its error (offset counted from the start of the stream), an oversized prefix a
//! limit error that then repeats and makes `feed` fail — never a value before its last byte has
//! arrived; `ready()` is true exactly when `next_value` has something; `buffered()` is what the
//! model leaves over.
#![no_main]
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::stream::{ByteOrder, StreamReader, DEFAULT_MAX_MESSAGE, PREFIX_LEN};
use fast_var_codec_core::value::ValueBuilder;
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use libfuzzer_sys::fuzz_target;

type Event = Result<Value, CodecError>;

struct Model {
    events: Vec<Event>,
    /// Stream offset just past each event's message (for a limit error: where it was found).
    ends: Vec<usize>,
    broken: bool,
    /// Bytes after the last complete message (not broken).
    leftover: usize,
}

fn model(stream: &[u8], big_endian: bool, max_message: usize, opts: &Options) -> Model {
    let mut m = Model {
        events: Vec::new(),
        ends: Vec::new(),
        broken: false,
        leftover: 0,
    };
    let mut pos = 0;
    while let Some(head) = stream.get(pos..pos + PREFIX_LEN) {
        let head: [u8; PREFIX_LEN] = head.try_into().unwrap();
        let len = if big_endian {
            u32::from_be_bytes(head)
        } else {
            u32::from_le_bytes(head)
        } as usize;
        if len > max_message {
            // The reader's own error: compared by code and offset only.
            m.events.push(Err(CodecError::decode(
                pos,
                fast_var_codec_core::error::DecodeReason::MessageTooLong {
                    len,
                    max: max_message,
                },
            )));
            m.ends.push(pos + PREFIX_LEN);
            m.broken = true;
            return m;
        }
        let Some(payload) = stream.get(pos + PREFIX_LEN..pos + PREFIX_LEN + len) else {
            break;
        };
        let at = pos + PREFIX_LEN;
        m.events.push(
            match decode_with(payload, 0, opts, &mut ValueBuilder::default()) {
                // A value must take its message whole (its final padding may be left out).
                Ok((v, used)) if used >= len => Ok(v),
                Ok((_, used)) => Err(CodecError::Decode {
                    offset: at + used,
                    reason: fast_var_codec_core::error::DecodeReason::RecordNotWhole {
                        used,
                        len,
                        dialect: opts.dialect,
                        whole_in: whole_in(payload, opts),
                    },
                }),
                Err(CodecError::Decode { offset, reason }) => Err(CodecError::Decode {
                    offset: at + offset,
                    reason,
                }),
                Err(e) => Err(e),
            },
        );
        pos += PREFIX_LEN + len;
        m.ends.push(pos);
    }
    m.leftover = stream.len() - pos;
    m
}

/// The first other dialect in which `payload` decodes and takes its bytes whole.
fn whole_in(payload: &[u8], opts: &Options) -> Option<Dialect> {
    Dialect::ALL
        .into_iter()
        .filter(|d| *d != opts.dialect)
        .find(|d| {
            let mut o = opts.clone();
            o.dialect = *d;
            o.check().is_ok()
                && matches!(
                    decode_with(payload, 0, &o, &mut ValueBuilder::default()),
                    Ok((_, used)) if used >= payload.len()
                )
        })
}

fn same_event(got: &Event, want: &Event, limit: bool) -> bool {
    match (got, want) {
        (Ok(a), Ok(b)) => a == b,
        (
            Err(CodecError::Decode {
                offset: oa,
                reason: ra,
            }),
            Err(CodecError::Decode {
                offset: ob,
                reason: rb,
            }),
        ) if limit => {
            oa == ob
                && matches!(
                    ra,
                    fast_var_codec_core::error::DecodeReason::MessageTooLong { .. }
                )
                && ra.code() == rb.code()
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
}

fuzz_target!(|data: &[u8]| {
    let [flags, seed, stream @ ..] = data else {
        return;
    };
    let (flags, seed) = (*flags, *seed);
    let big_endian = flags & 1 != 0;
    let dialect = if flags & 4 != 0 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    let opts = Options::new(dialect).with_allow_objects(flags & 2 != 0);
    let max_message = if flags & 8 != 0 {
        usize::from(seed)
    } else {
        DEFAULT_MAX_MESSAGE
    };
    let max_chunk = match (flags >> 4) & 3 {
        0 => 8,
        1 => 64,
        2 => 1024,
        _ => usize::MAX,
    };
    let drain_each = flags & 0x40 == 0;

    let want = model(stream, big_endian, max_message, &opts);
    let mut reader = StreamReader::new(opts.clone())
        .with_byte_order(ByteOrder::from_big_endian(big_endian))
        .with_max_message(max_message);
    let mut rng = Rng(u32::from(seed).wrapping_mul(0x9E37_79B9) | 1);
    let mut got: Vec<Event> = Vec::new();
    let mut fed = 0;
    let mut broken = false;

    let drain = |reader: &mut StreamReader, fed: usize, got: &mut Vec<Event>, broken: &mut bool| {
        if *broken {
            return;
        }
        loop {
            let ready = reader.ready();
            let next = reader.next_value();
            match next {
                Ok(None) => {
                    assert!(!ready, "ready() but next_value gave nothing");
                    return;
                }
                Ok(Some(v)) => {
                    assert!(ready, "next_value gave a value while not ready()");
                    got.push(Ok(v));
                }
                Err(e) => {
                    assert!(ready, "next_value gave an error while not ready(): {e}");
                    let i = got.len();
                    got.push(Err(e));
                    if want.broken && i + 1 == want.events.len() {
                        *broken = true;
                        return;
                    }
                }
            }
            let i = got.len() - 1;
            let Some(expected) = want.events.get(i) else {
                panic!(
                    "message {i}: the reader gave {:?}, the model has no more messages",
                    got[i]
                );
            };
            let limit = want.broken && i + 1 == want.events.len();
            assert!(
                same_event(&got[i], expected, limit),
                "message {i}: the reader gave {:?}, the model {expected:?}",
                got[i]
            );
            assert!(
                want.ends[i] <= fed,
                "message {i} taken after {fed} bytes but ends at byte {}",
                want.ends[i]
            );
        }
    };

    while fed < stream.len() {
        let n = if max_chunk == usize::MAX {
            stream.len()
        } else {
            1 + rng.next() as usize % max_chunk
        };
        let end = fed.saturating_add(n).min(stream.len());
        let r = reader.feed(&stream[fed..end]);
        assert_eq!(r.is_err(), broken, "feed: {r:?} while broken = {broken}");
        fed = end;
        if drain_each {
            drain(&mut reader, fed, &mut got, &mut broken);
        }
    }
    drain(&mut reader, fed, &mut got, &mut broken);

    if broken {
        let last = got.last().unwrap();
        let limit = want.events.len() - 1;
        assert!(
            same_event(last, &want.events[limit], true),
            "limit error: reader {last:?}, model {:?}",
            want.events[limit]
        );
        // Broken stays broken: the same error again, feed refused, ready().
        let again = reader.next_value();
        assert!(
            matches!(&again, Err(e) if Some(e) == last.as_ref().err()),
            "{again:?}"
        );
        assert!(reader.ready());
        assert!(reader.feed(&[0]).is_err());
        assert!(reader.broken().is_some());
        reader.reset();
        assert_eq!(reader.buffered(), 0);
        assert!(reader.broken().is_none());
        assert!(matches!(reader.next_value(), Ok(None)));
    } else {
        assert_eq!(
            got.len(),
            want.events.len(),
            "the reader gave {} messages, the model {}",
            got.len(),
            want.events.len()
        );
        assert!(!want.broken);
        assert_eq!(reader.buffered(), want.leftover, "bytes left over");
        assert!(!reader.ready());
        assert!(reader.broken().is_none());
    }
});

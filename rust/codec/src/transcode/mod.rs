//! Bytes of one dialect and precision to bytes of another, without building the values.
//!
//! The result is, byte for byte, what [`crate::decode`] then [`crate::encode`] give, and an
//! input one of them refuses is refused here too: the same reader checks the input (limits,
//! allow-list, object policy of `from`), and the same writer writes it (strict or lossy policy
//! of `to`). The reader's values go straight to the writer instead of into a tree; what the
//! engine changes on decode (typed containers convert or drop elements, equal Dictionary keys
//! merge) is applied as decode applies it (see `builder`).
//!
//! Time is linear in the input; memory is the output plus what is built: the keys of the
//! Dictionaries being read, the typed Dictionaries and objects being read (whole), and a typed
//! Array's elements that are not exactly of its type (one at a time).
//!
//! ```
//! use fast_var_codec_core::{decode, encode, transcode, Dialect, Options, Value};
//!
//! let godot3 = Options::new(Dialect::Godot3);
//! let godot4 = Options::new(Dialect::Godot4);
//! let value = Value::dictionary(vec![(Value::String("hp".into()), Value::Int(7))]);
//! let bytes3 = encode(&value, &godot3)?;
//! let (bytes4, used) = transcode::transcode(&bytes3, &godot3, &godot4)?;
//! assert_eq!(used, bytes3.len());
//! assert_eq!(bytes4, encode(&decode(&bytes3, &godot3)?.0, &godot4)?);
//! # Ok::<(), fast_var_codec_core::CodecError>(())
//! ```

mod builder;
mod splice;

use std::io::{self, Read, Write};

use bytes::BytesMut;

use crate::error::{CodecError, DecodeReason, Result};
use crate::limits::Options;
use crate::reader::decode_with;
use crate::stream::{check_message_len, prefix, prefix_len, ByteOrder, PREFIX_LEN};
use builder::Transcoder;

/// Transcodes the value at the start of `bytes` from `from` to `to`; returns its bytes and the
/// input consumed (as [`crate::decode`]'s, never more than `bytes.len()`).
///
/// # Errors
/// What [`crate::decode`] with `from` refuses (a [`CodecError::Decode`] with the offset), and a
/// value `to` cannot hold ([`CodecError::Transcode`]: the offset of that value in the input, and
/// the encode error); [`crate::error::EncodeReason::DoubleInGodot3`] when `to` asks for double
/// precision in a dialect without it.
///
/// # Examples
/// (The README's example.)
/// ```
/// use fast_var_codec_core::{transcode::transcode, Dialect, Options};
///
/// let godot3_bytes = [2, 0, 0, 0, 7, 0, 0, 0]; // Godot 3's var2bytes(7)
/// let (godot4_bytes, used) = transcode(
///     &godot3_bytes,
///     &Options::new(Dialect::Godot3),
///     &Options::new(Dialect::Godot4),
/// )?;
/// assert_eq!(&godot4_bytes[..], &[2, 0, 0, 0, 7, 0, 0, 0]); // the same layout for an int
/// assert_eq!(used, 8);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn transcode(bytes: &[u8], from: &Options, to: &Options) -> Result<(BytesMut, usize)> {
    let mut out = BytesMut::new();
    let used = transcode_into(bytes, from, to, &mut out)?;
    Ok((out, used))
}

/// As [`transcode`], appending to `out` (a reusable buffer); on failure `out` is left as it
/// was.
///
/// # Errors
/// As [`transcode`].
pub fn transcode_into(
    bytes: &[u8],
    from: &Options,
    to: &Options,
    out: &mut BytesMut,
) -> Result<usize> {
    let mut t = Transcoder::<false>::new(BytesMut::new(), to)?;
    transcode_with(&mut t, bytes, from, out)
}

/// Reads one bare value (`var_to_bytes`'s bytes, as [`transcode_into`] does) and appends it
/// framed as `StreamPeer.put_var` and `FileAccess.store_var` frame a value: the length in
/// `order`, then the value's bytes in `to`. Returns the input consumed; on failure `out` is
/// left as it was. Framed input (a `store_var` file, a `put_var` stream) is
/// [`transcode_frames`]'s.
///
/// # Errors
/// As [`transcode`], and [`crate::error::EncodeReason::TooLarge`] when the result does not fit the
/// u32 prefix. Input that is framed already fails with [`crate::error::DecodeReason::FramedInput`].
///
/// # Examples
/// ```
/// use bytes::BytesMut;
/// use fast_var_codec_core::stream::ByteOrder;
/// use fast_var_codec_core::transcode::transcode_bare_into_frame;
/// use fast_var_codec_core::error::DecodeReason;
/// use fast_var_codec_core::{encode, CodecError, Dialect, Options, Value};
///
/// let godot3 = Options::new(Dialect::Godot3);
/// let bare = encode(&Value::Int(7), &Options::default())?; // var_to_bytes(7) in Godot 4
/// let mut out = BytesMut::new();
/// transcode_bare_into_frame(&bare, &Options::default(), &godot3, ByteOrder::Little, &mut out)?;
/// assert_eq!(&out[..], &[8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]); // store_var(7) in Godot 3
///
/// // That framed record given back as input: named as such, not an unknown type id.
/// let err = transcode_bare_into_frame(&out, &godot3, &godot3, ByteOrder::Little, &mut BytesMut::new());
/// assert!(matches!(
///     err,
///     Err(CodecError::Decode { reason: DecodeReason::FramedInput { announced: 8 }, .. })
/// ));
/// # Ok::<(), CodecError>(())
/// ```
pub fn transcode_bare_into_frame(
    bytes: &[u8],
    from: &Options,
    to: &Options,
    order: ByteOrder,
    out: &mut BytesMut,
) -> Result<usize> {
    let mut t = Transcoder::<false>::new(BytesMut::new(), to)?;
    framed_with(&mut t, bytes, from, order, out).map_err(|e| framed_input(e, bytes, from, order))
}

/// A decode error turned into [`DecodeReason::FramedInput`] when the input starts with a framed
/// value: its first 4 bytes, read as a frame's length in `order`, announce bytes that follow
/// (all of them, or the first of several records), and those bytes are one whole value in
/// `from`. Any other error is kept. (Only on
/// the error path: a bare value's decode never pays for it.)
fn framed_input(e: CodecError, bytes: &[u8], from: &Options, order: ByteOrder) -> CodecError {
    if !matches!(e, CodecError::Decode { .. }) {
        return e;
    }
    let announced = bytes
        .first_chunk::<PREFIX_LEN>()
        .map(|h| prefix_len(*h, order));
    let record = announced.and_then(|n| bytes.get(PREFIX_LEN..PREFIX_LEN.checked_add(n)?));
    match (announced, record) {
        (Some(n), Some(record)) if n > 0 && crate::record::decode_record(record, from).is_ok() => {
            CodecError::decode(0, DecodeReason::FramedInput { announced: n })
        }
        _ => e,
    }
}

/// Transcodes a sequence of framed values (`StreamPeer.put_var`, `FileAccess.store_var`: a
/// 4-byte length in `order`, then the value) from `input` to `output`, frame by frame: memory
/// stays bounded by the largest frame (at most `max_message` bytes), whatever the input's
/// length. Returns the number of frames.
///
/// Each frame's value is transcoded as [`transcode`] does; bytes after it inside its frame are
/// left out, as the engine's `get_var` ignores them.
///
/// # Errors
/// An [`io::Error`] from `input` or `output`; [`io::ErrorKind::UnexpectedEof`] when the input
/// ends inside a frame; [`io::ErrorKind::InvalidData`] wrapping a [`CodecError`] whose offset
/// counts from the start of the input, for a length above `max_message` or a value
/// [`transcode`] refuses. What was written before stays written.
pub fn transcode_frames<R: Read, W: Write>(
    mut input: R,
    mut output: W,
    from: &Options,
    to: &Options,
    order: ByteOrder,
    max_message: usize,
) -> io::Result<u64> {
    let invalid = |e: CodecError| io::Error::new(io::ErrorKind::InvalidData, e);
    let mut t = Transcoder::<false>::new(BytesMut::new(), to).map_err(invalid)?;
    let mut payload = Vec::new();
    let mut out = BytesMut::new();
    let (mut at, mut frames) = (0usize, 0u64);
    loop {
        let mut head = [0u8; PREFIX_LEN];
        match read_up_to(&mut input, &mut head)? {
            0 => return Ok(frames),
            PREFIX_LEN => {}
            n => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("the input ends {n} byte(s) into the length of the frame at byte {at}"),
                ))
            }
        }
        let len = prefix_len(head, order);
        check_message_len(len, max_message, at).map_err(invalid)?;
        payload.clear();
        payload.resize(len, 0);
        input.read_exact(&mut payload).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("the frame at byte {at} ({len} bytes) is cut short: {e}"),
            )
        })?;
        out.clear();
        framed_with(&mut t, &payload, from, order, &mut out)
            .map_err(|e| invalid(e.shifted(at + PREFIX_LEN)))?;
        output.write_all(&out)?;
        at += PREFIX_LEN + len;
        frames += 1;
    }
}

/// One framed value with a reusable transcoder: prefix, then the value; `out` is left as it
/// was on failure.
fn framed_with(
    t: &mut Transcoder<'_, false>,
    bytes: &[u8],
    from: &Options,
    order: ByteOrder,
    out: &mut BytesMut,
) -> Result<usize> {
    let start = out.len();
    out.extend_from_slice(&[0; PREFIX_LEN]);
    let res = transcode_with(t, bytes, from, out).and_then(|used| {
        let head = prefix(out.len() - start - PREFIX_LEN, order)?;
        if let Some(slot) = out.get_mut(start..start + PREFIX_LEN) {
            slot.copy_from_slice(&head);
        }
        Ok(used)
    });
    if res.is_err() {
        out.truncate(start);
    }
    res
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_up_to<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while let Some(rest) = buf.get_mut(n..).filter(|r| !r.is_empty()) {
        match input.read(rest) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// One value with a reusable transcoder, appended to `out`; `out` is left as it was on failure.
/// A value the target cannot hold is then located by a second, locating run (failures are rare;
/// locating every value costs on every value).
fn transcode_with(
    t: &mut Transcoder<'_, false>,
    bytes: &[u8],
    from: &Options,
    out: &mut BytesMut,
) -> Result<usize> {
    match run(t, bytes, from, out) {
        Ok(used) => Ok(used),
        Err(Failed::Reading(e)) => Err(e),
        Err(Failed::Writing(unlocated)) => {
            let mut locating = Transcoder::<true>::new(BytesMut::new(), t.options())?;
            match run(&mut locating, bytes, from, &mut BytesMut::new()) {
                Err(Failed::Writing(e) | Failed::Reading(e)) => Err(e),
                Ok(_) => Err(unlocated),
            }
        }
    }
}

/// The most a transcoding reserves for its output before it starts.
const RESERVE_UP_FRONT: usize = 64 * 1024;

/// Why a run failed: the input (a decode error), or a value the target cannot hold.
enum Failed {
    Reading(CodecError),
    Writing(CodecError),
}

fn run<const LOCATE: bool>(
    t: &mut Transcoder<'_, LOCATE>,
    bytes: &[u8],
    from: &Options,
    out: &mut BytesMut,
) -> std::result::Result<usize, Failed> {
    t.reset();
    // The target's bytes are about as many as the source's: one allocation for a small value,
    // not a growth by doubling through it. Capped, since `bytes` may hold more than the value
    // (what follows it is ignored), and beyond that the doubling costs little.
    out.reserve(bytes.len().min(RESERVE_UP_FRONT));
    std::mem::swap(t.output_mut(), out);
    let base = t.output().len();
    let res = decode_with(bytes, 0, from, t);
    let failure = t.take_failure();
    std::mem::swap(t.output_mut(), out);
    let res = match (res, failure) {
        (Err(e), Some(f)) if Transcoder::<LOCATE>::is_stop(&e) => Err(Failed::Writing(f)),
        (Err(e), _) => Err(Failed::Reading(e)),
        (Ok(_), Some(f)) => Err(Failed::Writing(f)),
        (Ok((_, used)), None) => Ok(used),
    };
    match res {
        Ok(used) => {
            if !t.splices.is_empty() {
                let mut assembled = Vec::with_capacity(out.len() - base);
                t.splices.assemble(out, base, &mut assembled);
                out.truncate(base);
                out.extend_from_slice(&assembled);
            }
            Ok(used)
        }
        Err(e) => {
            out.truncate(base);
            Err(e)
        }
    }
}

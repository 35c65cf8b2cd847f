//! The methods called per value or per message — `FastVarCodec`'s `encode`, `decode`,
//! `encoded_size`, the three that report on the last call and the four that write to and read
//! from peers, and `FastVarStream`'s `put_var`, `poll`, `get_available_packet_count`, `get_var`
//! and its two reports —
//! registered with the engine through the GDExtension interface directly, not through `#[func]`.
//!
//! Why: with `experimental-threads`, a `#[func]` on `&self` binds the object through gdext's
//! blocking cell on every call (a mutex, `thread::current()`, a futex wake), and a
//! `#[func(gd_self)]` builds a `Gd` under a global lock: 200–300 ns before the first byte, where
//! the engine's whole `var_to_bytes(1)` takes about 90 ns. Here the engine calls one of two
//! functions (`ffi`: ptrcall from typed GDScript, varcall from untyped code and `call()`), which
//! find the object's state by the instance pointer the engine passes (`crate::codec_registry`),
//! and convert arguments and results by the engine's own conventions.
//!
//! This file is the table of methods; `registration` registers them and their editor help, and
//! the constants of `FastVarCodec`'s enums (`crate::class_enums`) with theirs.

mod ffi;
mod registration;

use crate::codec_state::CodecState;
use crate::stream_state::StreamShared;
use fast_var_codec_core::Options;
use ffi::{Args, Out, Written};
use godot::builtin::Variant;
use godot::classes::{PacketPeer, StreamPeer};

pub(crate) use registration::{
    codec_constants_docs_xml, codec_docs_xml, register, stream_docs_xml,
};

/// The kinds of parameter these methods take.
#[derive(Clone, Copy)]
pub(super) enum ParamKind {
    /// Any Variant, borrowed for the call.
    Variant,
    /// A PackedByteArray.
    Bytes,
    /// An int; `Some(d)`: may be left out, and is then `d`.
    Int(Option<i64>),
    /// An object of this engine class (or null).
    Object(&'static str),
}

/// The kinds of result.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ReturnKind {
    Variant,
    Bytes,
    Int,
    Error,
    String,
}

pub(super) struct Param {
    pub(super) name: &'static str,
    pub(super) kind: ParamKind,
}

/// One method: how the engine sees it, its help text (BBCode, as in `///` comments) and its body.
pub(super) struct Method<B: 'static> {
    pub(super) name: &'static str,
    pub(super) params: &'static [Param],
    pub(super) ret: ReturnKind,
    /// Registered `const`: the call changes nothing a later call sees (not even what
    /// `get_error()` reports). The others are not, whatever their Rust receiver.
    pub(super) reads_only: bool,
    pub(super) doc: &'static str,
    pub(super) run: B,
}

/// The body of a `FastVarCodec` method: the codec's state, a snapshot of its options, the
/// arguments, and where the result goes.
pub(super) type CodecBody = fn(&CodecState, &Options, &Args<'_>, Out) -> Option<Written>;

/// The body of a `FastVarStream` method.
pub(super) type StreamBody = fn(&StreamShared, &Args<'_>, Out) -> Option<Written>;

const VALUE: &[Param] = &[Param {
    name: "value",
    kind: ParamKind::Variant,
}];

const STREAM_PEER_AND_VALUE: &[Param] = &[
    Param {
        name: "peer",
        kind: ParamKind::Object("StreamPeer"),
    },
    Param {
        name: "value",
        kind: ParamKind::Variant,
    },
];

const STREAM_PEER: &[Param] = &[Param {
    name: "peer",
    kind: ParamKind::Object("StreamPeer"),
}];

const PACKET_PEER_AND_VALUE: &[Param] = &[
    Param {
        name: "peer",
        kind: ParamKind::Object("PacketPeer"),
    },
    Param {
        name: "value",
        kind: ParamKind::Variant,
    },
];

const PACKET_PEER: &[Param] = &[Param {
    name: "peer",
    kind: ParamKind::Object("PacketPeer"),
}];

/// Every directly registered method of `FastVarCodec`.
pub(super) static CODEC_METHODS: [Method<CodecBody>; 10] = [
    Method {
        name: "encode",
        params: VALUE,
        ret: ReturnKind::Bytes,
        reads_only: false,
        doc: "Encodes [param value]. Returns empty bytes on failure (see [method get_error]).",
        run: |s, o, a, out| Some(out.bytes(s.encode(o, a.variant(0)?))),
    },
    Method {
        name: "encoded_size",
        params: VALUE,
        ret: ReturnKind::Int,
        reads_only: false,
        doc: "The exact size [method encode] would return, computed without encoding; -1 on failure.",
        run: |s, o, a, out| Some(out.int(s.encoded_size(o, a.variant(0)?))),
    },
    Method {
        name: "decode",
        params: &[
            Param {
                name: "bytes",
                kind: ParamKind::Bytes,
            },
            Param {
                name: "offset",
                kind: ParamKind::Int(Some(0)),
            },
        ],
        ret: ReturnKind::Variant,
        reads_only: false,
        doc: "Decodes one value from [param bytes], starting at [param offset]: the value must \
              take the bytes from [param offset] on whole, unless [member allow_trailing_bytes] is \
              on; bytes left after it are [constant ERR_INVALID_DATA], the message naming the \
              dialect that reads them whole (a value of another dialect). \
              [method get_decoded_size] tells how many bytes were used. Returns [code]null[/code] \
              on failure; a failed decode leaves no object behind.",
        run: |s, o, a, out| {
            let mut converted = None;
            let bytes = a.bytes(0, &mut converted)?;
            Some(out.variant(s.decode(o, bytes, a.byte_source(0), a.int(1)?)))
        },
    },
    Method {
        name: "get_decoded_size",
        params: &[],
        ret: ReturnKind::Int,
        reads_only: true,
        doc: "Bytes consumed by this thread's last successful [method decode] or [method get_var] \
              on this codec (0 after a failure).",
        run: |s, _, _, out| Some(out.int(s.get_decoded_size())),
    },
    Method {
        name: "get_error",
        params: &[],
        ret: ReturnKind::Error,
        reads_only: true,
        doc: "The [enum Error] of this thread's last call on this codec: [constant OK], or why it \
              failed ([constant ERR_INVALID_DATA], [constant ERR_FILE_EOF], \
              [constant ERR_UNAUTHORIZED], [constant ERR_OUT_OF_MEMORY] …).",
        run: |s, _, _, out| Some(out.error(s.get_error())),
    },
    Method {
        name: "get_error_message",
        params: &[],
        ret: ReturnKind::String,
        reads_only: true,
        doc: "What went wrong in this thread's last call on this codec, with the byte offset \
              (decoding) or the path inside the value (encoding, e.g. [code][3].items[\"k\"][/code]); \
              empty after a success.",
        run: |s, _, _, out| Some(out.string(s.get_error_message())),
    },
    Method {
        name: "put_var",
        params: STREAM_PEER_AND_VALUE,
        ret: ReturnKind::Error,
        reads_only: false,
        doc: "Writes [param value] to [param peer] as [method StreamPeer.put_var] does: a 32-bit \
              length (in the peer's byte order) and the encoding. A message longer than \
              [member max_message_size] is refused with [constant ERR_OUT_OF_MEMORY] before \
              anything is written.",
        run: |s, _, a, out| {
            let err = match a.peer::<StreamPeer>(0, &s.calls) {
                Ok(peer) => s.put_var(peer, a.variant(1)?),
                Err(err) => err,
            };
            Some(out.error(err))
        },
    },
    Method {
        name: "get_var",
        params: STREAM_PEER,
        ret: ReturnKind::Variant,
        reads_only: false,
        doc: "Reads one value written by [method put_var] (or [method StreamPeer.put_var]) from \
              [param peer], waiting for all of it as [method StreamPeer.get_var] does. A length \
              above [member max_message_size] is refused without allocating. The value must \
              take its message whole: one that leaves bytes of it unread is another dialect's \
              ([constant ERR_INVALID_DATA], naming the dialect that reads it whole). Returns \
              [code]null[/code] on failure. To read without ever waiting, use [FastVarStream].",
        run: |s, _, a, out| {
            let value = match a.peer_gd::<StreamPeer>(0, &s.calls) {
                Ok(peer) => s.get_var(peer),
                Err(_) => Variant::nil(),
            };
            Some(out.variant(value))
        },
    },
    Method {
        name: "put_packet_var",
        params: PACKET_PEER_AND_VALUE,
        ret: ReturnKind::Error,
        reads_only: false,
        doc: "Sends [param value] as one packet, as [method PacketPeer.put_var] does (UDP, ENet, \
              WebSocket). Encodings longer than [member max_message_size] are refused with \
              [constant ERR_OUT_OF_MEMORY].",
        run: |s, _, a, out| {
            let err = match a.peer::<PacketPeer>(0, &s.calls) {
                Ok(peer) => s.put_packet_var(peer, a.variant(1)?),
                Err(err) => err,
            };
            Some(out.error(err))
        },
    },
    Method {
        name: "get_packet_var",
        params: PACKET_PEER,
        ret: ReturnKind::Variant,
        reads_only: false,
        doc: "Takes one packet from [param peer] and decodes it, as [method PacketPeer.get_var] \
              does. Returns [code]null[/code] with [constant ERR_BUSY] when no packet is waiting \
              yet (nothing has failed), refuses a packet longer than \
              [member max_message_size] with [constant ERR_OUT_OF_MEMORY], and one whose value \
              leaves bytes of it unread (another dialect's) with [constant ERR_INVALID_DATA].",
        run: |s, _, a, out| {
            let value = match a.peer::<PacketPeer>(0, &s.calls) {
                Ok(peer) => s.get_packet_var(peer),
                Err(_) => Variant::nil(),
            };
            Some(out.variant(value))
        },
    },
];

/// Every directly registered method of `FastVarStream`.
pub(super) static STREAM_METHODS: [Method<StreamBody>; 6] = [
    Method {
        name: "put_var",
        params: STREAM_PEER_AND_VALUE,
        ret: ReturnKind::Error,
        reads_only: false,
        doc: "Writes [param value] to [param peer] as [method StreamPeer.put_var] does: a 32-bit \
              length (in the peer's byte order) and the encoding, in this stream's [member codec]'s \
              settings. A message longer than [member FastVarCodec.max_message_size] is refused \
              with [constant ERR_OUT_OF_MEMORY] before anything is written.",
        run: |s, a, out| {
            let err = match a.peer::<StreamPeer>(0, &s.calls) {
                Ok(peer) => s.put_var(peer, a.variant(1)?),
                Err(err) => err,
            };
            Some(out.error(err))
        },
    },
    Method {
        name: "poll",
        params: STREAM_PEER,
        ret: ReturnKind::Error,
        reads_only: false,
        doc: "Takes every byte [param peer] has available right now (never waits) and adds it; \
              length prefixes are read in the peer's [member StreamPeer.big_endian] order. A \
              [StreamPeerTCP] still connecting ([code]STATUS_CONNECTING[/code]) has nothing yet: \
              [constant OK], nothing read. One that is closed ([code]STATUS_NONE[/code]) returns \
              [constant ERR_FILE_EOF], one that failed ([code]STATUS_ERROR[/code]) \
              [constant ERR_CONNECTION_ERROR]; [method get_error_message] names the status and the \
              size of any value left incomplete.",
        run: |s, a, out| {
            let err = match a.peer::<StreamPeer>(0, &s.calls) {
                Ok(peer) => s.poll(peer),
                Err(err) => err,
            };
            Some(out.error(err))
        },
    },
    Method {
        name: "get_available_packet_count",
        params: &[],
        ret: ReturnKind::Int,
        reads_only: true,
        doc: "How many values are waiting, as [method PacketPeer.get_available_packet_count] \
              counts packets: the messages received whole, each handed out by one \
              [method get_var] (a malformed one as its failure), and a length prefix above \
              [member FastVarCodec.max_message_size] not yet reported (the stream is broken \
              after it, and counts none until [method reset]).",
        run: |s, _, out| Some(out.int(s.get_available_packet_count())),
    },
    Method {
        name: "get_var",
        params: &[],
        ret: ReturnKind::Variant,
        reads_only: false,
        doc:
            "The next complete value, as [method PacketPeer.get_var] gives the next packet's. \
              [code]null[/code] with [constant ERR_BUSY] when none is complete yet (nothing has \
              failed: poll again later); [code]null[/code] with the decode error when the value \
              was malformed (it is skipped). ([constant ERR_BUSY], not the engine's \
              [constant ERR_UNAVAILABLE]: that is also the failure of a value naming a class this \
              engine cannot make.)",
        run: |s, _, out| Some(out.variant(s.get_var())),
    },
    Method {
        name: "get_error",
        params: &[],
        ret: ReturnKind::Error,
        reads_only: true,
        doc: "The [enum Error] of this thread's last call on this stream.",
        run: |s, _, out| Some(out.error(s.calls.error())),
    },
    Method {
        name: "get_error_message",
        params: &[],
        ret: ReturnKind::String,
        reads_only: true,
        doc: "What went wrong in this thread's last call on this stream; empty after a success.",
        run: |s, _, out| Some(out.string(s.calls.message())),
    },
];

//! `FastVarCodec`'s calls on peers: values framed on a `StreamPeer` as its `put_var`/`get_var`
//! frame them (the core's framing), and one value per packet on a `PacketPeer`.

use std::sync::Arc;

use fast_var_codec_core::stream::{check_message_len, prefix_len, ByteOrder, PREFIX_LEN};
use fast_var_codec_core::Options;
use godot::classes::{PacketPeer, PacketPeerUdp, StreamPeer};
use godot::global::Error;
use godot::prelude::*;

use crate::call_state::CallState;
use crate::codec_state::CodecState;
use crate::engine_bytes::ByteSource;
use crate::engine_methods::{self, Peer};
use crate::value_calls::{
    encode_frames_into_buffer, encode_into_buffer, encode_to_packed, Framing,
};

/// What a call that hands out a value returns when none has arrived yet (`get_packet_var`,
/// `FastVarStream.get_var`): `ERR_BUSY`, which no decode, peer or file failure uses, so a
/// script can tell "nothing yet" from a real failure by the code alone. Not `ERR_UNAVAILABLE`,
/// the engine's answer for an empty `PacketPeer`: the core reports a value naming a class that
/// cannot be made with it too (in the Godot 3 and Pandemonium dialects, as their engines do), so
/// "nothing yet" would read as that failure.
pub(crate) const NOTHING_YET: Error = Error::ERR_BUSY;

/// The failure of a call whose peer argument is null or not a `class`, reported through `calls`.
pub(crate) fn no_peer(calls: &CallState, class: &str) -> Error {
    calls.fail_with(
        Error::ERR_INVALID_PARAMETER,
        format!("the peer is null or not a {class}"),
    )
}

/// What a framed write needs of a codec's settings, read once per call (not once per value):
/// the options, and `max_message_size`, checked where each message's length is known anyway.
pub(crate) struct Writing {
    pub(crate) opts: Arc<Options>,
    pub(crate) max_message: usize,
}

impl Writing {
    /// The framing of a write to `peer`: its byte order, read once per call.
    fn framing(&self, peer: &Peer<'_, StreamPeer>) -> Framing {
        Framing {
            big_endian: engine_methods::is_big_endian_enabled(peer),
            max_message: self.max_message,
        }
    }
}

impl CodecState {
    /// What a framed write needs of the settings, in one read of them.
    pub(crate) fn writing(&self) -> Writing {
        let settings = self.settings();
        Writing {
            opts: settings.opts.clone(),
            max_message: settings.max_message,
        }
    }

    /// `FastVarCodec.put_var`: [`Self::put_framed_as`], reported as the codec's call.
    pub(crate) fn put_var(&self, peer: Peer<'_, StreamPeer>, value: &Variant) -> Error {
        self.put_framed_as(&self.calls, peer, value, &self.writing())
    }

    /// `FastVarCodec.put_var` and `FastVarStream.put_var`: `value` written to `peer` as
    /// `StreamPeer.put_var` writes it — the length prefix in the peer's own byte order, then the
    /// encoding — in one write, and reported through `calls` (the codec's own, or a stream's).
    pub(crate) fn put_framed_as(
        &self,
        calls: &CallState,
        peer: Peer<'_, StreamPeer>,
        value: &Variant,
        writing: &Writing,
    ) -> Error {
        let framing = writing.framing(&peer);
        let framed = match encode_into_buffer(&writing.opts, value, Some(framing)) {
            Ok(b) => b,
            Err(e) => return calls.fail_write(&e),
        };
        let err = engine_methods::put_data(&peer, &framed);
        if err != Error::OK {
            return calls.fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        calls.ok()
    }
    /// Writes every value of `values` framed as [`Self::put_framed_as`] frames one, in one
    /// write. A value that cannot be encoded fails the call before anything is written, and the
    /// message names its index.
    pub(crate) fn put_framed_all(
        &self,
        calls: &CallState,
        peer: Peer<'_, StreamPeer>,
        values: &VarArray,
        writing: &Writing,
    ) -> Error {
        let framing = writing.framing(&peer);
        let framed = match encode_frames_into_buffer(&writing.opts, values, framing) {
            Ok(b) => b,
            Err((index, e)) => {
                calls.fail_write(&e);
                let message = format!("value {index}: {}; nothing was written", calls.message());
                return calls.fail_with(calls.error(), message);
            }
        };
        let err = engine_methods::put_data(&peer, &framed);
        if err != Error::OK {
            return calls.fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        calls.ok()
    }

    pub(crate) fn put_packet_var(&self, peer: Peer<'_, PacketPeer>, value: &Variant) -> Error {
        let bytes = match encode_to_packed(&self.options(), value) {
            Ok(b) => b,
            Err(e) => return self.calls.fail(&e),
        };
        if let Err(e) = check_message_len(bytes.len(), self.settings().max_message, 0) {
            return self.calls.fail_write(&e);
        }
        let err = engine_methods::put_packet(&peer, &bytes);
        if err != Error::OK {
            return self
                .calls
                .fail_with(err, format!("the peer refused the packet ({err:?})"));
        }
        self.calls.ok()
    }
    pub(crate) fn get_packet_var(&self, peer: Peer<'_, PacketPeer>) -> Variant {
        // A PacketPeerUDP answers `get_packet` quietly with ERR_UNAVAILABLE when nothing is
        // waiting, and each of its calls polls the socket (a system call): it is not asked
        // first. Other peers (ENet, WebSocket) log an engine error for an empty queue.
        let quiet_when_empty = peer.is_a::<PacketPeerUdp>();
        if !quiet_when_empty && engine_methods::get_available_packet_count(&peer) <= 0 {
            return self.no_packet();
        }
        let packet = engine_methods::get_packet(&peer);
        let err = engine_methods::get_packet_error(&peer);
        if err == Error::ERR_UNAVAILABLE && quiet_when_empty {
            return self.no_packet();
        }
        if err != Error::OK {
            self.calls
                .fail_with(err, format!("receiving the packet failed ({err:?})"));
            return Variant::nil();
        }
        if let Err(e) = check_message_len(packet.len(), self.settings().max_message, 0) {
            self.calls.fail(&e);
            return Variant::nil();
        }
        let source = Some(ByteSource::Array(&packet));
        self.decode_record(&self.options(), packet.as_slice(), source)
    }
    /// "Nothing yet": [`NOTHING_YET`], distinct from every failure of a packet or its value.
    fn no_packet(&self) -> Variant {
        self.calls
            .fail_with(NOTHING_YET, "no packet is waiting yet".into());
        Variant::nil()
    }
    pub(crate) fn get_var(&self, mut peer: Gd<StreamPeer>) -> Variant {
        let head = match read_exact(&mut peer, PREFIX_LEN) {
            Ok(head) => head,
            Err(got) => {
                self.calls.fail_with(
                    Error::ERR_FILE_EOF,
                    format!("end of the stream: got {got} of the {PREFIX_LEN} bytes of a value's length"),
                );
                return Variant::nil();
            }
        };
        let Ok(head) = <[u8; PREFIX_LEN]>::try_from(head.as_slice()) else {
            self.calls.fail_with(
                Error::ERR_FILE_EOF,
                format!(
                    "end of the stream: got {} of the {PREFIX_LEN} bytes of a value's length",
                    head.len()
                ),
            );
            return Variant::nil();
        };
        let len = prefix_len(
            head,
            ByteOrder::from_big_endian(peer.is_big_endian_enabled()),
        );
        if let Err(e) = check_message_len(len, self.settings().max_message, 0) {
            self.calls.fail(&e);
            return Variant::nil();
        }
        let data = match read_exact(&mut peer, len) {
            Ok(data) => data,
            Err(got) => {
                self.calls.fail_with(
                    Error::ERR_FILE_EOF,
                    format!("end of the stream: got {got} of the {len} bytes of the value"),
                );
                return Variant::nil();
            }
        };
        let source = Some(ByteSource::Array(&data));
        self.decode_record(&self.options(), data.as_slice(), source)
    }
}

/// Exactly `len` bytes from `peer`, waiting for them as `StreamPeer.get_data` does; on failure
/// (the stream ended or broke first) the count of bytes that really arrived. The engine's
/// `get_data` answers a failure with an array of the full size whatever arrived, so the bytes
/// are taken with `get_partial_data` (which reports its count), and the wait is `get_data` of
/// one byte at a time: it returns as soon as any byte arrives, or fails when none will.
fn read_exact(peer: &mut Gd<StreamPeer>, len: usize) -> Result<PackedByteArray, usize> {
    let mut got = PackedByteArray::new();
    while got.len() < len {
        let want = i32::try_from(len - got.len()).unwrap_or(i32::MAX);
        let (err, part) = engine_methods::data_reply(&peer.get_partial_data(want));
        if err != Error::OK {
            return Err(got.len());
        }
        if got.is_empty() && part.len() == len {
            return Ok(part);
        }
        got.extend_array(&part);
        if got.len() >= len {
            break;
        }
        let (err, byte) = engine_methods::data_reply(&peer.get_data(1));
        if err != Error::OK || byte.len() != 1 {
            return Err(got.len());
        }
        got.extend_array(&byte);
    }
    Ok(got)
}

//! `FastVarStream`: values over a byte stream (TCP) that arrive split and coalesced.

use fast_var_codec_core::stream::{prefix, StreamReader, DEFAULT_MAX_MESSAGE};
use godot::classes::{IRefCounted, RefCounted, StreamPeer, StreamPeerTcp};
use godot::global::Error;
use godot::prelude::*;

use crate::codec::FastVarCodec;
use crate::from_wire::VariantBuilder;
use crate::last_error::LastError;

/// Reads values sent with [method StreamPeer.put_var] (or [method FastVarCodec.put_var]) from a
/// stream such as [StreamPeerTCP], without ever blocking: bytes are taken as they come, split or
/// coalesced in any way, and each value is handed out once it is complete.
/// [codeblock]
/// var stream := FastVarStream.new()
/// stream.codec.dialect = FastVarCodec.DIALECT_GODOT_3
/// func _process(_delta):
///     tcp.poll()
///     stream.poll(tcp)
///     while stream.has_var():
///         var value = stream.pop_var()
///         if stream.get_error() == OK:
///             handle(value)
/// [/codeblock]
/// A length prefix above [member max_message_size] is refused without allocating: the stream is
/// then broken ([method is_broken]) and the connection should be closed. A value that fails to
/// decode is skipped and reported; the stream goes on with the next one.
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct FastVarStream {
    /// The codec whose settings (dialect, objects, depth) encode and decode the values.
    #[var(get = get_codec, set = set_codec)]
    codec: Option<Gd<FastVarCodec>>,
    /// Byte order of the length prefix (the payload is always little-endian), as
    /// [member StreamPeer.big_endian].
    #[var(get = get_big_endian, set = set_big_endian)]
    big_endian: bool,
    /// Largest message accepted, in bytes (default 8 MiB, the engine's [code]encode_buffer_max_size[/code]).
    #[var(get = get_max_message_size, set = set_max_message_size)]
    max_message_size: i64,
    reader: StreamReader,
    last: LastError,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for FastVarStream {
    fn init(base: Base<RefCounted>) -> Self {
        Self {
            codec: Some(FastVarCodec::new_gd()),
            big_endian: false,
            max_message_size: DEFAULT_MAX_MESSAGE as i64,
            reader: StreamReader::new(false, DEFAULT_MAX_MESSAGE),
            last: LastError::default(),
            base,
        }
    }
}

#[godot_api]
impl FastVarStream {
    /// Returns [member codec].
    #[func]
    fn get_codec(&self) -> Option<Gd<FastVarCodec>> {
        self.codec.clone()
    }
    /// Sets [member codec].
    #[func]
    fn set_codec(&mut self, codec: Option<Gd<FastVarCodec>>) {
        match codec {
            Some(c) => self.codec = Some(c),
            None => godot_error!("FastVarStream: codec cannot be null"),
        }
    }
    /// Returns [member big_endian].
    #[func]
    fn get_big_endian(&self) -> bool {
        self.big_endian
    }
    /// Sets [member big_endian].
    #[func]
    fn set_big_endian(&mut self, on: bool) {
        self.big_endian = on;
        self.reader.set_big_endian(on);
    }
    /// Returns [member max_message_size].
    #[func]
    fn get_max_message_size(&self) -> i64 {
        self.max_message_size
    }
    /// Sets [member max_message_size].
    #[func]
    fn set_max_message_size(&mut self, size: i64) {
        match usize::try_from(size) {
            Ok(n) if n <= u32::MAX as usize => {
                self.max_message_size = size;
                self.reader.set_max_message(n);
            }
            _ => godot_error!("FastVarStream: max_message_size must be between 0 and 4294967295"),
        }
    }

    /// Adds received bytes. Fails only when the stream is broken.
    #[func]
    fn feed(&mut self, bytes: PackedByteArray) -> Error {
        match self.reader.feed(bytes.as_slice()) {
            Ok(()) => self.last.ok(),
            Err(e) => self.last.fail(e),
        }
    }

    /// Takes every byte [param peer] has available right now (never waits) and adds it.
    /// On a [StreamPeerTCP] that is not connected it returns [constant ERR_FILE_EOF] (with the
    /// size of any value left incomplete in the message).
    #[func]
    fn poll(&mut self, mut peer: Gd<StreamPeer>) -> Error {
        if let Ok(tcp) = peer.clone().try_cast::<StreamPeerTcp>() {
            if tcp.get_status() != godot::classes::stream_peer_tcp::Status::CONNECTED {
                let left = self.reader.buffered();
                let msg = if left > 0 {
                    format!(
                        "the connection is closed, {left} bytes of an incomplete value are left"
                    )
                } else {
                    "the connection is closed".to_string()
                };
                return self.last.fail_with(Error::ERR_FILE_EOF, msg);
            }
        }
        let available = peer.get_available_bytes();
        if available <= 0 {
            return self.last.ok();
        }
        let reply = peer.get_partial_data(available);
        let err = reply
            .get(0)
            .and_then(|e| e.try_to::<i64>().ok())
            .unwrap_or(0);
        if err != 0 {
            let e = Error::from_ord(err as i32);
            return self
                .last
                .fail_with(e, format!("reading from the peer failed ({e:?})"));
        }
        let data = reply
            .get(1)
            .and_then(|d| d.try_to::<PackedByteArray>().ok())
            .unwrap_or_default();
        self.feed(data)
    }

    /// True when a complete value is waiting (or an error is, which [method pop_var] reports).
    #[func]
    fn has_var(&self) -> bool {
        self.reader.ready()
    }

    /// The next complete value. [code]null[/code] with [constant ERR_UNAVAILABLE] when none is
    /// complete yet; [code]null[/code] with the decode error when the value was malformed (it is
    /// skipped).
    #[func]
    fn pop_var(&mut self) -> Variant {
        let codec = self.codec();
        let codec = codec.bind();
        let mut builder = VariantBuilder {
            allowed: codec.allow_list(),
        };
        let res = self.reader.next_value_with(codec.options(), &mut builder);
        drop(codec);
        match res {
            Ok(Some(v)) => {
                self.last.ok();
                v
            }
            Ok(None) => {
                self.last
                    .fail_with(Error::ERR_UNAVAILABLE, "no complete value yet".into());
                Variant::nil()
            }
            Err(e) => {
                self.last.fail(e);
                Variant::nil()
            }
        }
    }

    /// Writes [param value] framed for this stream (prefix in [member big_endian] order).
    #[func]
    fn put_var(&mut self, mut peer: Gd<StreamPeer>, value: Variant) -> Error {
        let bytes = self.codec().bind_mut().encode_variant(&value);
        let bytes = match bytes {
            Ok(b) => b,
            Err(e) => return self.last.fail(e),
        };
        let head = match prefix(bytes.len(), self.big_endian) {
            Ok(h) => h,
            Err(e) => return self.last.fail(e),
        };
        let mut framed = PackedByteArray::from(&head[..]);
        framed.extend_array(&bytes);
        let err = peer.put_data(&framed);
        if err != Error::OK {
            return self
                .last
                .fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        self.last.ok()
    }

    /// Bytes received but not yet handed out as values.
    #[func]
    fn get_buffered_bytes(&self) -> i64 {
        self.reader.buffered() as i64
    }

    /// True after a length prefix above [member max_message_size]: close the connection, or
    /// [method reset] to start over.
    #[func]
    fn is_broken(&self) -> bool {
        self.reader.broken().is_some()
    }

    /// Forgets buffered bytes and the broken state.
    #[func]
    fn reset(&mut self) {
        self.reader.reset();
        self.last.ok();
    }

    /// The [enum Error] of the last call.
    #[func]
    fn get_error(&self) -> Error {
        self.last.error()
    }

    /// What went wrong in the last call; empty after a success.
    #[func]
    fn get_error_message(&self) -> GString {
        self.last.message()
    }
}

impl FastVarStream {
    /// The codec (never null: the setter refuses null).
    fn codec(&mut self) -> Gd<FastVarCodec> {
        self.codec.get_or_insert_with(FastVarCodec::new_gd).clone()
    }
}

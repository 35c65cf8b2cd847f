//! `FastVarStream`: values over a byte stream (TCP) that arrive split and coalesced.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use fast_var_codec_core::stream::{ByteOrder, StreamReader, DEFAULT_MAX_MESSAGE};
use godot::classes::{IRefCounted, RefCounted, StreamPeer, StreamPeerTcp};
use godot::global::Error;
use godot::prelude::*;
use godot::register::property::PhantomVar;

use crate::call_state::CallState;
use crate::codec::FastVarCodec;
use crate::codec_state::CodecState;
use crate::engine_methods::{self, Peer};
use crate::from_wire::VariantBuilder;
use crate::settings;

/// Reads values sent with [method StreamPeer.put_var] (or [method FastVarCodec.put_var]) from a
/// stream such as [StreamPeerTCP], without ever blocking.
///
/// Bytes are taken as they come, split or coalesced in any way, and each value is handed out once
/// it is complete.
///
/// ```gdscript
/// var stream := FastVarStream.new()
/// stream.codec.dialect = FastVarCodec.DIALECT_GODOT_3
/// func _process(_delta):
///     tcp.poll()
///     stream.poll(tcp)
///     while stream.has_var():
///         var value = stream.pop_var()
///         if stream.get_error() == OK:
///             handle(value)
/// ```
///
/// A length prefix above [member max_message_size] is refused without allocating: the stream is
/// then broken ([method is_broken]) and the connection should be closed. A value that fails to
/// decode is skipped and reported; the stream goes on with the next one.
///
/// [b]Threads:[/b] every method may be called from any thread; calls on one stream take turns.
/// [method get_error] and [method get_error_message] report the last call made from the calling
/// thread.
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct FastVarStream {
    /// The codec whose settings (dialect, objects, depth) encode and decode the values.
    #[var(get = get_codec, set = set_codec)]
    codec: PhantomVar<Option<Gd<FastVarCodec>>>,
    /// Byte order of the length prefix (the payload is always little-endian), as
    /// [member StreamPeer.big_endian].
    #[var(get = get_big_endian, set = set_big_endian)]
    big_endian: PhantomVar<bool>,
    /// Largest message accepted, in bytes (default 8 MiB, the engine's [code]encode_buffer_max_size[/code]).
    #[var(get = get_max_message_size, set = set_max_message_size)]
    max_message_size: PhantomVar<i64>,
    /// The codec object itself, kept alive by the stream (its settings are in `shared`).
    codec_object: Mutex<Gd<FastVarCodec>>,
    shared: Arc<StreamShared>,
    base: Base<RefCounted>,
}

/// What a `FastVarStream` holds, shared by the threads that call it: reached through gdext's
/// binding from its `#[func]`s, and by the instance pointer from the methods that
/// `crate::direct` registers (`put_var`, `poll`, `has_var`, `pop_var`, `get_error`,
/// `get_error_message`).
pub(crate) struct StreamShared {
    state: Mutex<StreamState>,
    pub(crate) calls: CallState,
    /// The key it is registered under for direct calls (`crate::codec_registry`).
    pub(crate) registered: OnceLock<usize>,
}

struct StreamState {
    /// The codec's settings and encoder, reached without binding it on every value.
    codec_state: Arc<CodecState>,
    big_endian: bool,
    max_message_size: i64,
    reader: StreamReader,
}

#[godot_api]
impl IRefCounted for FastVarStream {
    fn init(base: Base<RefCounted>) -> Self {
        let codec = FastVarCodec::new_gd();
        let codec_state = codec.bind().state().clone();
        Self {
            codec: PhantomVar::default(),
            big_endian: PhantomVar::default(),
            max_message_size: PhantomVar::default(),
            codec_object: Mutex::new(codec),
            shared: Arc::new(StreamShared {
                state: Mutex::new(StreamState {
                    codec_state,
                    big_endian: false,
                    max_message_size: DEFAULT_MAX_MESSAGE as i64,
                    reader: StreamReader::new(ByteOrder::Little, DEFAULT_MAX_MESSAGE),
                }),
                calls: CallState::default(),
                registered: OnceLock::new(),
            }),
            base,
        }
    }
}

// `put_var`, `poll`, `has_var`, `pop_var`, `get_error` and `get_error_message` are registered by
// `crate::direct`, without gdext's binding.
#[godot_api]
impl FastVarStream {
    /// Returns [member codec].
    #[func]
    fn get_codec(&self) -> Option<Gd<FastVarCodec>> {
        Some(self.codec_object().clone())
    }
    /// Sets [member codec].
    #[func]
    fn set_codec(&self, codec: Option<Gd<FastVarCodec>>) {
        match codec {
            Some(c) => {
                let codec_state = c.bind().state().clone();
                let mut object = self.codec_object();
                self.shared.state().codec_state = codec_state;
                *object = c;
            }
            None => godot_error!("FastVarStream: codec cannot be null"),
        }
    }
    /// Returns [member big_endian].
    #[func]
    fn get_big_endian(&self) -> bool {
        self.shared.state().big_endian
    }
    /// Sets [member big_endian].
    #[func]
    fn set_big_endian(&self, on: bool) {
        let mut state = self.shared.state();
        state.big_endian = on;
        state.reader.set_big_endian(on);
    }
    /// Returns [member max_message_size].
    #[func]
    fn get_max_message_size(&self) -> i64 {
        self.shared.state().max_message_size
    }
    /// Sets [member max_message_size].
    #[func]
    fn set_max_message_size(&self, size: i64) {
        match settings::message_size(size) {
            Ok(n) => {
                let mut state = self.shared.state();
                state.max_message_size = size;
                state.reader.set_max_message(n);
            }
            Err(why) => godot_error!("FastVarStream: {why}"),
        }
    }

    /// Adds received bytes. Fails only when the stream is broken.
    #[func]
    fn feed(&self, bytes: PackedByteArray) -> Error {
        self.shared.feed(bytes.as_slice())
    }

    /// Every complete value received, in order, at most [param max_count] of them (all when
    /// negative); an empty array when none is complete yet, with [constant OK].
    ///
    /// It stops at a malformed value: the values before it are returned, the malformed one is
    /// skipped and reported by [method get_error] and [method get_error_message] (as [method
    /// pop_var] reports it), and the next call goes on after it. So when [method get_error] is
    /// not [constant OK], the failed value came right after the last one returned. An oversized
    /// length prefix stops it the same way and breaks the stream ([method is_broken]).
    /// ```gdscript
    /// func _process(_delta):
    ///     tcp.poll()
    ///     stream.poll(tcp)
    ///     for value in stream.pop_vars():
    ///         handle(value)
    ///     if stream.get_error() != OK:
    ///         push_warning(stream.get_error_message())
    /// ```
    #[func]
    fn pop_vars(&self, #[opt(default = -1)] max_count: i64) -> VarArray {
        let limit = usize::try_from(max_count).unwrap_or(usize::MAX);
        let mut values = VarArray::new();
        let mut builder = VariantBuilder::default();
        let mut state = self.shared.state();
        let opts = state.codec_state.options();
        let mut failure = None;
        while values.len() < limit {
            match state.reader.next_value_with(&opts, &mut builder) {
                Ok(Some(v)) => values.push(&v),
                Ok(None) => break,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        drop(state);
        match failure {
            Some(e) => {
                builder.discard();
                self.shared.calls.fail(&e);
            }
            None => {
                self.shared.calls.ok();
            }
        }
        values
    }

    /// Writes every value of [param values] framed for this stream, as [method put_var] writes
    /// one, in one write to [param peer]: one packet for a whole network tick instead of one per
    /// value. When a value cannot be encoded nothing is written, and [method
    /// get_error_message] names its index.
    #[func]
    fn put_vars(&self, peer: Gd<StreamPeer>, values: VarArray) -> Error {
        let (codec, big_endian) = self.shared.codec_and_order();
        codec.put_framed_all(&self.shared.calls, Peer::of_gd(&peer), &values, big_endian)
    }

    /// Bytes received but not yet handed out as values.
    #[func]
    fn get_buffered_bytes(&self) -> i64 {
        self.shared.state().reader.buffered() as i64
    }

    /// True after a length prefix above [member max_message_size]: close the connection, or
    /// [method reset] to start over.
    #[func]
    fn is_broken(&self) -> bool {
        self.shared.state().reader.broken().is_some()
    }

    /// Forgets buffered bytes and the broken state.
    #[func]
    fn reset(&self) {
        self.shared.state().reader.reset();
        self.shared.calls.ok();
    }
}

impl FastVarStream {
    /// The state the directly registered methods reach.
    pub(crate) fn shared(&self) -> &Arc<StreamShared> {
        &self.shared
    }

    fn codec_object(&self) -> MutexGuard<'_, Gd<FastVarCodec>> {
        self.codec_object
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for FastVarStream {
    fn drop(&mut self) {
        crate::codec_registry::forget_stream(&self.shared);
    }
}

impl StreamShared {
    /// Adds received bytes; fails only when the stream is broken.
    pub(crate) fn feed(&self, bytes: &[u8]) -> Error {
        let res = self.state().reader.feed(bytes);
        match res {
            Ok(()) => self.calls.ok(),
            Err(e) => self.calls.fail(&e),
        }
    }

    /// `poll`: takes every byte `peer` has available right now (never waits) and adds it.
    pub(crate) fn poll(&self, peer: Peer<'_, StreamPeer>) -> Error {
        if let Some(tcp) = peer.as_a::<StreamPeerTcp>() {
            // STATUS_CONNECTED, by value: the enum is StreamPeerTCP's up to Godot 4.5 and
            // StreamPeerSocket's from 4.6 (the API a double-precision build is made against).
            if engine_methods::tcp_status(&tcp) != 2 {
                let left = self.state().reader.buffered();
                let msg = if left > 0 {
                    format!(
                        "the connection is closed, {left} bytes of an incomplete value are left"
                    )
                } else {
                    "the connection is closed".to_string()
                };
                return self.calls.fail_with(Error::ERR_FILE_EOF, msg);
            }
        }
        let available = engine_methods::get_available_bytes(&peer);
        if available <= 0 {
            return self.calls.ok();
        }
        let reply = engine_methods::get_partial_data(&peer, available);
        // A script peer may answer any number: one the engine does not know is FAILED.
        let (err, data) = engine_methods::data_reply(&reply);
        if err != Error::OK {
            return self
                .calls
                .fail_with(err, format!("reading from the peer failed ({err:?})"));
        }
        self.feed(data.as_slice())
    }

    /// `has_var`: whether a complete value (or an error) is waiting.
    pub(crate) fn has_var(&self) -> bool {
        self.state().reader.ready()
    }

    /// `pop_var`: the next complete value, or null with the reason.
    pub(crate) fn pop_var(&self) -> Variant {
        let mut state = self.state();
        let opts = state.codec_state.options();
        let mut builder = VariantBuilder::default();
        let res = state.reader.next_value_with(&opts, &mut builder);
        drop(state);
        match res {
            Ok(Some(v)) => {
                self.calls.ok();
                v
            }
            Ok(None) => {
                self.calls
                    .fail_with(Error::ERR_UNAVAILABLE, "no complete value yet".into());
                Variant::nil()
            }
            Err(e) => {
                builder.discard();
                self.calls.fail(&e);
                Variant::nil()
            }
        }
    }

    /// `put_var`: `value` framed for this stream, written to `peer`.
    pub(crate) fn put_var(&self, peer: Peer<'_, StreamPeer>, value: &Variant) -> Error {
        let (codec, big_endian) = self.codec_and_order();
        codec.put_framed(&self.calls, peer, value, big_endian)
    }

    /// The codec's state and the prefix's byte order, taken out of the lock for a write.
    fn codec_and_order(&self) -> (Arc<CodecState>, bool) {
        let state = self.state();
        (state.codec_state.clone(), state.big_endian)
    }

    /// The stream's state, for one step of a call (a panic elsewhere never locks it for good).
    fn state(&self) -> MutexGuard<'_, StreamState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

//! `FastVarStream`: values over a byte stream (TCP) that arrive split and coalesced.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use godot::classes::{IRefCounted, RefCounted, StreamPeer};
use godot::global::Error;
use godot::prelude::*;
use godot::register::property::PhantomVar;

use crate::codec::FastVarCodec;
use crate::engine_methods::Peer;
use crate::from_wire::{untyped_array_of, VariantBuilder};
use crate::peer_io::no_peer;
use crate::stream_state::StreamShared;

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
///     if stream.poll(tcp) != OK:  # closed or failed; while connecting, OK with nothing read
///         push_warning(stream.get_error_message())
///         return
///     while stream.get_available_packet_count() > 0:
///         var value = stream.get_var()
///         if stream.get_error() == OK:
///             handle(value)
/// ```
///
/// Each length prefix is in the peer's [member StreamPeer.big_endian] order, as
/// [method StreamPeer.put_var] writes it ([method feed]'s bytes: little-endian). A length prefix
/// above the [member codec]'s [member FastVarCodec.max_message_size] is refused without
/// allocating: the stream is then broken ([method is_broken]) and the connection should be
/// closed. A value that fails to decode is skipped and reported; the stream goes on with the
/// next one.
///
/// [b]Threads:[/b] every method may be called from any thread; calls on one stream take turns.
/// [method get_error] and [method get_error_message] report the last call made from the calling
/// thread.
#[derive(GodotClass)]
// `tool`: it works in the editor as in a game (the Saves dock, editor plugins, @tool scripts);
// nothing of it is for a running game only.
#[class(tool, base = RefCounted)]
pub struct FastVarStream {
    /// The codec whose settings (dialect, objects, limits) encode and decode the values,
    /// [member FastVarCodec.max_message_size] among them: the one limit of every length prefix
    /// read or written. A new stream has a codec of its own, with the defaults.
    // Registered for neither the editor nor storage: the editor reads the default of every such
    // property from a new object, and warns at each start that an instantiated FastVarCodec is
    // a default. Scripts read and set it as before.
    #[var(get = get_codec, set = set_codec, usage_flags = [NONE])]
    codec: PhantomVar<Option<Gd<FastVarCodec>>>,
    /// The codec object itself, kept alive by the stream (its settings are in `shared`).
    codec_object: Mutex<Gd<FastVarCodec>>,
    shared: Arc<StreamShared>,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for FastVarStream {
    fn init(base: Base<RefCounted>) -> Self {
        let codec = FastVarCodec::new_gd();
        let codec_state = codec.bind().state().clone();
        Self {
            codec: PhantomVar::default(),
            codec_object: Mutex::new(codec),
            shared: Arc::new(StreamShared::new(codec_state)),
            base,
        }
    }
}

// `put_var`, `poll`, `get_available_packet_count`, `get_var`, `get_error` and `get_error_message`
// are registered by
// `crate::direct`, without gdext's binding.
#[godot_api]
impl FastVarStream {
    // `const` only when nothing changes, as in `FastVarCodec`: the calls that change state take
    // `gd_self` (no bind held while they run); the setter and the getters `&self`.
    /// Returns [member codec].
    #[func]
    fn get_codec(&self) -> Option<Gd<FastVarCodec>> {
        Some(self.codec_object().clone())
    }
    /// Sets [member codec]. [code]null[/code] is refused: the stream keeps its codec, and
    /// [method get_error] returns [constant ERR_INVALID_PARAMETER].
    #[func]
    fn set_codec(&self, codec: Option<Gd<FastVarCodec>>) {
        match codec {
            Some(c) => {
                let codec_state = c.bind().state().clone();
                let mut object = self.codec_object();
                self.shared.state().set_codec_state(codec_state);
                *object = c;
                self.shared.calls.ok();
            }
            None => {
                let message = "codec cannot be null; the stream keeps its codec";
                crate::call_state::log_error("set_codec", &format!("FastVarStream: {message}"));
                self.shared
                    .calls
                    .fail_with(Error::ERR_INVALID_PARAMETER, message.into());
            }
        }
    }

    /// Adds received bytes. Fails only when the stream is broken.
    #[func(gd_self)]
    fn feed(this: Gd<Self>, bytes: PackedByteArray) -> Error {
        let shared = Arc::clone(&this.bind().shared);
        shared.feed(bytes.as_slice())
    }

    /// Every complete value received, in order, at most [param max_count] of them (all when
    /// negative); an empty array when none is complete yet, with [constant OK] unless the last
    /// [method poll] failed: that failure (a closed connection, with the size of any value left
    /// incomplete) is reported again after the values, until the next [method poll],
    /// [method feed] or [method reset].
    ///
    /// It stops at a malformed value: the values before it are returned, the malformed one is
    /// skipped and reported by [method get_error] and [method get_error_message] (as [method
    /// get_var] reports it), and the next call goes on after it. So when [method get_error] is
    /// not [constant OK], the failed value came right after the last one returned. An oversized
    /// length prefix stops it the same way and breaks the stream ([method is_broken]).
    /// ```gdscript
    /// func _process(_delta):
    ///     tcp.poll()
    ///     stream.poll(tcp)
    ///     for value in stream.get_vars():
    ///         handle(value)
    ///     if stream.get_error() != OK:
    ///         push_warning(stream.get_error_message())
    /// ```
    #[func(gd_self)]
    fn get_vars(this: Gd<Self>, #[opt(default = -1)] max_count: i64) -> VarArray {
        let shared = Arc::clone(&this.bind().shared);
        let limit = usize::try_from(max_count).unwrap_or(usize::MAX);
        let mut values = Vec::new();
        let mut builder = VariantBuilder::default();
        let mut state = shared.state();
        let mut failure = None;
        while values.len() < limit {
            match state.next_value(&mut builder) {
                Ok(Some(v)) => values.push(v),
                Ok(None) => break,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let poll_failure = state.poll_failure.clone();
        drop(state);
        match (failure, poll_failure) {
            (Some(e), _) => {
                builder.discard();
                shared.calls.fail(&e);
            }
            (None, Some((error, message))) => {
                shared.calls.fail_with(error, message);
            }
            (None, None) => {
                shared.calls.ok();
            }
        }
        untyped_array_of(values)
    }

    /// Writes every value of [param values] framed as [method put_var] writes one (each length in
    /// [param peer]'s [member StreamPeer.big_endian] order, each message at most
    /// [member FastVarCodec.max_message_size]), in one write to [param peer]: one packet for a whole network tick instead of one per
    /// value. When a value cannot be encoded nothing is written, and [method
    /// get_error_message] names its index.
    /// A [param peer] that is [code]null[/code] or not a [StreamPeer] is refused with
    /// [constant ERR_INVALID_PARAMETER], as [method put_var] refuses it.
    #[func(gd_self)]
    fn put_vars(this: Gd<Self>, peer: Variant, values: VarArray) -> Error {
        let shared = Arc::clone(&this.bind().shared);
        // A Variant, so that null and other classes reach this check instead of failing the call.
        let Ok(peer) = peer.try_to::<Gd<StreamPeer>>() else {
            return no_peer(&shared.calls, "StreamPeer");
        };
        let (codec, writing) = shared.writing();
        codec.put_framed_all(&shared.calls, Peer::of_gd(&peer), &values, &writing)
    }

    /// Bytes received but not yet handed out as values.
    #[func]
    fn get_buffered_bytes(&self) -> i64 {
        self.shared.state().buffered() as i64
    }

    /// True after a length prefix above [member FastVarCodec.max_message_size]: close the
    /// connection, or [method reset] to start over.
    #[func]
    fn is_broken(&self) -> bool {
        self.shared.state().is_broken()
    }

    /// Forgets buffered bytes and the broken state.
    #[func(gd_self)]
    fn reset(this: Gd<Self>) {
        let shared = Arc::clone(&this.bind().shared);
        shared.state().reset();
        shared.calls.ok();
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

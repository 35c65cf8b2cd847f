//! What a `FastVarStream` holds, apart from the engine's view of the class (`stream_class`):
//! the reader of length-prefixed values and the codec state whose settings read and write them.
//! Reached through gdext's binding from the class's `#[func]`s, and by the instance pointer from
//! the methods `crate::direct` registers.
//!
//! One byte-order rule and one size limit, as everywhere a length prefix is read or written: the
//! prefix follows the peer's [`StreamPeer.big_endian`] (bytes given to `feed`, which come with no
//! peer, are little-endian, the peer's default), and a message is at most the codec's
//! `max_message_size`.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use fast_var_codec_core::stream::{ByteOrder, StreamReader};
use fast_var_codec_core::{CodecError, Options};
use godot::classes::{StreamPeer, StreamPeerTcp};
use godot::global::Error;
use godot::prelude::*;

use crate::call_state::CallState;
use crate::codec_state::CodecState;
use crate::engine_methods::{self, Peer};
use crate::from_wire::VariantBuilder;
use crate::peer_io::{Writing, NOTHING_YET};

/// What a `FastVarStream` holds, shared by the threads that call it.
pub(crate) struct StreamShared {
    state: Mutex<StreamState>,
    pub(crate) calls: CallState,
    /// The key it is registered under for direct calls (`crate::codec_registry`).
    pub(crate) registered: OnceLock<usize>,
}

pub(crate) struct StreamState {
    /// The codec's settings and encoder, reached without binding it on every value.
    codec_state: Arc<CodecState>,
    reader: StreamReader,
    /// The codec's options (for writing; `reader` holds a copy for reading) and
    /// `max_message_size` (in `reader`) as of its settings version `seen_version`: read from
    /// the codec's lock again only when a setting has changed since, not on every value.
    opts: Arc<Options>,
    seen_version: u64,
    /// The failure of the last `poll` (a closed or failed connection, a read that failed), kept
    /// until the next `poll`, `feed` or `reset`: `get_vars` reports it after the values it
    /// hands out, so a loop that checks `get_error()` after `get_vars()` sees it.
    pub(crate) poll_failure: Option<(Error, String)>,
}

impl StreamState {
    fn new(codec_state: Arc<CodecState>) -> Self {
        let mut state = StreamState {
            poll_failure: None,
            reader: StreamReader::new(Options::default()),
            opts: codec_state.options(),
            seen_version: 0,
            codec_state,
        };
        state.reread_settings();
        state
    }

    /// The next complete value, decoded with the codec's options (see
    /// [`StreamReader::next_value_with`]).
    pub(crate) fn next_value(
        &mut self,
        builder: &mut VariantBuilder<'_>,
    ) -> Result<Option<Variant>, CodecError> {
        self.reader.next_value_with(builder)
    }

    /// Adds received bytes to the reader (see [`StreamReader::feed`]): fails only when the
    /// stream is broken.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Result<(), CodecError> {
        self.reader.feed(bytes)
    }

    /// `get_available_packet_count`: how many calls of `get_var` would hand out a value or a
    /// failure of its own rather than "nothing yet" ([`StreamReader::ready_count`]).
    pub(crate) fn available_count(&self) -> usize {
        self.reader.ready_count()
    }

    /// Bytes received but not yet handed out as values.
    pub(crate) fn buffered(&self) -> usize {
        self.reader.buffered()
    }

    /// Whether a length prefix above the limit has broken the stream (once the values before
    /// it are handed out).
    pub(crate) fn is_broken(&self) -> bool {
        self.reader.broken().is_some()
    }

    /// Forgets buffered bytes and the broken state.
    pub(crate) fn reset(&mut self) {
        self.reader.reset();
        self.poll_failure = None;
    }

    /// Uses another codec's settings from now on.
    pub(crate) fn set_codec_state(&mut self, codec_state: Arc<CodecState>) {
        self.codec_state = codec_state;
        self.reread_settings();
    }

    /// Takes the codec's current settings if they changed since last read: one atomic load
    /// when they did not.
    fn follow_settings(&mut self) {
        if self.codec_state.version.load(Ordering::Acquire) != self.seen_version {
            self.reread_settings();
        }
    }

    fn reread_settings(&mut self) {
        // The version first: settings read after it are at least that new (a change counts
        // the version under the settings' write lock), so a change in between is read again
        // on the next call.
        let version = self.codec_state.version.load(Ordering::Acquire);
        let settings = self.codec_state.settings();
        self.reader.set_max_message(settings.max_message);
        self.reader.set_options(Options::clone(&settings.opts));
        self.opts = settings.opts.clone();
        drop(settings);
        self.seen_version = version;
    }
}

/// `StreamPeerTCP.Status`, by value: the enum is StreamPeerTCP's up to Godot 4.5 and
/// StreamPeerSocket's from 4.6 (the API a double-precision build is made against).
const TCP_STATUSES: [&str; 4] = [
    "STATUS_NONE",
    "STATUS_CONNECTING",
    "STATUS_CONNECTED",
    "STATUS_ERROR",
];
const STATUS_CONNECTING: i64 = 1;
const STATUS_CONNECTED: i64 = 2;
const STATUS_ERROR: i64 = 3;

impl StreamShared {
    pub(crate) fn new(codec_state: Arc<CodecState>) -> Self {
        StreamShared {
            state: Mutex::new(StreamState::new(codec_state)),
            calls: CallState::default(),
            registered: OnceLock::new(),
        }
    }

    /// `feed`: adds received bytes (little-endian prefixes); fails only when the stream is broken.
    pub(crate) fn feed(&self, bytes: &[u8]) -> Error {
        self.state().poll_failure = None;
        self.take(bytes, false)
    }

    /// Adds bytes whose prefixes are in `big_endian` order.
    fn take(&self, bytes: &[u8], big_endian: bool) -> Error {
        let res = {
            let mut state = self.state();
            state
                .reader
                .set_byte_order(ByteOrder::from_big_endian(big_endian));
            state.feed(bytes)
        };
        match res {
            Ok(()) => self.calls.ok(),
            Err(e) => self.calls.fail(&e),
        }
    }

    /// `poll`: takes every byte `peer` has available right now (never waits) and adds it. A
    /// StreamPeerTCP still connecting has nothing yet ([constant OK], nothing taken); one closed
    /// or failed is an error that names its status.
    pub(crate) fn poll(&self, peer: Peer<'_, StreamPeer>) -> Error {
        let err = self.poll_peer(peer);
        let failure = (err != Error::OK).then(|| (err, self.calls.message().to_string()));
        self.state().poll_failure = failure;
        err
    }

    fn poll_peer(&self, peer: Peer<'_, StreamPeer>) -> Error {
        if let Some(tcp) = peer.as_a::<StreamPeerTcp>() {
            let status = engine_methods::tcp_status(&tcp);
            if status == STATUS_CONNECTING {
                return self.calls.ok();
            }
            if status != STATUS_CONNECTED {
                let name = usize::try_from(status)
                    .ok()
                    .and_then(|i| TCP_STATUSES.get(i))
                    .map_or_else(|| format!("status {status}"), |n| n.to_string());
                let (error, what) = if status == STATUS_ERROR {
                    (Error::ERR_CONNECTION_ERROR, "the connection failed")
                } else {
                    (Error::ERR_FILE_EOF, "the connection is closed")
                };
                let left = self.state().reader.buffered();
                let msg = if left > 0 {
                    format!("{what} ({name}); {left} bytes of an incomplete value are left")
                } else {
                    format!("{what} ({name})")
                };
                return self.calls.fail_with(error, msg);
            }
        }
        let big_endian = engine_methods::is_big_endian_enabled(&peer);
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
        self.take(data.as_slice(), big_endian)
    }

    /// `get_available_packet_count`: see [`StreamState::available_count`].
    pub(crate) fn get_available_packet_count(&self) -> i64 {
        i64::try_from(self.state().available_count()).unwrap_or(i64::MAX)
    }

    /// `get_var`: the next complete value, or null with the reason ([`NOTHING_YET`] when none
    /// is complete yet).
    pub(crate) fn get_var(&self) -> Variant {
        let mut builder = VariantBuilder::default();
        let res = self.state().next_value(&mut builder);
        match res {
            Ok(Some(v)) => {
                self.calls.ok();
                v
            }
            Ok(None) => {
                self.calls
                    .fail_with(NOTHING_YET, "no complete value yet".into());
                Variant::nil()
            }
            Err(e) => {
                builder.discard();
                self.calls.fail(&e);
                Variant::nil()
            }
        }
    }

    /// `put_var`: `value` framed as `StreamPeer.put_var` frames it, written to `peer`.
    pub(crate) fn put_var(&self, peer: Peer<'_, StreamPeer>, value: &Variant) -> Error {
        let (codec, writing) = self.writing();
        codec.put_framed_as(&self.calls, peer, value, &writing)
    }

    /// The codec's state and what a write needs of its settings, taken out of the lock (an
    /// encode may run script code that calls this stream again).
    pub(crate) fn writing(&self) -> (Arc<CodecState>, Writing) {
        let state = self.state();
        let writing = Writing {
            opts: state.opts.clone(),
            max_message: state.reader.max_message(),
        };
        (state.codec_state.clone(), writing)
    }

    /// The stream's state, for one step of a call (a panic elsewhere never locks it for good),
    /// following the codec's current settings (its reader bound by `max_message_size`).
    pub(crate) fn state(&self) -> MutexGuard<'_, StreamState> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.codec_state.has_unloaded_scripts() {
            // Loaded outside the stream's lock: a script's initializer may call the stream.
            let codec = state.codec_state.clone();
            drop(state);
            codec.load_listed_scripts();
            state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        }
        state.follow_settings();
        state
    }
}

//! The one reading of `put_var`'s framing, which [`super::StreamReader`] and the tokio codecs
//! share: each length prefix checked against the maximum before anything is taken or allocated
//! for its message, the stream offsets errors are counted from, and the state after a prefix
//! above the maximum (broken until a reset).

use bytes::{Buf, BytesMut};

use super::{check_message_len, prefix_len, ByteOrder, DEFAULT_MAX_MESSAGE, PREFIX_LEN};
use crate::error::{CodecError, Result};
use crate::options::Options;
use crate::record::DialectDetector;
use crate::value::Value;

/// The framing state of one stream: the prefixes' byte order, the maximum message size, the
/// bytes taken from the stream so far (for error offsets) and the error that broke it. The
/// bytes themselves are the caller's (`StreamReader`'s own buffer, or tokio's read buffer).
#[derive(Debug, Clone)]
pub(crate) struct Framing {
    pub(crate) order: ByteOrder,
    pub(crate) max_message: usize,
    consumed: u64,
    broken: Option<CodecError>,
}

impl Default for Framing {
    /// Little-endian prefixes and the engine's maximum message, as the engine's defaults.
    fn default() -> Self {
        Framing {
            order: ByteOrder::Little,
            max_message: DEFAULT_MAX_MESSAGE,
            consumed: 0,
            broken: None,
        }
    }
}

impl Framing {
    /// The stream offset of the next message's prefix.
    pub(crate) fn offset(&self) -> usize {
        usize::try_from(self.consumed).unwrap_or(usize::MAX)
    }

    /// The error that broke the stream, if any.
    pub(crate) fn broken(&self) -> Option<&CodecError> {
        self.broken.as_ref()
    }

    /// A new stream: offsets from 0, not broken.
    pub(crate) fn reset(&mut self) {
        self.consumed = 0;
        self.broken = None;
    }

    /// Counts `n` bytes as taken from the stream (bytes dropped at its end).
    pub(crate) fn skip(&mut self, n: usize) {
        self.consumed = self.consumed.saturating_add(n as u64);
    }

    /// The length the prefix at the start of `src` announces, once its bytes are all there.
    pub(crate) fn peek_len(&self, src: &[u8]) -> Option<usize> {
        let head: [u8; PREFIX_LEN] = src.get(..PREFIX_LEN)?.try_into().ok()?;
        Some(prefix_len(head, self.order))
    }

    /// True when a call of [`Framing::next`] would give something other than `None`: a whole
    /// message, an oversized prefix (an error to take), or the broken state.
    pub(crate) fn ready(&self, src: &[u8]) -> bool {
        if self.broken.is_some() {
            return true;
        }
        self.peek_len(src)
            .is_some_and(|len| len > self.max_message || src.len() >= PREFIX_LEN + len)
    }

    /// How many calls of [`Framing::next`] would give a message or an error of their own: the
    /// messages whole in `src`, and one more for a prefix above the maximum after them; none
    /// once the stream is broken.
    pub(crate) fn ready_count(&self, src: &[u8]) -> usize {
        if self.broken.is_some() {
            return 0;
        }
        let mut count = 0;
        let mut rest = src;
        while let Some((head, after)) = rest.split_first_chunk::<PREFIX_LEN>() {
            let len = prefix_len(*head, self.order);
            if len > self.max_message {
                return count + 1;
            }
            match after.get(len..) {
                Some(next) => {
                    count += 1;
                    rest = next;
                }
                None => break,
            }
        }
        count
    }

    /// The length of the next message once all of it is in `src`. A prefix above the maximum
    /// breaks the stream before anything is taken: this and every later call fail with that
    /// error, and drop what `src` holds.
    fn whole_len(&mut self, src: &mut BytesMut) -> Result<Option<usize>> {
        if let Some(e) = &self.broken {
            src.clear();
            return Err(e.clone());
        }
        let Some(len) = self.peek_len(src) else {
            return Ok(None);
        };
        if let Err(e) = check_message_len(len, self.max_message, self.offset()) {
            src.clear();
            self.broken = Some(e.clone());
            return Err(e);
        }
        Ok((src.len() >= PREFIX_LEN.saturating_add(len)).then_some(len))
    }

    /// Takes the next whole message off `src` and returns what `read` makes of its payload
    /// (given with the payload's stream offset), read where it lies; `None` while the message
    /// is incomplete.
    pub(crate) fn next<R>(
        &mut self,
        src: &mut BytesMut,
        read: impl FnOnce(&[u8], usize) -> R,
    ) -> Result<Option<R>> {
        let Some(len) = self.whole_len(src)? else {
            return Ok(None);
        };
        let total = PREFIX_LEN + len;
        let out = read(
            src.get(PREFIX_LEN..total).unwrap_or_default(),
            self.offset().saturating_add(PREFIX_LEN),
        );
        src.advance(total);
        self.skip(total);
        Ok(Some(out))
    }

    /// Takes the next whole message's payload off `src`, without copying it; `None` while it
    /// is incomplete.
    pub(crate) fn take(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>> {
        let Some(len) = self.whole_len(src)? else {
            return Ok(None);
        };
        src.advance(PREFIX_LEN);
        self.skip(PREFIX_LEN + len);
        Ok(Some(src.split_to(len)))
    }

    /// Room in `src` for the rest of a message whose prefix is there: at most its declared
    /// length (itself at most the maximum, once [`Framing::next`] has checked it).
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))] // for tokio's read buffer only
    pub(crate) fn reserve_rest(&self, src: &mut BytesMut) {
        if let Some(len) = self.peek_len(src).filter(|&len| len <= self.max_message) {
            let total = PREFIX_LEN.saturating_add(len);
            src.reserve(total.saturating_sub(src.len()));
        }
    }

    /// The next value in the dialect the peer's messages tell (the rule of [`crate::record`]):
    /// what `detector` has ready, else the messages of `src` pushed to it until it has one.
    /// `None` until a value (or a message's error) is ready.
    pub(crate) fn next_detected(
        &mut self,
        src: &mut BytesMut,
        detector: &mut DialectDetector,
    ) -> Result<Option<Result<Value>>> {
        loop {
            if let Some(item) = detector.next_value() {
                return Ok(Some(item));
            }
            if self
                .next(src, |payload, at| detector.push_message(payload, at))?
                .is_none()
            {
                return Ok(None);
            }
        }
    }
}

/// What a stream's values are read with: its options, and for a reader that takes the dialect
/// from the peer's messages (`detecting`), the detector whose verdict sets the options'
/// dialect. [`super::StreamReader`] and the tokio `VarCodec` read values through it.
#[derive(Debug, Clone)]
pub(crate) struct Reading {
    pub(crate) opts: Options,
    detector: Option<DialectDetector>,
}

impl Reading {
    /// Values in the dialect of `opts`.
    pub(crate) fn fixed(opts: Options) -> Self {
        Reading {
            opts,
            detector: None,
        }
    }

    /// Values in the dialect the peer's messages tell; until they do, the first dialect still
    /// possible.
    pub(crate) fn detecting(opts: Options) -> Self {
        let mut reading = Reading {
            detector: Some(DialectDetector::new(&opts)),
            opts,
        };
        reading.follow();
        reading
    }

    /// The options' dialect set to the detector's verdict so far.
    fn follow(&mut self) {
        if let Some(detector) = &self.detector {
            self.opts.dialect = detector.dialect().unwrap_or(self.opts.dialect);
        }
    }

    /// Whether the dialect is known: always, but when detecting once the peer's messages
    /// leave one engine family.
    pub(crate) fn is_settled(&self) -> bool {
        self.detector
            .as_ref()
            .is_none_or(DialectDetector::is_settled)
    }

    /// A new stream: a detecting reading detects again.
    pub(crate) fn reset(&mut self) {
        if let Some(detector) = &mut self.detector {
            *detector = DialectDetector::new(&self.opts);
            self.opts.dialect = detector.dialect().unwrap_or_default();
        }
    }

    /// The values a detecting reading still holds at the end of the stream, each refused (the
    /// peer's messages never told its family); the first of them, one per call.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))] // the tokio codecs' end of stream
    pub(crate) fn finish(&mut self) -> Option<Result<Value>> {
        let detector = self.detector.as_mut()?;
        detector.finish();
        detector.next_value()
    }

    /// The next value of `src`: a message decoded whole in the options' dialect, or what the
    /// detector has ready; `None` until one is ready. A message's own failure is the inner
    /// error (its offset counted in the stream); the outer one is the framing's.
    pub(crate) fn next_value(
        &mut self,
        framing: &mut Framing,
        src: &mut BytesMut,
    ) -> Result<Option<Result<Value>>> {
        let Some(detector) = &mut self.detector else {
            let opts = &self.opts;
            return framing.next(src, |payload, at| {
                crate::record::decode_record(payload, opts).map_err(|e| e.shifted(at))
            });
        };
        let item = framing.next_detected(src, detector);
        self.follow();
        item
    }
}

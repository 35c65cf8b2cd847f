//! The one reading of `put_var`'s framing, which [`super::StreamReader`] and the tokio codecs
//! share: each length prefix checked against the maximum before anything is taken or allocated
//! for its message, the stream offsets errors are counted from, and the state after a prefix
//! above the maximum (broken until a reset).

use bytes::{Buf, BytesMut};

use super::{check_message_len, prefix_len, ByteOrder, DEFAULT_MAX_MESSAGE, PREFIX_LEN};
use crate::error::{CodecError, Result};
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

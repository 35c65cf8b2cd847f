//! The one error of the serde format.

use std::fmt;

use crate::error::CodecError;

/// A serde failure: a message, the path to the value it concerns (`items[2].count`), and, from
/// [`super::from_bytes`], the byte offset of that value; or the codec's own [`CodecError`].
#[derive(Debug)]
pub struct Error(Box<Inner>);

#[derive(Debug)]
struct Inner {
    kind: Kind,
    /// Innermost segment first: segments are added while the error travels outwards.
    reversed_path: Vec<Segment>,
    offset: Option<usize>,
}

#[derive(Debug)]
enum Kind {
    Message(String),
    Codec(CodecError),
    Io(std::io::Error),
}

#[derive(Debug, Clone)]
pub(crate) enum Segment {
    Index(usize),
    /// A String key: rendered `.name`.
    Field(String),
    /// Another key, already rendered.
    Key(String),
}

impl Error {
    fn new(kind: Kind) -> Self {
        Error(Box::new(Inner {
            kind,
            reversed_path: Vec::new(),
            offset: None,
        }))
    }

    pub(crate) fn message(msg: impl fmt::Display) -> Self {
        Error::new(Kind::Message(msg.to_string()))
    }

    pub(crate) fn io(e: std::io::Error) -> Self {
        Error::new(Kind::Io(e))
    }

    /// Adds the step from an enclosing container (while the error travels outwards).
    pub(crate) fn within(mut self, seg: Segment) -> Self {
        self.0.reversed_path.push(seg);
        self
    }

    /// Forgets the byte offset: a key's error is the Dictionary's, at its offset.
    pub(crate) fn without_offset(mut self) -> Self {
        self.0.offset = None;
        self
    }

    /// Sets the byte offset unless an inner value already set it.
    pub(crate) fn at_offset(mut self, offset: Option<usize>) -> Self {
        if self.0.offset.is_none() {
            self.0.offset = offset;
        }
        self
    }

    /// The path from the top value to the value the error concerns, e.g. `items[2].count`;
    /// empty for the top value itself.
    pub fn path(&self) -> String {
        let mut s = String::new();
        for seg in self.0.reversed_path.iter().rev() {
            match seg {
                Segment::Index(i) => s.push_str(&format!("[{i}]")),
                Segment::Field(f) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(f);
                }
                Segment::Key(k) => s.push_str(&format!("[{k}]")),
            }
        }
        s
    }

    /// The byte offset of the value the error concerns, when decoded by
    /// [`super::from_bytes`] (or of the decoder's failure).
    pub fn offset(&self) -> Option<usize> {
        match &self.0.kind {
            Kind::Codec(CodecError::Decode { offset, .. }) => Some(*offset),
            _ => self.0.offset,
        }
    }

    /// The codec's error, when the encoder or decoder failed.
    pub fn codec_error(&self) -> Option<&CodecError> {
        match &self.0.kind {
            Kind::Codec(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if !path.is_empty() {
            write!(f, "{path}: ")?;
        }
        match &self.0.kind {
            Kind::Message(m) => f.write_str(m)?,
            Kind::Codec(e) => return write!(f, "{e}"),
            Kind::Io(e) => write!(f, "{e}")?,
        }
        if let Some(offset) = self.0.offset {
            write!(f, " (value at byte {offset})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            Kind::Codec(e) => Some(e),
            Kind::Io(e) => Some(e),
            Kind::Message(_) => None,
        }
    }
}

impl From<CodecError> for Error {
    fn from(e: CodecError) -> Self {
        Error::new(Kind::Codec(e))
    }
}

impl From<crate::reader::Failure> for Error {
    #[cold]
    fn from(f: crate::reader::Failure) -> Self {
        Error::from(CodecError::from(f))
    }
}

/// An `std::io::Error`, as serde_json's: a reader's or writer's own error
/// ([`super::from_reader`], [`super::to_writer`]) as it was, any other an
/// [`std::io::ErrorKind::InvalidData`] holding this error, so that `?` works in a function
/// that returns `std::io::Result`, such as a tokio handler.
///
/// # Examples
/// ```
/// use fast_var_codec_core::serde_format::from_bytes;
/// use fast_var_codec_core::Options;
///
/// fn score(message: &[u8]) -> std::io::Result<i64> {
///     Ok(from_bytes::<i64>(message, &Options::default())?)
/// }
/// assert_eq!(score(&[2, 0, 0, 0, 7, 0, 0, 0])?, 7);
/// let err = score(&[4, 0, 0, 0, 0, 0, 0, 0]).unwrap_err(); // a String, not an int
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// # Ok::<(), std::io::Error>(())
/// ```
impl From<Error> for std::io::Error {
    fn from(e: Error) -> Self {
        match *e.0 {
            Inner {
                kind: Kind::Io(io), ..
            } => io,
            inner => std::io::Error::new(std::io::ErrorKind::InvalidData, Error(Box::new(inner))),
        }
    }
}

impl ::serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

impl ::serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

//! The one error of every name the codec reads: a dialect's short name, a Godot type name, a
//! container's element type.

use std::fmt;

/// What kind of name an [`UnknownName`] was given for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NameKind {
    /// A dialect's short name (`"godot4"`, `"godot3"` …), from `Dialect`'s `FromStr`.
    Dialect,
    /// A Godot 4 type name exactly as Godot spells it (`"int"`, `"Vector2i"`), from
    /// `VariantType`'s `FromStr`.
    VariantType,
    /// A typed container's element type: a builtin, a class name or a `res://` script path,
    /// from `ContainerType::from_name`.
    ContainerType,
}

/// A name that is none of the names of its [`NameKind`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::error::{NameKind, UnknownName};
/// use fast_var_codec_core::Dialect;
///
/// let err: UnknownName = "Godot4".parse::<Dialect>().unwrap_err();
/// assert_eq!(err.kind, NameKind::Dialect);
/// assert_eq!(err.name, "Godot4");
/// assert!(err.to_string().contains("godot4, "));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownName {
    /// What the name was for.
    pub kind: NameKind,
    /// The name that was given.
    pub name: String,
    /// The name it probably meant (`"String"` for the element type `"str"`).
    pub suggestion: Option<&'static str>,
    /// The names there are, or how they are spelled, for the message.
    expected: String,
}

impl UnknownName {
    pub(crate) fn new(
        kind: NameKind,
        name: &str,
        suggestion: Option<&'static str>,
        expected: String,
    ) -> Self {
        UnknownName {
            kind,
            name: name.to_owned(),
            suggestion,
            expected,
        }
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            NameKind::Dialect => "a dialect",
            NameKind::VariantType => "a Godot 4 type name",
            NameKind::ContainerType => "a Godot type name",
        };
        write!(f, "{:?} is not {what}", self.name)?;
        match self.suggestion {
            Some("Nil") if self.kind == NameKind::ContainerType => {
                write!(f, " (an untyped container has no element type: None)")
            }
            Some(s) => write!(f, ": did you mean {s:?}?"),
            None => write!(f, " ({})", self.expected),
        }
    }
}

impl std::error::Error for UnknownName {}

/// An [`std::io::ErrorKind::InvalidInput`] holding the error, so that `?` works in a function
/// that returns `std::io::Result`.
impl From<UnknownName> for std::io::Error {
    fn from(e: UnknownName) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, e)
    }
}

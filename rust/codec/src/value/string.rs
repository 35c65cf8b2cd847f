//! [`GodotString`]: the text of a String, a StringName or a PackedStringArray item.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use compact_str::CompactString;

/// The text of a Godot String or StringName (and of each PackedStringArray item): UTF-8, held
/// inline up to 24 bytes (no allocation: most keys and texts of game messages are that short),
/// on the heap beyond.
///
/// It reads as a `str` (`Deref<Target = str>`: `len`, `starts_with`, `==` with `&str` and
/// `String` …) and is made from `&str`, `String`, `char` or a `Cow<str>` with `into()`. How it
/// stores its bytes is its own business: a change of its storage is no change for its users.
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
/// use fast_var_codec_core::value::GodotString;
///
/// let name = GodotString::from("player_1");
/// assert_eq!(name, "player_1");
/// assert_eq!(name.len(), 8);
/// assert_eq!(format!("{name}"), "player_1");
/// let s: String = name.clone().into();
/// assert_eq!(Value::String(name), Value::from(s));
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct GodotString(CompactString);

impl GodotString {
    /// An empty text (no allocation).
    ///
    /// # Examples
    /// ```
    /// assert!(fast_var_codec_core::value::GodotString::new().is_empty());
    /// ```
    pub const fn new() -> Self {
        GodotString(CompactString::const_new(""))
    }

    /// The text as a `str`.
    ///
    /// # Examples
    /// ```
    /// let s = fast_var_codec_core::value::GodotString::from("hp");
    /// assert_eq!(s.as_str(), "hp");
    /// ```
    #[inline]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Appends `s`.
    ///
    /// # Examples
    /// ```
    /// let mut s = fast_var_codec_core::value::GodotString::from("a");
    /// s.push_str("bc");
    /// assert_eq!(s, "abc");
    /// ```
    pub fn push_str(&mut self, s: &str) {
        self.0.push_str(s);
    }

    /// The text as a `String` (a copy only when it is held inline).
    ///
    /// # Examples
    /// ```
    /// let s = fast_var_codec_core::value::GodotString::from("x".repeat(40));
    /// assert_eq!(s.into_string().len(), 40);
    /// ```
    pub fn into_string(self) -> String {
        self.0.into_string()
    }
}

impl Deref for GodotString {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for GodotString {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for GodotString {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for GodotString {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for GodotString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for GodotString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for GodotString {
    #[inline]
    fn from(s: &str) -> Self {
        GodotString(CompactString::from(s))
    }
}

impl From<&mut str> for GodotString {
    fn from(s: &mut str) -> Self {
        GodotString(CompactString::from(&*s))
    }
}

impl From<String> for GodotString {
    fn from(s: String) -> Self {
        GodotString(CompactString::from(s))
    }
}

impl From<&String> for GodotString {
    fn from(s: &String) -> Self {
        GodotString(CompactString::from(s.as_str()))
    }
}

impl From<Box<str>> for GodotString {
    fn from(s: Box<str>) -> Self {
        GodotString(CompactString::from(s))
    }
}

impl From<Cow<'_, str>> for GodotString {
    fn from(s: Cow<'_, str>) -> Self {
        GodotString(CompactString::from(s))
    }
}

impl From<char> for GodotString {
    fn from(c: char) -> Self {
        GodotString(CompactString::from(&*c.encode_utf8(&mut [0; 4])))
    }
}

impl From<GodotString> for String {
    fn from(s: GodotString) -> Self {
        s.into_string()
    }
}

impl std::str::FromStr for GodotString {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(GodotString::from(s))
    }
}

impl FromIterator<char> for GodotString {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Self {
        GodotString(iter.into_iter().collect())
    }
}

impl<'a> FromIterator<&'a str> for GodotString {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        GodotString(iter.into_iter().collect())
    }
}

impl fmt::Write for GodotString {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.push_str(s);
        Ok(())
    }
}

macro_rules! eq_with_text {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for GodotString {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<GodotString> for $t {
            fn eq(&self, other: &GodotString) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_with_text!(str, String, Cow<'_, str>);

impl PartialEq<&str> for GodotString {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<GodotString> for &str {
    fn eq(&self, other: &GodotString) -> bool {
        *self == other.as_str()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GodotString {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GodotString {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        CompactString::deserialize(d).map(GodotString)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_held_inline_and_long_ones_round_trip() {
        assert_eq!(std::mem::size_of::<GodotString>(), 24);
        let short = GodotString::from("a".repeat(24));
        assert!(!short.0.is_heap_allocated());
        let long = GodotString::from("é".repeat(40));
        assert!(long.0.is_heap_allocated());
        assert_eq!(long, "é".repeat(40));
        assert_eq!(GodotString::from('é'), "é");
        assert_eq!(GodotString::new(), "");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_sees_a_str() {
        let long = "ü".repeat(30);
        for text in ["", "short", long.as_str()] {
            let json = serde_json::to_string(&GodotString::from(text)).unwrap();
            assert_eq!(json, serde_json::to_string(text).unwrap());
            let back: GodotString = serde_json::from_str(&json).unwrap();
            assert_eq!(back, text);
        }
    }
}

//! How a value is encoded and decoded: the [`Dialect`] (Godot 4 or Godot 3) and the width of its
//! reals ([`Precision`]), the engines' rules for accepting UTF-8 ([`Utf8Rules`]), the resource
//! [`Limits`] a decode obeys, and which classes and scripts a decode may make ([`AllowList`]);
//! [`Options`] holds them all.
//!
//! # Examples
//! ```
//! use fast_var_codec_core::options::{AllowList, Dialect, Limits, Options};
//!
//! let opts = Options::new(Dialect::Godot3)
//!     .with_limits(Limits { max_depth: 64, ..Limits::default() })
//!     .with_allow_objects(true)
//!     .with_allowed_objects(Some(AllowList::new().with_class("Resource")));
//! assert_eq!(opts.dialect, Dialect::Godot3);
//! ```

pub use crate::dialect::{Dialect, Precision, Utf8Rules};
pub use crate::limits::{
    Limits, Options, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ELEMENTS, MAX_DEPTH_CEILING,
};
pub use crate::objects::{is_script_path, AllowList, ANY_CLASS};

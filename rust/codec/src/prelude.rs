//! What a user of encoding, decoding, [`Value`], [`Options`], the errors and the stream codec
//! names, for one glob import: `use fast_var_codec_core::prelude::*;`. It holds nothing named
//! like a crate or a module a user imports beside it (no `serde`, no `Error`), so it composes
//! with `use serde::{Deserialize, Serialize};` and the like.
//!
//! # Examples
//! ```
//! use fast_var_codec_core::prelude::*;
//!
//! fn round_trip(v: &Value, opts: &Options) -> Result<Value> {
//!     let bytes = encode(v, opts)?;
//!     Ok(decode(&bytes, opts)?.0)
//! }
//!
//! let v = Value::from_iter([("hp", Value::from(7))]);
//! assert_eq!(round_trip(&v, &Options::new(Dialect::Godot3))?, v);
//! # Ok::<(), CodecError>(())
//! ```

pub use crate::error::{CodecError, DecodeReason, EncodeReason, ErrorCode, Result};
pub use crate::options::{Dialect, Limits, Options};
#[cfg(all(feature = "tokio", feature = "serde"))]
pub use crate::stream::TypedVarCodec;
pub use crate::stream::{ByteOrder, StreamReader};
#[cfg(feature = "tokio")]
pub use crate::stream::{MessageError, VarCodec, VarCodecError};
pub use crate::value::{Array, Dictionary, GodotString, NodePath, Object, Value, VariantType};
pub use crate::{decode, decode_at, encode, encode_into, encoded_size};

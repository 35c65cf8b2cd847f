//! The names the crate's root had before they moved into their modules: deprecated aliases
//! (hidden from the documentation) so that code naming them still compiles, and says where
//! they went. Traits cannot be deprecated through a re-export: they are only hidden.
#![allow(missing_docs)]

#[doc(hidden)]
pub use crate::build::Build;
#[doc(hidden)]
pub use crate::real::Real;
#[doc(hidden)]
pub use crate::sink::{LeWord, Sink};
#[doc(hidden)]
pub use crate::text::Text;

use crate::options::Options;

#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::options::AllowList")]
pub type AllowList = crate::options::AllowList;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::Array")]
pub type Array = crate::value::Array;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::stream::ByteOrder")]
pub type ByteOrder = crate::stream::ByteOrder;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::GodotString")]
pub type CompactString = crate::value::GodotString;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::ContainerType")]
pub type ContainerType = crate::value::ContainerType;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::error::DecodeReason")]
pub type DecodeReason = crate::error::DecodeReason;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::Dictionary")]
pub type Dictionary = crate::value::Dictionary;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::error::EncodeReason")]
pub type EncodeReason = crate::error::EncodeReason;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::error::ErrorCode")]
pub type ErrorCode = crate::error::ErrorCode;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::GodotString")]
pub type GodotString = crate::value::GodotString;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::error::IntOutOfRange")]
pub type IntOutOfRange = crate::error::IntOutOfRange;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::error::LimitKind")]
pub type LimitKind = crate::error::LimitKind;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::options::Limits")]
pub type Limits = crate::options::Limits;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::NodePath")]
pub type NodePath = crate::value::NodePath;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::Object")]
pub type Object = crate::value::Object;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::ParseVariantTypeError")]
pub type ParseVariantTypeError = crate::value::ParseVariantTypeError;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::options::Precision")]
pub type Precision = crate::options::Precision;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::writer::SizeCounter")]
pub type SizeCounter = crate::writer::SizeCounter;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::writer::SliceSink")]
pub type SliceSink<'a> = crate::writer::SliceSink<'a>;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::UnknownTypeName")]
pub type UnknownTypeName = crate::value::UnknownTypeName;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::options::Utf8Rules")]
pub type Utf8Rules = crate::options::Utf8Rules;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::ValueBuilder")]
pub type ValueBuilder = crate::value::ValueBuilder;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::value::VariantType")]
pub type VariantType = crate::value::VariantType;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::real::WireReals")]
pub type WireReals<'a> = crate::real::WireReals<'a>;
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::writer::Writer")]
pub type Writer<'o, S> = crate::writer::Writer<'o, S>;

/// Decodes one value with any builder.
#[doc(hidden)]
#[deprecated(note = "use fast_var_codec_core::reader::decode_with")]
pub fn decode_with<B: Build>(
    bytes: &[u8],
    offset: usize,
    opts: &Options,
    builder: &mut B,
) -> crate::Result<(B::Value, usize)> {
    crate::reader::decode_with(bytes, offset, opts, builder)
}

//! `FastVarCodec.Dialect` and `FastVarCodec.Precision` as the engine sees its own class enums
//! (`FileAccess.CompressionMode`): the constants registered with their enum's name, and the
//! properties and methods that take one typed `int` with the enum's class name, so typed
//! GDScript (`var d: FastVarCodec.Dialect`), the inspector and the editor help know the choices.
//!
//! gdext 0.5 registers `#[constant]`s without an enum name, so `crate::direct` registers these
//! constants through the GDExtension interface, with their editor help, once gdext has
//! registered the class.

use std::borrow::Cow;

use godot::builtin::VariantType;
use godot::meta::error::ConvertError;
use godot::meta::shape::GodotShape;
use godot::meta::{FromGodot, GodotConvert, ToGodot};
use godot::register::info::{ParamMetadata, PropertyHint, PropertyHintInfo, PropertyUsageFlags};
use godot::register::property::SimpleVar;

use crate::settings::{enum_hint, DIALECTS, PRECISIONS};

/// One enum of a class: its name, its constants (name, value) and their editor help.
pub(crate) struct ClassEnum {
    pub(crate) name: &'static str,
    pub(crate) constants: &'static [(&'static str, i64, &'static str)],
}

/// The enums of `FastVarCodec`, with the help of each constant.
pub(crate) static CODEC_ENUMS: [ClassEnum; 2] = [
    ClassEnum {
        name: "Dialect",
        constants: &[
            (
                "DIALECT_GODOT_4",
                crate::settings::DIALECT_GODOT_4,
                "The layout of [method @GlobalScope.var_to_bytes] from Godot 4.4 on (tested on \
                 4.6.3; 4.7's source writes the same bytes).",
            ),
            (
                "DIALECT_GODOT_3",
                crate::settings::DIALECT_GODOT_3,
                "The Godot 3.1–3.6 layout of [code]var2bytes[/code].",
            ),
            (
                "DIALECT_PANDEMONIUM_3_8",
                crate::settings::DIALECT_PANDEMONIUM_3_8,
                "Pandemonium engine v3.8.0–v4.9.0 ([code]var2bytes[/code]): Godot 3 layout with \
                 renumbered types. Checked against a running Pandemonium v4.9.0.",
            ),
            (
                "DIALECT_PANDEMONIUM_5",
                crate::settings::DIALECT_PANDEMONIUM_5,
                "Pandemonium engine v5.0.0 and later, with typed arrays. Checked against a \
                 running Pandemonium v5.2.0.",
            ),
            (
                "DIALECT_GODOT_4_3",
                crate::settings::DIALECT_GODOT_4_3,
                "What Godot 4.3 reads and writes: [constant DIALECT_GODOT_4] without typed \
                 Dictionaries (written untyped, as 4.3 itself wrote them), so a dedicated server \
                 still on 4.3 can read it. Derived from the engine's history; no 4.3 engine was \
                 run (Godot 4.6.3 reads these bytes as the untyped values).",
            ),
            (
                "DIALECT_GODOT_4_0_TO_4_2",
                crate::settings::DIALECT_GODOT_4_0_TO_4_2,
                "What Godot 4.0–4.2 read and write: [constant DIALECT_GODOT_4] without typed \
                 Arrays and Dictionaries (written untyped, as those engines wrote them) and \
                 without PackedVector4Array (refused, or an Array of Vector4 with \
                 [member allow_lossy]). Derived from the engine's history; no such engine was run.",
            ),
        ],
    },
    ClassEnum {
        name: "Precision",
        constants: &[
            (
                "PRECISION_SINGLE",
                crate::settings::PRECISION_SINGLE,
                "32-bit [code]real_t[/code] components, as standard engine builds write.",
            ),
            (
                "PRECISION_DOUBLE",
                crate::settings::PRECISION_DOUBLE,
                "64-bit [code]real_t[/code] components, as [code]precision=double[/code] engine \
                 builds write.",
            ),
        ],
    },
];

/// Defines an `int` typed as one of `FastVarCodec`'s enums for properties and methods. Any
/// number converts from GDScript (an unknown one is refused by the setter, readably), so no
/// value is dropped before the codec can report it.
macro_rules! class_enum_int {
    ($(#[$doc:meta])* $name:ident, $qualified:literal, $table:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) struct $name(pub(crate) i64);

        impl GodotConvert for $name {
            type Via = i64;

            fn godot_shape() -> GodotShape {
                let hint = PropertyHintInfo {
                    hint: PropertyHint::ENUM,
                    hint_string: godot::builtin::GString::from(enum_hint(&$table).as_str()),
                };
                GodotShape::Custom {
                    variant_type: VariantType::INT,
                    var_hint: hint.clone(),
                    export_hint: hint,
                    class_name: Some(Cow::Borrowed($qualified)),
                    usage_flags: PropertyUsageFlags::CLASS_IS_ENUM,
                    metadata: ParamMetadata::INT_IS_INT64,
                }
            }
        }

        impl ToGodot for $name {
            type Pass = godot::meta::conv::ByValue;

            fn to_godot(&self) -> i64 {
                self.0
            }
        }

        impl FromGodot for $name {
            fn try_from_godot(via: i64) -> Result<Self, ConvertError> {
                Ok($name(via))
            }
        }

        impl SimpleVar for $name {}
    };
}

class_enum_int!(
    /// A `FastVarCodec.Dialect` value.
    DialectInt,
    "FastVarCodec.Dialect",
    DIALECTS
);
class_enum_int!(
    /// A `FastVarCodec.Precision` value.
    PrecisionInt,
    "FastVarCodec.Precision",
    PRECISIONS
);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T>(table: &[(&str, i64, T)], name: &str) {
        let constants: Vec<(&str, i64)> = CODEC_ENUMS
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.constants.iter().map(|(n, v, _)| (*n, *v)).collect())
            .unwrap_or_default();
        let expected: Vec<(&str, i64)> = table.iter().map(|(n, v, _)| (*n, *v)).collect();
        assert_eq!(constants, expected, "{name}");
    }

    /// Every dialect and precision constant is in its enum, in order, with the settings' value.
    #[test]
    fn the_enums_cover_the_settings() {
        check(&DIALECTS, "Dialect");
        check(&PRECISIONS, "Precision");
    }
}

//! The settings both classes share, at the bottom of the extension: the numbers GDScript uses for
//! dialects and precisions and the core's enums they stand for (one table each), the limits a
//! setter checks, and [`Settings`], what a codec holds. Nothing here knows the classes.

use std::sync::Arc;

use fast_var_codec_core::options::MAX_DEPTH_CEILING;
use fast_var_codec_core::options::{AllowList, Precision};
use fast_var_codec_core::save::DEFAULT_MAX_PAYLOAD;
use fast_var_codec_core::stream::DEFAULT_MAX_MESSAGE;
use fast_var_codec_core::{Dialect, Options};

pub const DIALECT_GODOT_4: i64 = 0;
pub const DIALECT_GODOT_3: i64 = 1;
pub const DIALECT_PANDEMONIUM_3_8: i64 = 2;
pub const DIALECT_PANDEMONIUM_5: i64 = 3;
pub const DIALECT_GODOT_4_3: i64 = 4;
pub const DIALECT_GODOT_4_0_TO_4_2: i64 = 5;
pub const PRECISION_SINGLE: i64 = 0;
pub const PRECISION_DOUBLE: i64 = 1;

/// Every dialect: its class constant's name and value, and the core's dialect.
pub const DIALECTS: [(&str, i64, Dialect); 6] = [
    ("DIALECT_GODOT_4", DIALECT_GODOT_4, Dialect::Godot4),
    ("DIALECT_GODOT_3", DIALECT_GODOT_3, Dialect::Godot3),
    (
        "DIALECT_PANDEMONIUM_3_8",
        DIALECT_PANDEMONIUM_3_8,
        Dialect::Pandemonium38,
    ),
    (
        "DIALECT_PANDEMONIUM_5",
        DIALECT_PANDEMONIUM_5,
        Dialect::Pandemonium5,
    ),
    ("DIALECT_GODOT_4_3", DIALECT_GODOT_4_3, Dialect::Godot4_3),
    (
        "DIALECT_GODOT_4_0_TO_4_2",
        DIALECT_GODOT_4_0_TO_4_2,
        Dialect::Godot4_0To4_2,
    ),
];

/// Every precision, likewise.
pub const PRECISIONS: [(&str, i64, Precision); 2] = [
    ("PRECISION_SINGLE", PRECISION_SINGLE, Precision::Single),
    ("PRECISION_DOUBLE", PRECISION_DOUBLE, Precision::Double),
];

/// The inspector's choices for an enum property: Godot's hint string, `NAME:value,…`.
pub fn enum_hint<T>(table: &[(&str, i64, T)]) -> String {
    table
        .iter()
        .map(|(name, value, _)| format!("{name}:{value}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The entry of `table` for a class constant's value.
pub(crate) fn by_value<T: Copy>(table: &[(&str, i64, T)], value: i64) -> Option<T> {
    table.iter().find(|(_, v, _)| *v == value).map(|e| e.2)
}

/// The class constant's value of an entry of `table`.
pub(crate) fn value_of<T: PartialEq>(table: &[(&str, i64, T)], item: T) -> i64 {
    table.iter().find(|e| e.2 == item).map_or(0, |e| e.1)
}

/// The `real_t` of the running engine: the library's own (the `.gdextension` gives a
/// double-precision engine the library built with gdext's `double-precision`).
pub fn engine_precision() -> Precision {
    if std::mem::size_of::<godot::builtin::real>() == 8 {
        Precision::Double
    } else {
        Precision::Single
    }
}

/// A `max_message_size` the setters accept: what a 32-bit length prefix can say.
pub fn message_size(size: i64) -> Result<usize, String> {
    match usize::try_from(size) {
        Ok(n) if size <= i64::from(u32::MAX) => Ok(n),
        _ => Err("max_message_size must be between 0 and 4294967295".into()),
    }
}

/// `-1` for "no limit" (Godot's convention), else the number.
pub fn limit_to_godot(n: usize) -> i64 {
    if n == usize::MAX {
        -1
    } else {
        i64::try_from(n).unwrap_or(i64::MAX)
    }
}

/// A `max_elements` or `max_bytes`: `-1` (no limit) or a count.
pub fn limit_from_godot(n: i64) -> Option<usize> {
    match n {
        -1 => Some(usize::MAX),
        n => usize::try_from(n).ok(),
    }
}

/// A `max_depth` the setter accepts: 0 to the engine's ceiling.
pub fn max_depth(depth: i64) -> Result<usize, String> {
    usize::try_from(depth)
        .ok()
        .filter(|&d| d <= MAX_DEPTH_CEILING)
        .ok_or_else(|| format!("max_depth must be between 0 and {MAX_DEPTH_CEILING}"))
}

/// What a codec holds, shared by the threads that call it: the core's options, and what only
/// the properties keep.
#[derive(Clone)]
pub struct Settings {
    pub opts: Arc<Options>,
    /// Whether `precision` was set by the user. Until it is, it follows the dialect: the engine's
    /// own `real_t` in the Godot 4 dialects, single in those that have no double layout.
    precision_chosen: bool,
    pub allowed_classes: Vec<String>,
    /// Listed scripts whose native class is not known yet (they have no class name): loaded
    /// to learn it by the first call that decodes with objects allowed, not when listed.
    pub unloaded_scripts: Vec<String>,
    /// Longest message `get_var` reads and `put_packet_var` sends.
    pub max_message: usize,
    /// Largest payload a compressed or encrypted file may announce (`read_godot3_save`).
    pub max_payload: usize,
}

impl Settings {
    /// Godot 4, the engine's own precision: the bytes of its `var_to_bytes`.
    /// Objects, once allowed, only of the classes listed: none until the list is set.
    pub fn new() -> Self {
        Settings {
            opts: Arc::new(
                Options::default()
                    .with_precision(engine_precision())
                    .with_allowed_objects(Some(AllowList::new())),
            ),
            precision_chosen: false,
            allowed_classes: Vec::new(),
            unloaded_scripts: Vec::new(),
            max_message: DEFAULT_MAX_MESSAGE,
            max_payload: DEFAULT_MAX_PAYLOAD,
        }
    }

    pub fn opts_mut(&mut self) -> &mut Options {
        Arc::make_mut(&mut self.opts)
    }

    pub fn dialect(&self) -> i64 {
        value_of(&DIALECTS, self.opts.dialect)
    }

    /// Sets the dialect of a class constant's value; `false` for an unknown one. The precision
    /// follows it unless the user chose one.
    pub fn set_dialect(&mut self, value: i64) -> bool {
        let Some(dialect) = by_value(&DIALECTS, value) else {
            return false;
        };
        self.opts_mut().dialect = dialect;
        if !self.precision_chosen {
            self.opts_mut().precision = if dialect.has_double_precision() {
                engine_precision()
            } else {
                Precision::Single
            };
        }
        true
    }

    pub fn precision(&self) -> i64 {
        value_of(&PRECISIONS, self.opts.precision)
    }

    /// Sets the precision of a class constant's value; `false` for an unknown one.
    pub fn set_precision(&mut self, value: i64) -> bool {
        let Some(precision) = by_value(&PRECISIONS, value) else {
            return false;
        };
        self.opts_mut().precision = precision;
        self.precision_chosen = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each table names every core value once, with distinct constants.
    #[test]
    fn tables_cover_the_core() {
        for d in Dialect::ALL {
            assert_eq!(DIALECTS.iter().filter(|e| e.2 == d).count(), 1, "{d:?}");
        }
        let mut values: Vec<i64> = DIALECTS.iter().map(|e| e.1).collect();
        values.dedup();
        assert_eq!(values.len(), DIALECTS.len());
        assert_eq!(
            enum_hint(&PRECISIONS),
            "PRECISION_SINGLE:0,PRECISION_DOUBLE:1"
        );
    }

    #[test]
    fn the_precision_follows_the_dialect_until_chosen() {
        let mut s = Settings::new();
        assert!(s.set_dialect(DIALECT_GODOT_3));
        assert_eq!(s.precision(), PRECISION_SINGLE);
        assert!(!s.set_dialect(99));
        assert_eq!(s.dialect(), DIALECT_GODOT_3);
        assert!(s.set_dialect(DIALECT_GODOT_4));
        assert!(s.set_precision(PRECISION_DOUBLE));
        assert!(s.set_dialect(DIALECT_GODOT_4_3));
        assert_eq!(
            (s.dialect(), s.precision()),
            (DIALECT_GODOT_4_3, PRECISION_DOUBLE)
        );
    }
}

//! Settings shared by encoding and decoding, and the resource limits a decode obeys.

use std::sync::Arc;

use crate::dialect::{Dialect, Precision};
use crate::error::{CodecError, EncodeReason};
use crate::objects::AllowList;

/// The engine's `MAX_RECURSION_DEPTH`: a value nested deeper than this is refused (and, without
/// the `grow-stack` feature, the lower [`MAX_DEPTH_CEILING`]).
pub const DEFAULT_MAX_DEPTH: usize = 1024;
/// Upper bound for [`Limits::max_depth`], the engine's own limit. Any depth fits any thread's
/// stack: deep walks continue on stack segments from the heap (see `stack.rs`).
#[cfg(feature = "grow-stack")]
pub const MAX_DEPTH_CEILING: usize = 1024;
/// Upper bound for [`Limits::max_depth`] without the `grow-stack` feature: walks stay on the
/// thread's own stack, and this many levels fit the 2 MB a spawned thread gets by default even
/// unoptimized (where a level of decoding, encoding, transcoding or serde costs up to about
/// 20 KB; a tenth of that optimized). A deeper value is refused with
/// [`crate::error::DecodeReason::TooDeep`] or [`crate::error::EncodeReason::TooDeep`], never a stack overflow.
#[cfg(not(feature = "grow-stack"))]
pub const MAX_DEPTH_CEILING: usize = 64;

/// Default for [`Limits::max_elements`]: no limit, as the engine.
pub const DEFAULT_MAX_ELEMENTS: usize = usize::MAX;
/// Default for [`Limits::max_bytes`]: no limit, as the engine.
pub const DEFAULT_MAX_BYTES: usize = usize::MAX;

/// How much a single decode may produce. Every decode is already bounded by its input: no count
/// is trusted before the bytes are there, and what a decode makes grows linearly with the bytes
/// it reads. So the defaults refuse nothing the engine's `bytes_to_var` decodes; lower them to
/// bound what one input may make a process hold. (Streams bound each message by its length
/// prefix instead: [`crate::stream`].)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Nesting depth (the engine's 1024).
    pub max_depth: usize,
    /// Total container elements: Array items, Dictionary entries, object properties and
    /// NodePath parts, all levels together. (Packed-array elements are data: see `max_bytes`.)
    pub max_elements: usize,
    /// Total bytes of strings and packed-array data (PackedStringArray items included), all
    /// levels together.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: DEFAULT_MAX_DEPTH,
            max_elements: DEFAULT_MAX_ELEMENTS,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl Limits {
    /// The depth actually enforced: at most [`MAX_DEPTH_CEILING`].
    pub fn depth(&self) -> usize {
        self.max_depth.min(MAX_DEPTH_CEILING)
    }
}

/// Everything that decides the bytes: dialect, precision, object and lossy policies, limits.
///
/// The default is the Godot 4 dialect in single precision, without objects, strict, with the
/// engine's limits; the `with_*` builders change one setting each.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
/// use fast_var_codec_core::options::{AllowList, Precision};
///
/// // What a double-precision Godot 4 build reads with `bytes_to_var_with_objects`, admitting
/// // only Resources, and no deeper than 64 levels.
/// let opts = Options::new(Dialect::Godot4)
///     .with_precision(Precision::Double)
///     .with_allow_objects(true)
///     .with_allowed_objects(Some(AllowList::new().with_class("Resource")))
///     .with_max_depth(64);
/// let bytes = encode(&Value::Vector2([0.1, 2.0]), &opts)?;
/// assert_eq!(bytes.len(), 4 + 2 * 8); // binary64 components
/// assert_eq!(decode(&bytes, &opts)?.0, Value::Vector2([0.1, 2.0]));
///
/// // Godot 3 has no binary64 reals: such options encode nothing.
/// assert!(Options::new(Dialect::Godot3).with_precision(Precision::Double).check().is_err());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// Which engine's byte layout to speak.
    pub dialect: Dialect,
    /// The width of `real_t` components (math types, packed vectors): the engine build's
    /// precision. An encode writes them at this width; a decode holds them as such an engine
    /// does, whatever width the wire has (a standard engine rounds binary64 components to
    /// binary32; a double one widens binary32 ones, quieting a signalling NaN: see
    /// [`crate::real`]). Ints and floats do not depend on it.
    pub precision: Precision,
    /// Encode objects with their class and properties (`var_to_bytes_with_objects`)
    /// rather than as instance ids. Also selects the typed-container form for object types.
    /// Off, a [`crate::Value::Object`] (which has no instance id) is refused with
    /// [`crate::error::EncodeReason::WholeObject`]; [`crate::Value::ObjectId`] is the id form.
    pub full_objects: bool,
    /// Decode full objects (`bytes_to_var_with_objects`); off, they are ERR_UNAUTHORIZED.
    pub allow_objects: bool,
    /// With `allow_objects`: the only classes and scripts a decode may name (objects, `script`
    /// properties, typed containers). `None` admits all, as the engine does: never leave it
    /// `None` for untrusted bytes.
    pub allowed_objects: Option<Arc<AllowList>>,
    /// Convert values the dialect lacks (Godot 4-only types in Godot 3 and Pandemonium, a
    /// PackedVector4Array before Godot 4.3) to their closest value there instead of refusing
    /// them.
    pub allow_lossy: bool,
    /// What a single decode may produce (and the depth an encode may reach).
    pub limits: Limits,
    /// Fail a decode where the engine drops an element of a typed Array or Dictionary (one not
    /// of its type that does not convert to it), with
    /// [`crate::error::DecodeReason::DroppedElement`], instead of dropping it as the engine does.
    /// Engines never write such elements; other writers may. Off by default (the engine's
    /// result). Encoding always refuses them.
    pub refuse_dropped_elements: bool,
}

impl Options {
    /// The defaults (see [`Options`]) in `dialect`.
    pub fn new(dialect: Dialect) -> Self {
        Options {
            dialect,
            ..Options::default()
        }
    }

    /// Sets [`Options::precision`].
    pub fn with_precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    /// Sets [`Options::full_objects`].
    pub fn with_full_objects(mut self, on: bool) -> Self {
        self.full_objects = on;
        self
    }

    /// Sets [`Options::allow_objects`].
    pub fn with_allow_objects(mut self, on: bool) -> Self {
        self.allow_objects = on;
        self
    }

    /// Sets [`Options::allow_lossy`].
    pub fn with_allow_lossy(mut self, on: bool) -> Self {
        self.allow_lossy = on;
        self
    }

    /// Sets [`Options::refuse_dropped_elements`].
    pub fn with_refuse_dropped_elements(mut self, on: bool) -> Self {
        self.refuse_dropped_elements = on;
        self
    }

    /// Sets [`Options::allowed_objects`] (`None` admits every class and script).
    pub fn with_allowed_objects(mut self, list: Option<AllowList>) -> Self {
        self.allowed_objects = list.map(Arc::new);
        self
    }

    /// Refuses combinations that cannot encode anything: binary64 reals in a dialect without
    /// them (Godot 3, Pandemonium). Every encode checks this first.
    ///
    /// # Errors
    /// A [`CodecError::Encode`] with [`EncodeReason::DoubleInGodot3`] for
    /// [`Precision::Double`] in such a dialect.
    pub fn check(&self) -> Result<(), CodecError> {
        if self.precision == Precision::Double && !self.dialect.spec().real_flag {
            return Err(CodecError::encode(EncodeReason::DoubleInGodot3));
        }
        Ok(())
    }

    /// The allow-list's decisions (meaningful only with `allow_objects`).
    pub(crate) fn object_policy(&self) -> crate::objects::ObjectPolicy<'_> {
        crate::objects::ObjectPolicy(self.allowed_objects.as_deref())
    }

    /// Sets [`Limits::max_depth`] (capped at [`MAX_DEPTH_CEILING`]).
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.limits.max_depth = depth;
        self
    }

    /// Replaces all of [`Options::limits`].
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

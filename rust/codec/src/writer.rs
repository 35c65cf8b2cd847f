//! The encoder: one method per Godot value shape. Value sources (this crate's [`crate::Value`],
//! the Godot extension's Variant walker) call these and never write bytes themselves, so every
//! rule about ids, flags, widths, padding, depth and dialect conversion lives here once.
//!
//! Containers are written as `begin_*`, their children, then `end_*`; the counts given to
//! `begin_*` must match the children written.

use crate::dialect::{DialectSpec, Precision};
use crate::error::{CodecError, EncodeReason, Result};
use crate::header::*;
use crate::limits::Options;
use crate::real::{real_width, Real};
use crate::sink::PatchSink;

// What the writer writes to, and the element and text types it takes.
pub use crate::sink::{LeWord, Sink, SizeCounter, SliceSink};
pub use crate::text::Text;
use crate::types::{
    ContainerType, IntVectorType, PackedVectorType, RealType, VariantType, ENCODED_OBJECT_AS_ID,
};

fn int_vector_type(ty: VariantType) -> Option<IntVectorType> {
    match ty {
        VariantType::Vector2i => Some(IntVectorType::Vector2i),
        VariantType::Vector3i => Some(IntVectorType::Vector3i),
        VariantType::Vector4i => Some(IntVectorType::Vector4i),
        _ => None,
    }
}

/// Writes values of one dialect and precision into a [`Sink`].
///
/// Every method that writes a value refuses, with a [`CodecError::Encode`] whose path is empty
/// (the caller adds its steps with [`CodecError::within`]), what the dialect cannot hold:
/// [`EncodeReason::NotInDialect`] for a type it lacks unless [`Options::allow_lossy`], and
/// [`EncodeReason::Invalid`] for a value other than the vectors inside a Pandemonium
/// int-vector pool (see [`Writer::begin_array`]). After an error the sink holds a partial
/// value: discard what was written since the value began.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{encode, Options, Value};
/// use fast_var_codec_core::value::ContainerType;
/// use fast_var_codec_core::writer::Writer;
///
/// let opts = Options::default();
/// let mut w = Writer::new(Vec::new(), &opts)?;
/// w.begin_array(&ContainerType::Untyped, 2)?;
/// w.int(7)?;
/// w.string("hi")?;
/// w.end_array();
/// let same = Value::array(vec![Value::Int(7), Value::String("hi".into())]);
/// assert_eq!(w.into_sink(), encode(&same, &opts)?.to_vec());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub struct Writer<'o, S: Sink> {
    out: S,
    opts: &'o Options,
    spec: &'static DialectSpec,
    double: bool,
    /// Depth of the next value written (the top-level value is at 0).
    depth: usize,
    max_depth: usize,
    /// Always 0 outside tests; see [`Writer::set_node_path_padding_for_tests`].
    node_path_pad: u8,
    /// Inside a Pandemonium int-vector pool: elements are bare components of this type.
    pool: Option<IntVectorType>,
}

impl<'o, S: Sink> Writer<'o, S> {
    /// A writer that appends to `out` with `opts`.
    ///
    /// # Errors
    /// What [`Options::check`] refuses: [`EncodeReason::DoubleInGodot3`] for double precision
    /// in a dialect without binary64 reals.
    pub fn new(out: S, opts: &'o Options) -> Result<Self> {
        opts.check()?;
        let spec = opts.dialect.spec();
        let double = opts.precision == Precision::Double;
        Ok(Writer {
            out,
            opts,
            spec,
            double,
            depth: 0,
            max_depth: opts.limits.depth(),
            node_path_pad: 0,
            pool: None,
        })
    }

    /// The options the writer encodes with, for value sources whose shape depends on them
    /// (full objects or ids, lossy conversions).
    pub fn options(&self) -> &Options {
        self.opts
    }

    /// The sink as written so far (e.g. to check [`crate::writer::SliceSink::overflowed`]).
    pub fn sink(&self) -> &S {
        &self.out
    }

    /// Hands back the sink once every value is written.
    pub fn into_sink(self) -> S {
        self.out
    }

    /// The sink, to patch what was written (a count known only at the end).
    pub(crate) fn sink_mut(&mut self) -> &mut S {
        &mut self.out
    }

    /// Where the writer stands between values, for [`Writer::rewind`].
    pub(crate) fn checkpoint(&self) -> (usize, Option<IntVectorType>) {
        (self.depth, self.pool)
    }

    /// Back to a checkpoint after a value failed halfway (its containers left open); the
    /// bytes it wrote stay, for the caller to discard.
    pub(crate) fn rewind(&mut self, (depth, pool): (usize, Option<IntVectorType>)) {
        self.depth = depth;
        self.pool = pool;
    }

    #[inline]
    fn head(&mut self, ty: VariantType, flags: u32) -> Result<()> {
        let head = self.head_word(ty, flags)?;
        self.out.put_u32(head);
        Ok(())
    }

    /// A value's header and the 32-bit word after it (a scalar's payload, a container's or a
    /// packed array's count), written as one 64-bit store: one capacity check, not two.
    #[inline]
    fn head_and_word(&mut self, ty: VariantType, flags: u32, word: u32) -> Result<()> {
        let head = self.head_word(ty, flags)?;
        self.out.put_u64(u64::from(head) | u64::from(word) << 32);
        Ok(())
    }

    /// The header word of a value of type `ty`, if this writer may write one here.
    #[inline]
    fn head_word(&self, ty: VariantType, flags: u32) -> Result<u32> {
        match self.quick_head(ty) {
            Some(id) => Ok(id | flags),
            None => Err(self.head_error(ty)),
        }
    }

    /// The header word of `ty` where writing one here cannot fail, else `None`: the test of
    /// [`Writer::head_word`] without its error, for the fast paths of scalars (`try_*`).
    #[inline(always)]
    fn quick_head(&self, ty: VariantType) -> Option<u32> {
        match self.pool {
            None => self.spec.wire_id(ty).map(u32::from),
            Some(_) => None,
        }
    }

    /// Why a header of `ty` cannot be written here.
    #[cold]
    #[inline(never)]
    fn head_error(&self, ty: VariantType) -> CodecError {
        match self.pool {
            Some(pool) => Self::not_in_pool(pool, ty),
            None => self.not_in_dialect(ty),
        }
    }

    /// A scalar written as one 64-bit store when [`Writer::quick_head`] allows it: `false`,
    /// with nothing written, where the full method must say why not. The `try_*` methods are
    /// their method's common case in a few instructions, so that serde's loops inline them.
    #[cfg(feature = "serde")]
    #[inline(always)]
    fn try_head_and_word(&mut self, ty: VariantType, word: u32) -> bool {
        match self.quick_head(ty) {
            Some(head) => {
                self.out.put_u64(u64::from(head) | u64::from(word) << 32);
                true
            }
            None => false,
        }
    }

    /// [`Writer::bool`]'s common case (see [`Writer::try_head_and_word`]).
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn try_bool(&mut self, v: bool) -> bool {
        self.try_head_and_word(VariantType::Bool, u32::from(v))
    }

    /// [`Writer::int`]'s common case, an int that fits 32 bits (see
    /// [`Writer::try_head_and_word`]).
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn try_int(&mut self, v: i64) -> bool {
        match i32::try_from(v) {
            Ok(small) => self.try_head_and_word(VariantType::Int, small as u32),
            Err(_) => false,
        }
    }

    /// [`Writer::float`]'s common case for an `f32`, binary32, which holds all but NaN
    /// exactly (see [`Writer::try_head_and_word`]).
    #[cfg(feature = "serde")]
    #[inline(always)]
    pub(crate) fn try_float_f32(&mut self, v: f32) -> bool {
        !v.is_nan() && self.try_head_and_word(VariantType::Float, v.to_bits())
    }

    #[cold]
    #[inline(never)]
    fn not_in_pool(pool: IntVectorType, ty: VariantType) -> CodecError {
        CodecError::encode(EncodeReason::Invalid(format!(
            "an Array[{}] holds a {ty}",
            pool.variant_type()
        )))
    }

    #[cold]
    #[inline(never)]
    fn not_in_dialect(&self, ty: VariantType) -> CodecError {
        CodecError::encode(EncodeReason::NotInDialect {
            ty,
            dialect: self.spec.name,
        })
    }

    /// `Ok` when `ty` is absent from the dialect and may be converted (allow_lossy).
    fn lossy(&self, ty: VariantType) -> Result<()> {
        if self.opts.allow_lossy {
            Ok(())
        } else {
            Err(self.not_in_dialect(ty))
        }
    }

    fn has(&self, ty: VariantType) -> bool {
        self.spec.wire_id(ty).is_some()
    }

    #[inline]
    fn len_u32(what: &'static str, len: usize) -> Result<u32> {
        if len > MAX_LEN {
            return Err(CodecError::encode(EncodeReason::TooLarge { what, len }));
        }
        Ok(len as u32)
    }

    /// Count of `n` elements of `size` bytes each; the engine refuses more than 2^31-1 bytes.
    #[inline]
    fn elements(what: &'static str, n: usize, size: usize) -> Result<u32> {
        match n.checked_mul(size) {
            Some(bytes) if bytes <= MAX_LEN => Ok(n as u32),
            _ => Err(CodecError::encode(EncodeReason::TooLarge { what, len: n })),
        }
    }

    /// A string payload: length, UTF-8, zero padding. A text holding U+0000 is refused: every
    /// engine's decoder stops at it, so the rest would be lost in silence (Godot 4.6.3 writes
    /// U+FFFD in its place, Godot 3's String cannot hold it).
    #[inline]
    fn text<T: Text + ?Sized>(&mut self, s: &T) -> Result<()> {
        let len = Self::text_len(s)?;
        self.out.put_u32(len);
        self.text_bytes(s, len);
        Ok(())
    }

    /// A value's header and its text ([`Writer::text`]): the header and the length as one
    /// 64-bit store.
    #[inline]
    fn headed_text<T: Text + ?Sized>(&mut self, head: u32, s: &T) -> Result<()> {
        let len = Self::text_len(s)?;
        let words = u64::from(head) | u64::from(len) << 32;
        match s.as_utf8() {
            Some(bytes) => self.out.put_padded_text(words, bytes),
            None => {
                self.out.put_u64(words);
                self.text_bytes(s, len);
            }
        }
        Ok(())
    }

    /// The length word of a text payload, if the text may be written ([`Writer::text`]).
    /// Inlined into every writer of a text, its errors made out of line.
    #[inline(always)]
    fn text_len<T: Text + ?Sized>(s: &T) -> Result<u32> {
        if let Some(at) = s.nul_at() {
            return Err(Self::nul_in_text(at));
        }
        let len = s.utf8_len();
        if len + pad4(len) > MAX_LEN {
            return Err(Self::text_too_large(len));
        }
        Ok(len as u32)
    }

    #[cold]
    #[inline(never)]
    fn nul_in_text(at: usize) -> CodecError {
        CodecError::encode(EncodeReason::NulInText { at })
    }

    #[cold]
    #[inline(never)]
    fn text_too_large(len: usize) -> CodecError {
        CodecError::encode(EncodeReason::TooLarge {
            what: "string",
            len: len + pad4(len),
        })
    }

    /// A text payload's UTF-8 and zero padding, after its length word.
    #[inline]
    fn text_bytes<T: Text + ?Sized>(&mut self, s: &T, len: u32) {
        s.put_utf8(&mut self.out);
        self.out.put_zeros(pad4(len as usize));
    }

    /// Fills NodePath padding with `byte` instead of zero. Only for tests that must find
    /// those positions, to mask the heap bytes that Godot 3 and Godot 4 < 4.6.3 leave there.
    #[doc(hidden)]
    pub fn set_node_path_padding_for_tests(&mut self, byte: u8) {
        self.node_path_pad = byte;
    }

    /// Children of a container go one level deeper; refuse before writing the container if
    /// they would exceed the depth limit (the engine's check, also what stops cycles).
    #[inline]
    fn enter(&mut self, children: usize) -> Result<()> {
        if children > 0 && !self.children_fit() {
            return Err(CodecError::encode(EncodeReason::TooDeep(self.max_depth)));
        }
        self.depth += 1;
        Ok(())
    }

    /// Whether a container begun now may hold anything (its children stay within the depth
    /// limit); an empty one always may.
    #[inline]
    pub(crate) fn children_fit(&self) -> bool {
        self.depth < self.max_depth
    }

    #[inline]
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// A NIL (`null`).
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    #[inline]
    pub fn nil(&mut self) -> Result<()> {
        self.head(VariantType::Nil, 0)
    }

    /// A bool, as a u32 0 or 1.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    #[inline]
    pub fn bool(&mut self, v: bool) -> Result<()> {
        self.head_and_word(VariantType::Bool, 0, u32::from(v))
    }

    /// An int: 32-bit when it fits, else 64-bit with the flag, as the engine writes it.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    #[inline]
    pub fn int(&mut self, v: i64) -> Result<()> {
        if let Ok(small) = i32::try_from(v) {
            self.head_and_word(VariantType::Int, 0, small as u32)?;
        } else {
            self.head(VariantType::Int, FLAG_64)?;
            self.out.put_u64(v as u64);
        }
        Ok(())
    }

    /// A float: binary32 when the value survives the round trip through f32 (never NaN), else
    /// binary64.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    #[inline]
    pub fn float(&mut self, v: f64) -> Result<()> {
        let narrow = v as f32;
        if f64::from(narrow) == v {
            self.head_and_word(VariantType::Float, 0, narrow.to_bits())?;
        } else {
            self.head(VariantType::Float, FLAG_64)?;
            self.out.put_u64(v.to_bits());
        }
        Ok(())
    }

    /// A String, from UTF-8 (`str`) or UTF-32 (`[char]`) text.
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for text of 2 GiB or more; [`EncodeReason::NulInText`] for
    /// UTF-8 text holding U+0000, which every engine reads only up to (every text the writer
    /// writes is refused so: names, paths, keys); [`EncodeReason::Invalid`] inside a
    /// Pandemonium int-vector pool (see [`Writer::begin_array`]), which holds nothing else.
    #[inline]
    pub fn string<T: Text + ?Sized>(&mut self, s: &T) -> Result<()> {
        let head = self.head_word(VariantType::String, 0)?;
        self.headed_text(head, s)
    }

    /// A StringName; a plain String where the dialect has none (exactly what Godot 3 holds).
    ///
    /// # Errors
    /// As [`Writer::string`].
    pub fn string_name<T: Text + ?Sized>(&mut self, s: &T) -> Result<()> {
        if self.has(VariantType::StringName) {
            self.head(VariantType::StringName, 0)?;
            self.text(s)
        } else {
            self.string(s)
        }
    }

    /// A math type with `real_t` components, given in wire order (docs/wire_format.md#math-types).
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] when `components` does not hold exactly the type's number of
    /// components; [`EncodeReason::NotInDialect`] for a type the dialect lacks (Vector4,
    /// Projection in Godot 3) without [`Options::allow_lossy`]; [`EncodeReason::Invalid`] inside a
    /// Pandemonium int-vector pool (see [`Writer::begin_array`]), which holds nothing else.
    pub fn real<R: Real>(&mut self, ty: RealType, components: &[R]) -> Result<()> {
        if components.len() != ty.components() {
            return Err(CodecError::encode(EncodeReason::Invalid(format!(
                "{} needs {} components, got {}",
                ty.variant_type(),
                ty.components(),
                components.len()
            ))));
        }
        let vt = ty.variant_type();
        if !self.has(vt) {
            self.lossy(vt)?;
            return match ty {
                // Same four reals, same order.
                RealType::Vector4 => self.real(RealType::Quaternion, components),
                // No matrix type: its 16 reals, column by column.
                _ => {
                    let floats: Vec<f32> = components.iter().map(|c| c.to_binary32()).collect();
                    self.packed_f32(&floats)
                }
            };
        }
        if self.double {
            self.head(vt, FLAG_64)?;
            R::put_as_f64(components, &mut self.out);
        } else {
            self.head(vt, 0)?;
            R::put_as_f32(components, &mut self.out);
        }
        Ok(())
    }

    /// Vector2i, Vector3i, Vector4i, Rect2i: int32 components, never flagged.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] for the wrong number of components, or for another vector
    /// type inside a Pandemonium int-vector pool; [`EncodeReason::NotInDialect`] in Godot 3
    /// without [`Options::allow_lossy`].
    pub fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Result<()> {
        if components.len() != ty.components() {
            return Err(CodecError::encode(EncodeReason::Invalid(format!(
                "{} needs {} components",
                ty.variant_type(),
                ty.components()
            ))));
        }
        let vt = ty.variant_type();
        match self.pool {
            Some(pool) if pool == ty => {
                self.out.put_words(components);
                return Ok(());
            }
            Some(pool) => return Err(Self::not_in_pool(pool, vt)),
            None => {}
        }
        if !self.has(vt) {
            self.lossy(vt)?;
            let reals: Vec<f64> = components.iter().map(|&c| f64::from(c)).collect();
            let as_real = match ty {
                IntVectorType::Vector2i => RealType::Vector2,
                IntVectorType::Vector3i => RealType::Vector3,
                IntVectorType::Rect2i => RealType::Rect2,
                IntVectorType::Vector4i => RealType::Vector4,
            };
            return self.real(as_real, &reals);
        }
        self.head(vt, 0)?;
        self.out.put_words(components);
        Ok(())
    }

    /// A Color, r, g, b, a: always binary32.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    pub fn color(&mut self, rgba: [f32; 4]) -> Result<()> {
        self.head(VariantType::Color, 0)?;
        self.out.put_words(&rgba);
        Ok(())
    }

    /// Starts a NodePath; then write `names + subnames` parts with [`Writer::node_path_part`].
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for 2^31 names or subnames or more; [`EncodeReason::Invalid`]
    /// inside a Pandemonium int-vector pool (see [`Writer::begin_array`]), which holds nothing
    /// else.
    pub fn begin_node_path(&mut self, names: usize, subnames: usize, absolute: bool) -> Result<()> {
        let n = Self::len_u32("NodePath names", names)?;
        let s = Self::len_u32("NodePath subnames", subnames)?;
        self.head_and_word(VariantType::NodePath, 0, n | NODE_PATH_NEW_FORMAT)?;
        self.out.put_u32(s);
        self.out
            .put_u32(if absolute { NODE_PATH_ABSOLUTE } else { 0 });
        Ok(())
    }

    /// One NodePath name or subname (padding always zero, unlike Godot 3 and 4.0–4.6.2).
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for a part of 2 GiB or more.
    pub fn node_path_part<T: Text + ?Sized>(&mut self, part: &T) -> Result<()> {
        if self.node_path_pad == 0 {
            return self.text(part);
        }
        let len = part.utf8_len();
        self.out.put_u32(len as u32);
        part.put_utf8(&mut self.out);
        for _ in 0..pad4(len) {
            self.out.put_slice(&[self.node_path_pad]);
        }
        Ok(())
    }

    /// An RID: its id in Godot 4; no payload in Godot 3 (an RID with an id needs allow_lossy).
    ///
    /// # Errors
    /// [`EncodeReason::NotInDialect`] for a non-zero id in a dialect without RID payloads and
    /// without [`Options::allow_lossy`]; [`EncodeReason::Invalid`] inside a Pandemonium int-vector
    /// pool (see [`Writer::begin_array`]), which holds nothing else.
    pub fn rid(&mut self, id: u64) -> Result<()> {
        // Godot 3 keeps only the type: a non-empty RID loses its id, so it is lossy like every
        // other Godot 4 value without an exact form there.
        if !self.spec.rid_payload && id != 0 {
            self.lossy(VariantType::Rid)?;
        }
        self.head(VariantType::Rid, 0)?;
        if self.spec.rid_payload {
            self.out.put_u64(id);
        }
        Ok(())
    }

    /// A null or freed object: the engine writes a bare NIL header.
    ///
    /// # Errors
    /// As [`Writer::nil`].
    pub fn object_null(&mut self) -> Result<()> {
        self.nil()
    }

    /// An object as its instance id (`var_to_bytes` without objects).
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    pub fn object_id(&mut self, id: u64) -> Result<()> {
        self.head(VariantType::Object, FLAG_OBJECT_AS_ID)?;
        self.out.put_u64(id);
        Ok(())
    }

    /// Starts a full object; then `properties` × ([`Writer::property_name`], value), then
    /// [`Writer::end_object`].
    ///
    /// # Errors
    /// [`EncodeReason::WholeObject`] without [`crate::Options::full_objects`] (`var_to_bytes`
    /// writes an object as its instance id: [`Writer::object_id`]);
    /// [`EncodeReason::TooDeep`] when the properties would pass [`crate::options::Limits::max_depth`];
    /// [`EncodeReason::TooLarge`] for 2^31 properties or more, or a class name of 2 GiB or
    /// more; [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    pub fn begin_object<T: Text + ?Sized>(&mut self, class: &T, properties: usize) -> Result<()> {
        if !self.opts.full_objects {
            let mut name = Vec::with_capacity(class.utf8_len());
            class.put_utf8(&mut name);
            return Err(CodecError::encode(EncodeReason::WholeObject {
                class: String::from_utf8_lossy(&name).into_owned(),
            }));
        }
        let count = Self::len_u32("object properties", properties)?;
        self.enter(properties)?;
        self.head(VariantType::Object, 0)?;
        self.text(class)?;
        self.out.put_u32(count);
        Ok(())
    }

    /// The name of the next property of a full object, before its value.
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for a name of 2 GiB or more.
    pub fn property_name<T: Text + ?Sized>(&mut self, name: &T) -> Result<()> {
        self.text(name)
    }

    /// The `script` property of a full object (`None`: the object has no script): in Godot 4
    /// the script's `res://` path, NIL without a script. A script without such a path
    /// (built-in, unsaved) cannot travel, and neither can any script to Godot 3 or Pandemonium,
    /// which embed the Script object with its source code (a Godot 4 script is not theirs).
    ///
    /// # Errors
    /// [`EncodeReason::ScriptNotInDialect`] for a script in Godot 3 or Pandemonium;
    /// [`EncodeReason::Invalid`] for a script path that is not `res://`.
    pub fn script_property(&mut self, path: Option<&str>) -> Result<()> {
        self.property_name("script")?;
        match path {
            None => self.nil(),
            Some(p) if !self.spec.script_as_path => {
                Err(CodecError::encode(EncodeReason::ScriptNotInDialect {
                    path: p.to_owned(),
                    dialect: self.spec.name,
                }))
            }
            Some(p) if crate::objects::is_script_path(p) => self.string(p),
            Some(p) => Err(Self::pathless_script(p)),
        }
    }

    fn pathless_script(path: &str) -> CodecError {
        CodecError::encode(EncodeReason::Invalid(format!(
            "a script without a res:// path ({path:?}) cannot be sent as a full object"
        )))
    }

    /// Ends the full object [`Writer::begin_object`] started, once its properties are written.
    pub fn end_object(&mut self) {
        self.leave();
    }

    /// A Callable: no payload in Godot 4; NIL in Godot 3 (lossy).
    ///
    /// # Errors
    /// [`EncodeReason::NotInDialect`] in Godot 3 without [`Options::allow_lossy`];
    /// [`EncodeReason::Invalid`] inside a Pandemonium int-vector pool (see
    /// [`Writer::begin_array`]), which holds nothing else.
    pub fn callable(&mut self) -> Result<()> {
        if !self.has(VariantType::Callable) {
            self.lossy(VariantType::Callable)?;
            return self.nil();
        }
        self.head(VariantType::Callable, 0)
    }

    /// A Signal: name and object id; `[name, id]` in Godot 3 (lossy).
    ///
    /// # Errors
    /// As [`Writer::callable`]; [`EncodeReason::TooLarge`] for a name of 2 GiB or more.
    pub fn signal<T: Text + ?Sized>(&mut self, name: &T, object_id: u64) -> Result<()> {
        if !self.has(VariantType::Signal) {
            self.lossy(VariantType::Signal)?;
            self.begin_array(&ContainerType::Untyped, 2)?;
            self.string(name)?;
            self.int(object_id as i64)?;
            self.end_array();
            return Ok(());
        }
        self.head(VariantType::Signal, 0)?;
        self.text(name)?;
        self.out.put_u64(object_id);
        Ok(())
    }

    /// Header kind for a container type; the info is written by [`Writer::type_info`].
    fn kind_of(&self, ty: &ContainerType, typed_allowed: bool) -> u32 {
        if !typed_allowed {
            return KIND_NONE;
        }
        match ty {
            ContainerType::Untyped | ContainerType::Builtin(VariantType::Nil) => KIND_NONE,
            ContainerType::Builtin(_) => KIND_BUILTIN,
            ContainerType::Class(_) => KIND_CLASS_NAME,
            ContainerType::Script(_) if self.opts.full_objects => KIND_SCRIPT,

            ContainerType::Script(_) => KIND_CLASS_NAME,
        }
    }

    fn type_info(&mut self, ty: &ContainerType, kind: u32) -> Result<()> {
        let full = self.opts.full_objects;
        match (kind, ty) {
            (KIND_NONE, _) => Ok(()),
            (_, ContainerType::Builtin(vt)) => {
                self.out.put_u32(vt.id());
                Ok(())
            }
            (_, ContainerType::Class(name)) if full => self.text(name.as_str()),
            (KIND_SCRIPT, ContainerType::Script(path)) => self.text(path.as_str()),
            _ => self.text(ENCODED_OBJECT_AS_ID),
        }
    }

    /// A script type in full-object mode needs a `res://` path.
    fn check_script_type(&self, ty: &ContainerType, kind: u32) -> Result<()> {
        match ty {
            ContainerType::Script(p)
                if kind == KIND_SCRIPT && !crate::objects::is_script_path(p) =>
            {
                Err(Self::pathless_script(p))
            }
            _ => Ok(()),
        }
    }

    /// Starts an Array of `count` elements; typed where the dialect has typed arrays. Then
    /// write the elements and call [`Writer::end_array`].
    ///
    /// In Pandemonium an Array typed Vector2i, Vector3i or Vector4i travels as that dialect's
    /// int-vector pool array: its elements must then all be [`Writer::int_vector`]s of that type.
    ///
    /// # Errors
    /// [`EncodeReason::TooDeep`] when the elements would pass [`crate::options::Limits::max_depth`];
    /// [`EncodeReason::TooLarge`] for 2^31 elements or more; [`EncodeReason::Invalid`] for a
    /// script type whose path is not `res://` (with [`Options::full_objects`]), or inside an
    /// int-vector pool.
    pub fn begin_array(&mut self, element: &ContainerType, count: usize) -> Result<()> {
        if let ContainerType::Untyped = element {
            return self.begin_untyped_array(count);
        }
        let n = Self::len_u32("Array", count)?;
        if let Some(pool) = self.pool {
            return Err(Self::not_in_pool(pool, VariantType::Array));
        }
        // Pandemonium: Array[Vector2i] (…) travels as its pool array.
        if let ContainerType::Builtin(vt) = element {
            if let Some((ty, id)) =
                int_vector_type(*vt).and_then(|t| Some((t, self.spec.int_vector_pool(t)?)))
            {
                Self::elements("pool array", count, 4 * ty.components())?;
                self.enter(0)?;
                self.out.put_u32(u32::from(id));
                self.out.put_u32(n);
                self.pool = Some(ty);
                return Ok(());
            }
        }
        self.enter(count)?;
        if let Some(id) = self.spec.typed_array_id {
            if self.typed_array_form(id, element, n)? {
                return Ok(());
            }
        }
        let kind = self.kind_of(element, self.spec.typed_arrays);
        self.check_script_type(element, kind)?;
        self.head(VariantType::Array, kind << KIND_SHIFT_ELEMENT)?;
        self.type_info(element, kind)?;
        self.out.put_u32(n);
        Ok(())
    }

    /// [`Writer::begin_array`] of an untyped Array, which every dialect writes alike: a head
    /// without type information, and the count.
    #[inline]
    pub(crate) fn begin_untyped_array(&mut self, count: usize) -> Result<()> {
        let n = Self::len_u32("Array", count)?;
        if let Some(pool) = self.pool {
            return Err(Self::not_in_pool(pool, VariantType::Array));
        }
        self.enter(count)?;
        self.head_and_word(VariantType::Array, 0, n)?;
        Ok(())
    }

    /// Ends the Array [`Writer::begin_array`] started, once its elements are written.
    pub fn end_array(&mut self) {
        self.pool = None;
        self.leave();
    }

    /// Pandemonium 5's TYPED_ARRAY for typed arrays it can express; `false` when the element
    /// type has no such form (the caller writes a plain Array).
    fn typed_array_form(&mut self, id: u8, element: &ContainerType, n: u32) -> Result<bool> {
        let object = self.spec.wire_id(VariantType::Object);
        let (elem_id, class) = match element {
            ContainerType::Builtin(VariantType::Nil) | ContainerType::Untyped => return Ok(false),
            ContainerType::Builtin(VariantType::Object) => (object, Some("")),
            ContainerType::Builtin(t) => (self.spec.wire_id(*t), None),
            ContainerType::Class(name) => (object, Some(name.as_str())),
            // Only a class name travels: the script's base class is not known here.
            ContainerType::Script(_) => return Ok(false),
        };
        let Some(elem_id) = elem_id else {
            return Ok(false);
        };
        match class {
            Some(name) if self.opts.full_objects => {
                self.out.put_u32(u32::from(id));
                self.out.put_u32(u32::from(elem_id));
                self.head(VariantType::StringName, 0)?;
                self.text(name)?;
            }
            Some(_) => {
                self.out.put_u32(u32::from(id) | FLAG_OBJECT_AS_ID);
                self.out.put_u32(u32::from(elem_id));
            }
            None => {
                self.out.put_u32(u32::from(id));
                self.out.put_u32(u32::from(elem_id));
            }
        }
        self.out.put_u32(n);
        Ok(true)
    }

    /// Starts a Dictionary of `count` key/value pairs (write key, value, key, value …), then
    /// [`Writer::end_dictionary`]; typed where the dialect has typed dictionaries.
    ///
    /// # Errors
    /// As [`Writer::begin_array`].
    pub fn begin_dictionary(
        &mut self,
        key: &ContainerType,
        value: &ContainerType,
        count: usize,
    ) -> Result<()> {
        if let (ContainerType::Untyped, ContainerType::Untyped) = (key, value) {
            return self.begin_untyped_dictionary(count);
        }
        let n = Self::len_u32("Dictionary", count)?;
        self.enter(count)?;
        let typed = self.spec.typed_dictionaries;
        let (kk, vk) = (self.kind_of(key, typed), self.kind_of(value, typed));
        self.check_script_type(key, kk)?;
        self.check_script_type(value, vk)?;
        self.head(
            VariantType::Dictionary,
            (kk << KIND_SHIFT_ELEMENT) | (vk << KIND_SHIFT_VALUE),
        )?;
        self.type_info(key, kk)?;
        self.type_info(value, vk)?;
        self.out.put_u32(n);
        Ok(())
    }

    /// [`Writer::begin_dictionary`] of an untyped Dictionary, which every dialect writes
    /// alike: a head without type information, and the count.
    #[inline]
    pub(crate) fn begin_untyped_dictionary(&mut self, count: usize) -> Result<()> {
        let n = Self::len_u32("Dictionary", count)?;
        self.enter(count)?;
        self.head_and_word(VariantType::Dictionary, 0, n)?;
        Ok(())
    }

    /// Ends the Dictionary [`Writer::begin_dictionary`] started, once its entries are written.
    pub fn end_dictionary(&mut self) {
        self.leave();
    }

    /// A PackedByteArray, zero-padded to a multiple of 4.
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for 2 GiB or more; [`EncodeReason::Invalid`] inside a Pandemonium
    /// int-vector pool (see [`Writer::begin_array`]), which holds nothing else.
    pub fn packed_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        let pad = self.packed_bytes_head(bytes.len())?;
        self.out.put_slice(bytes);
        self.out.put_zeros(pad);
        Ok(())
    }

    /// The part of a PackedByteArray of `len` bytes that comes before its data (type and
    /// length), for a value source that places the data itself (the Godot extension has the
    /// engine copy a large array into memory it need not zero first). Returns the number of
    /// zero bytes that must follow the data. [`Writer::packed_bytes`] is this, the data and the
    /// padding.
    ///
    /// # Errors
    /// As [`Writer::packed_bytes`].
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::{encode, Options, Value};
    /// use fast_var_codec_core::writer::Writer;
    ///
    /// let opts = Options::default();
    /// let mut w = Writer::new(Vec::new(), &opts)?;
    /// let pad = w.packed_bytes_head(3)?;
    /// let mut bytes = w.into_sink();
    /// bytes.extend_from_slice(b"abc");
    /// bytes.resize(bytes.len() + pad, 0);
    /// assert_eq!(bytes, encode(&Value::PackedByteArray(b"abc".to_vec()), &opts)?.to_vec());
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn packed_bytes_head(&mut self, len: usize) -> Result<usize> {
        let n = Self::elements("PackedByteArray", len, 1)?;
        self.head_and_word(VariantType::PackedByteArray, 0, n)?;
        Ok(pad4(len))
    }

    fn packed_words<T: LeWord>(&mut self, ty: VariantType, words: &[T]) -> Result<()> {
        self.packed_words_head(ty, words.len(), T::SIZE)?;
        self.out.put_words(words);
        Ok(())
    }

    /// The type and count of a packed array of `count` words of `size` bytes: one copy for
    /// every word type (once per packed array, the call costs nothing).
    #[inline(never)]
    fn packed_words_head(&mut self, ty: VariantType, count: usize, size: usize) -> Result<()> {
        let n = Self::elements(ty.name(), count, size)?;
        self.head_and_word(ty, 0, n)
    }

    /// The part of a packed array of `count` numbers of type `ty` that comes before its data,
    /// for a value source that places the data itself (the npm package copies a large typed
    /// array from JavaScript's memory into the output once): `Some(n)`, the `n` bytes that must
    /// follow, the numbers' little-endian bytes and then zeros (a PackedByteArray's padding),
    /// which make the bytes of [`Writer::packed_bytes`], [`Writer::packed_i32`],
    /// [`Writer::packed_i64`], [`Writer::packed_f32`] or [`Writer::packed_f64`]. `None`, nothing
    /// written, where those write something else (Godot 3 has no PackedInt64Array or
    /// PackedFloat64Array) or `ty` is none of those types.
    ///
    /// # Errors
    /// As the writers it stands for.
    #[doc(hidden)]
    pub fn packed_numbers_head(&mut self, ty: VariantType, count: usize) -> Result<Option<usize>> {
        let size = match ty {
            VariantType::PackedByteArray => {
                let pad = self.packed_bytes_head(count)?;
                return Ok(Some(count + pad));
            }
            VariantType::PackedInt32Array | VariantType::PackedFloat32Array => 4,
            VariantType::PackedInt64Array | VariantType::PackedFloat64Array => 8,
            _ => return Ok(None),
        };
        if !self.has(ty) {
            return Ok(None);
        }
        self.packed_words_head(ty, count, size)?;
        Ok(Some(count * size))
    }

    /// A PackedInt32Array.
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for 2 GiB of data or more; [`EncodeReason::Invalid`] inside a
    /// Pandemonium int-vector pool (see [`Writer::begin_array`]), which holds nothing else.
    pub fn packed_i32(&mut self, values: &[i32]) -> Result<()> {
        self.packed_words(VariantType::PackedInt32Array, values)
    }

    /// A PackedFloat32Array (Godot 3's PoolRealArray).
    ///
    /// # Errors
    /// As [`Writer::packed_i32`].
    pub fn packed_f32(&mut self, values: &[f32]) -> Result<()> {
        self.packed_words(VariantType::PackedFloat32Array, values)
    }

    /// PackedInt64Array; an Array of ints in Godot 3 (lossy: the values stay exact).
    ///
    /// # Errors
    /// [`EncodeReason::NotInDialect`] in Godot 3 without [`Options::allow_lossy`] (there,
    /// [`EncodeReason::TooDeep`] at the depth limit); otherwise as [`Writer::packed_i32`].
    pub fn packed_i64(&mut self, values: &[i64]) -> Result<()> {
        let ty = VariantType::PackedInt64Array;
        if !self.has(ty) {
            self.lossy(ty)?;
            self.begin_array(&ContainerType::Untyped, values.len())?;
            for &v in values {
                self.int(v)?;
            }
            self.end_array();
            return Ok(());
        }
        self.packed_words(ty, values)
    }

    /// PackedFloat64Array; an Array of floats in Godot 3 (lossy: the values stay exact).
    ///
    /// # Errors
    /// As [`Writer::packed_i64`].
    pub fn packed_f64(&mut self, values: &[f64]) -> Result<()> {
        let ty = VariantType::PackedFloat64Array;
        if !self.has(ty) {
            self.lossy(ty)?;
            self.begin_array(&ContainerType::Untyped, values.len())?;
            for &v in values {
                self.float(v)?;
            }
            self.end_array();
            return Ok(());
        }
        self.packed_words(ty, values)
    }

    /// PackedVector2/3/4Array from flat components (x, y, … per element).
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] when `flat` is not a whole number of vectors;
    /// [`EncodeReason::NotInDialect`] for PackedVector4Array in Godot 3 without
    /// [`Options::allow_lossy`]; otherwise as [`Writer::packed_i32`].
    pub fn packed_vectors<R: Real>(&mut self, ty: PackedVectorType, flat: &[R]) -> Result<()> {
        let comps = ty.components();
        let vt = ty.variant_type();
        if !flat.len().is_multiple_of(comps) {
            return Err(CodecError::encode(EncodeReason::Invalid(format!(
                "{vt} components must come in groups of {comps}"
            ))));
        }
        let count = flat.len() / comps;
        if !self.has(vt) {
            self.lossy(vt)?;
            self.begin_array(&ContainerType::Untyped, count)?;
            for v in flat.chunks_exact(comps) {
                self.real(RealType::Vector4, v)?;
            }
            self.end_array();
            return Ok(());
        }
        let size = real_width(self.double);
        Self::elements(vt.name(), flat.len(), size)?;
        let flags = if self.double { FLAG_64 } else { 0 };
        self.head_and_word(vt, flags, count as u32)?;
        if self.double {
            R::put_as_f64(flat, &mut self.out);
        } else {
            R::put_as_f32(flat, &mut self.out);
        }
        Ok(())
    }

    /// PackedColorArray from flat r, g, b, a components: always binary32.
    ///
    /// # Errors
    /// [`EncodeReason::Invalid`] when `flat` is not a whole number of colors; otherwise as
    /// [`Writer::packed_i32`].
    pub fn packed_colors(&mut self, flat: &[f32]) -> Result<()> {
        if !flat.len().is_multiple_of(4) {
            return Err(CodecError::encode(EncodeReason::Invalid(
                "PackedColorArray components must come in groups of 4".into(),
            )));
        }
        Self::elements("PackedColorArray", flat.len(), 4)?;
        self.head_and_word(VariantType::PackedColorArray, 0, (flat.len() / 4) as u32)?;
        self.out.put_words(flat);
        Ok(())
    }

    /// Starts a PackedStringArray; then `count` × [`Writer::packed_string_item`].
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for 2^31 items or more; [`EncodeReason::Invalid`] inside a
    /// Pandemonium int-vector pool (see [`Writer::begin_array`]), which holds nothing else.
    pub fn begin_packed_strings(&mut self, count: usize) -> Result<()> {
        let n = Self::len_u32("PackedStringArray", count)?;
        self.head_and_word(VariantType::PackedStringArray, 0, n)?;
        Ok(())
    }

    /// A PackedStringArray item: its length counts a NUL terminator, which is written.
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for an item of 2 GiB or more; [`EncodeReason::NulInText`]
    /// for one holding U+0000, which every engine reads only up to.
    pub fn packed_string_item<T: Text + ?Sized>(&mut self, s: &T) -> Result<()> {
        if let Some(at) = s.nul_at() {
            return Err(CodecError::encode(EncodeReason::NulInText { at }));
        }
        let len = s.utf8_len() + 1;
        Self::len_u32("string", len + pad4(len))?;
        self.out.put_u32(len as u32);
        s.put_utf8(&mut self.out);
        self.out.put_zeros(1 + pad4(len));
        Ok(())
    }
}

/// A container begun before the number of its children is known: where its count lies, to be
/// written when it ends ([`Writer::set_count`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CountSlot(usize);

// The methods are the crate's own, as is the trait.
#[allow(private_bounds)]
impl<S: PatchSink> Writer<'_, S> {
    /// An untyped Array whose count is written at its end (it counts as not empty for the
    /// depth limit).
    #[cfg(feature = "serde")]
    pub(crate) fn begin_array_unsized(&mut self) -> Result<CountSlot> {
        self.begin_array(&ContainerType::Untyped, 1)?;
        Ok(CountSlot(self.out.written().saturating_sub(4)))
    }

    /// An untyped Dictionary whose count is written at its end.
    #[cfg(feature = "serde")]
    pub(crate) fn begin_dictionary_unsized(&mut self) -> Result<CountSlot> {
        let untyped = ContainerType::Untyped;
        self.begin_dictionary(&untyped, &untyped, 1)?;
        Ok(CountSlot(self.out.written().saturating_sub(4)))
    }

    /// Writes the count of a container begun unsized, or of one whose count changed (the
    /// transcoder's merged keys).
    ///
    /// # Errors
    /// [`EncodeReason::TooLarge`] for a count the format cannot carry.
    pub(crate) fn set_count(&mut self, slot: CountSlot, count: usize) -> Result<()> {
        let n = Self::len_u32("container", count)?;
        self.out.patch_u32(slot.0, n);
        Ok(())
    }

    /// The count slot of the container whose count was just written.
    pub(crate) fn last_count_slot(&self) -> CountSlot {
        CountSlot(self.out.written().saturating_sub(4))
    }
}

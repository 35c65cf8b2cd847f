//! [`Build`]: what a decode makes of the values the reader finds. This crate's
//! [`crate::value::ValueBuilder`] makes [`crate::Value`]s; the Godot extension makes Variants; the
//! transcoder writes another dialect as it reads. The reader ([`crate::reader::decode_with`]) walks the
//! bytes, checks them as the engine does, and calls a builder for each value.

use std::borrow::Cow;

use crate::dialect::Utf8Rules;
use crate::error::DecodeReason;
use crate::limits::Options;
use crate::real::WireReals;
use crate::text::decode_utf8;
use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType};

/// Builds values of some model from what the reader finds. Methods that may refuse
/// (containers, objects) return a [`DecodeReason`], which the reader turns into an error at
/// the value's offset.
pub trait Build {
    /// What a decode produces: any value, at any depth.
    type Value;
    /// An Array being filled, between [`Build::begin_array`] and [`Build::end_array`].
    type Array;
    /// A Dictionary being filled, between [`Build::begin_dictionary`] and
    /// [`Build::end_dictionary`].
    type Dictionary;
    /// A full object being filled, between [`Build::begin_object`] and [`Build::end_object`].
    type Object;
    /// A PackedStringArray being filled, between [`Build::begin_strings`] and
    /// [`Build::end_strings`].
    type Strings;

    /// Called once before a decode with its options (e.g. to build reals at the wire's
    /// precision). Does nothing by default.
    fn configure(&mut self, _opts: &Options) {}

    /// A NIL (`null`).
    fn nil(&mut self) -> Self::Value;
    /// A bool.
    fn bool(&mut self, v: bool) -> Self::Value;
    /// An int, whichever width the wire held.
    fn int(&mut self, v: i64) -> Self::Value;
    /// A float, widened to f64 as the engine does when the wire held binary32
    /// ([`crate::real::widen_as_engine`]).
    fn float(&mut self, v: f64) -> Self::Value;
    /// A String, already checked as UTF-8 (see [`Build::string_utf8`]).
    fn string(&mut self, s: &str) -> Self::Value;
    /// A StringName (Godot 4 dialects; Godot 3 has none), already checked as UTF-8.
    fn string_name(&mut self, s: &str) -> Self::Value;

    /// A String value from its payload bytes; `None` if the dialect's engine rejects them.
    /// By default: [`decode_utf8`] with `rules` (stop at NUL, drop one BOM, validate), then
    /// [`Build::string`]. A builder may hand the bytes to code that applies the same rules.
    fn string_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Self::Value> {
        decode_utf8(raw, rules).map(|s| self.string(&s))
    }

    /// As [`Build::string_utf8`], for a StringName.
    fn string_name_utf8(&mut self, raw: &[u8], rules: Utf8Rules) -> Option<Self::Value> {
        decode_utf8(raw, rules).map(|s| self.string_name(&s))
    }

    /// As [`Build::string_utf8`], for a PackedStringArray item; `false` if rejected.
    fn push_string_utf8(
        &mut self,
        strings: &mut Self::Strings,
        raw: &[u8],
        rules: Utf8Rules,
    ) -> bool {
        match decode_utf8(raw, rules) {
            Some(s) => {
                self.push_string(strings, &s);
                true
            }
            None => false,
        }
    }
    /// A math type (Vector2 … Projection): its `real_t` components in wire order, at the wire's
    /// width. [`crate::real`] converts them as an engine of either precision does.
    fn real(&mut self, ty: RealType, components: WireReals<'_>) -> Self::Value;
    /// Vector2i, Rect2i, Vector3i or Vector4i: its int32 components in wire order.
    fn int_vector(&mut self, ty: IntVectorType, components: &[i32]) -> Self::Value;
    /// A Color: r, g, b, a.
    fn color(&mut self, rgba: [f32; 4]) -> Self::Value;
    /// A NodePath: its names, subnames (the property path) and whether it is absolute.
    fn node_path(
        &mut self,
        names: &[Cow<'_, str>],
        subnames: &[Cow<'_, str>],
        absolute: bool,
    ) -> Self::Value;
    /// An RID: its id, 0 in dialects that send none (Godot 3).
    fn rid(&mut self, id: u64) -> Self::Value;
    /// An object sent as an instance id (never 0: that is [`Build::null_object`]).
    fn object_id(&mut self, id: u64) -> Self::Value;
    /// A null object: an instance id of 0, or a full object with an empty class name. NIL by
    /// default (what the engine makes of it).
    fn null_object(&mut self) -> Self::Value {
        self.nil()
    }
    /// A Callable (the wire carries nothing of it).
    fn callable(&mut self) -> Self::Value;
    /// A Signal: its name and the instance id of its object.
    fn signal(&mut self, name: &str, object_id: u64) -> Self::Value;

    /// A PackedByteArray.
    fn packed_bytes(&mut self, bytes: &[u8]) -> Self::Value;
    /// A PackedInt32Array. `raw` holds the elements' little-endian bytes (as do those of the
    /// other packed arrays below; `internals::copy_from_le` turns them into numbers).
    fn packed_i32(&mut self, raw: &[u8]) -> Self::Value;
    /// A PackedInt64Array, from little-endian bytes.
    fn packed_i64(&mut self, raw: &[u8]) -> Self::Value;
    /// A PackedFloat32Array, from little-endian bytes.
    fn packed_f32(&mut self, raw: &[u8]) -> Self::Value;
    /// A PackedFloat64Array, from little-endian bytes.
    fn packed_f64(&mut self, raw: &[u8]) -> Self::Value;
    /// `wide`: components are binary64 (double-precision flag), else binary32.
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Self::Value;
    /// A PackedColorArray: r, g, b, a binary32 per element, little-endian.
    fn packed_colors(&mut self, raw: &[u8]) -> Self::Value;
    /// Starts a PackedStringArray; reserve no more than `capacity` items (what the bytes left
    /// can hold, not the count the input claims).
    fn begin_strings(&mut self, capacity: usize) -> Self::Strings;
    /// Adds one item, already checked as UTF-8, to a PackedStringArray.
    fn push_string(&mut self, strings: &mut Self::Strings, s: &str);
    /// Ends a PackedStringArray once all its items are pushed.
    fn end_strings(&mut self, strings: Self::Strings) -> Self::Value;

    /// An Array of `claimed` elements, as its count says: not yet checked against the input,
    /// so reserve only `capacity` (what the bytes left can hold).
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the Array (e.g. an element type the builder does not know); the
    /// decode then fails with it at the Array's offset.
    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> Result<Self::Array, DecodeReason>;
    /// Adds an element (converting or dropping one that does not fit the element type, as the
    /// engine does, is the builder's).
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the element; the decode then fails with it at the Array's
    /// offset.
    fn push(&mut self, array: &mut Self::Array, v: Self::Value) -> Result<(), DecodeReason>;
    /// Ends an Array once all its elements are pushed.
    fn end_array(&mut self, array: Self::Array) -> Self::Value;
    /// A Dictionary of `claimed` entries: as [`Build::begin_array`].
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the Dictionary; the decode then fails with it at the
    /// Dictionary's offset.
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> Result<Self::Dictionary, DecodeReason>;
    /// Adds an entry, in wire order; merging the keys the engine finds equal is the builder's
    /// (as [`crate::value::ValueBuilder`] does).
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the entry; the decode then fails with it at the Dictionary's
    /// offset.
    fn insert(
        &mut self,
        dict: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), DecodeReason>;
    /// Ends a Dictionary once all its entries are inserted.
    fn end_dictionary(&mut self, dict: Self::Dictionary) -> Self::Value;
    /// Whether a full object of `class` can exist here, asked as soon as its name is read
    /// (after the allow-list admitted it); nothing may be made yet. Admits all by default.
    ///
    /// # Errors
    /// [`DecodeReason::UnknownClass`] for a class that cannot be made here (the reader reports
    /// it as the dialect's engine does), or another [`DecodeReason`]; the decode then fails at
    /// the class name's offset.
    fn check_class(&mut self, _class: &str) -> Result<(), DecodeReason> {
        Ok(())
    }
    /// Makes a full object of `class`. Called once the object policy has admitted the class
    /// and the script the object carries, with all its properties already read.
    ///
    /// # Errors
    /// As [`Build::check_class`].
    fn begin_object(&mut self, class: &str) -> Result<Self::Object, DecodeReason>;
    /// Sets one property of a full object, in wire order (`script` included, already admitted).
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the property; the decode then fails at its name's offset.
    fn set_property(
        &mut self,
        object: &mut Self::Object,
        name: &str,
        value: Self::Value,
    ) -> Result<(), DecodeReason>;
    /// Gives a full object the script whose `res://` path its `script` property holds (`value`,
    /// a String), once the object policy has admitted it: in the dialects that send a script
    /// as its path (Godot 4.3+; the others never call this). By default, sets `value` as the
    /// `script` property.
    ///
    /// # Errors
    /// As [`Build::set_property`].
    fn set_script(
        &mut self,
        object: &mut Self::Object,
        value: Self::Value,
        _path: &str,
    ) -> Result<(), DecodeReason> {
        self.set_property(object, "script", value)
    }
    /// Ends an object once its properties are set, and makes it a value.
    ///
    /// # Errors
    /// A [`DecodeReason`] to refuse the object; the decode then fails at its class name's
    /// offset.
    fn end_object(&mut self, object: Self::Object) -> Result<Self::Value, DecodeReason>;

    /// Whether the reader calls [`Build::located`]. False by default, and then the reader
    /// does nothing more for it (not even the call); a builder that overrides `located` sets it.
    const LOCATES: bool = false;

    /// With [`Build::LOCATES`]: called with each value once it is read whole, and where it
    /// lies: `start` is the offset of its header and `end` the offset after it, both in the
    /// `bytes` given to [`decode_with`](crate::reader::decode_with) (`end` may pass their end by a final PackedByteArray's
    /// missing padding). Called for the top value and every value inside a container (items,
    /// keys and values, object property values), inner values first; not for the vectors of
    /// Pandemonium's int-vector pool arrays nor the items of a PackedStringArray, which are
    /// data, not values. Returns `value` unchanged by default; a tool that shows where values
    /// are (a dump) records the offsets.
    fn located(&mut self, value: Self::Value, _start: usize, _end: usize) -> Self::Value {
        value
    }
}

/// Pushes `v` onto a container's items under construction, stored straight into the Vec when it
/// has room (as it has when the count was known): a push that may grow the Vec keeps the value
/// on the stack across that call and copies it in afterwards, a reload of what was just stored
/// in parts (a stalled load per element, a third of an Array of ints' decode).
///
/// # Examples
/// ```
/// use fast_var_codec_core::reader::push_in_place;
///
/// let mut items = Vec::with_capacity(2);
/// push_in_place(&mut items, 1);
/// push_in_place(&mut items, 2);
/// push_in_place(&mut items, 3); // past the capacity: grows as `push` does
/// assert_eq!(items, [1, 2, 3]);
/// ```
#[inline(always)]
pub fn push_in_place<T>(items: &mut Vec<T>, v: T) {
    if items.len() < items.capacity() {
        items.push(v);
    } else {
        push_grown(items, v);
    }
}

#[inline(never)]
fn push_grown<T>(items: &mut Vec<T>, v: T) {
    items.push(v);
}

/// The [`Build`] methods of a builder that wraps another in its field `inner` and hands every
/// value, string list and object to it unchanged: everything but the containers and
/// [`Build::located`], which wrappers watch ([`crate::locate`]). Expands inside an
/// `impl Build for ...` whose associated types are the inner builder's.
macro_rules! forward_values_to_inner {
    () => {
        fn configure(&mut self, opts: &crate::limits::Options) {
            self.inner.configure(opts)
        }
        fn nil(&mut self) -> Self::Value {
            self.inner.nil()
        }
        fn bool(&mut self, v: bool) -> Self::Value {
            self.inner.bool(v)
        }
        fn int(&mut self, v: i64) -> Self::Value {
            self.inner.int(v)
        }
        fn float(&mut self, v: f64) -> Self::Value {
            self.inner.float(v)
        }
        fn string(&mut self, s: &str) -> Self::Value {
            self.inner.string(s)
        }
        fn string_name(&mut self, s: &str) -> Self::Value {
            self.inner.string_name(s)
        }
        fn string_utf8(
            &mut self,
            raw: &[u8],
            rules: crate::dialect::Utf8Rules,
        ) -> Option<Self::Value> {
            self.inner.string_utf8(raw, rules)
        }
        fn string_name_utf8(
            &mut self,
            raw: &[u8],
            rules: crate::dialect::Utf8Rules,
        ) -> Option<Self::Value> {
            self.inner.string_name_utf8(raw, rules)
        }
        fn push_string_utf8(
            &mut self,
            strings: &mut Self::Strings,
            raw: &[u8],
            rules: crate::dialect::Utf8Rules,
        ) -> bool {
            self.inner.push_string_utf8(strings, raw, rules)
        }
        fn real(
            &mut self,
            ty: crate::types::RealType,
            components: crate::real::WireReals<'_>,
        ) -> Self::Value {
            self.inner.real(ty, components)
        }
        fn int_vector(
            &mut self,
            ty: crate::types::IntVectorType,
            components: &[i32],
        ) -> Self::Value {
            self.inner.int_vector(ty, components)
        }
        fn color(&mut self, rgba: [f32; 4]) -> Self::Value {
            self.inner.color(rgba)
        }
        fn node_path(
            &mut self,
            names: &[std::borrow::Cow<'_, str>],
            subnames: &[std::borrow::Cow<'_, str>],
            absolute: bool,
        ) -> Self::Value {
            self.inner.node_path(names, subnames, absolute)
        }
        fn rid(&mut self, id: u64) -> Self::Value {
            self.inner.rid(id)
        }
        fn object_id(&mut self, id: u64) -> Self::Value {
            self.inner.object_id(id)
        }
        fn null_object(&mut self) -> Self::Value {
            self.inner.null_object()
        }
        fn callable(&mut self) -> Self::Value {
            self.inner.callable()
        }
        fn signal(&mut self, name: &str, object_id: u64) -> Self::Value {
            self.inner.signal(name, object_id)
        }
        fn packed_bytes(&mut self, bytes: &[u8]) -> Self::Value {
            self.inner.packed_bytes(bytes)
        }
        fn packed_i32(&mut self, raw: &[u8]) -> Self::Value {
            self.inner.packed_i32(raw)
        }
        fn packed_i64(&mut self, raw: &[u8]) -> Self::Value {
            self.inner.packed_i64(raw)
        }
        fn packed_f32(&mut self, raw: &[u8]) -> Self::Value {
            self.inner.packed_f32(raw)
        }
        fn packed_f64(&mut self, raw: &[u8]) -> Self::Value {
            self.inner.packed_f64(raw)
        }
        fn packed_vectors(
            &mut self,
            ty: crate::types::PackedVectorType,
            raw: &[u8],
            wide: bool,
        ) -> Self::Value {
            self.inner.packed_vectors(ty, raw, wide)
        }
        fn packed_colors(&mut self, raw: &[u8]) -> Self::Value {
            self.inner.packed_colors(raw)
        }
        fn begin_strings(&mut self, capacity: usize) -> Self::Strings {
            self.inner.begin_strings(capacity)
        }
        fn push_string(&mut self, strings: &mut Self::Strings, s: &str) {
            self.inner.push_string(strings, s)
        }
        fn end_strings(&mut self, strings: Self::Strings) -> Self::Value {
            self.inner.end_strings(strings)
        }
        fn check_class(
            &mut self,
            class: &str,
        ) -> std::result::Result<(), crate::error::DecodeReason> {
            self.inner.check_class(class)
        }
        fn begin_object(
            &mut self,
            class: &str,
        ) -> std::result::Result<Self::Object, crate::error::DecodeReason> {
            self.inner.begin_object(class)
        }
        fn set_property(
            &mut self,
            object: &mut Self::Object,
            name: &str,
            value: Self::Value,
        ) -> std::result::Result<(), crate::error::DecodeReason> {
            self.inner.set_property(object, name, value)
        }
        fn set_script(
            &mut self,
            object: &mut Self::Object,
            value: Self::Value,
            path: &str,
        ) -> std::result::Result<(), crate::error::DecodeReason> {
            self.inner.set_script(object, value, path)
        }
        fn end_object(
            &mut self,
            object: Self::Object,
        ) -> std::result::Result<Self::Value, crate::error::DecodeReason> {
            self.inner.end_object(object)
        }
    };
}
pub(crate) use forward_values_to_inner;

//! The `FastVarCodec` class as GDScript sees it.

use bytes::BytesMut;
use fast_var_codec_core::error::EncodeReason;
use fast_var_codec_core::{
    decode_with, CodecError, Dialect, Options, Precision, Sink, SizeCounter, SliceSink, Writer,
};
use godot::classes::{IRefCounted, PacketPeer, RefCounted, StreamPeer};
use godot::global::Error;
use godot::prelude::*;

use crate::from_wire::{AllowList, VariantBuilder};
use crate::last_error::LastError;
use crate::to_wire::write_variant;

/// Encodes and decodes Godot's binary Variant format (the bytes of [method @GlobalScope.var_to_bytes],
/// [method StreamPeer.put_var] and [method FileAccess.store_var]) in an explicit dialect and precision.
///
/// With [constant DIALECT_GODOT_4] and [constant PRECISION_SINGLE] (the defaults) the bytes are exactly
/// those of [method @GlobalScope.var_to_bytes]. [constant DIALECT_GODOT_3] speaks the Godot 3.1–3.6 layout
/// ([code]var2bytes[/code]), so a Godot 4 game can talk to Godot 3 games, servers and save files.
/// Errors never crash: a failed call returns empty bytes or [code]null[/code], and [method get_error]
/// and [method get_error_message] tell what went wrong and where.
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct FastVarCodec {
    /// Byte layout: [constant DIALECT_GODOT_4] (default), [constant DIALECT_GODOT_3],
    /// [constant DIALECT_PANDEMONIUM_3_8] or [constant DIALECT_PANDEMONIUM_5].
    #[var(get = get_dialect, set = set_dialect)]
    dialect: i64,
    /// Width of [code]real_t[/code] components on the wire: [constant PRECISION_SINGLE] (default) or
    /// [constant PRECISION_DOUBLE] (what double-precision engine builds write). Decoding accepts both.
    #[var(get = get_precision, set = set_precision)]
    precision: i64,
    /// Encode objects with their class and stored properties, as [method @GlobalScope.var_to_bytes_with_objects];
    /// off, objects travel as instance ids.
    #[var(get = get_full_objects, set = set_full_objects)]
    full_objects: bool,
    /// Decode full objects, as [method @GlobalScope.bytes_to_var_with_objects]. Off (default), such input
    /// fails with [constant ERR_UNAUTHORIZED]. [b]Warning:[/b] a decoded object can carry a script path, and
    /// loading that script runs its code: never turn this on for untrusted data.
    #[var(get = get_allow_objects, set = set_allow_objects)]
    allow_objects: bool,
    /// In [constant DIALECT_GODOT_3], convert Godot 4-only values (Vector2i, Vector4, Projection, Callable …)
    /// to their closest Godot 3 value instead of failing.
    #[var(get = get_allow_lossy, set = set_allow_lossy)]
    allow_lossy: bool,
    /// Deepest nesting accepted when encoding or decoding (default and maximum 1024, as the engine).
    #[var(get = get_max_depth, set = set_max_depth)]
    max_depth: i64,
    /// Most elements one decode may produce, all levels together: Array items, Dictionary entries,
    /// packed-array elements, object properties (default 16,777,216). Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_elements, set = set_max_elements)]
    max_elements: i64,
    /// Most bytes of strings and packed-array data one decode may produce (default 256 MiB).
    /// Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_bytes, set = set_max_bytes)]
    max_bytes: i64,
    /// When not empty and [member allow_objects] is on, the only full objects a decode may make:
    /// native class names ([code]"Resource"[/code]), script class names ([code]"MyData"[/code]) or
    /// script paths ([code]"res://my_data.gd"[/code]). An object of another class, or carrying another
    /// script, fails with [constant ERR_UNAUTHORIZED]; scripts are checked before they are loaded.
    #[var(get = get_allowed_classes, set = set_allowed_classes)]
    allowed_classes: PackedStringArray,
    allow_list: Option<AllowList>,
    opts: Options,
    last: LastError,
    decoded_size: i64,
    /// Reused between calls so encoding allocates only its result.
    buffer: BytesMut,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for FastVarCodec {
    fn init(base: Base<RefCounted>) -> Self {
        let opts = Options::default();
        Self {
            dialect: Self::DIALECT_GODOT_4,
            precision: Self::PRECISION_SINGLE,
            full_objects: false,
            allow_objects: false,
            allow_lossy: false,
            max_depth: opts.limits.max_depth as i64,
            max_elements: opts.limits.max_elements as i64,
            max_bytes: opts.limits.max_bytes as i64,
            allowed_classes: PackedStringArray::new(),
            allow_list: None,
            opts,
            last: LastError::default(),
            decoded_size: 0,
            buffer: BytesMut::new(),
            base,
        }
    }
}

#[godot_api]
impl FastVarCodec {
    /// The Godot 4.4–4.6 layout of [method @GlobalScope.var_to_bytes].
    #[constant]
    pub const DIALECT_GODOT_4: i64 = 0;
    /// The Godot 3.1–3.6 layout of [code]var2bytes[/code].
    #[constant]
    pub const DIALECT_GODOT_3: i64 = 1;
    /// Pandemonium engine v3.8.0–v4.9.0 ([code]var2bytes[/code]): Godot 3 layout with renumbered types.
    /// Derived from the engine's source; not checked against a running Pandemonium.
    #[constant]
    pub const DIALECT_PANDEMONIUM_3_8: i64 = 2;
    /// Pandemonium engine v5.0.0 and later, with typed arrays. Derived from the engine's source;
    /// not checked against a running Pandemonium.
    #[constant]
    pub const DIALECT_PANDEMONIUM_5: i64 = 3;
    /// 32-bit [code]real_t[/code] components, as standard engine builds write.
    #[constant]
    pub const PRECISION_SINGLE: i64 = 0;
    /// 64-bit [code]real_t[/code] components, as [code]precision=double[/code] engine builds write.
    #[constant]
    pub const PRECISION_DOUBLE: i64 = 1;

    /// Returns [member dialect].
    #[func]
    fn get_dialect(&self) -> i64 {
        self.dialect
    }
    /// Sets [member dialect].
    #[func]
    fn set_dialect(&mut self, value: i64) {
        let dialect = match value {
            Self::DIALECT_GODOT_4 => Dialect::Godot4,
            Self::DIALECT_GODOT_3 => Dialect::Godot3,
            Self::DIALECT_PANDEMONIUM_3_8 => Dialect::Pandemonium38,
            Self::DIALECT_PANDEMONIUM_5 => Dialect::Pandemonium5,
            _ => {
                godot_error!("FastVarCodec: unknown dialect {value}; keeping the current one");
                return;
            }
        };
        self.dialect = value;
        self.opts.dialect = dialect;
    }
    /// Returns [member precision].
    #[func]
    fn get_precision(&self) -> i64 {
        self.precision
    }
    /// Sets [member precision].
    #[func]
    fn set_precision(&mut self, value: i64) {
        let precision = match value {
            Self::PRECISION_SINGLE => Precision::Single,
            Self::PRECISION_DOUBLE => Precision::Double,
            _ => {
                godot_error!("FastVarCodec: unknown precision {value}; keeping the current one");
                return;
            }
        };
        self.precision = value;
        self.opts.precision = precision;
    }
    /// Returns [member full_objects].
    #[func]
    fn get_full_objects(&self) -> bool {
        self.full_objects
    }
    /// Sets [member full_objects].
    #[func]
    fn set_full_objects(&mut self, on: bool) {
        self.full_objects = on;
        self.opts.full_objects = on;
    }
    /// Returns [member allow_objects].
    #[func]
    fn get_allow_objects(&self) -> bool {
        self.allow_objects
    }
    /// Sets [member allow_objects].
    #[func]
    fn set_allow_objects(&mut self, on: bool) {
        self.allow_objects = on;
        self.opts.allow_objects = on;
    }
    /// Returns [member allow_lossy].
    #[func]
    fn get_allow_lossy(&self) -> bool {
        self.allow_lossy
    }
    /// Sets [member allow_lossy].
    #[func]
    fn set_allow_lossy(&mut self, on: bool) {
        self.allow_lossy = on;
        self.opts.allow_lossy = on;
    }
    /// Returns [member max_depth].
    #[func]
    fn get_max_depth(&self) -> i64 {
        self.max_depth
    }
    /// Sets [member max_depth].
    #[func]
    fn set_max_depth(&mut self, depth: i64) {
        let ceiling = fast_var_codec_core::limits::MAX_DEPTH_CEILING as i64;
        if !(0..=ceiling).contains(&depth) {
            godot_error!("FastVarCodec: max_depth must be between 0 and {ceiling}");
            return;
        }
        self.max_depth = depth;
        self.opts.limits.max_depth = depth as usize;
    }

    /// Returns [member max_elements].
    #[func]
    fn get_max_elements(&self) -> i64 {
        self.max_elements
    }
    /// Sets [member max_elements].
    #[func]
    fn set_max_elements(&mut self, n: i64) {
        match usize::try_from(n) {
            Ok(v) => {
                self.max_elements = n;
                self.opts.limits.max_elements = v;
            }
            Err(_) => godot_error!("FastVarCodec: max_elements cannot be negative"),
        }
    }
    /// Returns [member max_bytes].
    #[func]
    fn get_max_bytes(&self) -> i64 {
        self.max_bytes
    }
    /// Sets [member max_bytes].
    #[func]
    fn set_max_bytes(&mut self, n: i64) {
        match usize::try_from(n) {
            Ok(v) => {
                self.max_bytes = n;
                self.opts.limits.max_bytes = v;
            }
            Err(_) => godot_error!("FastVarCodec: max_bytes cannot be negative"),
        }
    }
    /// Returns [member allowed_classes].
    #[func]
    fn get_allowed_classes(&self) -> PackedStringArray {
        self.allowed_classes.clone()
    }
    /// Sets [member allowed_classes].
    #[func]
    fn set_allowed_classes(&mut self, classes: PackedStringArray) {
        self.allow_list = (!classes.is_empty()).then(|| AllowList::new(&classes));
        self.allowed_classes = classes;
    }

    /// Encodes [param value]. Returns empty bytes on failure (see [method get_error]).
    #[func]
    fn encode(&mut self, value: Variant) -> PackedByteArray {
        let res = if is_container(&value) {
            // One walk into the reused buffer, then one copy: walking Godot containers twice
            // (size, then bytes) would cost more than the copy.
            self.encode_to_buffer(&value)
                .map(|()| PackedByteArray::from(&self.buffer[..]))
        } else {
            // Sizing a leaf is cheap: write it straight into the engine's array.
            self.encode_in_place(&value)
        };
        match res {
            Ok(bytes) => {
                self.last.ok();
                bytes
            }
            Err(e) => {
                self.last.fail(e);
                PackedByteArray::new()
            }
        }
    }

    /// The exact size [method encode] would return, computed without encoding; -1 on failure.
    #[func]
    fn encoded_size(&mut self, value: Variant) -> i64 {
        let res = Writer::new(SizeCounter::default(), &self.opts).and_then(|mut w| {
            write_variant(&mut w, &value)?;
            Ok(w.into_sink().0)
        });
        match res {
            Ok(n) => {
                self.last.ok();
                n as i64
            }
            Err(e) => {
                self.last.fail(e);
                -1
            }
        }
    }

    /// Decodes one value from [param bytes], starting at [param offset]. Trailing bytes are ignored;
    /// [method get_decoded_size] tells how many were used. Returns [code]null[/code] on failure.
    #[func]
    fn decode(&mut self, bytes: PackedByteArray, #[opt(default = 0)] offset: i64) -> Variant {
        self.decoded_size = 0;
        let Ok(offset) = usize::try_from(offset) else {
            self.last.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!("negative offset {offset}"),
            );
            return Variant::nil();
        };
        let mut builder = VariantBuilder {
            allowed: self.allow_list.as_ref(),
        };
        match decode_with(bytes.as_slice(), offset, &self.opts, &mut builder) {
            Ok((v, used)) => {
                self.last.ok();
                self.decoded_size = used as i64;
                v
            }
            Err(e) => {
                self.last.fail(e);
                Variant::nil()
            }
        }
    }

    /// Bytes consumed by the last successful [method decode] or [method get_var] (0 after a failure).
    #[func]
    fn get_decoded_size(&self) -> i64 {
        self.decoded_size
    }

    /// The [enum Error] of the last call: [constant OK], or why it failed ([constant ERR_INVALID_DATA],
    /// [constant ERR_FILE_EOF], [constant ERR_UNAUTHORIZED], [constant ERR_OUT_OF_MEMORY] …).
    #[func]
    fn get_error(&self) -> Error {
        self.last.error()
    }

    /// What went wrong in the last call, with the byte offset (decoding) or the path inside the value
    /// (encoding, e.g. [code][3].items["k"][/code]); empty after a success.
    #[func]
    fn get_error_message(&self) -> GString {
        self.last.message()
    }

    /// Writes [param value] to [param peer] as [method StreamPeer.put_var] does: a 32-bit length
    /// (in the peer's byte order) and the encoding.
    #[func]
    fn put_var(&mut self, mut peer: Gd<StreamPeer>, value: Variant) -> Error {
        if let Err(e) = self.encode_to_buffer(&value) {
            return self.last.fail(e);
        }
        let Ok(len) = u32::try_from(self.buffer.len()) else {
            return self.last.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                "value too large for a 32-bit length".into(),
            );
        };
        peer.put_u32(len);
        let err = peer.put_data(&PackedByteArray::from(&self.buffer[..]));
        if err != Error::OK {
            return self
                .last
                .fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        Error::OK
    }

    /// Sends [param value] as one packet, as [method PacketPeer.put_var] does (UDP, ENet, WebSocket).
    /// Encodings larger than [member FastVarStream.max_message_size]'s default (8 MiB, the engine's
    /// [code]encode_buffer_max_size[/code]) are refused with [constant ERR_OUT_OF_MEMORY].
    #[func]
    fn put_packet_var(&mut self, mut peer: Gd<PacketPeer>, value: Variant) -> Error {
        if let Err(e) = self.encode_to_buffer(&value) {
            return self.last.fail(e);
        }
        if self.buffer.len() > fast_var_codec_core::stream::DEFAULT_MAX_MESSAGE {
            let n = self.buffer.len();
            return self.last.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                format!("a packet of {n} bytes exceeds 8 MiB"),
            );
        }
        let err = peer.put_packet(&PackedByteArray::from(&self.buffer[..]));
        if err != Error::OK {
            return self
                .last
                .fail_with(err, format!("the peer refused the packet ({err:?})"));
        }
        Error::OK
    }

    /// Takes one packet from [param peer] and decodes it, as [method PacketPeer.get_var] does.
    /// Returns [code]null[/code] with [constant ERR_UNAVAILABLE] when no packet is waiting.
    #[func]
    fn get_packet_var(&mut self, mut peer: Gd<PacketPeer>) -> Variant {
        self.decoded_size = 0;
        if peer.get_available_packet_count() <= 0 {
            self.last
                .fail_with(Error::ERR_UNAVAILABLE, "no packet is waiting".into());
            return Variant::nil();
        }
        let packet = peer.get_packet();
        let err = peer.get_packet_error();
        if err != Error::OK {
            self.last
                .fail_with(err, format!("receiving the packet failed ({err:?})"));
            return Variant::nil();
        }
        self.decode(packet, 0)
    }

    /// Reads one value written by [method put_var] (or [method StreamPeer.put_var]) from [param peer],
    /// waiting for all of it as [method StreamPeer.get_var] does. A length above 8 MiB (the
    /// engine's [code]encode_buffer_max_size[/code]) is refused without allocating. Returns
    /// [code]null[/code] on failure. To read without ever waiting, use [FastVarStream].
    #[func]
    fn get_var(&mut self, mut peer: Gd<StreamPeer>) -> Variant {
        self.decoded_size = 0;
        let len = peer.get_u32() as usize;
        if len > fast_var_codec_core::stream::DEFAULT_MAX_MESSAGE {
            self.last.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                format!(
                    "a message of {len} bytes exceeds the maximum message size of 8388608 bytes"
                ),
            );
            return Variant::nil();
        }
        // Blocking peers (TCP) wait until every byte is there, as the engine's get_var does.
        let reply = peer.get_data(len as i32);
        let err = reply
            .get(0)
            .and_then(|e| e.try_to::<i32>().ok())
            .unwrap_or(0);
        let data = reply
            .get(1)
            .and_then(|d| d.try_to::<PackedByteArray>().ok())
            .unwrap_or_default();
        if err != 0 || data.len() != len {
            self.last.fail_with(
                Error::ERR_FILE_EOF,
                format!("got {} of the {len} bytes of the value", data.len()),
            );
            return Variant::nil();
        }
        self.decode(data, 0)
    }
}

/// Arrays, Dictionaries and Objects: values whose size is as costly to find as to write.
fn is_container(v: &Variant) -> bool {
    use godot::builtin::VariantType as V;
    matches!(v.get_type(), V::ARRAY | V::DICTIONARY | V::OBJECT)
}

impl FastVarCodec {
    /// The exact size first, then the bytes written into the engine array itself.
    fn encode_in_place(&self, value: &Variant) -> Result<PackedByteArray, CodecError> {
        let mut sizer = Writer::new(SizeCounter::default(), &self.opts)?;
        write_variant(&mut sizer, value)?;
        let size = sizer.into_sink().0;
        let mut out = PackedByteArray::new();
        out.resize(size);
        let mut w = Writer::new(SliceSink::new(out.as_mut_slice()), &self.opts)?;
        write_variant(&mut w, value)?;
        if w.sink().overflowed() || w.sink().written() != size {
            return Err(CodecError::encode(EncodeReason::BufferFull));
        }
        Ok(out)
    }

    pub(crate) fn options(&self) -> &Options {
        &self.opts
    }

    pub(crate) fn allow_list(&self) -> Option<&AllowList> {
        self.allow_list.as_ref()
    }

    /// The encoding of `value` as engine bytes, recording success or failure on the codec.
    pub(crate) fn encode_variant(
        &mut self,
        value: &Variant,
    ) -> Result<PackedByteArray, CodecError> {
        self.encode_to_buffer(value)
            .map(|()| PackedByteArray::from(&self.buffer[..]))
            .inspect_err(|e| {
                self.last.fail(e.clone());
            })
    }

    fn encode_to_buffer(&mut self, value: &Variant) -> Result<(), CodecError> {
        let mut buf = std::mem::take(&mut self.buffer);
        buf.clear();
        let mut w = Writer::new(buf, &self.opts)?;
        let res = write_variant(&mut w, value);
        self.buffer = w.into_sink();
        res.map(|()| {
            self.last.ok();
        })
    }
}

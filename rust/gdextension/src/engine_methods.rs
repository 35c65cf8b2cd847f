//! The engine methods called on a peer once per message, called without gdext's per-call checks.
//!
//! Before each engine method call, gdext checks the object: it names the class under a global
//! lock and looks the object up by its instance id; making a `Gd` of an argument asks the engine
//! for its class by name and counts a reference up and down. On a UDP round that was about 5%
//! of the time (`perf`: `Global::lock`, `ClassId::to_cow_str`, `RawGd::owned_cast`). A [`Peer`]
//! is instead the object pointer the engine passed for the call, its class checked by the
//! engine's class tag; the peers are RefCounted, and the caller's reference keeps them alive
//! for the call, which is what gdext's checks establish. Each method is looked up once by class,
//! name and hash (the same for every Godot 4 release from 4.4, the oldest this library loads
//! in); if the engine does not know one, the log says so once and the call goes through gdext.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::OnceLock;

use godot::classes::{Object, PacketPeer, PacketPeerUdp, RefCounted, StreamPeer, StreamPeerTcp};
use godot::global::{godot_warn, Error};
use godot::obj::{EngineEnum, GodotClass, Inherits, InstanceId};
use godot::prelude::*;
use godot::sys::{self, interface_fn, GodotFfi};

/// A RefCounted engine class that a [`Peer`] can be, found by its class tag.
pub(crate) trait PeerClass: GodotClass + Inherits<Object> + Inherits<RefCounted> {
    /// The engine's tag for the class (looked up once); `None` if it has none.
    fn tag() -> Option<*mut c_void>;
}

/// The class tag of `class`, looked up once into `cell`.
fn tag_of(cell: &OnceLock<usize>, class: &str) -> Option<*mut c_void> {
    let address = *cell.get_or_init(|| {
        let name = StringName::from(class);
        // SAFETY: `name` is a live StringName for the call; the engine answers null for a
        // class it does not have.
        unsafe { interface_fn!(classdb_get_class_tag)(name.string_sys()) as usize }
    });
    (address != 0).then_some(address as *mut c_void)
}

impl PeerClass for PacketPeer {
    fn tag() -> Option<*mut c_void> {
        static TAG: OnceLock<usize> = OnceLock::new();
        tag_of(&TAG, "PacketPeer")
    }
}

impl PeerClass for PacketPeerUdp {
    fn tag() -> Option<*mut c_void> {
        static TAG: OnceLock<usize> = OnceLock::new();
        tag_of(&TAG, "PacketPeerUDP")
    }
}

impl PeerClass for StreamPeer {
    fn tag() -> Option<*mut c_void> {
        static TAG: OnceLock<usize> = OnceLock::new();
        tag_of(&TAG, "StreamPeer")
    }
}

impl PeerClass for StreamPeerTcp {
    fn tag() -> Option<*mut c_void> {
        static TAG: OnceLock<usize> = OnceLock::new();
        tag_of(&TAG, "StreamPeerTCP")
    }
}

/// A peer argument of class `C`: the object the engine passed for the call, alive while the
/// call's arguments are (`'call`).
pub(crate) struct Peer<'call, C> {
    object: sys::GDExtensionObjectPtr,
    _call: PhantomData<&'call ()>,
    _class: PhantomData<fn() -> C>,
}

impl<'call, C: PeerClass> Peer<'call, C> {
    /// The object at `object` if it is a `C`; `None` for null or another class.
    ///
    /// # Safety
    /// `object` is null or points to a live object that the call's caller keeps alive during
    /// `'call` (an argument the engine passed, or the object of a Variant it passed).
    pub(crate) unsafe fn of(object: sys::GDExtensionObjectPtr) -> Option<Self> {
        if object.is_null() {
            return None;
        }
        let object = match C::tag() {
            // SAFETY: `object` is live (the caller's promise); the engine answers null when it
            // is not an instance of the tag's class, else the object as one.
            Some(tag) => unsafe { interface_fn!(object_cast_to)(object, tag) },
            // No tag: gdext's checked conversion decides.
            None => {
                // SAFETY: `object` is live (the caller's promise).
                let id = unsafe { interface_fn!(object_get_instance_id)(object) };
                let id = InstanceId::try_from_i64(i64::from_ne_bytes(id.to_ne_bytes()))?;
                Gd::<C>::try_from_instance_id(id).ok()?.obj_sys()
            }
        };
        (!object.is_null()).then_some(Self {
            object,
            _call: PhantomData,
            _class: PhantomData,
        })
    }

    /// The object of `gd`, alive while `gd` is.
    pub(crate) fn of_gd(gd: &'call Gd<C>) -> Self {
        Self {
            object: gd.obj_sys(),
            _call: PhantomData,
            _class: PhantomData,
        }
    }

    /// The peer as a `D` (a PacketPeerUDP, say), if it is one.
    pub(crate) fn as_a<D: PeerClass>(&self) -> Option<Peer<'call, D>> {
        // SAFETY: the object is alive for `'call`.
        unsafe { Peer::<D>::of(self.object) }
    }

    /// Whether the peer is also a `D`.
    pub(crate) fn is_a<D: PeerClass>(&self) -> bool {
        self.as_a::<D>().is_some()
    }

    /// The peer as a `Gd` (checked, and counted as a reference): for the calls made through
    /// gdext.
    pub(crate) fn gd(&self) -> Option<Gd<C>> {
        // SAFETY: the object is alive for `'call`.
        let id = unsafe { interface_fn!(object_get_instance_id)(self.object) };
        let id = InstanceId::try_from_i64(i64::from_ne_bytes(id.to_ne_bytes()))?;
        Gd::try_from_instance_id(id).ok()
    }
}

/// An engine method found by class, name and hash on first use.
struct EngineMethod {
    class: &'static str,
    name: &'static str,
    hash: i64,
    /// The method bind's address; 0 when the engine does not have the method.
    bind: OnceLock<usize>,
}

impl EngineMethod {
    const fn new(class: &'static str, name: &'static str, hash: i64) -> Self {
        Self {
            class,
            name,
            hash,
            bind: OnceLock::new(),
        }
    }

    fn bind(&self) -> Option<sys::GDExtensionMethodBindPtr> {
        let address = *self.bind.get_or_init(|| {
            let class = StringName::from(self.class);
            let name = StringName::from(self.name);
            // SAFETY: both names are live StringNames for the call; the engine answers null for
            // a method it does not have (or whose hash differs).
            let bind = unsafe {
                interface_fn!(classdb_get_method_bind)(
                    class.string_sys(),
                    name.string_sys(),
                    self.hash,
                )
            };
            if bind.is_null() {
                godot_warn!(
                    "FastVarCodec: the engine has no {}.{} of the expected signature; it is \
                     called through gdext (slower, and correct)",
                    self.class,
                    self.name
                );
            }
            bind as usize
        });
        (address != 0).then_some(address as sys::GDExtensionMethodBindPtr)
    }
}

// Hashes from the engine's extension API description, equal in 4.4 to 4.6.
static PUT_PACKET: EngineMethod = EngineMethod::new("PacketPeer", "put_packet", 680677267);
static GET_PACKET: EngineMethod = EngineMethod::new("PacketPeer", "get_packet", 2115431945);
static GET_PACKET_ERROR: EngineMethod =
    EngineMethod::new("PacketPeer", "get_packet_error", 3185525595);
static GET_AVAILABLE_PACKET_COUNT: EngineMethod =
    EngineMethod::new("PacketPeer", "get_available_packet_count", 3905245786);
static PUT_DATA: EngineMethod = EngineMethod::new("StreamPeer", "put_data", 680677267);
static IS_BIG_ENDIAN_ENABLED: EngineMethod =
    EngineMethod::new("StreamPeer", "is_big_endian_enabled", 36873697);
static GET_AVAILABLE_BYTES: EngineMethod =
    EngineMethod::new("StreamPeer", "get_available_bytes", 3905245786);
static GET_PARTIAL_DATA: EngineMethod =
    EngineMethod::new("StreamPeer", "get_partial_data", 1171824711);
// StreamPeerTCP's up to 4.5; from 4.6 its base StreamPeerSocket's, under this hash as well.
static TCP_GET_STATUS: EngineMethod = EngineMethod::new("StreamPeerTCP", "get_status", 859471121);

/// Calls `bind` on `object` with `args`, the result written to `ret`.
///
/// # Safety
/// `bind` is a method of a class that `object` is an instance of, and `object` stays alive
/// during the call; `args` point to live values of the method's parameter types, in order, and
/// `ret` to a constructed value of its return type (the engine assigns to it).
unsafe fn ptrcall(
    bind: sys::GDExtensionMethodBindPtr,
    object: sys::GDExtensionObjectPtr,
    args: &[sys::GDExtensionConstTypePtr],
    ret: *mut c_void,
) {
    // SAFETY: as the caller promises.
    unsafe { interface_fn!(object_method_bind_ptrcall)(bind, object, args.as_ptr(), ret.cast()) }
}

/// An `Error` as the engine returns an enum through a ptrcall (an int64).
fn error_of(ord: i64) -> Error {
    i32::try_from(ord)
        .ok()
        .and_then(Error::try_from_ord)
        .unwrap_or(Error::FAILED)
}

/// An int64 result (an enum or an int, as the engine passes both) of `method` called on `peer`
/// with `args`; `None` if the engine does not have the method.
///
/// # Safety
/// `method`'s class is `C` or a base class of it; `args` point to live values of its parameter
/// types, in order; it returns an enum or an int.
unsafe fn int_call<C: PeerClass>(
    method: &EngineMethod,
    peer: &Peer<'_, C>,
    args: &[sys::GDExtensionConstTypePtr],
) -> Option<i64> {
    let bind = method.bind()?;
    let mut ret: i64 = 0;
    // SAFETY: `bind` is the method found by its hash, of a class `peer` is (the caller's
    // promise), on a peer alive for the call; `args` as the caller promises; `ret` is an int64.
    unsafe { ptrcall(bind, peer.object, args, (&mut ret as *mut i64).cast()) };
    Some(ret)
}

/// `peer.put_packet(bytes)`.
pub(crate) fn put_packet(peer: &Peer<'_, PacketPeer>, bytes: &PackedByteArray) -> Error {
    // SAFETY: PacketPeer's `put_packet(PackedByteArray) -> Error`, `bytes` live.
    match unsafe { int_call(&PUT_PACKET, peer, &[bytes.sys()]) } {
        Some(ret) => error_of(ret),
        None => peer.gd().map_or(Error::FAILED, |mut p| p.put_packet(bytes)),
    }
}

/// `peer.get_packet()`.
pub(crate) fn get_packet(peer: &Peer<'_, PacketPeer>) -> PackedByteArray {
    let Some(bind) = GET_PACKET.bind() else {
        return peer.gd().map(|mut p| p.get_packet()).unwrap_or_default();
    };
    let mut packet = PackedByteArray::new();
    // SAFETY: `bind` is PacketPeer's `get_packet() -> PackedByteArray`, found by its hash, on a
    // PacketPeer alive for the call; `packet` is a constructed PackedByteArray.
    unsafe { ptrcall(bind, peer.object, &[], packet.sys_mut().cast()) };
    packet
}

/// `peer.get_packet_error()`.
pub(crate) fn get_packet_error(peer: &Peer<'_, PacketPeer>) -> Error {
    // SAFETY: PacketPeer's `get_packet_error() -> Error`, no arguments.
    match unsafe { int_call(&GET_PACKET_ERROR, peer, &[]) } {
        Some(ret) => error_of(ret),
        None => peer.gd().map_or(Error::FAILED, |p| p.get_packet_error()),
    }
}

/// `peer.get_available_packet_count()`.
pub(crate) fn get_available_packet_count(peer: &Peer<'_, PacketPeer>) -> i64 {
    // SAFETY: PacketPeer's `get_available_packet_count() -> int`, no arguments.
    match unsafe { int_call(&GET_AVAILABLE_PACKET_COUNT, peer, &[]) } {
        Some(count) => count,
        None => peer
            .gd()
            .map_or(0, |p| i64::from(p.get_available_packet_count())),
    }
}

/// `peer.put_data(bytes)`.
pub(crate) fn put_data(peer: &Peer<'_, StreamPeer>, bytes: &PackedByteArray) -> Error {
    // SAFETY: StreamPeer's `put_data(PackedByteArray) -> Error`, `bytes` live.
    match unsafe { int_call(&PUT_DATA, peer, &[bytes.sys()]) } {
        Some(ret) => error_of(ret),
        None => peer.gd().map_or(Error::FAILED, |mut p| p.put_data(bytes)),
    }
}

/// `peer.is_big_endian_enabled()`.
pub(crate) fn is_big_endian_enabled(peer: &Peer<'_, StreamPeer>) -> bool {
    let Some(bind) = IS_BIG_ENDIAN_ENABLED.bind() else {
        return peer.gd().is_some_and(|p| p.is_big_endian_enabled());
    };
    let mut ret: u8 = 0;
    // SAFETY: `bind` is StreamPeer's `is_big_endian_enabled() -> bool`, found by its hash, on a
    // StreamPeer alive for the call; `ret` is a one-byte bool, as the engine passes one.
    unsafe { ptrcall(bind, peer.object, &[], (&mut ret as *mut u8).cast()) };
    ret != 0
}

/// `peer.get_available_bytes()`.
pub(crate) fn get_available_bytes(peer: &Peer<'_, StreamPeer>) -> i64 {
    // SAFETY: StreamPeer's `get_available_bytes() -> int`, no arguments.
    match unsafe { int_call(&GET_AVAILABLE_BYTES, peer, &[]) } {
        Some(count) => count,
        None => peer.gd().map_or(0, |p| i64::from(p.get_available_bytes())),
    }
}

/// `peer.get_partial_data(count)`: `[error, PackedByteArray]`.
pub(crate) fn get_partial_data(peer: &Peer<'_, StreamPeer>, count: i64) -> VarArray {
    let Some(bind) = GET_PARTIAL_DATA.bind() else {
        let count = i32::try_from(count).unwrap_or(i32::MAX);
        return peer
            .gd()
            .map(|mut p| p.get_partial_data(count))
            .unwrap_or_default();
    };
    let mut reply = VarArray::new();
    let args = [(&count as *const i64).cast()];
    // SAFETY: `bind` is StreamPeer's `get_partial_data(int) -> Array`, found by its hash, on a
    // StreamPeer alive for the call; the argument is an int64 (as the engine passes an int) and
    // `reply` a constructed Array.
    unsafe { ptrcall(bind, peer.object, &args, reply.sys_mut().cast()) };
    reply
}

/// `peer.get_status()` of a StreamPeerTCP, as its int value.
pub(crate) fn tcp_status(peer: &Peer<'_, StreamPeerTcp>) -> i64 {
    // SAFETY: StreamPeerTCP's `get_status() -> Status` (an enum), no arguments.
    match unsafe { int_call(&TCP_GET_STATUS, peer, &[]) } {
        Some(status) => status,
        None => peer.gd().map_or(0, |p| i64::from(p.get_status().ord())),
    }
}

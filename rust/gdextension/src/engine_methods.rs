//! The engine methods called on a peer once per message, called without gdext's per-call checks.
//!
//! Before each engine method call, gdext checks the object: it names the class under a global
//! lock and looks the object up by its instance id; making a `Gd` of an argument asks the engine
//! for its class by name. On a UDP round that was about 5% of the time (`perf`: `Global::lock`,
//! `ClassId::to_cow_str`, `RawGd::owned_cast`). A [`Peer`] is instead the object pointer the
//! engine passed for the call, its class checked by the engine's class tag, with a reference of
//! its own for as long as it lives (the caller's argument may be overwritten during the call, by
//! a script peer say, and the peers are RefCounted). Each method is looked up once by class, name
//! and hash (those of Godot 4.4, which later releases keep, StreamPeerTCP's `get_status` as a
//! compatibility method from 4.6); if the engine does not know one, the log says so once and the
//! call goes through gdext.

use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::OnceLock;

use godot::classes::{Object, PacketPeer, PacketPeerUdp, RefCounted, StreamPeer, StreamPeerTcp};
use godot::global::Error;
use godot::obj::{EngineEnum, GodotClass, Inherits, InstanceId};
use godot::prelude::*;
use godot::sys::{self, interface_fn, GodotFfi};

use crate::call_state::error_from_ord;

/// A RefCounted engine class that a [`Peer`] can be, found by its class tag.
pub(crate) trait PeerClass: GodotClass + Inherits<Object> + Inherits<RefCounted> {
    /// Where the class's tag is kept once looked up.
    fn tag_cell() -> &'static OnceLock<usize>;

    /// The engine's tag for the class (looked up once); `None` if it has none.
    fn tag() -> Option<*mut c_void> {
        let address = *Self::tag_cell().get_or_init(|| {
            let name = StringName::from(&Self::class_id().to_string());
            // SAFETY: `name` is a live StringName for the call; the engine answers null for a
            // class it does not have.
            unsafe { interface_fn!(classdb_get_class_tag)(name.string_sys()) as usize }
        });
        (address != 0).then_some(address as *mut c_void)
    }
}

macro_rules! peer_classes {
    ($($class:ty),*) => {$(
        impl PeerClass for $class {
            fn tag_cell() -> &'static OnceLock<usize> {
                static TAG: OnceLock<usize> = OnceLock::new();
                &TAG
            }
        }
    )*};
}
peer_classes!(PacketPeer, PacketPeerUdp, StreamPeer, StreamPeerTcp);

/// How a [`Peer`] keeps its object alive.
enum Hold<C: PeerClass> {
    /// A reference counted up through `RefCounted.reference` and down on drop.
    Counted,
    /// A `Gd`: gdext's, from a Variant argument or when the engine has no class tag or no
    /// `reference` to call directly.
    Gd(Gd<C>),
    /// Nothing of its own: what it borrows (the caller's `Gd`, or the peer it was cast from)
    /// outlives it.
    Borrowed,
}

/// A peer argument of class `C`, alive while this lives: the object the engine passed for the
/// call (`'call`), with a reference of its own.
pub(crate) struct Peer<'call, C: PeerClass> {
    object: sys::GDExtensionObjectPtr,
    hold: Hold<C>,
    _call: PhantomData<&'call ()>,
}

/// The `Gd` of the live object at `object`, looked up by instance id and class-checked by gdext
/// (which counts a reference).
///
/// # Safety
/// `object` points to a live object.
unsafe fn gd_of<C: PeerClass>(object: sys::GDExtensionObjectPtr) -> Option<Gd<C>> {
    // SAFETY: `object` is live (the caller's promise).
    let id = unsafe { interface_fn!(object_get_instance_id)(object) };
    let id = InstanceId::try_from_i64(i64::from_ne_bytes(id.to_ne_bytes()))?;
    Gd::try_from_instance_id(id).ok()
}

impl<'call, C: PeerClass> Peer<'call, C> {
    /// The object at `object` if it is a `C`, with a reference of its own; `None` for null or
    /// another class.
    ///
    /// # Safety
    /// `object` is null or points to a live object (an argument the engine passed for the call,
    /// or the object of a Variant it passed).
    pub(crate) unsafe fn of(object: sys::GDExtensionObjectPtr) -> Option<Self> {
        // SAFETY: as the caller promises.
        let peer = unsafe { Self::unheld(object) }?;
        if !matches!(peer.hold, Hold::Borrowed) {
            return Some(peer);
        }
        // SAFETY: a live RefCounted (`PeerClass`), checked by `unheld`. Counted only when the
        // reference can be given back too.
        if UNREFERENCE.bind().is_some()
            && unsafe { bool_call(&REFERENCE, peer.object) } == Some(true)
        {
            return Some(Self {
                object: peer.object,
                hold: Hold::Counted,
                _call: PhantomData,
            });
        }
        // SAFETY: as above.
        let gd = unsafe { gd_of::<C>(peer.object) }?;
        Some(Self::holding(gd))
    }

    /// As [`Peer::of`], without a reference of its own (`Hold::Borrowed`) when the class tag
    /// decides; without a tag, gdext's checked conversion does, and its `Gd` holds the object.
    ///
    /// # Safety
    /// `object` is null or points to a live object, which something else keeps alive for
    /// `'call` when the result is `Hold::Borrowed`.
    unsafe fn unheld(object: sys::GDExtensionObjectPtr) -> Option<Self> {
        if object.is_null() {
            return None;
        }
        let Some(tag) = C::tag() else {
            // SAFETY: `object` is live (the caller's promise).
            let gd = unsafe { gd_of::<C>(object) }?;
            return Some(Self::holding(gd));
        };
        // SAFETY: `object` is live (the caller's promise); the engine answers null when it is
        // not an instance of the tag's class, else the same pointer.
        let object = unsafe { interface_fn!(object_cast_to)(object, tag) };
        (!object.is_null()).then_some(Self {
            object,
            hold: Hold::Borrowed,
            _call: PhantomData,
        })
    }

    /// The object of `gd`, which the peer holds.
    pub(crate) fn holding(gd: Gd<C>) -> Self {
        Self {
            object: gd.obj_sys(),
            hold: Hold::Gd(gd),
            _call: PhantomData,
        }
    }

    /// The object of `gd`, alive while `gd` is.
    pub(crate) fn of_gd(gd: &'call Gd<C>) -> Self {
        Self {
            object: gd.obj_sys(),
            hold: Hold::Borrowed,
            _call: PhantomData,
        }
    }

    /// The peer as a `D` (a PacketPeerUDP, say), if it is one, alive while `self` is.
    pub(crate) fn as_a<D: PeerClass>(&self) -> Option<Peer<'_, D>> {
        // SAFETY: the object is alive while `self` is, which the result borrows.
        unsafe { Peer::<D>::unheld(self.object) }
    }

    /// Whether the peer is also a `D`.
    pub(crate) fn is_a<D: PeerClass>(&self) -> bool {
        self.as_a::<D>().is_some()
    }

    /// The peer as a `Gd` (checked, and counted as a reference): for the calls made through
    /// gdext.
    pub(crate) fn gd(&self) -> Option<Gd<C>> {
        match &self.hold {
            Hold::Gd(gd) => Some(gd.clone()),
            // SAFETY: the object is alive while `self` is.
            _ => unsafe { gd_of(self.object) },
        }
    }
}

impl<C: PeerClass> Drop for Peer<'_, C> {
    fn drop(&mut self) {
        if !matches!(self.hold, Hold::Counted) {
            return;
        }
        // SAFETY: a live RefCounted, of which this peer holds a reference (taken in `of`).
        let last = unsafe { bool_call(&UNREFERENCE, self.object) };
        if last == Some(true) {
            // SAFETY: the last reference was this peer's, so nothing else refers to the object;
            // the engine frees it as its own last `Ref` would.
            unsafe { interface_fn!(object_destroy)(self.object) };
        }
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
                crate::call_state::log_warning(
                    "FastVarCodec",
                    &format!(
                        "FastVarCodec: the engine has no {}.{} of the expected signature; it \
                         is called through gdext",
                        self.class, self.name
                    ),
                );
            }
            bind as usize
        });
        (address != 0).then_some(address as sys::GDExtensionMethodBindPtr)
    }
}

// Hashes from the engine's extension API description of Godot 4.4, the same in 4.5 to 4.7.
static REFERENCE: EngineMethod = EngineMethod::new("RefCounted", "reference", 2240911060);
static UNREFERENCE: EngineMethod = EngineMethod::new("RefCounted", "unreference", 2240911060);
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

/// The bool result of `method`, which takes no arguments, called on `object`; `None` if the
/// engine does not have the method.
///
/// # Safety
/// `object` points to a live instance of `method`'s class (for `unreference`, a RefCounted the
/// caller holds a reference of), and `method` returns a bool.
unsafe fn bool_call(method: &EngineMethod, object: sys::GDExtensionObjectPtr) -> Option<bool> {
    let bind = method.bind()?;
    let mut ret: u8 = 0;
    // SAFETY: `bind` is the method found by its hash, on a live instance of its class (the
    // caller's promise); `ret` is a one-byte bool, as the engine passes one.
    unsafe { ptrcall(bind, object, &[], (&mut ret as *mut u8).cast()) };
    Some(ret != 0)
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
        Some(ret) => error_from_ord(ret),
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
        Some(ret) => error_from_ord(ret),
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
        Some(ret) => error_from_ord(ret),
        None => peer.gd().map_or(Error::FAILED, |mut p| p.put_data(bytes)),
    }
}

/// `peer.is_big_endian_enabled()`.
pub(crate) fn is_big_endian_enabled(peer: &Peer<'_, StreamPeer>) -> bool {
    // SAFETY: StreamPeer's `is_big_endian_enabled() -> bool`, on a StreamPeer alive while `peer`
    // is.
    match unsafe { bool_call(&IS_BIG_ENDIAN_ENABLED, peer.object) } {
        Some(big_endian) => big_endian,
        None => peer.gd().is_some_and(|p| p.is_big_endian_enabled()),
    }
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

/// A `get_data` or `get_partial_data` reply, `[error, data]`, read: its error (OK when the
/// reply holds none, FAILED for an ordinal the engine does not know) and its bytes (empty when
/// it holds none).
pub(crate) fn data_reply(reply: &VarArray) -> (Error, PackedByteArray) {
    let err = reply
        .get(0)
        .and_then(|e| e.try_to::<i64>().ok())
        .unwrap_or(0);
    let data = reply
        .get(1)
        .and_then(|d| d.try_to::<PackedByteArray>().ok())
        .unwrap_or_default();
    (error_from_ord(err), data)
}

/// `peer.get_status()` of a StreamPeerTCP, as its int value.
pub(crate) fn tcp_status(peer: &Peer<'_, StreamPeerTcp>) -> i64 {
    // SAFETY: StreamPeerTCP's `get_status() -> Status` (an enum), no arguments.
    match unsafe { int_call(&TCP_GET_STATUS, peer, &[]) } {
        Some(status) => status,
        None => peer.gd().map_or(0, |p| i64::from(p.get_status().ord())),
    }
}

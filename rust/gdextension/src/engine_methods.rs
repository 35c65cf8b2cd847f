//! The engine methods called on a peer once per message, called without gdext's per-call check.
//!
//! Before each engine method call, gdext checks the object: it names the class under a global
//! lock and looks the object up by its instance id. On a UDP round that was about 3% of the
//! time (`perf`: `Global::lock`, `ClassId::to_cow_str`). The peers here are `Gd`s of RefCounted
//! classes, held for the whole call (so alive) and made by a checked cast (so of the class), which
//! is what the check establishes; these calls skip it. Each method is looked up once by class,
//! name and hash (the same for every Godot 4 release from 4.4, the oldest this library loads
//! in); if the engine does not know it, the log says so once and the call goes through gdext.

use std::ffi::c_void;
use std::sync::OnceLock;

use godot::classes::{PacketPeer, StreamPeer};
use godot::global::{godot_warn, Error};
use godot::obj::EngineEnum;
use godot::prelude::*;
use godot::sys::{self, interface_fn, GodotFfi};

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
static PUT_DATA: EngineMethod = EngineMethod::new("StreamPeer", "put_data", 680677267);

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

/// `peer.put_packet(bytes)`.
pub(crate) fn put_packet(peer: &mut Gd<PacketPeer>, bytes: &PackedByteArray) -> Error {
    let Some(bind) = PUT_PACKET.bind() else {
        return peer.put_packet(bytes);
    };
    let mut ret: i64 = 0;
    // SAFETY: `bind` is PacketPeer's `put_packet(PackedByteArray) -> Error`, found by its hash;
    // `peer` is a PacketPeer, held (a RefCounted) for the call; `bytes` is live and `ret` an
    // int64, as the engine passes an enum.
    unsafe {
        ptrcall(
            bind,
            peer.obj_sys(),
            &[bytes.sys()],
            (&mut ret as *mut i64).cast(),
        )
    };
    error_of(ret)
}

/// `peer.get_packet()`.
pub(crate) fn get_packet(peer: &mut Gd<PacketPeer>) -> PackedByteArray {
    let Some(bind) = GET_PACKET.bind() else {
        return peer.get_packet();
    };
    let mut packet = PackedByteArray::new();
    // SAFETY: `bind` is PacketPeer's `get_packet() -> PackedByteArray`, found by its hash; `peer`
    // is a PacketPeer, held for the call; `packet` is a constructed PackedByteArray.
    unsafe { ptrcall(bind, peer.obj_sys(), &[], packet.sys_mut().cast()) };
    packet
}

/// `peer.get_packet_error()`.
pub(crate) fn get_packet_error(peer: &Gd<PacketPeer>) -> Error {
    let Some(bind) = GET_PACKET_ERROR.bind() else {
        return peer.get_packet_error();
    };
    let mut ret: i64 = 0;
    // SAFETY: `bind` is PacketPeer's `get_packet_error() -> Error`, found by its hash; `peer` is
    // a PacketPeer, held for the call; `ret` an int64, as the engine passes an enum.
    unsafe { ptrcall(bind, peer.obj_sys(), &[], (&mut ret as *mut i64).cast()) };
    error_of(ret)
}

/// `peer.put_data(bytes)`.
pub(crate) fn put_data(peer: &mut Gd<StreamPeer>, bytes: &PackedByteArray) -> Error {
    let Some(bind) = PUT_DATA.bind() else {
        return peer.put_data(bytes);
    };
    let mut ret: i64 = 0;
    // SAFETY: `bind` is StreamPeer's `put_data(PackedByteArray) -> Error`, found by its hash;
    // `peer` is a StreamPeer, held (a RefCounted) for the call; `bytes` is live and `ret` an
    // int64, as the engine passes an enum.
    unsafe {
        ptrcall(
            bind,
            peer.obj_sys(),
            &[bytes.sys()],
            (&mut ret as *mut i64).cast(),
        )
    };
    error_of(ret)
}

//! The engine's entry points for the per-value methods: its ptrcall and varcall conventions,
//! the arguments they carry, and the codec the call is for.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use godot::builtin::{GString, PackedByteArray, Variant, VariantType};
use godot::global::Error;
use godot::meta::ToGodot;
use godot::obj::EngineEnum;
use godot::obj::{Gd, GodotClass};
use godot::sys::{self, GodotFfi, PtrcallType};

use super::{CodecBody, Method, Param, ParamKind, ReturnKind, StreamBody};
use crate::call_state::CallState;
use crate::codec::FastVarCodec;
use crate::codec_registry::{with_codec, with_stream};
use crate::engine_bytes::ByteSource;
use crate::engine_methods::{Peer, PeerClass};
use crate::fast_access::{packed_bytes, packed_bytes_at, type_of, Typed};
use crate::peer_io::no_peer;
use crate::stream_class::FastVarStream;
use fast_var_codec_core::value::VariantType as T;

/// A call's arguments, as the engine passed them, with the parameters the method was registered
/// with: each reader checks the kind it reads against them.
pub(crate) struct Args<'a> {
    given: Given<'a>,
    params: &'static [Param],
}

enum Given<'a> {
    /// Ptrcall: one pointer per parameter, to a value of exactly the registered type.
    Ptr(*const sys::GDExtensionConstTypePtr),
    /// Varcall: the Variants given (counted and checked in [`varcall`]); parameters left out
    /// take their defaults.
    Var(&'a [&'a Variant]),
}

impl<'a> Args<'a> {
    /// The arguments of a ptrcall.
    ///
    /// # Safety
    /// `ptrs` must be the argument array the engine passes to a ptrcall of a method registered
    /// with `params`: one pointer per parameter, each to a live value of the registered type
    /// (a Variant, a PackedByteArray, an int64_t), valid for `'a`.
    unsafe fn ptrcall(ptrs: *const sys::GDExtensionConstTypePtr, params: &'static [Param]) -> Self {
        Args {
            given: Given::Ptr(ptrs),
            params,
        }
    }

    /// The arguments of a varcall, already counted and type-checked against `params`.
    fn varcall(given: &'a [&'a Variant], params: &'static [Param]) -> Self {
        Args {
            given: Given::Var(given),
            params,
        }
    }

    /// The pointer to argument `i` of a ptrcall, when parameter `i` is registered as `kind`.
    fn ptr(&self, i: usize, kind: fn(&ParamKind) -> bool) -> Option<sys::GDExtensionConstTypePtr> {
        let Given::Ptr(ptrs) = self.given else {
            return None;
        };
        if !kind(&self.params.get(i)?.kind) {
            return None;
        }
        // SAFETY: `i` is one of the method's parameters (checked above), and `ptrs` holds one
        // pointer per parameter (`Args::ptrcall`'s contract).
        Some(unsafe { *ptrs.add(i) })
    }

    pub(crate) fn variant(&self, i: usize) -> Option<&Variant> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Variant))?;
                // SAFETY: parameter `i` is registered as a Variant (NIL with NIL_IS_VARIANT), so
                // the engine passed a pointer to a live Variant that outlives the call
                // (`Args::ptrcall`); gdext's `Variant` is `#[repr(transparent)]` over the engine's.
                Some(unsafe { &*p.cast::<Variant>() })
            }
            Given::Var(given) => given.get(i).copied(),
        }
    }

    /// A PackedByteArray argument: borrowed in place, or (from a Variant of another type the
    /// engine converts, e.g. an Array of ints) converted into `converted`.
    pub(crate) fn bytes<'s>(
        &'s self,
        i: usize,
        converted: &'s mut Option<PackedByteArray>,
    ) -> Option<&'s [u8]> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Bytes))?;
                // SAFETY: parameter `i` is registered as a PACKED_BYTE_ARRAY, so `p` points to
                // the engine's PackedByteArray, live for the call (`Args::ptrcall`); the caller's
                // copy of it is not written during the call (a write elsewhere copies the
                // storage first).
                unsafe { packed_bytes_at(p) }
            }
            Given::Var(given) => {
                let v = given.get(i)?;
                if let Some(bytes) = Typed::of(v).and_then(packed_bytes) {
                    return Some(bytes);
                }
                Some(converted.insert(v.try_to_relaxed().ok()?).as_slice())
            }
        }
    }

    /// Where the PackedByteArray argument `i` lives, for [`ByteSource::copy_of`] (looked at
    /// only when a decode meets a large byte array).
    pub(crate) fn byte_source(&self, i: usize) -> Option<ByteSource<'_>> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Bytes))?;
                // SAFETY: as in `Args::bytes`: the engine's PackedByteArray, live for the call
                // and not written during it.
                Some(unsafe { ByteSource::argument(p) })
            }
            Given::Var(given) => given.get(i).map(|v| ByteSource::Variant(v)),
        }
    }

    /// The peer argument `i` (of class `C`); when it is null or of another class, the failure
    /// (`ERR_INVALID_PARAMETER`, naming `C`) is reported through `calls` and returned.
    pub(crate) fn peer<C: PeerClass>(
        &self,
        i: usize,
        calls: &CallState,
    ) -> Result<Peer<'a, C>, Error> {
        self.object::<C>(i)
            .ok_or_else(|| no_peer(calls, &C::class_id().to_string()))
    }

    /// As [`Args::peer`], as a `Gd` (for peers whose calls go through gdext).
    pub(crate) fn peer_gd<C: PeerClass>(
        &self,
        i: usize,
        calls: &CallState,
    ) -> Result<Gd<C>, Error> {
        self.object::<C>(i)
            .and_then(|peer| peer.gd())
            .ok_or_else(|| no_peer(calls, &C::class_id().to_string()))
    }

    /// An object argument of class `C`; `None` when it is null or of another class.
    fn object<C: PeerClass>(&self, i: usize) -> Option<Peer<'a, C>> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Object(_)))?;
                // SAFETY: parameter `i` is registered as an OBJECT, so `p` points to the
                // engine's object pointer (null for null), live for the call (`Args::ptrcall`).
                let object = unsafe { *p.cast::<sys::GDExtensionObjectPtr>() };
                // SAFETY: null, or the live object the engine passed for the call.
                unsafe { Peer::of(object) }
            }
            // gdext's conversion checks the class; the peer holds the `Gd` it makes.
            Given::Var(given) => Some(Peer::holding(given.get(i)?.try_to::<Gd<C>>().ok()?)),
        }
    }

    pub(crate) fn int(&self, i: usize) -> Option<i64> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Int(_)))?;
                // SAFETY: parameter `i` is registered as an INT (int64 metadata), so `p` points
                // to an int64_t (`Args::ptrcall`).
                Some(unsafe { *p.cast::<i64>() })
            }
            Given::Var(given) => match given.get(i) {
                Some(v) => Typed::of(v)
                    .and_then(|t| t.payload::<i64>().copied())
                    .or_else(|| v.try_to_relaxed().ok()),
                None => match self.params.get(i)?.kind {
                    ParamKind::Int(default) => default,
                    _ => None,
                },
            },
        }
    }
}

/// Where a method's result goes: the engine's return slot, written where the result is made.
///
/// Returned as a value instead, a freshly built Variant travelled back through every layer of
/// the call (the method, the codec lookup, the panic guard), and each move read it in pieces
/// other than those it had just been written in, which stalls the processor: about a third of
/// a `decode(1)` call's time in `perf` (Godot 4.6.3, release addon).
///
/// Two words, so that it is passed in registers: in memory, it was one more read of something
/// just written in other pieces.
pub(crate) struct Out {
    ret: *mut c_void,
    slot: Slot,
}

/// What the return slot holds.
#[derive(Clone, Copy)]
enum Slot {
    /// A Variant (varcall).
    Variant,
    /// A value of the method's registered return type (ptrcall).
    Typed(ReturnKind),
}

/// Proof that a method wrote its result (only [`Out`] makes one).
pub(crate) struct Written(());

impl Out {
    /// # Safety
    /// `ret` must point to the engine's return slot of this call, valid until the call
    /// returns, holding what `slot` says: an initialized Variant, or an initialized value of
    /// the type the kind names (an int for [`ReturnKind::Error`]).
    unsafe fn new(ret: *mut c_void, slot: Slot) -> Self {
        Out { ret, slot }
    }

    /// Writes `v` as a Variant (varcall); false when the method returns by pointer.
    fn as_variant(&self, v: impl FnOnce() -> Variant) -> bool {
        let by_variant = matches!(self.slot, Slot::Variant);
        if by_variant {
            // SAFETY: `new`'s promise: `ret` is the call's initialized Variant slot, which
            // `move_return_ptr` replaces (dropping what it held).
            unsafe { v().move_return_ptr(self.ret.cast(), PtrcallType::Standard) };
        }
        by_variant
    }

    /// Whether the slot holds a `kind`, or is a Variant. When not, the method's table entry
    /// declares another kind of result than it writes: a bug in the table, logged, and nothing
    /// is written (the engine's slot keeps its default value).
    fn holds(&self, kind: ReturnKind) -> bool {
        let ok = match self.slot {
            Slot::Variant => true,
            Slot::Typed(declared) => declared == kind,
        };
        if !ok {
            crate::call_state::log_error(
                "FastVarCodec",
                "FastVarCodec: a method returned a result of another kind than registered",
            );
        }
        ok
    }

    pub(crate) fn variant(self, v: Variant) -> Written {
        if !self.holds(ReturnKind::Variant) {
            return Written(());
        }
        // SAFETY: `new`'s promise, and the kind is Variant (checked above) or the slot is a
        // Variant (varcall): an initialized Variant slot, which `move_return_ptr` replaces.
        unsafe { v.move_return_ptr(self.ret.cast(), PtrcallType::Standard) };
        Written(())
    }

    pub(crate) fn bytes(self, b: PackedByteArray) -> Written {
        if !self.as_variant(|| b.to_variant()) && self.holds(ReturnKind::Bytes) {
            // SAFETY: `new`'s promise and the kind checked above: an initialized
            // PackedByteArray slot, which `move_return_ptr` replaces.
            unsafe { b.move_return_ptr(self.ret.cast(), PtrcallType::Standard) };
        }
        Written(())
    }

    pub(crate) fn string(self, s: GString) -> Written {
        if !self.as_variant(|| s.to_variant()) && self.holds(ReturnKind::String) {
            // SAFETY: `new`'s promise and the kind checked above: an initialized String slot,
            // which `move_return_ptr` replaces.
            unsafe { s.move_return_ptr(self.ret.cast(), PtrcallType::Standard) };
        }
        Written(())
    }

    pub(crate) fn int(self, n: i64) -> Written {
        if !self.as_variant(|| n.to_variant()) && self.holds(ReturnKind::Int) {
            // SAFETY: `new`'s promise and the kind checked above: an int slot.
            unsafe { *self.ret.cast::<i64>() = n };
        }
        Written(())
    }

    pub(crate) fn error(self, e: Error) -> Written {
        if !self.as_variant(|| e.to_variant()) && self.holds(ReturnKind::Error) {
            // SAFETY: `new`'s promise and the kind checked above: an enum passes as an int.
            unsafe { *self.ret.cast::<i64>() = e.ord() as i64 };
        }
        Written(())
    }
}

/// A method body, with how a call reaches the state it runs on.
pub(super) trait Body: Copy + Sync + 'static {
    /// The class, for messages.
    const CLASS: &'static str;

    /// Runs the body for the object at `instance`.
    ///
    /// # Safety
    /// `instance` must be the instance pointer the engine passes to a method of a live object of
    /// the class the body is registered on.
    unsafe fn run(
        self,
        instance: sys::GDExtensionClassInstancePtr,
        args: &Args<'_>,
        out: Out,
    ) -> Option<Written>;
}

impl Body for CodecBody {
    const CLASS: &'static str = "FastVarCodec";

    unsafe fn run(
        self,
        instance: sys::GDExtensionClassInstancePtr,
        args: &Args<'_>,
        out: Out,
    ) -> Option<Written> {
        // SAFETY: the caller's promise.
        let find = || unsafe { bound_state(instance, FastVarCodec::state) };
        with_codec(instance as usize, find, |state, opts| {
            self(state, opts, args, out)
        })
    }
}

impl Body for StreamBody {
    const CLASS: &'static str = "FastVarStream";

    unsafe fn run(
        self,
        instance: sys::GDExtensionClassInstancePtr,
        args: &Args<'_>,
        out: Out,
    ) -> Option<Written> {
        // SAFETY: the caller's promise.
        let find = || unsafe { bound_state(instance, FastVarStream::shared) };
        with_stream(instance as usize, find, |state| self(state, args, out))
    }
}

/// The shared state of the object at `instance`, found through one ordinary (blocking) bind: a
/// direct call does this on its object's first call, and finds it in `crate::codec_registry`
/// from then on.
///
/// # Safety
/// `instance` must be the instance pointer the engine passes to a method of a live `C`.
unsafe fn bound_state<C, S>(
    instance: sys::GDExtensionClassInstancePtr,
    state: fn(&C) -> &Arc<S>,
) -> Arc<S>
where
    C: GodotClass + godot::obj::Bounds<Declarer = godot::obj::bounds::DeclUser>,
{
    // SAFETY: the caller's promise; gdext registered `C` with this storage type.
    let storage = unsafe { godot::private::as_storage::<C>(instance) };
    state(&godot::private::Storage::get(storage)).clone()
}

/// Runs `method` on the object at `instance`; a panic or a missing argument (neither expected:
/// the methods report errors through their call state) is logged and gives `None`, and never
/// unwinds into the engine.
///
/// # Safety
/// As [`Body::run`].
unsafe fn run<B: Body>(
    method: &Method<B>,
    instance: sys::GDExtensionClassInstancePtr,
    args: &Args<'_>,
    out: Out,
) -> Option<Written> {
    // SAFETY: the caller's promise.
    let res = catch_unwind(AssertUnwindSafe(|| unsafe {
        method.run.run(instance, args, out)
    }));
    match res {
        Ok(Some(r)) => Some(r),
        Ok(None) => {
            // `varcall` checked the arguments: not expected.
            crate::call_state::log_error(
                method.name,
                &format!("{}.{}: an argument is missing", B::CLASS, method.name),
            );
            None
        }
        Err(_) => {
            crate::call_state::log_error(
                method.name,
                &format!("{}.{}: internal error (panic)", B::CLASS, method.name),
            );
            None
        }
    }
}

/// The engine's ptrcall entry: typed arguments by pointer, the result written over `ret`.
pub(super) unsafe extern "C" fn ptrcall<B: Body>(
    userdata: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    ret: sys::GDExtensionTypePtr,
) {
    // SAFETY: `userdata` is the `&'static Method<B>` given at registration.
    let method = unsafe { &*userdata.cast::<Method<B>>() };
    // SAFETY: the engine calls this for a live object of the class with the registered argument types,
    // and `ret` points to an initialized value of the registered return type.
    unsafe {
        let out = Out::new(ret.cast(), Slot::Typed(method.ret));
        run(method, instance, &Args::ptrcall(args, method.params), out);
    }
}

/// The engine's varcall entry: Variant arguments, counted and type-checked here as the engine
/// checks its own methods' (a wrong call sets `error` and returns nothing).
pub(super) unsafe extern "C" fn varcall<B: Body>(
    userdata: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    count: sys::GDExtensionInt,
    ret: sys::GDExtensionVariantPtr,
    error: *mut sys::GDExtensionCallError,
) {
    // SAFETY: `userdata` is the `&'static Method<B>` given at registration.
    let method = unsafe { &*userdata.cast::<Method<B>>() };
    let params = method.params;
    let given = usize::try_from(count).unwrap_or(0);
    let required = params
        .iter()
        .take_while(|p| !matches!(p.kind, ParamKind::Int(Some(_))))
        .count();
    let fail = |kind: sys::GDExtensionCallErrorType, argument: usize, expected: i64| {
        // SAFETY: the engine passes a valid error slot.
        unsafe {
            *error = sys::GDExtensionCallError {
                error: kind,
                argument: argument as i32,
                expected: expected as i32,
            };
        }
    };
    if given > params.len() {
        return fail(
            sys::GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS,
            0,
            params.len() as i64,
        );
    }
    if given < required {
        return fail(
            sys::GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS,
            0,
            required as i64,
        );
    }
    let given: &[&Variant] = if given == 0 {
        &[]
    } else {
        // SAFETY: the engine passes `count` pointers to live Variants, which outlive the call;
        // a reference has a pointer's layout, and gdext's `Variant` is `#[repr(transparent)]`
        // over the engine's.
        unsafe { std::slice::from_raw_parts(args.cast::<&Variant>(), given) }
    };
    for (i, (p, v)) in params.iter().zip(given).enumerate() {
        // The engine's own rule for its methods' arguments: the exact type, or one it converts
        // to it strictly (a float for an int, an Array for a PackedByteArray).
        let ty = type_of(v);
        let (expected, fits) = match p.kind {
            ParamKind::Variant => continue,
            ParamKind::Bytes => (
                VariantType::PACKED_BYTE_ARRAY,
                ty == Some(T::PackedByteArray) || v.try_to_relaxed::<PackedByteArray>().is_ok(),
            ),
            ParamKind::Int(_) => (
                VariantType::INT,
                ty == Some(T::Int) || v.try_to_relaxed::<i64>().is_ok(),
            ),
            // An object or null: the method itself reports a null one or one of another class,
            // as it does when called by pointer.
            ParamKind::Object(_) => (VariantType::OBJECT, matches!(ty, Some(T::Nil | T::Object))),
        };
        if !fits {
            return fail(
                sys::GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT,
                i,
                expected.ord() as i64,
            );
        }
    }
    // SAFETY: the engine calls this for a live object of the class, and `ret` points to an initialized
    // Variant; the arguments were checked above.
    unsafe {
        let out = Out::new(ret.cast(), Slot::Variant);
        run(method, instance, &Args::varcall(given, params), out);
    }
}

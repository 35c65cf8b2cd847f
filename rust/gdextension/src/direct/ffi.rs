//! The engine's entry points for the per-value methods: its ptrcall and varcall conventions,
//! the arguments they carry, and the codec the call is for.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use godot::builtin::{PackedByteArray, Variant, VariantType};
use godot::global::godot_error;
use godot::meta::ToGodot;
use godot::obj::EngineEnum;
use godot::sys::{self, GodotFfi, PtrcallType};

use super::{Method, Param, ParamKind, Returned};
use crate::codec::FastVarCodec;
use crate::codec_registry::with_codec;
use crate::codec_state::CodecState;
use crate::fast_access::{packed_bytes, packed_bytes_at, Typed};

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

    pub(crate) fn int(&self, i: usize) -> Option<i64> {
        match self.given {
            Given::Ptr(_) => {
                let p = self.ptr(i, |k| matches!(k, ParamKind::Int(_)))?;
                // SAFETY: parameter `i` is registered as an INT (int64 metadata), so `p` points
                // to an int64_t (`Args::ptrcall`).
                Some(unsafe { *p.cast::<i64>() })
            }
            Given::Var(given) => match given.get(i) {
                Some(v) => v.try_to().or_else(|_| v.try_to_relaxed()).ok(),
                None => match self.params.get(i)?.kind {
                    ParamKind::Int(default) => default,
                    _ => None,
                },
            },
        }
    }
}

/// The state of the codec whose instance storage is `instance`.
///
/// # Safety
/// `instance` must be the instance pointer the engine passes to a method of a live
/// `FastVarCodec`.
unsafe fn state_of(instance: sys::GDExtensionClassInstancePtr) -> Arc<CodecState> {
    // SAFETY: the caller's promise; gdext registered FastVarCodec with this storage type.
    let storage = unsafe { godot::private::as_storage::<FastVarCodec>(instance) };
    godot::private::Storage::get(storage).state().clone()
}

/// Runs `method` on the codec at `instance`; a panic or a missing argument (neither expected:
/// the codec reports errors through its call state) is logged and gives `None`, and never
/// unwinds into the engine.
///
/// # Safety
/// As [`state_of`].
unsafe fn run(
    method: &Method,
    instance: sys::GDExtensionClassInstancePtr,
    args: &Args<'_>,
) -> Option<Returned> {
    let res = catch_unwind(AssertUnwindSafe(|| {
        // First call on this codec: one ordinary (blocking) bind finds its state.
        // SAFETY: the caller's promise.
        let find = || unsafe { state_of(instance) };
        with_codec(instance as usize, find, |state, opts| {
            (method.run)(state, opts, args)
        })
    }));
    match res {
        Ok(Some(r)) => Some(r),
        Ok(None) => {
            // `varcall` checked the arguments: not expected.
            godot_error!("FastVarCodec.{}: an argument is missing", method.name);
            None
        }
        Err(_) => {
            godot_error!("FastVarCodec.{}: internal error (panic)", method.name);
            None
        }
    }
}

/// The engine's ptrcall entry: typed arguments by pointer, the result written over `ret`.
pub(super) unsafe extern "C" fn ptrcall(
    userdata: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstTypePtr,
    ret: sys::GDExtensionTypePtr,
) {
    // SAFETY: `userdata` is the `&'static Method` given at registration.
    let method = unsafe { &*userdata.cast::<Method>() };
    // SAFETY: the engine calls this for a live FastVarCodec with the registered argument types,
    // and `ret` points to an initialized value of the registered return type.
    unsafe {
        if let Some(r) = run(method, instance, &Args::ptrcall(args, method.params)) {
            match r {
                Returned::Variant(v) => v.move_return_ptr(ret, PtrcallType::Standard),
                Returned::Bytes(b) => b.move_return_ptr(ret, PtrcallType::Standard),
                Returned::String(s) => s.move_return_ptr(ret, PtrcallType::Standard),
                Returned::Int(n) => *ret.cast::<i64>() = n,
                Returned::Error(e) => *ret.cast::<i64>() = e.ord() as i64,
            }
        }
    }
}

/// The engine's varcall entry: Variant arguments, counted and type-checked here as the engine
/// checks its own methods' (a wrong call sets `error` and returns nothing).
pub(super) unsafe extern "C" fn varcall(
    userdata: *mut c_void,
    instance: sys::GDExtensionClassInstancePtr,
    args: *const sys::GDExtensionConstVariantPtr,
    count: sys::GDExtensionInt,
    ret: sys::GDExtensionVariantPtr,
    error: *mut sys::GDExtensionCallError,
) {
    // SAFETY: `userdata` is the `&'static Method` given at registration.
    let method = unsafe { &*userdata.cast::<Method>() };
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
        let (expected, fits) = match p.kind {
            ParamKind::Variant => continue,
            ParamKind::Bytes => (
                VariantType::PACKED_BYTE_ARRAY,
                v.get_type() == VariantType::PACKED_BYTE_ARRAY
                    || v.try_to_relaxed::<PackedByteArray>().is_ok(),
            ),
            ParamKind::Int(_) => (
                VariantType::INT,
                v.get_type() == VariantType::INT || v.try_to_relaxed::<i64>().is_ok(),
            ),
        };
        if !fits {
            return fail(
                sys::GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT,
                i,
                expected.ord() as i64,
            );
        }
    }
    // SAFETY: the engine calls this for a live FastVarCodec; the arguments were checked above.
    let Some(r) = (unsafe { run(method, instance, &Args::varcall(given, params)) }) else {
        return;
    };
    let v = match r {
        Returned::Variant(v) => v,
        Returned::Bytes(b) => b.to_variant(),
        Returned::String(s) => s.to_variant(),
        Returned::Int(n) => n.to_variant(),
        Returned::Error(e) => e.to_variant(),
    };
    // SAFETY: `ret` points to an initialized Variant, which this assignment replaces.
    unsafe { v.move_return_ptr(ret.cast(), PtrcallType::Standard) };
}

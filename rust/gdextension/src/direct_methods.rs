//! `FastVarCodec`'s per-value methods — `encode`, `decode`, `encoded_size` and the three that
//! report on the last call — registered with the engine through the GDExtension interface
//! directly, not through `#[func]`.
//!
//! Why: with `experimental-threads`, a `#[func]` on `&self` binds the object through gdext's
//! blocking cell on every call (a mutex, `thread::current()`, a futex wake), and a
//! `#[func(gd_self)]` builds a `Gd` under a global lock: 200–300 ns before the first byte, where
//! the engine's whole `var_to_bytes(1)` takes about 90 ns. Here the engine calls one of two
//! functions ([`ptrcall`] from typed GDScript, [`varcall`] from untyped code and `call()`), which
//! find the codec's state by the instance pointer the engine passes, in a registry (one read
//! lock and a lookup), and convert arguments and results by the engine's own conventions.
//!
//! The engine's help for these methods is registered here too ([`docs_xml`]), from the same
//! table that registers them.

use std::cell::RefCell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use godot::builtin::{GString, PackedByteArray, StringName, Variant, VariantType};
use godot::global::{godot_error, Error};
use godot::meta::ToGodot;
use godot::obj::{EngineEnum, GodotClass};
use godot::register::info::{PropertyHint, PropertyHintInfo, PropertyInfo, PropertyUsageFlags};
use godot::sys::{self, interface_fn, GodotFfi, PtrcallType};

use crate::codec::FastVarCodec;
use crate::codec_state::CodecState;
use crate::fast_access::{packed_bytes, packed_bytes_at, Typed};
use crate::registry::Registry;
use fast_var_codec_core::Options;

/// Codec states by the engine's instance pointer (gdext's instance storage, only ever used
/// here as a key). Entered on a codec's first direct call, removed when the codec is dropped.
static CODECS: Registry<CodecState> = Registry::new();

/// The kinds of parameter these methods take.
#[derive(Clone, Copy)]
enum ParamKind {
    /// Any Variant, borrowed for the call.
    Variant,
    /// A PackedByteArray.
    Bytes,
    /// An int; `Some(d)`: may be left out, and is then `d`.
    Int(Option<i64>),
}

/// The kinds of result.
#[derive(Clone, Copy)]
enum ReturnKind {
    Variant,
    Bytes,
    Int,
    Error,
    String,
}

enum Returned {
    Variant(Variant),
    Bytes(PackedByteArray),
    Int(i64),
    Error(Error),
    String(GString),
}

struct Param {
    name: &'static str,
    kind: ParamKind,
}

/// One method: how the engine sees it, its help text (BBCode, as in `///` comments) and its body.
struct Method {
    name: &'static str,
    params: &'static [Param],
    ret: ReturnKind,
    doc: &'static str,
    run: fn(&CodecState, &Options, &Args<'_>) -> Option<Returned>,
}

/// A call's arguments, as the engine passed them.
enum Args<'a> {
    /// Ptrcall: one pointer per parameter, to a value of exactly the registered type.
    Ptr(*const sys::GDExtensionConstTypePtr),
    /// Varcall: the Variants given (counted and checked in [`varcall`]); parameters left out
    /// take their defaults from the method's parameter list.
    Var(&'a [&'a Variant], &'static [Param]),
}

impl Args<'_> {
    fn variant(&self, i: usize) -> Option<&Variant> {
        match self {
            // SAFETY: in a ptrcall the engine passes, for a parameter registered as Variant
            // (NIL with NIL_IS_VARIANT), a pointer to a live Variant that outlives the call;
            // gdext's `Variant` is `#[repr(transparent)]` over the engine's.
            Args::Ptr(p) => Some(unsafe { &*(*p.add(i)).cast::<Variant>() }),
            Args::Var(given, _) => given.get(i).copied(),
        }
    }

    /// A PackedByteArray argument: borrowed in place, or (from a Variant of another type the
    /// engine converts, e.g. an Array of ints) converted into `converted`.
    fn bytes<'s>(
        &'s self,
        i: usize,
        converted: &'s mut Option<PackedByteArray>,
    ) -> Option<&'s [u8]> {
        match self {
            // SAFETY: a ptrcall's pointer for a PACKED_BYTE_ARRAY parameter points to the
            // engine's PackedByteArray, live for the call; the caller's copy of it is not
            // written during the call (a write elsewhere copies the storage first).
            Args::Ptr(p) => unsafe { packed_bytes_at(*p.add(i)) },
            Args::Var(given, _) => {
                let v = given.get(i)?;
                if let Some(bytes) = Typed::of(v).and_then(packed_bytes) {
                    return Some(bytes);
                }
                Some(converted.insert(v.try_to_relaxed().ok()?).as_slice())
            }
        }
    }

    fn int(&self, i: usize) -> Option<i64> {
        match self {
            // SAFETY: a ptrcall's pointer for an INT parameter points to an int64_t.
            Args::Ptr(p) => Some(unsafe { *(*p.add(i)).cast::<i64>() }),
            Args::Var(given, params) => match given.get(i) {
                Some(v) => v.try_to().or_else(|_| v.try_to_relaxed()).ok(),
                None => match params.get(i)?.kind {
                    ParamKind::Int(default) => default,
                    _ => None,
                },
            },
        }
    }
}

const VALUE: &[Param] = &[Param {
    name: "value",
    kind: ParamKind::Variant,
}];

/// Every directly registered method.
static METHODS: [Method; 6] = [
    Method {
        name: "encode",
        params: VALUE,
        ret: ReturnKind::Bytes,
        doc: "Encodes [param value]. Returns empty bytes on failure (see [method get_error]).",
        run: |s, o, a| Some(Returned::Bytes(s.encode(o, a.variant(0)?))),
    },
    Method {
        name: "encoded_size",
        params: VALUE,
        ret: ReturnKind::Int,
        doc: "The exact size [method encode] would return, computed without encoding; -1 on failure.",
        run: |s, o, a| Some(Returned::Int(s.encoded_size(o, a.variant(0)?))),
    },
    Method {
        name: "decode",
        params: &[
            Param {
                name: "bytes",
                kind: ParamKind::Bytes,
            },
            Param {
                name: "offset",
                kind: ParamKind::Int(Some(0)),
            },
        ],
        ret: ReturnKind::Variant,
        doc: "Decodes one value from [param bytes], starting at [param offset]. Trailing bytes are \
              ignored; [method get_decoded_size] tells how many were used. Returns [code]null[/code] \
              on failure; a failed decode leaves no object behind.",
        run: |s, o, a| {
            let mut converted = None;
            let bytes = a.bytes(0, &mut converted)?;
            Some(Returned::Variant(s.decode(o, bytes, a.int(1)?)))
        },
    },
    Method {
        name: "get_decoded_size",
        params: &[],
        ret: ReturnKind::Int,
        doc: "Bytes consumed by this thread's last successful [method decode] or [method get_var] \
              on this codec (0 after a failure).",
        run: |s, _, _| Some(Returned::Int(s.get_decoded_size())),
    },
    Method {
        name: "get_error",
        params: &[],
        ret: ReturnKind::Error,
        doc: "The [enum Error] of this thread's last call on this codec: [constant OK], or why it \
              failed ([constant ERR_INVALID_DATA], [constant ERR_FILE_EOF], \
              [constant ERR_UNAUTHORIZED], [constant ERR_OUT_OF_MEMORY] …).",
        run: |s, _, _| Some(Returned::Error(s.get_error())),
    },
    Method {
        name: "get_error_message",
        params: &[],
        ret: ReturnKind::String,
        doc: "What went wrong in this thread's last call on this codec, with the byte offset \
              (decoding) or the path inside the value (encoding, e.g. [code][3].items[\"k\"][/code]); \
              empty after a success.",
        run: |s, _, _| Some(Returned::String(s.get_error_message())),
    },
];

/// The state of the codec whose instance storage is `instance`.
///
/// # Safety
/// `instance` must be the instance pointer the engine passes to a method of a live
/// `FastVarCodec`.
unsafe fn state_of(instance: sys::GDExtensionClassInstancePtr) -> Arc<CodecState> {
    let key = instance as usize;
    if let Some(state) = CODECS.get(key) {
        return state;
    }
    // First call on this codec: one ordinary (blocking) bind to find its state.
    // SAFETY: the caller's promise; gdext registered FastVarCodec with this storage type.
    let storage = unsafe { godot::private::as_storage::<FastVarCodec>(instance) };
    let state = godot::private::Storage::get(storage).state().clone();
    if state.registered.set(key).is_ok() {
        CODECS.insert(key, state.clone());
    }
    state
}

/// Forgets a dropped codec (see [`CODECS`]).
pub(crate) fn forget(state: &CodecState) {
    if let Some(key) = state.registered.get() {
        CODECS.remove(*key);
        REMOVALS.fetch_add(1, Ordering::Release);
    }
}

/// Counts codecs leaving [`CODECS`]: a thread's [`Recent`] older than the last removal may name
/// a dropped codec's address, which a new codec can now have.
static REMOVALS: AtomicU64 = AtomicU64::new(0);

/// The codec a thread called last, with a snapshot of its options: the next call on it needs
/// neither the registry's lock nor the settings' (two atomic loads tell whether it still holds).
/// Plain Rust values only, so it may outlive the engine.
struct Recent {
    key: usize,
    removals: u64,
    version: u64,
    state: Arc<CodecState>,
    opts: Arc<Options>,
}

thread_local! {
    static RECENT: RefCell<Option<Recent>> = const { RefCell::new(None) };
}

/// Runs `f` with the state and the options of the codec at `instance`.
///
/// # Safety
/// As [`state_of`].
unsafe fn with_codec<R>(
    instance: sys::GDExtensionClassInstancePtr,
    f: impl FnOnce(&CodecState, &Options) -> R,
) -> R {
    let key = instance as usize;
    RECENT.with(|cell| {
        // A shared borrow for the whole call: a call nested in it (a setter's script calling a
        // codec) may read the entry too, but not replace it while it is in use.
        if let Ok(recent) = cell.try_borrow() {
            if let Some(r) = recent.as_ref() {
                if r.key == key
                    && r.removals == REMOVALS.load(Ordering::Acquire)
                    && r.version == r.state.version.load(Ordering::Acquire)
                {
                    return f(&r.state, &r.opts);
                }
            }
        }
        // Read before the lookup: a removal in between makes the new entry stale at once.
        let removals = REMOVALS.load(Ordering::Acquire);
        // SAFETY: the caller's promise.
        let state = unsafe { state_of(instance) };
        let (opts, version) = state.options_and_version();
        let out = f(&state, &opts);
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = Some(Recent {
                key,
                removals,
                version,
                state,
                opts,
            });
        }
        out
    })
}

/// Runs `method` on the codec at `instance`; a panic or a missing argument (neither expected:
/// the codec reports errors through its call state) is logged and gives `None`, and never
/// unwinds into the engine.
///
/// # Safety
/// As [`state_of`]; `args` must match the registered parameters.
unsafe fn run(
    method: &Method,
    instance: sys::GDExtensionClassInstancePtr,
    args: &Args<'_>,
) -> Option<Returned> {
    let res = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        unsafe { with_codec(instance, |state, opts| (method.run)(state, opts, args)) }
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
unsafe extern "C" fn ptrcall(
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
        if let Some(r) = run(method, instance, &Args::Ptr(args)) {
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
unsafe extern "C" fn varcall(
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
    let Some(r) = (unsafe { run(method, instance, &Args::Var(given, params)) }) else {
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

fn property(name: &str, ty: VariantType, class: &str, usage: PropertyUsageFlags) -> PropertyInfo {
    PropertyInfo {
        variant_type: ty,
        class_name: StringName::from(class),
        property_name: StringName::from(name),
        hint_info: PropertyHintInfo {
            hint: PropertyHint::NONE,
            hint_string: GString::new(),
        },
        usage,
    }
}

fn param_info(p: &Param) -> (PropertyInfo, sys::GDExtensionClassMethodArgumentMetadata) {
    let d = PropertyUsageFlags::DEFAULT;
    match p.kind {
        ParamKind::Variant => (
            property(
                p.name,
                VariantType::NIL,
                "",
                d | PropertyUsageFlags::NIL_IS_VARIANT,
            ),
            sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE,
        ),
        ParamKind::Bytes => (
            property(p.name, VariantType::PACKED_BYTE_ARRAY, "", d),
            sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE,
        ),
        ParamKind::Int(_) => (
            property(p.name, VariantType::INT, "", d),
            sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_INT_IS_INT64,
        ),
    }
}

fn return_info(kind: ReturnKind) -> (PropertyInfo, sys::GDExtensionClassMethodArgumentMetadata) {
    let d = PropertyUsageFlags::DEFAULT;
    let none = sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE;
    match kind {
        ReturnKind::Variant => (
            property(
                "",
                VariantType::NIL,
                "",
                d | PropertyUsageFlags::NIL_IS_VARIANT,
            ),
            none,
        ),
        ReturnKind::Bytes => (property("", VariantType::PACKED_BYTE_ARRAY, "", d), none),
        ReturnKind::String => (property("", VariantType::STRING, "", d), none),
        ReturnKind::Int => (
            property("", VariantType::INT, "", d),
            sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_INT_IS_INT64,
        ),
        ReturnKind::Error => (
            property(
                "",
                VariantType::INT,
                "Error",
                d | PropertyUsageFlags::CLASS_IS_ENUM,
            ),
            none,
        ),
    }
}

/// Registers [`METHODS`] on `FastVarCodec`: once, after gdext has registered the class.
pub(crate) fn register() {
    let class = FastVarCodec::class_id();
    let class_name = StringName::from(class.to_cow_str().as_ref());
    for method in &METHODS {
        let name = StringName::from(method.name);
        let (ret, ret_meta) = return_info(method.ret);
        let (params, mut metas): (Vec<PropertyInfo>, Vec<_>) =
            method.params.iter().map(param_info).unzip();
        let mut params_sys: Vec<sys::GDExtensionPropertyInfo> =
            params.iter().map(PropertyInfo::property_sys).collect();
        let mut ret_sys = ret.property_sys();
        let mut defaults: Vec<Variant> = method
            .params
            .iter()
            .filter_map(|p| match p.kind {
                ParamKind::Int(Some(d)) => Some(d.to_variant()),
                _ => None,
            })
            .collect();
        let mut default_ptrs: Vec<sys::GDExtensionVariantPtr> =
            defaults.iter_mut().map(|v| v.var_sys_mut()).collect();
        let info = sys::GDExtensionClassMethodInfo {
            name: sys::SysPtr::force_mut(name.string_sys()),
            method_userdata: std::ptr::from_ref(method).cast_mut().cast(),
            call_func: Some(varcall),
            ptrcall_func: Some(ptrcall),
            method_flags: sys::GDEXTENSION_METHOD_FLAGS_DEFAULT as u32,
            has_return_value: 1,
            return_value_info: &mut ret_sys,
            return_value_metadata: ret_meta,
            argument_count: params_sys.len() as u32,
            arguments_info: params_sys.as_mut_ptr(),
            arguments_metadata: metas.as_mut_ptr(),
            default_argument_count: default_ptrs.len() as u32,
            default_arguments: default_ptrs.as_mut_ptr(),
        };
        // SAFETY: the library pointer is gdext's; every pointer in `info` refers to values that
        // live until the call returns (the engine copies them); `method` is static, so the
        // userdata stays valid for as long as the class is registered.
        unsafe {
            interface_fn!(classdb_register_extension_class_method)(
                sys::get_library(),
                class_name.string_sys(),
                &info,
            );
        }
        // `name`, `ret`, `params` and `defaults` (which the pointers in `info` refer to) are
        // dropped only here, after the engine has copied them.
    }
}

/// The editor help of [`METHODS`], in the engine's class-reference XML.
pub(crate) fn docs_xml() -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut xml = String::new();
    for m in &METHODS {
        let ret = match m.ret {
            ReturnKind::Variant => "Variant",
            ReturnKind::Bytes => "PackedByteArray",
            ReturnKind::Int => "int",
            ReturnKind::Error => "int\" enum=\"Error",
            ReturnKind::String => "String",
        };
        xml.push_str(&format!(
            "<method name=\"{}\">\n<return type=\"{ret}\" />\n",
            m.name
        ));
        for (i, p) in m.params.iter().enumerate() {
            let (ty, default) = match p.kind {
                ParamKind::Variant => ("Variant", String::new()),
                ParamKind::Bytes => ("PackedByteArray", String::new()),
                ParamKind::Int(d) => (
                    "int",
                    d.map_or(String::new(), |d| format!(" default=\"{d}\"")),
                ),
            };
            xml.push_str(&format!(
                "<param index=\"{i}\" name=\"{}\" type=\"{ty}\"{default} />\n",
                p.name
            ));
        }
        xml.push_str(&format!(
            "<description>\n{}\n</description>\n</method>\n",
            escape(m.doc)
        ));
    }
    xml
}

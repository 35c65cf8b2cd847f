//! Registering the per-value methods on the class, with their editor help, from the table in
//! `direct/mod.rs`.

use godot::builtin::{GString, StringName, Variant, VariantType};
use godot::meta::ToGodot;
use godot::obj::GodotClass;
use godot::register::info::{PropertyHint, PropertyHintInfo, PropertyInfo, PropertyUsageFlags};
use godot::sys::{self, interface_fn};

use super::ffi::{ptrcall, varcall, Body};
use super::{Method, Param, ParamKind, ReturnKind, CODEC_METHODS, STREAM_METHODS};
use crate::class_enums::CODEC_ENUMS;
use crate::codec::FastVarCodec;
use crate::stream_class::FastVarStream;

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
        ParamKind::Object(class) => (
            property(p.name, VariantType::OBJECT, class, d),
            sys::GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE,
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

/// Registers [`CODEC_METHODS`] and the constants of [`CODEC_ENUMS`] on `FastVarCodec` and
/// [`STREAM_METHODS`] on `FastVarStream`: once, after gdext has registered the classes.
pub(crate) fn register() {
    register_on::<FastVarCodec, _>(&CODEC_METHODS);
    register_on::<FastVarStream, _>(&STREAM_METHODS);
    register_enums::<FastVarCodec>();
}

/// Registers the constants of [`CODEC_ENUMS`] on `C`, each with its enum's name.
fn register_enums<C: GodotClass>() {
    let class = StringName::from(C::class_id().to_cow_str().as_ref());
    for item in &CODEC_ENUMS {
        let enum_name = StringName::from(item.name);
        for (name, value, _) in item.constants {
            let constant = StringName::from(*name);
            // SAFETY: the library pointer is gdext's, the class is registered (this runs after
            // gdext's class registration), and the three names live until the call returns (the
            // engine copies them).
            unsafe {
                interface_fn!(classdb_register_extension_class_integer_constant)(
                    sys::get_library(),
                    class.string_sys(),
                    enum_name.string_sys(),
                    constant.string_sys(),
                    *value,
                    sys::conv::bool_to_sys(false),
                );
            }
        }
    }
}

/// The editor help of the constants of [`CODEC_ENUMS`]: the `<constant>` entries of the class
/// reference XML.
pub(crate) fn codec_constants_docs_xml() -> String {
    let mut xml = String::new();
    for item in &CODEC_ENUMS {
        for (name, value, doc) in item.constants {
            xml.push_str(&format!(
                "<constant name=\"{name}\" value=\"{value}\" enum=\"{}\">\n{}\n</constant>\n",
                item.name,
                escape_xml(doc)
            ));
        }
    }
    xml
}

fn register_on<C: GodotClass, B: Body>(methods: &'static [Method<B>]) {
    let class = C::class_id();
    let class_name = StringName::from(class.to_cow_str().as_ref());
    for method in methods {
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
            call_func: Some(varcall::<B>),
            ptrcall_func: Some(ptrcall::<B>),
            method_flags: if method.reads_only {
                (sys::GDEXTENSION_METHOD_FLAGS_DEFAULT | sys::GDEXTENSION_METHOD_FLAG_CONST) as u32
            } else {
                sys::GDEXTENSION_METHOD_FLAGS_DEFAULT as u32
            },
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

/// The editor help of [`CODEC_METHODS`], in the engine's class-reference XML.
pub(crate) fn codec_docs_xml() -> String {
    docs_xml(&CODEC_METHODS)
}

/// The editor help of [`STREAM_METHODS`], in the engine's class-reference XML.
pub(crate) fn stream_docs_xml() -> String {
    docs_xml(&STREAM_METHODS)
}

/// `text` as XML character data.
fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn docs_xml<B>(methods: &[Method<B>]) -> String {
    let escape = escape_xml;
    let mut xml = String::new();
    for m in methods {
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
                ParamKind::Object(class) => (class, String::new()),
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

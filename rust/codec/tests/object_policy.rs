//! The object policy in the core: every class and script the bytes name, in every place and
//! dialect, is judged before a builder hears of it. (The engine-side proof that nothing is loaded
//! or instantiated is `godot_project/tests/test_object_policy.gd`.)

use fast_var_codec_core::error::ErrorCode;
use fast_var_codec_core::options::AllowList;
use fast_var_codec_core::value::{ContainerType, Object, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

fn allow(dialect: Dialect, list: AllowList) -> Options {
    Options::new(dialect)
        .with_allow_objects(true)
        .with_full_objects(true)
        .with_allowed_objects(Some(list))
}

fn listed() -> AllowList {
    AllowList::new()
        .with_class("RefCounted")
        .with_class("Resource")
        .with_script("res://ok.gd", Some("Resource"))
}

fn typed_array(element: ContainerType) -> Value {
    Value::typed_array(element, vec![])
}

fn object(class: &str, script: Option<&str>) -> Value {
    let mut properties = vec![("resource_name".to_string(), Value::String("x".into()))];
    properties.push((
        "script".into(),
        script.map_or(Value::Nil, |p| Value::String(p.into())),
    ));
    Value::Object(Box::new(Object {
        class: class.into(),
        properties,
    }))
}

/// `v` nested three levels down: `[{"k": v}]`.
fn deep(v: Value) -> Value {
    Value::array(vec![Value::dictionary(vec![(
        Value::String("k".into()),
        v,
    )])])
}

fn verdict(v: &Value, dialect: Dialect) -> Result<(), ErrorCode> {
    let open = Options::new(dialect)
        .with_allow_objects(true)
        .with_full_objects(true);
    let bytes = encode(v, &open).expect("the value encodes");
    // Without a list everything decodes, as in the engine.
    decode(&bytes, &open).expect("decodes without a list");
    decode(&bytes, &allow(dialect, listed()))
        .map(|_| ())
        .map_err(|e| e.code())
}

#[test]
fn every_place_that_names_a_script_is_judged() {
    let evil = || ContainerType::Script("res://evil.gd".into());
    let dict = |key, value| Value::typed_dictionary(key, value, vec![]);
    let refused = [
        typed_array(evil()),
        dict(evil(), ContainerType::Untyped),
        dict(ContainerType::Untyped, evil()),
        deep(typed_array(evil())),
        object("Resource", Some("res://evil.gd")),
        deep(object("Resource", Some("res://evil.gd"))),
        typed_array(ContainerType::Class("Node".into())),
        object("Node", None),
        // A listed script on a class it does not extend.
        object("Node", Some("res://ok.gd")),
    ];
    for v in &refused {
        assert_eq!(
            verdict(v, Dialect::Godot4),
            Err(ErrorCode::Unauthorized),
            "{v:?}"
        );
    }
    let allowed = [
        typed_array(ContainerType::Script("res://ok.gd".into())),
        typed_array(ContainerType::Class("Resource".into())),
        typed_array(ContainerType::Builtin(VariantType::Int)),
        object("Resource", None),
        object("Resource", Some("res://ok.gd")),
        deep(object("RefCounted", None)),
    ];
    for v in &allowed {
        assert_eq!(verdict(v, Dialect::Godot4), Ok(()), "{v:?}");
    }
}

/// A user's list holding `"*"` admits every class and script in every place, as no list does;
/// the other entries beside it change nothing. Python, npm and GDScript read their lists by
/// this one rule (`AllowList::from_names` / `with_name`).
#[test]
fn a_star_in_a_users_list_admits_every_class_and_script() {
    let evil = || ContainerType::Script("res://evil.gd".into());
    let values = [
        object("Resource", None),
        object("Node", None),
        object("Resource", Some("res://evil.gd")),
        deep(object("Image", Some("res://any.gd"))),
        typed_array(evil()),
        typed_array(ContainerType::Class("Node".into())),
        Value::typed_dictionary(evil(), ContainerType::Class("Node".into()), vec![]),
    ];
    for names in [&["*"][..], &["Resource", "*"], &["*", "res://ok.gd"]] {
        let list = AllowList::from_names(names);
        assert!(list.admits_any(), "{names:?}");
        for v in &values {
            let open = Options::new(Dialect::Godot4)
                .with_allow_objects(true)
                .with_full_objects(true);
            let bytes = encode(v, &open).expect("the value encodes");
            let (back, _) = decode(&bytes, &allow(Dialect::Godot4, list.clone()))
                .unwrap_or_else(|e| panic!("{names:?} refused {v:?}: {e}"));
            assert_eq!(&back, v);
        }
    }
    // Without the star, the same names are an exact list.
    let list = AllowList::from_names(["Resource"]);
    assert!(!list.admits_any());
    assert!(!list.allows_class("Node"));
    assert!(AllowList::any().allows_object("Node", Some("res://evil.gd")));
}

#[test]
fn pandemonium_typed_arrays_are_judged_too() {
    let v = typed_array(ContainerType::Class("Node".into()));
    assert_eq!(
        verdict(&v, Dialect::Pandemonium5),
        Err(ErrorCode::Unauthorized)
    );
    let v = typed_array(ContainerType::Class("Resource".into()));
    assert_eq!(verdict(&v, Dialect::Pandemonium5), Ok(()));
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn text(s: &str) -> Vec<u8> {
    let mut out = le(&[s.len() as u32]);
    out.extend_from_slice(s.as_bytes());
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
    out
}

/// Godot 3 embeds the Script object, source code included, in a `script` property: refused
/// before it is built, even without an allow-list.
#[test]
fn a_godot3_embedded_script_is_never_decoded() {
    const OBJECT: u32 = 17;
    let mut b = le(&[OBJECT]);
    b.extend(text("Reference"));
    b.extend(le(&[1]));
    b.extend(text("script"));
    b.extend(le(&[OBJECT]));
    b.extend(text("GDScript"));
    b.extend(le(&[1]));
    b.extend(text("source_code"));
    b.extend(le(&[4]));
    b.extend(text("extends Reference"));
    let open = Options::new(Dialect::Godot3).with_allow_objects(true);
    let err = decode(&b, &open).expect_err("refused");
    assert_eq!(err.code(), ErrorCode::Unauthorized, "{err}");
    assert!(err.to_string().contains("script"), "{err}");
    // Encoding a script into Godot 3 is refused by the same rule, in the core.
    let g3 = Options::new(Dialect::Godot3).with_full_objects(true);
    let e = encode(&object("Reference", Some("res://a.gd")), &g3).expect_err("refused");
    assert_eq!(e.code(), ErrorCode::InvalidParameter, "{e}");
    assert!(encode(&object("Reference", None), &g3).is_ok());
}

#[test]
fn options_that_cannot_work_are_refused() {
    let o = Options::new(Dialect::Godot3)
        .with_precision(fast_var_codec_core::options::Precision::Double);
    assert!(o.check().is_err());
    assert!(encode(&Value::Nil, &o).is_err());
    assert!(Options::new(Dialect::Godot4)
        .with_precision(fast_var_codec_core::options::Precision::Double)
        .check()
        .is_ok());
}

#[test]
fn default_limits_refuse_nothing_the_engine_decodes() {
    // 64 MiB of packed bytes and 20 million packed ints: data, not container elements.
    let big = Value::PackedByteArray(vec![7; 64 << 20]);
    let bytes = encode(&big, &Options::default()).unwrap();
    assert_eq!(decode(&bytes, &Options::default()).unwrap().0, big);
    let ints = Value::PackedInt32Array(vec![1; 20_000_000]);
    let bytes = encode(&ints, &Options::default()).unwrap();
    assert!(decode(&bytes, &Options::default()).is_ok());
}

/// Anything else in a Godot 3 `script` property leaves the object without a script, as the
/// engine's `set` does, so the decoded object re-encodes (found by the roundtrip fuzz target).
#[test]
fn a_godot3_script_that_is_no_object_is_no_script() {
    for dialect in [Dialect::Godot3, Dialect::Pandemonium38] {
        let opts = Options::new(dialect)
            .with_allow_objects(true)
            .with_full_objects(true);
        let object_id = u32::from(dialect.wire_id(VariantType::Object).unwrap());
        let int_id = u32::from(dialect.wire_id(VariantType::Int).unwrap());
        let mut b = le(&[object_id]);
        b.extend(text("Resource"));
        b.extend(le(&[1]));
        b.extend(text("script"));
        b.extend(le(&[int_id, 1]));
        let (v, _) = decode(&b, &opts).expect("decodes");
        assert_eq!(v, object_no_name("Resource"), "{dialect:?}");
        let again = encode(&v, &opts).expect("re-encodes");
        assert_eq!(decode(&again, &opts).unwrap().0, v);
    }
}

fn object_no_name(class: &str) -> Value {
    Value::Object(Box::new(Object {
        class: class.into(),
        properties: vec![("script".into(), Value::Nil)],
    }))
}

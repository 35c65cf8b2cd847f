//! The `Value` API as a user coming from `serde_json::Value` reaches for it: assignment through
//! indexing, every integer type, lengths, JSON pointers, entries, values in hash sets and as map
//! keys, comparisons with Rust's primitives, a one-line text for logs, a short `Debug`, and
//! errors that `?` turns into `std::io::Error` in a tokio handler.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io;

use fast_var_codec_core::error::IntOutOfRange;
use fast_var_codec_core::value::Entry;
use fast_var_codec_core::value::{ContainerType, Dictionary, Object, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

fn hash_of(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

#[test]
fn index_mut_assigns_and_inserts() {
    let mut v = Value::from_iter([("hp", 10)]);
    v["hp"] = Value::from(9);
    v["name"] = Value::from("ada");
    assert_eq!(v["hp"], 9);
    assert_eq!(v["name"], "ada");
    assert_eq!(v.len(), Some(2));
    // Nil becomes a Dictionary, level by level.
    let mut nil = Value::Nil;
    nil["a"]["b"] = Value::from(1);
    assert_eq!(nil["a"]["b"], 1);
    let mut list = Value::from(vec![1, 2]);
    list[1] = Value::from(20);
    assert_eq!(list[1], 20);
    // A StringName key is the key of that text; a `&Value` key finds an equal key.
    let mut d = Value::from_iter([(Value::string_name("speed"), 1)]);
    d["speed"] = Value::from(2);
    d[&Value::from(7)] = Value::from("seven");
    assert_eq!(d.len(), Some(2));
    assert_eq!(d[&Value::string_name("speed")], 2);
    assert_eq!(d[&Value::from(7)], "seven");
    // An object's property, added when missing.
    let mut o = Value::from(Object::new("Resource"));
    o["resource_name"] = Value::from("sword");
    o["resource_name"] = Value::from("axe");
    assert_eq!(o.as_object().map(|o| o.properties.len()), Some(1));
    assert_eq!(o["resource_name"], "axe");
    // A large Dictionary (indexed keys): inserted keys are found afterwards.
    let mut big = Value::from_iter((0..100).map(|i| (format!("k{i}"), i)));
    big["k50"] = Value::from(-1);
    big["new"] = Value::from(1);
    assert_eq!(big.len(), Some(101));
    assert_eq!(big["k50"], -1);
    assert_eq!(big["new"], 1);
    assert_eq!(big.get("new"), Some(&Value::Int(1)));
}

#[test]
#[should_panic(expected = "cannot change item 2 of an Array of length 2")]
fn index_mut_past_an_arrays_end_panics_clearly() {
    let mut v = Value::from(vec![1, 2]);
    v[2] = Value::Nil;
}

#[test]
#[should_panic(expected = "cannot change the key \"hp\" of int")]
fn index_mut_with_a_key_into_an_int_panics_clearly() {
    let mut v = Value::from(3);
    v["hp"] = Value::Nil;
}

#[test]
#[should_panic(expected = "cannot change item 0 of Nil: only an Array has items")]
fn index_mut_with_an_index_into_nil_panics_clearly() {
    let mut v = Value::Nil;
    v[0] = Value::Nil;
}

#[test]
fn every_integer_that_fits_converts() {
    assert_eq!(Value::from(-3isize), Value::Int(-3));
    assert_eq!(Value::from(isize::MIN), Value::Int(isize::MIN as i64));
    assert_eq!(Value::try_from(3usize), Ok(Value::Int(3)));
    assert_eq!(Value::try_from(i64::MAX as u64), Ok(Value::Int(i64::MAX)));
    assert!(Value::try_from(i64::MAX as u64 + 1).is_err());
    assert!(Value::try_from(u64::MAX).is_err());
    assert!(Value::try_from(i128::from(i64::MIN) - 1).is_err());
    assert_eq!(
        Value::try_from(i128::from(i64::MIN)),
        Ok(Value::Int(i64::MIN))
    );
    assert_eq!(Value::try_from(-5i128), Ok(Value::Int(-5)));
    let e: IntOutOfRange = Value::try_from(u128::MAX).unwrap_err();
    assert!(e.to_string().starts_with(&u128::MAX.to_string()));
    let e = Value::try_from(i128::MIN).unwrap_err();
    assert!(e.to_string().starts_with(&i128::MIN.to_string()));
    let as_io: io::Error = e.into();
    assert_eq!(as_io.kind(), io::ErrorKind::InvalidInput);
}

#[test]
fn lengths_count_elements_and_characters() {
    assert_eq!(Value::Nil.len(), None);
    assert!(!Value::Nil.is_empty());
    assert_eq!(Value::vector3(1.0, 2.0, 3.0).len(), None);
    assert_eq!(Value::string_name("ab").len(), Some(2));
    assert_eq!(Value::from("日本").len(), Some(2));
    assert!(Value::from(Dictionary::new()).is_empty());
    assert_eq!(Value::PackedVector2Array(vec![[0.0; 2]; 3]).len(), Some(3));
    assert_eq!(Value::packed_string_array(["a", "b"]).len(), Some(2));
}

#[test]
fn pointers_follow_rfc_6901() {
    let mut v = Value::from_iter([
        ("items", Value::from(vec!["a", "b"])),
        ("m~n", Value::from(1)),
        ("", Value::from(2)),
    ]);
    assert_eq!(v.pointer("/items/1"), Some(&Value::from("b")));
    assert_eq!(v.pointer("/m~0n"), Some(&Value::Int(1)));
    assert_eq!(v.pointer("/"), Some(&Value::Int(2))); // the empty key
    assert_eq!(v.pointer("items"), None); // no leading slash
    assert_eq!(v.pointer("/items/01"), None); // no leading zero
    assert_eq!(v.pointer("/items/+1"), None);
    assert_eq!(v.pointer("/items/-"), None);
    assert_eq!(v.pointer("/items/1/x"), None);
    if let Some(x) = v.pointer_mut("/items/0") {
        *x = Value::from("z");
    }
    assert_eq!(v["items"][0], "z");
    let mut o = Value::from(Object::new("Node"));
    o["name"] = Value::from("n");
    assert_eq!(o.pointer("/name"), Some(&Value::from("n")));
}

#[test]
fn entries_find_keys_as_the_dictionary_does() {
    let mut d = Dictionary::from_iter((0..40).map(|i| (i, i)));
    // Vacant, then occupied, in an indexed Dictionary.
    *d.entry(100).or_insert(0) = Value::from(1);
    assert_eq!(d.get(100), Some(&Value::Int(1)));
    assert!(matches!(d.entry(100), Entry::Occupied(_)));
    assert!(matches!(d.entry(Value::Float(100.0)), Entry::Vacant(_))); // 100 and 100.0: two keys
    d.entry(5).and_modify(|v| *v = Value::from(-5));
    assert_eq!(d.get(5), Some(&Value::Int(-5)));
    if let Entry::Occupied(e) = d.entry(0) {
        assert_eq!(e.remove(), Value::Int(0));
    }
    assert_eq!(d.len(), 40);
    assert_eq!(d.get(39), Some(&Value::Int(39)));
    assert_eq!(d.get(100), Some(&Value::Int(1)));
    // A vacant entry dropped inserts nothing, and leaves later lookups right.
    if let Entry::Vacant(e) = d.entry("k") {
        drop(e);
    }
    d.insert("other", 1);
    assert_eq!(d.get("k"), None);
    assert_eq!(d.get("other"), Some(&Value::Int(1)));
    // retain, remove, iter_mut were there already.
    d.retain(|k, _| k.as_i64().is_some_and(|i| i < 10));
    assert_eq!(d.len(), 9);
}

#[test]
// A Dictionary caches its key index in a cell, which the lint sees; the cache changes neither
// `==` nor the hash (what `Value`'s `Hash` documentation tells users).
#[allow(clippy::mutable_key_type)]
fn values_hash_consistently_with_eq() {
    let set: HashSet<Value> = [Value::from(1), Value::from(1), Value::from("a")].into();
    assert_eq!(set.len(), 2);
    let mut by_key: HashMap<Value, u32> = HashMap::new();
    by_key.insert(Value::from(vec![1, 2]), 3);
    assert_eq!(by_key.get(&Value::from(vec![1, 2])), Some(&3));
    let nan = Value::Float(f64::NAN);
    assert_eq!(nan, nan.clone());
    assert_eq!(hash_of(&nan), hash_of(&nan.clone()));
    assert_ne!(Value::Float(0.0), Value::Float(-0.0));
    let a = Value::from_iter([("a", 1), ("b", 2)]);
    let b = Value::from_iter([("b", 2), ("a", 1)]);
    assert_ne!(a, b, "Dictionaries compare in order");
    // Equal values hash equal, an indexed Dictionary and its unindexed copy too.
    let big = Value::from_iter((0..50).map(|i| (i, i)));
    assert_eq!(big["49"], Value::Nil);
    assert_eq!(big.get(Value::from(49)), Some(&Value::Int(49))); // indexed now
    let copy = big.clone();
    assert_eq!(big, copy);
    assert_eq!(hash_of(&big), hash_of(&copy));
    assert_ne!(
        hash_of(&Value::from("a")),
        hash_of(&Value::string_name("a"))
    );
    // Deep values hash without overflowing the stack.
    let mut deep = Value::Nil;
    for _ in 0..100_000 {
        deep = Value::from(vec![deep]);
    }
    let _ = hash_of(&deep);
    assert_eq!(
        format!("{:?}", Value::from(vec![Value::Nil])),
        "Array [Nil]"
    );
}

#[test]
fn values_compare_with_rust_primitives() {
    let seven = Value::from(7);
    assert!(seven == 7u8 && seven == 7u16 && seven == 7u32 && seven == 7u64);
    assert!(seven == 7u128 && seven == 7usize);
    assert!(seven == 7i8 && seven == 7i16 && seven == 7i32 && seven == 7i64);
    assert!(seven == 7i128 && seven == 7isize);
    assert!(7u64 == seven);
    assert!(&seven == 7u32);
    assert!(Value::from(-1) != u64::MAX);
    assert!(Value::from(-1) != u128::MAX);
    assert!(Value::Nil != u128::MAX);
    assert!(seven != 7.0, "an int is no float");
    let (half, yes, a) = (Value::from(0.5), Value::from(true), Value::from("a"));
    assert!(half == 0.5f32);
    assert!(half == 0.5f64);
    assert!(yes == true);
    assert!(Value::string_name("a") == "a");
    let text = fast_var_codec_core::value::GodotString::from("a");
    assert!(a == text);
    assert!(text == a);
    let items = Value::from(vec![1, 2, 3]);
    assert_eq!(
        items
            .as_array()
            .map(|a| a.iter().filter(|x| *x == 2).count()),
        Some(1)
    );
}

#[test]
fn one_line_text_and_short_debug() {
    let v = Value::from_iter([("a", 1)]);
    assert_eq!(v.one_line().to_string(), r#"{"a": 1}"#);
    assert_eq!(format!("{v:?}"), r#"Dictionary {"a": Int(1)}"#);
    let typed = Value::typed_array_of(ContainerType::Builtin(VariantType::Int), [1]);
    assert_eq!(format!("{typed:?}"), "Array[int] [Int(1)]");
    assert_eq!(typed.one_line().to_string(), "Array[int]([1])");
    assert_eq!(
        format!("{:?}", Value::node_path("a/b:c")),
        r#"NodePath("a/b:c")"#
    );
    // Whatever the data, one line.
    let mut o = Object::new("Evil\nClass");
    o.set("x\ny", "a\r\nb");
    let v = Value::from_iter([
        (Value::from("k\n"), Value::from(o)),
        (1.into(), Value::ObjectId(5)),
        (2.into(), Value::from(Dictionary::new())),
    ]);
    let line = v.one_line().to_string();
    assert!(!line.contains(['\n', '\r']), "{line}");
    assert!(v.to_string().contains('\n'));
    assert_eq!(Value::from(Dictionary::new()).one_line().to_string(), "{}");
}

fn handler(bytes: &[u8]) -> io::Result<Value> {
    let (v, _) = decode(bytes, &Options::default())?;
    let _ = encode(&v, &Options::new(Dialect::Godot3))?;
    Ok(v)
}

#[test]
fn errors_convert_into_io_errors() {
    let e = handler(&[0xff, 0, 0, 0]).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    let codec = e
        .get_ref()
        .and_then(|e| e.downcast_ref::<fast_var_codec_core::CodecError>());
    assert!(codec.is_some());
    // Godot 3 has no Vector2i: an encode error.
    let e = handler(&[6, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    let file = || -> io::Result<Vec<u8>> {
        let key = fast_var_codec_core::save::FileKey::from_password("k");
        Ok(fast_var_codec_core::save::decrypt_godot3(b"nope", &key)?)
    };
    assert_eq!(file().unwrap_err().kind(), io::ErrorKind::InvalidData);
    let key = || -> io::Result<()> {
        fast_var_codec_core::save::FileKey::from_slice(&[0; 3])?;
        Ok(())
    };
    assert_eq!(key().unwrap_err().kind(), io::ErrorKind::InvalidInput);
    let records = || -> io::Result<usize> {
        let (_, values) =
            fast_var_codec_core::save::decode_records(&[8, 0, 0, 0], None, &Options::default())?;
        Ok(values.len())
    };
    assert_eq!(records().unwrap_err().kind(), io::ErrorKind::InvalidData);
    let type_name = || -> io::Result<VariantType> { Ok("Int".parse::<VariantType>()?) };
    assert_eq!(type_name().unwrap_err().kind(), io::ErrorKind::InvalidInput);
    let container = || -> io::Result<ContainerType> { Ok(ContainerType::from_name("str")?) };
    assert_eq!(container().unwrap_err().kind(), io::ErrorKind::InvalidInput);
}

#[cfg(feature = "serde")]
#[test]
fn serde_errors_convert_into_io_errors() {
    let typed = || -> io::Result<i64> {
        Ok(fast_var_codec_core::serde_format::from_bytes::<i64>(
            &[1, 0, 0, 0, 1, 0, 0, 0],
            &Options::default(),
        )?)
    };
    assert_eq!(typed().unwrap_err().kind(), io::ErrorKind::InvalidData);
    struct Broken;
    impl io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "gone"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let write = || -> io::Result<()> {
        fast_var_codec_core::serde_format::to_writer(Broken, &1i64, &Options::default())?;
        Ok(())
    };
    assert_eq!(
        write().unwrap_err().kind(),
        io::ErrorKind::BrokenPipe,
        "the writer's own error"
    );
}

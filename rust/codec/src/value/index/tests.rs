//! The index of a large Dictionary: lookups under Godot 4's key equality, the first of equal
//! keys, keys that equal nothing, every `&mut` method, and work linear in the entries. Nothing
//! here is timed: the key comparisons (`probes`) and the values digested (`work`) are counted.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;

use super::super::keys::{probes, work};
use super::{int_digest, text_digest, value_digest};
use crate::value::{Dictionary, GodotString};
use crate::Value;

fn sn(text: &str) -> Value {
    Value::string_name(text)
}

/// The comparisons and digests `f` makes.
fn counted(f: impl FnOnce()) -> u64 {
    let before = probes() + work();
    f();
    probes() + work() - before
}

/// A Dictionary of `n` String keys `k0`, `k1` … (values their number), built by inserts.
fn numbered(n: usize) -> Dictionary {
    let mut d = Dictionary::new();
    for i in 0..n {
        d.insert(format!("k{i}"), i as i64);
    }
    d
}

#[test]
fn work_per_entry_is_bounded_whatever_the_size() {
    let mut per_entry = Vec::new();
    for n in [1_000usize, 10_000, 100_000] {
        let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
        let mut d = Dictionary::new();
        let inserts = counted(|| {
            for (i, k) in keys.iter().enumerate() {
                d.insert(k.as_str(), i as i64);
            }
        });
        let gets = counted(|| {
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(d.get(k.as_str()), Some(&Value::Int(i as i64)));
            }
        });
        let again = counted(|| {
            for k in &keys {
                d.insert(sn(k), 0);
            }
        });
        assert_eq!(d.len(), n);
        let map: HashMap<String, i64> = keys.iter().cloned().zip(0..).collect();
        let from_map = counted(|| {
            assert_eq!(
                Value::from(map).as_dictionary().map(Dictionary::len),
                Some(n)
            )
        });
        let all = [inserts, gets, again, from_map];
        per_entry.push(all.map(|w| w as f64 / n as f64));
    }
    // A scan would make n/2 comparisons per lookup: 50,000 at 100k entries.
    for (n, w) in [1_000, 10_000, 100_000].iter().zip(&per_entry) {
        assert!(
            w.iter().all(|w| *w <= 4.0),
            "{n} entries: work per entry {w:?}"
        );
    }
    let (small, large) = (per_entry[0], per_entry[2]);
    for (s, l) in small.iter().zip(&large) {
        assert!(
            *l <= s * 1.5 + 0.1,
            "work per entry grew: {small:?} at 1k, {large:?} at 100k"
        );
    }
}

#[test]
fn lookup_digests_agree_with_the_keys_they_find() {
    let seed = RandomState::new();
    let text = |v: Value| value_digest(&v, &seed);
    assert_eq!(text_digest("hp", &seed), text(Value::from("hp")));
    assert_eq!(text_digest("hp", &seed), text(sn("hp")));
    let long = "a text longer than the twenty-four bytes held inline";
    assert_eq!(text_digest(long, &seed), text(Value::from(long)));
    assert_eq!(int_digest(-7, &seed), text(Value::Int(-7)));
    assert_ne!(int_digest(1, &seed), text(Value::Float(1.0)));
    assert_eq!(text(Value::Float(-0.0)), text(Value::Float(0.0)));
    assert_eq!(value_digest(&Value::ObjectId(3), &seed), None);
    assert_eq!(
        value_digest(&Value::array(vec![Value::Float(f64::NAN)]), &seed),
        None
    );
}

#[test]
fn string_and_string_name_are_one_key_through_the_index() {
    let mut d = numbered(100);
    d.insert(sn("hp"), 10);
    assert!(d.index.get().is_some());
    assert_eq!(d.get("hp"), Some(&Value::Int(10)));
    assert_eq!(d.get(String::from("hp")), Some(&Value::Int(10)));
    assert_eq!(d.get(GodotString::from("hp")), Some(&Value::Int(10)));
    assert_eq!(d.get(Value::from("hp")), Some(&Value::Int(10)));
    assert_eq!(d.insert("hp", 9), Some(Value::Int(10)));
    assert_eq!(d.len(), 101);
    assert_eq!(
        d.entries().last(),
        Some(&(sn("hp"), Value::Int(9))),
        "the first key stays"
    );
    assert_eq!(d.get(sn("k42")), Some(&Value::Int(42)));
    // Other kinds keep their types apart, and floats compare by value.
    d.insert(1, "int");
    d.insert(Value::Float(-0.0), "zero");
    d.insert(Value::Float(f64::NAN), "nan");
    assert_eq!(d.get(Value::Float(1.0)), None);
    assert_eq!(d.get(1i32), Some(&Value::from("int")));
    assert_eq!(d.get(Value::Float(0.0)), Some(&Value::from("zero")));
    assert_eq!(d.get(Value::Float(-f64::NAN)), Some(&Value::from("nan")));
    let key = Value::array(vec![Value::Int(1), Value::from("a")]);
    d.insert(key.clone(), "array");
    assert_eq!(d.get(&key), Some(&Value::from("array")));
    let inside = Value::array(vec![Value::Int(1), sn("a")]);
    assert_eq!(
        d.get(&inside),
        None,
        "inside a key, String and StringName differ"
    );
}

#[test]
fn the_first_of_equal_keys_is_found_as_a_scan_would() {
    for fillers in [0, 5, 40] {
        let mut entries: Vec<(Value, Value)> =
            (0..fillers).map(|i| (Value::Int(i), Value::Nil)).collect();
        entries.push((Value::from("hp"), Value::Int(1)));
        entries.push((sn("hp"), Value::Int(2)));
        entries.extend((0..fillers).map(|i| (Value::Int(-1 - i), Value::Nil)));
        let Value::Dictionary(mut d) = Value::dictionary(entries) else {
            unreachable!()
        };
        assert_eq!(d.get("hp"), Some(&Value::Int(1)), "{fillers}");
        assert_eq!(d.get(sn("hp")), Some(&Value::Int(1)), "{fillers}");
        assert_eq!(d.insert(sn("hp"), 3), Some(Value::Int(1)), "{fillers}");
        assert_eq!(d.len(), 2 * fillers as usize + 2);
        // Once the first is gone, the second is found.
        assert_eq!(d.remove("hp"), Some(Value::Int(3)));
        assert_eq!(d.get("hp"), Some(&Value::Int(2)), "{fillers}");
    }
}

#[test]
fn keys_that_equal_nothing_are_never_found() {
    let mut d = numbered(30);
    let nan_inside = Value::array(vec![Value::Float(f64::NAN)]);
    let object = Value::ObjectId(7);
    for key in [&nan_inside, &object] {
        assert_eq!(d.insert(key.clone(), 1), None);
        assert_eq!(
            d.insert(key.clone(), 2),
            None,
            "a second entry, as the engine keeps"
        );
        assert_eq!(d.get(key), None);
        assert!(!d.contains_key(key));
    }
    assert_eq!(d.len(), 34);
    assert_eq!(d.get("k29"), Some(&Value::Int(29)));
}

#[test]
fn remove_retain_and_insert_keep_lookups_right() {
    let mut d = numbered(200);
    assert_eq!(d.get("k0"), Some(&Value::Int(0)));
    for i in (0..200).step_by(3) {
        assert_eq!(d.remove(format!("k{i}").as_str()), Some(Value::Int(i)));
    }
    d.retain(|k, v| {
        *v = Value::Int(v.as_i64().unwrap_or(0) * 10);
        !k.as_str().is_some_and(|k| k.ends_with('5'))
    });
    d.insert("new", -1);
    d.insert("k3", 33); // removed above: goes last
    for i in 0..200i64 {
        let expected = if i == 3 {
            Some(Value::Int(33))
        } else if i % 3 == 0 || i % 10 == 5 {
            None
        } else {
            Some(Value::Int(i * 10))
        };
        assert_eq!(d.get(format!("k{i}").as_str()).cloned(), expected, "k{i}");
    }
    assert_eq!(
        d.entries().last(),
        Some(&(Value::from("k3"), Value::Int(33)))
    );
    assert_eq!(d.get("new"), Some(&Value::Int(-1)));
    // Values changed in place leave the keys, and so the index, as they are.
    d.values_mut().for_each(|v| *v = Value::Nil);
    for (_, v) in d.iter_mut() {
        *v = Value::Bool(true);
    }
    assert_eq!(d.get("k1"), Some(&Value::Bool(true)));
}

#[test]
fn a_dictionary_indexes_its_keys_past_16_entries() {
    let mut d = Dictionary::new();
    for i in 0..40i64 {
        assert_eq!(d.insert(format!("k{i}"), i), None);
        assert_eq!(d.insert(sn(&format!("k{i}")), i), Some(Value::Int(i)));
        assert_eq!(d.len() as i64, i + 1);
        assert_eq!(d.index.get().is_some(), d.len() > 16, "{} entries", d.len());
        for j in 0..=i {
            assert_eq!(d.get(format!("k{j}").as_str()), Some(&Value::Int(j)));
        }
        assert_eq!(d.get("k40"), None);
        assert_eq!(d.index.get().is_some(), d.len() > 16, "{} entries", d.len());
    }
    // Built by a lookup only, not by a decode nor by `Value::dictionary`.
    let v = Value::dictionary((0..40).map(|i| (Value::Int(i), Value::Nil)).collect());
    let opts = crate::Options::default();
    let bytes = crate::encode(&v, &opts).unwrap_or_default();
    for v in [
        v,
        crate::decode(&bytes, &opts)
            .map(|(v, _)| v)
            .unwrap_or_default(),
    ] {
        let Value::Dictionary(d) = v else {
            panic!("not a Dictionary")
        };
        assert!(d.index.get().is_none());
        assert_eq!(d.get(39), Some(&Value::Nil));
        assert!(d.index.get().is_some());
    }
}

#[test]
fn clone_eq_and_debug_leave_the_index_out() {
    let d = numbered(20);
    assert_eq!(d.get("k3"), Some(&Value::Int(3)));
    let mut copy = d.clone();
    assert!(copy.index.get().is_none());
    assert_eq!(copy, d);
    assert_eq!(numbered(20), d, "one indexed, one not: equal");
    copy.insert("k3", 4);
    assert_ne!(copy, d);
    assert_eq!(copy.get("k3"), Some(&Value::Int(4)));
    let small = Dictionary::from_iter([("a", 1)]);
    assert_eq!(format!("{small:?}"), r#"Dictionary {"a": Int(1)}"#);
    let mut typed = Dictionary::typed(
        crate::value::ContainerType::Builtin(crate::value::VariantType::String),
        crate::value::ContainerType::Untyped,
    );
    typed.insert("a", 1);
    assert_eq!(
        format!("{typed:?}"),
        r#"Dictionary[String, Variant] {"a": Int(1)}"#
    );
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Dictionary>();
    send_sync::<Value>();
}

//! The optional serde format (`--features serde`): derive round trips in the Godot 4 and Godot 3
//! dialects, engine bytes from the golden corpora, errors that name the field and its offset.
#![cfg(feature = "serde")]

mod corpus;

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use fast_var_codec_core::serde_format::{
    from_bytes, from_reader, from_value, to_bytes, to_value, to_writer, Error,
};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use serde::{Deserialize, Serialize};

type Json = serde_json::Value;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// `bytes` of every case and malformed input of a golden corpus, by name. The corpora hold 1025-level values:
/// parsed (and dropped) on a thread with a large stack.
fn corpus(file: &'static str) -> HashMap<String, Vec<u8>> {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let path = corpus::golden_dir().join(file);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            let json: Json = Deserialize::deserialize(&mut de).expect("golden json");
            let mut out = HashMap::new();
            let cases = json["cases"].as_array().expect("cases");
            // Crafted inputs and what the engine made of them (a value or a refusal).
            let malformed = json["malformed"].as_array().expect("malformed");
            for case in cases.iter().chain(malformed) {
                if let (Some(name), Some(bytes)) = (case["name"].as_str(), case["bytes"].as_str()) {
                    out.insert(name.to_owned(), hex(bytes));
                }
            }
            out
        })
        .expect("spawn")
        .join()
        .expect("corpus thread")
}

fn engine_bytes(dialect: Dialect, name: &str) -> Vec<u8> {
    static G4: OnceLock<HashMap<String, Vec<u8>>> = OnceLock::new();
    static G3: OnceLock<HashMap<String, Vec<u8>>> = OnceLock::new();
    let map = match dialect {
        Dialect::Godot3 => G3.get_or_init(|| corpus("godot3_6_2.json")),
        _ => G4.get_or_init(|| corpus("godot4_6_3.json")),
    };
    map.get(name)
        .unwrap_or_else(|| panic!("no case {name} in the {dialect:?} corpus"))
        .clone()
}

/// `value` encodes to exactly the engine's bytes for `case`, and those bytes decode to `value`.
fn check_engine<T>(dialect: Dialect, case: &str, value: &T)
where
    T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let opts = Options::new(dialect);
    let engine = engine_bytes(dialect, case);
    let ours = to_bytes(value, &opts).unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_eq!(
        ours, engine,
        "{dialect:?} {case}: to_bytes differs from the engine's bytes"
    );
    let back: T = from_bytes(&engine, &opts).unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_eq!(
        &back, value,
        "{dialect:?} {case}: from_bytes of the engine's bytes"
    );
}

mod bytes_field {
    //! A byte buffer as `serialize_bytes` (what `serde_bytes` does).
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(b)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
        }
        d.deserialize_byte_buf(V)
    }
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Kind {
    Plain,
    Count(u32),
    Pair(i8, String),
    Named { x: i32, tag: Option<String> },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Item {
    name: String,
    count: u16,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Unit;

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Meters(f64);

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Save {
    name: String,
    level: u8,
    gold: i64,
    speed: f32,
    ratio: f64,
    alive: bool,
    initial: char,
    nickname: Option<String>,
    pet: Option<String>,
    items: Vec<Item>,
    by_name: BTreeMap<String, u32>,
    flags: HashMap<String, bool>,
    by_id: BTreeMap<i32, String>,
    kinds: Vec<Kind>,
    pair: (u8, String, Option<bool>),
    #[serde(with = "bytes_field")]
    blob: Vec<u8>,
    position: Value,
    path: Value,
    unit: (),
    marker: Unit,
    height: Meters,
    nested: Option<Box<Save>>,
}

fn sample() -> Save {
    let inner = Save {
        name: "inner".into(),
        level: 1,
        gold: -1,
        speed: 0.0,
        ratio: -0.0,
        alive: false,
        initial: 'é',
        nickname: None,
        pet: None,
        items: vec![],
        by_name: BTreeMap::new(),
        flags: HashMap::new(),
        by_id: BTreeMap::new(),
        kinds: vec![],
        pair: (0, String::new(), None),
        blob: vec![],
        position: Value::Nil,
        path: Value::PackedVector3Array(vec![[1.0, 2.0, 3.0], [0.5, -0.5, 4.0]]),
        unit: (),
        marker: Unit,
        height: Meters(0.0),
        nested: None,
    };
    Save {
        name: "ada".into(),
        level: 200,
        gold: 1 << 40,
        speed: 1.5,
        ratio: 0.1,
        alive: true,
        initial: '日',
        nickname: Some("countess".into()),
        pet: None,
        items: vec![
            Item {
                name: "key".into(),
                count: 1,
            },
            Item {
                name: "coin".into(),
                count: 65535,
            },
        ],
        by_name: [("a".to_owned(), 1), ("b".to_owned(), 2)].into(),
        flags: [("door".to_owned(), true)].into(),
        by_id: [(7, "seven".to_owned()), (-1, "minus".to_owned())].into(),
        kinds: vec![
            Kind::Plain,
            Kind::Count(3),
            Kind::Pair(-2, "p".into()),
            Kind::Named {
                x: 9,
                tag: Some("t".into()),
            },
        ],
        pair: (5, "five".into(), Some(true)),
        blob: vec![0, 1, 254, 255, 7],
        position: Value::Vector3([1.0, 2.0, 0.25]),
        path: Value::Color([1.0, 0.5, 0.25, 1.0]),
        unit: (),
        marker: Unit,
        height: Meters(1.75),
        nested: Some(Box::new(inner)),
    }
}

#[test]
fn derive_round_trips_in_every_dialect() {
    let save = sample();
    for dialect in [Dialect::Godot4, Dialect::Godot4_3, Dialect::Godot3] {
        let opts = Options::new(dialect);
        let bytes = to_bytes(&save, &opts).expect("to_bytes");
        // The bytes are what the core's own decoder reads as the same Value.
        let (decoded, used) = decode(&bytes, &opts).expect("decode");
        assert_eq!(used, bytes.len());
        assert_eq!(decoded, to_value(&save).expect("to_value"), "{dialect:?}");
        let back: Save = from_bytes(&bytes, &opts).expect("from_bytes");
        assert_eq!(back, save, "{dialect:?}");
        let mut written = Vec::new();
        to_writer(&mut written, &save, &opts).expect("to_writer");
        assert_eq!(written, bytes);
        let read: Save = from_reader(written.as_slice(), &opts).expect("from_reader");
        assert_eq!(read, save);
    }
}

#[test]
fn values_follow_the_documented_mapping() {
    let v = to_value(&sample()).expect("to_value");
    let Value::Dictionary(d) = &v else {
        panic!("a struct is a Dictionary: {v:?}")
    };
    let keys: Vec<_> = d.entries().iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys.first(), Some(&Value::String("name".into())));
    assert_eq!(keys.len(), 22, "every field, in declaration order");
    let field = |name: &str| {
        d.entries()
            .iter()
            .find(|(k, _)| *k == Value::String(name.into()))
            .map(|(_, v)| v.clone())
            .expect(name)
    };
    assert_eq!(field("level"), Value::Int(200));
    assert_eq!(field("speed"), Value::Float(1.5));
    assert_eq!(field("initial"), Value::String("日".into()));
    assert_eq!(field("pet"), Value::Nil);
    assert_eq!(field("unit"), Value::Nil);
    assert_eq!(field("marker"), Value::Nil);
    assert_eq!(field("height"), Value::Float(1.75));
    assert_eq!(
        field("blob"),
        Value::PackedByteArray(vec![0, 1, 254, 255, 7])
    );
    assert_eq!(field("position"), Value::Vector3([1.0, 2.0, 0.25]));
    assert_eq!(
        field("pair"),
        Value::array(vec![
            Value::Int(5),
            Value::String("five".into()),
            Value::Bool(true)
        ])
    );
    assert_eq!(
        field("by_id"),
        Value::dictionary(vec![
            (Value::Int(-1), Value::String("minus".into())),
            (Value::Int(7), Value::String("seven".into())),
        ])
    );
    let s = |x: &str| Value::String(x.into());
    assert_eq!(
        field("kinds"),
        Value::array(vec![
            s("Plain"),
            Value::dictionary(vec![(s("Count"), Value::Int(3))]),
            Value::dictionary(vec![(
                s("Pair"),
                Value::array(vec![Value::Int(-2), s("p")])
            )]),
            Value::dictionary(vec![(
                s("Named"),
                Value::dictionary(vec![(s("x"), Value::Int(9)), (s("tag"), s("t"))])
            )]),
        ])
    );
    // And back from the Value.
    assert_eq!(from_value::<Save>(v).expect("from_value"), sample());
}

#[test]
fn integers_outside_i64_are_refused() {
    assert!(to_value(&u64::MAX).is_err());
    assert_eq!(
        to_value(&(i64::MAX as u64)).expect("fits"),
        Value::Int(i64::MAX)
    );
    assert!(to_value(&(i128::from(i64::MIN) - 1)).is_err());
    let e = to_value(&Item {
        name: "x".into(),
        count: 1,
    });
    assert!(e.is_ok());
    #[derive(Serialize)]
    struct Big {
        inner: Vec<u64>,
    }
    let e = to_value(&Big {
        inner: vec![1, u64::MAX],
    })
    .expect_err("u64::MAX");
    assert_eq!(e.path(), "inner[1]");
    assert!(e.to_string().contains("inner[1]"), "{e}");
}

/// A `Serialize` that declares more fields or elements than it writes: the count already
/// written into the head would be wrong, so the serializer refuses instead of leaving bytes
/// the engine would misread.
struct Miscounted {
    seq: bool,
}

impl Serialize for Miscounted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeSeq, SerializeStruct};
        if self.seq {
            let mut q = s.serialize_seq(Some(3))?;
            q.serialize_element(&1)?;
            q.end()
        } else {
            let mut f = s.serialize_struct("Miscounted", 2)?;
            f.serialize_field("only", &1)?;
            f.end()
        }
    }
}

#[test]
fn miscounted_containers_are_refused() {
    let opts = Options::default();
    let e = to_bytes(&Miscounted { seq: false }, &opts).expect_err("1 of 2 fields");
    assert_eq!(e.to_string(), "serialized 1 entries where 2 were declared");
    let e = to_bytes(&vec![Miscounted { seq: true }], &opts).expect_err("1 of 3 elements");
    assert_eq!(e.path(), "[0]");
    assert!(
        e.to_string()
            .ends_with("serialized 1 elements where 3 were declared"),
        "{e}"
    );
}

/// An `f32` is written as the engine writes the same float: binary32, which holds it exactly,
/// and NaN as binary64 (the engine's own test of a double against its `(float)`).
#[test]
fn f32_values_as_the_engine_writes_them() {
    let g = Dialect::Godot4;
    for (case, v) in [
        ("float/neg0", -0.0f32),
        ("float/inf", f32::INFINITY),
        ("float/minf", f32::NEG_INFINITY),
        ("float/flt_max", f32::MAX),
        ("float/m_flt_max", f32::MIN),
        ("float/f32_min_normal", f32::MIN_POSITIVE),
        ("float/f32_min_subnormal", f32::from_bits(1)),
    ] {
        check_engine(g, case, &v);
    }
    let opts = Options::new(g);
    for (case, v) in [("float/nan", f32::NAN), ("float/nan_neg", -f32::NAN)] {
        let ours = to_bytes(&v, &opts).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(
            ours,
            engine_bytes(g, case),
            "{case}: to_bytes differs from the engine's"
        );
        let back: f32 = from_bytes(&ours, &opts).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(back.to_bits(), v.to_bits(), "{case}: read back");
    }
}

#[test]
fn godot4_engine_bytes() {
    let g = Dialect::Godot4;
    check_engine(g, "int/1", &1u8);
    check_engine(g, "int/m1", &-1i32);
    check_engine(g, "int/max32", &i32::MAX);
    check_engine(g, "int/max32p1", &2_147_483_648u32);
    check_engine(g, "int/min64", &i64::MIN);
    check_engine(g, "int/max64", &i64::MAX);
    check_engine(g, "float/1", &1.0f64);
    check_engine(g, "float/1", &1.0f32);
    check_engine(g, "float/0.1", &0.1f64);
    check_engine(g, "float/third", &(1.0f64 / 3.0));
    check_engine(g, "float/neg0", &-0.0f64);
    check_engine(g, "string/nihon", &"日本".to_owned());
    check_engine(g, "string/ascii_len0", &String::new());
    check_engine(g, "dictionary/empty", &HashMap::<String, i32>::new());
    check_engine(
        g,
        "dictionary/a_1",
        &BTreeMap::from([("a".to_owned(), 1i64)]),
    );
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct A {
        a: i32,
    }
    check_engine(g, "dictionary/a_1", &A { a: 1 });
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct X {
        x: Option<i32>,
    }
    check_engine(g, "dictionary/nil_value", &X { x: None });
    check_engine(g, "array/empty", &Vec::<i32>::new());
    check_engine(g, "array/1_a", &(1i32, "a".to_owned()));
    check_engine(g, "array/full", &(1u8, vec![2u8]));
    check_engine(g, "array/nils", &vec![None::<i32>; 3]);
    check_engine(g, "array/nils", &((), (), ()));
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Tree {
        Leaf(i32),
        Node(Vec<Tree>),
    }
    use Tree::{Leaf, Node};
    check_engine(
        g,
        "array/nested",
        &Node(vec![
            Node(vec![]),
            Node(vec![Node(vec![])]),
            Node(vec![Leaf(1), Node(vec![Leaf(2), Node(vec![Leaf(3)])])]),
        ]),
    );
    // A Dictionary with an int key: a map of Values.
    check_engine(
        g,
        "dictionary/full",
        &OrderedMap(vec![
            (Value::String("a".into()), Value::Int(1)),
            (Value::Int(2), Value::array(vec![Value::Int(3)])),
        ]),
    );
}

/// A map that keeps its entries in insertion order (for engine Dictionaries with mixed keys).
#[derive(PartialEq, Debug)]
struct OrderedMap(Vec<(Value, Value)>);

impl Serialize for OrderedMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for OrderedMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedMap;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<OrderedMap, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry::<Value, Value>()? {
                    out.push(entry);
                }
                Ok(OrderedMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[test]
fn godot3_engine_bytes() {
    let g = Dialect::Godot3;
    check_engine(g, "int/min32-1", &-2_147_483_649i64);
    check_engine(g, "float/-1.5", &-1.5f64);
    check_engine(g, "float/0.1", &0.1f64);
    check_engine(
        g,
        "dictionary/a_1",
        &BTreeMap::from([("a".to_owned(), 1u32)]),
    );
    check_engine(g, "array/1_a", &(1i32, "a".to_owned()));
    check_engine(
        g,
        "array/ints",
        &vec![
            0i64,
            -1,
            2_147_483_647,
            2_147_483_648,
            -2_147_483_649,
            i64::MIN,
        ],
    );
    check_engine(
        g,
        "array/strings",
        &["", "a", "ab", "abc", "abcd", "é"]
            .map(String::from)
            .to_vec(),
    );
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Empty {}
    check_engine(
        g,
        "array/of_empty",
        &(Vec::<u8>::new(), Empty {}, String::new(), Bytes(vec![])),
    );
    check_engine(
        g,
        "array/nested",
        &(vec![1u8], (2u8, (3u8, vec![4u8])), Vec::<u8>::new()),
    );
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Ordered {
        z: i32,
        a: i32,
        m: i32,
    }
    // The engine's insertion order is the struct's declaration order.
    let opts = Options::new(g);
    let ours = to_bytes(&Ordered { z: 1, a: 2, m: 3 }, &opts).expect("to_bytes");
    let engine = engine_bytes(g, "dictionary/insertion_order");
    assert_eq!(ours[8..], engine[8..ours.len()], "the first three entries");
    // The engine's Dictionary has two more (int) keys: ignored by the struct.
    let read: Ordered = from_bytes(&engine, &opts).expect("from_bytes");
    assert_eq!(read, Ordered { z: 1, a: 2, m: 3 });
    // Refused by deny_unknown_fields, the int key named by its digits.
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        z: i32,
        a: i32,
        m: i32,
    }
    let e = from_bytes::<Strict>(&engine, &opts).expect_err("int keys");
    assert!(e.to_string().contains("unknown field `0`"), "{e}");
    assert_eq!(e.offset(), Some(0));
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Bytes(#[serde(with = "bytes_field")] Vec<u8>);

#[test]
fn unknown_fields_are_ignored_unless_denied() {
    let opts = Options::default();
    let bytes = to_bytes(
        &BTreeMap::from([
            ("name".to_owned(), Value::String("key".into())),
            ("count".to_owned(), Value::Int(2)),
            ("extra".to_owned(), Value::Vector2([1.0, 2.0])),
        ]),
        &opts,
    )
    .expect("to_bytes");
    let item: Item = from_bytes(&bytes, &opts).expect("extra ignored");
    assert_eq!(item.count, 2);

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        name: String,
        count: u16,
    }
    let e = from_bytes::<Strict>(&bytes, &opts).expect_err("denied");
    assert!(e.to_string().contains("unknown field `extra`"), "{e}");
}

#[test]
fn missing_fields_error_unless_defaulted() {
    let opts = Options::default();
    #[derive(Serialize)]
    struct Outer {
        items: Vec<BTreeMap<String, String>>,
    }
    let bytes = to_bytes(
        &Outer {
            items: vec![
                BTreeMap::from([("name".into(), "a".into())]),
                BTreeMap::from([("name".into(), "b".into())]),
            ],
        },
        &opts,
    )
    .expect("to_bytes");

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Want {
        items: Vec<Item>,
    }
    let e = from_bytes::<Want>(&bytes, &opts).expect_err("count is missing");
    assert_eq!(e.path(), "items[0]");
    let text = e.to_string();
    assert!(text.contains("missing field `count`"), "{text}");
    assert!(text.starts_with("items[0]: "), "{text}");
    // The offset of the Dictionary items[0]: after the outer header (4), its count (4), the
    // key "items" (4 + 4 + 8) and the Array's header and count (8).
    assert_eq!(e.offset(), Some(32), "{text}");
    assert!(text.ends_with("(value at byte 32)"), "{text}");

    #[derive(Deserialize, Debug, PartialEq)]
    struct Lenient {
        name: String,
        #[serde(default)]
        count: u16,
    }
    #[derive(Deserialize, Debug)]
    struct WantLenient {
        items: Vec<Lenient>,
    }
    let ok: WantLenient = from_bytes(&bytes, &opts).expect("defaulted");
    assert_eq!(ok.items.len(), 2);
    assert_eq!(
        ok.items[1],
        Lenient {
            name: "b".into(),
            count: 0
        }
    );
}

#[test]
fn wrong_types_name_the_field_path_and_offset() {
    let opts = Options::new(Dialect::Godot3);
    let value = Value::dictionary(vec![(
        Value::String("items".into()),
        Value::array(vec![
            Value::dictionary(vec![
                (Value::String("name".into()), Value::String("a".into())),
                (Value::String("count".into()), Value::Int(1)),
            ]),
            Value::dictionary(vec![
                (Value::String("name".into()), Value::String("b".into())),
                (Value::String("count".into()), Value::String("many".into())),
            ]),
        ]),
    )]);
    let bytes = encode(&value, &opts).expect("encode");
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Want {
        items: Vec<Item>,
    }
    let e: Error = from_bytes::<Want>(&bytes, &opts).expect_err("a string is no u16");
    assert_eq!(e.path(), "items[1].count");
    let text = e.to_string();
    assert!(
        text.starts_with("items[1].count: invalid type: string \"many\""),
        "{text}"
    );
    // Where "many" is in the bytes: its header.
    let offset = e.offset().expect("offset");
    assert_eq!(offset, 136, "{text}");
    assert!(text.ends_with("expected u16 (value at byte 136)"), "{text}");
    assert_eq!(
        &bytes[offset..offset + 12],
        &[4, 0, 0, 0, 4, 0, 0, 0, b'm', b'a', b'n', b'y']
    );

    // From a Value: the same path, no offset.
    let e = from_value::<Want>(value).expect_err("a string is no u16");
    assert_eq!(e.path(), "items[1].count");
    assert_eq!(e.offset(), None);

    // Inside an enum's content.
    let e = from_value::<Kind>(Value::dictionary(vec![(
        Value::String("Named".into()),
        Value::dictionary(vec![(Value::String("x".into()), Value::Bool(true))]),
    )]))
    .expect_err("a bool is no i32");
    assert_eq!(e.path(), "Named.x");
    let e = from_value::<Kind>(Value::String("Nope".into())).expect_err("no such variant");
    assert!(e.to_string().contains("unknown variant `Nope`"), "{e}");
}

#[test]
fn decode_errors_keep_the_codecs_offset() {
    let opts = Options::default();
    let e = from_bytes::<i32>(&[2, 0, 0], &opts).expect_err("truncated");
    assert!(e.codec_error().is_some());
    assert_eq!(e.offset(), Some(0));
}

/// Every value the engines wrote (typed Arrays and Dictionaries, objects, deep nesting
/// included) reads through serde as `decode` reads it: into a `Value`, the same value or the
/// same refusal; read and dropped (`IgnoredAny`), success exactly where `decode` succeeds.
#[test]
fn engine_values_read_through_serde_as_decode_reads_them() {
    use serde::de::IgnoredAny;
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            for (dialect, file) in [
                (Dialect::Godot4, "godot4_6_3.json"),
                (Dialect::Godot3, "godot3_6_2.json"),
            ] {
                let opts = Options::new(dialect);
                let cases = corpus(file);
                assert!(cases.len() > 100, "{file}: {} cases", cases.len());
                for (name, bytes) in &cases {
                    let decoded = decode(bytes, &opts).map(|(v, _)| v).ok();
                    let read = from_bytes::<Value>(bytes, &opts).ok();
                    assert_eq!(read, decoded, "{file} {name}");
                    let ignored = from_bytes::<IgnoredAny>(bytes, &opts).is_ok();
                    assert_eq!(ignored, decoded.is_some(), "{file} {name}");
                }
            }
        })
        .expect("spawn")
        .join()
        .expect("corpus thread");
}

/// An `f32` read from the engine's floats holds what the engine's `(float)` of the double it
/// reads would: binary32 payloads exactly (a signalling NaN quiet), binary64 ones rounded.
#[test]
fn engine_floats_read_into_f32_as_the_engine_narrows_them() {
    use fast_var_codec_core::real::narrow_as_engine;
    let opts = Options::default();
    let cases = corpus("godot4_6_3.json");
    let mut checked = 0;
    for (name, bytes) in &cases {
        if !(name.starts_with("float/") || name.starts_with("craft/float_")) {
            continue;
        }
        let Ok((Value::Float(held), _)) = decode(bytes, &opts) else {
            continue;
        };
        let read: f32 = from_bytes(bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            read.to_bits(),
            narrow_as_engine(held).to_bits(),
            "{name}: {read} from {held}"
        );
        checked += 1;
    }
    assert!(checked > 40, "{checked} float cases");
}

#[test]
fn values_pass_through_exactly() {
    let values = vec![
        Value::Vector2i([1, -2]),
        Value::Transform3D(Box::new([
            1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 4.0, 5.0, 6.0,
        ])),
        Value::StringName("sn".into()),
        Value::PackedInt32Array(vec![1, 2]),
        Value::PackedStringArray(vec!["a".into()]),
        Value::Float(f64::from_bits(0x7ff8_0000_0000_0123)),
    ];
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Holder {
        values: Vec<Value>,
        one: Option<Value>,
    }
    let h = Holder {
        values: values.clone(),
        one: Some(Value::Rid(5)),
    };
    let v = to_value(&h).expect("to_value");
    assert_eq!(
        v,
        Value::dictionary(vec![
            (Value::String("values".into()), Value::array(values)),
            (Value::String("one".into()), Value::Rid(5)),
        ])
    );
    let opts = Options::default();
    let back: Holder = from_bytes(&to_bytes(&h, &opts).expect("to_bytes"), &opts).expect("back");
    assert_eq!(back, h);
    assert_eq!(to_value(&Value::Int(3)).expect("top"), Value::Int(3));
    assert_eq!(
        from_value::<Value>(Value::Callable).expect("top"),
        Value::Callable
    );

    // Math types and packed arrays also read as plain sequences.
    let p: [f64; 3] = from_value(Value::Vector3([1.0, 2.0, 3.0])).expect("vector");
    assert_eq!(p, [1.0, 2.0, 3.0]);
    let rows: Vec<[f32; 2]> =
        from_value(Value::PackedVector2Array(vec![[1.0, 2.0]])).expect("rows");
    assert_eq!(rows, vec![[1.0, 2.0]]);
    let b: Vec<u8> = from_value(Value::PackedByteArray(vec![1, 2])).expect("bytes");
    assert_eq!(b, vec![1, 2]);
}

#[test]
fn values_in_other_formats_are_plain_data() {
    let v = Value::dictionary(vec![
        (Value::String("p".into()), Value::Vector2([1.0, 2.5])),
        (Value::String("n".into()), Value::Nil),
        (
            Value::String("a".into()),
            Value::array(vec![Value::Int(1), Value::String("x".into())]),
        ),
    ]);
    let json = serde_json::to_string(&v).expect("json");
    assert_eq!(json, r#"{"p":[1.0,2.5],"n":null,"a":[1,"x"]}"#);
    let back: Value = serde_json::from_str(&json).expect("from json");
    assert_eq!(
        back,
        Value::dictionary(vec![
            (
                Value::String("p".into()),
                Value::array(vec![Value::Float(1.0), Value::Float(2.5)])
            ),
            (Value::String("n".into()), Value::Nil),
            (
                Value::String("a".into()),
                Value::array(vec![Value::Int(1), Value::String("x".into())])
            ),
        ])
    );
}

/// Text borrows from the input where the bytes are the text; Godot 3's lenient decoder makes a
/// lone surrogate U+FFFD, which only an owned string can take.
#[test]
fn borrowed_text_where_the_bytes_are_the_text() {
    // A String of 5 bytes: "a", a lone surrogate (ED A0 80), "b"; padded to 8.
    let mut bytes = vec![4, 0, 0, 0, 5, 0, 0, 0];
    bytes.extend_from_slice(&[b'a', 0xED, 0xA0, 0x80, b'b', 0, 0, 0]);
    let g3 = Options::new(Dialect::Godot3);
    let owned: String = from_bytes(&bytes, &g3).expect("Godot 3 reads it");
    assert_eq!(owned, "a\u{FFFD}b");
    let err = from_bytes::<&str>(&bytes, &g3).expect_err("not borrowable");
    assert!(err.to_string().contains("borrowed string"), "{err}");
    // Godot 4 refuses the bytes outright, as its engine does.
    assert!(from_bytes::<String>(&bytes, &Options::new(Dialect::Godot4)).is_err());
    // Valid text borrows in both dialects, and a PackedByteArray's bytes borrow too.
    let text = [4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0];
    for opts in [g3, Options::new(Dialect::Godot4)] {
        assert_eq!(from_bytes::<&str>(&text, &opts).expect("borrowed"), "hi");
    }
    let pba = [29, 0, 0, 0, 3, 0, 0, 0, 7, 8, 9, 0];
    let got: &[u8] = from_bytes(&pba, &Options::new(Dialect::Godot4)).expect("borrowed bytes");
    assert_eq!(got, [7, 8, 9]);
}

/// serde's `flatten` and `untagged` (and internally tagged enums) read a value through serde's
/// own buffer, which knows plain data only: a `Value` read there comes back as the plain data of
/// the Godot value (a Color as an Array of its four components), while writing keeps it. The
/// module documentation and docs/rust.md show this limit and the ways around it, each checked
/// here: a nested field, and an externally or adjacently tagged enum, keep the Godot type.
mod buffered_by_serde {
    use super::*;

    fn color() -> Value {
        Value::color(1.0, 0.5, 0.0, 1.0)
    }

    /// The Color as serde's buffer hands it on: its components, as an untyped Array.
    fn components() -> Value {
        Value::array(vec![
            Value::Float(1.0),
            Value::Float(0.5),
            Value::Float(0.0),
            Value::Float(1.0),
        ])
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Style {
        tint: Value,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Flattened {
        name: String,
        #[serde(flatten)]
        style: Style,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Nested {
        name: String,
        style: Style,
    }

    #[test]
    fn flatten_writes_the_godot_type_and_reads_back_its_plain_data() {
        let opts = Options::new(Dialect::Godot4);
        let v = Flattened {
            name: "lamp".into(),
            style: Style { tint: color() },
        };
        let bytes = to_bytes(&v, &opts).expect("to_bytes");
        // Written: one Dictionary holding the Color itself, as the engine reads it.
        let (decoded, _) = decode(&bytes, &opts).expect("decode");
        assert_eq!(decoded["tint"], color());
        // Read through serde's buffer: the Color's components.
        let back: Flattened = from_bytes(&bytes, &opts).expect("from_bytes");
        assert_eq!(back.style.tint, components());
        // The same through a Value (`from_value` buffers as serde does).
        let back: Flattened = from_value(decoded).expect("from_value");
        assert_eq!(back.style.tint, components());
    }

    #[test]
    fn a_nested_field_keeps_the_godot_type() {
        let opts = Options::new(Dialect::Godot4);
        let v = Nested {
            name: "lamp".into(),
            style: Style { tint: color() },
        };
        let bytes = to_bytes(&v, &opts).expect("to_bytes");
        assert_eq!(from_bytes::<Nested>(&bytes, &opts).expect("from_bytes"), v);
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Untagged {
        Paint { tint: Value },
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum External {
        Paint { tint: Value },
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(tag = "kind", content = "data")]
    enum Adjacent {
        Paint { tint: Value },
    }

    #[test]
    fn untagged_reads_plain_data_and_tagged_enums_keep_the_godot_type() {
        let opts = Options::new(Dialect::Godot4);
        let bytes = to_bytes(&Untagged::Paint { tint: color() }, &opts).expect("to_bytes");
        assert_eq!(decode(&bytes, &opts).expect("decode").0["tint"], color());
        let Untagged::Paint { tint } = from_bytes(&bytes, &opts).expect("from_bytes");
        assert_eq!(tint, components());

        let external = External::Paint { tint: color() };
        let bytes = to_bytes(&external, &opts).expect("to_bytes");
        assert_eq!(
            from_bytes::<External>(&bytes, &opts).expect("from_bytes"),
            external
        );

        // Adjacently tagged: the tag written first, so the content is read straight.
        let adjacent = Adjacent::Paint { tint: color() };
        let bytes = to_bytes(&adjacent, &opts).expect("to_bytes");
        assert_eq!(
            from_bytes::<Adjacent>(&bytes, &opts).expect("from_bytes"),
            adjacent
        );
    }
}

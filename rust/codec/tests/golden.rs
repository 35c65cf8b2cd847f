//! Checks the codec against bytes made by real engines (tests/golden/*.json, see FORMAT.md):
//! encode(value) == engine bytes, decode(engine bytes) == engine's decoded value with the same
//! size, and the same verdict, error code and size on malformed input. Under
//! `FVC_CORPUS_STRIDE=N` (the arm64 run) every Nth input, and every one a known divergence
//! names.

mod common;
mod corpus;

use fast_var_codec_core::options::Precision;
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::value::write_value;
use fast_var_codec_core::value::{ContainerType, NodePath, ValueBuilder, VariantType};
use fast_var_codec_core::writer::Writer;
use fast_var_codec_core::{encode, encoded_size, Dialect, Options, Value};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

thread_local! {
    /// Set when a described text held code points a Rust string cannot (Godot 3 lets lone
    /// surrogates through): such a value cannot be rebuilt exactly, only as its decoding.
    static INEXACT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Set while reading a corpus written by a `precision=double` engine, whose packed vector
    /// arrays hold binary64 components (`real_t`), not binary32.
    static DOUBLE_REALS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Text from its UTF-8 hex. Code points that are not Unicode scalars (surrogates written by
/// Godot 3) become U+FFFD, the documented decoding of such input, and mark the value inexact.
fn text(j: &Json) -> String {
    let bytes = hex(j.as_str().expect("U string"));
    if let Ok(s) = String::from_utf8(bytes.clone()) {
        return s;
    }
    INEXACT.with(|f| f.set(true));
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        let len = match lead {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            0xF8..=0xFB => 5,
            _ => 6,
        };
        let mut cp = if len == 1 {
            u32::from(lead)
        } else {
            u32::from(lead) & (0xFF >> (len + 1))
        };
        for b in &bytes[i + 1..i + len] {
            cp = (cp << 6) | u32::from(b & 0x3F);
        }
        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        i += len;
    }
    out
}

fn f64_of(j: &Json) -> f64 {
    let b = hex(j.as_str().expect("F string"));
    f64::from_le_bytes(b.try_into().expect("8 bytes"))
}

fn int_of(j: &Json) -> i64 {
    match j {
        Json::String(s) => s.parse().expect("int string"),
        Json::Number(n) => n.as_i64().expect("int"),
        _ => panic!("not an int: {j}"),
    }
}

fn u64_of(j: &Json) -> u64 {
    match j {
        Json::String(s) => s
            .parse::<u64>()
            .or_else(|_| s.parse::<i64>().map(|i| i as u64))
            .expect("u64 string"),
        _ => int_of(j) as u64,
    }
}

fn reals<const N: usize>(j: &Json) -> [f64; N] {
    let v: Vec<f64> = j["v"].as_array().expect("v").iter().map(f64_of).collect();
    v.try_into().expect("component count")
}

fn ints<const N: usize>(j: &Json) -> [i32; N] {
    let v: Vec<i32> = j["v"]
        .as_array()
        .expect("v")
        .iter()
        .map(|x| int_of(x) as i32)
        .collect();
    v.try_into().expect("component count")
}

fn le<T, const W: usize>(j: &Json, f: fn([u8; W]) -> T) -> Vec<T> {
    hex(j["v"].as_str().expect("hex"))
        .chunks_exact(W)
        .map(|c| f(c.try_into().expect("width")))
        .collect()
}

fn groups<const N: usize, T: Copy>(flat: Vec<T>) -> Vec<[T; N]> {
    flat.chunks_exact(N)
        .map(|c| c.try_into().expect("group"))
        .collect()
}

/// The `real_t` components of a packed vector array: binary32, or binary64 in a double corpus.
fn real_ts(j: &Json) -> Vec<f64> {
    if DOUBLE_REALS.with(|d| d.get()) {
        return le(j, f64::from_le_bytes);
    }
    le(j, f32::from_le_bytes)
        .into_iter()
        .map(f64::from)
        .collect()
}

fn typed(j: &Json) -> ContainerType {
    if j.is_null() {
        return ContainerType::Untyped;
    }
    match j["kind"].as_str().expect("kind") {
        "builtin" => ContainerType::Builtin(
            VariantType::from_id(j["type"].as_u64().expect("type") as u32).expect("type id"),
        ),
        "class" => ContainerType::Class(text(&j["name"])),
        "script" => ContainerType::Script(text(&j["path"])),
        k => panic!("kind {k}"),
    }
}

/// Rebuilds the exact value a Desc describes.
fn value_of(j: &Json) -> Value {
    let t = j["t"].as_str().expect("t");
    match t {
        "nil" => Value::Nil,
        "bool" => Value::Bool(j["v"].as_bool().expect("bool")),
        "int" => Value::Int(int_of(&j["v"])),
        "float" => Value::Float(f64_of(&j["v"])),
        "string" => Value::String(text(&j["v"]).into()),
        "string_name" => Value::StringName(text(&j["v"]).into()),
        "vector2" => Value::Vector2(reals(j)),
        "vector3" => Value::Vector3(reals(j)),
        "vector4" => Value::Vector4(Box::new(reals(j))),
        "rect2" => Value::Rect2(Box::new(reals(j))),
        "transform2d" => Value::Transform2D(Box::new(reals(j))),
        "plane" => Value::Plane(Box::new(reals(j))),
        "quaternion" => Value::Quaternion(Box::new(reals(j))),
        "aabb" => Value::Aabb(Box::new(reals(j))),
        "basis" => Value::Basis(Box::new(reals(j))),
        "transform3d" => Value::Transform3D(Box::new(reals(j))),
        "projection" => Value::Projection(Box::new(reals(j))),
        "color" => {
            let c: [f64; 4] = reals(j);
            Value::Color(c.map(|x| x as f32))
        }
        "vector2i" => Value::Vector2i(ints(j)),
        "vector3i" => Value::Vector3i(ints(j)),
        "vector4i" => Value::Vector4i(ints(j)),
        "rect2i" => Value::Rect2i(ints(j)),
        "node_path" => Value::NodePath(Box::new(NodePath {
            names: j["names"]
                .as_array()
                .expect("names")
                .iter()
                .map(text)
                .collect(),
            subnames: j["subnames"]
                .as_array()
                .expect("subnames")
                .iter()
                .map(text)
                .collect(),
            absolute: j["absolute"].as_bool().expect("absolute"),
        })),
        "rid" => Value::Rid(u64_of(&j["v"])),
        "object_id" => Value::ObjectId(u64_of(&j["v"])),
        "object" => Value::Object(Box::new(fast_var_codec_core::value::Object {
            class: text(&j["class"]),
            properties: j["props"]
                .as_array()
                .expect("props")
                .iter()
                .map(|p| (text(&p[0]), value_of(&p[1])))
                .collect(),
        })),
        "callable" => Value::Callable,
        "signal" => Value::Signal {
            name: text(&j["name"]).into(),
            object_id: u64_of(&j["object"]),
        },
        "array" => Value::Array(Box::new(fast_var_codec_core::value::Array {
            element: typed(&j["typed"]),
            items: j["items"]
                .as_array()
                .expect("items")
                .iter()
                .map(value_of)
                .collect(),
        })),
        "dictionary" => Value::typed_dictionary(
            typed(&j["key_typed"]),
            typed(&j["value_typed"]),
            j["entries"]
                .as_array()
                .expect("entries")
                .iter()
                .map(|e| (value_of(&e[0]), value_of(&e[1])))
                .collect(),
        ),
        "packed_byte_array" => Value::PackedByteArray(hex(j["v"].as_str().expect("hex"))),
        "packed_int32_array" => Value::PackedInt32Array(le(j, i32::from_le_bytes)),
        "packed_int64_array" => Value::PackedInt64Array(le(j, i64::from_le_bytes)),
        "packed_float32_array" => Value::PackedFloat32Array(le(j, f32::from_le_bytes)),
        "packed_float64_array" => Value::PackedFloat64Array(le(j, f64::from_le_bytes)),
        "packed_string_array" => Value::PackedStringArray(
            j["v"]
                .as_array()
                .expect("v")
                .iter()
                .map(|s| text(s).into())
                .collect(),
        ),
        "packed_vector2_array" => Value::PackedVector2Array(groups(real_ts(j))),
        "packed_vector3_array" => Value::PackedVector3Array(groups(real_ts(j))),
        "packed_vector4_array" => Value::PackedVector4Array(groups(real_ts(j))),
        "packed_color_array" => Value::PackedColorArray(groups(le(j, f32::from_le_bytes))),
        // Pandemonium's POOL_VECTOR2I/3I/4I_ARRAY: the model's typed Array[Vector2i] (...).
        "packed_vector2i_array" => int_vector_pool(j, VariantType::Vector2i, 2),
        "packed_vector3i_array" => int_vector_pool(j, VariantType::Vector3i, 3),
        "packed_vector4i_array" => int_vector_pool(j, VariantType::Vector4i, 4),
        other => panic!("unknown desc type {other}"),
    }
}

/// A Pandemonium int-vector pool array as the model holds it: a typed Array of its vectors.
fn int_vector_pool(j: &Json, element: VariantType, n: usize) -> Value {
    let items = le(j, i32::from_le_bytes)
        .chunks_exact(n)
        .map(|c| match *c {
            [x, y] => Value::Vector2i([x, y]),
            [x, y, z] => Value::Vector3i([x, y, z]),
            [x, y, z, w] => Value::Vector4i([x, y, z, w]),
            _ => unreachable!("{n} components"),
        })
        .collect();
    Value::Array(Box::new(fast_var_codec_core::value::Array {
        element: ContainerType::Builtin(element),
        items,
    }))
}

struct Corpus {
    file: &'static str,
    json: Json,
    dialect: Dialect,
    precision: Precision,
    leaks_padding: bool,
}

impl Corpus {
    fn open(file: &'static str) -> Corpus {
        let json = corpus::load(file);
        let dialect: Dialect = json["dialect"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let precision = match json["precision"].as_str() {
            Some("double") => Precision::Double,
            Some("single") | None => Precision::Single,
            p => panic!("{file}: precision {p:?}"),
        };
        DOUBLE_REALS.with(|d| d.set(precision == Precision::Double));
        let leaks_padding = json["nodepath_padding_leaks"].as_bool().unwrap_or(true);
        Corpus {
            file,
            json,
            dialect,
            precision,
            leaks_padding,
        }
    }

    /// The options the engine's own `var_to_bytes` / `bytes_to_var` amount to.
    fn options(&self) -> Options {
        Options::new(self.dialect).with_precision(self.precision)
    }

    /// A decoder that knows which classes this engine can instantiate (engine-made list).
    fn builder(&self) -> ValueBuilder {
        let list = corpus::load(&format!("classes_{}", self.file));
        let classes = list["instantiable_classes"].as_array().expect("classes");
        let builder = ValueBuilder::default().with_classes(
            classes
                .iter()
                .map(|c| c.as_str().expect("class").to_string()),
        );
        // The scripts that exist in the generator's project, as its engine saw them.
        let dir = corpus::golden_dir().join(match self.dialect {
            Dialect::Godot4 | Dialect::Godot4_3 | Dialect::Godot4_0To4_2 => "gen/godot4",
            Dialect::Godot3 => "gen/godot3",
            Dialect::Pandemonium38 | Dialect::Pandemonium5 => "gen/pandemonium",
            other => panic!("no golden generator for {other:?}"),
        });
        let scripts = std::fs::read_dir(&dir)
            .expect("generator project")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".gd") && n != "generate.gd")
            .map(|n| format!("res://{n}"));
        builder.with_scripts(scripts)
    }

    fn cases(&self) -> &Vec<Json> {
        self.json["cases"].as_array().expect("cases")
    }

    fn malformed(&self) -> &Vec<Json> {
        self.json["malformed"].as_array().expect("malformed")
    }
}

/// Byte positions that are NodePath padding in our encoding of `v` (found by encoding with a
/// different padding byte), which engines that leak heap bytes there fill at random.
fn nodepath_padding_mask(v: &Value, opts: &Options) -> Vec<bool> {
    let enc = |fill: u8| {
        let mut w = Writer::new(Vec::new(), opts).expect("writer");
        w.set_node_path_padding_for_tests(fill);
        write_value(&mut w, v).expect("encode");
        w.into_sink()
    };
    let (a, b) = (enc(0x00), enc(0xFF));
    a.iter().zip(&b).map(|(x, y)| x != y).collect()
}

/// Runs `f` on a thread with a stack large enough for 1025-level values.
fn big_stack<F: FnOnce() + Send + 'static>(f: F) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("test thread panicked");
}

fn check_cases(file: &'static str) {
    big_stack(move || {
        let corpus = Corpus::open(file);
        let mut failures = Vec::new();
        let mut checked = 0;
        let mut inexact = 0;
        let builder = corpus.builder();
        for (index, case) in corpus.cases().iter().enumerate() {
            let name = case["name"].as_str().expect("name");
            if !common::corpus::sampled(index, documented(file, "cases", name)) {
                continue;
            }
            let full = case["full_objects"].as_bool().unwrap_or(false);
            let opts = corpus
                .options()
                .with_full_objects(full)
                .with_allow_objects(full);
            INEXACT.with(|f| f.set(false));
            let value = value_of(&case["value"]);
            let exact = !INEXACT.with(|f| f.get());
            let engine = hex(case["bytes"].as_str().expect("bytes"));
            checked += 1;
            if engine.is_empty() {
                // The engine refused to encode this value: so must we.
                if let Ok(b) = encode(&value, &opts) {
                    failures.push(format!(
                        "{name}: engine refused to encode, we wrote {}",
                        b.len()
                    ));
                }
                continue;
            }
            match encode(&value, &opts) {
                _ if !exact => inexact += 1,
                Err(e) => failures.push(format!("{name}: encode failed: {e}")),
                Ok(ours) => {
                    let mask = if corpus.leaks_padding {
                        nodepath_padding_mask(&value, &opts)
                    } else {
                        vec![false; ours.len()]
                    };
                    let same = ours.len() == engine.len()
                        && ours
                            .iter()
                            .zip(&engine)
                            .zip(&mask)
                            .all(|((a, b), m)| *m || a == b);
                    if !same {
                        failures.push(format!(
                            "{name}: encode differs\n  ours   {}\n  engine {}",
                            to_hex(&ours),
                            to_hex(&engine)
                        ));
                    }
                    match encoded_size(&value, &opts) {
                        Ok(n) if n == ours.len() => {}
                        other => failures
                            .push(format!("{name}: encoded_size {other:?} != {}", ours.len())),
                    }
                }
            }
            if case["decoded"].is_null() {
                // The engine did not decode its own bytes: it failed (decode_error; Pandemonium
                // cannot read some of what it writes), or was not asked to (decode_skipped).
                if let Some(code) = case["decode_error"].as_i64() {
                    match decode_with(&engine, 0, &opts, &mut builder.clone()) {
                        Err(e) if i64::from(e.code().godot_value()) == code => {}
                        Err(e) => failures.push(format!(
                            "{name}: decode error {} ({e}), engine {code}",
                            e.code().godot_value()
                        )),
                        Ok((v, used)) => failures.push(format!(
                            "{name}: we decode ({used} bytes, {v:?}) where the engine fails with {code}"
                        )),
                    }
                }
                continue;
            }
            let expected = value_of(&case["decoded"]);
            match decode_with(&engine, 0, &opts, &mut builder.clone()) {
                Err(e) => failures.push(format!("{name}: decode failed: {e}")),
                Ok((v, used)) => {
                    if used != engine.len() {
                        failures.push(format!("{name}: decode used {used} of {}", engine.len()));
                    }
                    if v != expected {
                        failures.push(format!(
                            "{name}: decoded\n  ours   {v:?}\n  engine {expected:?}"
                        ));
                    }
                }
            }
        }
        if inexact > 0 {
            eprintln!("{file}: {inexact} cases hold text no Rust string can (encode not compared)");
        }
        report(corpus.file, "cases", checked, &failures);
    });
}

fn check_malformed(file: &'static str) {
    big_stack(move || {
        let corpus = Corpus::open(file);
        let mut failures = Vec::new();
        let mut checked = 0;
        let mut objects_by_class = 0;
        let builder = corpus.builder();
        for (index, m) in corpus.malformed().iter().enumerate() {
            let name = m["name"].as_str().expect("name");
            if !common::corpus::sampled(index, documented(file, "malformed inputs", name)) {
                continue;
            }
            let allow = m["allow_objects"].as_bool().unwrap_or(false);
            let opts = corpus.options().with_allow_objects(allow);
            let bytes = hex(m["bytes"].as_str().expect("bytes"));
            let ok = m["ok"].as_bool().expect("ok");
            checked += 1;
            match (decode_with(&bytes, 0, &opts, &mut builder.clone()), ok) {
                (Ok((v, used)), true) => {
                    // The engine's size counts a final PackedByteArray's missing padding;
                    // ours ends with the input.
                    if let Some(size) = m["size"].as_i64() {
                        if size.min(bytes.len() as i64) != used as i64 {
                            failures.push(format!("{name}: size {used}, engine {size}"));
                        }
                    }
                    let mut expected = value_of(&m["decoded"]);
                    // A single-precision engine narrows binary64 wire reals to its real_t.
                    let mut v = if corpus.dialect == Dialect::Godot4
                        && corpus.precision == Precision::Single
                    {
                        v.with_single_precision_reals()
                    } else {
                        v
                    };
                    if contains_full_object(&m["decoded"]) {
                        expected = classes_only(&expected);
                        v = classes_only(&v);
                        objects_by_class += 1;
                    }
                    if v != expected {
                        failures.push(format!(
                            "{name}: decoded\n  ours   {v:?}\n  engine {expected:?}"
                        ));
                    }
                }
                (Err(e), false) => {
                    // null where the engine's log names no code (Pandemonium): the verdict only.
                    let code = m["error"]
                        .as_i64()
                        .unwrap_or_else(|| i64::from(e.code().godot_value()));
                    if i64::from(e.code().godot_value()) != code {
                        failures.push(format!(
                            "{name}: error {} ({e}), engine {code}",
                            e.code().godot_value()
                        ));
                    }
                }
                (Ok((v, used)), false) => failures.push(format!(
                    "{name}: we accept ({used} bytes, {v:?}) where the engine rejects with {}",
                    m["error"]
                )),
                (Err(e), true) => {
                    failures.push(format!("{name}: we reject ({e}) where the engine accepts"))
                }
            }
        }
        eprintln!(
            "{file}: {objects_by_class} accepted inputs hold full objects: compared by class"
        );
        report(corpus.file, "malformed inputs", checked, &failures);
    });
}

/// A full object decoded by the engine is a live instance listed with every stored property
/// (defaults included, wire values passed through setters), while the engine-free model keeps
/// the wire's properties. For crafted object bytes only the classes can be compared.
fn classes_only(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(Box::new(fast_var_codec_core::value::Object {
            class: o.class.clone(),
            properties: Vec::new(),
        })),
        other => map_children(other, classes_only),
    }
}

fn map_children(v: &Value, f: fn(&Value) -> Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(Box::new(fast_var_codec_core::value::Array {
            element: a.element.clone(),
            items: a.items.iter().map(f).collect(),
        })),
        Value::Dictionary(d) => Value::typed_dictionary(
            d.key.clone(),
            d.value.clone(),
            d.iter().map(|(k, v)| (f(k), f(v))).collect(),
        ),
        other => other.clone(),
    }
}

fn contains_full_object(j: &Json) -> bool {
    match j {
        Json::Object(m) => {
            m.get("t").and_then(Json::as_str) == Some("object")
                || m.values().any(contains_full_object)
        }
        Json::Array(a) => a.iter().any(contains_full_object),
        _ => false,
    }
}

/// Where the engine-free model knowingly differs from an engine, and why. `report` fails on a
/// difference no entry's prefix matches, and on an entry that matches no difference of its
/// corpus part (stale), so the list stays exactly true. An entry's first field is the start of
/// the corpus files it holds for: "godot4_6_3" is both the single- and the double-precision
/// Godot 4.6.3 corpus, where each divergence must occur.
const KNOWN_DIVERGENCES: &[(&str, &str, &str, &str)] = &[
    ("godot3_2_3.json", "cases", "deep/", "3.2.3 has no depth limit (3.4 / 3.3.5 added it); we keep the 1024 limit of later engines"),
    ("godot3_2_3.json", "malformed inputs", "craft/depth/", "3.2.3 has no decode depth limit; we keep 1024"),
    ("godot4_6_3", "cases", "object/full/noninstantiable", "the engine-free writer does not know which classes can be instantiated; the extension refuses them as the engine does"),
    ("godot4_6_3", "malformed inputs", "flip/dictionary_typed/word4/4", "a String key in a Color-typed Dictionary: Godot parses it as a color name; the model drops it"),
    ("godot4_6_3", "malformed inputs", "craft/array_typed_class_node_with_resource", "needs ClassDB (inheritance)"),
    ("godot4_6_3", "cases", "dictionary/typed/String_script/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "cases", "dictionary/typed/script_int/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "cases", "dictionary/typed/script_Resource/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "cases", "dictionary/typed/int_script/empty/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "cases", "dictionary/typed/script_holderscript/empty/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "cases", "dictionary/typed/holderscript_script/empty/full", "Godot 4.6.3 rebuilds script-typed Dictionaries with wrong key/value types on decode (engine bug); we keep the wire's types"),
    ("godot4_6_3", "malformed inputs", "craft/dictionary_typed_key_script", "the same engine bug with a script-typed key"),
    // Pandemonium v4.9.0 and v5.2.0 ("pandemonium_" is both): the decoder bugs of
    // docs/wire_format.md#pandemonium-decoder-bugs, which we do not emulate, each shown by
    // engine-made cases under bug/.
    ("pandemonium_", "cases", "bug/vector4_decode_advances_12/", P_VECTOR4_12),
    ("pandemonium_", "cases", "bug/projection_decode_needs_248/", P_PROJECTION_248),
    ("pandemonium_", "cases", "bug/pool_vector4_array_decode_w_from_z/", P_POOL_VECTOR4_W),
    ("pandemonium_", "cases", "bug/pool_vector4i_array_encode_z_into_w/", "Pandemonium's POOL_VECTOR4I_ARRAY encoder writes z into the w slot (docs/wire_format.md#pandemonium-decoder-bugs); we write w"),
    ("pandemonium_", "malformed inputs", "craft/bug/vector4_decode_advances_12/", P_VECTOR4_12),
    ("pandemonium_", "malformed inputs", "craft/bug/projection_decode_needs_248/", P_PROJECTION_248),
    ("pandemonium_", "malformed inputs", "craft/bug/pool_vector4_array_decode_w_from_z/", P_POOL_VECTOR4_W),
    ("pandemonium_", "malformed inputs", "craft/bug/pool_vector4i_array_decode_w_from_z/", P_POOL_VECTOR4_W),
    ("pandemonium_", "malformed inputs", "flip/packed_vector4_array/", P_POOL_VECTOR4_W),
    ("pandemonium_", "malformed inputs", "flip/packed_vector4i_array/", P_POOL_VECTOR4_W),
    ("pandemonium_", "malformed inputs", "hdrflip/packed_color_array/", "PoolColorArray's id with a low bit flipped is POOL_VECTOR4(I)_ARRAY, whose decode fills w from z (docs/wire_format.md#pandemonium-decoder-bugs); we read w"),
    ("pandemonium_", "cases", "object/full_scripted", "the engine embeds the Script object (with its source) in a full object; the model sends a script only as a res:// path and refuses to embed one"),
    ("pandemonium_", "malformed inputs", "craft/dictionary_keys/nil_and_null_object", "a null Object is Nil in the model, so it merges with a Nil key; the engine keeps the two"),
    // Pandemonium v5.2.0's TYPED_ARRAY and PACKED_TYPED_ARRAY.
    ("pandemonium_5_2_0", "malformed inputs", "hdrflip/typed_array_object_full/3", P_PROJECTION_248),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/element_type_", P_ELEMENT_RANGE),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/element_type_", P_ELEMENT_RANGE),
    ("pandemonium_5_2_0", "malformed inputs", "flip/typed_array_string/6.7", P_ELEMENT_RANGE),
    ("pandemonium_5_2_0", "malformed inputs", "flip/packed_typed_array_float/7.1", P_ELEMENT_RANGE),
    // (Specific entries first: a difference counts for the first entry its name starts with.)
    ("pandemonium_5_2_0", "cases", "typed_array/typed_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "typed_array/packed_typed_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "typed_array/pool_vector2i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "typed_array/pool_vector3i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "typed_array/pool_vector4i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "typed_array/nested/typed_of_typed", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/typed_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/packed_typed_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/pool_vector2i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/pool_vector3i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/pool_vector4i_array/", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/nil/", P_NIL_TYPED),
    ("pandemonium_5_2_0", "cases", "packed_typed_array/", "the model has one typed Array: a PackedTypedArray (PACKED_TYPED_ARRAY, 28) decodes to it as a TypedArray does, and is written back as TYPED_ARRAY (27)"),
    ("pandemonium_5_2_0", "cases", "typed_array/vector2i/", P_INT_VECTOR_POOL),
    ("pandemonium_5_2_0", "cases", "typed_array/vector3i/", P_INT_VECTOR_POOL),
    ("pandemonium_5_2_0", "cases", "typed_array/vector4i/", P_INT_VECTOR_POOL),
    ("pandemonium_5_2_0", "cases", "typed_array/nil/", P_NIL_TYPED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/typed_array_with_array_item", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/pool_vector2i_with_", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/typed_array_with_array_item", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/pool_vector2i_with_", P_WIRE_ONLY_ELEMENTS),
    ("pandemonium_5_2_0", "malformed inputs", "flip/typed_array_int/4.1", P_NIL_TYPED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/element_nil_with_items", P_NIL_TYPED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/element_nil_with_items", P_NIL_TYPED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/array_with_typed_array_item", "a TypedArray is an Array in the model, so a TypedArray of Array takes it; the engine takes only ARRAY values"),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/array_with_typed_array_item", "a TypedArray is an Array in the model, so a PackedTypedArray of Array takes it; the engine takes only ARRAY values"),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/object_class_node_empty", P_CLASS_REFUSED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/object_class_unknown_empty", P_CLASS_REFUSED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/object_class_node_empty", P_CLASS_REFUSED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/object_class_unknown_empty", P_CLASS_REFUSED),
    ("pandemonium_5_2_0", "malformed inputs", "craft/typed_array/object_class_node_with_reference_item", "needs ClassDB (inheritance): a Reference is not a Node"),
    ("pandemonium_5_2_0", "malformed inputs", "craft/packed_typed_array/object_class_node_with_reference_item", "needs ClassDB (inheritance): a Reference is not a Node"),
];

const P_VECTOR4_12: &str = "Pandemonium's VECTOR4/VECTOR4I decode advances 12 bytes, not 16 (docs/wire_format.md#pandemonium-decoder-bugs): what follows one in a container is misread; we read the 16 bytes written";
const P_PROJECTION_248: &str = "Pandemonium's PROJECTION decode wants 248 bytes after its header for a 64-byte payload (docs/wire_format.md#pandemonium-decoder-bugs): it cannot decode a Projection that fewer than 184 bytes follow; we need the 64";
const P_POOL_VECTOR4_W: &str = "Pandemonium's POOL_VECTOR4_ARRAY and POOL_VECTOR4I_ARRAY decode fill w from the z slot (docs/wire_format.md#pandemonium-decoder-bugs); we read w";
const P_ELEMENT_RANGE: &str = "Pandemonium's TYPED_ARRAY decode does not range-check the element type (docs/wire_format.md#pandemonium-decoder-bugs) and keeps an empty array of a type that does not exist; we refuse it";
const P_WIRE_ONLY_ELEMENTS: &str = "a typed array of TypedArrays, PackedTypedArrays or PoolVector2i/3i/4iArrays: the model has no element type for them (each is a typed Array in it), so we refuse to decode one, and write such an Array as a TypedArray of Array";
const P_NIL_TYPED: &str = "Pandemonium's TypedArray of Nil takes only nils, and its PackedTypedArray of Nil nothing (its encoder writes phantom false elements); the model reads both as an untyped Array, written as ARRAY";
const P_CLASS_REFUSED: &str = "with objects refused, Pandemonium keeps a typed array's class name from the input; the model types it EncodedObjectAsID, as for Godot 4, and uses no class name from the input";
const P_INT_VECTOR_POOL: &str = "the model holds a PoolVector2i/3i/4iArray as a typed Array[Vector2i] (...), as it holds a TypedArray of Vector2i: both decode to it, and it is written as the pool array";

/// Whether a known divergence names the input `name` of `file`'s `what` (always checked, so
/// that a stale entry shows in a sample too).
fn documented(file: &str, what: &str, name: &str) -> bool {
    KNOWN_DIVERGENCES
        .iter()
        .any(|(kf, kw, prefix, _)| file.starts_with(kf) && *kw == what && name.starts_with(prefix))
}

fn report(file: &str, what: &str, checked: usize, failures: &[String]) {
    let mut unexpected = Vec::new();
    let mut matched = std::collections::BTreeSet::new();
    for f in failures {
        let name = f.split(':').next().unwrap_or_default();
        match KNOWN_DIVERGENCES.iter().find(|(kf, kw, prefix, _)| {
            file.starts_with(kf) && *kw == what && name.starts_with(prefix)
        }) {
            Some((_, _, prefix, _)) => {
                matched.insert(*prefix);
            }
            None => unexpected.push(f.as_str()),
        }
    }
    // An entry of this corpus part that matched no difference is stale: the model or the
    // corpus changed, and the list (and the README, which repeats it) no longer tells the truth.
    let stale: Vec<String> = KNOWN_DIVERGENCES
        .iter()
        .filter(|(kf, kw, prefix, _)| {
            file.starts_with(kf) && *kw == what && !matched.contains(prefix)
        })
        .map(|(_, _, prefix, why)| format!("  {prefix:?} ({why})"))
        .collect();
    eprintln!(
        "{file}: {checked} {what}, {} differ as documented, {} unexpected, {} stale known divergences",
        failures.len() - unexpected.len(),
        unexpected.len(),
        stale.len()
    );
    assert!(checked > 0, "{file}: no {what}");
    let mut problems = Vec::new();
    if !unexpected.is_empty() {
        let shown: Vec<&str> = unexpected.iter().take(60).copied().collect();
        problems.push(format!(
            "{file}: {} of {checked} {what} differ from the engine:\n{}",
            unexpected.len(),
            shown.join("\n")
        ));
    }
    if !stale.is_empty() {
        problems.push(format!(
            "{file}: {} known divergence(s) of the {what} no longer occur; remove them from \
             KNOWN_DIVERGENCES (and the README's list):\n{}",
            stale.len(),
            stale.join("\n")
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn godot4_6_3_cases() {
    check_cases("godot4_6_3.json");
}

#[test]
fn godot4_6_3_malformed() {
    check_malformed("godot4_6_3.json");
}

#[test]
fn godot4_6_3_double_cases() {
    check_cases("godot4_6_3_double.json");
}

#[test]
fn godot4_6_3_double_malformed() {
    check_malformed("godot4_6_3_double.json");
}

#[test]
fn godot3_6_2_cases() {
    check_cases("godot3_6_2.json");
}

#[test]
fn godot3_6_2_malformed() {
    check_malformed("godot3_6_2.json");
}

#[test]
fn godot3_2_3_cases() {
    check_cases("godot3_2_3.json");
}

#[test]
fn godot3_2_3_malformed() {
    check_malformed("godot3_2_3.json");
}

#[test]
fn pandemonium_4_9_0_cases() {
    check_cases("pandemonium_4_9_0.json");
}

#[test]
fn pandemonium_4_9_0_malformed() {
    check_malformed("pandemonium_4_9_0.json");
}

#[test]
fn pandemonium_5_2_0_cases() {
    check_cases("pandemonium_5_2_0.json");
}

#[test]
fn pandemonium_5_2_0_malformed() {
    check_malformed("pandemonium_5_2_0.json");
}

#[test]
fn corpus_is_as_large_as_promised() {
    big_stack(|| {
        for f in ["godot4_6_3.json", "godot4_6_3_double.json"] {
            let g4 = Corpus::open(f);
            assert!(g4.cases().len() >= 400, "{f} cases: {}", g4.cases().len());
        }
        for f in ["godot3_6_2.json", "godot3_2_3.json"] {
            let g3 = Corpus::open(f);
            assert!(g3.cases().len() >= 200, "{f} cases: {}", g3.cases().len());
        }
        for (f, cases, malformed) in [
            ("pandemonium_4_9_0.json", 350, 3400),
            ("pandemonium_5_2_0.json", 500, 3900),
        ] {
            let p = Corpus::open(f);
            assert!(p.cases().len() >= cases, "{f} cases: {}", p.cases().len());
            assert!(
                p.malformed().len() >= malformed,
                "{f} malformed: {}",
                p.malformed().len()
            );
        }
    });
}

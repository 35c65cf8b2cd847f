//! Runs the built `fast-var-codec` binary on bytes made by real engines: the golden corpus
//! (tests/golden/, see its FORMAT.md) and the Godot 3 save fixtures (tests/saves/).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use bytes::BytesMut;
use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
use fast_var_codec_core::value::ContainerType;
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use serde_json::Value as Json;

/// The built tool and the repository, as `cargo test` names them when it runs this test. Never
/// `env!`: a test binary the build cache reuses in another clone would run that clone's tool and
/// read its files (tests/source_times.py).
fn from_cargo(variable: &str) -> PathBuf {
    PathBuf::from(
        std::env::var_os(variable).unwrap_or_else(|| panic!("{variable}: run by cargo test")),
    )
}

fn bin() -> PathBuf {
    from_cargo("CARGO_BIN_EXE_fast-var-codec")
}

fn repo() -> PathBuf {
    from_cargo("CARGO_MANIFEST_DIR").join("../..")
}

/// A directory of its own for one test, removed afterwards.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("fvc-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write temp file");
        path.to_str().expect("utf-8 path").to_string()
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("utf-8 path").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("run the binary")
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The binary must never panic: every run ends with 0, 1 or 2 and no panic message.
fn code(o: &Output) -> i32 {
    let stderr = text(&o.stderr);
    assert!(
        !stderr.contains("panicked"),
        "the binary panicked: {stderr}"
    );
    let c = o.status.code().expect("exit code (not a signal)");
    assert!((0..=2).contains(&c), "exit code {c}: {stderr}");
    c
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// JSON of any depth (the corpus nests values 1025 levels deep).
fn parse_deep(bytes: &[u8]) -> Result<Json, String> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    match de.into_iter::<Json>().next() {
        Some(r) => r.map_err(|e| e.to_string()),
        None => Err("no JSON".into()),
    }
}

fn load_json(path: &Path) -> Json {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    parse_deep(&bytes).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn golden(file: &str) -> Json {
    load_json(&repo().join("tests/golden").join(file))
}

/// Runs `f` on a thread with room for 1025-level values (JSON and Values are dropped
/// recursively).
fn big_stack<F: FnOnce() + Send + 'static>(f: F) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("test thread panicked");
}

/// Runs `f` on every job with two threads (the work is mostly waiting for processes).
fn parallel<T: Sync, R: Send>(jobs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let half = jobs.len().div_ceil(2).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(half)
            .map(|chunk| {
                let f = &f;
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || chunk.iter().map(f).collect::<Vec<R>>())
                    .expect("spawn")
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect()
    })
}

// ---- Desc (tests/golden/FORMAT.md) against the dump's JSON --------------------------------

fn f64_of(j: &Json) -> f64 {
    let b = hex(j.as_str().expect("F"));
    f64::from_le_bytes(b.try_into().expect("8 bytes"))
}

/// A dump float: a number, or "nan" / "inf" / "-inf".
fn dump_f64(j: &Json) -> Option<f64> {
    match j {
        Json::Number(n) => n.as_f64(),
        Json::String(s) if s == "nan" => Some(f64::NAN),
        Json::String(s) if s == "inf" => Some(f64::INFINITY),
        Json::String(s) if s == "-inf" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

fn same_f64(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// Text from its UTF-8 hex; `None` for bytes no Rust string holds (Godot 3 surrogates).
fn utf8(j: &Json) -> Option<String> {
    String::from_utf8(hex(j.as_str()?)).ok()
}

fn int_of(j: &Json) -> Option<i64> {
    match j {
        Json::String(s) => s.parse().ok(),
        Json::Number(n) => n.as_i64(),
        _ => None,
    }
}

fn u64_of(j: &Json) -> Option<u64> {
    match j {
        Json::String(s) => s
            .parse::<u64>()
            .ok()
            .or_else(|| s.parse::<i64>().ok().map(|i| i as u64)),
        Json::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn floats(ours: &Json, flat: &[f64]) -> Result<(), String> {
    let ours: Vec<f64> = ours
        .as_array()
        .ok_or("not a list")?
        .iter()
        .flat_map(|x| match x {
            Json::Array(inner) => inner.iter().filter_map(dump_f64).collect(),
            x => dump_f64(x).into_iter().collect::<Vec<_>>(),
        })
        .collect();
    if ours.len() == flat.len() && ours.iter().zip(flat).all(|(a, b)| same_f64(*a, *b)) {
        Ok(())
    } else {
        Err(format!("floats {ours:?} != {flat:?}"))
    }
}

fn le_f32(j: &Json) -> Vec<f64> {
    hex(j.as_str().expect("hex"))
        .chunks_exact(4)
        .map(|c| f64::from(f32::from_le_bytes(c.try_into().expect("4"))))
        .collect()
}

fn le_f64(j: &Json) -> Vec<f64> {
    hex(j.as_str().expect("hex"))
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().expect("8")))
        .collect()
}

fn typed_matches(ours: &Json, desc: &Json) -> bool {
    match (ours, desc) {
        (Json::Null, Json::Null) => true,
        (o, d) => {
            o["kind"] == d["kind"]
                && match d["kind"].as_str() {
                    Some("builtin") => o["type"] == d["type"],
                    Some("class") => {
                        Some(o["name"].as_str().unwrap_or_default().to_string()) == utf8(&d["name"])
                    }
                    Some("script") => {
                        Some(o["path"].as_str().unwrap_or_default().to_string()) == utf8(&d["path"])
                    }
                    _ => false,
                }
        }
    }
}

/// Whether the dump's JSON for a value says what a Desc says (objects: by class only, as an
/// engine lists every property of a live object).
fn matches_desc(ours: &Json, desc: &Json) -> Result<(), String> {
    let t = desc["t"].as_str().ok_or("desc without t")?;
    if ours["t"].as_str() != Some(t) {
        return Err(format!("type {} != {t}", ours["t"]));
    }
    let v = &ours["v"];
    let dv = &desc["v"];
    let check = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!("{t}: {what}: ours {ours}, desc {desc}"))
        }
    };
    match t {
        "nil" | "callable" => Ok(()),
        "bool" => check(v == dv, "value"),
        "int" => check(v.as_i64() == int_of(dv), "value"),
        "float" => check(
            dump_f64(v).is_some_and(|x| same_f64(x, f64_of(dv))),
            "value",
        ),
        "string" | "string_name" => match utf8(dv) {
            Some(s) => check(v.as_str() == Some(s.as_str()), "text"),
            None => Ok(()), // lone surrogates: the core decodes them as U+FFFD
        },
        "vector2" | "vector3" | "vector4" | "rect2" | "transform2d" | "plane" | "quaternion"
        | "aabb" | "basis" | "transform3d" | "projection" | "color" => floats(
            v,
            &dv.as_array()
                .ok_or("v")?
                .iter()
                .map(f64_of)
                .collect::<Vec<_>>(),
        ),
        "vector2i" | "vector3i" | "vector4i" | "rect2i" => check(v == dv, "components"),
        "node_path" => {
            let texts =
                |j: &Json| -> Option<Vec<String>> { j.as_array()?.iter().map(utf8).collect() };
            let strs = |j: &Json| -> Option<Vec<String>> {
                j.as_array()?
                    .iter()
                    .map(|s| s.as_str().map(String::from))
                    .collect()
            };
            check(
                strs(&ours["names"]) == texts(&desc["names"])
                    && strs(&ours["subnames"]) == texts(&desc["subnames"])
                    && ours["absolute"] == desc["absolute"],
                "path",
            )
        }
        "rid" | "object_id" => check(v.as_u64() == u64_of(dv), "id"),
        "object" => check(
            Some(ours["class"].as_str().unwrap_or_default().to_string()) == utf8(&desc["class"]),
            "class",
        ),
        "signal" => check(
            Some(ours["name"].as_str().unwrap_or_default().to_string()) == utf8(&desc["name"])
                && ours["object"].as_u64() == u64_of(&desc["object"]),
            "signal",
        ),
        "array" => {
            check(typed_matches(&ours["typed"], &desc["typed"]), "typed")?;
            let (a, b) = (
                ours["items"].as_array().ok_or("items")?,
                desc["items"].as_array().ok_or("items")?,
            );
            check(a.len() == b.len(), "item count")?;
            a.iter().zip(b).try_for_each(|(x, y)| matches_desc(x, y))
        }
        "dictionary" => {
            check(
                typed_matches(&ours["key_typed"], &desc["key_typed"])
                    && typed_matches(&ours["value_typed"], &desc["value_typed"]),
                "typed",
            )?;
            let (a, b) = (
                ours["entries"].as_array().ok_or("entries")?,
                desc["entries"].as_array().ok_or("entries")?,
            );
            check(a.len() == b.len(), "entry count")?;
            a.iter().zip(b).try_for_each(|(x, y)| {
                matches_desc(&x[0], &y[0])?;
                matches_desc(&x[1], &y[1])
            })
        }
        "packed_byte_array" => check(v == dv, "bytes"),
        "packed_int32_array" => check(
            *v == Json::from(
                hex(dv.as_str().ok_or("hex")?)
                    .chunks_exact(4)
                    .map(|c| i32::from_le_bytes(c.try_into().expect("4")))
                    .collect::<Vec<_>>(),
            ),
            "ints",
        ),
        "packed_int64_array" => check(
            *v == Json::from(
                hex(dv.as_str().ok_or("hex")?)
                    .chunks_exact(8)
                    .map(|c| i64::from_le_bytes(c.try_into().expect("8")))
                    .collect::<Vec<_>>(),
            ),
            "ints",
        ),
        "packed_float32_array"
        | "packed_vector2_array"
        | "packed_vector3_array"
        | "packed_vector4_array"
        | "packed_color_array" => floats(v, &le_f32(dv)),
        "packed_float64_array" => floats(v, &le_f64(dv)),
        "packed_string_array" => {
            let texts: Option<Vec<String>> = dv.as_array().ok_or("v")?.iter().map(utf8).collect();
            match texts {
                Some(texts) => check(*v == Json::from(texts), "strings"),
                None => Ok(()),
            }
        }
        other => Err(format!("unknown desc type {other}")),
    }
}

/// A value in the golden corpus's Desc form (tests/golden/FORMAT.md), to compare with what the
/// engine described.
fn desc_of(v: &Value) -> Json {
    use serde_json::json;
    fn num(x: f64) -> Json {
        match serde_json::Number::from_f64(x) {
            Some(n) => Json::Number(n),
            None if x.is_nan() => json!("nan"),
            None if x > 0.0 => json!("inf"),
            None => json!("-inf"),
        }
    }
    fn nums(c: &[f64]) -> Json {
        Json::Array(c.iter().map(|&x| num(x)).collect())
    }
    fn nums32(c: &[f32]) -> Json {
        Json::Array(c.iter().map(|&x| num(f64::from(x))).collect())
    }
    fn typed(t: &ContainerType) -> Json {
        match t {
            ContainerType::Untyped => Json::Null,
            ContainerType::Builtin(t) => json!({"kind": "builtin", "type": t.id()}),
            ContainerType::Class(c) => json!({"kind": "class", "name": c}),
            ContainerType::Script(p) => json!({"kind": "script", "path": p}),
        }
    }
    let (t, v) = match v {
        Value::Nil => ("nil", Json::Null),
        Value::Bool(b) => ("bool", json!(b)),
        Value::Int(i) => ("int", json!(i)),
        Value::Float(x) => ("float", num(*x)),
        Value::String(s) => ("string", json!(s.as_str())),
        Value::StringName(s) => ("string_name", json!(s.as_str())),
        Value::Vector2(c) => ("vector2", nums(c)),
        Value::Vector2i(c) => ("vector2i", json!(c)),
        Value::Rect2(c) => ("rect2", nums(c.as_slice())),
        Value::Rect2i(c) => ("rect2i", json!(c)),
        Value::Vector3(c) => ("vector3", nums(c)),
        Value::Vector3i(c) => ("vector3i", json!(c)),
        Value::Transform2D(c) => ("transform2d", nums(c.as_slice())),
        Value::Vector4(c) => ("vector4", nums(c.as_slice())),
        Value::Vector4i(c) => ("vector4i", json!(c)),
        Value::Plane(c) => ("plane", nums(c.as_slice())),
        Value::Quaternion(c) => ("quaternion", nums(c.as_slice())),
        Value::Aabb(c) => ("aabb", nums(c.as_slice())),
        Value::Basis(c) => ("basis", nums(c.as_slice())),
        Value::Transform3D(c) => ("transform3d", nums(c.as_slice())),
        Value::Projection(c) => ("projection", nums(c.as_slice())),
        Value::Color(c) => ("color", nums32(c)),
        Value::NodePath(p) => {
            return json!({"t": "node_path", "names": p.names, "subnames": p.subnames,
                          "absolute": p.absolute});
        }
        Value::Rid(id) => ("rid", json!(id)),
        Value::ObjectId(id) => ("object_id", json!(id)),
        Value::Callable => ("callable", Json::Null),
        Value::Signal { name, object_id } => {
            return json!({"t": "signal", "name": name, "object": object_id});
        }
        Value::PackedByteArray(b) => (
            "packed_byte_array",
            json!(b.iter().map(|x| format!("{x:02x}")).collect::<String>()),
        ),
        Value::PackedInt32Array(a) => ("packed_int32_array", json!(a)),
        Value::PackedInt64Array(a) => ("packed_int64_array", json!(a)),
        Value::PackedFloat32Array(a) => ("packed_float32_array", nums32(a)),
        Value::PackedFloat64Array(a) => ("packed_float64_array", nums(a)),
        Value::PackedStringArray(a) => (
            "packed_string_array",
            json!(a.iter().map(|s| s.as_str()).collect::<Vec<_>>()),
        ),
        Value::PackedVector2Array(a) => {
            ("packed_vector2_array", a.iter().map(|c| nums(c)).collect())
        }
        Value::PackedVector3Array(a) => {
            ("packed_vector3_array", a.iter().map(|c| nums(c)).collect())
        }
        Value::PackedVector4Array(a) => {
            ("packed_vector4_array", a.iter().map(|c| nums(c)).collect())
        }
        Value::PackedColorArray(a) => ("packed_color_array", a.iter().map(|c| nums32(c)).collect()),
        Value::Array(a) => {
            return json!({"t": "array", "typed": typed(&a.element),
                          "items": a.items.iter().map(desc_of).collect::<Vec<_>>()});
        }
        Value::Dictionary(d) => {
            return json!({"t": "dictionary", "key_typed": typed(&d.key),
                          "value_typed": typed(&d.value),
                          "entries": d.iter().map(|(k, v)| json!([desc_of(k), desc_of(v)]))
                              .collect::<Vec<_>>()});
        }
        Value::Object(o) => {
            return json!({"t": "object", "class": o.class,
                          "props": o.properties.iter().map(|(n, v)| json!([n, desc_of(v)]))
                              .collect::<Vec<_>>()});
        }
    };
    if v.is_null() {
        json!({ "t": t })
    } else {
        json!({"t": t, "v": v})
    }
}

/// The value of entry `i` of a `dump --json` document, in the Desc form: as Godot decodes it,
/// or (`written`) as the bytes hold it, before typed containers convert and equal keys merge.
/// The document holds each value as `to-json` writes it: read here as that text, by the core's
/// `json::from_json`, so that its Dictionaries keep their order.
fn dumped_desc(stdout: &[u8], i: usize, written: bool) -> Json {
    use std::collections::HashMap;
    type Fields = HashMap<String, Box<serde_json::value::RawValue>>;
    fn fields(text: &str) -> Fields {
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit();
        de.into_iter::<Fields>()
            .next()
            .expect("a JSON object")
            .expect("dump JSON")
    }
    let doc = fields(std::str::from_utf8(stdout).expect("UTF-8"));
    let mut de = serde_json::Deserializer::from_str(doc["values"].get());
    de.disable_recursion_limit();
    let values = de
        .into_iter::<Vec<Fields>>()
        .next()
        .expect("values")
        .expect("an array of entries");
    let entry = &values[i];
    let raw = match entry.get("written") {
        Some(w) if written => w,
        _ => &entry["value"],
    };
    desc_of(&fast_var_codec_core::json::from_json(raw.get()).expect("the core's JSON projection"))
}

/// The matcher the corpus tests rely on tells differences apart.
#[test]
fn the_desc_matcher_sees_differences() {
    use serde_json::json;
    let ours = json!({"t": "array", "typed": null, "items": [
        {"t": "int", "v": 1}, {"t": "float", "v": 0.5}, {"t": "string", "v": "é"}]});
    let desc = |int: &str, float: &str, text: &str| {
        json!({"t": "array", "typed": null, "items": [
            {"t": "int", "v": int}, {"t": "float", "v": float}, {"t": "string", "v": text}]})
    };
    assert_eq!(
        matches_desc(&ours, &desc("1", "000000000000e03f", "c3a9")),
        Ok(())
    );
    assert!(matches_desc(&ours, &desc("2", "000000000000e03f", "c3a9")).is_err());
    assert!(matches_desc(&ours, &desc("1", "000000000000e0bf", "c3a9")).is_err());
    assert!(matches_desc(&ours, &desc("1", "000000000000e03f", "65")).is_err());
    let typed = json!({"t": "array", "typed": {"kind": "builtin", "type": 2}, "items": []});
    assert!(matches_desc(&json!({"t": "array", "typed": null, "items": []}), &typed).is_err());
    assert!(matches_desc(
        &json!({"t": "int", "v": 1}),
        &json!({"t": "float", "v": "1"})
    )
    .is_err());
}

/// One engine-made case of a golden corpus.
struct Case {
    name: String,
    bytes: Vec<u8>,
    full_objects: bool,
    value: Json,
    decoded: Json,
}

fn cases(corpus: &Json) -> Vec<Case> {
    corpus["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| !c["decoded"].is_null())
        .map(|c| Case {
            name: c["name"].as_str().expect("name").to_string(),
            bytes: hex(c["bytes"].as_str().expect("bytes")),
            full_objects: c["full_objects"].as_bool().unwrap_or(false),
            value: c["value"].clone(),
            decoded: c["decoded"].clone(),
        })
        .filter(|c| !c.bytes.is_empty())
        .collect()
}

fn with_objects(mut args: Vec<&str>, on: bool) -> Vec<&str> {
    if on {
        args.insert(1, "--allow-objects");
    }
    args
}

/// `check` accepts every engine-made value, and `dump --json` describes it as the engine's
/// decode does (or, where the engine itself rebuilds a value wrongly, as it was written).
fn check_and_dump_cases(file: &'static str, dialect: &'static str) {
    big_stack(move || {
        let corpus = golden(file);
        let cases = cases(&corpus);
        let dir = TempDir::new(&format!("cases-{dialect}"));
        let failures: Vec<String> = parallel(&cases, |case| {
            let path = dir.file(&format!("{}.bin", case.name.replace('/', "_")), &case.bytes);
            let mut problems = Vec::new();
            let o = run(&with_objects(
                vec!["check", "--dialect", dialect, "--raw", &path],
                case.full_objects,
            ));
            if code(&o) != 0 {
                problems.push(format!("{}: check refused: {}", case.name, text(&o.stderr)));
            }
            let o = run(&with_objects(
                vec!["dump", "--json", "--dialect", dialect, "--raw", &path],
                case.full_objects,
            ));
            if code(&o) != 0 {
                problems.push(format!("{}: dump failed: {}", case.name, text(&o.stderr)));
                return problems;
            }
            let doc = parse_deep(&o.stdout).expect("dump JSON");
            let entry = &doc["values"][0];
            let layout = &entry["layout"];
            assert_eq!(layout["offset"], 0, "{}", case.name);
            assert_eq!(
                layout["size"].as_u64(),
                Some(case.bytes.len() as u64),
                "{}",
                case.name
            );
            if let Err(e) = matches_desc(&dumped_desc(&o.stdout, 0, false), &case.decoded) {
                match matches_desc(&dumped_desc(&o.stdout, 0, true), &case.value) {
                    Ok(()) => problems.push(format!("as written: {}", case.name)),
                    Err(_) => problems.push(format!("{}: {e}", case.name)),
                }
            }
            problems
        })
        .into_iter()
        .flatten()
        .collect();
        assert!(cases.len() > 250, "{file}: {} cases", cases.len());
        let (as_written, failures): (Vec<String>, Vec<String>) = failures
            .into_iter()
            .partition(|f| f.starts_with("as written: "));
        eprintln!(
            "{file}: {} cases checked and dumped; {} match the value written, not the engine's \
             decode of it: {as_written:?}",
            cases.len(),
            as_written.len()
        );
        // Godot 4.6.3 rebuilds script-typed Dictionaries with wrong types (an engine bug,
        // tests/golden's KNOWN_DIVERGENCES): the dump shows the wire's types, as written.
        assert!(
            as_written
                .iter()
                .all(|n| n.starts_with("as written: dictionary/typed/")),
            "{as_written:?}"
        );
        assert!(
            failures.is_empty(),
            "{file}: {} of {} cases:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
    });
}

#[test]
fn godot4_cases_check_and_dump_as_the_engine_decodes_them() {
    check_and_dump_cases("godot4_6_3.json", "godot4");
}

#[test]
fn godot3_cases_check_and_dump_as_the_engine_decodes_them() {
    check_and_dump_cases("godot3_6_2.json", "godot3");
}

/// A few spot checks of the JSON against hand-read values, and of the text form.
#[test]
fn dump_spot_checks() {
    let dir = TempDir::new("spot");
    // Godot 4: [1, "a", Vector2(1.5, -2)] and a typed Array[int].
    let opts = Options::new(Dialect::Godot4);
    let v = Value::array(vec![
        Value::Int(1),
        Value::String("a".into()),
        Value::Vector2([1.5, -2.0]),
        Value::Float(f64::NAN),
    ]);
    let path = dir.file("a.bin", &encode(&v, &opts).expect("encode"));
    let o = run(&["dump", "--json", "--dialect", "godot4", "--raw", &path]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let doc: Json = serde_json::from_slice(&o.stdout).expect("json");
    let entry = &doc["values"][0];
    // The value is the core's projection, what to-json writes; the layout says where each
    // part lies.
    let to_json = run(&["to-json", "--dialect", "godot4", "--raw", &path]);
    assert_eq!(code(&to_json), 0, "{}", text(&to_json.stderr));
    let projection: Json = serde_json::from_slice(&to_json.stdout).expect("to-json");
    assert_eq!(entry["value"], projection);
    assert_eq!(
        entry["value"],
        serde_json::json!([1, "a", {"$Vector2": [1.5, -2]}, {"$float": "nan"}])
    );
    assert!(entry.get("written").is_none(), "{entry}");
    let a = &entry["layout"];
    assert_eq!(
        (&a["type"], &a["offset"], &a["size"]),
        (
            &serde_json::json!("Array"),
            &serde_json::json!(0),
            &serde_json::json!(52)
        )
    );
    assert_eq!(
        a["items"][0],
        serde_json::json!({"offset": 8, "size": 8, "type": "int", "value": 1})
    );
    assert_eq!(
        a["items"][1],
        serde_json::json!({"offset": 16, "size": 12, "type": "String", "value": "a"})
    );
    assert_eq!(
        a["items"][2]["value"],
        serde_json::json!({"$Vector2": [1.5, -2]})
    );
    assert_eq!(a["items"][3]["value"], serde_json::json!({"$float": "nan"}));
    assert_eq!(doc["dialect"], "godot4");
    assert_eq!(doc["framing"], "raw");

    let o = run(&["dump", "--dialect", "godot4", "--raw", &path]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        text(&o.stdout),
        "0: Array (4 items)\n  8: [0] int: 1\n  16: [1] String: \"a\"\n  28: [2] Vector2: (1.5, -2.0)\n  40: [3] float: nan\n1 value, 52 bytes (godot4, raw)\n"
    );
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));

    // Long packed arrays and strings are cut in text, whole with --full and in JSON.
    let long = Value::array(vec![
        Value::PackedInt32Array((0..100).collect()),
        Value::String("x".repeat(100).into()),
    ]);
    let path = dir.file("long.bin", &encode(&long, &opts).expect("encode"));
    let o = run(&["dump", "--dialect", "godot4", "--raw", &path]);
    let out = text(&o.stdout);
    assert!(
        out.contains("PackedInt32Array: (100) [0, 1, 2, 3, 4, 5, 6, 7, … (+92 more)]"),
        "{out}"
    );
    assert!(
        out.contains(&format!("\"{}\"… (100 bytes)", "x".repeat(48))),
        "{out}"
    );
    let o = run(&["dump", "--full", "--dialect", "godot4", "--raw", &path]);
    assert!(text(&o.stdout).contains("98, 99]"));
    let o = run(&["dump", "--json", "--dialect", "godot4", "--raw", &path]);
    let doc: Json = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        doc["values"][0]["layout"]["items"][0]["value"]["$PackedInt32Array"]
            .as_array()
            .map(Vec::len),
        Some(100)
    );

    // Godot's decode converts the float in an Array[int]: the note and "written" say so.
    let bytes = hex("1c000100020000000100000003000100000000000000f83f");
    let path = dir.file("typed.bin", &bytes);
    let o = run(&["dump", "--dialect", "godot4", "--raw", &path]);
    let out = text(&o.stdout);
    assert!(
        out.starts_with("0: Array[int] (1 item)\n  12: [0] float: 1.5\nnote:"),
        "{out}"
    );
    let o = run(&["dump", "--json", "--dialect", "godot4", "--raw", &path]);
    let doc: Json = serde_json::from_slice(&o.stdout).expect("json");
    let entry = &doc["values"][0];
    assert_eq!(
        entry["layout"]["items"][0],
        serde_json::json!({"offset": 12, "size": 12, "type": "float", "value": 1.5})
    );
    assert_eq!(
        entry["value"],
        serde_json::json!({"$Array": {"type": "int", "items": [1]}})
    );
    assert_eq!(
        entry["written"],
        serde_json::json!({"$Array": {"type": "int", "items": [1.5]}})
    );

    // Standard input, and a guessed dialect said on stderr.
    let o = run_stdin(
        &["dump", "-"],
        &encode(&Value::Int(5), &opts).expect("encode"),
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        text(&o.stdout),
        "0: int: 5\n1 value, 8 bytes (godot4 guessed, raw)\n"
    );
    let err = text(&o.stderr);
    assert!(
        err.contains("dialect guessed: godot4 (also fits: godot4_3, godot4_0_to_4_2, godot3"),
        "{err}"
    );
    assert!(err.contains("framing guessed: raw"), "{err}");
}

// ---- malformed inputs ----------------------------------------------------------------------

/// Every 4th malformed input of a corpus: `check` exits 1 with one line on stderr where the
/// engine refuses the bytes, 0 where it accepts them, always as the core decides.
fn check_malformed(file: &'static str, dialect: Dialect, name: &'static str) {
    big_stack(move || {
        let corpus = golden(file);
        let inputs: Vec<(String, Vec<u8>, bool, bool)> = corpus["malformed"]
            .as_array()
            .expect("malformed")
            .iter()
            .step_by(4)
            .map(|m| {
                (
                    m["name"].as_str().expect("name").to_string(),
                    hex(m["bytes"].as_str().expect("bytes")),
                    m["allow_objects"].as_bool().unwrap_or(false),
                    m["ok"].as_bool().expect("ok"),
                )
            })
            .collect();
        let dir = TempDir::new(&format!("malformed-{name}"));
        let results = parallel(&inputs, |(case, bytes, allow, ok)| {
            let path = dir.file(&format!("{}.bin", case.replace('/', "_")), bytes);
            let o = run(&with_objects(
                vec!["check", "--dialect", name, "--raw", &path],
                *allow,
            ));
            let c = code(&o);
            let core = decode(bytes, &Options::new(dialect).with_allow_objects(*allow)).is_ok();
            let mut problems = Vec::new();
            if (c == 0) != core {
                problems.push(format!("{case}: exit {c}, the core says ok={core}"));
            }
            if c != 0 {
                let err = text(&o.stderr);
                if !(err.starts_with("error: ") && err.lines().count() == 1) {
                    problems.push(format!("{case}: not one line: {err:?}"));
                }
            }
            // The core without the engine's class list admits every class: compare the
            // verdict with the engine's where no object is involved.
            if !*allow && (c == 0) != *ok {
                problems.push(format!("{case}: exit {c}, the engine says ok={ok}"));
            }
            (c != 0, problems)
        });
        let refused = results.iter().filter(|(r, _)| *r).count();
        let problems: Vec<String> = results.into_iter().flat_map(|(_, p)| p).collect();
        eprintln!(
            "{file}: {} malformed inputs checked, {refused} refused",
            inputs.len()
        );
        assert!(refused > 200, "{file}: only {refused} refused");
        assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
    });
}

#[test]
fn godot4_malformed_inputs_fail_check() {
    check_malformed("godot4_6_3.json", Dialect::Godot4, "godot4");
}

#[test]
fn godot3_malformed_inputs_fail_check() {
    check_malformed("godot3_6_2.json", Dialect::Godot3, "godot3");
}

/// Cut short at every length, flipped at every byte: never a panic, exit 0 or 1 only.
#[test]
fn damaged_inputs_never_panic() {
    big_stack(|| {
        let corpus = golden("godot4_6_3.json");
        let case = cases(&corpus)
            .into_iter()
            .filter(|c| c.bytes.len() > 60 && c.bytes.len() < 200)
            .find(|c| c.name.starts_with("dictionary/"))
            .expect("a dictionary case");
        let dir = TempDir::new("damaged");
        let mut inputs: Vec<Vec<u8>> = (0..case.bytes.len())
            .map(|n| case.bytes[..n].to_vec())
            .collect();
        for i in 0..case.bytes.len() {
            let mut b = case.bytes.clone();
            b[i] ^= 0x81;
            inputs.push(b);
        }
        parallel(&inputs.iter().enumerate().collect::<Vec<_>>(), |(i, b)| {
            let path = dir.file(&format!("{i}.bin"), b);
            for args in [
                vec!["dump", &path],
                vec!["dump", "--json", &path],
                vec!["check", "--framed", &path],
                vec!["dump", "--raw", "--dialect", "pandemonium5", &path],
            ] {
                let c = code(&run(&args));
                assert!(c == 0 || c == 1, "{args:?}: exit {c}");
            }
        });
    });
}

// ---- convert -------------------------------------------------------------------------------

/// Godot 3 bytes converted to Godot 4 are the core's encode(decode(x)), and decode in Godot 4
/// to the same value.
#[test]
fn godot3_cases_convert_to_godot4_as_the_core_does() {
    big_stack(|| {
        let corpus = golden("godot3_6_2.json");
        let cases = cases(&corpus);
        let dir = TempDir::new("convert");
        let problems: Vec<String> = parallel(&cases, |case| {
            let stem = case.name.replace('/', "_");
            let input = dir.file(&format!("{stem}.g3"), &case.bytes);
            let output = dir.path(&format!("{stem}.g4"));
            let o = run(&with_objects(
                vec![
                    "convert", "--from", "godot3", "--to", "godot4", "--raw", &input, &output,
                ],
                case.full_objects,
            ));
            let from = Options::new(Dialect::Godot3).with_allow_objects(case.full_objects);
            let to = Options::new(Dialect::Godot4)
                .with_allow_objects(case.full_objects)
                .with_full_objects(case.full_objects);
            let (value, _) = decode(&case.bytes, &from).expect("the core decodes the case");
            match (code(&o), encode(&value, &to)) {
                (0, Ok(expected)) => {
                    let ours = std::fs::read(&output).expect("output");
                    if ours != expected[..] {
                        return Some(format!("{}: output differs from the core's", case.name));
                    }
                    match decode(&ours, &to) {
                        Ok((back, used)) if back == value && used == ours.len() => None,
                        // Godot drops one leading BOM on each decode: "\u{feff}\u{feff}x"
                        // decodes to "\u{feff}x" in Godot 3, and that to "x" in Godot 4.
                        Ok((back, _))
                            if case.name == "string/double_bom"
                                && back == Value::String("x".into()) =>
                        {
                            None
                        }
                        Ok((back, _)) => Some(format!("{}: decodes to {back:?}", case.name)),
                        Err(e) => Some(format!("{}: does not decode in Godot 4: {e}", case.name)),
                    }
                }
                (1, Err(_)) => None,
                (c, expected) => Some(format!(
                    "{}: exit {c} ({}), the core: {expected:?}",
                    case.name,
                    text(&o.stderr)
                )),
            }
        })
        .into_iter()
        .flatten()
        .collect();
        eprintln!("godot3_6_2.json: {} cases converted", cases.len());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    });
}

#[test]
fn convert_framed_files_and_errors() {
    big_stack(|| {
        let dir = TempDir::new("convert-framed");
        let plain = repo().join("tests/saves/godot3_6_2/plain.bin");
        let plain = plain.to_str().expect("path");
        let out = dir.path("plain_g4.bin");
        let o = run(&[
            "convert",
            "--allow-objects",
            "--from",
            "godot3",
            "--to",
            "godot4",
            plain,
            &out,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        // Same values, framed, in Godot 4.
        let opts3 = Options::new(Dialect::Godot3).with_allow_objects(true);
        let opts4 = Options::new(Dialect::Godot4).with_allow_objects(true);
        let read_all = |path: &str, opts: &Options| {
            let mut r = StreamReader::new(opts.clone()).with_max_message(usize::MAX);
            r.feed(&std::fs::read(path).expect("read")).expect("feed");
            let mut values = Vec::new();
            while let Some(v) = r.next_value().expect("decode") {
                values.push(v);
            }
            assert_eq!(r.buffered(), 0);
            values
        };
        let before = read_all(plain, &opts3);
        let after = read_all(&out, &opts4);
        assert_eq!(before.len(), 59);
        assert_eq!(before, after);
        let o = run(&["check", "--allow-objects", "--dialect", "godot4", &out]);
        assert_eq!(code(&o), 0);
        assert_eq!(
            text(&o.stdout),
            format!(
                "valid: 59 values, {} bytes (godot4, framed)\n",
                std::fs::metadata(&out).expect("size").len()
            )
        );

        // To standard output, big-endian prefixes.
        let mut wire = BytesMut::new();
        frame(
            &Value::Int(1),
            &Options::default(),
            ByteOrder::Big,
            &mut wire,
        )
        .expect("frame");
        let input = dir.file("be.bin", &wire);
        let o = run(&[
            "convert",
            "--from",
            "godot4",
            "--to",
            "godot3",
            "--framed",
            "--byte-order",
            "big",
            &input,
            "-",
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert_eq!(o.stdout, hex("000000080200000001000000"));

        // A Godot 4-only value to Godot 3: refused with where it lies in the input (the
        // Vector2i after the Array's header, count and first Int), or converted with
        // --allow-lossy.
        let v = Value::array(vec![Value::Int(1), Value::Vector2i([1, 2])]);
        let input = dir.file("g4.bin", &encode(&v, &Options::default()).expect("encode"));
        let out = dir.path("g3.bin");
        let o = run(&[
            "convert", "--from", "godot4", "--to", "godot3", "--raw", &input, &out,
        ]);
        assert_eq!(code(&o), 1);
        let err = text(&o.stderr);
        assert!(
            err.contains("value 0 (at byte 0) cannot be written in godot3"),
            "{err}"
        );
        assert!(err.contains("input byte 16"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        let o = run(&[
            "convert",
            "--allow-lossy",
            "--from",
            "godot4",
            "--to",
            "godot3",
            "--raw",
            &input,
            &out,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        let (back, _) = decode(
            &std::fs::read(&out).expect("out"),
            &Options::new(Dialect::Godot3),
        )
        .expect("decode");
        assert_eq!(
            back,
            Value::array(vec![Value::Int(1), Value::Vector2([1.0, 2.0])])
        );

        // A decode error names the value and the byte.
        let mut wire = BytesMut::new();
        frame(
            &Value::Int(1),
            &Options::default(),
            ByteOrder::Little,
            &mut wire,
        )
        .expect("frame");
        wire.extend_from_slice(&hex("08000000ff00000000000000"));
        let input = dir.file("bad.bin", &wire);
        let o = run(&[
            "convert", "--from", "godot4", "--to", "godot3", &input, &out,
        ]);
        assert_eq!(code(&o), 1);
        let err = text(&o.stderr);
        assert!(
            err.contains("value 1 (frame at byte 12): decode failed at byte 16: type id 255"),
            "{err}"
        );
        // Usage errors exit 2.
        assert_eq!(
            code(&run(&[
                "convert", "--from", "godot4", "--to", "auto", &input, &out
            ])),
            2
        );
        assert_eq!(
            code(&run(&[
                "convert", "--from", "godot5", "--to", "godot4", &input, &out
            ])),
            2
        );
        assert_eq!(code(&run(&["check", "--framed", "--raw", &input])), 2);
        assert_eq!(code(&run(&["dump"])), 2);
        assert_eq!(code(&run(&["--help"])), 0);
    });
}

// ---- check limits --------------------------------------------------------------------------

#[test]
fn check_applies_limits() {
    let dir = TempDir::new("limits");
    let nested = Value::array(vec![Value::array(vec![Value::array(vec![
        Value::String("abcdef".into()),
        Value::Int(1),
    ])])]);
    let path = dir.file(
        "n.bin",
        &encode(&nested, &Options::default()).expect("encode"),
    );
    let ok = |args: &[&str]| {
        let mut all = vec!["check", "--dialect", "godot4", "--raw"];
        all.extend_from_slice(args);
        all.push(&path);
        run(&all)
    };
    assert_eq!(code(&ok(&[])), 0);
    assert_eq!(code(&ok(&["--max-depth", "3"])), 0);
    assert_eq!(code(&ok(&["--max-elements", "4"])), 0);
    assert_eq!(code(&ok(&["--max-bytes", "6"])), 0);
    for (args, says) in [
        (["--max-depth", "2"], "nesting deeper than 2 levels"),
        (["--max-elements", "3"], "more than 3 elements"),
        (["--max-bytes", "5"], "more than 5 bytes"),
    ] {
        let o = ok(&args);
        assert_eq!(code(&o), 1, "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(code(&ok(&["--max-depth", "x"])), 2);
    // Not there, not readable: exit 1 with one line.
    let o = run(&["check", &dir.path("missing.bin")]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).starts_with("error: cannot read"));
}

// ---- Godot 3 save files --------------------------------------------------------------------

#[test]
fn godot3_save_files_dump_and_check() {
    big_stack(|| {
        let dir = repo().join("tests/saves/godot3_6_2");
        let plain = dir.join("plain.bin");
        let plain = plain.to_str().expect("path");
        let encrypted = dir.join("encrypted_pass.bin");
        let encrypted = encrypted.to_str().expect("path");
        let size = std::fs::metadata(plain).expect("plain.bin").len();

        let o = run(&["check", "--allow-objects", plain]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert_eq!(
            text(&o.stdout),
            format!("valid: 59 values, {size} bytes (godot3, framed)\n")
        );
        let err = text(&o.stderr);
        assert!(err.contains("dialect guessed: godot3"), "{err}");
        assert!(
            err.contains("framing guessed: framed (59 length-prefixed values"),
            "{err}"
        );

        let o = run(&[
            "check",
            "--allow-objects",
            "--password",
            "fvc secret ✓",
            encrypted,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert_eq!(
            text(&o.stdout),
            format!("valid: 59 values, {size} bytes (godot3, framed)\n")
        );

        // The dump of the encrypted file is the plain file's (offsets in the plaintext).
        let dump_plain = run(&["dump", "--allow-objects", "--dialect", "godot3", plain]);
        assert_eq!(code(&dump_plain), 0);
        let out = text(&dump_plain.stdout);
        assert_eq!(out.lines().filter(|l| l.starts_with("frame ")).count(), 59);
        assert!(
            out.ends_with(&format!("59 values, {size} bytes (godot3, framed)\n")),
            "{out}"
        );
        assert!(out.contains("frame 32 at 808: 284 bytes\n  812: Object Curve (7 properties)\n"));
        let dump_enc = run(&[
            "dump",
            "--allow-objects",
            "--dialect",
            "godot3",
            "--password",
            "fvc secret ✓",
            encrypted,
        ]);
        assert_eq!(code(&dump_enc), 0, "{}", text(&dump_enc.stderr));
        assert_eq!(dump_enc.stdout, dump_plain.stdout);

        // The JSON frames are where the engine put the values (the sidecar's offsets).
        let side = load_json(&dir.join("plain.json"));
        let o = run(&["dump", "--json", "--allow-objects", "--framed", plain]);
        assert_eq!(code(&o), 0);
        let doc: Json = serde_json::from_slice(&o.stdout).expect("json");
        let values = doc["values"].as_array().expect("values");
        let engine = side["values"].as_array().expect("sidecar values");
        assert_eq!(values.len(), 59);
        assert_eq!(engine.len(), 59);
        for (i, (ours, theirs)) in values.iter().zip(engine).enumerate() {
            assert_eq!(
                ours["frame"]["offset"], theirs["offset"],
                "{}",
                theirs["name"]
            );
            if theirs["value"]["sha256"].is_null() {
                matches_desc(&dumped_desc(&o.stdout, i, false), &theirs["value"])
                    .unwrap_or_else(|e| panic!("{}: {e}", theirs["name"]));
            }
        }
        assert_eq!(doc["dialect"], "godot3");
        assert_eq!(doc["dialect_guessed"], true);

        // Without the password, with a wrong one, without --allow-objects: one line, exit 1.
        for (args, says) in [
            (
                vec!["check", "--allow-objects", encrypted],
                "pass --password-env VAR",
            ),
            (
                vec![
                    "check",
                    "--allow-objects",
                    "--password",
                    "fvc secret",
                    encrypted,
                ],
                "wrong key or password",
            ),
            (
                vec!["check", "--dialect", "godot3", plain],
                "pass --allow-objects",
            ),
        ] {
            let o = run(&args);
            assert_eq!(code(&o), 1, "{args:?}");
            let err = text(&o.stderr);
            assert!(err.contains(says), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        // The key file opens with its key.
        let side = load_json(&dir.join("encrypted_key.json"));
        let key = side["key_hex"].as_str().expect("key");
        let o = run(&[
            "check",
            "--allow-objects",
            "--key-hex",
            key,
            dir.join("encrypted_key.bin").to_str().expect("path"),
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    });
}

// ---- the documented example ------------------------------------------------------------------

/// The "Command line" example of docs/rust.md: its output is exactly what the binary prints.
#[test]
fn documented_example_is_exact() {
    let readme = std::fs::read_to_string(repo().join("docs/rust.md")).expect("docs/rust.md");
    let section = readme
        .split("\n## Command line\n")
        .nth(1)
        .expect("a \"Command line\" section")
        .split("\n## ")
        .next()
        .expect("section");
    let command = "$ fast-var-codec dump --dialect godot4 --framed save.dat\n";
    let block = section
        .split(command)
        .nth(1)
        .expect("the dump example")
        .split("```")
        .next()
        .expect("its output");

    // The values of the example, as `store_var` writes them.
    let opts = Options::default();
    let mut file = BytesMut::new();
    for v in [
        Value::Int(7),
        Value::dictionary(vec![
            (Value::String("hp".into()), Value::Int(10)),
            (Value::String("pos".into()), Value::Vector2([1.5, -2.0])),
        ]),
        Value::PackedStringArray(vec!["sword".into(), "shield".into()]),
    ] {
        frame(&v, &opts, ByteOrder::Little, &mut file).expect("frame");
    }
    let dir = TempDir::new("readme");
    let path = dir.file("save.dat", &file);
    let o = run(&["dump", "--dialect", "godot4", "--framed", &path]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        text(&o.stdout),
        block,
        "the example of docs/rust.md differs from the output"
    );
    assert!(o.stderr.is_empty());
}

/// Godot 3's compressed saves (`File.open_compressed`), as Godot 3.6.2 and 3.2.3 wrote them in
/// each mode: the mode comes from the file's header, the values are those of `plain.bin`, and
/// damaged or cut files fail with a reason instead of wrong values.
#[test]
fn compressed_godot3_saves_read_in_every_mode() {
    big_stack(|| {
        let dir = TempDir::new("compressed");
        let dump = |path: &str| {
            let o = run(&[
                "dump",
                "--json",
                "--dialect",
                "godot3",
                "--allow-objects",
                "--framed",
                path,
            ]);
            assert_eq!(code(&o), 0, "{path}: {}", text(&o.stderr));
            serde_json::from_slice::<Json>(&o.stdout).expect("JSON")
        };
        for engine in ["godot3_6_2", "godot3_2_3"] {
            let saves = repo().join("tests/saves").join(engine);
            let plain = dump(saves.join("plain.bin").to_str().expect("path"));
            assert_eq!(plain["values"].as_array().map(Vec::len), Some(59));
            for mode in ["fastlz", "deflate", "zstd", "gzip"] {
                let name = format!("compressed_{mode}.bin");
                let path = saves.join(&name);
                let path = path.to_str().expect("path");
                assert_eq!(
                    dump(path),
                    plain,
                    "{engine} {name}: the values of plain.bin"
                );

                let file = std::fs::read(path).expect("fixture");
                // The second block (offset after the 16-byte header and the block table),
                // its first bytes overwritten: no codec takes 0xff as a block's start.
                let count = u32::from_le_bytes(file[12..16].try_into().expect("4")) / 4096 + 1;
                let first = u32::from_le_bytes(file[16..20].try_into().expect("4")) as usize;
                let second = 16 + 4 * count as usize + first;
                let mut damaged = file.clone();
                damaged[second..second + 4].fill(0xff);
                let bad = dir.file(&format!("{engine}_{name}_damaged"), &damaged);
                let o = run(&["check", "--dialect", "godot3", &bad]);
                assert_eq!(code(&o), 1, "{engine} {name} damaged");
                let err = text(&o.stderr);
                assert!(
                    err.contains(&format!(
                        "compressed block 1 (file offset {second}) is damaged"
                    )),
                    "{engine} {name} damaged: {err}"
                );

                // Cut inside the blocks.
                let cut = dir.file(&format!("{engine}_{name}_cut"), &file[..file.len() / 2]);
                let o = run(&["check", "--dialect", "godot3", &cut]);
                assert_eq!(code(&o), 1, "{engine} {name} cut");
                assert!(
                    text(&o.stderr).contains("compressed file cut short"),
                    "{engine} {name} cut: {}",
                    text(&o.stderr)
                );
            }
        }
        // A plain save cut inside its last record.
        let plain = std::fs::read(repo().join("tests/saves/godot3_6_2/plain.bin")).expect("plain");
        let cut = dir.file("plain_cut", &plain[..plain.len() - 3]);
        let o = run(&[
            "check",
            "--dialect",
            "godot3",
            "--framed",
            "--allow-objects",
            &cut,
        ]);
        assert_eq!(code(&o), 1);
        assert!(text(&o.stderr).contains("cut short"), "{}", text(&o.stderr));
        // An encrypted save without its password.
        let enc = repo().join("tests/saves/godot3_6_2/encrypted_pass.bin");
        let o = run(&["check", "--dialect", "godot3", enc.to_str().expect("path")]);
        assert_eq!(code(&o), 1);
        assert!(
            text(&o.stderr).contains("is an encrypted file: pass --password-env VAR"),
            "{}",
            text(&o.stderr)
        );
    });
}

/// A Godot 4 encrypted file (FileAccess.open_encrypted_with_pass; the container the Python tests
/// check against Godot 4.6.3) opens with its password, the dialect guessed or given; Godot 3's
/// container is not taken for it.
#[test]
fn opens_godot4_encrypted_files() {
    use fast_var_codec_core::save::{encrypt_godot4, FileKey};
    let dir = TempDir::new("godot4_encrypted");
    // Two store_var records: 7, then "hi".
    let mut records = vec![8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
    records.extend_from_slice(&[12, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
    let file = dir.file(
        "save.bin",
        &encrypt_godot4(&records, &FileKey::from_password("pw"), [4; 16]),
    );
    for dialect in [&["--dialect", "godot4"][..], &[]] {
        let mut args = vec!["check", "--framed", "--password", "pw"];
        args.extend_from_slice(dialect);
        args.push(&file);
        let o = run(&args);
        assert_eq!(code(&o), 0, "{args:?}: {}", text(&o.stderr));
    }
    let o = run(&[
        "check",
        "--framed",
        "--password",
        "pw",
        "--dialect",
        "godot3",
        &file,
    ]);
    assert_eq!(code(&o), 1, "Godot 3's container");
    let o = run(&["check", "--framed", "--password", "wrong", &file]);
    assert_eq!(code(&o), 1, "a wrong password");
    assert!(
        text(&o.stderr).contains("wrong key or password"),
        "{}",
        text(&o.stderr)
    );
}

/// A Godot 3 save read without a dialect is read as Godot 3 (the core's rule: the first dialect
/// that reads every record whole), and named as Godot 4 it is an error naming Godot 3, where a
/// reader that ignored what each value leaves of its record returned garbage; a compressed file
/// announcing more than --max-payload is refused before it is inflated.
#[test]
fn a_godot3_save_is_found_and_refused_in_the_wrong_dialect() {
    let plain = repo().join("tests/saves/godot3_6_2/plain.bin");
    let plain = plain.to_str().expect("path");
    let o = run(&["check", "--framed", "--allow-objects", plain]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("godot3"), "{}", text(&o.stdout));
    let o = run(&[
        "check",
        "--framed",
        "--allow-objects",
        "--dialect",
        "godot4",
        plain,
    ]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("reads whole as Godot 3"),
        "{}",
        text(&o.stderr)
    );
    let deflate = repo().join("tests/saves/godot3_6_2/compressed_deflate.bin");
    let deflate = deflate.to_str().expect("path");
    let o = run(&["check", "--max-payload", "1000", "--allow-objects", deflate]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("above the limit of 1000 bytes"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&["check", "--allow-objects", deflate]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
}

/// `to-json` then `from-json` gives the bytes decoding then encoding gives, for every case of
/// every golden corpus of values (the values' and the reals' corpora of every engine) that
/// fills its frame (a framed file of them per corpus, in its dialect and precision, with and
/// without full objects); and the JSON is the core's projection.
#[test]
fn json_round_trips_every_golden_case() {
    use fast_var_codec_core::json::to_json_pretty;
    big_stack(|| {
        let dir = TempDir::new("json");
        for (file, dialect, precision) in [
            ("godot4_6_3.json", "godot4", "single"),
            ("godot4_6_3_double.json", "godot4", "double"),
            ("godot3_6_2.json", "godot3", "single"),
            ("godot3_2_3.json", "godot3", "single"),
            ("pandemonium_4_9_0.json", "pandemonium38", "single"),
            ("pandemonium_5_2_0.json", "pandemonium5", "single"),
            ("reals_godot4_6_3.json", "godot4", "single"),
            ("reals_godot4_6_3_double.json", "godot4", "double"),
            ("reals_godot3_6_2.json", "godot3", "single"),
            ("reals_godot3_2_3.json", "godot3", "single"),
        ] {
            let corpus = golden(file);
            let cases = corpus["cases"].as_array().expect("cases");
            let d: Dialect = dialect.parse().expect("dialect");
            let base = Options::new(d).with_precision(if precision == "double" {
                fast_var_codec_core::options::Precision::Double
            } else {
                fast_var_codec_core::options::Precision::Single
            });
            for objects in [false, true] {
                let of_kind = cases
                    .iter()
                    .filter(|c| c["full_objects"].as_bool().unwrap_or(false) == objects)
                    .count();
                if of_kind == 0 {
                    continue;
                }
                let opts = base
                    .clone()
                    .with_allow_objects(objects)
                    .with_full_objects(objects);
                let mut input = BytesMut::new();
                let mut expected = BytesMut::new();
                let mut values = Vec::new();
                for case in cases {
                    if case["full_objects"].as_bool().unwrap_or(false) != objects {
                        continue;
                    }
                    let bytes = hex(case["bytes"].as_str().expect("bytes"));
                    let Ok((v, used)) = decode(&bytes, &opts) else {
                        continue;
                    };
                    if used != bytes.len() || encode(&v, &opts).is_err() {
                        continue;
                    }
                    input.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
                    input.extend_from_slice(&bytes);
                    frame(&v, &opts, ByteOrder::Little, &mut expected).expect("frame");
                    values.push(v);
                }
                // All but a few cases fill their frame and can be written again.
                assert!(
                    values.len() * 10 > of_kind * 9,
                    "{file}: {} values of {of_kind}",
                    values.len()
                );
                let bin = dir.file("in.bin", &input);
                let json = dir.path("values.json");
                let mut args = vec!["to-json", "--framed", "--dialect", dialect];
                args.extend(["--precision", precision, &bin, &json]);
                let o = run(&with_objects(args, objects));
                assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
                let written = std::fs::read_to_string(&json).expect("json");
                assert_eq!(
                    written,
                    to_json_pretty(&Value::array(values)) + "\n",
                    "{file}: the core's projection"
                );
                let out = dir.path("out.bin");
                let mut args = vec!["from-json", "--framed", "--to", dialect];
                args.extend(["--precision", precision, &json, &out]);
                let o = run(&with_objects(args, objects));
                assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
                let got = std::fs::read(&out).expect("out");
                assert!(
                    got == expected[..],
                    "{file} (objects: {objects}): other bytes"
                );
            }
        }
    });
}

#[test]
fn json_commands_spot_checks() {
    let dir = TempDir::new("json-spots");
    // A raw value from standard input, compact JSON to standard output.
    let v = Value::dictionary(vec![
        (Value::String("hp".into()), Value::Int(10)),
        (Value::String("pos".into()), Value::Vector2([1.5, -2.0])),
        (Value::String("$type".into()), Value::Float(2.0)),
    ]);
    let bytes = encode(&v, &Options::default()).expect("encode");
    let o = run_stdin(&["to-json", "--raw", "--compact", "-"], &bytes);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "{\"$Dictionary\":[[\"hp\",10],[\"pos\",{\"$Vector2\":[1.5,-2]}],[\"$type\",{\"$float\":2}]]}\n"
    );
    assert!(
        text(&o.stderr).contains("dialect guessed"),
        "{}",
        text(&o.stderr)
    );
    // Back, to standard output.
    let o = run_stdin(&["from-json", "--to", "godot4", "-", "-"], &o.stdout);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(o.stdout, bytes.to_vec());
    // Errors name the place in the JSON; a Godot 4 type cannot be written in Godot 3 strictly.
    let bad = dir.file("bad.json", b"{\"a\": [1, {\"$Vector2\": [1]}]}");
    let o = run(&["from-json", "--to", "godot4", &bad, "-"]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("$.a[1].$Vector2"),
        "{}",
        text(&o.stderr)
    );
    let v4 = dir.file("v4.json", b"{\"$Vector4i\": [1, 2, 3, 4]}");
    let o = run(&["from-json", "--to", "godot3", &v4, "-"]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("godot3"), "{}", text(&o.stderr));
    let o = run(&["from-json", "--to", "auto", &v4, "-"]);
    assert_eq!(code(&o), 2);
    let o = run(&["from-json", "--framed", "--to", "godot4", &v4, "-"]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("not an array"),
        "{}",
        text(&o.stderr)
    );
}

/// The Godot 3.6.2 save fixtures: the payload (plain.bin) and the engine's own containers of it.
fn saves_dir() -> PathBuf {
    repo().join("tests/saves/godot3_6_2")
}

/// The password the engine encrypted `encrypted_pass.bin` with.
fn fixture_password() -> String {
    let meta = load_json(&saves_dir().join("encrypted_pass.json"));
    meta["password"].as_str().expect("password").to_string()
}

/// `convert` reads the input dialect by the core's detection when --from is not given (auto,
/// its default, and --dialect as its other name), the output dialect lists no auto, and
/// `from-json` neither.
#[test]
fn convert_detects_the_input_dialect_and_offers_no_auto_output() {
    let dir = TempDir::new("auto");
    let plain = saves_dir().join("plain.bin");
    let plain = plain.to_str().expect("path");
    let given = dir.path("given.bin");
    let o = run(&[
        "convert",
        "--allow-objects",
        "--from",
        "godot3",
        "--to",
        "godot4",
        plain,
        &given,
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    for from in [&[][..], &["--from", "auto"][..], &["--dialect", "auto"][..]] {
        let out = dir.path("auto.bin");
        let mut args = vec!["convert", "--allow-objects", "--to", "godot4"];
        args.extend_from_slice(from);
        args.extend([plain, &out]);
        let o = run(&args);
        assert_eq!(code(&o), 0, "{from:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("dialect guessed: godot3"),
            "{}",
            text(&o.stderr)
        );
        assert_eq!(
            std::fs::read(&out).expect("out"),
            std::fs::read(&given).expect("given")
        );
    }
    for cmd in ["convert", "from-json"] {
        let o = run(&[cmd, "--help"]);
        let help = text(&o.stdout);
        let to = help
            .split("      --to <TO>")
            .nth(1)
            .expect("--to in the help");
        let to = to.split("\n      --").next().expect("its section");
        assert!(to.contains("godot3"), "{cmd}: {to}");
        assert!(!to.contains("auto"), "{cmd} --to lists auto: {to}");
        let o = run(&[cmd, "--to", "auto", plain, "-"]);
        assert_eq!(code(&o), 2, "{cmd}");
    }
}

/// `convert --compress MODE` writes the compressed file the engine's open_compressed reads,
/// in every mode of the core, and `--encrypt` the encrypted file of the output dialect's
/// engine, with the password or key from an environment variable or a file; each reads back
/// (by the CLI and by the core) to the payload a plain convert writes. The inputs are the
/// engine's own compressed and encrypted saves.
#[test]
fn convert_writes_compressed_and_encrypted_files() {
    use fast_var_codec_core::save::FileKey;
    use fast_var_codec_core::save::{decompress_block, open, OpenOptions};
    let dir = TempDir::new("containers");
    let saves = saves_dir();
    let password = fixture_password();
    let pw_file = dir.file("pw.txt", format!("{password}\n").as_bytes());
    let key_hex: String = (0u8..32).map(|b| format!("{:02x}", b * 7)).collect();
    let key_file = dir.file("key.txt", format!("{key_hex}\n").as_bytes());
    let key = FileKey::from_bytes(std::array::from_fn(|i| (i as u8) * 7));
    for to in ["godot3", "godot4"] {
        let d: Dialect = to.parse().expect("dialect");
        let plain = dir.path(&format!("plain_{to}.bin"));
        let src = saves.join("plain.bin");
        let o = run(&[
            "convert",
            "--allow-objects",
            "--to",
            to,
            src.to_str().expect("path"),
            &plain,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        let payload = std::fs::read(&plain).expect("plain");
        let read_back = |file: &str, k: Option<&FileKey>| -> Vec<u8> {
            let bytes = std::fs::read(file).expect("written");
            let opts = OpenOptions::new().with_key(k);
            let opened = open(&bytes, Some(d), &opts, decompress_block).expect("the core opens it");
            opened.payload.into_owned()
        };
        for mode in ["fastlz", "deflate", "zstd", "gzip"] {
            let input = saves.join(format!("compressed_{mode}.bin"));
            let out = dir.path(&format!("{to}_{mode}.bin"));
            let o = run(&[
                "convert",
                "--allow-objects",
                "--to",
                to,
                "--compress",
                mode,
                input.to_str().expect("path"),
                &out,
            ]);
            assert_eq!(code(&o), 0, "{mode}: {}", text(&o.stderr));
            assert_eq!(&std::fs::read(&out).expect("out")[..4], b"GCPF", "{mode}");
            assert!(
                read_back(&out, None) == payload,
                "{to} {mode}: other payload"
            );
            let again = dir.path("again.bin");
            let o = run(&["convert", "--allow-objects", "--to", to, &out, &again]);
            assert_eq!(code(&o), 0, "{}", text(&o.stderr));
            assert!(std::fs::read(&again).expect("again") == payload);
        }
        let input = saves.join("encrypted_pass.bin");
        let input = input.to_str().expect("path");
        let by_env = dir.path(&format!("{to}_env.bin"));
        let o = Command::new(bin())
            .args([
                "convert",
                "--allow-objects",
                "--to",
                to,
                "--encrypt",
                "--password-env",
                "FVC_TEST_PASSWORD",
                input,
                &by_env,
            ])
            .env("FVC_TEST_PASSWORD", &password)
            .output()
            .expect("run");
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert_eq!(&std::fs::read(&by_env).expect("out")[..4], b"GDEC");
        let pw_key = FileKey::from_password(&password);
        assert!(
            read_back(&by_env, Some(&pw_key)) == payload,
            "{to}: other payload"
        );
        // The same password from a file; another key for the output, from a file.
        let by_key = dir.path(&format!("{to}_key.bin"));
        let o = run(&[
            "convert",
            "--allow-objects",
            "--to",
            to,
            "--password-file",
            &pw_file,
            "--encrypt",
            "--out-key-file",
            &key_file,
            input,
            &by_key,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert!(
            read_back(&by_key, Some(&key)) == payload,
            "{to}: other payload"
        );
        let again = dir.path("again.bin");
        let o = run(&[
            "convert",
            "--allow-objects",
            "--key-file",
            &key_file,
            "--to",
            to,
            &by_key,
            &again,
        ]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert!(std::fs::read(&again).expect("again") == payload);
        // No secret to encrypt with: a usage error, nothing written.
        let none = dir.path("none.bin");
        let o = run(&[
            "convert",
            "--allow-objects",
            "--to",
            to,
            "--encrypt",
            &plain,
            &none,
        ]);
        assert_eq!(code(&o), 2, "{}", text(&o.stderr));
        assert!(!Path::new(&none).exists());
    }
}

/// The password of an encrypted input comes from an environment variable or a file, not only
/// from the command line; a missing variable is a usage error; without any, the error names the
/// options (and asks nothing when no terminal is there to answer).
#[test]
fn passwords_come_from_the_environment_or_a_file() {
    let dir = TempDir::new("secrets");
    let input = saves_dir().join("encrypted_pass.bin");
    let input = input.to_str().expect("path");
    let password = fixture_password();
    let pw_file = dir.file("pw.txt", format!("{password}\r\n").as_bytes());
    let o = Command::new(bin())
        .args([
            "check",
            "--allow-objects",
            "--password-env",
            "FVC_PW",
            input,
        ])
        .env("FVC_PW", &password)
        .output()
        .expect("run");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("valid: "),
        "{}",
        text(&o.stdout)
    );
    let o = run(&[
        "check",
        "--allow-objects",
        "--password-file",
        &pw_file,
        input,
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let o = Command::new(bin())
        .args(["check", "--password-env", "FVC_UNSET_PW", input])
        .env_remove("FVC_UNSET_PW")
        .output()
        .expect("run");
    assert_eq!(code(&o), 2, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("FVC_UNSET_PW"),
        "{}",
        text(&o.stderr)
    );
    let o = run_stdin(&["check", "--allow-objects", input], b"");
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("--password-env"),
        "{}",
        text(&o.stderr)
    );
    // Two sources at once are refused.
    let o = run(&[
        "check",
        "--password",
        "a",
        "--password-file",
        &pw_file,
        input,
    ]);
    assert_eq!(code(&o), 2);
}

/// `--quiet`, before or after the command, leaves only errors on stderr.
#[test]
fn quiet_leaves_only_errors() {
    let plain = saves_dir().join("plain.bin");
    let plain = plain.to_str().expect("path");
    let o = run(&["check", "--allow-objects", plain]);
    assert_eq!(code(&o), 0);
    assert!(text(&o.stderr).contains("note: "), "{}", text(&o.stderr));
    for args in [
        &["--quiet", "check", "--allow-objects", plain][..],
        &["check", "-q", "--allow-objects", plain][..],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{args:?}");
        assert!(text(&o.stdout).starts_with("valid: "));
    }
    let o = run(&["-q", "check", plain]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).starts_with("error: "),
        "{}",
        text(&o.stderr)
    );
}

/// A decode error names the key path of the value that failed (spelled as encode errors spell
/// it) besides the byte offset, in a raw value and in a frame of a store_var file.
#[test]
fn decode_errors_name_the_key_path() {
    let player = |name: &str| {
        Value::dictionary(vec![
            (Value::String("name".into()), Value::String(name.into())),
            (Value::String("hp".into()), Value::Int(3)),
        ])
    };
    let players: Vec<Value> = ["Ann", "Bo", "Cy", "Dee"].into_iter().map(player).collect();
    let save = Value::dictionary(vec![
        (Value::String("level".into()), Value::Int(2)),
        (Value::String("players".into()), Value::array(players)),
    ]);
    let opts = Options::default();
    let mut bytes = encode(&save, &opts).expect("encode").to_vec();
    // Spoil the UTF-8 of "Dee": the last player's name.
    let at = bytes
        .windows(3)
        .rposition(|w| w == b"Dee")
        .expect("the name");
    bytes[at] = 0xff;
    for framed in [false, true] {
        let input = if framed {
            let mut f = (bytes.len() as u32).to_le_bytes().to_vec();
            f.extend_from_slice(&bytes);
            f
        } else {
            bytes.clone()
        };
        let layout = if framed { "--framed" } else { "--raw" };
        for cmd in ["check", "dump", "to-json"] {
            let o = run_stdin(&[cmd, "--dialect", "godot4", layout, "-"], &input);
            assert_eq!(code(&o), 1, "{cmd}");
            let err = text(&o.stderr);
            assert!(
                err.contains(r#"in ["players"][3]["name"]"#),
                "{cmd} {layout}: {err}"
            );
            assert!(err.contains("at byte"), "{cmd}: {err}");
        }
        let o = run_stdin(
            &[
                "convert", "--from", "godot4", "--to", "godot3", layout, "-", "-",
            ],
            &input,
        );
        assert_eq!(code(&o), 1);
        assert!(
            text(&o.stderr).contains(r#"["players"][3]["name"]"#),
            "{}",
            text(&o.stderr)
        );
    }
}

/// `auto` never guesses: bytes Godot 3.6.2 wrote that Godot 4 reads whole as something else (a
/// Color is a Plane) exit 1 naming each reading and the `--dialect` values; with the dialect,
/// or beside values that tell it, they read as the engine read them.
#[test]
fn auto_refuses_what_engines_read_as_different_values() {
    big_stack(|| {
        let corpus = golden("godot3_6_2.json");
        let cases = cases(&corpus);
        let dir = TempDir::new("ambiguous");
        let find = |name: &str| {
            cases
                .iter()
                .find(|c| c.name == name)
                .unwrap_or_else(|| panic!("no case {name}"))
        };
        let framed = |parts: &[&Case]| {
            let mut out = Vec::new();
            for c in parts {
                out.extend_from_slice(&(c.bytes.len() as u32).to_le_bytes());
                out.extend_from_slice(&c.bytes);
            }
            out
        };
        let color = find("color/distinct");
        for cmd in ["to-json", "dump", "check"] {
            let path = dir.file("color.bin", &framed(&[color]));
            let o = run(&[cmd, &path]);
            let err = text(&o.stderr);
            assert_eq!(code(&o), 1, "{cmd}: {err}");
            assert!(
                err.contains("Color(") && err.contains("as godot3"),
                "{cmd}: {err}"
            );
            assert!(
                err.contains("Plane(") && err.contains("as godot4"),
                "{cmd}: {err}"
            );
            assert!(err.contains("--dialect"), "{cmd}: {err}");
            let o = run(&[cmd, "--dialect", "godot3", &path]);
            assert_eq!(code(&o), 0, "{cmd}: {}", text(&o.stderr));
        }
        // Beside a Vector2 and a Rect2 (Godot 3's together), the file tells its dialect.
        let told = framed(&[color, find("vector2/1_2"), find("rect2/distinct")]);
        let path = dir.file("told.bin", &told);
        let o = run(&["dump", "--json", &path]);
        assert_eq!(code(&o), 0, "{}", text(&o.stderr));
        matches_desc(&dumped_desc(&o.stdout, 0, false), &color.decoded).expect("the Color");
    });
}

/// The small ConfigFile both engines saved (tests/golden/config_*.jsonl, "encrypted/password"):
/// its plain text and its file encrypted with the password, as (plain, encrypted, password).
fn engine_config(file: &str) -> (Vec<u8>, Vec<u8>, String) {
    let text = std::fs::read_to_string(repo().join("tests/golden").join(file)).expect("golden");
    let case: Json = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .find(|c| c["name"] == "encrypted/password")
        .expect("the encrypted case");
    let field = |f: &str| hex(case[f].as_str().expect("hex"));
    (
        field("plain"),
        field("file"),
        case["password"].as_str().expect("password").to_string(),
    )
}

/// A Godot 3 ConfigFile, encrypted with its password, converts to what Godot 4 saves for the
/// same ConfigFile, byte for byte (both engines saved it, tests/golden/gen/godot*/config.gd);
/// to-json and from-json go through the same text; check counts its keys.
#[test]
fn config_files_convert_from_godot3_to_what_godot4_saves() {
    let (godot3_plain, godot3_encrypted, password) = engine_config("config_godot3_6_2.jsonl");
    let (godot4_plain, _, _) = engine_config("config_godot4_6_3.jsonl");
    let dir = TempDir::new("config");
    let encrypted = dir.file("settings.cfg", &godot3_encrypted);
    let converted = dir.path("godot4.cfg");
    let o = Command::new(bin())
        .args([
            "convert",
            "--from",
            "godot3",
            "--to",
            "godot4",
            "--password-env",
            "FVC_CFG_PASSWORD",
        ])
        .args([&encrypted, &converted])
        .env("FVC_CFG_PASSWORD", &password)
        .output()
        .expect("run");
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&converted).expect("written"), godot4_plain);

    // Without the password: a clear error, exit 1.
    let o = run(&["to-json", &encrypted]);
    assert_eq!(code(&o), 1);
    assert!(
        text(&o.stderr).contains("is an encrypted file"),
        "{}",
        text(&o.stderr)
    );

    // to-json, then from-json back to a .cfg: the same file again.
    let plain = dir.file("godot3.cfg", &godot3_plain);
    let o = run(&["to-json", "--dialect", "godot3", &plain]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let json: Json = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(json["player"]["name"], "Ada", "{json}");
    let json_file = dir.file("config.json", &o.stdout);
    let back = dir.path("back.cfg");
    let o = run(&["from-json", "--to", "godot3", &json_file, &back]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&back).expect("written"), godot3_plain);

    let o = run(&["check", &plain]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).trim(),
        "valid: ConfigFile, 1 section(s), 3 key(s)"
    );
}

/// A ConfigFile whose value would run a script in the engine's ConfigFile.load is refused.
#[test]
fn a_config_file_carrying_a_script_is_refused() {
    let dir = TempDir::new("config-evil");
    let evil = dir.file(
        "evil.cfg",
        b"[save]\nplayer=Object(RefCounted,\"script\":Resource(\"res://evil.gd\"))\n",
    );
    for command in ["to-json", "check"] {
        let o = run(&[command, &evil]);
        assert_eq!(code(&o), 1, "{command}");
        assert!(
            text(&o.stderr).contains("not a ConfigFile that reads"),
            "{}",
            text(&o.stderr)
        );
        assert!(text(&o.stderr).contains("objects"), "{}", text(&o.stderr));
    }
    let o = run(&["dump", &evil]);
    assert_eq!(code(&o), 2);
}

/// The save each engine wrote as a text resource (tests/golden/tres_*.jsonl, "save": a script
/// resource whose items are sub-resources): to-json gives its sections, from-json writes the
/// same file again, byte for byte, and an edited value as the engine writes it; check counts its
/// sections; dump and convert say what reads it.
#[test]
fn text_resources_go_to_json_and_back() {
    let dir = TempDir::new("tres");
    for (file, level) in [
        ("tres_godot4_6_3.jsonl", "level = 7\n"),
        ("tres_godot3_6_2.jsonl", "level = 7\n"),
    ] {
        let golden =
            std::fs::read_to_string(repo().join("tests/golden").join(file)).expect("golden");
        let case: Json = golden
            .lines()
            .filter_map(|l| serde_json::from_str::<Json>(l).ok())
            .find(|c| c["name"] == "save")
            .expect("the save");
        let saved = hex(case["file"].as_str().expect("file"));
        let path = dir.file("save.tres", &saved);

        let o = run(&["to-json", &path]);
        assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
        let json_text = text(&o.stdout);
        let json: Json = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(json[0]["tag"], "gd_resource", "{json}");
        let main = json
            .as_array()
            .and_then(|s| s.iter().find(|s| s["tag"] == "resource"))
            .expect("[resource]");
        assert_eq!(main["properties"]["level"], 7, "{main}");
        assert_eq!(
            main["properties"]["best"]["$Object"]["class"], "SubResource",
            "{main}"
        );

        let json_file = dir.file("save.json", &o.stdout);
        let back = dir.path("back.tres");
        let o = run(&["from-json", &json_file, &back]);
        assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
        assert_eq!(std::fs::read(&back).expect("written"), saved, "{file}");

        // Edited as text: a JSON object keeps its order there (the order of a section's
        // properties).
        assert_eq!(json_text.matches("\"level\": 7").count(), 1, "{json_text}");
        let edited_json = dir.file(
            "edited.json",
            json_text.replace("\"level\": 7", "\"level\": 8").as_bytes(),
        );
        let edited = dir.path("edited.tres");
        let o = run(&["from-json", &edited_json, &edited]);
        assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
        let expected =
            String::from_utf8(saved.clone())
                .expect("UTF-8")
                .replacen(level, "level = 8\n", 1);
        assert_eq!(
            std::fs::read_to_string(&edited).expect("written"),
            expected,
            "{file}"
        );

        let o = run(&["check", &path]);
        assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).starts_with("valid: text resource, 6 section(s), "),
            "{file}: {}",
            text(&o.stdout)
        );
        let o = run(&["dump", &path]);
        assert_eq!(code(&o), 2);
        assert!(
            text(&o.stderr).contains("is a text resource"),
            "{}",
            text(&o.stderr)
        );
        let converted = dir.path("godot4.tres");
        let o = run(&["convert", "--to", "godot4", &path, &converted]);
        assert_eq!(code(&o), 0, "{file}: {}", text(&o.stderr));
        let godot4 = std::fs::read_to_string(&converted).expect("written");
        if file.contains("godot3") {
            // Godot 3's save as Godot 4 writes it (Godot 4.6.3 reads it: tests/run_save_tests.sh).
            assert!(
                godot4.starts_with("[gd_resource type=\"Resource\" format=3]\n"),
                "{godot4}"
            );
            assert!(godot4.contains("\nbest = SubResource(\"1\")\n"), "{godot4}");
            assert!(godot4.ends_with("\nmetadata/note = \"hi\"\n"), "{godot4}");
            let o = run(&[
                "convert",
                "--to",
                "godot3",
                &converted,
                &dir.path("back.tres"),
            ]);
            assert_eq!(code(&o), 2);
            assert!(
                text(&o.stderr).contains("from Godot 3 to Godot 4 only"),
                "{}",
                text(&o.stderr)
            );
        } else {
            assert_eq!(godot4.as_bytes(), saved, "{file}");
        }
    }
}

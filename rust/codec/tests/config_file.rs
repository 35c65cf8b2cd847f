//! `save::ConfigFile` against the engines' own: every file Godot 4.6.3 and Godot 3.6.2 saved
//! (tests/golden/config_*.jsonl, made by tests/golden/gen/godot*/config.gd) reads as the entries
//! the engine read back from it, and the core writes the same bytes from the entries it saved;
//! their encrypted files (with a password, with a key) decrypt and re-encrypt byte for byte; and
//! each text of tests/golden/gen/config_texts.json reads as `ConfigFile.parse` read it, or is
//! refused where the engine refused it. Then what the engine would run: refused.

mod corpus;

use fast_var_codec_core::error::ErrorCode;
use fast_var_codec_core::options::AllowList;
use fast_var_codec_core::save::{encrypt, ConfigFile, FileKey};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The cases of a golden file, after its head line (which names the engine).
fn cases(file: &str, engine: &str) -> Vec<Json> {
    let path = corpus::golden_dir().join(file);
    let text = std::fs::read_to_string(path).expect("golden file");
    let mut lines = text.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(
        head["engine"].as_str().unwrap_or("").starts_with(engine),
        "{head}"
    );
    lines
        .map(|l| serde_json::from_str(l).expect("case json"))
        .collect()
}

/// The entries the engine read, as (section, key, the engine's bytes of the value).
fn engine_entries(case: &Json) -> Vec<(String, String, Vec<u8>)> {
    engine_entries_of(case, "entries")
}

/// The entries of a case's list `field`: "entries" (what the engine read) or "written" (the
/// ConfigFile it saved).
fn engine_entries_of(case: &Json, field: &str) -> Vec<(String, String, Vec<u8>)> {
    case[field]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e[0].as_str().expect("section").to_owned(),
                e[1].as_str().expect("key").to_owned(),
                hex(e[2].as_str().expect("bytes")),
            )
        })
        .collect()
}

/// Whether the core read what the engine read: the same sections and keys in the same order,
/// each value encoding to the engine's bytes, or (where Godot 3 leaves heap bytes in a NodePath's
/// padding) decoding from them to the same value, or, where they hold floats, of the same type
/// and text: the engine does not round every decimal to its nearest binary64, the core does, so
/// the two can differ in a last bit that no text shows (tests/godot_text.rs compares so too).
/// `Err` names the first difference.
fn same_entries(
    cfg: &ConfigFile,
    engine: &[(String, String, Vec<u8>)],
    opts: &Options,
) -> Result<(), String> {
    let ours: Vec<_> = cfg.iter().collect();
    for (i, (es, ek, eb)) in engine.iter().enumerate() {
        let Some((s, k, v)) = ours.get(i) else {
            return Err(format!("entry {i} [{es}] {ek}: missing"));
        };
        let same_value = encode(v, opts).is_ok_and(|b| b[..] == eb[..])
            || decode(eb, opts).is_ok_and(|(d, _)| {
                &d == *v
                    || (d.variant_type() == v.variant_type()
                        && d.to_godot_text(opts.dialect) == v.to_godot_text(opts.dialect))
            });
        if s != es || k != ek || !same_value {
            let engine_value = decode(eb, opts).map(|(d, _)| d);
            return Err(format!(
                "entry {i}: ours [{s}] {k} = {v:?}, the engine's [{es}] {ek} = {engine_value:?}"
            ));
        }
    }
    match ours.get(engine.len()) {
        Some((s, k, _)) => Err(format!("an entry the engine has not: [{s}] {k}")),
        None => Ok(()),
    }
}

/// The texts of tests/golden/gen/config_texts.json that end in a key without `=`: the engine
/// reads them as if it were not there, the core refuses them.
const DANGLING: [&str; 2] = ["[s]\nab\n", "[s]\na=1 2\n"];

fn options(dialect: Dialect) -> Options {
    Options::new(dialect)
}

fn check_engine(file: &str, engine: &str, dialect: Dialect) {
    let opts = options(dialect);
    let mut files = 0;
    let mut texts = 0;
    let mut dangling = 0;
    for case in cases(file, engine) {
        let name = case["name"].as_str().unwrap_or("");
        if let Some(saved) = case["file"]
            .as_str()
            .filter(|_| case.get("plain").is_none())
        {
            // A file the engine saved: it reads as the engine read it back, and writes again.
            let saved = hex(saved);
            let entries = engine_entries(&case);
            let cfg = ConfigFile::from_file(&saved, None, &opts)
                .unwrap_or_else(|e| panic!("{engine} {name}: {e}"));
            if let Err(e) = same_entries(&cfg, &entries, &opts) {
                panic!("{engine} {name}: {e}");
            }
            let mut rebuilt = ConfigFile::new();
            for (section, key, bytes) in &engine_entries_of(&case, "written") {
                let (value, _) = decode(bytes, &opts).expect("the engine's bytes decode");
                rebuilt.set(section, key, value);
            }
            let text = rebuilt.to_text(dialect).expect("a checked dialect");
            if text.as_bytes() != saved {
                let at = text
                    .bytes()
                    .zip(&saved)
                    .position(|(a, b)| a != *b)
                    .unwrap_or(text.len().min(saved.len()));
                panic!(
                    "{engine} {name}: written differently at byte {at}: ours {:?}, the engine's {:?}",
                    &text[at.saturating_sub(40)..(at + 40).min(text.len())],
                    String::from_utf8_lossy(&saved[at.saturating_sub(40)..(at + 40).min(saved.len())])
                );
            }
            assert_eq!(rebuilt.to_file(dialect, None).expect("plain"), saved);
            files += 1;
        } else if let Some(plain) = case["plain"].as_str() {
            // An encrypted file: it opens with its password or key, and re-encrypts to the same
            // bytes (Godot 4's with the file's own IV).
            let (saved, plain) = (hex(case["file"].as_str().expect("file")), hex(plain));
            let key = match case["password"].as_str() {
                Some(password) => FileKey::from_password(password),
                None => FileKey::from_slice(&hex(case["key"].as_str().expect("key"))).expect("key"),
            };
            let cfg = ConfigFile::from_file(&saved, Some(&key), &opts)
                .unwrap_or_else(|e| panic!("{engine} {name}: {e}"));
            assert_eq!(
                cfg,
                ConfigFile::from_file(&plain, None, &opts).expect("plain")
            );
            let err = ConfigFile::from_file(&saved, None, &opts).expect_err("no key");
            assert_eq!(
                err.code(),
                ErrorCode::Unauthorized,
                "{engine} {name}: {err}"
            );
            let wrong = ConfigFile::from_file(&saved, Some(&FileKey::from_password("x")), &opts)
                .expect_err("a wrong password");
            assert_eq!(
                wrong.code(),
                ErrorCode::FileCorrupt,
                "{engine} {name}: {wrong}"
            );
            let iv: [u8; 16] = saved[28..44].try_into().expect("16 bytes");
            assert_eq!(
                encrypt(dialect, &plain, &key, iv).expect("encrypt"),
                saved,
                "{engine} {name}"
            );
            let ours = cfg.to_file(dialect, Some(&key)).expect("encrypt");
            assert_eq!(
                ConfigFile::from_file(&ours, Some(&key), &opts).expect("ours"),
                cfg
            );
            files += 1;
        } else if let Some(text) = case["text"].as_str() {
            // A text given to ConfigFile.parse.
            let text = String::from_utf8(hex(text)).expect("utf-8");
            let parsed = ConfigFile::parse(&text, &opts);
            let error = case["error"].as_i64().expect("error");
            let entries = engine_entries(&case);
            if text.contains("Object(") || text.contains("Resource(") {
                // The engine made the object (or tried to load the resource): refused here.
                let err = parsed.expect_err("an object");
                assert_eq!(
                    err.code(),
                    ErrorCode::Unauthorized,
                    "{engine} {name} {text:?}: {err}"
                );
            } else if DANGLING.contains(&text.as_str()) {
                // A key without '=' at the end, which the engine drops without a word: refused.
                assert_eq!(error, 0);
                let err = parsed.expect_err("a dangling key");
                assert!(
                    err.to_string().contains("has no '='"),
                    "{engine} {name} {text:?}: {err}"
                );
                dangling += 1;
            } else if error != 0 {
                assert!(
                    parsed.is_err(),
                    "{engine} {name} {text:?}: the engine refused it (error {error})"
                );
            } else {
                let cfg = parsed.unwrap_or_else(|e| panic!("{engine} {name} {text:?}: {e}"));
                if let Err(e) = same_entries(&cfg, &entries, &opts) {
                    panic!("{engine} {name} {text:?}: {e}");
                }
            }
            texts += 1;
        }
    }
    assert!(
        files >= 7 && texts >= 40,
        "{engine}: {files} files, {texts} texts"
    );
    assert_eq!(dangling, DANGLING.len(), "{engine}");
}

#[test]
fn godot4_config_files() {
    check_engine("config_godot4_6_3.jsonl", "4.6.3", Dialect::Godot4);
}

#[test]
fn godot3_config_files() {
    check_engine("config_godot3_6_2.jsonl", "3.6.2", Dialect::Godot3);
}

/// The corpus values each generator left out of its "values" file, because the engine does not
/// read back what it wrote: floats past the digits it writes (6 in Godot 3) or that its reader
/// does not round to the nearest binary64, NaN payloads, -0, object ids, nesting past the
/// writer's depth, a Dictionary's order of keys the text does not tell apart, Godot 3's `RID`
/// (written as nothing) and its string led by a BOM (its file reader drops the BOM). Some are
/// left out, not all: the lists must name real cases.
#[test]
fn values_the_engines_do_not_read_back_are_named() {
    for (file, engine, unreadable, some_lossy) in [
        (
            "config_godot4_6_3.jsonl",
            "4.6.3",
            &[][..],
            &["float/neg0", "float/flt_max_literal", "float/nan_payload"][..],
        ),
        (
            "config_godot3_6_2.jsonl",
            "3.6.2",
            &["array/mixed"][..],
            &["float/1/3", "float/pi", "string/double_bom"][..],
        ),
    ] {
        let cases = cases(file, engine);
        let list = |name: &str| -> Vec<String> {
            let case = cases.iter().find(|c| c["name"] == name).expect("the list");
            serde_json::from_value(case["cases"].clone()).expect("names")
        };
        assert_eq!(list("unreadable"), unreadable, "{engine}");
        let lossy = list("lossy");
        assert!(
            some_lossy.iter().all(|n| lossy.iter().any(|l| l == n)),
            "{engine}: {lossy:?}"
        );
        assert!(lossy.len() < 100, "{engine}: {} lossy", lossy.len());
    }
}

/// The file Godot's own `ConfigFile.load` runs (tests/godot/test_config_file.gd shows it
/// running there): every gate here refuses it, and an allowed object stays data.
#[test]
fn a_config_file_carrying_a_script_runs_nothing() {
    let evil = "[save]\nhp=10\nplayer=Object(RefCounted,\"script\":Resource(\"res://evil.gd\"))\n";
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let err = ConfigFile::parse(evil, &Options::new(dialect)).expect_err("objects are off");
        assert_eq!(err.code(), ErrorCode::Unauthorized, "{err}");
        let err = ConfigFile::from_file(evil.as_bytes(), None, &Options::new(dialect))
            .expect_err("objects are off");
        assert_eq!(err.code(), ErrorCode::Unauthorized, "{err}");
    }
    // Objects allowed, of one class: its script is judged too, and refused.
    let opts = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::new().with_class("RefCounted")));
    let err = ConfigFile::parse(evil, &opts).expect_err("a script");
    assert_eq!(err.code(), ErrorCode::Unauthorized, "{err}");
    // With the script admitted as well, the object is data: a class, and its script a path.
    let opts = opts.with_allowed_objects(Some(
        AllowList::new().with_script("res://evil.gd", Some("RefCounted")),
    ));
    let cfg = ConfigFile::parse(evil, &opts).expect("admitted");
    let Some(Value::Object(player)) = cfg.get("save", "player") else {
        panic!("{cfg:?}")
    };
    assert_eq!(player.class, "RefCounted");
    assert_eq!(
        player.properties,
        [("script".to_string(), Value::from("res://evil.gd"))]
    );
}

#[test]
fn hostile_text_is_refused_within_the_limits() {
    let opts = Options::default();
    let deep = format!("[s]\nk={}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert!(ConfigFile::parse(&deep, &opts).is_err());
    let many: String = (0..100).map(|i| format!("k{i}=1\n")).collect();
    let small = Options::default().with_limits(fast_var_codec_core::options::Limits {
        max_elements: 50,
        ..Default::default()
    });
    assert!(ConfigFile::parse(&many, &small).is_err());
    assert!(ConfigFile::parse(&many, &opts).is_ok());
    let latin1 = ConfigFile::from_file(b"[s]\nk=\"\xff\"\n", None, &opts).expect_err("latin-1");
    assert_eq!(latin1.code(), ErrorCode::ParseError);
    assert!(
        latin1
            .to_string()
            .contains("byte 7: line 2, column 4: not UTF-8 text"),
        "{latin1}"
    );
    assert!(ConfigFile::parse("[s]\nk=1\0\n", &opts).is_err());
    // A path given for the text: the engine reads nothing from it, without a word.
    let err = ConfigFile::parse("user://settings.cfg", &opts).expect_err("a path");
    assert_eq!(err.code(), ErrorCode::ParseError);
    assert!(
        err.to_string()
            .contains("\"user://settings.cfg\" has no '='"),
        "{err}"
    );
}

#[test]
fn set_follows_the_engine() {
    let mut cfg = ConfigFile::new();
    cfg.set("a", "k", 1);
    cfg.set("", "top", 2);
    cfg.set("b", "k", 3);
    assert_eq!(cfg.sections().collect::<Vec<_>>(), ["a", "", "b"]);
    assert_eq!(
        cfg.to_text(Dialect::Godot4).as_deref(),
        Some("top=2\n\n[a]\n\nk=1\n\n[b]\n\nk=3\n")
    );
    cfg.set("a", "k", Value::Nil);
    assert!(!cfg.has_section("a"));
    assert_eq!(
        cfg.to_text(Dialect::Godot3).as_deref(),
        Some("[]\n\ntop=2\n\n[b]\n\nk=3\n")
    );
    assert_eq!(cfg.to_text(Dialect::Pandemonium5), None);
    // A value Godot 3 does not have: no file, naming where it is.
    cfg.set("b", "v4", Value::Vector4(Box::new([1.0, 2.0, 3.0, 4.0])));
    let err = cfg
        .to_file(Dialect::Godot3, None)
        .expect_err("a Vector4 in Godot 3");
    assert!(err.to_string().contains(r#"["b"]["v4"]"#), "{err}");
    assert!(cfg.to_file(Dialect::Godot4, None).is_ok());
    assert!(cfg.to_file(Dialect::Pandemonium5, None).is_err());
}

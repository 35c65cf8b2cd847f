//! `save::TextResource` against the engines' own: every text resource Godot 4.6.3 and Godot
//! 3.6.2 saved (tests/golden/tres_*.jsonl, made by tests/golden/gen/godot*/tres.gd) reads as the
//! engine read it back (every value of the golden corpora as metadata, and a save whose items
//! are sub-resources of a script), is written back byte for byte, and is written again by the
//! core's writer, from what it read, as the engine wrote it; an edited value is written as the
//! engine writes it, and nothing it refers to is loaded.

mod corpus;

use fast_var_codec_core::error::ErrorCode;
use fast_var_codec_core::save::TextResource;
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

/// The file of a case, read.
fn saved(case: &Json) -> String {
    String::from_utf8(hex(case["file"].as_str().expect("file"))).expect("UTF-8")
}

/// The resource's metadata as the core read it: Godot 4's `metadata/NAME` properties, Godot 3's
/// `__meta__` Dictionary.
fn our_meta(res: &TextResource) -> Vec<(String, Value)> {
    let main = res.resource().expect("[resource]");
    if res.is_godot3() {
        return match main.get("__meta__") {
            Some(Value::Dictionary(d)) => d
                .iter()
                .map(|(k, v)| (k.as_str().expect("a String key").to_owned(), v.clone()))
                .collect(),
            _ => Vec::new(),
        };
    }
    main.properties()
        .filter_map(|(k, v)| Some((k.strip_prefix("metadata/")?.to_owned(), v.clone())))
        .collect()
}

/// Whether the core's value is the engine's (its `var_to_bytes`): the same bytes, or decoding to
/// the same value, or (floats the engine reads a last bit off) of the same type and text. An
/// object id compares as an id: the engine makes an object of the text's
/// `Object(EncodedObjectAsID,…)`, whose `var_to_bytes` is the new object's id.
fn same_value(ours: &Value, engine: &[u8], opts: &Options) -> bool {
    let ours = &without_ids(ours);
    encode(ours, opts).is_ok_and(|b| b[..] == engine[..])
        || decode(engine, opts).is_ok_and(|(d, _)| {
            let d = without_ids(&d);
            &d == ours
                || (d.variant_type() == ours.variant_type()
                    && d.to_godot_text(opts.dialect) == ours.to_godot_text(opts.dialect))
        })
}

/// `v` with every object id 0.
fn without_ids(v: &Value) -> Value {
    match v {
        Value::ObjectId(_) => Value::ObjectId(0),
        Value::Array(a) => {
            Value::typed_array(a.element.clone(), a.items.iter().map(without_ids).collect())
        }
        Value::Dictionary(d) => Value::typed_dictionary(
            d.key.clone(),
            d.value.clone(),
            d.iter()
                .map(|(k, v)| (without_ids(k), without_ids(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn check_engine(file: &str, engine: &str, dialect: Dialect) {
    let opts = Options::new(dialect);
    let mut files = 0;
    let mut values = 0;
    for case in cases(file, engine) {
        let Some(_) = case.get("file") else { continue };
        let name = case["name"].as_str().unwrap_or("");
        let text = saved(&case);
        let res =
            TextResource::parse(&text, &opts).unwrap_or_else(|e| panic!("{engine} {name}: {e}"));
        assert_eq!(
            res.is_godot3(),
            dialect == Dialect::Godot3,
            "{engine} {name}"
        );
        // Unchanged: the text read.
        assert_eq!(res.to_text(), text, "{engine} {name}");
        // Written anew from what was read: the engine's text.
        let mut rewritten = res.clone();
        rewritten.section_mut(0);
        let ours = rewritten.to_text();
        if let Some((i, (a, b))) = ours
            .lines()
            .zip(text.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
        {
            panic!(
                "{engine} {name}: written otherwise at line {}:\n ours:   {a:?}\n engine: {b:?}",
                i + 1
            );
        }
        assert_eq!(ours, text, "{engine} {name}");
        // Its values: as the engine read them back.
        let engine_meta: Vec<(String, Vec<u8>)> = case["meta"]
            .as_array()
            .expect("meta")
            .iter()
            .map(|m| {
                (
                    m[0].as_str().expect("name").to_owned(),
                    hex(m[1].as_str().expect("bytes")),
                )
            })
            .collect();
        let mut meta = our_meta(&res);
        meta.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sorted = engine_meta.clone();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            meta.iter().map(|m| &m.0).collect::<Vec<_>>(),
            sorted.iter().map(|m| &m.0).collect::<Vec<_>>(),
            "{engine} {name}"
        );
        let cases: Vec<&str> = case["cases"]
            .as_array()
            .map(|c| c.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        let differ: Vec<String> = meta
            .iter()
            .zip(&sorted)
            .filter(|((_, ours), (_, theirs))| !same_value(ours, theirs, &opts))
            .map(|((k, ours), _)| {
                let case = k
                    .strip_prefix('m')
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| cases.get(i));
                format!("{k} ({case:?}): {ours:?}")
            })
            .collect();
        assert!(differ.is_empty(), "{engine} {name}: {differ:#?}");
        files += 1;
        values += meta.len();
    }
    assert_eq!(files, 4, "{engine}");
    assert!(values > 190, "{engine}: {values} values");
    eprintln!("{engine}: {files} files, {values} values read as the engine read them");
}

#[test]
fn godot4_files_read_and_write_as_the_engine_does() {
    check_engine("tres_godot4_6_3.jsonl", "4.6.3", Dialect::Godot4);
}

#[test]
fn godot3_files_read_and_write_as_the_engine_does() {
    check_engine("tres_godot3_6_2.jsonl", "3.6.2", Dialect::Godot3);
}

/// The save of each engine: its references are values naming their entries, and an edited value
/// is written as the engine writes it, the rest unchanged.
#[test]
fn a_save_with_sub_resources_is_edited_in_place() {
    for (file, engine, dialect, level, edited) in [
        (
            "tres_godot4_6_3.jsonl",
            "4.6.3",
            Dialect::Godot4,
            "level = 7\n",
            "level = 8\n",
        ),
        (
            "tres_godot3_6_2.jsonl",
            "3.6.2",
            Dialect::Godot3,
            "level = 7\n",
            "level = 8\n",
        ),
    ] {
        let case = cases(file, engine)
            .into_iter()
            .find(|c| c["name"] == "save")
            .expect("the save");
        let text = saved(&case);
        let opts = Options::new(dialect);
        let mut res = TextResource::parse(&text, &opts).expect("parse");
        let main = res.resource().expect("[resource]");

        // `best` is the first item: a reference to a sub-resource, whose own script is a
        // reference to the item script, never loaded.
        let best = main.get("best").expect("best");
        let sword = res.sub_resource_of(best).expect("best's entry");
        assert_eq!(sword.attribute("type"), Some(&Value::from("Resource")));
        assert_eq!(sword.get("title"), Some(&Value::from("sword")));
        let script = res
            .ext_resource_of(sword.get("script").expect("script"))
            .expect("the script's entry");
        assert_eq!(script.attribute("type"), Some(&Value::from("Script")));
        assert!(script
            .attribute("path")
            .and_then(Value::as_str)
            .is_some_and(|p| p.ends_with("item.gd")));
        let items = main.get("items").and_then(Value::as_array).expect("items");
        assert_eq!(items.len(), 2);
        assert_eq!(&items.items[0], best);
        assert_eq!(
            res.sub_resource_of(&items.items[1])
                .and_then(|s| s.get("child")),
            Some(best)
        );

        res.resource_mut().expect("[resource]").set("level", 8);
        assert_eq!(res.to_text(), text.replacen(level, edited, 1), "{engine}");
    }
}

#[test]
fn tags_and_properties_read_as_the_grammar_says() {
    let opts = Options::default();
    let res = TextResource::parse(
        "; a comment\n[gd_resource type=\"Resource\" format=3]\n\n[resource]\n\"a b\" = 1 ; one\nmetadata/x = [1,\n 2]\n",
        &opts,
    )
    .expect("parse");
    let main = res.resource().expect("[resource]");
    assert_eq!(main.get("a b"), Some(&Value::Int(1)));
    assert_eq!(
        main.get("metadata/x"),
        Some(&Value::from(vec![Value::Int(1), Value::Int(2)]))
    );
    assert_eq!(res.format(), Some(3));

    for (bad, why) in [
        ("[resource]\na = 1\n", "not a text resource"),
        ("", "not a text resource"),
        ("[gd_resource format=3\n", "without its ']'"),
        ("[gd_resource format]\n", "name=value"),
        ("[gd_resource format=3]\n[resource]\na\n", "no '='"),
        (
            "[gd_resource format=3]\n[resource]\na = \n",
            "expected a value",
        ),
        ("[gd_resource for mat=3]\n", "expected '='"),
    ] {
        let err = TextResource::parse(bad, &opts).expect_err(bad);
        assert_eq!(err.code(), ErrorCode::ParseError, "{bad:?}: {err}");
        assert!(err.to_string().contains(why), "{bad:?}: {err}");
    }
}

/// An inline object that would run its script in the engine is refused, as everywhere; the
/// references to the file's own entries are data whatever the options.
#[test]
fn nothing_is_loaded_or_made() {
    let opts = Options::default();
    let evil = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = Object(RefCounted,\"script\":Resource(\"res://evil.gd\"))\n";
    let err = TextResource::parse(evil, &opts).expect_err("an object");
    assert_eq!(err.code(), ErrorCode::Unauthorized, "{err}");

    let refs = "[gd_resource type=\"Resource\" format=3]\n\n[ext_resource type=\"Script\" path=\"res://evil.gd\" id=\"1_a\"]\n\n[resource]\nscript = ExtResource(\"1_a\")\nitems = Array[ExtResource(\"1_a\")]([SubResource(\"x\")])\n";
    let mut res = TextResource::parse(refs, &opts).expect("references are data");
    let items = res
        .resource()
        .and_then(|r| r.get("items"))
        .cloned()
        .expect("items");
    res.resource_mut().expect("[resource]").set("items", items);
    assert_eq!(res.to_text(), refs);
}

/// A PackedVector4Array makes a Godot 4 file of format 4, whose PackedByteArrays are base64; a
/// file without one is of format 3 (as Godot 4.6.3 writes them).
#[test]
fn the_format_follows_the_values() {
    let opts = Options::default();
    let text = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nmetadata/b = PackedByteArray(1, 2)\n";
    let mut res = TextResource::parse(text, &opts).expect("parse");
    res.resource_mut().expect("[resource]").set(
        "metadata/v",
        Value::PackedVector4Array(vec![[1.0, 2.0, 3.0, 4.0]]),
    );
    assert_eq!(
        res.to_text(),
        "[gd_resource type=\"Resource\" format=4]\n\n[resource]\nmetadata/b = PackedByteArray(\"AQI=\")\nmetadata/v = PackedVector4Array(1, 2, 3, 4)\n"
    );
    res.resource_mut().expect("[resource]").remove("metadata/v");
    assert_eq!(res.to_text(), text);
}

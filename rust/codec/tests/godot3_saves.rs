//! Godot 3 encrypted files written by real Godot 3.6.2 and 3.2.3 (tests/saves/, see its
//! FORMAT.md): decrypted with the password or key the engine used, they give the engine's own
//! plaintext; encrypting that plaintext again gives the engine's file byte for byte (the
//! container is deterministic: AES-256-ECB); the values inside decode whole in the Godot 3
//! dialect at the offsets the engine recorded; a wrong password or a damaged file is an error.

mod corpus;

use std::path::PathBuf;

use fast_var_codec_core::save::{decrypt_godot3, encrypt_godot3, FileError, FileKey};
use fast_var_codec_core::{decode, Dialect, Options};
use serde_json::Value as Json;

const ENGINES: [&str; 2] = ["godot3_6_2", "godot3_2_3"];

fn dir(engine: &str) -> PathBuf {
    corpus::repo_path("tests/saves").join(engine)
}

fn read(engine: &str, file: &str) -> Vec<u8> {
    let path = dir(engine).join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn sidecar(engine: &str, file: &str) -> Json {
    serde_json::from_slice(&read(engine, file)).expect("sidecar JSON")
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn key_of(side: &Json) -> FileKey {
    match (side["password"].as_str(), side["key_hex"].as_str()) {
        (Some(pass), _) => FileKey::from_password(pass),
        (None, Some(k)) => FileKey::from_slice(&hex(k)).expect("32-byte key"),
        _ => panic!("sidecar names no password and no key"),
    }
}

/// `a` equals `b` except at the offsets where the engine's own payloads may differ (Godot 3
/// leaves NodePath padding uninitialised).
fn same_but_padding(a: &[u8], b: &[u8], allowed: &[u64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .enumerate()
            .all(|(i, (x, y))| x == y || allowed.contains(&(i as u64)))
}

#[test]
fn engine_encrypted_saves_decrypt_to_the_engine_plaintext_and_back() {
    let mut checked = 0;
    for engine in ENGINES {
        let plain = read(engine, "plain.bin");
        for kind in ["encrypted_pass", "encrypted_key"] {
            let side = sidecar(engine, &format!("{kind}.json"));
            let file = read(engine, &format!("{kind}.bin"));
            let key = key_of(&side);
            let payload =
                decrypt_godot3(&file, &key).unwrap_or_else(|e| panic!("{engine} {kind}: {e}"));
            let allowed: Vec<u64> = side["payload_differs_from_plain_at"]
                .as_array()
                .expect("offsets")
                .iter()
                .map(|o| o.as_u64().expect("offset"))
                .collect();
            assert_eq!(payload.len() as u64, side["payload_size"].as_u64().unwrap());
            assert!(
                same_but_padding(&payload, &plain, &allowed),
                "{engine} {kind}: plaintext differs from plain.bin"
            );
            assert_eq!(
                encrypt_godot3(&payload, &key),
                file,
                "{engine} {kind}: our encryption differs from the engine's file"
            );

            // The values decode whole in the Godot 3 dialect where the engine found them.
            let opts = Options::new(Dialect::Godot3).with_allow_objects(true);
            let values = side["values"].as_array().expect("values");
            assert!(
                values.len() >= 50,
                "{engine} {kind}: {} values",
                values.len()
            );
            for v in values {
                let at = v["offset"].as_u64().expect("offset") as usize;
                let len = u32::from_le_bytes(payload[at..at + 4].try_into().unwrap()) as usize;
                let bytes = &payload[at + 4..at + 4 + len];
                let (_, used) = decode(bytes, &opts)
                    .unwrap_or_else(|e| panic!("{engine} {kind} {}: {e}", v["name"]));
                // store_var pads nothing after a value, so the length is the value's size.
                assert_eq!(used, len, "{engine} {kind} {}", v["name"]);
                checked += 1;
            }

            // A wrong password, a damaged block, a cut file: an error, never garbage.
            let wrong = FileKey::from_password("fvc secret");
            assert_eq!(
                decrypt_godot3(&file, &wrong),
                Err(FileError::WrongKeyOrDamaged)
            );
            let mut damaged = file.clone();
            let last = damaged.len() - 1;
            damaged[last] ^= 0x40;
            assert_eq!(
                decrypt_godot3(&damaged, &key),
                Err(FileError::WrongKeyOrDamaged)
            );
            assert!(matches!(
                decrypt_godot3(&file[..file.len() - 16], &key),
                Err(FileError::DataTruncated { .. })
            ));
            assert_eq!(decrypt_godot3(&plain, &key), Err(FileError::NotEncrypted));
        }
    }
    assert!(checked >= 200, "{checked} values");
}

#[test]
fn engine_encrypted_config_files_hold_the_plain_config_text() {
    for engine in ENGINES {
        let plain = read(engine, "config_plain.cfg");
        for kind in ["config_encrypted_pass", "config_encrypted_key"] {
            let side = sidecar(engine, &format!("{kind}.json"));
            let file = read(engine, &format!("{kind}.cfg"));
            let key = key_of(&side);
            let text =
                decrypt_godot3(&file, &key).unwrap_or_else(|e| panic!("{engine} {kind}: {e}"));
            assert_eq!(text, plain, "{engine} {kind}");
            assert_eq!(encrypt_godot3(&text, &key), file, "{engine} {kind}");
        }
    }
}

/// `FileKey` is the key of both engines' containers: the same password's key reads Godot 3's
/// engine-made file and a Godot 4 file written with a random IV (`random_iv`: a fresh one each
/// time, stored in the header); the deprecated `Godot3Key` is the same type.
#[test]
fn one_key_for_both_engines_and_a_random_iv() {
    use fast_var_codec_core::save::{decrypt_godot4, encrypt_godot4, random_iv};
    let side = sidecar("godot3_6_2", "encrypted_pass.json");
    let key = key_of(&side);
    let plain =
        decrypt_godot3(&read("godot3_6_2", "encrypted_pass.bin"), &key).expect("Godot 3's file");
    let (a, b) = (random_iv().expect("an IV"), random_iv().expect("an IV"));
    assert_ne!(a, b);
    let file = encrypt_godot4(&plain, &key, a);
    assert_eq!(&file[28..44], &a);
    assert_eq!(decrypt_godot4(&file, &key), Ok(plain.clone()));
    assert_ne!(encrypt_godot4(&plain, &key, b), file);
    assert_eq!(format!("{key:?}"), "FileKey(..)");
}

/// The ConfigFiles Godot 3.6.2 and 3.2.3 saved (plain, and encrypted with a password and with a
/// key) read with `save::ConfigFile` (the `Curve` they hold admitted) to the values the engine
/// read back, and Godot 3.6.2's plain text is written again byte for byte. (Godot 3.2.3 wrote
/// keys unquoted, `with space=1`, which reads back as `withspace`; an empty Dictionary as
/// `{\n\n}`; -inf as `-inf.0`: the text the core writes is 3.6's.)
#[test]
fn engine_config_files_read_and_write_again() {
    use fast_var_codec_core::options::AllowList;
    use fast_var_codec_core::save::ConfigFile;
    use fast_var_codec_core::Value;
    let opts = Options::new(Dialect::Godot3)
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::new().with_class("Curve")));
    let mut checked = 0;
    for engine in ENGINES {
        let plain = read(engine, "config_plain.cfg");
        let cfg =
            ConfigFile::from_file(&plain, None, &opts).unwrap_or_else(|e| panic!("{engine}: {e}"));
        if engine == "godot3_6_2" {
            let text = cfg.to_text(Dialect::Godot3).expect("Godot 3 text");
            assert_eq!(
                text,
                String::from_utf8_lossy(&plain),
                "{engine}: written again"
            );
        }
        for kind in ["config_encrypted_pass", "config_encrypted_key"] {
            let side = sidecar(engine, &format!("{kind}.json"));
            let file = read(engine, &format!("{kind}.cfg"));
            let encrypted = ConfigFile::from_file(&file, Some(&key_of(&side)), &opts)
                .unwrap_or_else(|e| panic!("{engine} {kind}: {e}"));
            assert_eq!(encrypted, cfg, "{engine} {kind}");
            assert!(ConfigFile::from_file(&file, None, &opts).is_err());
        }
        // The ints, bools and strings the engine read back, as its sidecar gives them.
        let side = sidecar(engine, "config_plain.json");
        for section in side["sections"].as_array().expect("sections") {
            let name =
                String::from_utf8(hex(section["name"].as_str().expect("name"))).expect("utf-8");
            for k in section["keys"].as_array().expect("keys") {
                let key = String::from_utf8(hex(k["key"].as_str().expect("key"))).expect("utf-8");
                let v = &k["value"];
                let expected = match v["t"].as_str() {
                    Some("int") => Value::Int(v["v"].as_str().expect("int").parse().expect("int")),
                    Some("bool") => Value::Bool(v["v"].as_bool().expect("bool")),
                    _ => continue,
                };
                if k["same_as_written"] == true {
                    assert_eq!(
                        cfg.get(&name, &key),
                        Some(&expected),
                        "{engine} [{name}] {key}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "{checked} values");
}

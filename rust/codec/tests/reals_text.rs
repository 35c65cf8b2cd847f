//! The digits of reals in Godot 4's text (`Display` of a `Value`, which is `var_to_str`), against
//! what Godot 4.6.3 wrote for 20,000 random reals (tests/golden/var_to_str_reals_godot4_6_3.txt,
//! made by tests/golden/gen/godot4/reals_text.gd): random bits, binary32 values and short
//! decimals, as a float and as a Vector2's binary32 component. The engine's digits are Grisu2's,
//! which are not always the fewest (1e23 is `9.999999999999999e+22`).

mod corpus;

use fast_var_codec_core::{Dialect, Options, Value};

#[test]
fn reals_are_written_with_the_engines_digits() {
    let path = corpus::repo_path("tests/golden/var_to_str_reals_godot4_6_3.txt");
    let text = std::fs::read_to_string(path).expect("golden file");
    let mut n = 0;
    for line in text.lines() {
        let mut fields = line.splitn(3, ' ');
        let (Some(hex), Some(float), Some(vector)) = (fields.next(), fields.next(), fields.next())
        else {
            panic!("malformed line {line:?}");
        };
        let bytes: Vec<u8> = (0..16)
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect();
        let x = f64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        assert_eq!(Value::Float(x).to_string(), float, "{hex}");
        let component = f64::from(x as f32);
        assert_eq!(
            Value::Vector2([component, 0.0]).to_string(),
            vector,
            "{hex}"
        );
        n += 1;
    }
    assert_eq!(n, 20000);
}

/// The reals of `file` (a golden file of `reals_read.gd`) read from their text in `dialect`, as
/// the engine read them: the float's binary64, and the binary32 x component of the Vector2 that
/// `var_to_str` wrote of it.
fn reads_reals_as(file: &str, dialect: Dialect) {
    let path = corpus::golden_dir().join(file);
    let text = std::fs::read_to_string(path).expect("golden file");
    let opts = Options::new(dialect);
    let hex = |h: &str| -> Vec<u8> {
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).expect("hex"))
            .collect()
    };
    let mut n = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.splitn(4, ' ').collect();
        let [float, bits64, bits32, vector] = fields[..] else {
            panic!("malformed line {line:?}");
        };
        let x = f64::from_le_bytes(hex(bits64).try_into().expect("8 bytes"));
        let read = Value::from_godot_text(float, &opts).expect(float);
        assert_eq!(
            read.as_f64().map(f64::to_bits),
            Some(x.to_bits()),
            "{float}"
        );
        let component = f32::from_le_bytes(hex(bits32).try_into().expect("4 bytes"));
        match Value::from_godot_text(vector, &opts).expect(vector) {
            Value::Vector2([c, _]) => {
                assert_eq!((c as f32).to_bits(), component.to_bits(), "{vector}")
            }
            other => panic!("{vector} read as {other:?}"),
        }
        n += 1;
    }
    assert_eq!(n, 17082);
}

#[test]
fn reals_are_read_as_godot_4_reads_them() {
    reads_reals_as("str_to_var_reals_godot4_6_3.txt", Dialect::Godot4);
}

#[test]
fn reals_are_read_as_godot_3_reads_them() {
    reads_reals_as("str2var_reals_godot3_6_2.txt", Dialect::Godot3);
}

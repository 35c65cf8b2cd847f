//! Values nested as deep as the limits allow, on a thread with a small stack (256 KB): decoding,
//! encoding, transcoding and serde in both directions must work (and one level more must fail
//! with an error), never overflow the stack, in the Godot 4 and Godot 3 dialects, for Arrays,
//! Dictionaries as values and as keys, and typed containers. The tests run unoptimized, where a
//! level of recursion costs about ten times its release-build stack. With the `grow-stack`
//! feature the limits allow the engine's 1,024 levels (walks move to stack segments from the
//! heap); without it, the lower ceiling, whose walks must fit a spawned thread's default 2 MB
//! as they are (run with `--no-default-features --features serde`).

use fast_var_codec_core::error::ErrorCode;
use fast_var_codec_core::options::MAX_DEPTH_CEILING;
use fast_var_codec_core::transcode::transcode;
use fast_var_codec_core::value::{ContainerType, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

/// The stack of the threads below: small, where walks move to stack segments of their own
/// (`grow-stack`); without it, the default stack of a thread Rust spawns (2 MB), which the lower
/// depth ceiling must fit unoptimized.
#[cfg(feature = "grow-stack")]
const SMALL_STACK: usize = 256 * 1024;
#[cfg(not(feature = "grow-stack"))]
const SMALL_STACK: usize = 2 * 1024 * 1024;

/// The deepest value the limits allow: containers at depths 0 to 1023, the innermost holding
/// a value at depth 1024.
const DEEPEST: usize = MAX_DEPTH_CEILING;

/// Runs `f` on a thread with [`SMALL_STACK`]; a stack overflow aborts the whole test binary.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the thread panicked")
}

/// How each shape nests `levels` containers, the innermost holding `1`.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Arrays,
    DictionaryValues,
    DictionaryKeys,
    /// `Array[Array]` at every level but the innermost, an `Array[int]` (Godot 4 only).
    TypedArrays,
}

fn nested(shape: Shape, levels: usize) -> Value {
    let mut v = match shape {
        Shape::TypedArrays => Value::typed_array(
            ContainerType::Builtin(VariantType::Int),
            vec![Value::Int(1)],
        ),
        _ => Value::array(vec![Value::Int(1)]),
    };
    for _ in 1..levels {
        v = match shape {
            Shape::Arrays => Value::array(vec![v]),
            Shape::DictionaryValues => Value::dictionary(vec![(Value::String("k".into()), v)]),
            Shape::DictionaryKeys => Value::dictionary(vec![(v, Value::Int(1))]),
            Shape::TypedArrays => {
                Value::typed_array(ContainerType::Builtin(VariantType::Array), vec![v])
            }
        };
    }
    v
}

fn cases() -> Vec<(Dialect, Shape)> {
    let mut out = Vec::new();
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        for shape in [
            Shape::Arrays,
            Shape::DictionaryValues,
            Shape::DictionaryKeys,
        ] {
            out.push((dialect, shape));
        }
    }
    out.push((Dialect::Godot4, Shape::TypedArrays));
    out
}

/// The bytes of the deepest value and of one level more (encoded without the depth limit's
/// check: the encoder refuses past it, so one level is added by hand around the deepest).
fn inputs(dialect: Dialect, shape: Shape) -> (Vec<u8>, Vec<u8>) {
    let opts = Options::new(dialect);
    let deepest = encode(&nested(shape, DEEPEST), &opts)
        .expect("encodes")
        .to_vec();
    let array_id: u32 = if dialect == Dialect::Godot3 { 19 } else { 28 };
    let mut deeper = array_id.to_le_bytes().to_vec();
    deeper.extend_from_slice(&1u32.to_le_bytes());
    deeper.extend_from_slice(&deepest);
    (deepest, deeper)
}

#[test]
fn decode_the_deepest_and_refuse_deeper() {
    for (dialect, shape) in cases() {
        let (deepest, deeper) = inputs(dialect, shape);
        let opts = Options::new(dialect);
        let (ok, refused) = on_small_stack(move || {
            let ok = decode(&deepest, &opts).map(|(v, used)| {
                // Dropping it happens here, on the small stack too.
                drop(v);
                used == deepest.len()
            });
            let refused = decode(&deeper, &opts).map(|_| ()).map_err(|e| e.code());
            (ok, refused)
        });
        assert_eq!(ok, Ok(true), "{dialect:?} {shape:?}");
        assert_eq!(
            refused,
            Err(ErrorCode::OutOfMemory),
            "{dialect:?} {shape:?}"
        );
    }
}

/// Without `grow-stack`, the engine's own depth (1,024 levels, what Godot writes) is refused
/// with the depth error on the thread's stack, by default options that ask for 1,024, never
/// overflowing it; and the ceiling is below it.
#[cfg(not(feature = "grow-stack"))]
#[test]
fn without_grow_stack_the_engines_depth_is_an_error_not_an_overflow() {
    use fast_var_codec_core::error::{DecodeReason, EncodeReason};
    use fast_var_codec_core::options::DEFAULT_MAX_DEPTH;
    use fast_var_codec_core::CodecError;
    assert!(MAX_DEPTH_CEILING < DEFAULT_MAX_DEPTH);
    // var_to_bytes of 1,024 nested Arrays around an int, in Godot 4 (Array is type 28).
    let mut bytes = Vec::new();
    for _ in 0..DEFAULT_MAX_DEPTH {
        bytes.extend_from_slice(&[28, 0, 0, 0, 1, 0, 0, 0]);
    }
    bytes.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
    let value = nested(Shape::Arrays, DEFAULT_MAX_DEPTH);
    let (decoded, encoded) = on_small_stack(move || {
        let opts = Options::default();
        assert_eq!(opts.limits.max_depth, DEFAULT_MAX_DEPTH);
        let decoded = decode(&bytes, &opts).map(|_| ());
        let encoded = encode(&value, &opts).map(|_| ());
        std::mem::forget(value); // dropping 1,024 levels is the caller's walk, not the codec's
        (decoded, encoded)
    });
    assert!(
        matches!(decoded, Err(CodecError::Decode { reason: DecodeReason::TooDeep(d), .. }) if d == MAX_DEPTH_CEILING),
        "{decoded:?}"
    );
    assert!(
        matches!(&encoded, Err(CodecError::Encode { reason: EncodeReason::TooDeep(d), .. }) if *d == MAX_DEPTH_CEILING),
        "{encoded:?}"
    );
}

#[test]
fn encode_the_deepest_and_refuse_deeper() {
    for (dialect, shape) in cases() {
        let opts = Options::new(dialect);
        let expected = inputs(dialect, shape).0;
        let (deepest, deeper) = (nested(shape, DEEPEST), nested(shape, DEEPEST + 1));
        let (ok, refused) = on_small_stack(move || {
            let ok = encode(&deepest, &opts).map(|b| b.to_vec());
            let refused = encode(&deeper, &opts).map(|_| ()).map_err(|e| e.code());
            (ok, refused)
        });
        assert_eq!(
            ok.as_deref(),
            Ok(expected.as_slice()),
            "{dialect:?} {shape:?}"
        );
        assert_eq!(
            refused,
            Err(ErrorCode::OutOfMemory),
            "{dialect:?} {shape:?}"
        );
    }
}

#[test]
fn transcode_the_deepest_between_dialects() {
    for (dialect, shape) in cases() {
        let (deepest, deeper) = inputs(dialect, shape);
        let from = Options::new(dialect);
        let to = Options::new(Dialect::Godot3).with_allow_lossy(true);
        let expected = encode(&nested(shape, DEEPEST), &to)
            .or_else(|_| encode(&nested(Shape::Arrays, DEEPEST), &to))
            .expect("encodes")
            .to_vec();
        let (ok, refused) = on_small_stack(move || {
            let ok = transcode(&deepest, &from, &to).map(|(b, _)| b.to_vec());
            let refused = transcode(&deeper, &from, &to)
                .map(|_| ())
                .map_err(|e| e.code());
            (ok, refused)
        });
        if matches!(shape, Shape::TypedArrays) {
            // Godot 3 has no typed Arrays: what it gets is the same Arrays, untyped.
            assert!(ok.is_ok(), "{dialect:?} {shape:?}: {ok:?}");
        } else {
            assert_eq!(
                ok.as_deref(),
                Ok(expected.as_slice()),
                "{dialect:?} {shape:?}"
            );
        }
        assert_eq!(
            refused,
            Err(ErrorCode::OutOfMemory),
            "{dialect:?} {shape:?}"
        );
    }
}

/// serde in both directions (the `serde` feature; the test command turns it on).
#[cfg(feature = "serde")]
mod through_serde {
    use super::*;
    use fast_var_codec_core::serde_format as fvc_serde;

    #[test]
    fn serde_both_ways_at_the_deepest() {
        for (dialect, shape) in cases() {
            let opts = Options::new(dialect);
            let (deepest, _) = inputs(dialect, shape);
            let value = nested(shape, DEEPEST);
            let ok = on_small_stack(move || {
                let bytes = fvc_serde::to_bytes(&value, &opts).expect("to_bytes");
                let back: Value = fvc_serde::from_bytes(&bytes, &opts).expect("from_bytes");
                let same = back == value;
                drop((back, value));
                (bytes, same)
            });
            assert_eq!(ok.0, deepest, "{dialect:?} {shape:?}: to_bytes");
            assert!(
                ok.1,
                "{dialect:?} {shape:?}: from_bytes gives the value back"
            );
        }
    }

    /// A user type nested as deep, through serde's derive (the recursion runs through the
    /// type's own code).
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Node {
        child: Option<Box<Node>>,
    }

    /// `levels` Nodes, each the child of the next.
    fn nested_nodes(levels: usize) -> Node {
        let mut node = Node { child: None };
        for _ in 1..levels {
            node = Node {
                child: Some(Box::new(node)),
            };
        }
        node
    }

    #[test]
    fn serde_of_a_nested_struct_at_the_deepest() {
        // Each Node is a Dictionary; `None` is NIL.
        let node = nested_nodes(DEEPEST);
        let opts = Options::new(Dialect::Godot4);
        let same = on_small_stack(move || {
            let bytes = fvc_serde::to_bytes(&node, &opts).expect("to_bytes");
            let back: Node = fvc_serde::from_bytes(&bytes, &opts).expect("from_bytes");
            let same = back == node;
            // Box<Node>'s drop recurses: leave the two trees to the process's end.
            std::mem::forget((back, node));
            same
        });
        assert!(same);
    }

    /// A type whose `Serialize` moves to a stack of its own (as `serde_stacker` does) in the
    /// middle of a walk, then nests as deep from there: the guards must measure the new stack
    /// rather than trust what they knew of the thread's.
    #[cfg(feature = "grow-stack")]
    struct OnItsOwnStack(Node);

    #[cfg(feature = "grow-stack")]
    impl serde::Serialize for OnItsOwnStack {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            stacker::grow(SMALL_STACK, || self.0.serialize(s))
        }
    }

    #[cfg(feature = "grow-stack")]
    #[test]
    fn serde_of_a_walk_that_switches_stacks() {
        // One level less: the Vec around it is the first.
        let node = nested_nodes(DEEPEST - 1);
        let opts = Options::new(Dialect::Godot4);
        let (bytes, expected) = on_small_stack(move || {
            let outer = vec![OnItsOwnStack(node)];
            let bytes = fvc_serde::to_bytes(&outer, &opts).map(|b| b.to_vec());
            let expected = fvc_serde::to_bytes(&[&outer[0].0], &opts).map(|b| b.to_vec());
            std::mem::forget(outer);
            (bytes, expected)
        });
        assert_eq!(bytes.expect("to_bytes"), expected.expect("to_bytes"));
    }
}

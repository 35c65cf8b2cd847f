//! `stream::VarCodec` (the `tokio` feature) in `tokio_util::codec::Framed`, and what it
//! allocates for hostile length prefixes, counted by the project's allocation counter.
#![cfg(feature = "tokio")]

mod common;

use bytes::BytesMut;
use common::alloc_counter::measure;
use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::stream::{
    frame, ByteOrder, MessageError, VarCodec, VarCodecError, PREFIX_LEN,
};
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::codec::{Decoder, Framed};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn framed_bytes(values: &[Value], opts: &Options) -> BytesMut {
    let mut out = BytesMut::new();
    for v in values {
        frame(v, opts, ByteOrder::Little, &mut out).unwrap();
    }
    out
}

#[test]
fn oversized_prefix_allocates_nothing() {
    for prefix in [[0, 0, 0, 0x80], [0xff; 4], [1, 0, 0x80, 0]] {
        let mut codec = VarCodec::new(Options::default());
        let mut src = BytesMut::with_capacity(64);
        src.extend_from_slice(&prefix);
        src.extend_from_slice(&[1, 2, 3, 4]);
        let (res, usage) = measure(|| codec.decode(&mut src));
        let err = res.unwrap_err();
        assert!(
            matches!(
                err.codec_error(),
                Some(CodecError::Decode {
                    reason: DecodeReason::MessageTooLong { .. },
                    ..
                })
            ),
            "{err}"
        );
        assert_eq!(usage.allocated, 0, "{usage:?}");
        assert!(src.capacity() <= 64);
        // Broken: later calls allocate nothing either, whatever arrives.
        src.extend_from_slice(&[0; 32]);
        let (res, usage) = measure(|| codec.decode(&mut src));
        assert!(res.is_err());
        assert_eq!(usage.allocated, 0, "{usage:?}");
        assert!(src.is_empty());
    }
}

#[test]
fn partial_message_reserves_no_more_than_it_declared() {
    for declared in [1usize << 10, 1 << 16, 1 << 20, 8 << 20] {
        let mut codec = VarCodec::new(Options::default());
        let mut src = BytesMut::new();
        src.extend_from_slice(&u32::try_from(declared).unwrap().to_le_bytes());
        src.extend_from_slice(&[4, 0, 0, 0]);
        let (res, usage) = measure(|| codec.decode(&mut src));
        assert_eq!(res.unwrap(), None);
        // The buffer holds 8 bytes: it grows to the message's size (prefix included), no more.
        assert!(usage.peak <= PREFIX_LEN + declared, "{declared}: {usage:?}");
        assert!(src.capacity() >= PREFIX_LEN + declared);
        // Asked again with nothing new: nothing more.
        let (res, usage) = measure(|| codec.decode(&mut src));
        assert_eq!(res.unwrap(), None);
        assert_eq!(usage.allocated, 0, "{usage:?}");
    }
}

#[test]
fn framed_server_refuses_a_2_gib_prefix_without_allocating_it() {
    let rt = runtime();
    let ((), usage) = measure(|| {
        rt.block_on(async {
            let (mut client, server) = tokio::io::duplex(64 * 1024);
            let mut server = Framed::new(server, VarCodec::new(Options::default()));
            client.write_all(&[0, 0, 0, 0x80, 1, 2, 3]).await.unwrap();
            let err = server.next().await.unwrap().unwrap_err();
            assert!(server.codec().broken().is_some(), "{err}");
            // tokio_util's Framed: one None after a decoder error.
            assert!(server.next().await.is_none());
        })
    });
    // Framed's own 8 KiB buffers and the runtime's bookkeeping; never the 2 GiB announced.
    assert!(usage.peak < 1 << 20, "{usage:?}");
}

#[test]
fn framed_goes_on_after_a_malformed_value() {
    let rt = runtime();
    rt.block_on(async {
        let opts = Options::new(Dialect::Godot3);
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let mut server = Framed::new(server, VarCodec::new(opts.clone()));
        // A good message, a malformed one and two good ones, arriving together.
        let mut wire = framed_bytes(&[Value::Int(1)], &opts);
        wire.extend_from_slice(&[8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]);
        wire.extend_from_slice(&framed_bytes(&[Value::from("two"), Value::Int(3)], &opts));
        client.write_all(&wire).await.unwrap();

        assert_eq!(server.next().await.unwrap().unwrap(), Ok(Value::Int(1)));
        let bad = server.next().await.unwrap().unwrap().unwrap_err();
        assert!(
            matches!(
                bad.codec_error(),
                Some(CodecError::Decode { offset: 16, .. })
            ),
            "{bad}"
        );
        assert!(server.codec().broken().is_none());
        // The stream goes on with the messages already buffered, then with the transport.
        assert_eq!(
            server.next().await.unwrap().unwrap(),
            Ok(Value::from("two"))
        );
        assert_eq!(server.next().await.unwrap().unwrap(), Ok(Value::Int(3)));
        client
            .write_all(&framed_bytes(&[Value::Bool(true)], &opts))
            .await
            .unwrap();
        assert_eq!(server.next().await.unwrap().unwrap(), Ok(Value::Bool(true)));
        drop(client);
        assert!(server.next().await.is_none());
    });
}

#[test]
fn framed_echo_in_both_byte_orders() {
    let rt = runtime();
    rt.block_on(async {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            let opts = Options::new(Dialect::Godot4);
            let codec = VarCodec::new(opts.clone()).with_byte_order(order);
            let (a, b) = tokio::io::duplex(256);
            let client = Framed::new(a, codec.clone());
            let mut server = Framed::new(b, codec);
            let echo = tokio::spawn(async move {
                while let Some(v) = server.next().await {
                    server.send(v.unwrap().unwrap()).await.unwrap();
                }
            });
            let values: Vec<Value> = (0..50)
                .map(|i| {
                    Value::dictionary(vec![
                        (Value::String("i".into()), Value::Int(i)),
                        (
                            Value::String("blob".into()),
                            Value::PackedByteArray(vec![i as u8; 1000 + i as usize]),
                        ),
                    ])
                })
                .collect();
            // Sending and reading at once: the 256-byte pipe holds less than a message.
            let (mut tx, mut rx) = client.split();
            let sent = values.clone();
            let sender = tokio::spawn(async move {
                for v in sent {
                    tx.send(v).await.unwrap();
                }
                tx
            });
            for v in &values {
                assert_eq!(&rx.next().await.unwrap().unwrap().unwrap(), v);
            }
            drop(sender.await.unwrap().reunite(rx).unwrap());
            echo.await.unwrap();
        }
    });
}

#[test]
fn framed_reports_a_stream_cut_short() {
    let rt = runtime();
    rt.block_on(async {
        let (mut client, server) = tokio::io::duplex(1024);
        let mut server = Framed::new(server, VarCodec::new(Options::default()));
        client
            .write_all(&[100, 0, 0, 0, 4, 0, 0, 0, 2])
            .await
            .unwrap();
        client.shutdown().await.unwrap();
        let err = server.next().await.unwrap().unwrap_err();
        assert!(
            matches!(&err, VarCodecError::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof),
            "{err}"
        );
        assert!(
            matches!(
                err.codec_error(),
                Some(CodecError::Decode {
                    offset: 4,
                    reason: DecodeReason::Truncated {
                        needed: 100,
                        available: 5,
                        ..
                    }
                })
            ),
            "{err}"
        );
        assert!(server.next().await.is_none());
        drop(server);
        let mut rest = Vec::new();
        client.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty());
    });
}

#[cfg(feature = "serde")]
#[test]
fn typed_framed_request_and_answer() {
    use fast_var_codec_core::stream::TypedVarCodec;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Request {
        Login { name: String },
        Chat { to: Option<String>, text: String },
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Answer {
        Welcome { id: u32 },
        ChatAck { chars: usize },
    }

    let rt = runtime();
    rt.block_on(async {
        let opts = Options::new(Dialect::Godot3);
        let (a, b) = tokio::io::duplex(1024);
        let mut game = Framed::new(a, TypedVarCodec::<Answer>::new(opts.clone()));
        let mut server = Framed::new(b, TypedVarCodec::<Request>::new(opts.clone()));
        game.send(Request::Login { name: "ada".into() })
            .await
            .unwrap();
        // A well-formed value of the wrong shape: an error, and the stream goes on.
        game.send(Value::Int(5)).await.unwrap();
        game.send(&Request::Chat {
            to: None,
            text: "hi".into(),
        })
        .await
        .unwrap();

        let Ok(Request::Login { name }) = server.next().await.unwrap().unwrap() else {
            panic!("not a login")
        };
        assert_eq!(name, "ada");
        server.send(Answer::Welcome { id: 7 }).await.unwrap();
        let bad = server.next().await.unwrap().unwrap().unwrap_err();
        assert!(matches!(bad, MessageError::Mismatch { .. }), "{bad}");
        let Ok(Request::Chat { to: None, text }) = server.next().await.unwrap().unwrap() else {
            panic!("not a chat")
        };
        server
            .send(Answer::ChatAck { chars: text.len() })
            .await
            .unwrap();
        assert!(matches!(
            game.next().await.unwrap().unwrap(),
            Ok(Answer::Welcome { id: 7 })
        ));
        assert!(matches!(
            game.next().await.unwrap().unwrap(),
            Ok(Answer::ChatAck { chars: 2 })
        ));
    });
}

/// What a hostile client sends between good messages: each is a valid length prefix around
/// bytes that are no value.
fn malformed_message(kind: usize) -> Vec<u8> {
    let payload: Vec<u8> = match kind % 5 {
        // A type id that does not exist.
        0 => vec![0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4],
        // A String of 100 bytes, of which 6 are in the message: a value cut inside its prefix.
        1 => vec![4, 0, 0, 0, 100, 0, 0, 0, b'c', b'u', b't', b' ', b'!', b'!'],
        // An Array announcing 1,000,000 items in 12 bytes.
        2 => vec![28, 0, 0, 0, 0x40, 0x42, 0x0f, 0, 2, 0, 0, 0],
        // A String that is not UTF-8.
        3 => vec![4, 0, 0, 0, 2, 0, 0, 0, 0xc3, 0x28, 0, 0],
        // An empty message.
        _ => vec![],
    };
    let mut out = u32::try_from(payload.len()).unwrap().to_le_bytes().to_vec();
    out.extend_from_slice(&payload);
    out
}

fn good_message(i: i64) -> Value {
    Value::from_iter([
        ("seq", Value::from(i)),
        ("pos", Value::vector2(i as f64, -0.5)),
        ("name", Value::from(format!("player {i}"))),
    ])
}

/// How the client's bytes reach the server.
#[derive(Clone, Copy, Debug)]
enum Pace {
    /// All at once.
    Burst,
    /// In pieces of this many bytes, each written and flushed on its own, the writer yielding
    /// in between (a slow sender: one byte at a time at 1).
    Pieces(usize),
}

/// Sends `wire` at `pace`, then closes the client's end.
async fn send_paced(mut client: tokio::io::DuplexStream, wire: Vec<u8>, pace: Pace) {
    match pace {
        Pace::Burst => client.write_all(&wire).await.unwrap(),
        Pace::Pieces(n) => {
            for piece in wire.chunks(n) {
                client.write_all(piece).await.unwrap();
                client.flush().await.unwrap();
                tokio::task::yield_now().await;
            }
        }
    }
    client.shutdown().await.unwrap();
}

/// What a server reading with `Framed` saw: the good values in order, the malformed messages,
/// and the error that ended the stream, if any.
async fn serve_all(
    mut server: Framed<tokio::io::DuplexStream, VarCodec>,
) -> (Vec<Value>, usize, Option<VarCodecError>) {
    let (mut good, mut malformed) = (Vec::new(), 0);
    while let Some(item) = server.next().await {
        match item {
            Ok(Ok(v)) => good.push(v),
            Ok(Err(_)) => malformed += 1,
            Err(e) => return (good, malformed, Some(e)),
        }
    }
    (good, malformed, None)
}

#[test]
fn every_good_message_arrives_in_order_among_hostile_ones() {
    let rt = runtime();
    for pace in [
        Pace::Burst,
        Pace::Pieces(1),
        Pace::Pieces(3),
        Pace::Pieces(7),
        Pace::Pieces(1000),
    ] {
        let opts = Options::new(Dialect::Godot4);
        let (mut wire, mut expected, mut bad) = (Vec::new(), Vec::new(), 0);
        for i in 0..120 {
            if i % 3 == 1 {
                wire.extend_from_slice(&malformed_message(i as usize));
                bad += 1;
            } else {
                let v = good_message(i);
                wire.extend_from_slice(&framed_bytes(std::slice::from_ref(&v), &opts));
                expected.push(v);
            }
        }
        let (good, malformed, end) = rt.block_on(async {
            let (client, server) = tokio::io::duplex(512);
            let server = Framed::new(server, VarCodec::new(opts).with_max_message(64 * 1024));
            let sender = tokio::spawn(send_paced(client, wire, pace));
            let seen = serve_all(server).await;
            sender.await.unwrap();
            seen
        });
        assert!(end.is_none(), "{pace:?}: the stream ended with {end:?}");
        assert_eq!(malformed, bad, "{pace:?}");
        assert_eq!(good, expected, "{pace:?}");
    }
}

#[test]
fn a_huge_prefix_ends_the_connection_after_the_good_messages_before_it() {
    let rt = runtime();
    for pace in [Pace::Burst, Pace::Pieces(1)] {
        let opts = Options::default();
        let mut wire = Vec::new();
        let before: Vec<Value> = (0..5).map(good_message).collect();
        for (i, v) in before.iter().enumerate() {
            wire.extend_from_slice(&malformed_message(i));
            wire.extend_from_slice(&framed_bytes(std::slice::from_ref(v), &opts));
        }
        let at = wire.len();
        wire.extend_from_slice(&[0, 0, 0, 0x80]); // 2 GiB announced
        wire.extend_from_slice(&framed_bytes(&[good_message(99)], &opts));
        let (good, malformed, end) = rt.block_on(async {
            let (client, server) = tokio::io::duplex(512);
            let server = Framed::new(server, VarCodec::new(opts).with_max_message(1 << 20));
            let sender = tokio::spawn(async move {
                // The server may close its end first: what is left is not sent.
                let _ = tokio::spawn(send_paced(client, wire, pace)).await;
            });
            let seen = serve_all(server).await;
            sender.await.unwrap();
            seen
        });
        assert_eq!(good, before, "{pace:?}");
        assert_eq!(malformed, 5, "{pace:?}");
        let end = end.expect("the stream ends in an error");
        assert!(
            matches!(
                end.codec_error(),
                Some(CodecError::Decode { offset, reason: DecodeReason::MessageTooLong { .. } })
                    if *offset == at
            ),
            "{pace:?}: {end}"
        );
    }
}

#[test]
fn a_client_that_stops_inside_a_message_loses_none_before_it() {
    let rt = runtime();
    let opts = Options::new(Dialect::Godot3);
    let before: Vec<Value> = (0..4).map(|i| Value::from(vec![i, i + 1])).collect();
    let mut wire = framed_bytes(&before, &opts).to_vec();
    wire.extend_from_slice(&malformed_message(1));
    wire.extend_from_slice(&framed_bytes(&[good_message(7)], &opts)[..10]);
    let (good, malformed, end) = rt.block_on(async {
        let (client, server) = tokio::io::duplex(64);
        let server = Framed::new(server, VarCodec::new(opts));
        let sender = tokio::spawn(send_paced(client, wire, Pace::Pieces(5)));
        let seen = serve_all(server).await;
        sender.await.unwrap();
        seen
    });
    assert_eq!(good, before);
    assert_eq!(malformed, 1);
    assert!(
        matches!(&end, Some(VarCodecError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof),
        "{end:?}"
    );
}

#[cfg(feature = "serde")]
#[test]
fn typed_codec_skips_malformed_and_mismatched_messages_from_a_slow_client() {
    use fast_var_codec_core::stream::TypedVarCodec;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
    struct Move {
        seq: i64,
        dx: f64,
    }

    let rt = runtime();
    let opts = Options::default();
    let mut codec = TypedVarCodec::<Move>::new(opts.clone());
    let (mut wire, mut expected) = (BytesMut::new(), Vec::new());
    for i in 0..30 {
        match i % 3 {
            0 => {
                let m = Move { seq: i, dx: 0.5 };
                tokio_util::codec::Encoder::encode(&mut codec, &m, &mut wire).unwrap();
                expected.push(m);
            }
            1 => wire.extend_from_slice(&malformed_message(i as usize)),
            // Well-formed, not a Move.
            _ => {
                tokio_util::codec::Encoder::encode(&mut codec, good_message(i), &mut wire).unwrap()
            }
        }
    }
    let (moves, malformed, mismatched) = rt.block_on(async {
        let (client, server) = tokio::io::duplex(256);
        let mut server = Framed::new(server, codec);
        let sender = tokio::spawn(send_paced(client, wire.to_vec(), Pace::Pieces(2)));
        let (mut moves, mut malformed, mut mismatched) = (Vec::new(), 0, 0);
        while let Some(item) = server.next().await {
            match item.expect("no error ends the stream") {
                Ok(m) => moves.push(m),
                Err(MessageError::Malformed(_)) => malformed += 1,
                Err(MessageError::Mismatch { .. }) => mismatched += 1,
                Err(other) => panic!("{other}"),
            }
        }
        sender.await.unwrap();
        (moves, malformed, mismatched)
    });
    assert_eq!(moves, expected);
    assert_eq!((malformed, mismatched), (10, 10));
}

/// A message whose value leaves bytes of it unread is another dialect's (here a Godot 3 peer's
/// Transform read as Godot 4, where its type id is a Vector4i): an error naming the dialect that
/// reads it whole, and the stream goes on.
#[test]
fn a_message_its_value_leaves_unread_is_malformed() {
    let godot3 = Options::new(Dialect::Godot3);
    let transform = Value::transform3d(
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 2.0, 3.0],
    );
    let mut wire = framed_bytes(&[transform, Value::Int(7)], &godot3);
    let mut codec = VarCodec::new(Options::default());
    let bad = codec.decode(&mut wire).unwrap().unwrap().unwrap_err();
    assert!(
        matches!(
            bad.codec_error(),
            Some(CodecError::Decode {
                offset: 24, // the stream offset: the message's 20th byte after its prefix
                reason: DecodeReason::RecordNotWhole {
                    dialect: Dialect::Godot4,
                    whole_in: Some(Dialect::Godot3),
                    ..
                },
            })
        ),
        "{bad}"
    );
    assert_eq!(codec.decode(&mut wire).unwrap().unwrap(), Ok(Value::Int(7)));
    assert!(codec.decode(&mut wire).unwrap().is_none());
}

#[cfg(feature = "serde")]
#[test]
fn a_typed_message_its_value_leaves_unread_is_malformed() {
    use fast_var_codec_core::stream::TypedVarCodec;
    let opts = Options::default();
    // The int 7 with four bytes after it in its message, then the int 8 alone.
    let mut wire = BytesMut::from(&[12, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0][..]);
    wire.extend_from_slice(&framed_bytes(&[Value::Int(8)], &opts));
    let mut codec = TypedVarCodec::<i64>::new(opts);
    let bad = codec.decode(&mut wire).unwrap().unwrap().unwrap_err();
    assert!(
        matches!(
            bad,
            MessageError::Malformed(CodecError::Decode {
                offset: 12, // the stream offset: the message's 8th byte after its prefix
                reason: DecodeReason::RecordNotWhole {
                    used: 8,
                    len: 12,
                    ..
                },
            })
        ),
        "{bad}"
    );
    assert_eq!(codec.decode(&mut wire).unwrap().unwrap().unwrap(), 8);
}

//! `stream::VarCodec` (the `tokio` feature) in `tokio_util::codec::Framed`, and what it
//! allocates for hostile length prefixes, counted by the project's allocation counter.
#![cfg(feature = "tokio")]

mod common;

use bytes::BytesMut;
use common::alloc_counter::measure;
use fast_var_codec_core::stream::{frame, ByteOrder, VarCodec, VarCodecError, PREFIX_LEN};
use fast_var_codec_core::{CodecError, DecodeReason, Dialect, Options, Value};
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

/// What `examples/tokio_server.rs` does after a malformed value: `Framed` ends its stream once
/// and would decode the next messages only after the peer's next bytes; those already buffered
/// are decoded straight from its read buffer.
fn decode_buffered<C: Decoder>(framed: &mut Framed<tokio::io::DuplexStream, C>) -> Vec<C::Item> {
    let mut out = Vec::new();
    let mut buf = std::mem::take(framed.read_buffer_mut());
    while let Ok(Some(v)) = framed.codec_mut().decode(&mut buf) {
        out.push(v);
    }
    *framed.read_buffer_mut() = buf;
    out
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
        wire.extend_from_slice(&framed_bytes(
            &[Value::String("two".into()), Value::Int(3)],
            &opts,
        ));
        client.write_all(&wire).await.unwrap();

        assert_eq!(server.next().await.unwrap().unwrap(), Value::Int(1));
        let err = server.next().await.unwrap().unwrap_err();
        assert!(
            matches!(
                err.codec_error(),
                Some(CodecError::Decode { offset: 16, .. })
            ),
            "{err}"
        );
        assert!(server.codec().broken().is_none());
        assert!(server.next().await.is_none(), "Framed ends its stream once");
        assert_eq!(
            decode_buffered(&mut server),
            [Value::String("two".into()), Value::Int(3)]
        );
        // Then Framed reads the transport again.
        client
            .write_all(&framed_bytes(&[Value::Bool(true)], &opts))
            .await
            .unwrap();
        assert_eq!(server.next().await.unwrap().unwrap(), Value::Bool(true));
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
                    server.send(v.unwrap()).await.unwrap();
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
                assert_eq!(&rx.next().await.unwrap().unwrap(), v);
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

        let Request::Login { name } = server.next().await.unwrap().unwrap() else {
            panic!("not a login")
        };
        assert_eq!(name, "ada");
        server.send(Answer::Welcome { id: 7 }).await.unwrap();
        let err = server.next().await.unwrap().unwrap_err();
        assert!(matches!(err, VarCodecError::Mismatch { .. }), "{err}");
        assert!(server.next().await.is_none(), "Framed ends its stream once");
        let [Request::Chat { to: None, text }] = &decode_buffered(&mut server)[..] else {
            panic!("not a chat")
        };
        server
            .send(Answer::ChatAck { chars: text.len() })
            .await
            .unwrap();
        assert_eq!(
            game.next().await.unwrap().unwrap(),
            Answer::Welcome { id: 7 }
        );
        assert_eq!(
            game.next().await.unwrap().unwrap(),
            Answer::ChatAck { chars: 2 }
        );
    });
}

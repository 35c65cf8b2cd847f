//! The crate README's tokio server, as it is there (`tests/readme_example.rs` checks that the
//! two are the same): typed serde messages from Godot clients, limits for network input, and a
//! malformed message answered and skipped.
//!
//! ```sh
//! cargo run -p fast_var_codec_core --features serde,tokio --example game_server
//! ```

use fast_var_codec_core::options::Limits;
use fast_var_codec_core::stream::TypedVarCodec;
use fast_var_codec_core::{Dialect, Options};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// What a game sends: `{"Login": {"name": "ada"}}` or `{"Move": {"x": 1.5, "y": -2.0}}`.
#[derive(Deserialize, Debug)]
enum Request {
    Login { name: String },
    Move { x: f64, y: f64 },
}

/// What the server answers: `{"Welcome": {"id": 1}}`, `{"Moved": {"x": 1.5, "y": -2.0}}` …
#[derive(Serialize, Debug)]
enum Answer {
    Welcome { id: u32 },
    Moved { x: f64, y: f64 },
    Error { message: String },
}

/// A connection's codec: Godot 4's dialect (`Dialect::Godot3` for Godot 3 clients), with limits
/// on what one message from the network may make the server hold.
fn codec() -> TypedVarCodec<Request> {
    let limits = Limits {
        max_depth: 16,        // nesting of Arrays and Dictionaries
        max_elements: 1_000,  // their items and entries, all levels together
        max_bytes: 64 * 1024, // bytes of strings and packed arrays, all levels together
    };
    let options = Options::new(Dialect::Godot4).with_limits(limits);
    TypedVarCodec::new(options).with_max_message(64 * 1024) // bytes per message
}

async fn serve(socket: TcpStream, id: u32) {
    let mut framed = Framed::new(socket, codec());
    // One item per message. An error ends the stream (the socket's, a message cut short, a
    // length prefix above the maximum): say which, then close.
    while let Some(item) = framed.next().await {
        let message = match item {
            Ok(message) => message,
            Err(e) => {
                eprintln!("connection {id}: closed: {e}");
                break;
            }
        };
        let answer = match message {
            Ok(Request::Login { name }) => {
                println!("connection {id}: {name} logged in");
                Answer::Welcome { id }
            }
            Ok(Request::Move { x, y }) => Answer::Moved { x, y },
            // Bytes that are no value, or a value that is no Request: answered, then skipped.
            Err(bad) => Answer::Error {
                message: bad.to_string(),
            },
        };
        if let Err(e) = framed.send(&answer).await {
            eprintln!("connection {id}: cannot answer: {e}");
            break;
        }
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:47400").await?;
    let mut connections = 0;
    loop {
        let (socket, _) = listener.accept().await?;
        connections += 1;
        tokio::spawn(serve(socket, connections));
    }
}

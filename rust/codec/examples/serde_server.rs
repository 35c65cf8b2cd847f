//! A small game server written with serde structs, speaking to Godot clients that use the
//! engine's own `StreamPeer.put_var` / `get_var` (or `FastVarCodec`), on `std::net` only.
//!
//! Every message is a `#[derive(Serialize, Deserialize)]` type, sent and received in
//! `put_var`'s framing with [`fast_var_codec_core::stream`]; serde's externally tagged enums are
//! the protocol: the client sends `{"Login": {...}}`, `{"Move": {"dx": 1.5, "dy": 0}}`,
//! `{"Chat": {"to": null, "text": "hi"}}`, `{"Bye": {"reason": "done"}}`, and the server
//! answers `{"Welcome": {...}}`, `{"Moved": {...}}`, `{"ChatAck": {...}}`, `{"Farewell": {...}}`,
//! or `{"Error": {"message": "..."}}` for a message it cannot use (the connection goes on).
//!
//! ```sh
//! cargo run --release -p fast_var_codec_core --features serde --example serde_server -- \
//!     --port 47400 --dialect godot3 --timeout 30
//! ```
//!
//! * `--dialect godot4|godot3|...` (the core's dialect names), `--precision single|double`
//!   (`double` for engines built with `precision=double`; Godot 4 dialects only).
//! * Serves one client, then exits: 0 when the exchange went to its end (Login, then any
//!   Moves and Chats, then Bye answered with Farewell), otherwise 1 with a one-line reason on
//!   stderr; 2 for a wrong command line. `--timeout` seconds bound the whole run.
//! * `--expect-test-login` also requires the Login to be exactly the one the test clients send
//!   (`godot_project/peers/serde_client.gd`, `tests/peers/serde_client3.gd`): the values that
//!   came from the engine are checked on this side too, not only the answers on the other.
//!
//! Prints `listening on 127.0.0.1:PORT` on stdout once it accepts the connection, and a line
//! per message on stderr.

use std::collections::BTreeMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use clap::Parser;
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::serde_format::{from_bytes, to_value};
use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
use fast_var_codec_core::{Dialect, Options, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[path = "common/args.rs"]
mod common;

// ------------------------------------------------------------------ the protocol

/// Godot math types in plain structs: `[f64; N]` fields that travel as a Vector2 / Vector3
/// ([`Value`] passes through this format unchanged), and that decode from one (a math type
/// deserializes as the sequence of its components).
mod godot {
    use fast_var_codec_core::Value;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub mod vector2 {
        use super::*;
        pub fn serialize<S: Serializer>(v: &[f64; 2], s: S) -> Result<S::Ok, S::Error> {
            Value::Vector2(*v).serialize(s)
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
            <[f64; 2]>::deserialize(d)
        }
    }

    pub mod vector3 {
        use super::*;
        pub fn serialize<S: Serializer>(v: &[f64; 3], s: S) -> Result<S::Ok, S::Error> {
            Value::Vector3(*v).serialize(s)
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
            <[f64; 3]>::deserialize(d)
        }
    }

    /// A `Vec<u8>` as a PackedByteArray (what `serde_bytes` does): serde would otherwise
    /// serialize it as an Array of ints. A PackedByteArray deserializes into a `Vec<u8>` as is.
    pub mod packed_bytes {
        use super::*;
        pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(v)
        }
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
            Vec::<u8>::deserialize(d)
        }
    }
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Class {
    Warrior,
    Mage { school: String, mana: i64 },
    Rogue(i64),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone, Copy)]
enum Rank {
    Novice,
    Veteran,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Settings {
    volume: f64,
    fullscreen: bool,
    keybinds: Vec<i64>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Referrer {
    name: String,
    days: i64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Login {
    name: String,
    version: i64,
    #[serde(with = "godot::packed_bytes")]
    token: Vec<u8>,
    #[serde(with = "godot::vector2")]
    position: [f64; 2],
    /// Any Godot value, here a Color, kept exactly.
    color: Value,
    tags: Vec<String>,
    inventory: BTreeMap<String, i64>,
    class: Class,
    settings: Settings,
    guild: Option<String>,
    referrer: Option<Referrer>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum ClientMsg {
    // Boxed: the other messages are small (serde sees through the Box).
    Login(Box<Login>),
    Move { dx: f64, dy: f64 },
    Chat { to: Option<String>, text: String },
    Bye { reason: String },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Welcome {
    player_id: i64,
    greeting: String,
    name_chars: i64,
    next_version: i64,
    token_len: i64,
    token_sum: i64,
    #[serde(with = "godot::packed_bytes")]
    token_reversed: Vec<u8>,
    #[serde(with = "godot::vector2")]
    spawn: [f64; 2],
    #[serde(with = "godot::vector3")]
    spawn3: [f64; 3],
    color: Value,
    tags: Vec<String>,
    inventory: BTreeMap<String, i64>,
    inventory_total: i64,
    class: Class,
    rank: Rank,
    settings: Settings,
    guild: Option<String>,
    referred_by: Option<String>,
    ratio: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum ServerMsg {
    Welcome(Box<Welcome>),
    Moved {
        #[serde(with = "godot::vector2")]
        position: [f64; 2],
        steps: i64,
    },
    ChatAck {
        to: Option<String>,
        text: String,
        words: i64,
        private: bool,
    },
    Farewell {
        reason: String,
        moves: i64,
        chats: i64,
        rejected: i64,
        distance: f64,
    },
    Error {
        message: String,
    },
}

/// The Login the test clients send (`--expect-test-login`).
fn test_login() -> Login {
    Login {
        name: "Ada Łovelace".into(),
        version: 40_000_000_123,
        token: vec![0, 1, 2, 254, 255, 128],
        position: [1.25, -3.5],
        color: Value::Color([0.25, 0.5, 0.75, 1.0]),
        tags: vec!["pvp".into(), "eu".into(), "beta".into()],
        inventory: [("potion", 3), ("arrow", 40), ("gold", -7)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        class: Class::Mage {
            school: "fire".into(),
            mana: 120,
        },
        settings: Settings {
            volume: 0.75,
            fullscreen: true,
            keybinds: vec![87, 65, 83, 68],
        },
        guild: None,
        referrer: Some(Referrer {
            name: "bob".into(),
            days: 12,
        }),
    }
}

// ------------------------------------------------------------------ the game

/// What the server knows about its one player.
struct Session {
    position: [f64; 2],
    moves: i64,
    chats: i64,
    rejected: i64,
    distance: f64,
}

fn welcome(login: &Login) -> Welcome {
    let spawn = [login.position[0] + 0.5, login.position[1] + 1.0];
    let mut tags: Vec<String> = login.tags.iter().map(|t| t.to_uppercase()).collect();
    tags.sort();
    let class = match &login.class {
        Class::Mage { school, mana } => Class::Mage {
            school: school.clone(),
            mana: mana.saturating_mul(2),
        },
        other => other.clone(),
    };
    Welcome {
        player_id: 1,
        greeting: format!("Welcome, {}!", login.name.to_uppercase()),
        name_chars: login.name.chars().count() as i64,
        next_version: login.version.saturating_add(1),
        token_len: login.token.len() as i64,
        token_sum: login.token.iter().map(|&b| i64::from(b)).sum(),
        token_reversed: login.token.iter().rev().copied().collect(),
        spawn,
        spawn3: [spawn[0], 0.0, spawn[1]],
        color: login.color.clone(),
        tags,
        inventory: login
            .inventory
            .iter()
            .map(|(k, v)| (k.clone(), v.saturating_add(1)))
            .collect(),
        inventory_total: login.inventory.values().sum(),
        class,
        rank: if login.referrer.is_some() {
            Rank::Novice
        } else {
            Rank::Veteran
        },
        settings: login.settings.clone(),
        guild: login.guild.clone(),
        referred_by: login.referrer.as_ref().map(|r| r.name.clone()),
        ratio: 1.0 / 3.0,
    }
}

// ------------------------------------------------------------------ the connection

struct Config {
    port: u16,
    opts: Options,
    timeout: Duration,
    expect_test_login: bool,
}

/// The command line (clap).
#[derive(Parser)]
#[command(
    name = "serde_server",
    about = "A small game server written with serde structs."
)]
struct Args {
    /// Port on 127.0.0.1.
    #[arg(long, default_value_t = 47400)]
    port: u16,
    /// Dialect of both directions (godot4, godot3, …).
    #[arg(long, default_value = "godot4")]
    dialect: Dialect,
    /// real_t of the peer: single or double (double: Godot 4 dialects only).
    #[arg(long, default_value = "single", value_parser = precision_arg)]
    precision: Precision,
    /// Seconds before giving up (0 < S < 86400).
    #[arg(long, default_value = "30", value_parser = common::timeout_arg)]
    timeout: Duration,
    /// Refuse any Login other than the one the test clients send.
    #[arg(long)]
    expect_test_login: bool,
}

fn precision_arg(s: &str) -> Result<Precision, String> {
    match s {
        "single" => Ok(Precision::Single),
        "double" => Ok(Precision::Double),
        other => Err(format!("{other:?} is not single|double")),
    }
}

fn parse_args() -> Result<Config, String> {
    let a = Args::parse();
    let opts = Options::new(a.dialect).with_precision(a.precision);
    opts.check().map_err(|e| format!("--precision: {e}"))?;
    Ok(Config {
        port: a.port,
        opts,
        timeout: a.timeout,
        expect_test_login: a.expect_test_login,
    })
}

/// One client: typed messages in and out, `put_var`'s framing, every wait bounded.
struct Conn {
    sock: TcpStream,
    reader: StreamReader,
    opts: Options,
    deadline: Instant,
    buf: Vec<u8>,
}

/// A message that arrived whole but is not one the server can use.
enum Recv<T> {
    Msg(T),
    Unusable(String),
}

impl Conn {
    /// The next message as a `T`. `Err` when the connection cannot go on (closed, broken,
    /// the deadline); `Ok(Recv::Unusable)` for a value that did not decode or fit `T`.
    fn recv<T: DeserializeOwned>(&mut self) -> Result<Recv<T>, String> {
        loop {
            let payload = self
                .reader
                .next_frame()
                .map_err(|e| format!("stream broken: {e}"))?;
            if let Some(payload) = payload {
                return Ok(match from_bytes::<T>(&payload, &self.opts) {
                    Ok(msg) => Recv::Msg(msg),
                    Err(e) => Recv::Unusable(e.to_string()),
                });
            }
            if Instant::now() >= self.deadline {
                return Err(format!(
                    "timed out waiting for a message ({} bytes buffered)",
                    self.reader.buffered()
                ));
            }
            match self.sock.read(&mut self.buf) {
                Ok(0) => return Err("the client closed the connection".into()),
                Ok(n) => self
                    .reader
                    .feed(self.buf.get(..n).unwrap_or_default())
                    .map_err(|e| format!("stream broken: {e}"))?,
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Err(format!("read failed: {e}")),
            }
        }
    }

    fn send<T: Serialize>(&mut self, msg: &T) -> Result<(), String> {
        let value = to_value(msg).map_err(|e| format!("serializing the answer: {e}"))?;
        let mut out = BytesMut::new();
        frame(&value, &self.opts, ByteOrder::Little, &mut out)
            .map_err(|e| format!("encoding the answer: {e}"))?;
        self.sock
            .write_all(&out)
            .map_err(|e| format!("write failed: {e}"))
    }

    /// Answers a message the server cannot use with an Error message; the exchange goes on.
    fn reject(&mut self, session: &mut Session, why: String) -> Result<(), String> {
        eprintln!("serde_server: rejected a message: {why}");
        session.rejected += 1;
        self.send(&ServerMsg::Error { message: why })
    }
}

/// The whole exchange with one client; `Ok` with a summary when it went to its end.
fn serve(sock: TcpStream, cfg: &Config, deadline: Instant) -> Result<String, String> {
    let _ = sock.set_nodelay(true);
    // Short read timeouts so that the deadline is checked often.
    sock.set_read_timeout(Some(Duration::from_millis(50)))
        .map_err(|e| e.to_string())?;
    sock.set_write_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let mut conn = Conn {
        sock,
        reader: StreamReader::new(cfg.opts.clone()),
        opts: cfg.opts.clone(),
        deadline,
        buf: vec![0; 64 * 1024],
    };
    let mut session = Session {
        position: [0.0, 0.0],
        moves: 0,
        chats: 0,
        rejected: 0,
        distance: 0.0,
    };

    // The Login comes first.
    let login = match conn.recv::<ClientMsg>()? {
        Recv::Msg(ClientMsg::Login(login)) => login,
        Recv::Msg(other) => {
            let why = format!("expected a Login first, got {other:?}");
            conn.send(&ServerMsg::Error {
                message: why.clone(),
            })?;
            return Err(why);
        }
        Recv::Unusable(why) => {
            let why = format!("the Login did not decode: {why}");
            conn.send(&ServerMsg::Error {
                message: why.clone(),
            })?;
            return Err(why);
        }
    };
    if cfg.expect_test_login && *login != test_login() {
        let why = format!("the Login is not the test clients' one: got {login:?}");
        conn.send(&ServerMsg::Error {
            message: why.clone(),
        })?;
        return Err(why);
    }
    eprintln!(
        "serde_server: Login from {:?} (version {}, {} tags, {} items)",
        login.name,
        login.version,
        login.tags.len(),
        login.inventory.len()
    );
    let w = welcome(&login);
    session.position = w.spawn;
    conn.send(&ServerMsg::Welcome(Box::new(w)))?;

    // Then moves and chats until Bye.
    loop {
        let msg = match conn.recv::<ClientMsg>()? {
            Recv::Msg(m) => m,
            Recv::Unusable(why) => {
                conn.reject(&mut session, why)?;
                continue;
            }
        };
        match msg {
            ClientMsg::Login(_) => conn.reject(&mut session, "already logged in".into())?,
            ClientMsg::Move { dx, dy } => {
                session.position = [session.position[0] + dx, session.position[1] + dy];
                session.moves += 1;
                session.distance += dx.abs() + dy.abs();
                let answer = ServerMsg::Moved {
                    position: session.position,
                    steps: session.moves,
                };
                conn.send(&answer)?;
            }
            ClientMsg::Chat { to, text } => {
                session.chats += 1;
                let answer = ServerMsg::ChatAck {
                    private: to.is_some(),
                    to,
                    words: text.split_whitespace().count() as i64,
                    text,
                };
                conn.send(&answer)?;
            }
            ClientMsg::Bye { reason } => {
                let summary = format!(
                    "{} moves, {} chats, {} rejected, distance {}, reason {reason:?}",
                    session.moves, session.chats, session.rejected, session.distance
                );
                conn.send(&ServerMsg::Farewell {
                    reason,
                    moves: session.moves,
                    chats: session.chats,
                    rejected: session.rejected,
                    distance: session.distance,
                })?;
                let _ = conn.sock.flush();
                let _ = conn.sock.shutdown(Shutdown::Write);
                return Ok(summary);
            }
        }
    }
}

fn main() -> ExitCode {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("serde_server: {e}");
            return ExitCode::from(2);
        }
    };
    let deadline = Instant::now() + cfg.timeout;
    let listener = match TcpListener::bind(("127.0.0.1", cfg.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("serde_server: cannot listen on 127.0.0.1:{}: {e}", cfg.port);
            return ExitCode::from(2);
        }
    };
    if let Err(e) = listener.set_nonblocking(true) {
        eprintln!("serde_server: {e}");
        return ExitCode::from(2);
    }
    println!(
        "listening on 127.0.0.1:{} ({}, {:?} precision, {:.0} s)",
        cfg.port,
        cfg.opts.dialect.name(),
        cfg.opts.precision,
        cfg.timeout.as_secs_f64()
    );
    let _ = std::io::stdout().flush();

    let result = loop {
        if Instant::now() >= deadline {
            break Err("timed out: no client connected".to_string());
        }
        match listener.accept() {
            Ok((sock, addr)) => {
                eprintln!("serde_server: client {addr}");
                break match sock.set_nonblocking(false) {
                    Ok(()) => serve(sock, &cfg, deadline),
                    Err(e) => Err(e.to_string()),
                };
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(e) => break Err(format!("accept failed: {e}")),
        }
    };
    match result {
        Ok(summary) => {
            eprintln!("serde_server: exchange complete: {summary}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("serde_server: failed: {why}");
            ExitCode::from(1)
        }
    }
}

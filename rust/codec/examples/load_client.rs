//! A load client for the echo protocol (`examples/tokio_server.rs`, `examples/echo_server.rs`),
//! on tokio with [`VarCodec`]: many connections at once, each sending small Dictionaries and
//! checking every echo, while a few hostile connections send what a server must refuse.
//!
//! ```sh
//! cargo run --release -p fast_var_codec_core --features tokio --example load_client -- \
//!     --port 47400 --connections 1000 --messages 100 --hostile 3
//! ```
//!
//! * Every connection opens first; once all are open they start together. Each sends
//!   `--messages` values, one at a time, and checks each echo is the value it sent (each value
//!   names its connection and its number, so an echo crossed between connections or out of
//!   order is seen).
//! * At the same time, `--hostile` connections of each kind: a 2 GiB length prefix (the server
//!   must close the connection on its own); a message cut short by closing the connection (the
//!   server must close its side, and answer nothing); random bytes (the server must close the
//!   connection, on its own or once ours is closed). A connection the server refuses passes.
//! * Prints one `FAIL ...` line per failed check (one check per connection), the figures
//!   (throughput, round-trip percentiles) and `RESULT name=value` lines for scripts, then the
//!   final `N passed, N failed`; exits 1 on any failure. The figures are measurements, not
//!   checks. `--timeout` bounds the whole run.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use fast_var_codec_core::stream::VarCodec;
use fast_var_codec_core::{Dialect, Options, Value};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Barrier;
use tokio::task::JoinSet;
use tokio::time::{sleep, timeout, timeout_at, Instant};
use tokio_util::codec::Framed;

#[path = "common/args.rs"]
mod common;

/// The command line (clap).
#[derive(Parser)]
#[command(
    name = "load_client",
    about = "Many echo-protocol connections at once, every echo checked, hostile ones among them."
)]
struct Args {
    /// Port of the server on 127.0.0.1.
    #[arg(long, default_value_t = 47400)]
    port: u16,
    /// Dialect the server speaks (3 and 4 are short for godot3 and godot4).
    #[arg(long, default_value = "godot4", value_parser = common::dialect_arg)]
    dialect: Dialect,
    /// Well-behaved connections, open at the same time.
    #[arg(long, default_value_t = 1000)]
    connections: usize,
    /// Messages each of them sends (one at a time, each echo awaited).
    #[arg(long, default_value_t = 100)]
    messages: usize,
    /// Hostile connections of each kind (2 GiB prefix, cut short, random bytes).
    #[arg(long, default_value_t = 3)]
    hostile: usize,
    /// Seconds the whole run may take (0 < S < 86400).
    #[arg(long, default_value = "90", value_parser = common::timeout_arg)]
    timeout: Duration,
}

/// How long a single step (a connect, an echo, the server closing) may take.
const STEP: Duration = Duration::from_secs(20);

fn text(s: impl Into<String>) -> Value {
    Value::String(s.into().into())
}

/// Message `seq` of connection `conn`: a small Dictionary, different for every connection and
/// message.
fn message(conn: usize, seq: usize) -> Value {
    let (c, s) = (conn as i64, seq as i64);
    Value::dictionary(vec![
        (text("conn"), Value::Int(c)),
        (text("seq"), Value::Int(s)),
        (text("name"), text(format!("player-{conn}-{seq}"))),
        (
            text("pos"),
            Value::Vector2([c as f64 * 0.5, s as f64 - 2.25]),
        ),
        (text("alive"), Value::Bool(!(conn + seq).is_multiple_of(3))),
        (
            text("tags"),
            Value::array(vec![Value::Int(c * 1000 + s), text("t")]),
        ),
    ])
}

async fn connect(port: u16) -> std::io::Result<TcpStream> {
    let until = Instant::now() + STEP;
    loop {
        match TcpStream::connect(("127.0.0.1", port)).await {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() >= until => return Err(e),
            Err(_) => sleep(Duration::from_millis(50)).await,
        }
    }
}

/// One well-behaved connection: the round-trip times of its messages, in microseconds, or why
/// it failed.
async fn good(
    conn: usize,
    messages: usize,
    port: u16,
    opts: Options,
    start: Arc<Barrier>,
) -> Result<Vec<u32>, String> {
    let sock = connect(port).await;
    // Every connection is open (or has failed to open) before any sends.
    start.wait().await;
    let sock = sock.map_err(|e| format!("cannot connect: {e}"))?;
    let _ = sock.set_nodelay(true);
    let mut framed = Framed::new(sock, VarCodec::new(opts));
    let mut rtts = Vec::with_capacity(messages);
    for seq in 0..messages {
        let msg = message(conn, seq);
        let t0 = Instant::now();
        framed
            .send(&msg)
            .await
            .map_err(|e| format!("message {seq}: sending: {e}"))?;
        let echo = match timeout(STEP, framed.next()).await {
            Err(_) => return Err(format!("message {seq}: no echo within {STEP:?}")),
            Ok(None) => return Err(format!("message {seq}: the server closed the connection")),
            Ok(Some(Err(e))) => return Err(format!("message {seq}: {e}")),
            Ok(Some(Ok(Err(bad)))) => {
                return Err(format!("message {seq}: a malformed echo: {bad}"))
            }
            Ok(Some(Ok(Ok(v)))) => v,
        };
        let rtt = t0.elapsed();
        if echo != msg {
            return Err(format!("message {seq}: the echo differs: {echo:?}"));
        }
        rtts.push(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
    }
    Ok(rtts)
}

#[derive(Clone, Copy, Debug)]
enum Hostile {
    /// A 2 GiB length prefix, the connection kept open: the server must close it.
    HugePrefix,
    /// 24 bytes of a 64-byte message, then our end of the stream.
    CutShort,
    /// Random bytes (a fixed seed per connection).
    Random(u64),
}

/// Reads until the server closes the connection (end of stream or reset); the bytes read.
async fn until_closed(sock: &mut TcpStream, within: Duration) -> Result<usize, usize> {
    let mut buf = vec![0u8; 4096];
    let mut got = 0;
    let until = Instant::now() + within;
    loop {
        match timeout_at(until, sock.read(&mut buf)).await {
            Err(_) => return Err(got),
            Ok(Ok(0)) | Ok(Err(_)) => return Ok(got),
            Ok(Ok(n)) => got += n,
        }
    }
}

/// One hostile connection: how the server dealt with it, or why that is wrong.
async fn hostile(kind: Hostile, port: u16) -> Result<String, String> {
    let mut sock = match connect(port).await {
        Ok(s) => s,
        Err(e) => return Ok(format!("refused ({e})")),
    };
    match kind {
        Hostile::HugePrefix => {
            let _ = sock.write_all(&[0, 0, 0, 0x80, 1, 2, 3, 4]).await;
            match until_closed(&mut sock, STEP).await {
                Ok(_) => Ok("closed by the server".into()),
                Err(_) => Err(format!("still open after {STEP:?}")),
            }
        }
        Hostile::CutShort => {
            let mut bytes = 64u32.to_le_bytes().to_vec();
            bytes.extend_from_slice(&[4, 0, 0, 0, 20, 0, 0, 0]); // a String of 20 bytes…
            bytes.extend_from_slice(b"cut short..."); // …of which 12 come
            let _ = sock.write_all(&bytes).await;
            let _ = sock.shutdown().await;
            match until_closed(&mut sock, STEP).await {
                Ok(0) => Ok("closed by the server, nothing answered".into()),
                Ok(n) => Err(format!(
                    "the server answered {n} bytes to a message cut short"
                )),
                Err(_) => Err(format!("still open {STEP:?} after our end of stream")),
            }
        }
        Hostile::Random(seed) => {
            let mut x = seed;
            let bytes: Vec<u8> = (0..4096)
                .map(|_| {
                    // xorshift64*
                    x ^= x >> 12;
                    x ^= x << 25;
                    x ^= x >> 27;
                    (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
                })
                .collect();
            let _ = sock.write_all(&bytes).await;
            // A random prefix below the maximum size waits for its message: the end of our
            // stream must then close it.
            match until_closed(&mut sock, Duration::from_secs(3)).await {
                Ok(n) => Ok(format!("closed by the server ({n} bytes answered)")),
                Err(n) => {
                    let _ = sock.shutdown().await;
                    match until_closed(&mut sock, STEP).await {
                        Ok(m) => Ok(format!(
                            "closed by the server after our end of stream ({} bytes answered)",
                            n + m
                        )),
                        Err(_) => Err(format!("still open {STEP:?} after our end of stream")),
                    }
                }
            }
        }
    }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    let i = rank.clamp(1, sorted.len()) - 1;
    sorted.get(i).copied().unwrap_or(0) as f64 / 1000.0
}

#[tokio::main]
async fn main() -> ExitCode {
    let a = Args::parse();
    let deadline = Instant::now() + a.timeout;
    let opts = Options::new(a.dialect);
    let start = Arc::new(Barrier::new(a.connections + 1));

    let mut goods = JoinSet::new();
    for conn in 0..a.connections {
        let (opts, start) = (opts.clone(), Arc::clone(&start));
        goods.spawn(async move { (conn, good(conn, a.messages, a.port, opts, start).await) });
    }
    // All open: go.
    if timeout_at(deadline, start.wait()).await.is_err() {
        println!("FAIL the connections did not all open before the timeout");
        println!("0 passed, 1 failed");
        return ExitCode::FAILURE;
    }
    let t0 = Instant::now();
    println!(
        "load_client: {} connections open; {} messages each, {} hostile connections of each kind \
         among them",
        a.connections, a.messages, a.hostile
    );

    // The hostile connections, spread over the first second of the load.
    let mut hostiles = JoinSet::new();
    let mut kinds = Vec::new();
    for k in 0..a.hostile {
        kinds.push(Hostile::HugePrefix);
        kinds.push(Hostile::CutShort);
        kinds.push(Hostile::Random(0x9E37_79B9_7F4A_7C15 ^ (k as u64 + 1)));
    }
    let spread = kinds.len().max(1) as u32;
    for (i, kind) in kinds.into_iter().enumerate() {
        let port = a.port;
        let delay = Duration::from_secs(1) * i as u32 / spread;
        hostiles.spawn(async move {
            sleep(delay).await;
            (kind, hostile(kind, port).await)
        });
    }

    let (mut passed, mut failed) = (0u64, 0u64);
    let mut rtts: Vec<u32> = Vec::with_capacity(a.connections * a.messages);
    let mut elapsed = Duration::ZERO;
    loop {
        match timeout_at(deadline, goods.join_next()).await {
            Err(_) => {
                failed += goods.len() as u64;
                println!(
                    "FAIL {} connections had not finished at the timeout",
                    goods.len()
                );
                goods.abort_all();
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                failed += 1;
                println!("FAIL a connection task failed: {e}");
            }
            Ok(Some(Ok((conn, res)))) => {
                elapsed = t0.elapsed();
                match res {
                    Ok(times) => {
                        passed += 1;
                        rtts.extend(times);
                    }
                    Err(why) => {
                        failed += 1;
                        println!("FAIL connection {conn}: {why}");
                    }
                }
            }
        }
    }
    let mut hostile_lines = Vec::new();
    loop {
        match timeout_at(deadline, hostiles.join_next()).await {
            Err(_) => {
                failed += hostiles.len() as u64;
                println!(
                    "FAIL {} hostile connections had not finished at the timeout",
                    hostiles.len()
                );
                hostiles.abort_all();
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                failed += 1;
                println!("FAIL a hostile connection task failed: {e}");
            }
            Ok(Some(Ok((kind, Ok(how))))) => {
                passed += 1;
                hostile_lines.push(format!("{kind:?}: {how}"));
            }
            Ok(Some(Ok((kind, Err(why))))) => {
                failed += 1;
                println!("FAIL hostile connection {kind:?}: {why}");
            }
        }
    }
    hostile_lines.sort();
    for line in &hostile_lines {
        println!("load_client: hostile {line}");
    }

    rtts.sort_unstable();
    let echoes = rtts.len();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let rate = echoes as f64 / secs;
    let (p50, p99, p999) = (
        percentile(&rtts, 50.0),
        percentile(&rtts, 99.0),
        percentile(&rtts, 99.9),
    );
    println!(
        "load_client: {echoes} echoes checked on {} connections in {secs:.2} s: {rate:.0} \
         messages/s; round trip p50 {p50:.3} ms, p99 {p99:.3} ms, p99.9 {p999:.3} ms \
         (measurements, not checks)",
        a.connections
    );
    println!("RESULT connections={}", a.connections);
    println!("RESULT echoes={echoes}");
    println!("RESULT seconds={secs:.3}");
    println!("RESULT messages_per_second={rate:.0}");
    println!("RESULT p50_ms={p50:.3}");
    println!("RESULT p99_ms={p99:.3}");
    println!("RESULT p99_9_ms={p999:.3}");
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

//! A Variant echo server for Godot peers on tokio: one task per connection, each a
//! `Framed<TcpStream, VarCodec>` ([`VarCodec`], the core's `tokio` feature).
//!
//! It speaks exactly the protocol of `examples/echo_server.rs` (the same Godot clients talk to
//! both): it listens on `127.0.0.1:PORT`, reads length-prefixed values (`StreamPeer.put_var`,
//! or `FastVarCodec.put_var`), decodes each in the chosen dialect and sends it back re-encoded.
//! Connections are served at the same time. Dialects: `godot4`, `godot3`, `pandemonium38`
//! (Pandemonium v3.8.0–v4.9.0) and `pandemonium5` (v5.0.0 and later), or `auto`: each
//! connection's dialect is taken from its peer's own messages (`VarCodec::detecting`), so Godot 3
//! and Godot 4 clients share one port, each answered in its own dialect (Godot 4's until its
//! messages tell).
//!
//! ```sh
//! cargo run --release -p fast_var_codec_core --features tokio --example tokio_server -- \
//!     --port 47400 --dialect godot3 --connections 2 --timeout 30
//! ```
//!
//! * A value that does not decode is answered with the String `"echo_server error: <message>"`
//!   (the echo protocol's error answer); the connection goes on with the next value.
//! * A length prefix above `--max-message` breaks the stream (nothing is allocated for it): the
//!   connection is closed. So is one whose peer ends it inside a message, or whose socket fails.
//! * `--trickle BYTES:MS` sends each answer in pieces of BYTES with a pause of MS milliseconds
//!   between them, as a slow network would (a large value then reaches the client in many reads).
//! * `--max-concurrent N` serves at most N connections at once; the next ones wait in the
//!   listen queue until one ends. Each connection holds at most one message of `--max-message`
//!   bytes, plus its answer.
//! * The server exits once `--connections` connections have been served (0: no such limit), or
//!   `--timeout` seconds after it started, whichever comes first (exit code 0; 3 if the timeout
//!   cut a connection short or fewer connections came).
//!
//! Prints `listening on 127.0.0.1:PORT` on stdout once it accepts connections, one line per
//! connection on stderr (with `--quiet`, only for those that end in an error; with `auto`, it
//! names the dialect detected), and a final line
//! `tokio_server: done: ...` with the totals and, on Linux, the peak resident memory (VmHWM).

use std::io::Write as _;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use bytes::BytesMut;
use clap::Parser;
use fast_var_codec_core::stream::{ByteOrder, VarCodec, VarCodecError, DEFAULT_MAX_MESSAGE};
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::{sleep, sleep_until, timeout_at, Instant};
use tokio_util::codec::{Encoder, Framed};

#[path = "common/args.rs"]
mod common;

/// The echo protocol's answer to a value that does not decode starts with this.
const ERROR_PREFIX: &str = "echo_server error:";

/// The command line (clap).
#[derive(Parser)]
#[command(
    name = "tokio_server",
    about = "Echoes every value Godot peers send, re-encoded; many connections at once (tokio)."
)]
struct Args {
    /// Port on 127.0.0.1.
    #[arg(long, default_value_t = 47400)]
    port: u16,
    /// Dialect of both directions (3 and 4 are short for godot3 and godot4), or `auto`: each
    /// connection's, from its peer's messages.
    #[arg(long, default_value = "godot4", value_parser = dialect_choice)]
    dialect: DialectChoice,
    /// Connections to serve before exiting (0: serve until the timeout).
    #[arg(long, default_value_t = 1)]
    connections: usize,
    /// Connections served at the same time, at most; the next ones wait.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    max_concurrent: u32,
    /// Seconds before giving up (0 < S < 86400).
    #[arg(long, default_value = "30", value_parser = common::timeout_arg)]
    timeout: Duration,
    /// Longest message accepted, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_MESSAGE)]
    max_message: usize,
    /// Decode (and echo) full objects.
    #[arg(long)]
    allow_objects: bool,
    /// Length prefixes in big-endian order.
    #[arg(long)]
    big_endian: bool,
    /// Write answers in pieces of BYTES, MS milliseconds apart (e.g. 65536:2).
    #[arg(long, value_name = "BYTES:MS", value_parser = common::trickle_arg)]
    trickle: Option<(usize, Duration)>,
    /// A line on stderr only for connections that end in an error.
    #[arg(long)]
    quiet: bool,
}

/// `--dialect`: one for every connection, or each connection's own.
#[derive(Clone, Copy)]
enum DialectChoice {
    Fixed(Dialect),
    Auto,
}

fn dialect_choice(s: &str) -> Result<DialectChoice, String> {
    match s {
        "auto" => Ok(DialectChoice::Auto),
        name => common::dialect_arg(name).map(DialectChoice::Fixed),
    }
}

/// What every connection shares.
struct Config {
    codec: VarCodec,
    trickle: Option<(usize, Duration)>,
    quiet: bool,
}

/// How a connection ended.
enum End {
    /// The peer closed it.
    Closed,
    /// A length prefix above the maximum: we closed it.
    Broken(CodecError),
    /// The peer ended the stream inside a message.
    CutShort(VarCodecError),
    /// Reading or writing the socket failed.
    Io(VarCodecError),
    /// The server's deadline came first.
    Deadline,
}

#[derive(Default)]
struct Stats {
    values: u64,
    malformed: u64,
    /// With `--dialect auto`: the dialect the connection's messages told, if they did.
    detected: Option<Dialect>,
}

type Conn = Framed<TcpStream, VarCodec>;

/// Sends `value`; in pieces with pauses when trickling.
async fn send(framed: &mut Conn, value: &Value, cfg: &Config) -> Result<(), VarCodecError> {
    let Some((piece, pause)) = cfg.trickle else {
        return framed.send(value).await;
    };
    let mut out = BytesMut::new();
    framed.codec_mut().encode(value, &mut out)?;
    // (The codec encodes `Value` and `&Value`: `flush` names one.)
    SinkExt::<&Value>::flush(framed).await?;
    let sock = framed.get_mut();
    for (i, chunk) in out.chunks(piece).enumerate() {
        if i > 0 {
            sleep(pause).await;
        }
        sock.write_all(chunk).await?;
        sock.flush().await?;
    }
    Ok(())
}

/// Sends the echo protocol's answer to a value that does not decode (or encode).
async fn send_error(framed: &mut Conn, what: String, cfg: &Config) -> Result<(), VarCodecError> {
    send(framed, &Value::from(format!("{ERROR_PREFIX} {what}")), cfg).await
}

async fn serve(sock: TcpStream, cfg: &Config, stats: &mut Stats) -> End {
    let _ = sock.set_nodelay(true);
    let mut framed = Framed::new(sock, cfg.codec.clone());
    let end = serve_framed(&mut framed, cfg, stats).await;
    let codec = framed.codec();
    stats.detected = codec.is_settled().then(|| codec.dialect());
    end
}

async fn serve_framed(framed: &mut Conn, cfg: &Config, stats: &mut Stats) -> End {
    // Each item is a message: its value, or why it is none. Only the end of the connection,
    // a broken prefix or a socket error end the stream.
    while let Some(item) = framed.next().await {
        let sent = match item {
            Ok(Ok(value)) => {
                stats.values += 1;
                match send(framed, &value, cfg).await {
                    // Cannot happen for a value that decoded in the same dialect; say so.
                    Err(VarCodecError::Codec(e)) => {
                        send_error(framed, format!("re-encoding: {e}"), cfg).await
                    }
                    sent => sent,
                }
            }
            Ok(Err(malformed)) => {
                stats.malformed += 1;
                send_error(framed, malformed.to_string(), cfg).await
            }
            Err(e @ VarCodecError::Io(_)) => {
                let cut = e.codec_error().is_some();
                return if cut { End::CutShort(e) } else { End::Io(e) };
            }
            Err(e) => {
                let broken = framed.codec().broken().cloned();
                // Answers already queued go out first; then the connection is closed.
                let _ = SinkExt::<&Value>::flush(framed).await;
                let _ = framed.get_mut().shutdown().await;
                return match broken {
                    Some(broken) => End::Broken(broken),
                    None => End::Io(e),
                };
            }
        };
        if let Err(e) = sent {
            return End::Io(e);
        }
    }
    End::Closed
}

/// What one connection task reports.
struct Report {
    n: u64,
    addr: SocketAddr,
    stats: Stats,
    end: End,
    secs: f64,
    /// `--dialect auto`.
    detecting: bool,
}

#[derive(Default)]
struct Totals {
    served: u64,
    values: u64,
    malformed: u64,
    broken: u64,
    cut_short: u64,
    io_errors: u64,
    deadline: u64,
}

impl Totals {
    fn add(&mut self, r: Report, quiet: bool) {
        self.served += 1;
        self.values += r.stats.values;
        self.malformed += r.stats.malformed;
        let (how, error) = match &r.end {
            End::Closed => ("closed by the peer".to_string(), false),
            End::Broken(e) => {
                self.broken += 1;
                (format!("stream broken: {e}; closed"), true)
            }
            End::CutShort(e) => {
                self.cut_short += 1;
                (format!("ended inside a message: {e}"), true)
            }
            End::Io(e) => {
                self.io_errors += 1;
                (format!("{e}"), true)
            }
            End::Deadline => {
                self.deadline += 1;
                ("cut by the timeout".to_string(), true)
            }
        };
        let dialect = match (r.detecting, r.stats.detected) {
            (false, _) => String::new(),
            (true, Some(d)) => format!(", {} detected", d.short_name()),
            (true, None) => ", no dialect detected".to_string(),
        };
        if !quiet || error || r.stats.malformed > 0 {
            eprintln!(
                "tokio_server: connection {} from {}: {} values echoed, {} malformed{dialect}, {:.2} s; {how}",
                r.n, r.addr, r.stats.values, r.stats.malformed, r.secs
            );
        }
    }
}

/// The process's peak resident memory in KiB (Linux: VmHWM in /proc/self/status).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[tokio::main]
async fn main() -> ExitCode {
    let a = Args::parse();
    let started = Instant::now();
    let deadline = started + a.timeout;
    let (dialect, detecting) = match a.dialect {
        DialectChoice::Fixed(d) => (d, false),
        DialectChoice::Auto => (Dialect::default(), true),
    };
    let opts = Options::new(dialect)
        .with_allow_objects(a.allow_objects)
        // Objects read whole are sent back whole (var_to_bytes_with_objects), as they came.
        .with_full_objects(a.allow_objects);
    let order = ByteOrder::from_big_endian(a.big_endian);
    let cfg = Arc::new(Config {
        codec: if detecting {
            VarCodec::detecting(opts)
        } else {
            VarCodec::new(opts)
        }
        .with_byte_order(order)
        .with_max_message(a.max_message),
        trickle: a.trickle,
        quiet: a.quiet,
    });
    let mut listener = match TcpListener::bind(("127.0.0.1", a.port)).await {
        Ok(l) => Some(l),
        Err(e) => {
            eprintln!("tokio_server: cannot listen on 127.0.0.1:{}: {e}", a.port);
            return ExitCode::from(2);
        }
    };
    println!(
        "listening on 127.0.0.1:{} ({}, {} connection(s), at most {} at once, {:.0} s)",
        a.port,
        if detecting {
            "each connection's dialect detected"
        } else {
            dialect.name()
        },
        match a.connections {
            0 => "any number of".to_string(),
            n => n.to_string(),
        },
        a.max_concurrent,
        a.timeout.as_secs_f64()
    );
    let _ = std::io::stdout().flush();

    let slots = Arc::new(Semaphore::new(a.max_concurrent as usize));
    let mut tasks: JoinSet<Report> = JoinSet::new();
    let mut totals = Totals::default();
    let mut accepted: u64 = 0;
    let wanted = a.connections as u64;
    let mut timed_out = false;
    loop {
        if wanted > 0 && accepted >= wanted {
            listener = None; // later connections are refused
        }
        if listener.is_none() && tasks.is_empty() {
            break;
        }
        tokio::select! {
            incoming = async {
                let slot = slots.clone().acquire_owned().await;
                let conn = match &listener {
                    Some(l) => l.accept().await,
                    None => std::future::pending::<std::io::Result<(TcpStream, SocketAddr)>>().await,
                };
                (slot, conn)
            }, if listener.is_some() => {
                let (slot, conn) = incoming;
                let (sock, addr) = match conn {
                    Ok(c) => c,
                    Err(e) => {
                        // Out of file descriptors, say: wait a little and go on.
                        eprintln!("tokio_server: accept failed: {e}");
                        sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                accepted += 1;
                let n = accepted;
                let cfg = Arc::clone(&cfg);
                tasks.spawn(async move {
                    let _slot = slot;
                    let t0 = Instant::now();
                    let mut stats = Stats::default();
                    let end = timeout_at(deadline, serve(sock, &cfg, &mut stats))
                        .await
                        .unwrap_or(End::Deadline);
                    Report { n, addr, stats, end, secs: t0.elapsed().as_secs_f64(), detecting }
                });
            }
            Some(done) = tasks.join_next(), if !tasks.is_empty() => {
                match done {
                    Ok(report) => totals.add(report, cfg.quiet),
                    Err(e) => {
                        eprintln!("tokio_server: a connection task failed: {e}");
                        totals.io_errors += 1;
                    }
                }
            }
            _ = sleep_until(deadline) => {
                timed_out = true;
                break;
            }
        }
    }
    // Every task ends at the deadline at the latest.
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(report) => totals.add(report, cfg.quiet),
            Err(e) => eprintln!("tokio_server: a connection task failed: {e}"),
        }
    }
    eprintln!(
        "tokio_server: done: {} connection(s) served in {:.2} s: {} values echoed, {} malformed \
         answered, {} closed for an oversized prefix, {} ended inside a message, {} I/O errors, \
         {} cut by the timeout; peak RSS {}",
        totals.served,
        started.elapsed().as_secs_f64(),
        totals.values,
        totals.malformed,
        totals.broken,
        totals.cut_short,
        totals.io_errors,
        totals.deadline,
        peak_rss_kib().map_or("unknown".to_string(), |k| format!("{k} KiB"))
    );
    let short = wanted > 0 && (timed_out || totals.served < wanted);
    if totals.deadline > 0 || short {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

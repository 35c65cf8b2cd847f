//! A Variant echo server for Godot peers, on `std::net` only.
//!
//! Listens on `127.0.0.1:PORT`, reads length-prefixed values (`StreamPeer.put_var`, or
//! `FastVarCodec.put_var`) with [`StreamReader`], decodes each in the chosen dialect and sends it
//! back re-encoded with [`frame`]. Connections are served one after another. Dialects: `godot4`,
//! `godot3`, `pandemonium38` (Pandemonium v3.8.0–v4.9.0) and `pandemonium5` (v5.0.0 and later).
//!
//! ```sh
//! cargo run --release --example echo_server -p fast_var_codec_core -- \
//!     --port 47400 --dialect godot3 --connections 2 --timeout 30
//! ```
//!
//! * A value that does not decode is answered with the String `"echo_server error: <message>"`;
//!   the connection goes on with the next value.
//! * A length prefix above `--max-message` breaks the stream (nothing is allocated for it): the
//!   connection is closed.
//! * `--trickle BYTES:MS` sends each answer in pieces of BYTES with a pause of MS milliseconds
//!   between them, as a slow network would (a large value then reaches the client in many reads).
//! * The server exits after `--connections` connections, or `--timeout` seconds after it
//!   started, whichever comes first (exit code 0; 3 if the timeout cut a connection short or no
//!   connection came).
//!
//! Prints `listening on 127.0.0.1:PORT` on stdout once it accepts connections, and one line per
//! connection on stderr.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use clap::Parser;
use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader, DEFAULT_MAX_MESSAGE};
use fast_var_codec_core::{Dialect, Options, Value};

#[path = "common/args.rs"]
mod common;

struct Config {
    port: u16,
    dialect: Dialect,
    connections: usize,
    timeout: Duration,
    max_message: usize,
    allow_objects: bool,
    byte_order: ByteOrder,
    /// Write answers in pieces of this many bytes, pausing between them.
    trickle: Option<(usize, Duration)>,
}

/// The command line (clap).
#[derive(Parser)]
#[command(
    name = "echo_server",
    about = "Echoes every value a Godot peer sends, re-encoded."
)]
struct Args {
    /// Port on 127.0.0.1.
    #[arg(long, default_value_t = 47400)]
    port: u16,
    /// Dialect of both directions (3 and 4 are short for godot3 and godot4).
    #[arg(long, default_value = "godot4", value_parser = common::dialect_arg)]
    dialect: Dialect,
    /// Connections to serve, one after another.
    #[arg(long, default_value_t = 1)]
    connections: usize,
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
}

fn parse_args() -> Config {
    let a = Args::parse();
    Config {
        port: a.port,
        dialect: a.dialect,
        connections: a.connections,
        timeout: a.timeout,
        max_message: a.max_message,
        allow_objects: a.allow_objects,
        byte_order: if a.big_endian {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        },
        trickle: a.trickle,
    }
}

/// How a connection ended.
enum End {
    /// The peer closed it (or the stream broke and we closed it).
    Closed,
    /// The server's deadline came first.
    Deadline,
}

#[derive(Default)]
struct Stats {
    values: u64,
    bad_values: u64,
    bytes_in: u64,
    bytes_out: u64,
}

/// Writes all of `data`, in pieces with pauses when trickling.
fn send(sock: &mut TcpStream, data: &[u8], cfg: &Config) -> std::io::Result<()> {
    match cfg.trickle {
        None => sock.write_all(data),
        Some((piece, pause)) => {
            for (i, chunk) in data.chunks(piece).enumerate() {
                if i > 0 {
                    std::thread::sleep(pause);
                }
                sock.write_all(chunk)?;
                sock.flush()?;
            }
            Ok(())
        }
    }
}

fn serve(mut sock: TcpStream, cfg: &Config, deadline: Instant, stats: &mut Stats) -> End {
    let opts = Options::new(cfg.dialect)
        .with_allow_objects(cfg.allow_objects)
        // Objects read whole are sent back whole (var_to_bytes_with_objects), as they came.
        .with_full_objects(cfg.allow_objects);
    let mut reader = StreamReader::new(opts.clone())
        .with_byte_order(cfg.byte_order)
        .with_max_message(cfg.max_message);
    let mut buf = vec![0u8; 64 * 1024];
    let mut out = BytesMut::new();
    let _ = sock.set_nodelay(true);
    // Short read timeouts so that the deadline is checked often.
    let _ = sock.set_read_timeout(Some(Duration::from_millis(50)));
    let _ = sock.set_write_timeout(Some(Duration::from_secs(10)));
    loop {
        if Instant::now() >= deadline {
            return End::Deadline;
        }
        let n = match sock.read(&mut buf) {
            Ok(0) => return End::Closed,
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => continue,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("echo_server: read failed: {e}");
                return End::Closed;
            }
        };
        stats.bytes_in += n as u64;
        if let Err(e) = reader.feed(buf.get(..n).unwrap_or_default()) {
            eprintln!("echo_server: stream broken: {e}; closing the connection");
            let _ = sock.shutdown(Shutdown::Both);
            return End::Closed;
        }
        out.clear();
        loop {
            match reader.next_value() {
                Ok(Some(v)) => {
                    stats.values += 1;
                    if let Err(e) = frame(&v, &opts, cfg.byte_order, &mut out) {
                        // Cannot happen for a value that decoded in the same dialect; say so.
                        let msg =
                            Value::String(format!("echo_server error: re-encoding: {e}").into());
                        let _ = frame(&msg, &opts, cfg.byte_order, &mut out);
                    }
                }
                Ok(None) => break,
                Err(e) if reader.broken().is_some() => {
                    eprintln!("echo_server: stream broken: {e}; closing the connection");
                    if !out.is_empty() && send(&mut sock, &out, cfg).is_ok() {
                        stats.bytes_out += out.len() as u64;
                    }
                    let _ = sock.shutdown(Shutdown::Both);
                    return End::Closed;
                }
                Err(e) => {
                    stats.bad_values += 1;
                    let msg = Value::String(format!("echo_server error: {e}").into());
                    let _ = frame(&msg, &opts, cfg.byte_order, &mut out);
                }
            }
        }
        if !out.is_empty() {
            if let Err(e) = send(&mut sock, &out, cfg) {
                eprintln!("echo_server: write failed: {e}");
                return End::Closed;
            }
            stats.bytes_out += out.len() as u64;
        }
    }
}

fn main() -> ExitCode {
    let cfg = parse_args();
    let started = Instant::now();
    let deadline = started + cfg.timeout;
    let listener = match TcpListener::bind(("127.0.0.1", cfg.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("echo_server: cannot listen on 127.0.0.1:{}: {e}", cfg.port);
            return ExitCode::from(2);
        }
    };
    if let Err(e) = listener.set_nonblocking(true) {
        eprintln!("echo_server: {e}");
        return ExitCode::from(2);
    }
    println!(
        "listening on 127.0.0.1:{} ({}, {} connection(s), {:.0} s)",
        cfg.port,
        cfg.dialect.name(),
        cfg.connections,
        cfg.timeout.as_secs_f64()
    );
    let _ = std::io::stdout().flush();

    let mut served = 0usize;
    let mut cut_short = false;
    while served < cfg.connections && Instant::now() < deadline {
        match listener.accept() {
            Ok((sock, addr)) => {
                let _ = sock.set_nonblocking(false);
                served += 1;
                let mut stats = Stats::default();
                let t0 = Instant::now();
                let end = serve(sock, &cfg, deadline, &mut stats);
                if matches!(end, End::Deadline) {
                    cut_short = true;
                }
                eprintln!(
                    "echo_server: connection {served} from {addr}: {} values echoed, {} malformed, \
                     {} bytes in, {} bytes out, {:.2} s{}",
                    stats.values,
                    stats.bad_values,
                    stats.bytes_in,
                    stats.bytes_out,
                    t0.elapsed().as_secs_f64(),
                    if cut_short { " (cut by the timeout)" } else { "" }
                );
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(e) => {
                eprintln!("echo_server: accept failed: {e}");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
    eprintln!(
        "echo_server: done after {served} of {} connection(s) in {:.2} s",
        cfg.connections,
        started.elapsed().as_secs_f64()
    );
    if cut_short || served < cfg.connections {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

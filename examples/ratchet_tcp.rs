//! pqdr-ratchet in stream mode over a TCP connection on 127.0.0.1: records
//! `be16(len) ‖ flags ‖ epoch_lo ‖ ciphertext ‖ tag` with implicit counters,
//! periodic ML-KEM-768 ratchets (KEM symbols ride in the data records both
//! ways), a BLAKE3 integrity check and an optional static-key baseline.
//!
//! ```text
//! cargo run --release --example ratchet_tcp -- [--bytes N] [--ratchet-ms MS] [--baseline]
//! ```
//! Defaults: 256 MiB, a ratchet every 2000 ms. The last line is `integrity: ok`
//! (non-zero exit otherwise). Loopback only; every loop is bounded.
//!
//! Every transfer starts from a real pqdr-handshake (suite K768) on the same
//! connection, between two long-term identities that live for the whole run:
//! each handshake message travels as `be16 len ‖ message` (the same length
//! prefix as the stream records), and the client writes msg3 and its first
//! record in one write. The ratchet session takes its secret and its role
//! from the handshake; the baseline's static key is derived from its own
//! handshake's secret. A stream loses nothing, so there are no resends and
//! no cookie round; the transfer times do not include the handshakes (their
//! sizes and times are printed at the end).
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "demo and benchmark code on public values"
)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant as StdInstant};

mod common;

use common::{HsStats, Keys, Listener, PublicKeys, accept_stream, dial_stream, ms};
use pqdr_suite::handshake::{Established, K768, Tai64N};
use pqdr_suite::ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_suite::ratchet::chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use pqdr_suite::ratchet::{
    Config, DefaultSession, Instant, MlKem768, Mode, Role, blake3, stream_record_len,
};
use rand_core::UnwrapErr;

/// The handshake's application label.
const LABEL: &[u8] = b"pqdr tcp demo";

/// Application bytes per record.
const CHUNK: usize = 16_000;
/// Largest record (leaves room for a few KEM symbols next to a full chunk).
const MAX_RECORD: usize = 17_200;
/// Give up if nothing arrives for this long.
const STALL: Duration = Duration::from_secs(20);

struct Args {
    bytes: u64,
    ratchet_ms: u64,
    baseline: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        bytes: 256 << 20,
        ratchet_ms: 2000,
        baseline: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || it.next().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--bytes" => a.bytes = val()?.parse().map_err(|e| format!("--bytes: {e}"))?,
            "--ratchet-ms" => {
                a.ratchet_ms = val()?.parse().map_err(|e| format!("--ratchet-ms: {e}"))?
            }
            "--baseline" => a.baseline = true,
            _ => return Err(format!("unknown argument {k}")),
        }
    }
    if a.bytes == 0 {
        return Err("--bytes must be positive".into());
    }
    Ok(a)
}

fn fill_chunk(i: u64, out: &mut [u8]) {
    let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03;
    for w in out.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = x.to_le_bytes();
        w.copy_from_slice(&b[..w.len()]);
    }
}

/// Stream record protection: the ratchet, or one static ChaCha20-Poly1305 key.
trait Channel: Send {
    fn seal(&mut self, now: u64, pt: &[u8], out: &mut [u8]) -> Result<usize, String>;
    fn open(&mut self, now: u64, rec: &[u8], out: &mut [u8]) -> Result<usize, String>;
    fn poll_transmit(&mut self, now: u64, out: &mut [u8]) -> Option<usize>;
    fn ratchets(&self, now: u64) -> u64;
}

struct Ratchet(DefaultSession, UnwrapErr<getrandom::SysRng>);

impl Channel for Ratchet {
    fn seal(&mut self, now: u64, pt: &[u8], out: &mut [u8]) -> Result<usize, String> {
        self.0
            .seal(Instant(now), b"", pt, out, &mut self.1)
            .map_err(|e| format!("{e:?}"))
    }
    fn open(&mut self, now: u64, rec: &[u8], out: &mut [u8]) -> Result<usize, String> {
        self.0
            .open(Instant(now), b"", rec, out, &mut self.1)
            .map(|o| o.len)
            .map_err(|e| format!("{e:?}"))
    }
    fn poll_transmit(&mut self, now: u64, out: &mut [u8]) -> Option<usize> {
        self.0.poll_transmit(Instant(now), b"", out, &mut self.1)
    }
    fn ratchets(&self, now: u64) -> u64 {
        self.0.status(Instant(now)).ratchets_completed
    }
}

/// Baseline: `be16(len) ‖ AEAD(pt) ‖ tag`, implicit counter nonces.
struct Static(ChaCha20Poly1305, u8, u64, u64);

impl Channel for Static {
    fn seal(&mut self, _: u64, pt: &[u8], out: &mut [u8]) -> Result<usize, String> {
        let mut n = [0u8; 12];
        n[0] = self.1;
        n[4..].copy_from_slice(&self.2.to_be_bytes());
        self.2 += 1;
        let len = u16::try_from(pt.len() + 16).map_err(|_| "record too large")?;
        out[..2].copy_from_slice(&len.to_be_bytes());
        out[2..2 + pt.len()].copy_from_slice(pt);
        let tag = self
            .0
            .encrypt_inout_detached(&Nonce::from(n), b"", (&mut out[2..2 + pt.len()]).into())
            .map_err(|_| "seal")?;
        out[2 + pt.len()..18 + pt.len()].copy_from_slice(&tag);
        Ok(18 + pt.len())
    }
    fn open(&mut self, _: u64, rec: &[u8], out: &mut [u8]) -> Result<usize, String> {
        let n = rec.len().checked_sub(18).ok_or("short record")?;
        let mut nonce = [0u8; 12];
        nonce[0] = self.1 ^ 1;
        nonce[4..].copy_from_slice(&self.3.to_be_bytes());
        self.3 += 1;
        out[..n].copy_from_slice(&rec[2..2 + n]);
        let tag = Tag::try_from(&rec[2 + n..]).map_err(|_| "tag")?;
        self.0
            .decrypt_inout_detached(&Nonce::from(nonce), b"", (&mut out[..n]).into(), &tag)
            .map_err(|_| "unauthentic")?;
        Ok(n)
    }
    fn poll_transmit(&mut self, _: u64, _: &mut [u8]) -> Option<usize> {
        None
    }
    fn ratchets(&self, _: u64) -> u64 {
        0
    }
}

/// Reads length-prefixed records from `s` and forwards them until EOF.
fn reader(mut s: TcpStream, tx: mpsc::Sender<Vec<u8>>) {
    let mut hdr = [0u8; 2];
    loop {
        if s.read_exact(&mut hdr).is_err() {
            return;
        }
        let mut rec = vec![0u8; stream_record_len(hdr)];
        rec[..2].copy_from_slice(&hdr);
        if s.read_exact(&mut rec[2..]).is_err() || tx.send(rec).is_err() {
            return;
        }
    }
}

fn now_ms(t0: StdInstant) -> u64 {
    u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Server side: receives `total` bytes, hashes them, answers with control records.
fn server(
    sock: TcpStream,
    mut ch: Box<dyn Channel>,
    total: u64,
    t0: StdInstant,
) -> Result<[u8; 32], String> {
    let (tx, rx) = mpsc::channel();
    let rd = sock.try_clone().map_err(|e| e.to_string())?;
    let _reader = std::thread::spawn(move || reader(rd, tx));
    let mut w = sock;
    let mut hasher = blake3::Hasher::new();
    let mut got = 0u64;
    let (mut out, mut buf) = (vec![0u8; 70_000], vec![0u8; MAX_RECORD]);
    while got < total {
        let rec = rx
            .recv_timeout(STALL)
            .map_err(|_| format!("server stalled at {got}/{total}"))?;
        let now = now_ms(t0);
        let n = ch.open(now, &rec, &mut out)?;
        hasher.update(&out[..n]);
        got += n as u64;
        while let Some(k) = ch.poll_transmit(now, &mut buf) {
            w.write_all(&buf[..k]).map_err(|e| e.to_string())?;
        }
    }
    Ok(*hasher.finalize().as_bytes())
}

struct Outcome {
    secs: f64,
    ratchets: u64,
    records: u64,
    ok: bool,
}

/// The record protection a handshake's output starts: the ratchet session
/// (its role from the handshake), or the baseline's static key derived from
/// the handshake's secret (direction byte from the role).
fn channel(
    est: Established,
    ratchet: bool,
    cfg: &Config,
    now: u64,
) -> Result<Box<dyn Channel>, String> {
    let mut rng = UnwrapErr(getrandom::SysRng);
    if ratchet {
        let s: DefaultSession = est
            .into_session::<MlKem768, _>(cfg, Instant(now), &mut rng)
            .map_err(|e| format!("into_session: {e:?}"))?;
        Ok(Box::new(Ratchet(s, rng)))
    } else {
        let dir = match est.role() {
            Role::Initiator => 0,
            Role::Responder => 1,
        };
        // The handshake output is consumed: it seeds this key and nothing else.
        let key = *est.into_key("pqdr tcp demo static-key baseline");
        Ok(Box::new(Static(
            ChaCha20Poly1305::new(&key.into()),
            dir,
            0,
            0,
        )))
    }
}

/// The two long-term identities and their persisted handshake state, kept
/// across transfers: the client's identity and last timestamp sent, the
/// server's responder (moved into its thread for a transfer) with its
/// replay record.
struct Ends {
    client: Keys<K768>,
    server: PublicKeys<K768>,
    listener: Option<Listener<K768>>,
    last_sent: Tai64N,
    /// The clock of every `Instant` (handshake and ratchet).
    t0: StdInstant,
    handshakes: Vec<HsStats>,
}

impl Ends {
    fn new() -> Result<Self, String> {
        let mut rng = UnwrapErr(getrandom::SysRng);
        let client = Keys::<K768>::generate(false, &mut rng);
        let server = Keys::<K768>::generate(false, &mut rng);
        let t0 = StdInstant::now();
        let public = server.public.clone();
        let listener = Listener::new(server.id, client.public.clone(), LABEL, ms(t0), &mut rng)
            .map_err(|e| format!("responder: {e:?}"))?;
        Ok(Ends {
            client,
            server: public,
            listener: Some(listener),
            last_sent: Tai64N::default(),
            t0,
            handshakes: Vec::new(),
        })
    }
}

fn transfer(args: &Args, ratchet: bool, ends: &mut Ends) -> Result<Outcome, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let addr = l.local_addr().map_err(|e| e.to_string())?;
    let cfg = Config {
        mode: Mode::Stream,
        max_record: MAX_RECORD,
        rekey_after_ms: args.ratchet_ms,
        min_ratchet_interval_ms: args.ratchet_ms.min(1000) / 2,
        ..Config::default()
    };
    let t0 = ends.t0;
    let total = args.bytes;
    let mut listener = ends.listener.take().ok_or("responder lost")?;
    let srv = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let r = (|| -> Result<[u8; 32], String> {
                let (mut s, _) = l.accept().map_err(|e| e.to_string())?;
                let mut rng = UnwrapErr(getrandom::SysRng);
                // msg1 → msg2, then msg3: the session starts on msg3.
                let est = accept_stream(&mut s, &mut listener, t0, &mut rng)?;
                let ch = channel(est, ratchet, &cfg, now_ms(t0))?;
                server(s, ch, total, t0)
            })();
            (r, listener)
        })
        .map_err(|e| e.to_string())?;
    let mut sock = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    sock.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut rng = UnwrapErr(getrandom::SysRng);
    let (est, msg3, hs) = dial_stream(
        &mut sock,
        &ends.client,
        &ends.server,
        LABEL,
        &mut ends.last_sent,
        t0,
        &mut rng,
    )?;
    ends.handshakes.push(hs);
    let mut ch_c = channel(est, ratchet, &cfg, now_ms(t0))?;
    // msg3 goes out in the same write as the first record.
    let mut first = Some(msg3);
    let (tx, rx) = mpsc::channel();
    let rd = sock.try_clone().map_err(|e| e.to_string())?;
    let _reader = std::thread::spawn(move || reader(rd, tx));
    let mut w = sock;
    let t_start = StdInstant::now();
    let mut hasher = blake3::Hasher::new();
    let (mut pt, mut rec, mut out) = (vec![0u8; CHUNK], vec![0u8; MAX_RECORD], vec![0u8; 70_000]);
    let (mut sent, mut i, mut records) = (0u64, 0u64, 0u64);
    let mut last_bar = StdInstant::now();
    while sent < total {
        let now = now_ms(t0);
        while let Ok(r) = rx.try_recv() {
            ch_c.open(now, &r, &mut out)?;
        }
        let len = usize::try_from((total - sent).min(CHUNK as u64)).map_err(|_| "len")?;
        fill_chunk(i, &mut pt[..len]);
        hasher.update(&pt[..len]);
        let n = ch_c.seal(now, &pt[..len], &mut rec)?;
        if let Some(mut m3) = first.take() {
            m3.extend_from_slice(&rec[..n]);
            w.write_all(&m3).map_err(|e| e.to_string())?;
        } else {
            w.write_all(&rec[..n]).map_err(|e| e.to_string())?;
        }
        while let Some(k) = ch_c.poll_transmit(now, &mut rec) {
            w.write_all(&rec[..k]).map_err(|e| e.to_string())?;
        }
        sent += len as u64;
        i += 1;
        records += 1;
        if last_bar.elapsed() > Duration::from_millis(250) {
            last_bar = StdInstant::now();
            let frac = sent as f64 / total as f64;
            let bar = (frac * 30.0) as usize;
            eprint!(
                "\r  [{}{}] {:5.1}% {:8.1} MB/s  ratchets {}",
                "#".repeat(bar),
                " ".repeat(30 - bar),
                frac * 100.0,
                sent as f64 / 1e6 / t_start.elapsed().as_secs_f64(),
                ch_c.ratchets(now)
            );
        }
    }
    let (h_rx, listener) = srv.join().map_err(|_| "server panicked")?;
    ends.listener = Some(listener);
    let h_rx = h_rx?;
    let secs = t_start.elapsed().as_secs_f64();
    eprintln!();
    Ok(Outcome {
        secs,
        ratchets: ch_c.ratchets(now_ms(t0)),
        records,
        ok: h_rx == *hasher.finalize().as_bytes(),
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "ratchet_tcp: {} bytes over 127.0.0.1 TCP (stream mode), ratchet every {} ms",
        args.bytes, args.ratchet_ms
    );
    let mut ends = match Ends::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let r = match transfer(&args, true, &mut ends) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("\nratchet transfer failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mbps = args.bytes as f64 / 1e6 / r.secs;
    println!(
        "pqdr-ratchet : {:.2} s, {mbps:.1} MB/s, {} records, ratchets completed {}",
        r.secs, r.records, r.ratchets
    );
    let mut ok = r.ok;
    if args.baseline {
        match transfer(&args, false, &mut ends) {
            Ok(b) => {
                let bmbps = args.bytes as f64 / 1e6 / b.secs;
                println!("static key   : {:.2} s, {bmbps:.1} MB/s", b.secs);
                println!("ratchet / baseline throughput: {:.3}", mbps / bmbps);
                ok &= b.ok;
            }
            Err(e) => {
                eprintln!("baseline transfer failed: {e}");
                ok = false;
            }
        }
    }
    if let Some(h) = ends.handshakes.first() {
        let t: Vec<String> = ends
            .handshakes
            .iter()
            .map(|h| format!("{:.2}", h.established.as_secs_f64() * 1e3))
            .collect();
        println!(
            "handshakes   : {} × {} on the connection (msg1 {} B, msg2 {} B, msg3 {} B written with the first record), {} ms to msg2; not in the transfer times",
            t.len(),
            h.suite,
            h.msg1,
            h.msg2,
            h.msg3,
            t.join(" / ")
        );
    }
    if ok {
        println!("integrity: ok");
        ExitCode::SUCCESS
    } else {
        println!("integrity: FAILED");
        ExitCode::FAILURE
    }
}

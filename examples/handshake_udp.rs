//! pqdr-handshake end to end over real UDP sockets on 127.0.0.1
//! (docs/protocol/handshake.md §9 "End to end"): a handshake through a lossy shim, a
//! pqdr-ratchet session with records both ways, a forced re-handshake while
//! the old session keeps serving, records on the new session, and a BLAKE3
//! check of every application byte in both directions.
//!
//! ```text
//! cargo run --release --example handshake_udp -- [--suite k768|k768-x|s65|s65-x] [--records N] [--rehandshake-at M] [--interval-ms MS] [--loss F]
//! ```
//!
//! Three threads, three sockets: the initiator (Alice), the responder (Bob)
//! and a shim that forwards between them. The shim **drops the first msg1**,
//! and Bob runs with `Load::Under` until his first handshake completes, so:
//!
//! 1. msg1 is lost; Alice resends it after ~1 s (`poll_timeout` / `poll_transmit`);
//! 2. Bob, under load, answers with a cookie reply instead of doing KEM work;
//! 3. Alice's `handle_cookie_reply` adds mac2 and resends msg1 at once; Bob answers msg2;
//! 4. Alice turns msg2 into a session (`into_session::<K, _>`: ML-KEM-768, X-Wing after `-X`) and sends
//!    msg3 **with her first record in one datagram**; she resends msg3 alone
//!    (`msg3_retransmit`) until one of Bob's records opens;
//! 5. Bob starts his session on msg3 and answers every request with a record.
//!
//! After `--rehandshake-at` requests Alice starts a new handshake (what an
//! application does on `Event::Wedged` or after `reauth_after`; both events
//! are handled the same way here). The old session serves until the new one
//! is confirmed (Alice: msg2, Bob: msg3), then only receives for a 2-s grace.
//!
//! With `--loss F` the shim also drops every datagram with probability F
//! (handshake messages and records alike): msg1 and msg3 resends, repeated
//! cookie rounds and the application's resends then show up in the log.
//!
//! **Datagrams** (docs/protocol/handshake.md §8 "Over UDP"; see `examples/common/mod.rs`):
//! `0x01`–`0x04` a handshake message; `0x05` a fragment of one; `0x10 ‖ receiver_idx be32 ‖ record` a
//! session record, whose 5-byte frame is the ratchet's `aad`; and, our own
//! choice for "msg3 with the first record", `0x11 ‖ be16 len(msg3) ‖ msg3 ‖
//! (0x10 ‖ receiver_idx ‖ record)`. The indices are the handshake's (msg3's
//! sender and receiver). Application records are `kind ‖ be32 seq ‖ data`
//! (1 request, 2 response; stop-and-wait, resent after 100 ms, a new request
//! every `--interval-ms`, default 1, so that the ratchet turns a few times).
//!
//! **Fragmentation** (docs/protocol/fragmentation.md): every datagram is at most
//! 1,232 bytes (the IPv6 minimum MTU minus the IPv6 and UDP headers). A longer
//! handshake message (K768: msg1 2,388 B, msg2 2,368 B) travels as `0x05`
//! fragments, each MACed under a key from hpk_R (msg1, msg3) or k_m (msg2):
//! Alice cuts msg1 with `frag::fragment` and reassembles msg2 in a one-slot
//! `Reassembler`; Bob reassembles msg1 / msg3 in a `Reassembler` (forged
//! fragments are refused before a byte is stored) and cuts msg2 with
//! `Responder::msg2_fragments`. The shim drops the first msg1 *fragment*, so Bob
//! holds half a msg1 until Alice's resend completes it; it also records the
//! largest datagram each way and the run fails if one is over 1,232 B. A
//! msg3 + first record that would not fit one datagram goes as msg3's
//! datagrams followed by the record.
//!
//! Prints the shim's log of handshake datagrams, each message's size, the
//! handshake times and datagram counts, and ends with `integrity: ok` (exit
//! status 1 on any mismatch; every wait has a timeout, the whole run gives up
//! after 30 s).
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::too_many_lines,
    reason = "demo code on public values"
)]

mod common;
mod hs_responder;
mod hs_shim;

use std::net::{SocketAddr, UdpSocket};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant as StdInstant};

use common::{
    DemoAuth, Dgram, Dialer, HS_BUF, Heard, HsStats, Keys, Listener, PublicKeys, classify,
    coalesce, kind_name, ms, msg3_indices, record_header,
};
use hs_responder::*;
use hs_shim::*;
use pqdr_suite::handshake::frag::{self, FragKeys, Reassembler};
use pqdr_suite::handshake::{Instant, K768, Load, Msg3Retransmit, S65, Tai64N, wire};
use pqdr_suite::ratchet::{Config, Event, MlKem768, RatchetKem, Session, XWing, blake3};
use rand_core::UnwrapErr;

type Rng = UnwrapErr<getrandom::SysRng>;

const LABEL: &[u8] = b"pqdr handshake_udp demo";
/// The whole run gives up after this long.
const GIVE_UP: Duration = Duration::from_secs(30);
/// A replaced session still receives for this long.
const GRACE: Duration = Duration::from_secs(2);
/// An unanswered request is resent after this long.
const RESEND: Duration = Duration::from_millis(100);
const REQ: u8 = 1;
const RESP: u8 = 2;
/// Largest application data per record (fits a 1,200-byte record with KEM symbols).
const MAX_DATA: usize = 900;

struct Args {
    suite: String,
    records: u32,
    rehandshake_at: u32,
    interval: Duration,
    loss: f64,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        suite: "k768".into(),
        records: 200,
        rehandshake_at: 0,
        interval: Duration::from_millis(1),
        loss: 0.0,
    };
    let mut at = None;
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || it.next().ok_or(format!("{k} needs a value"));
        match k.as_str() {
            "--suite" => a.suite = val()?.to_ascii_lowercase(),
            "--records" => a.records = val()?.parse().map_err(|e| format!("--records: {e}"))?,
            "--loss" => a.loss = val()?.parse().map_err(|e| format!("--loss: {e}"))?,
            "--interval-ms" => {
                a.interval = Duration::from_millis(
                    val()?.parse().map_err(|e| format!("--interval-ms: {e}"))?,
                );
            }
            "--rehandshake-at" => {
                at = Some(
                    val()?
                        .parse()
                        .map_err(|e| format!("--rehandshake-at: {e}"))?,
                );
            }
            _ => return Err(format!("unknown argument {k}")),
        }
    }
    a.rehandshake_at = at.unwrap_or(a.records / 2);
    if !(0.0..0.5).contains(&a.loss) {
        return Err("need 0 <= loss < 0.5".into());
    }
    if a.records < 2 || a.rehandshake_at == 0 || a.rehandshake_at >= a.records {
        return Err("need records >= 2 and 0 < rehandshake-at < records".into());
    }
    Ok(a)
}

/// The ratchet's configuration: frequent KEM ratchets, so a short run sees some.
fn ratchet_config() -> Config {
    Config {
        rekey_after_ms: 50,
        min_ratchet_interval_ms: 25,
        ..Config::default()
    }
}

/// `kind ‖ be32 seq ‖ data`, the data a deterministic function of (kind, seq).
fn plaintext(kind: u8, seq: u32, out: &mut Vec<u8>) {
    let len = 1 + (seq as usize * 131 + usize::from(kind) * 17) % MAX_DATA;
    out.clear();
    out.push(kind);
    out.extend_from_slice(&seq.to_be_bytes());
    let mut x = (u64::from(seq) << 8 | u64::from(kind)).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for _ in 0..len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push(x as u8);
    }
}

/// One ratchet session and its handshake's indices.
struct Sess<K: RatchetKem> {
    s: Session<K>,
    local: u32,
    peer: u32,
    /// 1-based handshake number.
    n: usize,
    /// Initiator: msg3 resends until a record of the responder opens.
    rtx: Option<Msg3Retransmit>,
    /// Responder: where the peer is.
    addr: Option<SocketAddr>,
    records_in: u64,
    records_out: u64,
    retired: Option<StdInstant>,
}

impl<K: RatchetKem> Sess<K> {
    fn new(s: Session<K>, local: u32, peer: u32, n: usize) -> Self {
        Sess {
            s,
            local,
            peer,
            n,
            rtx: None,
            addr: None,
            records_in: 0,
            records_out: 0,
            retired: None,
        }
    }

    /// Still accepts records (not replaced, or within the grace period).
    fn alive(&self) -> bool {
        self.retired.is_none_or(|t| t.elapsed() < GRACE)
    }

    /// `0x10 ‖ peer_idx ‖ seal(pt)` into `out`.
    fn seal(
        &mut self,
        now: Instant,
        pt: &[u8],
        out: &mut [u8],
        rng: &mut Rng,
    ) -> Result<usize, String> {
        let h = record_header(self.peer);
        out[..5].copy_from_slice(&h);
        let n = self
            .s
            .seal(now, &h, pt, &mut out[5..], rng)
            .map_err(|e| format!("seal: {e:?}"))?;
        self.records_out += 1;
        Ok(5 + n)
    }

    /// A control-only record if one is due.
    fn poll_transmit(&mut self, now: Instant, out: &mut [u8], rng: &mut Rng) -> Option<usize> {
        let h = record_header(self.peer);
        out[..5].copy_from_slice(&h);
        let n = self.s.poll_transmit(now, &h, &mut out[5..1205], rng)?;
        self.records_out += 1;
        Some(5 + n)
    }

    /// True if an event asks for a new handshake.
    fn needs_rehandshake(&mut self, now: Instant, rng: &mut Rng) -> bool {
        self.s.handle_timeout(now, rng);
        let mut re = false;
        while let Some(e) = self.s.poll_event() {
            re |= matches!(e, Event::Wedged | Event::RekeyOverdue);
        }
        re || self.s.status(now).closed
    }
}

/// Sends a handshake message as datagrams of at most 1,232 bytes
/// (docs/protocol/fragmentation.md): whole if it fits, else as fragments MACed
/// under `keys`. `to` is `None` on a connected socket.
fn send_hs(
    sock: &UdpSocket,
    to: Option<SocketAddr>,
    msg: &[u8],
    keys: &FragKeys,
) -> Result<(), String> {
    for d in frag::fragment(msg, keys).map_err(|e| format!("fragment: {e:?}"))? {
        if d.len() > frag::MAX_DATAGRAM {
            return Err(format!("a {}-byte datagram", d.len()));
        }
        match to {
            Some(a) => sock.send_to(&d, a),
            None => sock.send(&d),
        }
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// A datagram from a non-blocking socket within `wait`. Short waits sleep in
/// 50-µs steps: a socket read timeout (`SO_RCVTIMEO`) is rounded up to
/// scheduler ticks (4 ms at HZ=250), too coarse for the 1-ms pacing.
fn recv_within(sock: &UdpSocket, buf: &mut [u8], wait: Duration) -> Result<Option<usize>, String> {
    let until = StdInstant::now() + wait;
    loop {
        match sock.recv(buf) {
            Ok(n) => return Ok(Some(n)),
            Err(e) if is_timeout(&e) => {}
            Err(e) => return Err(e.to_string()),
        }
        let now = StdInstant::now();
        if now >= until {
            return Ok(None);
        }
        std::thread::sleep((until - now).min(Duration::from_micros(50)));
    }
}

/// What one handshake looked like from the initiator.
struct HsReport {
    stats: HsStats,
    reason: &'static str,
    /// Datagram carrying msg3 and the first record.
    first_datagram: usize,
    confirmed: Option<Duration>,
    started: StdInstant,
    msg3_resends: u32,
}

struct InitReport {
    handshakes: Vec<HsReport>,
    sessions: Vec<(usize, u64, u64, u64)>,
    sent: [u8; 32],
    received: [u8; 32],
    bytes: (u64, u64),
}

/// Alice: handshakes, requests, the forced re-handshake.
fn initiator<A: DemoAuth, K: RatchetKem>(
    sock: &UdpSocket,
    me: &Keys<A>,
    bob: &PublicKeys<A>,
    args: &Args,
    t0: StdInstant,
    stop: &AtomicBool,
) -> Result<InitReport, String> {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let cfg = ratchet_config();
    let deadline = StdInstant::now() + GIVE_UP;
    // The identity's persisted "last timestamp sent" (docs/protocol/handshake.md §5).
    let mut last_sent = Tai64N::default();
    let start = |last_sent: &mut Tai64N, rng: &mut Rng| {
        Dialer::start(me, bob, LABEL, last_sent, ms(t0), rng).map_err(|e| format!("start: {e:?}"))
    };
    let mut dialer = Some(start(&mut last_sent, &mut rng)?);
    let mut reports = vec![HsReport {
        stats: HsStats::default(),
        reason: "first contact",
        first_datagram: 0,
        confirmed: None,
        started: StdInstant::now(),
        msg3_resends: 0,
    }];
    let mut sessions: Vec<Sess<K>> = Vec::new();
    let (mut seq, mut pending): (u32, Option<StdInstant>) = (0, None);
    let (mut h_sent, mut h_recv) = (blake3::Hasher::new(), blake3::Hasher::new());
    let mut bytes = (0u64, 0u64);
    let mut forced = false;
    // Requests are paced (`--interval-ms`) so that the ratchet has time to turn.
    let mut next_at = StdInstant::now();
    let (mut buf, mut out, mut pt, mut co) = (
        vec![0u8; HS_BUF],
        vec![0u8; HS_BUF],
        Vec::with_capacity(1024),
        Vec::with_capacity(HS_BUF),
    );
    // Fragments: msg1 / msg3 out under hpk_R's key, msg2 in under the attempt's k_m
    // (one slot of msg2 size is enough for one attempt at a time).
    let to_bob = FragKeys::for_responder(bob.peer().key_id());
    let mut reasm: Reassembler<1, { wire::MSG2_MAX }> = Reassembler::new(&mut rng);
    let mut whole = vec![0u8; wire::MSG2_MAX];
    sock.set_nonblocking(true).map_err(|e| e.to_string())?;
    loop {
        let now = ms(t0);
        if StdInstant::now() > deadline {
            return Err(format!(
                "initiator gave up at request {seq}/{}",
                args.records
            ));
        }
        if stop.load(Ordering::Relaxed) {
            return Err(format!("the responder stopped at request {seq}"));
        }
        // Control records (KEM symbols, acknowledgements) and events.
        let mut rehandshake = false;
        for s in sessions.iter_mut().filter(|s| s.retired.is_none()) {
            while let Some(n) = s.poll_transmit(now, &mut buf, &mut rng) {
                sock.send(&buf[..n]).map_err(|e| e.to_string())?;
            }
            rehandshake |= s.needs_rehandshake(now, &mut rng);
        }
        if !forced && seq >= args.rehandshake_at {
            forced = true;
            rehandshake = true;
        }
        if rehandshake && dialer.is_none() {
            dialer = Some(start(&mut last_sent, &mut rng)?);
            reports.push(HsReport {
                stats: HsStats::default(),
                reason: if seq >= args.rehandshake_at && reports.len() == 1 {
                    "forced re-handshake, as on Event::Wedged or after reauth_after"
                } else {
                    "Event::Wedged / RekeyOverdue / closed"
                },
                first_datagram: 0,
                confirmed: None,
                started: StdInstant::now(),
                msg3_resends: 0,
            });
        }
        // Handshake in flight: msg1, resends, renewals.
        if let Some(d) = dialer.as_mut() {
            while let Some(n) = d
                .poll_transmit(me, bob, &mut last_sent, now, &mut rng, &mut buf)
                .map_err(|e| format!("handshake: {e:?}"))?
            {
                send_hs(sock, None, &buf[..n], &d.frag_keys())?;
            }
        }
        // msg3 resends.
        for s in &mut sessions {
            if let Some(n) = s.rtx.as_mut().and_then(|r| r.poll_transmit(now, &mut buf)) {
                send_hs(sock, None, &buf[..n], &to_bob)?;
                reports[s.n - 1].msg3_resends += 1;
            }
        }
        // The application: one outstanding request on the newest session.
        if seq < args.records
            && pending.map_or(next_at.elapsed() >= args.interval, |t| {
                t.elapsed() >= RESEND
            })
            && let Some(cur) = sessions.last_mut()
        {
            plaintext(REQ, seq, &mut pt);
            if pending.is_none() {
                h_sent.update(&pt[5..]);
                bytes.0 += (pt.len() - 5) as u64;
            }
            let n = cur.seal(now, &pt, &mut buf, &mut rng)?;
            sock.send(&buf[..n]).map_err(|e| e.to_string())?;
            pending = Some(StdInstant::now());
        }
        // Done: every request answered, no handshake unconfirmed.
        if seq == args.records && dialer.is_none() && sessions.iter().all(|s| s.rtx.is_none()) {
            break;
        }
        // Receive until the next request is due (at most 1 ms).
        let wait = if pending.is_none() && seq < args.records {
            args.interval.saturating_sub(next_at.elapsed())
        } else {
            Duration::from_millis(1)
        };
        let Some(n) = recv_within(sock, &mut buf, wait)? else {
            continue;
        };
        let now = ms(t0);
        // A fragment of msg2: into the reassembler; the whole msg2 goes on as before.
        let dgram = if frag::is_fragment(&buf[..n]) {
            let Some(d) = dialer.as_ref() else { continue };
            match reasm.push(&d.frag_keys(), b"bob", &buf[..n], now, &mut whole) {
                Ok(Some(k)) => Dgram::Handshake(&whole[..k]),
                _ => continue,
            }
        } else {
            classify(&buf[..n])
        };
        match dgram {
            Dgram::Handshake(m) => {
                let Some(d) = dialer.as_mut() else { continue };
                let Ok(Some(est)) = d.handle(m, me, now, &mut rng) else {
                    continue;
                };
                // msg2 arrived: the new session is confirmed on our side.
                let hs_no = reports.len();
                let r = reports.last_mut().ok_or("no report")?;
                r.stats = d.stats;
                dialer = None;
                let rtx = est.msg3_retransmit(now);
                let msg3 = est.msg3().ok_or("no msg3")?.to_vec();
                let (local, peer) = msg3_indices(&msg3);
                let s = est
                    .into_session::<K, _>(&cfg, now, &mut rng)
                    .map_err(|e| format!("into_session: {e:?}"))?;
                for old in &mut sessions {
                    old.retired.get_or_insert_with(StdInstant::now);
                }
                let mut s = Sess::new(s, local, peer, hs_no);
                s.rtx = rtx;
                sessions.push(s);
                let cur = sessions.last_mut().ok_or("no session")?;
                // msg3 with the first record (the outstanding or next request).
                let first = if seq < args.records {
                    plaintext(REQ, seq, &mut pt);
                    if pending.is_none() {
                        h_sent.update(&pt[5..]);
                        bytes.0 += (pt.len() - 5) as u64;
                    }
                    pending = Some(StdInstant::now());
                    Some(cur.seal(now, &pt, &mut out, &mut rng)?)
                } else {
                    None
                };
                let len = match first {
                    Some(k) => coalesce(&msg3, &out[..k], &mut co),
                    None => 0,
                };
                if first.is_some() && len <= frag::MAX_DATAGRAM {
                    sock.send(&co[..len]).map_err(|e| e.to_string())?;
                    r.first_datagram = len;
                } else {
                    // Too long for one datagram: msg3 (fragmented if needed), then the record.
                    send_hs(sock, None, &msg3, &to_bob)?;
                    if let Some(k) = first {
                        sock.send(&out[..k]).map_err(|e| e.to_string())?;
                    }
                    r.first_datagram = msg3.len().min(frag::MAX_DATAGRAM);
                }
            }
            Dgram::Record { idx, aad, record } => {
                let Some(s) = sessions.iter_mut().find(|s| s.local == idx && s.alive()) else {
                    continue;
                };
                let Ok(o) = s.s.open(now, aad, record, &mut out, &mut rng) else {
                    continue;
                };
                s.records_in += 1;
                if let Some(mut r) = s.rtx.take() {
                    r.confirm();
                    reports[s.n - 1].confirmed = Some(reports[s.n - 1].started.elapsed());
                }
                let rec = &out[..o.len];
                if rec.len() >= 5 && rec[0] == RESP && pending.is_some() {
                    let got = u32::from_be_bytes([rec[1], rec[2], rec[3], rec[4]]);
                    if got == seq {
                        plaintext(RESP, seq, &mut pt);
                        if rec != pt.as_slice() {
                            return Err(format!("response {seq} differs from the expected bytes"));
                        }
                        h_recv.update(&rec[5..]);
                        bytes.1 += (rec.len() - 5) as u64;
                        seq += 1;
                        pending = None;
                        next_at = StdInstant::now();
                    }
                }
            }
            Dgram::Msg3Record { .. } | Dgram::Unknown => {}
        }
    }
    let now = ms(t0);
    Ok(InitReport {
        handshakes: reports,
        sessions: sessions
            .iter()
            .map(|s| {
                (
                    s.n,
                    s.records_out,
                    s.records_in,
                    s.s.status(now).ratchets_completed,
                )
            })
            .collect(),
        sent: *h_sent.finalize().as_bytes(),
        received: *h_recv.finalize().as_bytes(),
        bytes,
    })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `K`: the suite's ratchet KEM, X-Wing after a `-X` suite (`Established::ratchet_kem_id`).
fn run<A: DemoAuth, K: RatchetKem + 'static>(hybrid: bool, args: &Args) -> Result<bool, String> {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let alice = Keys::<A>::generate(hybrid, &mut rng);
    let bob = Keys::<A>::generate(hybrid, &mut rng);
    let bob_public = bob.public.clone();
    let t0 = StdInstant::now();
    let listener = Listener::new(bob.id, alice.public.clone(), LABEL, ms(t0), &mut rng)
        .map_err(|e| format!("responder: {e:?}"))?;

    let a_sock = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let b_sock = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let s_sock = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let (a_addr, b_addr) = (
        a_sock.local_addr().map_err(|e| e.to_string())?,
        b_sock.local_addr().map_err(|e| e.to_string())?,
    );
    a_sock
        .connect(s_sock.local_addr().map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));

    let (st1, st2) = (Arc::clone(&stop), Arc::clone(&stop));
    let loss = args.loss;
    let shim_t = std::thread::spawn(move || shim(&s_sock, a_addr, b_addr, loss, t0, &st1));
    let resp_t = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let r = responder::<A, K>(&b_sock, listener, t0, &st2);
            if r.is_err() {
                st2.store(true, Ordering::Relaxed); // let Alice stop at once
            }
            r
        })
        .map_err(|e| e.to_string())?;
    let ires = initiator::<A, K>(&a_sock, &alice, &bob_public, args, t0, &stop);
    let total = t0.elapsed();
    // Let the last datagrams land, then stop the threads.
    std::thread::sleep(Duration::from_millis(50));
    stop.store(true, Ordering::Relaxed);
    let shim_rep = shim_t.join().map_err(|_| "shim panicked")?;
    let rres = resp_t.join().map_err(|_| "responder panicked")?;
    let (i, r) = (ires?, rres?);

    println!("shim log (handshake datagrams; records not shown):");
    for e in &shim_rep.log {
        println!(
            "  {:9.1} ms  {}  {:<17} {:5} B{}",
            e.at.as_secs_f64() * 1e3,
            if e.to_r { "Alice→Bob" } else { "Bob→Alice" },
            e.kind,
            e.len,
            if e.dropped {
                "  dropped by the shim"
            } else {
                ""
            }
        );
    }
    for (k, h) in i.handshakes.iter().enumerate() {
        let s = &h.stats;
        println!(
            "handshake {} [{}]\n  {}: msg1 {} B (sent {}×), cookie round: {}, msg2 {} B, msg3 {} B + first record = one {}-B datagram, msg3 resent {}×; {} handshake datagrams at Alice",
            k + 1,
            h.reason,
            s.suite,
            s.msg1,
            s.msg1_sends,
            if s.cookie_round {
                "yes (cookie reply 56 B)"
            } else {
                "no"
            },
            s.msg2,
            s.msg3,
            h.first_datagram,
            h.msg3_resends,
            s.datagrams + h.msg3_resends
        );
        println!(
            "  time: established after {:.2} ms (msg2 handled), confirmed after {:.2} ms (Bob's first record opened)",
            s.established.as_secs_f64() * 1e3,
            h.confirmed.map_or(f64::NAN, |c| c.as_secs_f64() * 1e3)
        );
    }
    println!(
        "Bob: {} cookie replies, {} msg2, {} datagrams refused",
        r.cookies, r.msg2s, r.dropped
    );
    for (n, out, inn, rat) in &i.sessions {
        let b = r.sessions.iter().find(|s| s.0 == *n);
        println!(
            "session {n}: Alice sent {out} records, received {inn}, ratchets {rat}; Bob sent {}, received {}, ratchets {}",
            b.map_or(0, |s| s.1),
            b.map_or(0, |s| s.2),
            b.map_or(0, |s| s.3)
        );
    }
    println!(
        "datagrams through the shim: Alice→Bob {} ({} B), Bob→Alice {} ({} B), dropped {}",
        shim_rep.datagrams[0],
        shim_rep.bytes[0],
        shim_rep.datagrams[1],
        shim_rep.bytes[1],
        shim_rep.dropped
    );
    let [hs_max, rec_max] = shim_rep.largest;
    let fits = hs_max <= frag::MAX_DATAGRAM && rec_max <= frag::MAX_DATAGRAM;
    println!(
        "largest datagram: handshake {hs_max} B, record {rec_max} B (limit {} B: {})",
        frag::MAX_DATAGRAM,
        if fits { "ok" } else { "EXCEEDED" }
    );
    println!(
        "application data: {} requests ({} B) and {} responses ({} B) in {:.2} s",
        args.records,
        i.bytes.0,
        args.records,
        i.bytes.1,
        total.as_secs_f64()
    );
    println!(
        "blake3 Alice→Bob: sent {} received {}",
        hex(&i.sent),
        hex(&r.received)
    );
    println!(
        "blake3 Bob→Alice: sent {} received {}",
        hex(&r.sent),
        hex(&i.received)
    );
    let cookie = i.handshakes.first().is_some_and(|h| h.stats.cookie_round);
    let rehandshake = i.handshakes.len() >= 2 && i.sessions.len() >= 2;
    if !cookie {
        println!("error: no cookie round");
    }
    if !rehandshake {
        println!("error: no re-handshake");
    }
    Ok(i.sent == r.received
        && r.sent == i.received
        && cookie
        && rehandshake
        && fits
        && shim_rep.dropped >= 1)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (suite, hybrid) = match args.suite.as_str() {
        "k768" => ("K768", false),
        "k768-x" => ("K768-X", true),
        "s65" => ("S65", false),
        "s65-x" => ("S65-X", true),
        s => {
            eprintln!("error: unknown suite {s} (k768, k768-x, s65, s65-x)");
            return ExitCode::from(2);
        }
    };
    println!(
        "handshake_udp: {suite} over 127.0.0.1 UDP through a shim that drops the first msg1; \
         Bob is under load (cookies required) until his first handshake completes; \
         {} requests, re-handshake after {}, extra random loss {}",
        args.records, args.rehandshake_at, args.loss
    );
    // A `-X` suite starts an X-Wing ratchet (pqdr-handshake refuses another KEM).
    let res = match (suite.starts_with('K'), hybrid) {
        (true, false) => run::<K768, MlKem768>(hybrid, &args),
        (true, true) => run::<K768, XWing>(hybrid, &args),
        (false, false) => run::<S65, MlKem768>(hybrid, &args),
        (false, true) => run::<S65, XWing>(hybrid, &args),
    };
    match res {
        Ok(true) => {
            println!("integrity: ok");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            println!("integrity: FAILED");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            println!("integrity: FAILED");
            ExitCode::FAILURE
        }
    }
}

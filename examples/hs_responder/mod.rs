//! The responder side of `examples/handshake_udp.rs` (Bob): answers
//! handshakes over UDP, under load (cookie replies) until the first one
//! completes, then serves records on each session it holds.

use super::*;

pub(crate) struct RespReport {
    pub(crate) sessions: Vec<(usize, u64, u64, u64)>,
    pub(crate) cookies: u32,
    pub(crate) msg2s: u32,
    pub(crate) dropped: u32,
    pub(crate) received: [u8; 32],
    pub(crate) sent: [u8; 32],
}

/// Bob: answers handshakes (under load until the first completes) and requests.
pub(crate) fn responder<A: DemoAuth, K: RatchetKem>(
    sock: &UdpSocket,
    mut l: Listener<A>,
    t0: StdInstant,
    stop: &AtomicBool,
) -> Result<RespReport, String> {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let cfg = ratchet_config();
    let deadline = StdInstant::now() + GIVE_UP;
    l.load = Load::Under;
    let mut sessions: Vec<Sess<K>> = Vec::new();
    let (mut expect, mut answered) = (0u32, 0u32);
    let (mut h_recv, mut h_sent) = (blake3::Hasher::new(), blake3::Hasher::new());
    let mut dropped = 0u32;
    let (mut buf, mut out, mut rec, mut pt) = (
        vec![0u8; HS_BUF],
        vec![0u8; HS_BUF],
        vec![0u8; HS_BUF],
        Vec::with_capacity(1024),
    );
    // Fragments of msg1 / msg3: checked under hpk_R's key before a byte is stored.
    let keys = l.responder().frag_keys();
    let mut reasm: Reassembler = Reassembler::new(&mut rng);
    let mut whole = vec![0u8; wire::MSG3_MAX];
    sock.set_read_timeout(Some(Duration::from_millis(1)))
        .map_err(|e| e.to_string())?;
    while !stop.load(Ordering::Relaxed) {
        if StdInstant::now() > deadline {
            return Err("responder gave up".into());
        }
        let now = ms(t0);
        // Biscuit keys and cookie secrets rotate from a timer (every 120 s):
        // a responder that stops rotating has them wiped after 240 s.
        if now >= l.poll_timeout() {
            l.handle_timeout(now, &mut rng);
        }
        for s in sessions.iter_mut().filter(|s| s.retired.is_none()) {
            while let Some(n) = s.poll_transmit(now, &mut out, &mut rng) {
                if let Some(a) = s.addr {
                    sock.send_to(&out[..n], a).map_err(|e| e.to_string())?;
                }
            }
            // Bob never initiates here: a wedged session waits for Alice.
            let _ = s.needs_rehandshake(now, &mut rng);
        }
        let (n, src) = match sock.recv_from(&mut buf) {
            Ok(x) => x,
            Err(e) if is_timeout(&e) => continue,
            Err(e) => return Err(e.to_string()),
        };
        let now = ms(t0);
        let src_id = src.to_string();
        let d = if frag::is_fragment(&buf[..n]) {
            match reasm.push(&keys, src_id.as_bytes(), &buf[..n], now, &mut whole) {
                Ok(Some(k)) => &whole[..k],
                Ok(None) => continue,
                Err(_) => {
                    dropped += 1;
                    continue;
                }
            }
        } else {
            &buf[..n]
        };
        let framed = match l.handle(src_id.as_bytes(), d, now, &mut rng, &mut out) {
            Heard::Reply(k) if out[0] == wire::MSG2 => {
                // msg2: fragmented under this handshake's k_m.
                let ds = l
                    .responder()
                    .msg2_fragments(&out[..k])
                    .map_err(|e| format!("msg2 fragments: {e:?}"))?;
                for f in ds {
                    sock.send_to(&f, src).map_err(|e| e.to_string())?;
                }
                None
            }
            Heard::Reply(k) => {
                sock.send_to(&out[..k], src).map_err(|e| e.to_string())?;
                None
            }
            Heard::Session {
                est,
                local,
                peer,
                framed,
            } => {
                let s = (*est)
                    .into_session::<K, _>(&cfg, now, &mut rng)
                    .map_err(|e| format!("into_session: {e:?}"))?;
                // Confirmed on msg3: older sessions only receive from now on.
                for old in &mut sessions {
                    old.retired.get_or_insert_with(StdInstant::now);
                }
                let mut s = Sess::new(s, local, peer, sessions.len() + 1);
                s.addr = Some(src);
                sessions.push(s);
                l.load = Load::Normal; // the load spike is over
                framed
            }
            Heard::Duplicate { local, framed } => {
                // msg3 again: our records have not reached Alice; a keepalive.
                if let Some(s) = sessions.iter_mut().find(|s| s.local == local) {
                    let k = s.seal(now, b"", &mut out, &mut rng)?;
                    sock.send_to(&out[..k], src).map_err(|e| e.to_string())?;
                }
                framed
            }
            Heard::Record(f) => Some(f),
            Heard::Dropped(_) => {
                dropped += 1;
                None
            }
        };
        let Some(Dgram::Record { idx, aad, record }) = framed.map(classify) else {
            continue;
        };
        let Some(s) = sessions.iter_mut().find(|s| s.local == idx && s.alive()) else {
            continue;
        };
        let Ok(o) = s.s.open(now, aad, record, &mut rec, &mut rng) else {
            continue;
        };
        s.records_in += 1;
        s.addr = Some(src);
        let r = &rec[..o.len];
        if r.len() < 5 || r[0] != REQ {
            continue; // keepalive or unknown
        }
        let got = u32::from_be_bytes([r[1], r[2], r[3], r[4]]);
        if got > expect {
            return Err(format!("request {got} before {expect}"));
        }
        if got == expect {
            plaintext(REQ, got, &mut pt);
            if r != pt.as_slice() {
                return Err(format!("request {got} differs from the expected bytes"));
            }
            h_recv.update(&r[5..]);
            expect += 1;
        }
        // Answer on the session the request came in on (again for a resend;
        // each response is hashed once, the first time it is sent).
        plaintext(RESP, got, &mut pt);
        if got == answered {
            h_sent.update(&pt[5..]);
            answered += 1;
        }
        let k = s.seal(now, &pt, &mut out, &mut rng)?;
        sock.send_to(&out[..k], src).map_err(|e| e.to_string())?;
    }
    let now = ms(t0);
    Ok(RespReport {
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
        cookies: l.cookies_sent,
        msg2s: l.msg2_sent,
        dropped,
        received: *h_recv.finalize().as_bytes(),
        sent: *h_sent.finalize().as_bytes(),
    })
}

//! The lossy shim of `examples/handshake_udp.rs`: forwards datagrams
//! between Alice and Bob, drops the first msg1 (and, with `--loss F`, any
//! datagram with probability F), and logs what passed.

use super::*;

/// One line in the shim's log.
pub(crate) struct ShimEntry {
    pub(crate) at: Duration,
    pub(crate) to_r: bool,
    pub(crate) kind: &'static str,
    pub(crate) len: usize,
    pub(crate) dropped: bool,
}

#[derive(Default)]
pub(crate) struct ShimReport {
    pub(crate) log: Vec<ShimEntry>,
    pub(crate) datagrams: [u64; 2],
    pub(crate) bytes: [u64; 2],
    pub(crate) dropped: u64,
    /// The largest handshake datagram and the largest record datagram.
    pub(crate) largest: [usize; 2],
}

/// The lossy shim: forwards between Alice and Bob, dropping the first msg1
/// and, with `--loss F`, any datagram with probability F.
pub(crate) fn shim(
    sock: &UdpSocket,
    alice: SocketAddr,
    bob: SocketAddr,
    loss: f64,
    t0: StdInstant,
    stop: &AtomicBool,
) -> ShimReport {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut lose = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        loss > 0.0 && ((x >> 11) as f64 / (1u64 << 53) as f64) < loss
    };
    let mut rep = ShimReport::default();
    let mut buf = vec![0u8; 65_536];
    let _ = sock.set_read_timeout(Some(Duration::from_millis(2)));
    let mut msg1_dropped = false;
    while !stop.load(Ordering::Relaxed) {
        let Ok((n, src)) = sock.recv_from(&mut buf) else {
            continue;
        };
        let d = &buf[..n];
        let (to_r, dst) = if src == alice {
            (true, bob)
        } else if src == bob {
            (false, alice)
        } else {
            continue;
        };
        // msg1 itself, or (when it is fragmented) its first fragment to arrive here.
        let is_msg1 = d.first() == Some(&wire::MSG1)
            || (frag::is_fragment(d) && d.get(8) == Some(&wire::MSG1));
        let first = to_r && !msg1_dropped && is_msg1;
        let l = &mut rep.largest[usize::from(d.first() == Some(&common::RECORD))];
        *l = (*l).max(n);
        msg1_dropped |= first;
        let drop = first || lose();
        if d.first() != Some(&common::RECORD) {
            rep.log.push(ShimEntry {
                at: t0.elapsed(),
                to_r,
                kind: kind_name(d),
                len: n,
                dropped: drop,
            });
        }
        if drop {
            rep.dropped += 1;
            continue;
        }
        let i = usize::from(!to_r);
        rep.datagrams[i] += 1;
        rep.bytes[i] += n as u64;
        let _ = sock.send_to(d, dst);
    }
    rep
}

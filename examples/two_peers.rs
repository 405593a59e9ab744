//! Two peers over UDP: a pqdr-handshake, then a ratchet session (the README snippet).
//! `examples/handshake_udp.rs` adds loss, the cookie round, resends, the
//! datagram framing of docs/protocol/handshake.md §8 and a re-handshake.
#[rustfmt::skip]
use pqdr_handshake::{Identity, Initiator, InitiatorConfig, Instant, K768, Load, OnePeer, Peer, Reply, Responder, Tai64N};
use pqdr_mlkem::ml_kem_768 as k;
use pqdr_ratchet::{Config, MlKem768};
use std::net::UdpSocket;

#[rustfmt::skip] // kept compact: this is the README's snippet
fn main() -> Result<(), Box<dyn core::error::Error>> {
    let (mut rng, mut sigma) = (rand_core::UnwrapErr(getrandom::SysRng), [[0u8; 32]; 2]); // σ: kept with each static key
    getrandom::fill(sigma.as_flattened_mut())?;
    let ((dk_a, ek_a), (dk_b, ek_b)) = (k::generate(&mut rng), k::generate(&mut rng));
    let t0 = std::time::Instant::now(); // the state machines' clock: monotonic milliseconds
    let now = || Instant(u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX));
    let wall = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?; // msg1's TAI64N label
    let (clock, cfg) = (Tai64N { secs: wall.as_secs(), nanos: wall.subsec_nanos() }, Config::default());
    let alice = Identity::<K768>::new(dk_a, &ek_a, sigma[0]);
    let mut bob = Responder::<K768>::new(Identity::new(dk_b, &ek_b, sigma[1]), b"demo", now(), &mut rng)?;
    let mut bobs_peers = OnePeer::new(Peer::new(&ek_a)); // who Bob accepts, and the replay record
    let (a, b, mut buf, mut out) = (UdpSocket::bind("127.0.0.1:0")?, UdpSocket::bind("127.0.0.1:0")?, [0u8; 4096], [0u8; 6144]);
    a.connect(b.local_addr()?)?;
    let cfg_a = InitiatorConfig::new(Peer::new(&ek_b), b"demo");
    let mut init = Initiator::start(&cfg_a, &alice, clock, Tai64N::default(), now(), &mut rng)?; // persist init.sent_timestamp()
    let n = init.poll_transmit(now(), &mut buf).ok_or("msg1")?;
    a.send(&buf[..n])?; // msg1 →
    let (n, from) = b.recv_from(&mut buf)?;
    let Reply::Msg2(m) = bob.handle_msg1(&mut bobs_peers, from.to_string().as_bytes(), &buf[..n], Load::Normal, now(), &mut rng, &mut out)? else { return Err("busy".into()) };
    b.send_to(&out[..m], from)?; // ← msg2 (Bob keeps no state)
    let m = a.recv(&mut out)?;
    let est = init.handle_msg2(&out[..m], &alice, now(), &mut rng)?;
    a.send(est.msg3().ok_or("msg3")?)?; // msg3 →
    let mut sa = est.into_session::<MlKem768, _>(&cfg, now(), &mut rng)?; // role Initiator, from the handshake
    let n = b.recv(&mut buf)?;
    let mut sb = bob.handle_msg3(&mut bobs_peers, from.to_string().as_bytes(), &buf[..n], Load::Normal, now())?.into_session::<MlKem768, _>(&cfg, now(), &mut rng)?;
    let n = sa.seal(now(), b"", b"hello Bob", &mut buf, &mut rng)?;
    let got = sb.open(now(), b"", &buf[..n], &mut out, &mut rng)?;
    if &out[..got.len] != b"hello Bob" { return Err("record".into()) }
    println!("two peers: handshake + ratchet record ok");
    Ok(())
}

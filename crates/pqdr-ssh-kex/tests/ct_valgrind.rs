//! Constant-time check under valgrind memcheck (see docs/constant-time.md).
//!
//! Secret inputs are marked undefined with `pqdr_ctgrind::classify`: every
//! byte the random generator hands out (the client's sntrup761 / ML-KEM and
//! X25519 key generation, the server's encapsulation and X25519 scalar), the
//! host key's Ed25519 secret (signing H) and the chacha20-poly1305 keys
//! (sealing and opening, a valid and a tampered packet). Memcheck then
//! reports any branch or memory index depending on them, through `K`, the
//! exchange hash, the key derivation and the cipher. The crate declassifies
//! only public verdicts: the X25519 all-zero check and the Poly1305 tag
//! comparison. Outputs are declassified before they are compared.
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --expensive-definedness-checks=yes --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-ssh-kex --test ct_valgrind
//! ```
//! Natively (no valgrind) the client requests are no-ops and the tests simply pass.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "test code"
)]

use pqdr_ctgrind::{classify, declassify};
use pqdr_ssh_kex::Kex;
use pqdr_ssh_kex::hostkey::HostKey;
use pqdr_ssh_kex::hybrid::ClientShare;
use pqdr_ssh_kex::kex::{self, Hello, Outcome};
use pqdr_ssh_kex::kexinit;
use pqdr_ssh_kex::packet::{Opener, Sealer};

/// A fixed stream (splitmix64) whose bytes are classified when `secret`.
struct Rng {
    state: u64,
    secret: bool,
}

impl rand_core::TryRng for Rng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes()[..chunk.len()]);
        }
        if self.secret {
            classify(dst);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Rng {}

fn kexinit_payload(kex: Kex) -> Vec<u8> {
    let mut v = Vec::new();
    kexinit::write_kexinit(&mut v, &[1; 16], &[kex], kexinit::Role::Client).unwrap();
    v
}

/// One exchange; `secret` classifies every random byte and the host key.
fn exchange(kex: Kex, secret: bool) -> (Vec<u8>, Vec<u8>, Outcome, Outcome) {
    let i = kexinit_payload(kex);
    let hello = Hello {
        v_c: b"SSH-2.0-c",
        v_s: b"SSH-2.0-s",
        i_c: &i,
        i_s: &i,
    };
    let mut client_rng = Rng { state: 1, secret };
    let mut server_rng = Rng { state: 2, secret };
    let share = ClientShare::generate(kex, &mut client_rng);
    let mut init = Vec::new();
    kex::write_init(&mut init, &share).unwrap();
    // The client's public keys travel: public by design.
    declassify(&mut init[..]);
    let mut host_secret = [7u8; 32];
    if secret {
        classify(&mut host_secret);
    }
    let host = HostKey::from_secret(&host_secret);
    let mut reply = Vec::new();
    let server =
        kex::server_respond(kex, &host, &hello, &init, &mut server_rng, &mut reply).unwrap();
    declassify(&mut reply[..]);
    let client = kex::client_finish(share, &hello, &reply).unwrap();
    (init, reply, client, server)
}

fn check(kex: Kex) {
    let (init_ref, reply_ref, client_ref, _) = exchange(kex, false);
    let (init, reply, mut client, mut server) = exchange(kex, true);
    for o in [&mut client, &mut server] {
        declassify(&mut o.keys.client_to_server);
        declassify(&mut o.keys.server_to_client);
        declassify(&mut o.exchange_hash);
    }
    assert_eq!(init, init_ref);
    assert_eq!(reply, reply_ref);
    assert_eq!(client.exchange_hash, client_ref.exchange_hash);
    assert_eq!(
        client.keys.client_to_server,
        client_ref.keys.client_to_server
    );
    assert_eq!(
        server.keys.server_to_client,
        client_ref.keys.server_to_client
    );
}

#[test]
fn sntrup761x25519_exchange_is_constant_time() {
    check(Kex::Sntrup761X25519Sha512);
}

#[test]
fn mlkem768x25519_exchange_is_constant_time() {
    check(Kex::MlKem768X25519Sha256);
}

fn packet(tamper: bool) {
    let mut key = [0x3cu8; 64];
    let payload = *b"\x05\0\0\0\x0cssh-userauth";
    let mut s = Sealer::new();
    s.set_key(&key);
    let wire_ref = s
        .seal_to_vec(
            &payload,
            &mut Rng {
                state: 3,
                secret: false,
            },
        )
        .unwrap();
    classify(&mut key);
    let mut s = Sealer::new();
    s.set_key(&key);
    let mut wire = s
        .seal_to_vec(
            &payload,
            &mut Rng {
                state: 3,
                secret: false,
            },
        )
        .unwrap();
    declassify(&mut wire[..]);
    assert_eq!(wire, wire_ref);
    if tamper {
        wire[10] ^= 1;
    }
    let mut o = Opener::new();
    o.set_key(&key);
    let first4: [u8; 4] = wire[..4].try_into().unwrap();
    assert_eq!(o.wire_len(&first4), Ok(wire.len()));
    match o.open(&mut wire) {
        Ok(p) => {
            let mut p = p.to_vec();
            declassify(&mut p[..]);
            assert!(!tamper);
            assert_eq!(p, payload);
        }
        Err(e) => assert!(tamper, "{e:?}"),
    }
}

#[test]
fn packet_open_valid_is_constant_time() {
    packet(false);
}

#[test]
fn packet_open_tampered_is_constant_time() {
    packet(true);
}

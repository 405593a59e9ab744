//! pqdr-hybrid on fuzzer input: X-Wing, X25519MLKEM768 and
//! SecP256r1MLKEM768 decoding, decapsulation and the TLS shares. The first
//! byte picks the operation (`byte % 9`); reads past the end of the input give zeros, so every
//! operation reaches its exact-length paths. Checks (never a panic):
//!
//! 0. `xwing::EncapsulationKey::from_slice`: a wrong length is
//!    `Error::Length { expected: 1216, actual }`; at the exact length the key
//!    is accepted or `Error::InvalidKey` (the FIPS 203 §7.2 check on `pk_M`,
//!    the same verdict as `pqdr_mlkem`'s parser on the first 1184 bytes); an
//!    accepted key re-encodes to its bytes and encapsulates deterministically.
//! 1. `xwing::DecapsulationKey::from_slice`: accepted iff 32 bytes, and then
//!    the key of `generate_from_seed` with the seed as its bytes.
//! 2. `xwing::Ciphertext`: length check; decapsulation under a fixed key of an
//!    arbitrary ciphertext or an honest one with a fuzz xor patch: the same
//!    secret twice; the honest ciphertext gives the encapsulated secret, a
//!    changed one a different one.
//! 3. `x25519_mlkem768` server side on a fuzz client share: a wrong length is
//!    `Error::Length`; the exact length gives a share and secret, or
//!    `InvalidKey` exactly when `pk_M` fails §7.2, or `LowOrderPoint`.
//! 4. `x25519_mlkem768` client side on a fuzz server share under a fixed
//!    client key: `Ok` or `LowOrderPoint`, the same result twice.
//! 5. Both hybrids from fuzz seeds: X-Wing and the TLS exchange agree on the
//!    secret on both sides.
//! 6. `secp256r1_mlkem768` server side on a fuzz client share: a wrong length
//!    is `Error::Length`; at the exact length `InvalidPoint` exactly when the
//!    RustCrypto `p256` SEC 1 parser refuses the first 65 bytes as a public
//!    key, else `InvalidKey` exactly when `ek` fails §7.2, else a share and
//!    secret (the same twice).
//! 7. `secp256r1_mlkem768` client side on a fuzz server share under a fixed
//!    client key: `Ok` (the same twice) or `InvalidPoint`, as the `p256`
//!    parser decides.
//! 8. SecP256r1MLKEM768 from fuzz seeds (any 40-byte scalar seed): both sides
//!    agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_hybrid::Error;
use pqdr_hybrid::secp256r1_mlkem768 as p256;
use pqdr_hybrid::x25519_mlkem768::{self as tls, ClientSecret, ClientShare, ServerShare};
use pqdr_hybrid::xwing::{self, Ciphertext, DecapsulationKey, EncapsulationKey};

/// The fuzz input, read front to back; reads past the end give zeros.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn fill(&mut self, out: &mut [u8]) {
        let n = out.len().min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        out[n..].fill(0);
        self.0 = &self.0[n..];
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    fn rest(self) -> &'a [u8] {
        self.0
    }
}

fn xwing_ek(bytes: &[u8]) {
    let ours = EncapsulationKey::from_slice(bytes);
    if bytes.len() != xwing::ENCAPSULATION_KEY_SIZE {
        let want = Error::Length {
            what: pqdr_hybrid::Object::EncapsulationKey,
            expected: xwing::ENCAPSULATION_KEY_SIZE,
            actual: bytes.len(),
        };
        assert_eq!(ours.err(), Some(want));
        return;
    }
    let mlkem_ok = pqdr_mlkem::ml_kem_768::EncapsulationKey::from_slice(&bytes[..1184]).is_ok();
    match ours {
        Ok(ek) => {
            assert!(mlkem_ok);
            assert_eq!(ek.as_bytes().as_slice(), bytes);
            let (ct, ss) = ek.encapsulate_deterministic(&[0x42; 64]);
            assert_eq!(ek.encapsulate_deterministic(&[0x42; 64]), (ct, ss));
        }
        Err(e) => {
            assert!(!mlkem_ok, "rejected a valid key");
            assert_eq!(e, Error::InvalidKey);
        }
    }
}

fn xwing_dk(bytes: &[u8]) {
    match DecapsulationKey::from_slice(bytes) {
        Ok(dk) => {
            assert_eq!(dk.as_bytes().as_slice(), bytes);
            let seed: [u8; 32] = bytes.try_into().expect("32 bytes");
            let (dk2, ek2) = xwing::generate_from_seed(&seed);
            assert_eq!(dk, dk2);
            assert_eq!(dk.encapsulation_key(), &ek2);
        }
        Err(e) => assert_eq!(
            e,
            Error::Length {
                what: pqdr_hybrid::Object::DecapsulationKey,
                expected: 32,
                actual: bytes.len()
            }
        ),
    }
}

fn xwing_decaps(mut inp: Input<'_>) {
    let mode = inp.array::<1>()[0];
    let (dk, ek) = xwing::generate_from_seed(&[0x5a; 32]);
    if mode.is_multiple_of(2) {
        let bytes = inp.rest();
        let parsed = Ciphertext::from_slice(bytes);
        assert_eq!(parsed.is_ok(), bytes.len() == xwing::CIPHERTEXT_SIZE);
        let mut exact = [0u8; xwing::CIPHERTEXT_SIZE];
        Input(bytes).fill(&mut exact);
        let ct = Ciphertext::from_array(&exact);
        assert_eq!(dk.decapsulate(&ct), dk.decapsulate(&ct));
        return;
    }
    let eseed: [u8; 64] = inp.array();
    let pos = usize::from(inp.u16());
    let patch = inp.rest();
    let (ct, ss) = ek.encapsulate_deterministic(&eseed);
    let mut bytes = *ct.as_bytes();
    for (j, p) in patch.iter().enumerate().take(bytes.len()) {
        bytes[(pos + j) % xwing::CIPHERTEXT_SIZE] ^= p;
    }
    let got = dk.decapsulate(&Ciphertext::from_array(&bytes));
    assert_eq!(got, dk.decapsulate(&Ciphertext::from_array(&bytes)));
    if bytes == *ct.as_bytes() {
        assert_eq!(got, ss, "honest ciphertext not decapsulated");
    } else {
        assert_ne!(got, ss, "changed ciphertext gave the real secret");
    }
}

fn tls_server(mut inp: Input<'_>) {
    let seed: [u8; 64] = inp.array();
    let bytes = inp.rest();
    let share = match ClientShare::from_slice(bytes) {
        Ok(s) => s,
        Err(e) => {
            assert_ne!(bytes.len(), tls::CLIENT_SHARE_SIZE);
            assert_eq!(
                e,
                Error::Length {
                    what: pqdr_hybrid::Object::ClientShare,
                    expected: tls::CLIENT_SHARE_SIZE,
                    actual: bytes.len()
                }
            );
            let mut exact = [0u8; tls::CLIENT_SHARE_SIZE];
            Input(bytes).fill(&mut exact);
            ClientShare::from_array(&exact)
        }
    };
    let mlkem_ok =
        pqdr_mlkem::ml_kem_768::EncapsulationKey::from_slice(&share.as_bytes()[..1184]).is_ok();
    match tls::server_respond_deterministic(&share, &seed) {
        Ok((reply, ss)) => {
            assert!(mlkem_ok);
            let again = tls::server_respond_deterministic(&share, &seed).expect("deterministic");
            assert_eq!(again.0, reply);
            assert_eq!(again.1, ss);
        }
        Err(Error::InvalidKey) => assert!(!mlkem_ok),
        Err(Error::LowOrderPoint) => assert!(mlkem_ok),
        Err(e) => panic!("unexpected {e:?}"),
    }
}

fn tls_client(inp: Input<'_>) {
    let client = ClientSecret::from_seed(&[0xc1; tls::CLIENT_SEED_SIZE]);
    let mut exact = [0u8; tls::SERVER_SHARE_SIZE];
    let bytes = inp.rest();
    assert_eq!(
        ServerShare::from_slice(bytes).is_ok(),
        bytes.len() == tls::SERVER_SHARE_SIZE
    );
    Input(bytes).fill(&mut exact);
    let share = ServerShare::from_array(&exact);
    match (client.finish(&share), client.finish(&share)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(Error::LowOrderPoint), Err(Error::LowOrderPoint)) => {}
        other => panic!("unexpected {other:?}"),
    }
}

fn both(mut inp: Input<'_>) {
    let seed: [u8; 32] = inp.array();
    let eseed: [u8; 64] = inp.array();
    let (dk, ek) = xwing::generate_from_seed(&seed);
    let (ct, ss) = ek.encapsulate_deterministic(&eseed);
    assert_eq!(dk.decapsulate(&ct), ss);

    let cseed: [u8; 96] = inp.array();
    let sseed: [u8; 64] = inp.array();
    let client = ClientSecret::from_seed(&cseed);
    match tls::server_respond_deterministic(client.share(), &sseed) {
        Ok((reply, ss)) => assert_eq!(client.finish(&reply).expect("honest share"), ss),
        // Only a clamped scalar of low order could give zero: impossible.
        Err(e) => panic!("honest exchange failed: {e:?}"),
    }
}

/// The reference verdict on a P-256 key share: RustCrypto `p256`'s SEC 1
/// public-key parser (65 bytes can only be an uncompressed point).
fn p256_point_ok(bytes: &[u8]) -> bool {
    ::p256::PublicKey::from_sec1_bytes(&bytes[..65]).is_ok()
}

fn p256_server(mut inp: Input<'_>) {
    let seed: [u8; p256::SERVER_SEED_SIZE] = inp.array();
    let bytes = inp.rest();
    let share = match p256::ClientShare::from_slice(bytes) {
        Ok(s) => s,
        Err(e) => {
            let want = Error::Length {
                what: pqdr_hybrid::Object::ClientShare,
                expected: p256::CLIENT_SHARE_SIZE,
                actual: bytes.len(),
            };
            assert_eq!(e, want);
            let mut exact = [0u8; p256::CLIENT_SHARE_SIZE];
            Input(bytes).fill(&mut exact);
            p256::ClientShare::from_array(&exact)
        }
    };
    let point_ok = p256_point_ok(share.as_bytes());
    let mlkem_ok =
        pqdr_mlkem::ml_kem_768::EncapsulationKey::from_slice(&share.as_bytes()[65..]).is_ok();
    match p256::server_respond_deterministic(&share, &seed) {
        Ok((reply, ss)) => {
            assert!(point_ok && mlkem_ok);
            let again = p256::server_respond_deterministic(&share, &seed).expect("deterministic");
            assert_eq!(again.0, reply);
            assert_eq!(again.1, ss);
        }
        Err(Error::InvalidPoint) => assert!(!point_ok),
        Err(Error::InvalidKey) => assert!(point_ok && !mlkem_ok),
        Err(e) => panic!("unexpected {e:?}"),
    }
}

fn p256_client(inp: Input<'_>) {
    let client = p256::ClientSecret::from_seed(&[0xc2; p256::CLIENT_SEED_SIZE]);
    let mut exact = [0u8; p256::SERVER_SHARE_SIZE];
    let bytes = inp.rest();
    assert_eq!(
        p256::ServerShare::from_slice(bytes).is_ok(),
        bytes.len() == p256::SERVER_SHARE_SIZE
    );
    Input(bytes).fill(&mut exact);
    let share = p256::ServerShare::from_array(&exact);
    let point_ok = p256_point_ok(&exact);
    match (client.finish(&share), client.finish(&share)) {
        (Ok(a), Ok(b)) => assert!(point_ok && a == b),
        (Err(Error::InvalidPoint), Err(Error::InvalidPoint)) => assert!(!point_ok),
        other => panic!("unexpected {other:?}"),
    }
}

fn p256_both(mut inp: Input<'_>) {
    let cseed: [u8; p256::CLIENT_SEED_SIZE] = inp.array();
    let sseed: [u8; p256::SERVER_SEED_SIZE] = inp.array();
    let client = p256::ClientSecret::from_seed(&cseed);
    assert!(p256_point_ok(client.share().as_bytes()));
    match p256::server_respond_deterministic(client.share(), &sseed) {
        Ok((reply, ss)) => assert_eq!(client.finish(&reply).expect("honest share"), ss),
        Err(e) => panic!("honest exchange failed: {e:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 9 {
        0 => xwing_ek(rest),
        1 => xwing_dk(rest),
        2 => xwing_decaps(Input(rest)),
        3 => tls_server(Input(rest)),
        4 => tls_client(Input(rest)),
        5 => both(Input(rest)),
        6 => p256_server(Input(rest)),
        7 => p256_client(Input(rest)),
        _ => p256_both(Input(rest)),
    }
});

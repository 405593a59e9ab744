//! Implicit rejection, recomputed independently of the crate (issue #19).
//!
//! FIPS 203 Algorithm 18 (`ML-KEM.Decaps_internal`), steps 7 and 9–11: a
//! ciphertext `c'` whose re-encryption differs yields `K̄ = J(z ‖ c')`, with
//! `J(s) = SHAKE256(s, 8·32)` (§4.1, eq. 4.4). Here `z` is read from the
//! decapsulation key's bytes at its FIPS 203 position (Algorithm 16 step 3,
//! `dk = dk_PKE ‖ ek ‖ H(ek) ‖ z`: the last 32 bytes), after the layout
//! itself is checked (`ek` embedded at `384k`, `H(ek) = SHA3-256(ek)`), and
//! `J` is the `shake` crate's SHAKE256, not the crate's Keccak.

mod common;

use common::for_each_set;
use pqdr_mlkem::{Ciphertext, DecapsulationKey, ParameterSet};
use sha3::{Digest, Sha3_256};
use shake::{ExtendableOutput, Update, XofReader};

/// `J(z ‖ c) = SHAKE256(z ‖ c, 32 bytes)` (FIPS 203 §4.1).
fn j(z: &[u8], c: &[u8]) -> [u8; 32] {
    let mut h = shake::Shake256::default();
    h.update(z);
    h.update(c);
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

/// `z`: the last 32 bytes of `dk = dk_PKE ‖ ek ‖ H(ek) ‖ z` (FIPS 203
/// Algorithm 16 step 3), after checking the rest of that layout.
fn z_from_dk<P: ParameterSet>(dk: &DecapsulationKey<P>) -> [u8; 32] {
    let dk_bytes = dk.as_bytes().as_ref();
    let ek = dk.encapsulation_key().as_bytes().as_ref();
    let dk_pke_len = 384 * P::K;
    assert_eq!(dk_bytes.len(), dk_pke_len + ek.len() + 64, "{}", P::NAME);
    let (_dk_pke, rest) = dk_bytes.split_at(dk_pke_len);
    let (ek_in_dk, rest) = rest.split_at(ek.len());
    let (h_ek, z) = rest.split_at(32);
    assert_eq!(ek_in_dk, ek, "{}: ek inside dk", P::NAME);
    assert_eq!(h_ek, Sha3_256::digest(ek).as_slice(), "{}: H(ek)", P::NAME);
    z.try_into().expect("32 bytes")
}

fn implicit_rejection<P: ParameterSet>(d: &[u8; 32], z: &[u8; 32], m: &[u8; 32]) {
    let (dk, ek) = pqdr_mlkem::generate_deterministic::<P>(d, z);
    // The same key parsed from its expanded encoding (no seed inside).
    let dk_parsed = DecapsulationKey::<P>::from_slice(dk.as_bytes().as_ref()).expect("own dk");
    let z_dk = z_from_dk(&dk);
    assert_eq!(&z_dk, z, "{}: z is the key generation's z", P::NAME);

    let (ct, ss) = ek.encapsulate_deterministic(m);
    let honest = ct.as_bytes().as_ref();
    // The honest ciphertext is accepted: its key is not the rejection value
    // (so the comparisons below can fail).
    assert_eq!(dk.decapsulate(&ct), ss, "{}", P::NAME);
    assert_ne!(ss.as_bytes(), &j(&z_dk, honest), "{}: honest c", P::NAME);

    // First byte, the last byte of u (`32·d_u·k` bytes), the first of v, the
    // middle and the last byte; low and high bits.
    let n = honest.len();
    let u_len = 32 * P::K * usize::try_from(P::DU).expect("small");
    let mut checked = 0;
    for pos in [0, 1, u_len - 1, u_len, n >> 1, n - 1] {
        for bit in [0u8, 3, 7] {
            let mut bytes = honest.to_vec();
            bytes[pos] ^= 1 << bit;
            let bad = Ciphertext::<P>::from_slice(&bytes).expect("length");
            let want = j(&z_dk, &bytes);
            let k = dk.decapsulate(&bad);
            assert_ne!(k, ss, "{} pos {pos} bit {bit}", P::NAME);
            assert_eq!(k.as_bytes(), &want, "{} pos {pos} bit {bit}", P::NAME);
            assert_eq!(
                dk_parsed.decapsulate(&bad).as_bytes(),
                &want,
                "{} parsed dk, pos {pos} bit {bit}",
                P::NAME
            );
            checked += 1;
        }
    }
    // Several bits at once, across the whole ciphertext.
    let mut bytes = honest.to_vec();
    for (i, b) in bytes.iter_mut().enumerate().step_by(37) {
        *b ^= 1 << (i & 7);
    }
    let bad = Ciphertext::<P>::from_slice(&bytes).expect("length");
    assert_eq!(
        dk.decapsulate(&bad).as_bytes(),
        &j(&z_dk, &bytes),
        "{} many bits",
        P::NAME
    );
    assert_eq!(checked, 18);
}

#[test]
fn implicit_rejection_is_j_of_z_and_c() {
    let d: [u8; 32] = core::array::from_fn(|i| 0x11 ^ u8::try_from(i).expect("< 32"));
    let z: [u8; 32] = core::array::from_fn(|i| 0xA0 ^ u8::try_from(i).expect("< 32"));
    let m = [0x5Cu8; 32];
    for_each_set!(implicit_rejection(&d, &z, &m));
}

//! Implicit rejection, recomputed independently of the crate (issue #19).
//!
//! Classic McEliece spec `Decap` (§8.3 and, for the `pc` sets, the
//! plaintext-confirmation `Decap` of round 3 and ISO): split `C = C0` (or `C0
//! ‖ C1`); `b ← 1`; `e ← Decode(C0, Γ')`, and if that fails `e ← s`, `b ← 0`;
//! for `pc`, if `C1 ≠ H(2, e)` then `e ← s`, `b ← 0`; `K = H(b, e, C)`. So a
//! ciphertext that fails decoding, or (pc) whose confirmation fails, gives
//! `K = H(0, s, C) = SHAKE256(0x00 ‖ s ‖ C, 32 bytes)` over the whole
//! ciphertext `C` (with `C1` for the pc sets). `s` is read from the secret
//! key's bytes at its position in the spec's private-key format
//! (`sk = δ ‖ c ‖ g ‖ α ‖ s`, `s` the last `n/8` bytes, after checking the
//! lengths of the fields before it), and SHAKE256 is the `shake` crate's,
//! not the crate's own sponge.
//!
//! This replaces the weaker check in `roundtrip.rs` that a rejected
//! ciphertext's key only differs from the real one and repeats.

use crate::common::{TestRng, random_key_and_ciphertext};
use pqdr_mceliece::{Buf, Ciphertext, DecapsulationKey, ParameterSet};
use shake::{ExtendableOutput, Update, XofReader};

/// `H(0, s, C) = SHAKE256(0x00 ‖ s ‖ C)`, 32 bytes.
fn h0(s: &[u8], c: &[u8]) -> [u8; 32] {
    let mut h = shake::Shake256::default();
    h.update(&[0]);
    h.update(s);
    h.update(c);
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

/// `s` from `sk = δ ‖ c ‖ g ‖ α ‖ s`: 32 bytes δ, 8 bytes c, `t` field
/// elements g of 2 bytes, `(2m − 1)·2^(m−1)` control bits α, then `n` bits s.
fn s_from_sk<P: ParameterSet>(sk: &[u8]) -> &[u8] {
    let alpha_bytes = (2 * P::M - 1) << (P::M - 4);
    let s_bytes = P::N >> 3;
    assert_eq!(s_bytes << 3, P::N, "{}: n/8 whole bytes", P::NAME);
    assert_eq!(
        sk.len(),
        32 + 8 + 2 * P::T + alpha_bytes + s_bytes,
        "{}: sk layout",
        P::NAME
    );
    &sk[sk.len() - s_bytes..]
}

/// `C0` length: `mt` bits in `⌈mt/8⌉` bytes.
fn c0_len<P: ParameterSet>() -> usize {
    (P::M * P::T).div_ceil(8)
}

/// Flips bit `i` (little-endian bit order within bytes) of `c`.
fn flip(c: &mut [u8], i: usize) {
    c[i >> 3] ^= 1 << (i & 7);
}

/// Decapsulates `bytes` with both the key object and its prepared form and
/// asserts both give `H(0, s, bytes)`.
fn assert_rejected<P: ParameterSet>(dk: &DecapsulationKey<P>, s: &[u8], bytes: &[u8], what: &str) {
    let ct = Ciphertext::<P>::from_slice(bytes).expect("well formed");
    let want = h0(s, bytes);
    assert_eq!(dk.decapsulate(&ct).as_bytes(), &want, "{}: {what}", P::NAME);
    assert_eq!(
        dk.prepare().decapsulate(&ct).as_bytes(),
        &want,
        "{}: {what}, prepared",
        P::NAME
    );
}

fn implicit_rejection<P: ParameterSet>(seed: u8) {
    let (dk, ek) = pqdr_mceliece::generate_deterministic::<P>(&[seed; 32]);
    let s = s_from_sk::<P>(dk.as_bytes().as_ref());
    let (ct, ss) = ek.encapsulate(&mut TestRng(0x5EED ^ u64::from(seed)));
    let honest = ct.as_bytes().as_ref();
    let mt = P::M * P::T;
    assert_eq!(honest.len(), c0_len::<P>() + if P::PC { 32 } else { 0 });

    // The honest ciphertext decodes and is accepted; its key is not the
    // rejection value (so the comparisons below can fail).
    assert_eq!(dk.decapsulate(&ct), ss, "{}", P::NAME);
    assert_ne!(ss.as_bytes(), &h0(s, honest), "{}: honest C", P::NAME);

    // C0 with t + 1 bits flipped (at 0, 3, …, 3t, all below mt): its
    // syndrome is no longer that of a weight-t error, so decoding fails.
    let mut bad = honest.to_vec();
    for i in 0..=P::T {
        flip(&mut bad, 3 * i);
    }
    assert_rejected(&dk, s, &bad, "t + 1 bits of C0");

    // Single bits of C0: first, middle and last valid bit (not the padding
    // of 6960119). The error then has weight t ± 1, not t.
    for i in [0, 1, mt >> 1, mt - 1] {
        let mut bad = honest.to_vec();
        flip(&mut bad, i);
        assert_ne!(bad, honest);
        assert_rejected(&dk, s, &bad, &format!("C0 bit {i}"));
    }

    if P::PC {
        // C0 intact (decoding succeeds), only the confirmation C1 = H(2, e)
        // wrong: rejected by the confirmation, K = H(0, s, C0 ‖ C1').
        let c0 = c0_len::<P>();
        for (pos, bit) in [(c0, 0), (c0 + 17, 5), (honest.len() - 1, 7)] {
            let mut bad = honest.to_vec();
            bad[pos] ^= 1 << bit;
            assert_rejected(&dk, s, &bad, &format!("C1 byte {pos} bit {bit}"));
        }
        let mut bad = honest.to_vec();
        bad[c0..].fill(0);
        assert_rejected(&dk, s, &bad, "C1 zero");
    }

    // The free byte-array API on the same key.
    let mut bad = P::CtBytes::zeroed();
    bad.as_mut().copy_from_slice(honest);
    bad.as_mut()[0] ^= 0x81;
    assert_eq!(
        pqdr_mceliece::decapsulate::<P>(dk.as_bytes(), &bad).as_bytes(),
        &h0(s, bad.as_ref()),
        "{}: byte API",
        P::NAME
    );

    // A random secret key in the systematic format and a random ciphertext
    // (the common fixture): nothing decodes, and the key is H(0, s, C) with
    // this key's s.
    let (sk, c) = random_key_and_ciphertext::<P>(u64::from(seed) << 8);
    assert_eq!(
        pqdr_mceliece::decapsulate::<P>(&sk, &c).as_bytes(),
        &h0(s_from_sk::<P>(sk.as_ref()), c.as_ref()),
        "{}: random key and ciphertext",
        P::NAME
    );
}

#[test]
fn implicit_rejection_348864() {
    implicit_rejection::<pqdr_mceliece::Mceliece348864>(1);
}

#[test]
fn implicit_rejection_348864f() {
    implicit_rejection::<pqdr_mceliece::Mceliece348864f>(2);
}

/// mt = 1547 and n − mt = 5413 are not multiples of 8: C0 carries padding.
#[test]
fn implicit_rejection_6960119() {
    implicit_rejection::<pqdr_mceliece::Mceliece6960119>(3);
}

#[test]
fn implicit_rejection_348864pc() {
    implicit_rejection::<pqdr_mceliece::Mceliece348864pc>(4);
}

#[test]
fn implicit_rejection_348864pcf() {
    implicit_rejection::<pqdr_mceliece::Mceliece348864pcf>(5);
}

/// Plaintext confirmation after a padded C0.
#[test]
fn implicit_rejection_6960119pc() {
    implicit_rejection::<pqdr_mceliece::Mceliece6960119pc>(6);
}

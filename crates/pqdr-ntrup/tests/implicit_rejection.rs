//! Implicit rejection, recomputed independently of the crate (issue #19).
//!
//! NTRU Prime round-3 spec, Streamlined NTRU Prime `Decap` (§2.3.8, and the
//! reference `crypto_kem_dec`): a ciphertext `C` that does not re-encrypt to
//! itself yields `HashSession(0, ρ, C) = Hash_0(Hash_3(ρ) ‖ C)`, where
//! `Hash_b(x)` is the first 32 bytes of `SHA-512(b ‖ x)` (§2.3.5, `b` one
//! byte) and `ρ` is the `Inputs_bytes = Small_bytes = ⌈p/4⌉` random bytes of
//! the secret key. `ρ` is read from the secret key's bytes at its position
//! in the round-3 encoding `sk = Small_encode(f) ‖ Small_encode(1/g) ‖ pk ‖ ρ
//! ‖ Hash_4(pk)`, after the rest of that layout is checked (`pk` embedded,
//! `Hash_4(pk)` at the end). The hash below is written here from the spec,
//! not shared with the crate or the other tests.

mod common;

use common::{TestRng, for_each_set};
use pqdr_ntrup::{ByteArray, Ciphertext, DecapsulationKey, ParameterSet};
use sha2::{Digest, Sha512};

/// `Hash_b(x₁ ‖ x₂)`: the first 32 bytes of `SHA-512(b ‖ x₁ ‖ x₂)`.
fn hash_b(b: u8, x1: &[u8], x2: &[u8]) -> [u8; 32] {
    let mut h = Sha512::new();
    h.update([b]);
    h.update(x1);
    h.update(x2);
    let digest = h.finalize();
    let mut out = [0u8; 32];
    out.copy_from_slice(&digest[..32]);
    out
}

/// The rejection key `Hash_0(Hash_3(ρ) ‖ C)`.
fn rejection_key(rho: &[u8], c: &[u8]) -> [u8; 32] {
    hash_b(0, &hash_b(3, rho, &[]), c)
}

/// `ρ` from the secret key bytes (see the module docs), after checking the
/// layout around it.
fn rho_from_sk<S: ParameterSet>(dk: &DecapsulationKey<S>) -> Vec<u8> {
    let sk = dk.as_bytes().as_ref();
    let pk = dk.encapsulation_key().as_bytes().as_ref();
    let small_bytes = S::P.div_ceil(4);
    assert_eq!(
        small_bytes,
        <S::InputBytes as ByteArray>::LEN,
        "{}",
        S::NAME
    );
    assert_eq!(sk.len(), 3 * small_bytes + pk.len() + 32, "{}", S::NAME);
    let (_f_and_ginv, rest) = sk.split_at(2 * small_bytes);
    let (pk_in_sk, rest) = rest.split_at(pk.len());
    let (rho, cache) = rest.split_at(small_bytes);
    assert_eq!(pk_in_sk, pk, "{}: pk inside sk", S::NAME);
    assert_eq!(cache, hash_b(4, pk, &[]), "{}: Hash_4(pk)", S::NAME);
    rho.to_vec()
}

fn implicit_rejection<S: ParameterSet>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let dk_parsed = DecapsulationKey::<S>::from_slice(dk.as_bytes().as_ref()).expect("own sk");
    let rho = rho_from_sk(&dk);
    let (ct, ss) = ek.encapsulate(&mut rng);
    let honest = ct.as_bytes().as_ref();
    // The honest ciphertext is accepted, and its key is not the rejection
    // value (so the comparisons below can fail).
    assert_eq!(dk.decapsulate(&ct), ss, "{}", S::NAME);
    assert_ne!(ss.as_bytes(), &rejection_key(&rho, honest), "{}", S::NAME);

    // First byte, middle, last byte of Rounded_encode(c), first and last
    // byte of the confirmation hash; low and high bits.
    let n = honest.len();
    for pos in [0, 1, n >> 1, n - 33, n - 32, n - 1] {
        for bit in [0u8, 4, 7] {
            let mut bytes = honest.to_vec();
            bytes[pos] ^= 1 << bit;
            let bad = Ciphertext::<S>::from_slice(&bytes).expect("length");
            let want = rejection_key(&rho, &bytes);
            let k = dk.decapsulate(&bad);
            assert_ne!(k, ss, "{} pos {pos} bit {bit}", S::NAME);
            assert_eq!(k.as_bytes(), &want, "{} pos {pos} bit {bit}", S::NAME);
            assert_eq!(
                dk_parsed.decapsulate(&bad).as_bytes(),
                &want,
                "{} parsed sk, pos {pos} bit {bit}",
                S::NAME
            );
        }
    }
    // Several bits at once, across the whole ciphertext.
    let mut bytes = honest.to_vec();
    for (i, b) in bytes.iter_mut().enumerate().step_by(29) {
        *b ^= 1 << (i & 7);
    }
    let bad = Ciphertext::<S>::from_slice(&bytes).expect("length");
    assert_eq!(
        dk.decapsulate(&bad).as_bytes(),
        &rejection_key(&rho, &bytes),
        "{} many bits",
        S::NAME
    );
}

#[test]
fn implicit_rejection_is_hash0_of_rho_and_c() {
    for_each_set!(implicit_rejection(0x1D_2026));
}

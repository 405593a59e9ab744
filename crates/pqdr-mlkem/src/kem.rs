//! The ML-KEM internal algorithms (FIPS 203 §6): `ML-KEM.KeyGen_internal`
//! (Algorithm 16), `ML-KEM.Encaps_internal` (Algorithm 17),
//! `ML-KEM.Decaps_internal` (Algorithm 18), and the input checks of §7.2
//! and §7.3. They work on byte strings; `types` wraps them in typed keys.

use zeroize::Zeroizing;

use crate::encode::{decode12_checked, poly_bytes};
use crate::hash::{JRider, g, h};
use crate::kpke::{self, Write};
use crate::params::ParameterSet;
use crate::poly::Poly;
use pqdr_common::ct::{Compare, bytes_eq, select};

/// Bytes of one 12-bit-encoded polynomial.
const POLY12: usize = poly_bytes(12);

/// The parts of an expanded decapsulation key `dk_PKE ‖ ek ‖ H(ek) ‖ z`.
pub(crate) struct DkParts<'a> {
    pub(crate) dk_pke: &'a [u8],
    pub(crate) ek: &'a [u8],
    pub(crate) h: &'a [u8],
    pub(crate) z: &'a [u8],
}

/// Splits an expanded decapsulation key (FIPS 203 Algorithm 18, lines 1–4).
pub(crate) fn dk_parts<P: ParameterSet>(dk: &[u8]) -> DkParts<'_> {
    let (dk_pke, rest) = dk.split_at(POLY12 * P::K);
    let (ek, rest) = rest.split_at(POLY12 * P::K + 32);
    let (h, z) = rest.split_at(32);
    DkParts { dk_pke, ek, h, z }
}

/// `ML-KEM.KeyGen_internal(d, z)` (FIPS 203 Algorithm 16).
///
/// Writes the expanded decapsulation key `dk_PKE ‖ ek ‖ H(ek) ‖ z` into `dk`
/// (`768k + 96` bytes). The encapsulation key is the `ek` part.
pub(crate) fn keygen_internal<P: ParameterSet>(d: &[u8], z: &[u8], dk: &mut [u8]) {
    keygen_variant::<P, false>(d, z, dk);
}

/// The key generation of both FO variants: `K-PKE.KeyGen(d)`, with
/// `G(d ‖ k)` (ML-KEM) or, with `ROUND3`, `G(d)` (round-3 Kyber, v3.02
/// Algorithms 4 and 7), then the expanded key `dk_PKE ‖ ek ‖ H(ek) ‖ z` (the
/// same layout in both).
pub(crate) fn keygen_variant<P: ParameterSet, const ROUND3: bool>(
    d: &[u8],
    z: &[u8],
    dk: &mut [u8],
) {
    let (dk_pke, rest) = dk.split_at_mut(POLY12 * P::K);
    let (ek, rest) = rest.split_at_mut(POLY12 * P::K + 32);
    let (hash, z_out) = rest.split_at_mut(32);
    let mut hash_ek = [0u8; 32];
    // K-PKE.KeyGen also computes H(ek) (its permutations ride along).
    kpke::keygen::<P, ROUND3>(d, ek, dk_pke, &mut hash_ek);
    hash.copy_from_slice(&hash_ek);
    z_out.copy_from_slice(z);
}

/// `ML-KEM.Encaps_internal(ek, m)` (FIPS 203 Algorithm 17).
///
/// Writes the ciphertext to `ct` and returns the shared key in `k`;
/// `h_ek = H(ek)` is cached by the caller.
pub(crate) fn encaps_internal<P: ParameterSet>(
    ek: &[u8],
    h_ek: &[u8; 32],
    m: &[u8; 32],
    ct: &mut [u8],
    k: &mut [u8; 32],
) {
    let mut r = Zeroizing::new([0u8; 32]);
    g(&[m, h_ek], k, &mut r);
    kpke::encrypt::<P>(ek, m, &r, &mut Write(ct));
}

/// `ML-KEM.Decaps_internal(dk, c)` (FIPS 203 Algorithm 18).
///
/// Decapsulates `c` with the expanded key `dk` into `k`. Implicit rejection:
/// a ciphertext that does not re-encrypt to itself yields `J(z ‖ c)`; the
/// comparison and the choice are constant time.
pub(crate) fn decaps_internal<P: ParameterSet>(dk: &[u8], c: &[u8], k: &mut [u8; 32]) {
    let parts = dk_parts::<P>(dk);
    let mut m = Zeroizing::new([0u8; 32]);
    kpke::decrypt::<P>(parts.dk_pke, c, &mut m);

    let mut k_prime = Zeroizing::new([0u8; 32]);
    let mut r_prime = Zeroizing::new([0u8; 32]);
    g(&[&m[..], parts.h], &mut k_prime, &mut r_prime);
    let mut k_bar = Zeroizing::new([0u8; 32]);
    // J(z ‖ c): its permutations ride along the re-encryption's 4-way Keccak.
    let mut j = JRider::new(parts.z, c);

    // Re-encrypt and compare with c without storing c'.
    let mut cmp = Compare::new(c);
    kpke::encrypt_with_j::<P>(parts.ek, &m, &r_prime, &mut cmp, Some(&mut j));
    j.finish(&mut k_bar);
    let same = cmp.finish();
    select(k, &k_prime, &k_bar, same);
}

/// The modulus check (FIPS 203 §7.2, encapsulation key check 2): every 12-bit
/// value of `ek[0 : 384k]` is below `q`. (Check 1, the length, is the caller's.)
pub(crate) fn ek_modulus_check<P: ParameterSet>(ek: &[u8]) -> bool {
    let mut f = Poly::ZERO;
    ek[..POLY12 * P::K]
        .chunks_exact(POLY12)
        .fold(true, |ok, b| ok & decode12_checked(b, &mut f))
}

/// The hash check (FIPS 203 §7.3, decapsulation key check 3): `H(ek)` stored in
/// `dk` equals the hash of the embedded `ek`. Also applies the §7.2 modulus
/// check to that embedded `ek`, since encapsulation runs on it.
pub(crate) fn dk_check<P: ParameterSet>(dk: &[u8]) -> bool {
    let parts = dk_parts::<P>(dk);
    let mut hash = [0u8; 32];
    h(parts.ek, &mut hash);
    // Both sides are public (hashes of the public key); compared in constant
    // time anyway.
    let ok: bool = bytes_eq(&hash, parts.h).into();
    ok & ek_modulus_check::<P>(parts.ek)
}

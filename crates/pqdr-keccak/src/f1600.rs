//! Keccak-f\[1600\] (FIPS 202 §3.3, §3.4): the permutation under SHA3-256,
//! SHA3-512, SHAKE128 and SHAKE256.
//!
//! Each round is written out lane by lane: θ, then for each output row the
//! five lanes that ρ and π move there, combined at once by χ; ι last. Rounds
//! alternate between the state and a second array, so no lane is
//! overwritten while it is still needed and few values are live at a time
//! (the `keccak` crate's portable backend keeps its round as nested loops and
//! runs about twice the instructions), and six lanes are kept complemented
//! so that `χ` needs 8 NOTs per round instead of 25. Checked against the `sha3` and
//! `shake` crates through the sponges (tests/sha3.rs).

use zeroize::Zeroize;

/// The round constants `RC[i_r]` of ι (FIPS 202 Algorithm 6), `i_r = 0..24`.
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// The lanes kept complemented inside the permutation ("lane complementing",
/// from the Keccak team's implementation notes): with this set, `θ` maps the
/// pattern to one for which each `χ` output can be computed with at most
/// one NOT, and `χ` restores the pattern, so the rounds below compute
/// `Rnd` on the complemented representation.
const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// Complements the lanes of [`COMPLEMENTED`] (entering or leaving the representation).
#[inline(always)]
fn complement(a: &mut [u64; 25]) {
    for i in COMPLEMENTED {
        a[i] = !a[i];
    }
}

/// One round `Rnd(A, i_r)` (FIPS 202 §3.3) from `s` into `d`; lane `A[x, y]`
/// is `s[x + 5y]`.
#[inline(always)]
fn round(s: &[u64; 25], d: &mut [u64; 25], rc: u64) {
    // θ (Algorithm 1): column parities and their combination.
    let c0 = s[0] ^ s[5] ^ s[10] ^ s[15] ^ s[20];
    let c1 = s[1] ^ s[6] ^ s[11] ^ s[16] ^ s[21];
    let c2 = s[2] ^ s[7] ^ s[12] ^ s[17] ^ s[22];
    let c3 = s[3] ^ s[8] ^ s[13] ^ s[18] ^ s[23];
    let c4 = s[4] ^ s[9] ^ s[14] ^ s[19] ^ s[24];
    let d0 = c4 ^ c1.rotate_left(1);
    let d1 = c0 ^ c2.rotate_left(1);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(1);
    let d4 = c3 ^ c0.rotate_left(1);
    // ρ (Algorithm 2) and π (Algorithm 3): lane A[x, y] ⊕ D[x], rotated by
    // r[x, y], lands at (y, 2x + 3y mod 5); bX is the lane at (X, Y). Then
    // χ (Algorithm 4) on that row, A'[x] = b[x] ⊕ (¬b[x+1] ∧ b[x+2]), written
    // with De Morgan's laws for the complemented lanes (see `COMPLEMENTED`).
    // Output row y = 0.
    {
        let b0 = s[0] ^ d0;
        let b1 = (s[6] ^ d1).rotate_left(44);
        let b2 = (s[12] ^ d2).rotate_left(43);
        let b3 = (s[18] ^ d3).rotate_left(21);
        let b4 = (s[24] ^ d4).rotate_left(14);
        d[0] = b0 ^ (b1 | b2);
        d[1] = b1 ^ (!b2 | b3);
        d[2] = b2 ^ (b3 & b4);
        d[3] = b3 ^ (b4 | b0);
        d[4] = b4 ^ (b0 & b1);
    }
    // Output row y = 1.
    {
        let b0 = (s[3] ^ d3).rotate_left(28);
        let b1 = (s[9] ^ d4).rotate_left(20);
        let b2 = (s[10] ^ d0).rotate_left(3);
        let b3 = (s[16] ^ d1).rotate_left(45);
        let b4 = (s[22] ^ d2).rotate_left(61);
        d[5] = b0 ^ (b1 | b2);
        d[6] = b1 ^ (b2 & b3);
        d[7] = b2 ^ (b3 | !b4);
        d[8] = b3 ^ (b4 | b0);
        d[9] = b4 ^ (b0 & b1);
    }
    // Output row y = 2.
    {
        let b0 = (s[1] ^ d1).rotate_left(1);
        let b1 = (s[7] ^ d2).rotate_left(6);
        let b2 = (s[13] ^ d3).rotate_left(25);
        let b3 = (s[19] ^ d4).rotate_left(8);
        let b4 = (s[20] ^ d0).rotate_left(18);
        d[10] = b0 ^ (b1 | b2);
        d[11] = b1 ^ (b2 & b3);
        d[12] = b2 ^ (!b3 & b4);
        d[13] = !(b3 ^ (b4 | b0));
        d[14] = b4 ^ (b0 & b1);
    }
    // Output row y = 3.
    {
        let b0 = (s[4] ^ d4).rotate_left(27);
        let b1 = (s[5] ^ d0).rotate_left(36);
        let b2 = (s[11] ^ d1).rotate_left(10);
        let b3 = (s[17] ^ d2).rotate_left(15);
        let b4 = (s[23] ^ d3).rotate_left(56);
        d[15] = b0 ^ (b1 & b2);
        d[16] = b1 ^ (b2 | b3);
        d[17] = b2 ^ (!b3 | b4);
        d[18] = !(b3 ^ (b4 & b0));
        d[19] = b4 ^ (b0 | b1);
    }
    // Output row y = 4.
    {
        let b0 = (s[2] ^ d2).rotate_left(62);
        let b1 = (s[8] ^ d3).rotate_left(55);
        let b2 = (s[14] ^ d4).rotate_left(39);
        let b3 = (s[15] ^ d0).rotate_left(41);
        let b4 = (s[21] ^ d1).rotate_left(2);
        d[20] = b0 ^ (!b1 & b2);
        d[21] = !(b1 ^ (b2 | b3));
        d[22] = b2 ^ (b3 & b4);
        d[23] = b3 ^ (b4 | b0);
        d[24] = b4 ^ (b0 & b1);
    }
    // ι (Algorithm 6).
    d[0] ^= rc;
}

/// `KECCAK-p[1600, 24]` = Keccak-f\[1600\] (FIPS 202 Algorithm 7), on the
/// portable code: the same as [`f1600_portable`] (callers that may run the
/// BMI1/BMI2 permutation use [`f1600_with`](crate::f1600_with)).
///
/// Lane `A[x, y]` is `state[x + 5y]`; bytes map to lanes little-endian
/// (FIPS 202 §3.1.2 with the usual byte order of the sponge).
///
/// ```
/// let mut state = [0u64; 25];
/// pqdr_keccak::f1600(&mut state);
/// // First lane of Keccak-f[1600] on the zero state (the Keccak team's test vector).
/// assert_eq!(state[0], 0xF1258F7940E1DDE7);
/// ```
#[inline(always)]
pub fn f1600(state: &mut [u64; 25]) {
    f1600_portable(state);
}

/// Keccak-f\[1600\] on every target (24 rounds, two per iteration, six
/// lanes complemented): the portable twin of the BMI1/BMI2 permutation.
#[inline(never)]
pub fn f1600_portable(state: &mut [u64; 25]) {
    complement(state);
    let mut e = [0u64; 25];
    for rc in RC.chunks_exact(2) {
        round(state, &mut e, rc[0]);
        round(&e, state, rc[1]);
    }
    complement(state);
    // `e` holds an intermediate state (secret whenever the input is).
    e.zeroize();
}

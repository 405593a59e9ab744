//! Keccak-f\[1600\] (FIPS 202 §3.3, §3.4): the permutation under SHA3-256,
//! SHA3-512, SHAKE128 and SHAKE256.
//!
//! Each round is written out lane by lane (θ, then ρ and π into `b`, then χ,
//! then ι), so the 25 lanes stay in registers; the `keccak` crate's portable
//! backend keeps its round as nested loops, which costs about twice the
//! instructions. Checked against the `sha3` and `shake` crates in `hash`.

/// The round constants `RC[i_r]` of ι (FIPS 202 Algorithm 6), `i_r = 0..24`.
const RC: [u64; 24] = [
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

// FIPS 202 Algorithm 7: KECCAK-p[1600, 24] = Keccak-f[1600].
/// Applies Keccak-f\[1600\] to the state; lane `A[x, y]` is `a[x + 5y]`.
#[inline(never)]
pub(crate) fn f1600(state: &mut [u64; 25]) {
    let mut a = *state;
    for rc in RC {
        // θ (Algorithm 1): column parities and their combination.
        let c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
        let c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
        let c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
        let c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
        let c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        let d0 = c4 ^ c1.rotate_left(1);
        let d1 = c0 ^ c2.rotate_left(1);
        let d2 = c1 ^ c3.rotate_left(1);
        let d3 = c2 ^ c4.rotate_left(1);
        let d4 = c3 ^ c0.rotate_left(1);
        // ρ (Algorithm 2) and π (Algorithm 3): bXY = rot(A[x, y] ⊕ D[x], r[x, y])
        // lands at (X, Y) = (y, 2x + 3y mod 5).
        let b00 = a[0] ^ d0;
        let b10 = (a[6] ^ d1).rotate_left(44);
        let b20 = (a[12] ^ d2).rotate_left(43);
        let b30 = (a[18] ^ d3).rotate_left(21);
        let b40 = (a[24] ^ d4).rotate_left(14);
        let b01 = (a[3] ^ d3).rotate_left(28);
        let b11 = (a[9] ^ d4).rotate_left(20);
        let b21 = (a[10] ^ d0).rotate_left(3);
        let b31 = (a[16] ^ d1).rotate_left(45);
        let b41 = (a[22] ^ d2).rotate_left(61);
        let b02 = (a[1] ^ d1).rotate_left(1);
        let b12 = (a[7] ^ d2).rotate_left(6);
        let b22 = (a[13] ^ d3).rotate_left(25);
        let b32 = (a[19] ^ d4).rotate_left(8);
        let b42 = (a[20] ^ d0).rotate_left(18);
        let b03 = (a[4] ^ d4).rotate_left(27);
        let b13 = (a[5] ^ d0).rotate_left(36);
        let b23 = (a[11] ^ d1).rotate_left(10);
        let b33 = (a[17] ^ d2).rotate_left(15);
        let b43 = (a[23] ^ d3).rotate_left(56);
        let b04 = (a[2] ^ d2).rotate_left(62);
        let b14 = (a[8] ^ d3).rotate_left(55);
        let b24 = (a[14] ^ d4).rotate_left(39);
        let b34 = (a[15] ^ d0).rotate_left(41);
        let b44 = (a[21] ^ d1).rotate_left(2);
        // χ (Algorithm 4), row by row.
        a[0] = b00 ^ (!b10 & b20);
        a[1] = b10 ^ (!b20 & b30);
        a[2] = b20 ^ (!b30 & b40);
        a[3] = b30 ^ (!b40 & b00);
        a[4] = b40 ^ (!b00 & b10);
        a[5] = b01 ^ (!b11 & b21);
        a[6] = b11 ^ (!b21 & b31);
        a[7] = b21 ^ (!b31 & b41);
        a[8] = b31 ^ (!b41 & b01);
        a[9] = b41 ^ (!b01 & b11);
        a[10] = b02 ^ (!b12 & b22);
        a[11] = b12 ^ (!b22 & b32);
        a[12] = b22 ^ (!b32 & b42);
        a[13] = b32 ^ (!b42 & b02);
        a[14] = b42 ^ (!b02 & b12);
        a[15] = b03 ^ (!b13 & b23);
        a[16] = b13 ^ (!b23 & b33);
        a[17] = b23 ^ (!b33 & b43);
        a[18] = b33 ^ (!b43 & b03);
        a[19] = b43 ^ (!b03 & b13);
        a[20] = b04 ^ (!b14 & b24);
        a[21] = b14 ^ (!b24 & b34);
        a[22] = b24 ^ (!b34 & b44);
        a[23] = b34 ^ (!b44 & b04);
        a[24] = b44 ^ (!b04 & b14);
        // ι (Algorithm 6).
        a[0] ^= rc;
    }
    *state = a;
}

//! The public constants of the additive FFT (Gao–Mateer §3 on the basis
//! B^0 = (1, z, ..., z^(m-1)) of the Classic McEliece field, Classic McEliece spec §7),
//! computed at compile time from m and f(z): the twists, the butterfly
//! multipliers and the bit masks of the Taylor expansion.

use super::MAX_ENTRIES;
use crate::arch::{QuadMultiplier, QuadMultipliers};
use crate::params::{FIELD_POLY_M12, FIELD_POLY_M13, MAX_M, ParameterSet};
use crate::vec::{self, Bitsliced};

/// Most recursion depths (2^8 = 256 coefficients).
pub(super) const DEPTHS: usize = 8;

/// Public constants of one field (m, f(z)).
pub(super) struct Consts {
    /// Twist of depth d: position pos holds tau_d^(pos >> d).
    pub(super) twist: [Bitsliced<4>; DEPTHS],
    /// Butterfly multiplier of depth d, part from the 6 in-word position bits.
    pub(super) inner: [[u64; MAX_M]; DEPTHS],
    /// Butterfly multiplier of depth d, part from the word index w (pos = 64 w).
    pub(super) outer: [[u16; 2 * MAX_ENTRIES]; DEPTHS],
}

/// Bits of a 256-position word array where ((pos >> e) & 3) == pat.
pub(super) const TAYLOR_MASK: [[[u64; 4]; 4]; DEPTHS] = taylor_masks();

const fn taylor_masks() -> [[[u64; 4]; 4]; DEPTHS] {
    let mut out = [[[0u64; 4]; 4]; DEPTHS];
    let mut e = 0;
    while e < DEPTHS {
        let mut pos = 0;
        while pos < 256 {
            let pat = (pos >> e) & 3;
            out[e][pat][pos >> 6] |= 1 << (pos & 63);
            pos += 1;
        }
        e += 1;
    }
    out
}

/// a b in GF(2)`[z]`/(z^m + poly), for compile-time tables.
const fn cmul(a: u16, b: u16, m: usize, poly: u32) -> u16 {
    let mut r = 0u32;
    let mut i = 0;
    while i < m {
        if (b >> i) & 1 == 1 {
            r ^= (a as u32) << i;
        }
        i += 1;
    }
    let mut i = 2 * m - 2;
    while i >= m {
        if (r >> i) & 1 == 1 {
            r ^= ((1 << m) | poly) << (i - m);
        }
        i -= 1;
    }
    r as u16
}

/// 1/a (a != 0) for compile-time tables: a^(2^m - 2).
const fn cinv(a: u16, m: usize, poly: u32) -> u16 {
    let mut x = a;
    let mut i = 1;
    while i < m - 1 {
        x = cmul(cmul(x, x, m, poly), a, m, poly);
        i += 1;
    }
    cmul(x, x, m, poly)
}

/// The butterfly multiplier a'(pos) of depth d: sum over i < m - d - 1 of
/// bit (m - 1 - i) of pos times gamma^d_i (the output index is bit-reversed).
const fn multiplier(gamma: &[u16; MAX_M], m: usize, d: usize, pos: usize) -> u16 {
    let mut a = 0u16;
    let mut i = 0;
    while i + d + 1 < m {
        if (pos >> (m - 1 - i)) & 1 == 1 {
            a ^= gamma[i];
        }
        i += 1;
    }
    a
}

/// The tables for GF(2^m) with f(z) = z^m + poly (Gao–Mateer §3, basis
/// B^0 = (1, z, ..., z^(m-1))).
const fn consts(m: usize, poly: u32) -> Consts {
    let mut c = Consts {
        twist: [vec::zero::<4>(); DEPTHS],
        inner: [[0; MAX_M]; DEPTHS],
        outer: [[0; 2 * MAX_ENTRIES]; DEPTHS],
    };
    let mut basis = [0u16; MAX_M];
    let mut i = 0;
    while i < m {
        basis[i] = 1 << i;
        i += 1;
    }
    let mut d = 0;
    while d < DEPTHS {
        let dim = m - d;
        let tau = basis[dim - 1];
        let tinv = cinv(tau, m, poly);
        let mut gamma = [0u16; MAX_M];
        let mut i = 0;
        while i < dim {
            gamma[i] = cmul(basis[i], tinv, m, poly);
            i += 1;
        }
        // Twist: position pos gets tau^(pos >> d).
        let mut pw = 1u16;
        let mut j = 0;
        while j < (256 >> d) {
            let mut p = 0;
            while p < (1 << d) {
                let pos = (j << d) | p;
                let mut b = 0;
                while b < m {
                    c.twist[d][b][pos >> 6] |= (((pw >> b) & 1) as u64) << (pos & 63);
                    b += 1;
                }
                p += 1;
            }
            pw = cmul(pw, tau, m, poly);
            j += 1;
        }
        let mut pos = 0;
        while pos < 64 {
            let a = multiplier(&gamma, m, d, pos);
            let mut b = 0;
            while b < m {
                c.inner[d][b] |= (((a >> b) & 1) as u64) << pos;
                b += 1;
            }
            pos += 1;
        }
        let mut w = 0;
        while w < (1 << (m - 6)) {
            c.outer[d][w] = multiplier(&gamma, m, d, w << 6);
            w += 1;
        }
        // Next basis: gamma_i^2 + gamma_i, i < dim - 1.
        let mut i = 0;
        while i + 1 < dim {
            basis[i] = cmul(gamma[i], gamma[i], m, poly) ^ gamma[i];
            i += 1;
        }
        d += 1;
    }
    c
}

/// The values of a -> a^t at every element (t = 2^k), in the value layout
/// of `super::Values` (the element at position pos is sum_j pos_j
/// z^(m-1-j), and a -> a^(2^k) is GF(2)-linear, so a^t = sum_j pos_j
/// (z^(m-1-j))^t): the part from the 7 low position bits (in-word bits
/// and the lane) as planes, and per entry the part from its index.
pub(super) struct PowerTerm {
    /// Plane b, word l: bit b of the low part at each in-word position.
    pub(super) inner: [[u64; 2]; MAX_M],
    /// Entry e's part (the same at all its positions).
    pub(super) outer: [u16; MAX_ENTRIES],
}

/// The standard position of the element at value-array position s (s = 128
/// e + 64 l + j: entry e, word l, in-word bit j) in the layout the AVX2
/// in-word kernel's level d < 6 sees (`crate::arch::butterflies_inword`):
/// the register bit (bit 7 of s, entry bit 0) holds position bit d, in-word
/// bit j < d position bit j, in-word bit j from d to 4 position bit j + 1,
/// in-word bit 5 position bit 7; bit 6 (the word) and the entry bits from 1
/// on are unchanged. d = 0 is the FFT's kernel layout, in which the forward
/// FFT leaves its values on the AVX2 path (`super::kernel_layout`).
pub(super) const fn swapped_pos(d: usize, s: usize) -> usize {
    let mut pos = (s & !0xBF) | (((s >> 7) & 1) << d);
    let mut j = 0;
    while j < 6 {
        let to = if j < d {
            j
        } else if j < 5 {
            j + 1
        } else {
            7
        };
        pos |= ((s >> j) & 1) << to;
        j += 1;
    }
    pos
}

/// The image under a -> a^t of value-array position bit j's element
/// (`img[i]`: that of position bit i; a^t is the sum of the images of the
/// position bits), in the standard or (`kernel`) the kernel layout.
const fn image(img: &[u16; MAX_M], j: usize, kernel: bool) -> u16 {
    let pos = if kernel {
        swapped_pos(0, 1 << j)
    } else {
        1 << j
    };
    img[pos.trailing_zeros() as usize]
}

/// [`PowerTerm`] of a^(2^k) in GF(2)`[z]`/(z^m + poly), in the standard
/// layout or (`kernel`) in the kernel layout ([`swapped_pos`] at depth 0).
const fn power_term(m: usize, poly: u32, k: u32, kernel: bool) -> PowerTerm {
    let mut img = [0u16; MAX_M];
    let mut j = 0;
    while j < m {
        let mut x = 1u16 << (m - 1 - j);
        let mut i = 0;
        while i < k {
            x = cmul(x, x, m, poly);
            i += 1;
        }
        img[j] = x;
        j += 1;
    }
    let mut out = PowerTerm {
        inner: [[0; 2]; MAX_M],
        outer: [0; MAX_ENTRIES],
    };
    let mut b = 0;
    while b < m {
        let mut w = 0u64;
        let mut j = 0;
        while j < 6 {
            if (image(&img, j, kernel) >> b) & 1 == 1 {
                w ^= BIT_SET[j];
            }
            j += 1;
        }
        out.inner[b][0] = w;
        out.inner[b][1] = w ^ (((image(&img, 6, kernel) >> b) & 1) as u64).wrapping_neg();
        b += 1;
    }
    let mut e = 0;
    while e < (1 << (m - 7)) {
        let mut j = 7;
        while j < m {
            if (e >> (j - 7)) & 1 == 1 {
                out.outer[e] ^= image(&img, j, kernel);
            }
            j += 1;
        }
        e += 1;
    }
    out
}

/// The compile-time tables of a parameter set's field.
pub(super) trait FftConsts: ParameterSet {
    /// See [`Consts`].
    const FFT: Consts = consts(Self::M, Self::FIELD_POLY);
    /// a^t at every element for a power-of-two t (`super::eval_monic`; for
    /// other t the table of a^(2^trailing_zeros(t)), never read).
    const POWER_T: PowerTerm =
        power_term(Self::M, Self::FIELD_POLY, Self::T.trailing_zeros(), false);
    /// [`Self::POWER_T`] in the kernel layout (the AVX2 path's values).
    const POWER_T_KERNEL: PowerTerm =
        power_term(Self::M, Self::FIELD_POLY, Self::T.trailing_zeros(), true);
}
impl<P: ParameterSet> FftConsts for P {}

/// The butterfly multiplier of depth d at standard position pos (the part
/// from its word index plus that from its in-word bits, `Consts::outer`
/// and `Consts::inner`: the multiplier is GF(2)-linear in pos).
const fn multiplier_at(c: &Consts, d: usize, pos: usize) -> u16 {
    let mut a = c.outer[d][pos >> 6];
    let mut b = 0;
    while b < MAX_M {
        a ^= (((c.inner[d][b] >> (pos & 63)) & 1) as u16) << b;
        b += 1;
    }
    a
}

/// The butterfly multipliers of the in-word levels for the AVX2 kernel
/// (`crate::arch::butterflies_inword`), per quad of entries (4i .. 4i + 3)
/// and depth d < 6: plane b, lane w, bit j holds bit b of the multiplier of
/// the element that the kernel's level d holds there ([`swapped_pos`]`(d,
/// ..)` of value-array position 512 i + 256 (w >> 1) + 64 (w & 1) + j; the
/// register bit is position bit d, on which the multiplier does not
/// depend, so x0's U and x1's V share it; nor on the bits 0 .. d - 1,
/// the only ones where `swapped_pos(d, ..)` and the kernel layout
/// `swapped_pos(0, ..)` differ, so every level's table is its multipliers
/// in the kernel layout). Gao–Mateer §3 butterflies, the constants of
/// [`Consts`]. Index 6: the lane level (depth 6, standard
/// layout), lane w of plane b all ones if bit b of entry 4i + w's
/// multiplier is set (its multiplier has no in-word part: the `inner`
/// constants of depth 6 are zero; `lane_multiplier`'s constants). Index 7:
/// the first entry level (depth 7), lanes 0 and 1 from the multiplier of
/// entry 4i (which the pair (4i, 4i + 1) uses), lanes 2 and 3 from that of
/// entry 4i + 2 (`fwd_wide`'s `splat` of `outer[7][2 e]`).
const fn quad_multipliers(c: &Consts, m: usize) -> [QuadMultipliers; MAX_ENTRIES >> 2] {
    let mut t = [[QuadMultiplier([[0; 4]; MAX_M]); 8]; MAX_ENTRIES >> 2];
    let mut i = 0;
    while i < (1 << (m - 9)) {
        let mut b = 0;
        while b < m {
            let mut lane = 0;
            while lane < 4 {
                let bit = ((c.outer[6][2 * (4 * i + lane)] >> b) & 1) as u64;
                t[i][6].0[b][lane] = bit.wrapping_neg();
                let bit = ((c.outer[7][2 * (4 * i + (lane & 2))] >> b) & 1) as u64;
                t[i][7].0[b][lane] = bit.wrapping_neg();
                lane += 1;
            }
            b += 1;
        }
        let mut d = 0;
        while d < 6 {
            let mut lane = 0;
            while lane < 4 {
                let mut j = 0;
                while j < 64 {
                    // Value-array position of (quad i, lane, in-word bit j);
                    // the register bit is the level's own (position bit d,
                    // on which the multiplier does not depend).
                    let s = (i << 9) | ((lane >> 1) << 8) | ((lane & 1) << 6) | j;
                    let a = multiplier_at(c, d, swapped_pos(d, s));
                    let mut b = 0;
                    while b < m {
                        t[i][d].0[b][lane] |= (((a >> b) & 1) as u64) << j;
                        b += 1;
                    }
                    j += 1;
                }
                lane += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// [`quad_multipliers`] of the m = 12 field of the spec (§7). Read only on
/// the AVX2 path (after `crate::arch::avx2()` hands out a token): builds
/// without it never reference the table, so the linker drops it.
pub(super) static QUAD_M12: [QuadMultipliers; MAX_ENTRIES >> 2] =
    quad_multipliers(&consts(12, FIELD_POLY_M12), 12);

/// [`quad_multipliers`] of the m = 13 field of the spec (§7) (as
/// [`QUAD_M12`]).
pub(super) static QUAD_M13: [QuadMultipliers; MAX_ENTRIES >> 2] =
    quad_multipliers(&consts(13, FIELD_POLY_M13), 13);

/// Bits of a word whose in-word position has bit d set.
pub(super) const BIT_SET: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

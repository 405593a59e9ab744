//! Control bits of a Beneš network from a permutation (spec §2.4.2 / §3.3,
//! following the formulas of Bernstein, "Verified fast formulas for control
//! bits for permutation networks", 2020, which define the bits uniquely).
//!
//! For pi on 2^w points, with s(x) = x xor 1:
//! * p = pi s pi^-1 s, i.e. p(k) = pi(pi^-1(k xor 1) xor 1);
//! * c(x) = minimum of the cycle of p through x;
//! * first-layer bits f_j = c(2j) mod 2, F(x) = x xor f_(x/2);
//! * last-layer bits l_k = F(pi(2k)) mod 2, L(y) = y xor l_(y/2);
//! * M = F pi L, and the two halves of the middle network get
//!   M(2j)/2 and M(2j+1)/2 (recursively, their bits interleaved).
//!
//! Every composition with a secret permutation is done by sorting
//! (key << 16 | value) words with a constant-time network.
// ref: controlbits.c (`cbrecursion`, `controlbitsfrompermutation`)

use crate::benes;
use crate::ct::{cswap_u16, min_u16};
use crate::sort::{ranked, sort_u32};

/// Scratch space for [`controlbits`]: four arrays of the permutation's length.
pub(crate) struct Scratch<'a> {
    pub(crate) p: &'a mut [u16],
    pub(crate) c: &'a mut [u16],
    pub(crate) q: &'a mut [u16],
    pub(crate) a: &'a mut [u32],
}

/// out bit `pos` ^= b.
#[inline(always)]
fn put(out: &mut [u8], pos: usize, b: u16) {
    out[pos >> 3] ^= ((b & 1) as u8) << (pos & 7);
}

/// r = v o perm (r[y] = v[perm[y]]) given pinv = perm^-1, via one sort.
fn compose_by_inverse(r: &mut [u16], v: &[u16], pinv: &[u16], a: &mut [u32]) {
    for ((ax, &k), &x) in a.iter_mut().zip(pinv).zip(v) {
        *ax = (u32::from(k) << 16) | u32::from(x);
    }
    sort_u32(a);
    for (rx, ax) in r.iter_mut().zip(ranked(a)) {
        *rx = ax as u16;
    }
}

/// q = perm^-1 via one sort.
fn invert(q: &mut [u16], perm: &[u16], a: &mut [u32]) {
    for (x, (ax, &px)) in a.iter_mut().zip(perm).enumerate() {
        *ax = (u32::from(px) << 16) | x as u32;
    }
    sort_u32(a);
    for (qx, ax) in q.iter_mut().zip(ranked(a)) {
        *qx = ax as u16;
    }
}

fn recursion(
    out: &mut [u8],
    pos: usize,
    step: usize,
    pi: &mut [u16],
    w: usize,
    s: &mut Scratch<'_>,
) {
    if w == 1 {
        put(out, pos, pi[0]);
        return;
    }
    let n = pi.len();
    let half = n >> 1;
    {
        let p = &mut s.p[..n];
        let c = &mut s.c[..n];
        let q = &mut s.q[..n];
        let a = &mut s.a[..n];

        // p(k) = pi(pi^-1(k ^ 1) ^ 1): sort (pi(x) ^ 1, pi(x ^ 1)) by key.
        for (x, ax) in a.iter_mut().enumerate() {
            *ax = (u32::from(pi[x] ^ 1) << 16) | u32::from(pi[x ^ 1]);
        }
        sort_u32(a);
        for (px, ax) in p.iter_mut().zip(ranked(a)) {
            *px = ax as u16;
        }
        // c(x) = min over the cycle of p: start with min(x, p(x)), then
        // c <- min(c, c o P) with P = p^2, p^4, ... (cycles have length <= n/2).
        for (x, (cx, &px)) in c.iter_mut().zip(p.iter()).enumerate() {
            *cx = min_u16(x as u16, px);
        }
        for round in 0..w - 1 {
            invert(q, p, a); // q = P^-1
            if w <= 10 {
                // Values fit in 10 bits: one sort gives both c o P and P o P
                // (an extra c update in the first round only widens the
                // window inside the same cycle, so the minimum is unchanged).
                for (x, ax) in a.iter_mut().enumerate() {
                    *ax = (u32::from(q[x]) << 20) | (u32::from(p[x]) << 10) | u32::from(c[x]);
                }
                sort_u32(a);
                for ((cx, px), ax) in c.iter_mut().zip(p.iter_mut()).zip(ranked(a)) {
                    *cx = min_u16(*cx, (ax & 0x3FF) as u16);
                    *px = ((ax >> 10) & 0x3FF) as u16;
                }
                continue;
            }
            if round > 0 {
                // c <- min(c, c o P)
                for (ax, (&k, &cx)) in a.iter_mut().zip(q.iter().zip(c.iter())) {
                    *ax = (u32::from(k) << 16) | u32::from(cx);
                }
                sort_u32(a);
                for (cx, ax) in c.iter_mut().zip(ranked(a)) {
                    *cx = min_u16(*cx, ax as u16);
                }
            }
            if round < w - 2 {
                // P <- P o P
                for (ax, (&k, &px)) in a.iter_mut().zip(q.iter().zip(p.iter())) {
                    *ax = (u32::from(k) << 16) | u32::from(px);
                }
                sort_u32(a);
                for (px, ax) in p.iter_mut().zip(ranked(a)) {
                    *px = ax as u16;
                }
            }
        }
        // First layer: f_j = c(2j) mod 2; F(x) = x ^ f_(x/2), kept in c.
        for j in 0..half {
            let f = c[2 * j] & 1;
            put(out, pos + j * step, f);
            c[2 * j] = (2 * j) as u16 ^ f;
            c[2 * j + 1] = (2 * j + 1) as u16 ^ f;
        }
        // Fpi = F o pi, into p.
        invert(q, pi, a);
        compose_by_inverse(p, c, q, a);
        // Last layer: l_k = Fpi(2k) mod 2; M = Fpi o L swaps within pairs.
        let last = pos + (2 * w - 2) * half * step;
        for k in 0..half {
            let l = p[2 * k] & 1;
            put(out, last + k * step, l);
            let (x, y) = p.split_at_mut(2 * k + 1);
            cswap_u16(&mut x[2 * k], &mut y[0], l);
        }
        // Halves for the two middle networks.
        for j in 0..half {
            pi[j] = p[2 * j] >> 1;
            pi[half + j] = p[2 * j + 1] >> 1;
        }
    }
    let (lo, hi) = pi.split_at_mut(half);
    recursion(out, pos + half * step, 2 * step, lo, w - 1, s);
    recursion(out, pos + (half + 1) * step, 2 * step, hi, w - 1, s);
}

/// Writes the (2w - 1) 2^(w-1) control bits of `pi` (length 2^w) into `out`
/// and checks them by applying the network to the identity. `pi` is consumed
/// (overwritten). Returns whether the check passed (it always does for a
/// permutation; the caller treats a failure like any key-generation retry).
pub(crate) fn controlbits(
    out: &mut [u8],
    pi: &mut [u16],
    w: usize,
    s: &mut Scratch<'_>,
    check: &mut [u16],
) -> bool {
    out.fill(0);
    check.copy_from_slice(pi);
    recursion(out, 0, 1, pi, w, s);
    for (x, v) in pi.iter_mut().enumerate() {
        *v = x as u16;
    }
    benes::apply(pi, out, w);
    let mut diff = 0u16;
    for (a, b) in pi.iter().zip(check.iter()) {
        diff |= a ^ b;
    }
    // Public by design (libmceliece `controlbits` declassification): the
    // result of a self-check that only fails on a bug.
    pqdr_ct::hook::declassify(&mut diff);
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pi: &[u16], w: usize) -> ([u8; 256], bool) {
        let n = pi.len();
        let mut out = [0u8; 256];
        let (mut p, mut c, mut q, mut a) = ([0u16; 256], [0u16; 256], [0u16; 256], [0u32; 256]);
        let mut s = Scratch {
            p: &mut p,
            c: &mut c,
            q: &mut q,
            a: &mut a,
        };
        let mut v = [0u16; 256];
        v[..n].copy_from_slice(pi);
        let mut chk = [0u16; 256];
        let bytes = (((2 * w - 1) * n) >> 1).div_ceil(8);
        let ok = controlbits(&mut out[..bytes], &mut v[..n], w, &mut s, &mut chk[..n]);
        (out, ok)
    }

    #[test]
    fn small_known_answer() {
        // pi = (0 2 4 6 1 3 5 7): 20 control bits, value from the reference code.
        let (out, ok) = run(&[0, 2, 4, 6, 1, 3, 5, 7], 3);
        assert!(ok);
        assert_eq!(&out[..3], &[0xCA, 0x66, 0x0C]);
    }

    #[test]
    fn random_permutations_roundtrip() {
        let mut s = 99u64;
        for w in 1..=8 {
            let n = 1 << w;
            let mut pi: [u16; 256] = core::array::from_fn(|i| i as u16);
            for i in (1..n).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                #[allow(
                    clippy::integer_division_remainder_used,
                    reason = "test shuffle, public"
                )]
                let j = (s % (i as u64 + 1)) as usize;
                pi.swap(i, j);
            }
            let (_, ok) = run(&pi[..n], w);
            assert!(ok, "w = {w}");
        }
    }
}

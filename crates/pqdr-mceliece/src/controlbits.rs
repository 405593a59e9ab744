//! Control bits of a Beneš network from a permutation (Classic McEliece spec §2.4.2 / §3.3,
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
//! Every composition with a secret permutation is done by sorting with a
//! constant-time network: records whose keys and values sit in separate
//! 16-bit lanes for the levels with w >= 10, (key << 16 | value) words (or
//! three 10-bit fields in one word) below.
// ref: controlbits.c (`cbrecursion`, `controlbitsfrompermutation`)

use crate::arch;
use crate::benes;
use crate::ct::{cswap_u16, min_u16};
use crate::sort::{self, rank_pos, ranked, sort_u32};

/// [`sort::sort_records`] on the AVX2 path where there is one
/// (`arch::sort_records`, the same network).
fn sort_records<const W: usize>(r: &mut [[u16; W]]) {
    match arch::avx2() {
        Some(token) if W == 16 || W == 24 => arch::sort_records(token, r),
        _ => sort::sort_records(r),
    }
}

/// [`sort::sort_cols`] on the AVX2 path where there is one
/// (`arch::sort_cols`, the same network).
fn sort_cols(key: &mut [u16], v1: &mut [u16], v2: &mut [u16], b: usize) {
    match arch::avx2() {
        Some(token) => arch::sort_cols(token, key, v1, v2, b),
        None => sort::sort_cols(key, v1, v2, b),
    }
}

/// Levels done one subproblem at a time (fewer than [`COLS_MIN`] of them)
/// with at least this many bits use the record sorts; the smaller ones pack
/// three 10-bit fields into one `u32`. For m = 12 and 13 every such level
/// has w >= 10: the packed path serves shorter permutations (the tests).
const RECORDS_MIN_W: usize = 10;

/// Levels with at least this many subproblems sort them all together
/// ([`level_cols`]: one comparator row per pair of element rows).
const COLS_MIN: usize = 8;

/// Longest array of the packed levels.
pub(crate) const PACKED_MAX: usize = 1 << (RECORDS_MIN_W - 1);

/// Scratch space for [`controlbits`]: `p` and `c` of the permutation's
/// length n, `rec` of 3 n entries for the record sorts, `a` of
/// [`PACKED_MAX`] words for the packed ones.
pub(crate) struct Scratch<'a> {
    pub(crate) p: &'a mut [u16],
    pub(crate) c: &'a mut [u16],
    pub(crate) rec: &'a mut [u16],
    pub(crate) a: &'a mut [u32],
}

/// out bit `pos` ^= b.
#[inline(always)]
fn put(out: &mut [u8], pos: usize, b: u16) {
    out[pos >> 3] ^= ((b & 1) as u8) << (pos & 7);
}

/// First layer: f_j = c(2j) mod 2 into `out`; F(x) = x ^ f_(x/2) into c.
/// Element x of the subproblem is `c[x nb + b]` (nb = 1, b = 0 for one
/// subproblem alone; see [`level_cols`] for the column layout).
fn first_layer(
    out: &mut [u8],
    (pos, step): (usize, usize),
    c: &mut [u16],
    (nb, b): (usize, usize),
) {
    for j in 0..(c.len() >> nb.trailing_zeros()) >> 1 {
        let (i0, i1) = (2 * j * nb + b, (2 * j + 1) * nb + b);
        let f = c[i0] & 1;
        put(out, pos + j * step, f);
        c[i0] = (2 * j) as u16 ^ f;
        c[i1] = (2 * j + 1) as u16 ^ f;
    }
}

/// Last layer: l_k = Fpi(2k) mod 2 at `last + k step`, M = Fpi o L swaps
/// within pairs; then the halves of M for the two middle networks into
/// `pi` (length 2^w). Fpi's element x is `p[x nb + b]`, as in
/// [`first_layer`].
fn last_layer(
    out: &mut [u8],
    (last, step): (usize, usize),
    p: &mut [u16],
    pi: &mut [u16],
    (nb, b): (usize, usize),
) {
    let half = pi.len() >> 1;
    for k in 0..half {
        let (i0, i1) = (2 * k * nb + b, (2 * k + 1) * nb + b);
        let l = p[i0] & 1;
        put(out, last + k * step, l);
        let (x, y) = p.split_at_mut(i1);
        cswap_u16(&mut x[i0], &mut y[0], l);
    }
    for j in 0..half {
        pi[j] = p[2 * j * nb + b] >> 1;
        pi[half + j] = p[(2 * j + 1) * nb + b] >> 1;
    }
}

/// Fills the 2-field records (key, value) = `f(x)`.
#[inline(always)]
fn pack2(r: &mut [[u16; 16]], f: impl Fn(usize) -> (u16, u16)) {
    for (g, grp) in r.iter_mut().enumerate() {
        for l in 0..8 {
            let (k, v) = f(8 * g + l);
            grp[l] = k;
            grp[8 + l] = v;
        }
    }
}

/// The values of sorted 2-field records, by rank.
#[inline(always)]
fn unpack2(dst: &mut [u16], r: &[[u16; 16]]) {
    let n = dst.len();
    for (i, d) in dst.iter_mut().enumerate() {
        let (g, l) = rank_pos(n, i);
        *d = r[g][8 + l];
    }
}

/// One level down to Fpi (into `s.p`, with c in `s.c`) with record sorts
/// (n >= 8), its first-layer bits at `(pos, step)`. Not inlined: its frame
/// is then live once, not at every recursion depth.
#[inline(never)]
fn level_records(
    out: &mut [u8],
    (pos, step): (usize, usize),
    pi: &[u16],
    w: usize,
    s: &mut Scratch<'_>,
) {
    let n = pi.len();
    let ng = n >> 3;
    let (p, c, buf) = (&mut s.p[..n], &mut s.c[..n], &mut s.rec[..3 * n]);
    // p(k) = pi(pi^-1(k ^ 1) ^ 1): sort the records (pi(x) ^ 1, pi(x ^ 1)).
    let r = buf[..2 * n].as_chunks_mut::<16>().0;
    pack2(r, |x| (pi[x] ^ 1, pi[x ^ 1]));
    sort_records(r);
    unpack2(p, r);
    // c(x) = min over the cycle of p: start with min(x, p(x)), then
    // c <- min(c, c o P) and P <- P o P with P = p, p^2, p^4, ... (cycles
    // have length <= n/2, so w - 1 rounds cover them; updating c with more
    // of the same cycle leaves its minimum unchanged).
    for (x, (cx, &px)) in c.iter_mut().zip(p.iter()).enumerate() {
        *cx = min_u16(x as u16, px);
    }
    for round in 0..w - 1 {
        // The inverse of P = p^j is free: p^-1 = s p s (s = x -> x ^ 1), so
        // P^-1(x) = P(x ^ 1) ^ 1, a public re-indexing. One sort keyed by
        // P^-1 then gives, at rank y (which holds x = P(y)), the values
        // P(P(y)) and c(P(y)); the last round needs c(P(y)) only.
        if round + 2 < w {
            let r3 = buf[..3 * n].as_chunks_mut::<24>().0;
            for (g, grp) in r3.iter_mut().enumerate() {
                for l in 0..8 {
                    let x = 8 * g + l;
                    grp[l] = p[x ^ 1] ^ 1;
                    grp[8 + l] = p[x];
                    grp[16 + l] = c[x];
                }
            }
            sort_records(r3);
            for (i, (px, cx)) in p.iter_mut().zip(c.iter_mut()).enumerate() {
                let (g, l) = rank_pos(n, i);
                *px = r3[g][8 + l];
                *cx = min_u16(*cx, r3[g][16 + l]);
            }
        } else {
            let r = buf[..2 * n].as_chunks_mut::<16>().0;
            pack2(r, |x| (p[x ^ 1] ^ 1, c[x]));
            sort_records(r);
            for (i, cx) in c.iter_mut().enumerate() {
                let (g, l) = rank_pos(n, i);
                *cx = min_u16(*cx, r[g][8 + l]);
            }
        }
    }
    first_layer(out, (pos, step), c, (1, 0));
    // Fpi = F o pi, into p: with q = pi^-1 (sort (pi(x), x)), sort the
    // records (q(i), F(i)): rank y gets i = pi(y), value F(pi(y)). The
    // second records are written over the first (rank i sits in group
    // i mod n/8, lane i div n/8).
    let r = buf[..2 * n].as_chunks_mut::<16>().0;
    pack2(r, |x| (pi[x], x as u16));
    sort_records(r);
    for (g, grp) in r.iter_mut().enumerate() {
        for l in 0..8 {
            grp[l] = grp[8 + l];
            grp[8 + l] = c[g + ng * l];
        }
    }
    sort_records(r);
    unpack2(p, r);
}

/// r = v o perm (`r[y] = v[perm[y]]`) given pinv = perm^-1, via one sort.
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

/// One level down to Fpi (into `s.p`, with c in `s.c`) with packed `u32`
/// sorts (w <= 10: three 10-bit fields fit one word). Not inlined, like
/// `level_records`.
#[inline(never)]
fn level_packed(
    out: &mut [u8],
    (pos, step): (usize, usize),
    pi: &[u16],
    w: usize,
    s: &mut Scratch<'_>,
) {
    let n = pi.len();
    let (p, c) = (&mut s.p[..n], &mut s.c[..n]);
    let (q, a) = (&mut s.rec[..n], &mut s.a[..n]);
    // p(k) = pi(pi^-1(k ^ 1) ^ 1): sort (pi(x) ^ 1, pi(x ^ 1)) by key.
    for (x, ax) in a.iter_mut().enumerate() {
        *ax = (u32::from(pi[x] ^ 1) << 16) | u32::from(pi[x ^ 1]);
    }
    sort_u32(a);
    for (px, ax) in p.iter_mut().zip(ranked(a)) {
        *px = ax as u16;
    }
    // c(x) = min over the cycle of p, as in `level_records`.
    for (x, (cx, &px)) in c.iter_mut().zip(p.iter()).enumerate() {
        *cx = min_u16(x as u16, px);
    }
    for _ in 0..w - 1 {
        // P^-1(x) = P(x ^ 1) ^ 1 (see `level_records`): one sort keyed by it
        // gives both c o P and P o P.
        for (x, ax) in a.iter_mut().enumerate() {
            let qx = p[x ^ 1] ^ 1;
            *ax = (u32::from(qx) << 20) | (u32::from(p[x]) << 10) | u32::from(c[x]);
        }
        sort_u32(a);
        for ((cx, px), ax) in c.iter_mut().zip(p.iter_mut()).zip(ranked(a)) {
            *cx = min_u16(*cx, (ax & 0x3FF) as u16);
            *px = ((ax >> 10) & 0x3FF) as u16;
        }
    }
    first_layer(out, (pos, step), c, (1, 0));
    // Fpi = F o pi, into p.
    invert(q, pi, a);
    compose_by_inverse(p, c, q, a);
}

/// Bit `d` bits long `b` reversed: the subproblems of depth d are numbered
/// by their path (first choice most significant), their control bits are
/// interleaved by it (first choice least significant).
fn rev(b: usize, d: usize) -> usize {
    if d == 0 {
        0
    } else {
        b.reverse_bits() >> (usize::BITS as usize - d)
    }
}

/// One subproblem of depth d at position `pos`, `step` = 2^d: its first
/// and last layers, then its permutation `pi` (length 2^w) is replaced by the
/// two halves for the middle networks.
fn one_level(
    out: &mut [u8],
    pos: usize,
    step: usize,
    pi: &mut [u16],
    w: usize,
    s: &mut Scratch<'_>,
) {
    let n = pi.len();
    let half = n >> 1;
    if w >= RECORDS_MIN_W {
        level_records(out, (pos, step), pi, w, s);
    } else {
        level_packed(out, (pos, step), pi, w, s);
    }
    let last = pos + (2 * w - 2) * half * step;
    last_layer(out, (last, step), &mut s.p[..n], pi, (1, 0));
}

/// Every subproblem of depth d at once (2^d >= 8 of them, each on 2^w
/// points, subproblem b in `pi[b 2^w ..]`), in the column layout of
/// [`sort_cols`]: element x of subproblem b at index x 2^d + b, so each
/// sort handles all of them with whole-row comparators. The steps are those
/// of [`level_records`] and [`one_level`]; `hw` = 2^(w_top - 1).
fn level_cols(out: &mut [u8], d: usize, hw: usize, pi: &mut [u16], w: usize, s: &mut Scratch<'_>) {
    let nb = 1usize << d;
    let n = 1usize << w;
    let half = n >> 1;
    let total = nb * n;
    let (key, rest) = s.rec[..3 * total].split_at_mut(total);
    let (v1, v2) = rest.split_at_mut(total);
    let p = &mut s.p[..total];
    let c = &mut s.c[..total];
    // p(k) = pi(pi^-1(k ^ 1) ^ 1): sort the records (pi(x) ^ 1, pi(x ^ 1)).
    for x in 0..n {
        for b in 0..nb {
            key[x * nb + b] = pi[b * n + x] ^ 1;
            p[x * nb + b] = pi[b * n + (x ^ 1)];
        }
    }
    sort_cols(key, p, &mut [], nb);
    // c(x) = min over the cycle of p (see `level_records`).
    for x in 0..n {
        for b in 0..nb {
            let i = x * nb + b;
            c[i] = min_u16(x as u16, p[i]);
        }
    }
    for round in 0..w - 1 {
        // Keyed by P^-1(x) = P(x ^ 1) ^ 1: rank y gets P(P(y)) and c(P(y)).
        for x in 0..n {
            let (i, i1) = (x * nb, (x ^ 1) * nb);
            for b in 0..nb {
                key[i + b] = p[i1 + b] ^ 1;
            }
        }
        v2.copy_from_slice(c);
        if round + 2 < w {
            sort_cols(key, p, v2, nb);
        } else {
            sort_cols(key, v2, &mut [], nb);
        }
        for (cx, &vx) in c.iter_mut().zip(v2.iter()) {
            *cx = min_u16(*cx, vx);
        }
    }
    for b in 0..nb {
        first_layer(out, (d * hw + rev(b, d), nb), c, (nb, b));
    }
    // Fpi = F o pi: q = pi^-1 from the records (pi(x), x), then the records
    // (q(i), F(i)) give F(pi(y)) at rank y.
    for x in 0..n {
        for b in 0..nb {
            key[x * nb + b] = pi[b * n + x];
            v1[x * nb + b] = x as u16;
        }
    }
    sort_cols(key, v1, &mut [], nb);
    p.copy_from_slice(c);
    sort_cols(v1, p, &mut [], nb);
    for (b, sub) in pi.chunks_exact_mut(n).enumerate() {
        let last = d * hw + rev(b, d) + (2 * w - 2) * half * nb;
        last_layer(out, (last, nb), p, sub, (nb, b));
    }
}

/// The control bits of `pi` (length 2^w), level by level: at depth d the
/// 2^d subproblems on 2^(w - d) points (contiguous in `pi`), the one of
/// path b at position d 2^(w-1) + rev(b) with step 2^d.
fn all_levels(out: &mut [u8], pi: &mut [u16], w: usize, s: &mut Scratch<'_>) {
    let hw = pi.len() >> 1;
    for d in 0..w {
        let wl = w - d;
        let nb = 1usize << d;
        let n = 1usize << wl;
        if wl == 1 {
            for b in 0..nb {
                put(out, d * hw + rev(b, d), pi[2 * b]);
            }
        } else if nb >= COLS_MIN {
            level_cols(out, d, hw, pi, wl, s);
        } else {
            for b in 0..nb {
                let sub = &mut pi[b * n..(b + 1) * n];
                one_level(out, d * hw + rev(b, d), nb, sub, wl, s);
            }
        }
    }
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
    all_levels(out, pi, w, s);
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
    pqdr_ctgrind::hook::declassify(&mut diff);
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pi: &[u16], w: usize) -> ([u8; 256], bool) {
        let n = pi.len();
        let mut out = [0u8; 256];
        let (mut p, mut c, mut rec) = ([0u16; 256], [0u16; 256], [0u16; 768]);
        let mut a = [0u32; 256];
        let mut s = Scratch {
            p: &mut p,
            c: &mut c,
            rec: &mut rec,
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
            sort::test_shuffle(&mut pi[..n], &mut s);
            let (_, ok) = run(&pi[..n], w);
            assert!(ok, "w = {w}");
        }
    }
}

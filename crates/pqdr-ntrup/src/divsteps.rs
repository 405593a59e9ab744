//! The division-step schedule shared by the portable reciprocals in R/3
//! and R/q (NTRU Prime spec §2.3, `R3_recip` / `Rq_recip3`; Bernstein–Yang
//! "safegcd" divsteps): the in-place state, the `divsteps!` loop written
//! once for both rings, and the R/3 step's branch-free sign masks. The AVX2
//! twins (`arch/x86_64/recip.rs`, `recip3.rs`) have their own step loops
//! (state in registers or padded regions, per-step scalars in broadcast
//! registers) and do not use this module.

use crate::arith::f3_freeze_small;
use crate::ct;

/// The division-step state: f, g, r and v, each of p coefficients, carved
/// out of one zeroed scratch buffer, updated in place. The top coefficient
/// `f[p]` of the reversed `f` is the scalar `fp`; `g[p]` is 0 before every
/// step (each step shifts g down), so it is not stored. Coefficient p of v
/// and r never reaches the result (v only moves up), so they end at p - 1.
pub(crate) struct State<'a, T> {
    pub(crate) f: &'a mut [T],
    pub(crate) g: &'a mut [T],
    pub(crate) r: &'a mut [T],
    pub(crate) v: &'a mut [T],
    pub(crate) fp: T,
}

impl<'a, T: Copy + Default + From<i8>> State<'a, T> {
    /// f = x^p - x - 1 and g = `input` (p coefficients), both reversed; r = `r0`; v = 0.
    pub(crate) fn init<const P: usize>(
        flat: &'a mut [T],
        input: impl IntoIterator<Item = i8>,
        r0: T,
    ) -> Self {
        flat.fill(T::default());
        let (f, rest) = flat.split_at_mut(P);
        let (g, rest) = rest.split_at_mut(P);
        let (r, rest) = rest.split_at_mut(P);
        let v = &mut rest[..P];
        r[0] = r0;
        f[0] = T::from(1);
        f[P - 1] = T::from(-1);
        for (gi, x) in g.iter_mut().rev().zip(input) {
            *gi = T::from(x);
        }
        State {
            f,
            g,
            r,
            v,
            fp: T::from(-1),
        }
    }
}

/// The `2p - 1` division steps on a [`State`], written once for both rings.
/// Each step computes the constant terms with `terms`, the swap decision and
/// `delta`, then runs the ring's per-step statements, which define `swap`
/// (the conditional swap of two coefficients), `lane` (one coefficient: swap
/// `(f, g)`, return the eliminated `g`), `rows_fg` and `rows_vr` (the whole
/// blocks of `L` lanes of one step, contracts below). Every array is updated
/// in place, position by position: no second copy of g or v is kept.
///
/// `rows_fg(f, g, nb)`: for the `nb` blocks at positions `1..1 + nb L`,
/// swap `(f[i], g[i])` and eliminate, storing the new `g[i]` at `i - 1` (g
/// divided by x); the lanes above follow one by one. `rows_vr(v, r, nb)`,
/// called after the lanes above `1 + nb L` are done: for `i` in
/// `1..1 + nb L`, the old `v[i - 1]` and `r[i]` swap and eliminate, and the
/// new v goes to `v[i]` (v multiplied by x). The portable passes
/// (`rows_fg_moved`, `rows_vr_moved`) work in place and move the block
/// part once. Both passes also get the end (`m`, `mv`) of the coefficients that matter.
/// Evaluates to the final `(f, v, delta)`.
macro_rules! divsteps {
    (
        $P:expr, $L:expr, $state:expr, terms: $terms:expr,
        per_step($f0:ident, $g0:ident, $swap:ident) { $($body:tt)* }
        swap: $swp:ident, lane: $lane:ident, rows_fg: $rfg:ident, rows_vr: $rvr:ident $(,)?
    ) => {{
        let State { f, g, r, v, mut fp } = $state;
        let mut delta: i32 = 1;
        const { assert!($L.is_power_of_two()) };

        for k in 0..2 * $P - 1 {
            // Coefficients of f and g that still matter (f[p] included when n = p + 1),
            // and the length of v and r so far (degree <= k).
            let n = (2 * $P - 1 - k).min($P + 1);
            let m = n.min($P);
            let mv = (k + 1).min($P);
            let ($f0, $g0) = ($terms)(f[0], g[0]);
            let $swap = ct::positive_i32(delta) & ct::nonzero_i32(i32::from($g0));
            // delta = swap ? -delta : delta; then + 1
            let dm = ct::mask_i32($swap);
            delta = ((delta ^ dm).wrapping_sub(dm)).wrapping_add(1);
            $($body)*

            // f, g: swap, eliminate, divide g by x: the blocks, then the
            // lanes above them (each reads g[i] before g[i] is stored over).
            f[0] = $swp(f[0], g[0]).0;
            // Whole blocks (L a power of two: a shift, no division).
            let nb = (m - 1) >> const { $L.trailing_zeros() };
            $rfg(&mut *f, &mut *g, nb, m);
            {
                // The lanes above the blocks through a copy, so the loop
                // has no overlapping slices (and vectorises).
                let lo = 1 + nb * $L;
                if lo < m {
                    let t = m - lo;
                    let mut tmp = [0; $L];
                    tmp[..t].copy_from_slice(&g[lo..m]);
                    for (fi, gi) in f[lo..m].iter_mut().zip(tmp[..t].iter_mut()) {
                        *gi = $lane(fi, *gi);
                    }
                    g[lo - 1..m - 1].copy_from_slice(&tmp[..t]);
                }
            }
            if n == $P + 1 {
                // f[p] against g[p] = 0.
                g[$P - 1] = $lane(&mut fp, 0);
            } else {
                g[n - 1] = 0;
            }

            // v, r: v <- x v, swap with r, eliminate in r: the lanes above
            // the blocks first (the old v[lo - 1] is read before the top
            // block is stored over it), then the blocks, then v[0] = 0.
            let nbv = (mv - 1) >> const { $L.trailing_zeros() };
            {
                let lo = 1 + nbv * $L;
                if lo < mv {
                    let t = mv - lo;
                    let mut tmp = [0; $L];
                    tmp[..t].copy_from_slice(&v[lo - 1..mv - 1]);
                    for (vi, ri) in tmp[..t].iter_mut().zip(r[lo..mv].iter_mut()) {
                        *ri = $lane(vi, *ri);
                    }
                    v[lo..mv].copy_from_slice(&tmp[..t]);
                }
            }
            $rvr(&mut *v, &mut *r, nbv, mv);
            let mut v0 = 0;
            r[0] = $lane(&mut v0, r[0]);
            v[0] = v0;
        }
        (f, v, delta)
    }};
}
pub(crate) use divsteps;

/// The R/3 division step's multiplier `sign = -f0 * g0` (it eliminates the
/// constant term whichever way the step swapped) as masks `(nz, neg)`, so
/// that `sign * x = (x & nz) ^ neg - neg` without a branch.
#[inline(always)]
pub(crate) fn r3_sign_masks(f0: i8, g0: i8) -> (i8, i8) {
    let sign = f0.wrapping_mul(g0).wrapping_neg();
    #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
    let nz = ct::mask_i8(ct::choice_from_bit((sign & 1) as u8));
    #[allow(clippy::cast_sign_loss, reason = "bit extraction")]
    let neg = ct::mask_i8(ct::choice_from_bit(((sign >> 1) & 1) as u8));
    (nz, neg)
}

/// One coefficient of the R/3 division step: swap `(f, g)` under `sm`,
/// keep the new `f`, return `g + sign * f` in {-1, 0, 1}.
#[inline(always)]
pub(crate) fn r3_lane(f: &mut i8, g: i8, sm: i8, nz: i8, neg: i8) -> i8 {
    let (a, b) = ct::cswap_i8(*f, g, sm);
    *f = a;
    f3_freeze_small(b.wrapping_add(((a & nz) ^ neg).wrapping_sub(neg)))
}

/// The portable `rows_fg` of `divsteps!`: the `nb` blocks of `L` lanes at
/// `1..1 + nb L` in place with `blk` (swap `(f, g)`, return the eliminated
/// g), then one move of that part of g down by one. With `barrier`, each
/// block's result goes through `black_box`, which keeps the loop vectoriser
/// off the loop (for 8-lane i16 blocks it would interleave the lanes of 4
/// blocks, three times slower than the blocks as vectors).
#[inline(always)]
pub(crate) fn rows_fg_moved<T: Copy, const L: usize>(
    f: &mut [T],
    g: &mut [T],
    nb: usize,
    mut blk: impl FnMut(&mut [T; L], &[T; L]) -> [T; L],
    barrier: bool,
) {
    let end = 1 + nb * L;
    let (fb, _) = f[1..end].as_chunks_mut::<L>();
    let (gb, _) = g[1..end].as_chunks_mut::<L>();
    for (fc, gc) in fb.iter_mut().zip(gb.iter_mut()) {
        *gc = blk(fc, gc);
        if barrier {
            core::hint::black_box(&*gc);
        }
    }
    g.copy_within(1..end, 0);
}

/// The portable `rows_vr` of `divsteps!`: one move of `v[..nb L]` up by
/// one, then the `nb` blocks at `1..1 + nb L` in place with `blk` (swap
/// `(v, r)`, return the eliminated r); `barrier` as in `rows_fg_moved`.
#[inline(always)]
pub(crate) fn rows_vr_moved<T: Copy, const L: usize>(
    v: &mut [T],
    r: &mut [T],
    nb: usize,
    mut blk: impl FnMut(&mut [T; L], &[T; L]) -> [T; L],
    barrier: bool,
) {
    let end = 1 + nb * L;
    v.copy_within(..end - 1, 1);
    let (vb, _) = v[1..end].as_chunks_mut::<L>();
    let (rb, _) = r[1..end].as_chunks_mut::<L>();
    for (vc, rc) in vb.iter_mut().zip(rb.iter_mut()) {
        *rc = blk(vc, rc);
        if barrier {
            core::hint::black_box(&*rc);
        }
    }
}

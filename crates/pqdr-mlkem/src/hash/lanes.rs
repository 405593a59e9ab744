//! The `PRF` streams of `K-PKE` packed into the 4-way Keccak-f\[1600\]
//! (FIPS 203 §4.1 `PRF_η`; FIPS 202 §4, §6.2): four nonces per call
//! ([`prf_x4_riding`]), the `k = 2` encryption's five streams in two calls
//! ([`prf_x4_encrypt_k2`]), and [`PrfRider`], which runs `e₁`, `e₂` of the
//! `k = 3` encryption one per permutation in a spare lane. A spare lane may
//! carry another [`LaneRider`] (`J(z ‖ c)` in decapsulation).

#![allow(
    clippy::cast_possible_truncation,
    reason = "nonces below 2k + 1 ≤ 9 are stored in a byte"
)]

use pqdr_common::simd::Avx2;
use pqdr_keccak::{RATE_SHAKE256, StateX4};
use zeroize::{Zeroize, Zeroizing};

use super::LaneRider;
use crate::params::MAX_ETA;

/// The SHAKE256 state of `PRF(s, b)` after absorbing and padding `s ‖ b`
/// (FIPS 203 §4.1; FIPS 202 §4, §5.1, §6.2), before its first permutation:
/// `s` in lanes 0–3, `b` and the domain bits `1111` in lane 4, the last
/// padding bit at the end of the rate.
#[inline(always)]
fn prf_start(s: &[u8; 32], b: u8) -> [u64; 25] {
    let mut st = [0u64; 25];
    for (lane, w) in st.iter_mut().zip(s.as_chunks::<8>().0) {
        *lane = u64::from_le_bytes(*w);
    }
    st[4] = u64::from(b) | (u64::from(pqdr_keccak::PAD_SHAKE) << 8);
    st[(RATE_SHAKE256 >> 3) - 1] = 0x80 << 56;
    st
}

/// Puts `st` into lane `l` of the four states.
#[inline(always)]
fn put_lane(x4: &mut StateX4, l: usize, st: &[u64; 25]) {
    for (lane, w) in x4.iter_mut().zip(st) {
        lane[l] = *w;
    }
}

/// The first 136 bytes (the SHAKE256 rate) of lane `l`, little-endian.
#[inline(always)]
fn read_lane(x4: &StateX4, l: usize, out: &mut [u8]) {
    for (o, lane) in out.as_chunks_mut::<8>().0.iter_mut().zip(x4) {
        *o = lane[l].to_le_bytes();
    }
}

/// One 4-way permutation of `x4`; if `rider` has a block ready, it rides
/// in lane 3 (whose own content the caller no longer needs). Branches on
/// the rider's lengths only.
#[inline(always)]
fn permute_riding(
    backend: Option<Avx2>,
    x4: &mut StateX4,
    rider: &mut Option<&mut (dyn LaneRider + '_)>,
) {
    let riding = match rider.as_deref_mut() {
        Some(r) if r.pending() => {
            r.load_next();
            put_lane(x4, 3, r.state_mut());
            true
        }
        _ => false,
    };
    pqdr_keccak::f1600_x4(backend, x4);
    if let Some(r) = rider.as_deref_mut().filter(|_| riding) {
        for (w, lane) in r.state_mut().iter_mut().zip(x4.iter()) {
            *w = lane[3];
        }
        r.permuted();
    }
}

/// `PRF_η₂(s, b)` (FIPS 203 §4.1, one SHAKE256 block: `η₂ = 2`) for the
/// nonces `first..first + count`, one per permutation, riding in the spare
/// lane of the 4-way Keccak-f\[1600\] while `K-PKE.Encrypt` samples `ŷ` and
/// a column of `Â` (`k = 3` encapsulation: `e₁`, `e₂` need no batch of
/// their own). Nonce `first + n` writes `out[len·n..len·(n + 1)]`;
/// [`Self::finish`] runs those left on the scalar permutation. The state
/// is zeroized (it holds the secret seed).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
pub(crate) struct PrfRider<'a> {
    state: [u64; 25],
    seed: &'a [u8; 32],
    /// The nonce of the stream loaded or next to load.
    next: u8,
    end: u8,
    first: u8,
    len: usize,
    out: &'a mut [u8],
}

#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
impl<'a> PrfRider<'a> {
    /// The streams of nonces `first..first + count`, `len ≤ 136` bytes each.
    pub(crate) fn new(
        seed: &'a [u8; 32],
        first: u8,
        count: u8,
        len: usize,
        out: &'a mut [u8],
    ) -> Self {
        debug_assert!(len <= RATE_SHAKE256 && out.len() >= len * usize::from(count));
        Self {
            state: [0; 25],
            seed,
            next: first,
            end: first + count,
            first,
            len,
            out,
        }
    }

    /// Runs the streams not yet done on the scalar Keccak-f\[1600\].
    pub(crate) fn finish(mut self) {
        while self.pending() {
            self.load_next();
            pqdr_keccak::f1600_with(crate::arch::keccak_bmi(), &mut self.state);
            self.permuted();
        }
    }
}

impl Drop for PrfRider<'_> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl LaneRider for PrfRider<'_> {
    #[inline(always)]
    fn pending(&self) -> bool {
        self.next < self.end
    }
    #[inline(always)]
    fn load_next(&mut self) {
        self.state = prf_start(self.seed, self.next);
    }
    #[inline(always)]
    fn state_mut(&mut self) -> &mut [u64; 25] {
        &mut self.state
    }
    #[inline(always)]
    fn permuted(&mut self) {
        let o = usize::from(self.next - self.first) * self.len;
        if let Some(out) = self.out.get_mut(o..o + self.len) {
            let mut block = [0u8; RATE_SHAKE256];
            read_lane1(&self.state, &mut block);
            out.copy_from_slice(&block[..self.len]);
            block.zeroize();
        }
        self.next += 1;
    }
}

/// The first 136 bytes (the SHAKE256 rate) of a state, little-endian.
#[inline(always)]
fn read_lane1(st: &[u64; 25], out: &mut [u8; RATE_SHAKE256]) {
    for (o, lane) in out.as_chunks_mut::<8>().0.iter_mut().zip(st) {
        *o = lane.to_le_bytes();
    }
}

/// `PRF_η(s, b)` (FIPS 203 §4.1) for four nonces `b` at once on the 4-way
/// SHAKE256 (`backend`): instance `l` writes `out[l]`, whose first `64η`
/// bytes are `PRF_η(s, nonces[l])` (`B`, a multiple of the SHAKE256 rate,
/// is at least `64η`). The reference the packed calls are tested against.
#[cfg(test)]
pub(crate) fn prf_x4<const B: usize>(
    backend: Option<Avx2>,
    s: &[u8; 32],
    nonces: [u8; 4],
    out: &mut [[u8; B]; 4],
) {
    prf_x4_riding(backend, s, nonces, 4, out, None);
}

/// `prf_x4` (four `PRF_η` streams) for the first `live` nonces only: when
/// `live < 4`, lane 3 is spare and `rider` (`J(z ‖ c)` in decapsulation)
/// rides in it on each permutation while it has a block ready. Only `out[..live]` is written.
/// The states are zeroized (they hold the secret seed).
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(always)]
pub(crate) fn prf_x4_riding<const B: usize>(
    backend: Option<Avx2>,
    s: &[u8; 32],
    nonces: [u8; 4],
    live: usize,
    out: &mut [[u8; B]; 4],
    rider: Option<&mut (dyn LaneRider + '_)>,
) {
    const { assert!(B > 0 && B.is_multiple_of(RATE_SHAKE256)) };
    let mut rider = if live < 4 { rider } else { None };
    let mut x4: StateX4 = [[0; 4]; 25];
    for (l, &b) in nonces.iter().enumerate() {
        let mut start = prf_start(s, b);
        put_lane(&mut x4, l, &start);
        start.zeroize();
    }
    for off in (0..B).step_by(RATE_SHAKE256) {
        permute_riding(backend, &mut x4, &mut rider);
        for (l, o) in out.iter_mut().enumerate().take(live) {
            read_lane(&x4, l, &mut o[off..off + RATE_SHAKE256]);
        }
    }
    x4.zeroize();
}

/// `PRF_η(seed, first + n)` (FIPS 203 §4.1) for the `count` nonces
/// `n < count`, four at a time on the 4-way SHAKE256 (`backend`):
/// `f(n, bytes)` receives at least `64 · eta(n)` bytes of output, a prefix of
/// which is `PRF_η` for any smaller `η` (SHAKE256 output is a stream). Spare
/// lanes of the last batch run on unused nonces. The buffers are zeroized.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(always)]
pub(crate) fn prf_batches(
    backend: Option<Avx2>,
    seed: &[u8; 32],
    first: usize,
    count: usize,
    eta: impl Fn(usize) -> usize,
    mut f: impl FnMut(usize, &[u8]),
    mut rider: Option<&mut dyn LaneRider>,
) {
    const { assert!(64 * 2 <= RATE_SHAKE256 && 64 * MAX_ETA <= 2 * RATE_SHAKE256) };
    let mut start = 0;
    while start < count {
        let nonces = core::array::from_fn(|l| (first + start + l) as u8);
        // One SHAKE256 block covers η = 2, two blocks η = 3.
        let eta_max = (start..count.min(start + 4)).map(&eta).max().unwrap_or(2);
        // A spare lane (the last batch) carries `rider`'s next block.
        let live = (count - start).min(4);
        let r = rider.as_deref_mut();
        if eta_max <= 2 {
            let mut out = Zeroizing::new([[0u8; RATE_SHAKE256]; 4]);
            prf_x4_riding(backend, seed, nonces, live, &mut out, r);
            for (l, o) in out.iter().enumerate().take(count - start) {
                f(start + l, o);
            }
        } else {
            let mut out = Zeroizing::new([[0u8; 2 * RATE_SHAKE256]; 4]);
            prf_x4_riding(backend, seed, nonces, live, &mut out, r);
            for (l, o) in out.iter().enumerate().take(count - start) {
                f(start + l, o);
            }
        }
        start += 4;
    }
}

/// The five `PRF` streams of `K-PKE.Encrypt` for `k = 2` (Algorithm 14,
/// lines 9–16: `ŷ` from nonces 0, 1 with `η₁ = 3`, 192 bytes = two SHAKE256
/// blocks each; `e₁` from nonces 2, 3 and `e₂` from nonce 4 with
/// `η₂ = 2`, one block each) in two 4-way permutations instead of three:
/// the first serves nonces 0–3, the second continues nonces 0 and 1 and
/// starts nonce 4 in lane 2, with `rider` in lane 3. `y[i]` receives the
/// 272 bytes of nonce `i`, `e[n]` the 136 of nonce `2 + n`. The states are
/// zeroized.
#[cfg_attr(
    feature = "small-stack",
    allow(dead_code, reason = "used by the default K-PKE only")
)]
#[inline(always)]
pub(crate) fn prf_x4_encrypt_k2(
    backend: Option<Avx2>,
    s: &[u8; 32],
    y: &mut [[u8; 2 * RATE_SHAKE256]; 2],
    e: &mut [[u8; RATE_SHAKE256]; 3],
    rider: Option<&mut dyn LaneRider>,
) {
    let mut rider = rider;
    let mut x4: StateX4 = [[0; 4]; 25];
    for l in 0..4u8 {
        let mut start = prf_start(s, l);
        put_lane(&mut x4, usize::from(l), &start);
        start.zeroize();
    }
    pqdr_keccak::f1600_x4(backend, &mut x4);
    for (l, o) in y.iter_mut().enumerate() {
        read_lane(&x4, l, &mut o[..RATE_SHAKE256]);
    }
    let [e0, e1, e2] = e;
    read_lane(&x4, 2, e0);
    read_lane(&x4, 3, e1);
    let mut start = prf_start(s, 4);
    put_lane(&mut x4, 2, &start);
    start.zeroize();
    permute_riding(backend, &mut x4, &mut rider);
    for (l, o) in y.iter_mut().enumerate() {
        read_lane(&x4, l, &mut o[RATE_SHAKE256..]);
    }
    read_lane(&x4, 2, e2);
    x4.zeroize();
}

#[cfg(test)]
mod tests {
    use super::super::{JRider, j, prf};
    use super::*;

    #[test]
    fn prf_x4_matches_prf() {
        let s: [u8; 32] = core::array::from_fn(|i| (i * 5 + 1) as u8);
        for backend in [crate::arch::keccak_avx2(), None] {
            let mut out = [[0u8; 2 * 136]; 4];
            prf_x4(backend, &s, [7, 0, 255, 3], &mut out);
            for (l, n) in [7u8, 0, 255, 3].into_iter().enumerate() {
                let mut want = [0u8; 64 * MAX_ETA];
                prf(&s, n, &mut want);
                assert_eq!(out[l][..64 * MAX_ETA], want);
            }
        }
    }

    /// The packed and riding PRF calls against the scalar `PRF`, with `J`
    /// riding (checked against the one-go `J`) and without.
    #[test]
    fn prf_riding_matches_prf() {
        let s: [u8; 32] = core::array::from_fn(|i| (i * 5 + 1) as u8);
        let z = [9u8; 32];
        let c: [u8; 300] = core::array::from_fn(|i| (i * 3) as u8);
        let mut want_j = [0u8; 32];
        j(&[&z, &c], &mut want_j);
        let want = |n: u8| {
            let mut w = [0u8; 64 * MAX_ETA];
            prf(&s, n, &mut w);
            w
        };
        for backend in [crate::arch::keccak_avx2(), None] {
            for ride in [false, true] {
                let mut rider = JRider::new(&z, &c);
                let mut y = [[0u8; 2 * 136]; 2];
                let mut e = [[0u8; 136]; 3];
                let r = ride.then_some(&mut rider as &mut dyn LaneRider);
                prf_x4_encrypt_k2(backend, &s, &mut y, &mut e, r);
                for (n, yn) in (0u8..).zip(&y) {
                    assert_eq!(yn[..192], want(n)[..192]);
                }
                for (n, en) in (2u8..).zip(&e) {
                    assert_eq!(en[..128], want(n)[..128]);
                }
                for live in 1..=4 {
                    let mut out = [[0u8; 2 * 136]; 4];
                    let r = ride.then_some(&mut rider as &mut dyn LaneRider);
                    prf_x4_riding(backend, &s, [7, 0, 255, 3], live, &mut out, r);
                    for (l, n) in [7u8, 0, 255, 3].into_iter().enumerate().take(live) {
                        assert_eq!(out[l][..64 * MAX_ETA], want(n));
                    }
                }
                let mut got_j = [0u8; 32];
                rider.finish(&mut got_j);
                assert_eq!(got_j, want_j);
            }
        }
    }

    /// [`PrfRider`]: streams permuted in a lane by hand, the rest by
    /// `finish`, against the scalar `PRF`.
    #[test]
    fn prf_rider_matches_prf() {
        let s: [u8; 32] = core::array::from_fn(|i| (i * 11 + 3) as u8);
        for by_hand in 0..=4 {
            let mut out = [0u8; 4 * 128];
            let mut r = PrfRider::new(&s, 3, 4, 128, &mut out);
            for _ in 0..by_hand {
                if r.pending() {
                    r.load_next();
                    let mut x4: StateX4 = [[0; 4]; 25];
                    put_lane(&mut x4, 3, r.state_mut());
                    pqdr_keccak::f1600_x4(crate::arch::keccak_avx2(), &mut x4);
                    for (w, lane) in r.state_mut().iter_mut().zip(x4.iter()) {
                        *w = lane[3];
                    }
                    r.permuted();
                }
            }
            r.finish();
            for n in 0..4u8 {
                let mut want = [0u8; 128];
                prf(&s, 3 + n, &mut want);
                let o = usize::from(n) * 128;
                assert_eq!(out[o..o + 128], want, "by hand {by_hand} nonce {n}");
            }
        }
    }
}

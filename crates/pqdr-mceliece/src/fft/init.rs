//! The FFT into an uninitialised value array (`Decode`'s weights, Classic
//! McEliece spec §2.3.3): its first write, the depth-k values (Gao–Mateer
//! Algorithm 2), covers every slot, so the array needs no zero-fill first.
#![allow(
    clippy::needless_range_loop,
    reason = "planes of two bitsliced arrays are walked in step"
)]

use super::{Values, add_power_t, butterflies, monic_input, radix_fwd, zero_values};
use crate::params::ParameterSet;
use crate::vec::Bitsliced;
use core::mem::MaybeUninit;

/// [`super::eval_monic`] into an uninitialised array (no zero-fill first on AVX2,
/// see [`fft_init`]), which it returns initialised.
pub(crate) fn eval_monic_init<'a, P: ParameterSet>(
    slot: &'a mut MaybeUninit<Values>,
    low: &Bitsliced<4>,
) -> &'a mut Values {
    let (f, k) = monic_input::<P>(low);
    let out = fft_init::<P>(slot, &f, k);
    add_power_t::<P>(out);
    out
}

/// [`super::fft`] into an uninitialised array, which it returns initialised: on
/// AVX2 every slot is written once (`crate::arch::spread_init`, zero
/// outside the set's entries and planes), so no zero-fill comes first.
pub(super) fn fft_init<'a, P: ParameterSet>(
    slot: &'a mut MaybeUninit<Values>,
    f: &Bitsliced<4>,
    k: usize,
) -> &'a mut Values {
    let x = radix_fwd::<P>(f, k);
    let out = match crate::arch::avx2() {
        Some(token) if matches!(P::M, 12 | 13) => {
            crate::arch::spread_init(token, P::M, slot, &x, (1 << k) >> 6)
        }
        _ => {
            let out = slot.write(zero_values());
            spread::<P>(out, &x, k);
            out
        }
    };
    butterflies::<P>(out, k);
    out
}

/// Depth k of the FFT (Gao–Mateer Algorithm 2): the 2^k converted
/// coefficients `x`, each the value on its whole coset, spread over the
/// set's entries (word 2e and 2e + 1 of each plane, mod 2^k / 64). The
/// portable twin of `crate::arch::spread_init` (which also zeroes the
/// rest).
#[inline(always)]
pub(super) fn spread<P: ParameterSet>(out: &mut Values, x: &Bitsliced<4>, k: usize) {
    let words = (1usize << k) >> 6;
    for (e, v) in out.iter_mut().enumerate().take(1 << (P::M - 7)) {
        for b in 0..P::M {
            v[b] = [x[b][(2 * e) & (words - 1)], x[b][(2 * e + 1) & (words - 1)]];
        }
    }
}

#[cfg(all(test, feature = "mceliece348864", feature = "mceliece6960119"))]
mod tests {
    use super::*;
    use crate::params::{Mceliece348864, Mceliece6960119, Mceliece8192128};
    use crate::test_util::xorshift;
    use crate::vec;

    /// `arch::spread_init` against `spread` on a zero-filled array, k = 6,
    /// 7, 8 (one, two, four words per plane): random words (the planes
    /// from m on and the words from 2^k / 64 on set too), all ones, and
    /// single bits in the first and last word of the first and last plane.
    fn check_spread<P: ParameterSet>(seed: u64) {
        let Some(token) = crate::arch::avx2() else {
            return;
        };
        let mut s = seed;
        for k in 6..=8 {
            let last = ((1 << k) >> 6) - 1;
            for round in 0..8 {
                let mut x = vec::zero::<4>();
                match round {
                    0 => x.as_flattened_mut().fill(!0),
                    1 => x[0][0] = 1,
                    2 => x[P::M - 1][last] = 1 << 63,
                    3 => x[0][last] = 1 << 63,
                    _ => x.as_flattened_mut().iter_mut().for_each(|w| {
                        *w = xorshift(&mut s);
                    }),
                }
                let mut want = zero_values();
                spread::<P>(&mut want, &x, k);
                let mut slot = MaybeUninit::<Values>::uninit();
                let got = crate::arch::spread_init(token, P::M, &mut slot, &x, (1 << k) >> 6);
                assert_eq!(*got, want, "k {k} round {round}");
            }
        }
    }

    #[test]
    fn avx2_spread_init_matches_portable() {
        check_spread::<Mceliece348864>(7);
        check_spread::<Mceliece6960119>(8);
        check_spread::<Mceliece8192128>(9);
    }
}

//! The pair-wise consistency test of key generation (feature `self-test`,
//! FIPS 140-3 IG 10.3.A), a part of key generation: the key-generation entry
//! points of [`super`] call it, and `crate::self_test` re-exports
//! [`pairwise_consistency`] beside the known-answer tests.

use pqdr_common::self_test::pairwise_consistent;

use super::{DecapsulationKey, EncapsulationKey};
use crate::error::Error;
use crate::params::{ByteArray, ParameterSet};

/// `Small_encode(r)` of the fixed short `r = (1, …, 1, 0, …, 0)` (w ones)
/// the pair-wise consistency test encapsulates with: any short `r` works
/// (ciphertext and key are discarded), and a fixed one leaves the RNG draws
/// of key generation as the spec and the KAT files have them.
pub(crate) fn pct_input<S: ParameterSet>() -> S::InputBytes {
    let mut enc = S::InputBytes::zeroed();
    for (i, byte) in enc.as_mut().iter_mut().enumerate() {
        for j in 0..4 {
            let k = 4 * i + j;
            // Small_encode fields (NTRU Prime spec §3.1): c + 1, so +1 is 2, 0 is 1.
            let v: u8 = if k < S::W {
                2
            } else if k < S::P {
                1
            } else {
                0
            };
            *byte |= v << (2 * j);
        }
    }
    enc
}

/// The pair-wise consistency test (FIPS 140-3 IG 10.3.A, run after every key
/// generation with the feature `self-test`): encapsulates to `ek` with a
/// fixed short `r` and decapsulates with `dk`; the two shared secrets must
/// be equal ([`pqdr_common::self_test::pairwise_consistent`]: compared in
/// constant time, both wiped on drop). The only branch on the outcome is
/// the final pass or fail.
///
/// # Errors
/// [`Error::PairwiseConsistency`] if they differ: `dk` and `ek` are not a
/// pair, which after key generation means a hardware or memory fault.
#[inline(never)]
pub fn pairwise_consistency<S: ParameterSet>(
    dk: &DecapsulationKey<S>,
    ek: &EncapsulationKey<S>,
) -> Result<(), Error> {
    let consistent = pairwise_consistent(
        || ek.encapsulate_deterministic(&pct_input::<S>()).ok(),
        |c| dk.decapsulate(c),
    );
    if consistent {
        Ok(())
    } else {
        Err(Error::PairwiseConsistency)
    }
}

/// [`pairwise_consistency`] for the infallible key-generation entry points.
///
/// # Panics
/// If the test fails (a fault, never an input).
#[inline(never)]
pub(crate) fn assert_pairwise_consistent<S: ParameterSet>(
    dk: &DecapsulationKey<S>,
    ek: &EncapsulationKey<S>,
) {
    if pairwise_consistency(dk, ek).is_err() {
        panic!("NTRU Prime pair-wise consistency test failed: hardware or memory fault");
    }
}

//! The pair-wise consistency test of key generation (feature `self-test`,
//! FIPS 140-3 IG 10.3.A), a part of key generation: the key-generation entry
//! points of [`super`] call it, and `crate::self_test` re-exports
//! [`pairwise_consistency`] beside the known-answer tests.

use pqdr_common::self_test::pairwise_consistent;

use super::{DecapsulationKey, EncapsulationKey};
use crate::error::Error;
use crate::params::ParameterSet;

/// The fixed message of the pair-wise consistency test: any value works (the
/// ciphertext and key are discarded), and a fixed one leaves the RNG draws
/// of key generation as FIPS 203 and the KAT files have them.
const PCT_M: [u8; 32] = [0x5a; 32];

/// The pair-wise consistency test (FIPS 140-3 IG 10.3.A, run after every key
/// generation with the feature `self-test`): encapsulates to `ek` with a
/// fixed `m` and decapsulates with `dk`; the two shared secrets must be
/// equal ([`pqdr_common::self_test::pairwise_consistent`]: compared in
/// constant time, both wiped on drop). The only branch on the outcome is the
/// final pass or fail.
///
/// # Errors
/// [`Error::PairwiseConsistency`] if they differ: `dk` and `ek` are not a
/// pair, which after key generation means a hardware or memory fault.
pub fn pairwise_consistency<P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    ek: &EncapsulationKey<P>,
) -> Result<(), Error> {
    let consistent = pairwise_consistent(
        || Some(ek.encapsulate_deterministic(&PCT_M)),
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
pub(crate) fn assert_pairwise_consistent<P: ParameterSet>(
    dk: &DecapsulationKey<P>,
    ek: &EncapsulationKey<P>,
) {
    if pairwise_consistency(dk, ek).is_err() {
        panic!("ML-KEM pair-wise consistency test failed: hardware or memory fault");
    }
}

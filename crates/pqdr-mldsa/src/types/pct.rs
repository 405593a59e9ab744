//! The pair-wise consistency test of key generation (feature `self-test`,
//! FIPS 140-3 IG 10.3.A), a part of key generation: the key-generation entry
//! points of [`super`] call it, and `crate::self_test` re-exports
//! [`pairwise_consistency`] beside the known-answer tests.

use super::{SigningKey, VerifyingKey};
use crate::error::Error;
use crate::params::ParameterSet;

/// The fixed message of the pair-wise consistency test (any value works;
/// the signature is discarded).
const PCT_MESSAGE: &[u8] = b"pqdr-mldsa pair-wise consistency test";

/// The pair-wise consistency test (FIPS 140-3 IG 10.3.A, run after every key
/// generation with the feature `self-test`): signs a fixed message with `sk`
/// (`Sign_internal`, deterministic) and verifies it with `vk`. Signing
/// releases only what FIPS 204 makes public (the rejection decisions, the
/// signature), and verification works on public data, so the only new
/// branch is the final pass or fail.
///
/// # Errors
/// [`Error::PairwiseConsistency`] if the signature does not verify: `sk` and
/// `vk` are not a pair, which after key generation means a hardware or
/// memory fault.
pub fn pairwise_consistency<P: ParameterSet>(
    sk: &SigningKey<P>,
    vk: &VerifyingKey<P>,
) -> Result<(), Error> {
    let sig = sk.sign_internal(PCT_MESSAGE, &[0; 32]);
    vk.verify_internal(PCT_MESSAGE, &sig)
        .map_err(|_| Error::PairwiseConsistency)
}

/// [`pairwise_consistency`] for the infallible key-generation entry points.
///
/// # Panics
/// If the test fails (a fault, never an input).
pub(crate) fn assert_pairwise_consistent<P: ParameterSet>(
    sk: &SigningKey<P>,
    vk: &VerifyingKey<P>,
) {
    if pairwise_consistency(sk, vk).is_err() {
        panic!("ML-DSA pair-wise consistency test failed: hardware or memory fault");
    }
}

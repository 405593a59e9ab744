//! Self-tests in the style of FIPS 140-3 (feature `self-test`): the
//! pair-wise consistency test run after every key generation (IG 10.3.A) and
//! the known-answer tests an application runs at start-up ([`self_test`]).
//!
//! **Known answers.** Per parameter set, from fixed inputs, each output
//! compared through its SHA3-256 digest (FIPS 202):
//!
//! 1. `ML-DSA.KeyGen_internal(ξ)` (Algorithm 6): `SHA3-256(pk ‖ sk)`;
//! 2. `ML-DSA.Sign(sk, M, ctx = "")` with the fixed `rnd` (Algorithm 2, hedged
//!    form): `SHA3-256(σ)`;
//! 3. `ML-DSA.Verify(pk, M, σ, "")` (Algorithm 3) accepts;
//! 4. the same on `σ` with bit 0 of byte 0 (in the commitment hash `c̃`)
//!    flipped rejects;
//! 5. `ML-DSA.Sign_internal(sk′, M′, rnd = 0³²)` (Algorithm 7, deterministic)
//!    for a second key `sk′ = KeyGen_internal(ξ′)`: `SHA3-256(σ′)`.
//!
//! Items 1–4 are record 0 (`count = 0`) of the NIST KAT files
//! `PQCsignKAT_ML-DSA-*.rsp`: ξ and `rnd` are the generator's two DRBG draws,
//! `M` the record's 33-byte `msg`, and the digests those of its official
//! `pk ‖ sk` and of the signature in its `sm`. Item 5 is the ACVP test
//! `ML-DSA-sigGen-FIPS204-tr1` (seed key format, deterministic, internal
//! interface) with a one-byte `M′`: tcId 196 (ML-DSA-44), 258 (ML-DSA-65),
//! 326 (ML-DSA-87). `tests/self_test.rs` checks every constant against
//! `vectors/` (the record's SHA-256 against the PQClean checksum).

use pqdr_common::hex::decode as hex;
use sha3::{Digest, Sha3_256};

use crate::error::Error;
use crate::params::ParameterSet;
use crate::types::{Signature, SigningKey};

/// The fixed inputs and expected output digests of one parameter set's
/// known-answer tests (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnswers {
    /// ξ, the key-generation seed (FIPS 204 Algorithm 6).
    pub xi: [u8; 32],
    /// The message `M` signed with an empty context.
    pub message: [u8; 33],
    /// `rnd`, the signing randomness (FIPS 204 Algorithm 2, line 5).
    pub rnd: [u8; 32],
    /// `SHA3-256(pk ‖ sk)` of the generated key pair.
    pub key_generation: [u8; 32],
    /// `SHA3-256(σ)` of the hedged signature of `message`.
    pub signature: [u8; 32],
    /// ξ′, the seed of the deterministic-signing key.
    pub deterministic_xi: [u8; 32],
    /// `M′`, the formatted message given to `Sign_internal` directly.
    pub deterministic_message: [u8; 1],
    /// `SHA3-256(σ′)` of the deterministic signature (`rnd = 0³²`).
    pub deterministic_signature: [u8; 32],
}

/// NIST KAT record 0, the same for the three sets (their `.rsp` files share
/// the seeds): ξ and `rnd` are the DRBG's first two 32-byte draws.
const XI: [u8; 32] = hex(b"7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d");
const RND: [u8; 32] = hex(b"8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f");
const MESSAGE: [u8; 33] =
    hex(b"d81c4d8d734fcbfbeade3d3f8a039faa2a2c9957e835ad55b22e75bf57bb556ac8");

const ML_DSA_44: KnownAnswers = KnownAnswers {
    xi: XI,
    message: MESSAGE,
    rnd: RND,
    key_generation: hex(b"49083c26a8af2d34918b19b524176fab656a6caf3c68f9d6a1d3372a9a4af73e"),
    signature: hex(b"e50bfc6f185ce042313ce4eeb98c3c8fa62c3ddd18917997a104dea224186a3a"),
    deterministic_xi: hex(b"7be51ffbcb879212e18dc507c9067b64951454afb87d16eeaede6a5d3e28196f"),
    deterministic_message: hex(b"76"),
    deterministic_signature: hex(
        b"a2a397727f2ae6cb1bf3e65cdc9a419b3b0fbafbd68886461bd97109736c58de",
    ),
};

const ML_DSA_65: KnownAnswers = KnownAnswers {
    xi: XI,
    message: MESSAGE,
    rnd: RND,
    key_generation: hex(b"3659b690d7aed0f4f4a4d79c0fa4cdb9e5ef4936ced8a2557de72dad53702f9e"),
    signature: hex(b"190a7e1432955924b6fede77eddf4d6cd9eab49a7d254cd8bca8b7d6fd8d7ac6"),
    deterministic_xi: hex(b"8baea89f0e048f2d9f993e3bab10037f87a1948243e0dc6462062218a72b6441"),
    deterministic_message: hex(b"b4"),
    deterministic_signature: hex(
        b"7643189d8c3859d6e7cac6860d7888c1427e6ca6ce46661b841a4cc2b2f287fb",
    ),
};

const ML_DSA_87: KnownAnswers = KnownAnswers {
    xi: XI,
    message: MESSAGE,
    rnd: RND,
    key_generation: hex(b"cd0faebd3efdffe2af2e53c8013907d4dc512b2d36f0c8aa71412227a78e7bc3"),
    signature: hex(b"fc2a955ae44b077779f4c4f6a019e74eae7df3685366d06c216e490e1f82f926"),
    deterministic_xi: hex(b"49c552ce3e193abbf97a30eb556b20f4d99ee1104b6c33c8405209c0ab7a5668"),
    deterministic_message: hex(b"21"),
    deterministic_signature: hex(
        b"fbca75a0fd0b084c00db3d5cac35b8683cc0be49b2f7a760940ba6975164d266",
    ),
};

/// The known answers of the parameter set `P`.
pub fn known_answers<P: ParameterSet>() -> &'static KnownAnswers {
    match P::K {
        4 => &ML_DSA_44,
        6 => &ML_DSA_65,
        _ => &ML_DSA_87,
    }
}

/// The known-answer tests of the parameter set `P` (see the [module
/// documentation](self)): key generation, hedged and deterministic signing,
/// verification that accepts and verification that rejects. Cost: two key
/// generations, two signings, two verifications (21 million instructions
/// for ML-DSA-65; BENCHMARKS.md).
///
/// # Errors
/// [`Error::SelfTest`] if any output differs from its known answer: the
/// implementation or the hardware is faulty and must not be used.
pub fn self_test<P: ParameterSet>() -> Result<(), Error> {
    run::<P>(known_answers::<P>())
}

/// The known-answer runner on the given expectations (tests corrupt them).
pub(crate) fn run<P: ParameterSet>(kat: &KnownAnswers) -> Result<(), Error> {
    // The data is public (fixed test vectors): plain comparisons.
    let mut ok = true;

    // FIPS 204 Algorithm 6.
    let sk = SigningKey::<P>::from_seed_unchecked(&kat.xi);
    let vk = sk.verifying_key();
    ok &= sha3_256(&[vk.as_bytes().as_ref(), sk.as_bytes().as_ref()]) == kat.key_generation;

    // FIPS 204 Algorithm 2 with the fixed rnd (an empty context is valid).
    let sig = sk
        .sign_with_rnd(&kat.message, &[], &kat.rnd)
        .map_err(|_| Error::SelfTest)?;
    ok &= sha3_256(&[sig.as_bytes().as_ref()]) == kat.signature;

    // FIPS 204 Algorithm 3: accepts σ, rejects σ with a flipped bit of c̃.
    ok &= vk.verify(&kat.message, &[], &sig).is_ok();
    let mut bad = *sig.as_bytes();
    if let Some(first) = bad.as_mut().first_mut() {
        *first ^= 1;
    }
    ok &= vk
        .verify(&kat.message, &[], &Signature::from_array(&bad))
        .is_err();

    // FIPS 204 Algorithm 7, deterministic (rnd = 0^32), on M′.
    let sk = SigningKey::<P>::from_seed_unchecked(&kat.deterministic_xi);
    let sig = sk.sign_internal(&kat.deterministic_message, &[0; 32]);
    ok &= sha3_256(&[sig.as_bytes().as_ref()]) == kat.deterministic_signature;

    if ok { Ok(()) } else { Err(Error::SelfTest) }
}

/// `SHA3-256` over the concatenation of `parts` (FIPS 202).
fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

#[cfg(test)]
use crate::types::pct::assert_pairwise_consistent;
pub use crate::types::pct::pairwise_consistency;

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::{MlDsa44, MlDsa65, MlDsa87};

    fn corrupted_expectations_fail<P: ParameterSet>() {
        let good = *known_answers::<P>();
        assert_eq!(run::<P>(&good), Ok(()), "{}", P::NAME);
        // Every expected digest, and the inputs: one flipped bit fails.
        for field in 0..8 {
            let mut bad = good;
            match field {
                0 => bad.key_generation[0] ^= 1,
                1 => bad.signature[31] ^= 0x80,
                2 => bad.deterministic_signature[7] ^= 4,
                3 => bad.xi[3] ^= 1,
                4 => bad.message[32] ^= 1,
                5 => bad.rnd[0] ^= 1,
                6 => bad.deterministic_xi[0] ^= 1,
                _ => bad.deterministic_message[0] ^= 1,
            }
            assert_eq!(
                run::<P>(&bad),
                Err(Error::SelfTest),
                "{} field {field}",
                P::NAME
            );
        }
    }

    #[test]
    fn runner_rejects_a_wrong_expectation() {
        corrupted_expectations_fail::<MlDsa44>();
        corrupted_expectations_fail::<MlDsa65>();
        corrupted_expectations_fail::<MlDsa87>();
    }

    fn mismatched_pair_fails<P: ParameterSet>() {
        let sk_a = SigningKey::<P>::from_seed_unchecked(&[1; 32]);
        let sk_b = SigningKey::<P>::from_seed_unchecked(&[2; 32]);
        let (vk_a, vk_b) = (sk_a.verifying_key(), sk_b.verifying_key());
        assert_eq!(pairwise_consistency(&sk_a, vk_a), Ok(()), "{}", P::NAME);
        assert_eq!(pairwise_consistency(&sk_b, vk_b), Ok(()), "{}", P::NAME);
        assert_eq!(
            pairwise_consistency(&sk_a, vk_b),
            Err(Error::PairwiseConsistency),
            "{}",
            P::NAME
        );
        assert_eq!(
            pairwise_consistency(&sk_b, vk_a),
            Err(Error::PairwiseConsistency),
            "{}",
            P::NAME
        );
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
            assert_pairwise_consistent(&sk_a, vk_b);
        }));
        assert!(caught.is_err(), "{}: the infallible path panics", P::NAME);
    }

    #[test]
    fn pairwise_consistency_rejects_a_mismatched_pair() {
        mismatched_pair_fails::<MlDsa44>();
        mismatched_pair_fails::<MlDsa65>();
        mismatched_pair_fails::<MlDsa87>();
    }
}

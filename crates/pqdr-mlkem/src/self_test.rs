//! Self-tests in the style of FIPS 140-3 (feature `self-test`): the
//! pair-wise consistency test run after every key generation (IG 10.3.A) and
//! the known-answer tests an application runs at start-up ([`self_test`]).
//!
//! **Known answers.** Per parameter set, one chain from fixed inputs, each
//! output compared through its SHA3-256 digest (FIPS 202):
//!
//! 1. `ML-KEM.KeyGen_internal(d, z)` (Algorithm 16): `SHA3-256(ek ‖ dk)`;
//! 2. `ML-KEM.Encaps_internal(ek, m)` (Algorithm 17): `SHA3-256(c ‖ K)`;
//! 3. `ML-KEM.Decaps_internal(dk, c)` (Algorithm 18): `SHA3-256(K)`;
//! 4. the same on `c'` = `c` with bit 0 of byte 0 flipped, which fails the
//!    re-encryption check (implicit rejection, Algorithm 18 steps 9–11):
//!    `SHA3-256(J(z ‖ c'))`.
//!
//! `d ‖ z` and `m` are the two draws the NIST KAT generator makes from its
//! AES-256-CTR DRBG for record 0 (`count = 0`) of `PQCkemKAT_ML-KEM-*.rsp`,
//! so the expected digests are those of that record's official `pk ‖ sk`,
//! `ct ‖ ss` and `ss`; the rejection value is `J(z ‖ c')` of its `z` and `ct`.
//! `tests/self_test.rs` checks every constant against `vectors/` (the record's
//! SHA-256 against the PQClean checksum, the rejection formula against the
//! ACVP modified-ciphertext decapsulation cases).

use pqdr_common::SharedSecret;
use pqdr_common::hex::decode as hex;
use pqdr_common::self_test::{Digests, KnownAnswerKem, run_known_answers};

use crate::error::Error;
use crate::hash::sha3_256;
use crate::params::ParameterSet;
use crate::types::{Ciphertext, DecapsulationKey, EncapsulationKey, key_pair_unchecked};

/// The fixed inputs and expected output digests of one parameter set's
/// known-answer tests (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnswers {
    /// `d ‖ z`, the key-generation seed (FIPS 203 Algorithm 16).
    pub seed: [u8; 64],
    /// `m`, the encapsulation randomness (FIPS 203 Algorithm 17).
    pub m: [u8; 32],
    /// `SHA3-256(ek ‖ dk)` of the generated key pair.
    pub key_generation: [u8; 32],
    /// `SHA3-256(c ‖ K)` of the encapsulation.
    pub encapsulation: [u8; 32],
    /// `SHA3-256(K)` of the decapsulation of `c`.
    pub decapsulation: [u8; 32],
    /// `SHA3-256(K̄)` of the decapsulation of `c'` (`c` with bit 0 of byte 0
    /// flipped), `K̄ = J(z ‖ c')`.
    pub implicit_rejection: [u8; 32],
}

/// Record 0 of the NIST KAT files: the DRBG (seeded with the record's
/// `seed`) gives `d ‖ z` (one 64-byte draw), then `m` (one 32-byte draw).
/// The same for the three sets, as their `.rsp` files share the seeds.
const SEED: [u8; 64] = hex(
    b"7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d\
      b505d7cfad1b497499323c8686325e4792f267aafa3f87ca60d01cb54f29202a",
);
const M: [u8; 32] = hex(b"eb4a7c66ef4eba2ddb38c88d8bc706b1d639002198172a7b1942eca8f6c001ba");

const ML_KEM_512: KnownAnswers = KnownAnswers {
    seed: SEED,
    m: M,
    key_generation: hex(b"ee9191f02314c8c13655de4a9b6e43107e523d99bd2302a369fd6ecec438653a"),
    encapsulation: hex(b"3366e9f1a7013bb26d7f6d01d4b646efcd63fc6b753cc55ba67760f2a9ba834a"),
    decapsulation: hex(b"12ef43ed56fb812ee736e24856c76d1e63e3c627590e2b7d9bbeeb5d91b067a9"),
    implicit_rejection: hex(b"149df1548650fec5d0e9dc210135d093373223e7d0651a04d28aa06ba4dee93b"),
};

const ML_KEM_768: KnownAnswers = KnownAnswers {
    seed: SEED,
    m: M,
    key_generation: hex(b"8084aa522f32f8b5b3ce510d296439f59ded2081ab66fe3f526f7e5cc174085f"),
    encapsulation: hex(b"fbcc92f1a3531d9647a5e8c31c888e00f50819ec40ba35baa8b96bafe25e6651"),
    decapsulation: hex(b"19934cdb305cbabc08bdd0198d1907ac2c4ab95fa0c36fe4b8c17b753c953705"),
    implicit_rejection: hex(b"a83915e88fa1b1bf35525eec54c0ba128c75fac48a6e2ddfab698e682985dcdf"),
};

const ML_KEM_1024: KnownAnswers = KnownAnswers {
    seed: SEED,
    m: M,
    key_generation: hex(b"cdf38875509a40422a28120bff0d0d7819b7edd0e944a94d3166cfc9395e3305"),
    encapsulation: hex(b"676e1b10df0ab1558822dbd66cad89439a6279ff45faffc3779666beb1854981"),
    decapsulation: hex(b"5f0576094397f4668fe86cff4a56e58a6a4d7267e6dba299e2aaf4c1a8070fa5"),
    implicit_rejection: hex(b"19739b3ce9db7b33b10ce37ffabb62de42b76a9226b47870b7ba7eb66a2672c8"),
};

/// The known answers of the parameter set `P`.
pub fn known_answers<P: ParameterSet>() -> &'static KnownAnswers {
    match P::K {
        2 => &ML_KEM_512,
        3 => &ML_KEM_768,
        _ => &ML_KEM_1024,
    }
}

/// The known-answer tests of the parameter set `P` (see the [module
/// documentation](self)): key generation, encapsulation, decapsulation and
/// the decapsulation of an invalid ciphertext (implicit rejection). Cost:
/// one key generation, one encapsulation, two decapsulations (1.7 million
/// instructions for ML-KEM-768, about 5x a key generation; BENCHMARKS.md).
///
/// # Errors
/// [`Error::SelfTest`] if any output differs from its known answer: the
/// implementation or the hardware is faulty and must not be used.
pub fn self_test<P: ParameterSet>() -> Result<(), Error> {
    run::<P>(known_answers::<P>())
}

/// The known-answer runner on the given expectations (tests corrupt them):
/// the chain of [`pqdr_common::self_test`] on this crate's steps.
pub(crate) fn run<P: ParameterSet>(kat: &KnownAnswers) -> Result<(), Error> {
    let want = Digests {
        key_generation: kat.key_generation,
        encapsulation: kat.encapsulation,
        decapsulation: kat.decapsulation,
        implicit_rejection: kat.implicit_rejection,
    };
    if run_known_answers(&mut Chain::<P> { kat, keys: None }, &want) {
        Ok(())
    } else {
        Err(Error::SelfTest)
    }
}

/// The FIPS 203 steps of the known-answer chain, on `kat`'s inputs.
struct Chain<'a, P: ParameterSet> {
    kat: &'a KnownAnswers,
    keys: Option<(DecapsulationKey<P>, EncapsulationKey<P>)>,
}

impl<P: ParameterSet> KnownAnswerKem for Chain<'_, P> {
    type Ciphertext = P::CiphertextBytes;

    /// SHA3-256 (FIPS 202).
    fn digest(parts: &[&[u8]]) -> [u8; 32] {
        let mut out = [0u8; 32];
        sha3_256(parts, &mut out);
        out
    }

    /// FIPS 203 Algorithm 16 on `d ‖ z`.
    fn generate(&mut self) -> Option<[&[u8]; 2]> {
        let (d, z) = self.kat.seed.split_at(32);
        let (dk, ek) = self.keys.insert(key_pair_unchecked::<P>(d, z));
        Some([ek.as_bytes().as_ref(), dk.as_bytes().as_ref()])
    }

    /// FIPS 203 Algorithm 17 with `m`.
    fn encapsulate(&mut self) -> Option<(P::CiphertextBytes, SharedSecret)> {
        let (_, ek) = self.keys.as_ref()?;
        let (c, k) = ek.encapsulate_deterministic(&self.kat.m);
        Some((*c.as_bytes(), k))
    }

    /// FIPS 203 Algorithm 18 (implicit rejection: `K̄ = J(z ‖ c)`).
    fn decapsulate(&self, c: &P::CiphertextBytes) -> SharedSecret {
        match &self.keys {
            Some((dk, _)) => dk.decapsulate(&Ciphertext::<P>::from_array(c)),
            // Unreachable (the runner generates first); fails the chain.
            None => SharedSecret::from([0; 32]),
        }
    }
}

#[cfg(test)]
use crate::types::pct::assert_pairwise_consistent;
pub use crate::types::pct::pairwise_consistency;

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::{MlKem512, MlKem768, MlKem1024};

    fn corrupted_expectations_fail<P: ParameterSet>() {
        let good = *known_answers::<P>();
        assert_eq!(run::<P>(&good), Ok(()), "{}", P::NAME);
        // Every expected digest, and the inputs: one flipped bit fails.
        for field in 0..6 {
            let mut bad = good;
            match field {
                0 => bad.key_generation[0] ^= 1,
                1 => bad.encapsulation[31] ^= 0x80,
                2 => bad.decapsulation[7] ^= 4,
                3 => bad.implicit_rejection[16] ^= 1,
                4 => bad.seed[40] ^= 1,
                _ => bad.m[0] ^= 1,
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
        corrupted_expectations_fail::<MlKem512>();
        corrupted_expectations_fail::<MlKem768>();
        corrupted_expectations_fail::<MlKem1024>();
    }

    fn mismatched_pair_fails<P: ParameterSet>() {
        let (dk_a, ek_a) = key_pair_unchecked::<P>(&[1; 32], &[2; 32]);
        let (dk_b, ek_b) = key_pair_unchecked::<P>(&[3; 32], &[4; 32]);
        assert_eq!(pairwise_consistency(&dk_a, &ek_a), Ok(()), "{}", P::NAME);
        assert_eq!(pairwise_consistency(&dk_b, &ek_b), Ok(()), "{}", P::NAME);
        assert_eq!(
            pairwise_consistency(&dk_a, &ek_b),
            Err(Error::PairwiseConsistency),
            "{}",
            P::NAME
        );
        assert_eq!(
            pairwise_consistency(&dk_b, &ek_a),
            Err(Error::PairwiseConsistency),
            "{}",
            P::NAME
        );
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
            assert_pairwise_consistent(&dk_a, &ek_b);
        }));
        assert!(caught.is_err(), "{}: the infallible path panics", P::NAME);
    }

    #[test]
    fn pairwise_consistency_rejects_a_mismatched_pair() {
        mismatched_pair_fails::<MlKem512>();
        mismatched_pair_fails::<MlKem768>();
        mismatched_pair_fails::<MlKem1024>();
    }
}

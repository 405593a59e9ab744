//! Self-tests in the style of FIPS 140-3 (feature `self-test`): the
//! pair-wise consistency test run after every key generation (IG 10.3.A) and
//! the known-answer tests an application runs at start-up ([`self_test`]).
//!
//! **Known answers.** Per parameter set, one chain from fixed inputs, each
//! output compared through its digest `SHA-512(x)[0..32]` (the crate's hash,
//! NTRU Prime spec §2.3.5, without a prefix byte):
//!
//! 1. `KEM_KeyGen` from `Small_encode(f)`, `Small_encode(g)` and `rho`
//!    (§2.3): `digest(pk ‖ sk)`;
//! 2. `Encap` with `Small_encode(r)` (§2.3.7): `digest(C ‖ K)`;
//! 3. `Decap` of `C` (§2.3.8): `digest(K)`;
//! 4. `Decap` of `C'` = `C` with bit 0 of byte 0 flipped, which fails the
//!    re-encryption check (implicit rejection, §2.3.8):
//!    `digest(HashSession(0, rho, C'))`, `HashSession(0, rho, C') =
//!    Hash_0(Hash_3(rho) ‖ C')`.
//!
//! The inputs are those of record 0 (`count = 0`) of the official round-3
//! KAT files `sntrup*.rsp` (the polynomials the reference generator samples
//! from its AES-256-CTR DRBG, which this crate does not contain, so they are
//! stored: `4⌈p/4⌉` bytes per set), and the digests are those of that
//! record's official `pk ‖ sk`, `ct ‖ ss` and `ss`. `tests/self_test.rs`
//! re-derives every input with the DRBG and checks it against the record
//! (`f` and `rho` are in `sk`, `g` is the inverse of `sk`'s `1/g` in R/3,
//! `r` gives the record's confirmation hash), and recomputes the rejection
//! value from the record's `sk` and `ct`.

use pqdr_common::SharedSecret;
use pqdr_common::hex::decode as hex;
use pqdr_common::self_test::{Digests, KnownAnswerKem, run_known_answers};

use crate::error::Error;
use crate::params::{ByteArray, ParameterSet};
use crate::types::{Ciphertext, DecapsulationKey, EncapsulationKey};

mod vectors;

/// The fixed inputs and expected output digests of one parameter set's
/// known-answer tests (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnswers<'a> {
    /// `Small_encode(f)`, a short `f` (weight w).
    pub f: &'a [u8],
    /// `Small_encode(g)`, a `g` invertible in R/3.
    pub g: &'a [u8],
    /// `rho`, the implicit-rejection secret (`⌈p/4⌉` bytes).
    pub rho: &'a [u8],
    /// `Small_encode(r)`, the short encapsulation input.
    pub r: &'a [u8],
    /// `digest(pk ‖ sk)` of the generated key pair.
    pub key_generation: [u8; 32],
    /// `digest(C ‖ K)` of the encapsulation.
    pub encapsulation: [u8; 32],
    /// `digest(K)` of the decapsulation of `C`.
    pub decapsulation: [u8; 32],
    /// `digest(K̄)` of the decapsulation of `C'` (`C` with bit 0 of byte 0
    /// flipped), `K̄ = Hash_0(Hash_3(rho) ‖ C')`.
    pub implicit_rejection: [u8; 32],
}

/// Never used (every parameter set has its answers); it fails the runner.
const NONE: KnownAnswers<'static> = KnownAnswers {
    f: &[],
    g: &[],
    rho: &[],
    r: &[],
    key_generation: [0; 32],
    encapsulation: [0; 32],
    decapsulation: [0; 32],
    implicit_rejection: [0; 32],
};

/// The known answers of the parameter set `S`.
pub fn known_answers<S: ParameterSet>() -> &'static KnownAnswers<'static> {
    match S::P {
        #[cfg(feature = "sntrup653")]
        653 => &vectors::SNTRUP653,
        #[cfg(feature = "sntrup761")]
        761 => &vectors::SNTRUP761,
        #[cfg(feature = "sntrup857")]
        857 => &vectors::SNTRUP857,
        #[cfg(feature = "sntrup953")]
        953 => &vectors::SNTRUP953,
        #[cfg(feature = "sntrup1013")]
        1013 => &vectors::SNTRUP1013,
        #[cfg(feature = "sntrup1277")]
        1277 => &vectors::SNTRUP1277,
        _ => &NONE,
    }
}

/// The known-answer tests of the parameter set `S` (see the [module
/// documentation](self)): key generation, encapsulation, decapsulation and
/// the decapsulation of an invalid ciphertext (implicit rejection). Cost:
/// one key generation, one encapsulation, two decapsulations (13.6 million
/// instructions for sntrup761, about 1.3 key generations; BENCHMARKS.md).
///
/// # Errors
/// [`Error::SelfTest`] if any output differs from its known answer: the
/// implementation or the hardware is faulty and must not be used.
pub fn self_test<S: ParameterSet>() -> Result<(), Error> {
    run::<S>(known_answers::<S>())
}

/// The known-answer runner on the given expectations (tests corrupt them):
/// the chain of [`pqdr_common::self_test`] on this crate's steps.
pub(crate) fn run<S: ParameterSet>(kat: &KnownAnswers<'_>) -> Result<(), Error> {
    let input = |bytes: &[u8]| S::InputBytes::from_slice(bytes).ok_or(Error::SelfTest);
    let (f, g, rho, r) = (input(kat.f)?, input(kat.g)?, input(kat.rho)?, input(kat.r)?);
    let want = Digests {
        key_generation: kat.key_generation,
        encapsulation: kat.encapsulation,
        decapsulation: kat.decapsulation,
        implicit_rejection: kat.implicit_rejection,
    };
    let mut chain = Chain::<S> {
        f,
        g,
        rho,
        r,
        keys: None,
    };
    if run_known_answers(&mut chain, &want) {
        Ok(())
    } else {
        Err(Error::SelfTest)
    }
}

/// The NTRU Prime steps of the known-answer chain, on the decoded inputs.
struct Chain<S: ParameterSet> {
    f: S::InputBytes,
    g: S::InputBytes,
    rho: S::InputBytes,
    r: S::InputBytes,
    keys: Option<(DecapsulationKey<S>, EncapsulationKey<S>)>,
}

impl<S: ParameterSet> KnownAnswerKem for Chain<S> {
    type Ciphertext = S::CiphertextBytes;

    /// `SHA-512(parts…)[0..32]`.
    fn digest(parts: &[&[u8]]) -> [u8; 32] {
        let mut h = crate::hash::Sha512::new();
        for p in parts {
            h.update(p);
        }
        let mut out = [0u8; 32];
        h.finalize_into(&mut out);
        out
    }

    /// NTRU Prime spec §2.3, KEM_KeyGen.
    fn generate(&mut self) -> Option<[&[u8]; 2]> {
        let pair =
            DecapsulationKey::<S>::generate_deterministic_unchecked(&self.f, &self.g, &self.rho)
                .ok()?;
        let (dk, ek) = self.keys.insert(pair);
        Some([ek.as_bytes().as_ref(), dk.as_bytes().as_ref()])
    }

    /// §2.3.7, Encap with `r`.
    fn encapsulate(&mut self) -> Option<(S::CiphertextBytes, SharedSecret)> {
        let (_, ek) = self.keys.as_ref()?;
        let (c, k) = ek.encapsulate_deterministic(&self.r).ok()?;
        Some((*c.as_bytes(), k))
    }

    /// §2.3.8, Decap (a modified ciphertext gives `HashSession(0, rho, C')`).
    fn decapsulate(&self, c: &S::CiphertextBytes) -> SharedSecret {
        match &self.keys {
            Some((dk, _)) => dk.decapsulate(&Ciphertext::from_array(c)),
            // Unreachable (the runner generates first); fails the chain.
            None => SharedSecret::from([0; 32]),
        }
    }
}

pub use crate::types::pct::pairwise_consistency;
#[cfg(test)]
use crate::types::pct::{assert_pairwise_consistent, pct_input};

#[cfg(all(
    test,
    feature = "sntrup653",
    feature = "sntrup761",
    feature = "sntrup857",
    feature = "sntrup953",
    feature = "sntrup1013",
    feature = "sntrup1277"
))]
mod tests {
    use super::*;
    use crate::{Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277};
    use alloc::vec::Vec;

    fn corrupted_expectations_fail<S: ParameterSet>() {
        let good = *known_answers::<S>();
        assert_eq!(run::<S>(&good), Ok(()), "{}", S::NAME);
        // Every expected digest, and the inputs: one flipped bit fails.
        let flipped = |x: &[u8]| -> Vec<u8> {
            let mut v = x.to_vec();
            v[5] ^= 1;
            v
        };
        let (f, g, rho, r) = (
            flipped(good.f),
            flipped(good.g),
            flipped(good.rho),
            flipped(good.r),
        );
        for field in 0..8 {
            let mut bad = good;
            match field {
                0 => bad.key_generation[0] ^= 1,
                1 => bad.encapsulation[31] ^= 0x80,
                2 => bad.decapsulation[7] ^= 4,
                3 => bad.implicit_rejection[16] ^= 1,
                4 => bad.f = &f,
                5 => bad.g = &g,
                6 => bad.rho = &rho,
                _ => bad.r = &r,
            }
            assert_eq!(
                run::<S>(&bad),
                Err(Error::SelfTest),
                "{} field {field}",
                S::NAME
            );
        }
        // An input of the wrong length fails too (no panic).
        let mut bad = good;
        bad.r = &good.r[1..];
        assert_eq!(run::<S>(&bad), Err(Error::SelfTest), "{}", S::NAME);
        assert_eq!(run::<S>(&NONE), Err(Error::SelfTest), "{}", S::NAME);
    }

    #[test]
    fn runner_rejects_a_wrong_expectation() {
        corrupted_expectations_fail::<Sntrup653>();
        corrupted_expectations_fail::<Sntrup761>();
        corrupted_expectations_fail::<Sntrup857>();
        corrupted_expectations_fail::<Sntrup953>();
        corrupted_expectations_fail::<Sntrup1013>();
        corrupted_expectations_fail::<Sntrup1277>();
    }

    fn mismatched_pair_fails<S: ParameterSet>() {
        let kat = known_answers::<S>();
        let input = |b: &[u8]| S::InputBytes::from_slice(b).expect("length");
        let (f, g, rho) = (input(kat.f), input(kat.g), input(kat.rho));
        let (dk_a, ek_a) =
            DecapsulationKey::<S>::generate_deterministic_unchecked(&f, &g, &rho).expect("valid");
        // Key B: another short f with the same g and rho.
        let short = pct_input::<S>();
        let (dk_b, ek_b) =
            DecapsulationKey::<S>::generate_deterministic_unchecked(&short, &g, &rho)
                .expect("valid");
        assert_eq!(pairwise_consistency(&dk_a, &ek_a), Ok(()), "{}", S::NAME);
        assert_eq!(pairwise_consistency(&dk_b, &ek_b), Ok(()), "{}", S::NAME);
        assert_eq!(
            pairwise_consistency(&dk_a, &ek_b),
            Err(Error::PairwiseConsistency),
            "{}",
            S::NAME
        );
        assert_eq!(
            pairwise_consistency(&dk_b, &ek_a),
            Err(Error::PairwiseConsistency),
            "{}",
            S::NAME
        );
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
            assert_pairwise_consistent(&dk_a, &ek_b);
        }));
        assert!(caught.is_err(), "{}: the infallible path panics", S::NAME);
    }

    #[test]
    fn pairwise_consistency_rejects_a_mismatched_pair() {
        mismatched_pair_fails::<Sntrup653>();
        mismatched_pair_fails::<Sntrup761>();
        mismatched_pair_fails::<Sntrup857>();
        mismatched_pair_fails::<Sntrup953>();
        mismatched_pair_fails::<Sntrup1013>();
        mismatched_pair_fails::<Sntrup1277>();
    }
}

//! Self-tests in the style of FIPS 140-3 (feature `self-test`): the
//! pair-wise consistency test run after every key generation (IG 10.3.A) and
//! the known-answer tests an application runs at start-up ([`self_test`],
//! [`self_test_into`]).
//!
//! **Known answers.** Per parameter set, one chain from fixed inputs, each
//! output compared through its digest `SHAKE256(x)` (32 bytes; the crate's
//! sponge, FIPS 202):
//!
//! 1. `KeyGen` from the seed δ (Classic McEliece spec §8.1):
//!    `digest(pk ‖ sk)`;
//! 2. `Encap` (§8.2) with `FixedWeight` drawing the stored bytes:
//!    `digest(C ‖ K)`;
//! 3. `Decap` of `C` (§8.3): `digest(K)`;
//! 4. `Decap` of `C'` = `C` with bit 0 of byte 0 flipped, which `Decode`
//!    rejects (the error weight becomes t ± 1): `digest(H(0, s, C'))`
//!    (implicit rejection, §8.3).
//!
//! The inputs are those of record 0 (`count = 0`) of the NIST KAT files: δ is
//! the generator's first DRBG draw (the same for every set), and the
//! encapsulation bytes are the draw of `FixedWeight`'s accepted attempt (the
//! earlier, rejected attempts are left out: `FixedWeight` depends only on the
//! attempt it accepts), one string per (n, t). The digests are those of that
//! record's `pk ‖ sk`, `ct ‖ ss` and `ss` (round 4; the `.rsp` files are not
//! stored, so `tests/mceliece/self_test.rs` regenerates record 0 and checks its SHA-256
//! against PQClean's `nistkat-sha256` in `vectors/kat-checksums.json`). The `pc`
//! sets share their base set's key generation; their `C1 = H(2, e)` and
//! `K = H(1, e, C)` are recomputed in the test from the official `e` and
//! `C0`.
//!
//! **Cost.** One key generation per call, which dominates (215 million
//! instructions for `mceliece348864`, 949 million for `mceliece6960119`;
//! BENCHMARKS.md), plus the public key on the heap ([`self_test`]) or in the
//! caller's buffer ([`self_test_into`]).

use core::convert::Infallible;
#[allow(unused_imports, reason = "unused when no parameter set is enabled")]
use pqdr_common::hex::decode as hex;

use pqdr_common::SharedSecret;
use pqdr_common::self_test::{Digests, KnownAnswerKem, pairwise_consistent, run_known_answers};
use pqdr_common::xof::XofRng;

use crate::error::Error;
use crate::kem;
use crate::params::{Buf, ParameterSet};
use pqdr_keccak::Shake256;

mod vectors;

/// The fixed inputs and expected output digests of one parameter set's
/// known-answer tests (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownAnswers<'a> {
    /// δ, the key-generation seed (Classic McEliece spec §8.1).
    pub seed: [u8; 32],
    /// The bytes `FixedWeight` draws (its accepted attempt: `4t` bytes, `2t`
    /// when `n = 2^m`), Classic McEliece spec §2.4.5.
    pub encapsulation_randomness: &'a [u8],
    /// `digest(pk ‖ sk)` of the generated key pair.
    pub key_generation: [u8; 32],
    /// `digest(C ‖ K)` of the encapsulation.
    pub encapsulation: [u8; 32],
    /// `digest(K)` of the decapsulation of `C`.
    pub decapsulation: [u8; 32],
    /// `digest(K̄)` of the decapsulation of `C'` (`C` with bit 0 of byte 0
    /// flipped), `K̄ = H(0, s, C')`.
    pub implicit_rejection: [u8; 32],
}

/// Never used (every parameter set has its answers); it fails the runner.
const NONE: KnownAnswers<'static> = KnownAnswers {
    seed: [0; 32],
    encapsulation_randomness: &[],
    key_generation: [0; 32],
    encapsulation: [0; 32],
    decapsulation: [0; 32],
    implicit_rejection: [0; 32],
};

/// The known answers of the parameter set `P`.
pub fn known_answers<P: ParameterSet>() -> &'static KnownAnswers<'static> {
    vectors::ALL
        .iter()
        .find(|(name, _)| *name == P::NAME)
        .map_or(&NONE, |(_, kat)| kat)
}

/// The known-answer tests of the parameter set `P` (see the [module
/// documentation](self)), with the public and secret key on the heap.
///
/// # Errors
/// [`Error::SelfTest`] if any output differs from its known answer: the
/// implementation or the hardware is faulty and must not be used.
#[cfg(feature = "alloc")]
pub fn self_test<P: ParameterSet>() -> Result<(), Error> {
    let mut pk = P::PkBytes::boxed_zeroed();
    let mut sk = P::SkBytes::boxed_zeroed();
    self_test_into::<P>(&mut pk, &mut sk)
}

/// [`self_test`] with the key pair in caller buffers (overwritten with the
/// known-answer key pair, which is public test data).
///
/// # Errors
/// [`Error::SelfTest`] if any output differs from its known answer.
pub fn self_test_into<P: ParameterSet>(
    pk: &mut P::PkBytes,
    sk: &mut P::SkBytes,
) -> Result<(), Error> {
    run::<P>(known_answers::<P>(), pk, sk)
}

/// The known-answer runner on the given expectations (tests corrupt them):
/// the chain of [`pqdr_common::self_test`] on this crate's steps.
pub(crate) fn run<P: ParameterSet>(
    kat: &KnownAnswers<'_>,
    pk: &mut P::PkBytes,
    sk: &mut P::SkBytes,
) -> Result<(), Error> {
    let want = Digests {
        key_generation: kat.key_generation,
        encapsulation: kat.encapsulation,
        decapsulation: kat.decapsulation,
        implicit_rejection: kat.implicit_rejection,
    };
    if run_known_answers(&mut Chain::<P> { kat, pk, sk }, &want) {
        Ok(())
    } else {
        Err(Error::SelfTest)
    }
}

/// The Classic McEliece steps of the known-answer chain, on `kat`'s inputs,
/// with the key pair in the caller's buffers.
struct Chain<'a, P: ParameterSet> {
    kat: &'a KnownAnswers<'a>,
    pk: &'a mut P::PkBytes,
    sk: &'a mut P::SkBytes,
}

impl<P: ParameterSet> KnownAnswerKem for Chain<'_, P> {
    type Ciphertext = P::CtBytes;

    /// `SHAKE256(parts…)`, 32 bytes.
    fn digest(parts: &[&[u8]]) -> [u8; 32] {
        let mut s = Shake256::new();
        for p in parts {
            s.absorb(p);
        }
        let mut out = [0u8; 32];
        s.squeeze(&mut out);
        out
    }

    /// Classic McEliece spec §8.1, KeyGen from δ.
    fn generate(&mut self) -> Option<[&[u8]; 2]> {
        if self.kat.encapsulation_randomness.is_empty() {
            return None;
        }
        kem::keypair::<P>(self.pk.as_mut(), self.sk.as_mut(), &self.kat.seed);
        Some([self.pk.as_ref(), self.sk.as_ref()])
    }

    /// §8.2, Encap, `FixedWeight` drawing the stored bytes (all of them, once).
    fn encapsulate(&mut self) -> Option<(P::CtBytes, SharedSecret)> {
        let mut rng = Replay {
            bytes: self.kat.encapsulation_randomness,
            overrun: false,
        };
        let mut c = P::CtBytes::zeroed();
        let k = SharedSecret::from(kem::encapsulate::<P, _>(
            self.pk.as_ref(),
            c.as_mut(),
            &mut rng,
        ));
        (rng.bytes.is_empty() && !rng.overrun).then_some((c, k))
    }

    /// §8.3, Decap (a modified ciphertext gives `H(0, s, C')`).
    fn decapsulate(&self, c: &P::CtBytes) -> SharedSecret {
        SharedSecret::from(kem::decapsulate::<P>(self.sk.as_ref(), c.as_ref()))
    }
}

/// Hands out stored bytes, for `FixedWeight` in the known-answer test. Past
/// the end it flags an overrun and returns the indices 0, 1, 2, … (two bytes
/// each, distinct and below n), so a corrupted input ends the attempt loop
/// (and fails the test) instead of spinning.
struct Replay<'a> {
    bytes: &'a [u8],
    overrun: bool,
}

impl rand_core::TryRng for Replay<'_> {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        if let Some((head, rest)) = self.bytes.split_at_checked(dst.len()) {
            dst.copy_from_slice(head);
            self.bytes = rest;
        } else {
            self.overrun = true;
            for (i, pair) in dst.chunks_mut(2).enumerate() {
                let index = (i as u16).to_le_bytes();
                pair.copy_from_slice(&index[..pair.len()]);
            }
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Replay<'_> {}

/// The encapsulation randomness of the pair-wise consistency test: SHAKE256
/// of a fixed label. Any weight-t error vector works (ciphertext and key are
/// discarded), and a fixed stream leaves the RNG draws of key generation as
/// the spec and the KAT files have them.
fn pct_rng() -> XofRng<Shake256> {
    let mut s = Shake256::new();
    s.absorb(b"pqdr-mceliece pair-wise consistency test");
    XofRng::new(s)
}

/// The pair-wise consistency test (FIPS 140-3 IG 10.3.A, run after every key
/// generation with the feature `self-test`): encapsulates to `pk` with a
/// fixed error vector and decapsulates with `sk`; the two session keys must
/// be equal ([`pqdr_common::self_test::pairwise_consistent`]: compared in
/// constant time, both wiped on drop). The only branch on the outcome is
/// the final pass or fail. Costs one encapsulation
/// and one decapsulation (under 1 % of a key generation).
///
/// # Errors
/// [`Error::PairwiseConsistency`] if they differ: `pk` and `sk` are not a
/// pair, which after key generation means a hardware or memory fault.
pub fn pairwise_consistency<P: ParameterSet>(
    pk: &P::PkBytes,
    sk: &P::SkBytes,
) -> Result<(), Error> {
    let consistent = pairwise_consistent(
        || {
            let mut c = P::CtBytes::zeroed();
            let k = kem::encapsulate::<P, _>(pk.as_ref(), c.as_mut(), &mut pct_rng());
            Some((c, SharedSecret::from(k)))
        },
        |c| SharedSecret::from(kem::decapsulate::<P>(sk.as_ref(), c.as_ref())),
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
pub(crate) fn assert_pairwise_consistent<P: ParameterSet>(pk: &P::PkBytes, sk: &P::SkBytes) {
    if pairwise_consistency::<P>(pk, sk).is_err() {
        panic!("Classic McEliece pair-wise consistency test failed: hardware or memory fault");
    }
}

#[cfg(all(test, feature = "alloc", feature = "mceliece348864"))]
mod tests {
    extern crate std;

    use super::*;
    use crate::Mceliece348864 as P;
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    fn buffers() -> (
        Box<<P as ParameterSet>::PkBytes>,
        Box<<P as ParameterSet>::SkBytes>,
    ) {
        (
            <P as ParameterSet>::PkBytes::boxed_zeroed(),
            <P as ParameterSet>::SkBytes::boxed_zeroed(),
        )
    }

    /// One set only: each run is a key generation.
    #[test]
    fn runner_rejects_a_wrong_expectation() {
        let (mut pk, mut sk) = buffers();
        let good = *known_answers::<P>();
        assert_eq!(run::<P>(&good, &mut pk, &mut sk), Ok(()));
        // Every expected digest, and the inputs: one flipped bit fails.
        let mut flipped: Vec<u8> = good.encapsulation_randomness.to_vec();
        flipped[0] ^= 1;
        let short = &good.encapsulation_randomness[1..];
        for field in 0..7 {
            let mut bad = good;
            match field {
                0 => bad.key_generation[0] ^= 1,
                1 => bad.encapsulation[31] ^= 0x80,
                2 => bad.decapsulation[7] ^= 4,
                3 => bad.implicit_rejection[16] ^= 1,
                4 => bad.seed[0] ^= 1,
                5 => bad.encapsulation_randomness = &flipped,
                // Too few bytes: the replay overruns and the test fails (no hang).
                _ => bad.encapsulation_randomness = short,
            }
            assert_eq!(
                run::<P>(&bad, &mut pk, &mut sk),
                Err(Error::SelfTest),
                "field {field}"
            );
        }
        assert_eq!(run::<P>(&NONE, &mut pk, &mut sk), Err(Error::SelfTest));
    }

    #[test]
    fn pairwise_consistency_rejects_a_mismatched_pair() {
        let (mut pk_a, mut sk_a) = buffers();
        let (mut pk_b, mut sk_b) = buffers();
        kem::keypair::<P>(pk_a.as_mut(), sk_a.as_mut(), &[1; 32]);
        kem::keypair::<P>(pk_b.as_mut(), sk_b.as_mut(), &[2; 32]);
        assert_eq!(pairwise_consistency::<P>(&pk_a, &sk_a), Ok(()));
        assert_eq!(pairwise_consistency::<P>(&pk_b, &sk_b), Ok(()));
        assert_eq!(
            pairwise_consistency::<P>(&pk_b, &sk_a),
            Err(Error::PairwiseConsistency)
        );
        assert_eq!(
            pairwise_consistency::<P>(&pk_a, &sk_b),
            Err(Error::PairwiseConsistency)
        );
        let caught = std::panic::catch_unwind(core::panic::AssertUnwindSafe(|| {
            assert_pairwise_consistent::<P>(&pk_b, &sk_a);
        }));
        assert!(caught.is_err(), "the infallible path panics");
    }
}

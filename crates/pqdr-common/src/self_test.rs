//! The self-test runner of the KEM crates (feature `self-test`), in the style
//! of FIPS 140-3: the known-answer chain an application runs at start-up and
//! the pair-wise consistency test run after every key generation
//! (FIPS 140-3 IG 10.3.A). Each KEM crate supplies its known answers, its
//! digest and a [`KnownAnswerKem`] implementation; no heap.
//!
//! **The chain** ([`run_known_answers`]), from the crate's fixed inputs, each
//! output compared (in constant time) through the crate's 32-byte digest:
//!
//! 1. key generation: `digest(ek ‖ dk)`;
//! 2. encapsulation with fixed randomness: `digest(c ‖ K)`;
//! 3. decapsulation of `c`: `digest(K)`;
//! 4. decapsulation of `c'` = `c` with bit 0 of byte 0 flipped, which fails
//!    the re-encryption check of every scheme here (implicit rejection):
//!    `digest(K̄)`.
//!
//! ```
//! use pqdr_common::SharedSecret;
//! use pqdr_common::self_test::{Digests, KnownAnswerKem, run_known_answers};
//!
//! /// A toy "KEM" (XOR with the key byte), only to show the plumbing.
//! struct Toy(u8);
//! fn digest(parts: &[&[u8]]) -> [u8; 32] {
//!     let mut d = [0u8; 32];
//!     for (i, b) in parts.iter().flat_map(|p| p.iter()).enumerate() {
//!         d[i & 31] ^= b;
//!     }
//!     d
//! }
//! impl KnownAnswerKem for Toy {
//!     type Ciphertext = [u8; 1];
//!     fn digest(parts: &[&[u8]]) -> [u8; 32] {
//!         digest(parts)
//!     }
//!     fn generate(&mut self) -> Option<[&[u8]; 2]> {
//!         Some([core::slice::from_ref(&self.0), &[]])
//!     }
//!     fn encapsulate(&mut self) -> Option<([u8; 1], SharedSecret)> {
//!         Some(([7 ^ self.0], SharedSecret::from([7; 32])))
//!     }
//!     fn decapsulate(&self, c: &[u8; 1]) -> SharedSecret {
//!         SharedSecret::from([c[0] ^ self.0; 32])
//!     }
//! }
//! let want = Digests {
//!     key_generation: digest(&[&[5]]),
//!     encapsulation: digest(&[&[2], &[7; 32]]),
//!     decapsulation: digest(&[&[7; 32]]),
//!     implicit_rejection: digest(&[&[6; 32]]),
//! };
//! assert!(run_known_answers(&mut Toy(5), &want));
//! assert!(!run_known_answers(&mut Toy(4), &want));
//! ```

use crate::SharedSecret;
use crate::ct::{Choice, ConstantTimeEq, bytes_eq};

/// The expected digests of the known-answer chain (see the [module
/// documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digests {
    /// `digest(ek ‖ dk)` of the generated key pair.
    pub key_generation: [u8; 32],
    /// `digest(c ‖ K)` of the encapsulation.
    pub encapsulation: [u8; 32],
    /// `digest(K)` of the decapsulation of `c`.
    pub decapsulation: [u8; 32],
    /// `digest(K̄)` of the decapsulation of `c'` (`c` with bit 0 of byte 0
    /// flipped).
    pub implicit_rejection: [u8; 32],
}

/// One KEM's steps of the known-answer chain, on its fixed inputs (held by
/// the implementor, as is the generated key pair).
pub trait KnownAnswerKem {
    /// The ciphertext bytes.
    type Ciphertext: AsRef<[u8]> + AsMut<[u8]>;
    /// The crate's 32-byte digest of the concatenation of `parts`.
    fn digest(parts: &[&[u8]]) -> [u8; 32];
    /// Generates the key pair from the fixed seed and keeps it; returns the
    /// byte views `[ek, dk]`, or `None` if generation failed.
    fn generate(&mut self) -> Option<[&[u8]; 2]>;
    /// Encapsulates to the kept public key with the fixed randomness, or
    /// `None` if that failed (or the fixed randomness was not used exactly).
    fn encapsulate(&mut self) -> Option<(Self::Ciphertext, SharedSecret)>;
    /// Decapsulates `c` with the kept secret key.
    fn decapsulate(&self, c: &Self::Ciphertext) -> SharedSecret;
}

/// Runs the known-answer chain of `kem` against `want` (see the [module
/// documentation](self)): `true` iff every step ran and every digest
/// matched. Every step runs even after a mismatch; the digests are compared
/// in constant time.
pub fn run_known_answers<K: KnownAnswerKem>(kem: &mut K, want: &Digests) -> bool {
    let digest_is = |parts: &[&[u8]], want: &[u8; 32]| bytes_eq(&K::digest(parts), want);

    // Key generation from the fixed seed.
    let Some(keys) = kem.generate() else {
        return false;
    };
    let mut ok: Choice = digest_is(&keys, &want.key_generation);

    // Encapsulation with the fixed randomness.
    let Some((mut c, k)) = kem.encapsulate() else {
        return false;
    };
    ok &= digest_is(&[c.as_ref(), k.as_bytes()], &want.encapsulation);

    // Decapsulation of the honest ciphertext.
    ok &= digest_is(&[kem.decapsulate(&c).as_bytes()], &want.decapsulation);

    // Decapsulation of a modified ciphertext: implicit rejection.
    if let Some(first) = c.as_mut().first_mut() {
        *first ^= 1;
    }
    ok &= digest_is(&[kem.decapsulate(&c).as_bytes()], &want.implicit_rejection);

    bool::from(ok)
}

/// The pair-wise consistency test (FIPS 140-3 IG 10.3.A): `encapsulate` to
/// the new public key (with the crate's fixed randomness), `decapsulate` its
/// ciphertext with the new secret key; `true` iff the two shared secrets are
/// equal (compared in constant time; both are wiped on drop) and
/// encapsulation succeeded. Only the pass or fail verdict is declassified.
#[inline(always)]
pub fn pairwise_consistent<C>(
    encapsulate: impl FnOnce() -> Option<(C, SharedSecret)>,
    decapsulate: impl FnOnce(&C) -> SharedSecret,
) -> bool {
    let Some((c, k)) = encapsulate() else {
        return false;
    };
    let mut same = k.ct_eq(&decapsulate(&c)).unwrap_u8();
    // Public by design: only pass or fail leaves the test, and a fail means
    // a fault (the keys are then discarded).
    pqdr_ctgrind::hook::declassify(&mut same);
    same == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in KEM whose every step can be broken.
    struct Toy {
        broken: u8,
        key: [u8; 2],
    }
    fn toy_digest(parts: &[&[u8]]) -> [u8; 32] {
        let mut d = [0u8; 32];
        for (i, b) in parts.iter().flat_map(|p| p.iter()).enumerate() {
            d[i & 31] = d[i & 31].wrapping_mul(31).wrapping_add(*b);
        }
        d
    }
    impl KnownAnswerKem for Toy {
        type Ciphertext = [u8; 2];
        fn digest(parts: &[&[u8]]) -> [u8; 32] {
            toy_digest(parts)
        }
        fn generate(&mut self) -> Option<[&[u8]; 2]> {
            self.key = [3, 4 ^ u8::from(self.broken == 1)];
            (self.broken != 5).then_some([&self.key[..1], &self.key[1..]])
        }
        fn encapsulate(&mut self) -> Option<([u8; 2], SharedSecret)> {
            let k = SharedSecret::from([9 ^ u8::from(self.broken == 2); 32]);
            (self.broken != 6).then_some(([1, 2], k))
        }
        fn decapsulate(&self, c: &[u8; 2]) -> SharedSecret {
            let v = if c[0] == 1 {
                9 ^ u8::from(self.broken == 3)
            } else {
                8 ^ u8::from(self.broken == 4)
            };
            SharedSecret::from([v; 32])
        }
    }

    #[test]
    fn every_broken_step_fails_the_chain() {
        let want = Digests {
            key_generation: toy_digest(&[&[3], &[4]]),
            encapsulation: toy_digest(&[&[1, 2], &[9; 32]]),
            decapsulation: toy_digest(&[&[9; 32]]),
            implicit_rejection: toy_digest(&[&[8; 32]]),
        };
        assert!(run_known_answers(
            &mut Toy {
                broken: 0,
                key: [0; 2]
            },
            &want
        ));
        for broken in 1..=6 {
            assert!(
                !run_known_answers(
                    &mut Toy {
                        broken,
                        key: [0; 2]
                    },
                    &want
                ),
                "{broken}"
            );
        }
    }

    #[test]
    fn pairwise_consistency_verdicts() {
        let k = |v: u8| SharedSecret::from([v; 32]);
        assert!(pairwise_consistent(|| Some(((), k(1))), |()| k(1)));
        assert!(!pairwise_consistent(|| Some(((), k(1))), |()| k(2)));
        assert!(!pairwise_consistent::<()>(|| None, |()| k(1)));
    }
}

//! The choice between the portable code and its AVX2 copy (feature `simd`,
//! x86-64): detected once per operation (decapsulation, prepared key,
//! public-key generation attempt). No function here is a spec step.

/// Which copy of the code runs. The outputs are identical; only the speed
/// differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// The portable code (the reference twin of the AVX2 copy).
    Portable,
    /// The same code compiled with AVX2 (`arch::x86_64`). Only
    /// [`Backend::detect`] returns it, and only on a CPU that executes AVX2.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    Avx2,
}

impl Backend {
    /// AVX2 when the feature `simd` is on, the target is x86-64 and the CPU
    /// has AVX2 (CPUID, cached); otherwise the portable code.
    #[inline]
    pub(crate) fn detect() -> Self {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if crate::arch::x86_64::has_avx2() {
            return Backend::Avx2;
        }
        Backend::Portable
    }

    /// `f()` on this backend: directly, or compiled with AVX2.
    #[inline(always)]
    pub(crate) fn run<R, F: FnOnce() -> R>(self, f: F) -> R {
        match self {
            #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
            Backend::Portable => f(),
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Portable => portable(f),
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Avx2 => crate::arch::x86_64::run(f),
        }
    }
}

/// `f()` in its own frame. With two copies of a kernel, inlining the
/// portable one into the dispatching caller would put its locals in the
/// caller's frame on top of the AVX2 copy's own (the peak stack of 348864
/// key generation grew from 61 to 84 KiB that way).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[inline(never)]
fn portable<R, F: FnOnce() -> R>(f: F) -> R {
    f()
}

/// Differential tests: every multiversioned stage (decryption, its key-only
/// part, public-key generation) on the AVX2 copy against the portable copy,
/// on random inputs: the same output bits and the same flags.
#[cfg(all(test, feature = "simd", target_arch = "x86_64", feature = "alloc"))]
mod tests {
    #[cfg(all(
        feature = "mceliece348864",
        feature = "mceliece348864f",
        feature = "mceliece460896f",
        feature = "mceliece6960119",
        feature = "mceliece8192128pcf"
    ))]
    mod sets {
        use crate::backend::Backend;
        use crate::decrypt::{Prepared, decrypt_on, decrypt_prepared_on, prepare_on};
        use crate::params::{
            Derived, Mceliece348864, Mceliece348864f, Mceliece460896f, Mceliece6960119,
            Mceliece8192128pcf, ParameterSet,
        };
        use alloc::vec;
        use alloc::vec::Vec;

        /// xorshift64 (test inputs only).
        struct Rng(u64);
        impl Rng {
            fn word(&mut self) -> u64 {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0
            }
            fn bytes(&mut self, n: usize) -> Vec<u8> {
                (0..n).map(|_| (self.word() >> 24) as u8).collect()
            }
        }
        impl rand_core::TryRng for Rng {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok((self.word() >> 32) as u32)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                Ok(self.word())
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                dst.iter_mut().for_each(|b| *b = (self.word() >> 24) as u8);
                Ok(())
            }
        }
        impl rand_core::TryCryptoRng for Rng {}

        fn avx2() -> Backend {
            let be = Backend::detect();
            assert_eq!(be, Backend::Avx2, "this test needs an AVX2 CPU");
            be
        }

        /// `Decode` of `c0` with `sk_gc` on both backends, whole and prepared:
        /// returns the flag after checking e and the flag agree everywhere.
        fn decode_both<P: ParameterSet>(sk_gc: &[u8], c0: &[u8]) -> u8 {
            let mut e0 = vec![0u8; P::N >> 3];
            let mut e1 = vec![0u8; P::N >> 3];
            let ok0 = decrypt_on::<P>(Backend::Portable, &mut e0, sk_gc, c0);
            let ok1 = decrypt_on::<P>(avx2(), &mut e1, sk_gc, c0);
            assert_eq!((ok0, &e0), (ok1, &e1), "{} decrypt", P::NAME);
            let mut p0 = alloc::boxed::Box::new(Prepared::new());
            let mut p1 = alloc::boxed::Box::new(Prepared::new());
            prepare_on::<P>(Backend::Portable, &mut p0, sk_gc);
            prepare_on::<P>(avx2(), &mut p1, sk_gc);
            assert!(
                p0.weight == p1.weight && p0.in_support == p1.in_support,
                "{} prepare",
                P::NAME
            );
            let ok2 = decrypt_prepared_on::<P>(Backend::Portable, &mut e1, sk_gc, &p0, c0);
            assert_eq!((ok0, &e0), (ok2, &e1), "{} portable prepared", P::NAME);
            let ok3 = decrypt_prepared_on::<P>(avx2(), &mut e1, sk_gc, &p1, c0);
            assert_eq!((ok0, &e0), (ok3, &e1), "{} prepared", P::NAME);
            ok0
        }

        /// Random secret keys (g, control bits: any bytes) and ciphertexts, then
        /// a real key with valid and corrupted ciphertexts (the success path).
        fn decrypt_random<P: ParameterSet>(seed: u64, iterations: usize) {
            let mut rng = Rng(seed);
            for _ in 0..iterations {
                let sk_gc = rng.bytes(P::IRR_BYTES + P::COND_BYTES);
                let c0 = rng.bytes(P::SYND_BYTES);
                decode_both::<P>(&sk_gc, &c0);
            }
            let mut pk = vec![0u8; P::PK_BYTES];
            let mut sk = vec![0u8; P::SK_BYTES];
            let mut ct = vec![0u8; P::CT_BYTES];
            crate::kem::keypair::<P>(&mut pk, &mut sk, &[seed as u8; 32]);
            for i in 0..4 {
                crate::kem::encapsulate::<P, _>(&pk, &mut ct, &mut rng);
                let mut c0 = ct[..P::SYND_BYTES].to_vec();
                if i & 1 == 1 {
                    c0[i] ^= 1 << (i & 7);
                }
                let ok = decode_both::<P>(&sk[40..40 + P::IRR_BYTES + P::COND_BYTES], &c0);
                assert_eq!(ok, if i & 1 == 1 { 0 } else { 0xFF }, "{}", P::NAME);
            }
        }

        #[test]
        fn decrypt_matches_portable() {
            decrypt_random::<Mceliece348864>(1, 200);
            decrypt_random::<Mceliece460896f>(2, 50);
            decrypt_random::<Mceliece6960119>(3, 50);
            decrypt_random::<Mceliece8192128pcf>(4, 50);
        }

        /// Public-key generation from random g and random permutations (most
        /// candidates have a singular H_left, some not: both paths) on both
        /// backends: the same key bytes, pivots, flag and permutation.
        fn pk_gen_random<P: ParameterSet>(seed: u64, iterations: usize) -> usize {
            let mut rng = Rng(seed);
            let mut accepted = 0;
            for _ in 0..iterations {
                let g: Vec<u16> = (0..P::T).map(|_| rng.word() as u16 & P::GF_MASK).collect();
                let mut pi: Vec<u16> = (0..P::Q).map(|i| i as u16).collect();
                for i in (1..P::Q).rev() {
                    pi.swap(i, (rng.word() % (i as u64 + 1)) as usize);
                }
                let mut pi1 = pi.clone();
                let mut pk0 = vec![0u8; P::PK_BYTES];
                let mut pk1 = vec![0u8; P::PK_BYTES];
                let mut sup0 = vec![0u16; P::N];
                let mut sup1 = vec![0u16; P::N];
                let r0 = crate::pk_gen::pk_gen_on::<P>(
                    Backend::Portable,
                    &mut pk0,
                    &g,
                    &mut pi,
                    &mut sup0,
                );
                let r1 = crate::pk_gen::pk_gen_on::<P>(avx2(), &mut pk1, &g, &mut pi1, &mut sup1);
                assert_eq!(r0, r1, "{} flag", P::NAME);
                assert!(pk0 == pk1 && pi == pi1 && sup0 == sup1, "{} key", P::NAME);
                accepted += usize::from(r0.is_some());
            }
            accepted
        }

        #[test]
        fn pk_gen_matches_portable() {
            let a = pk_gen_random::<Mceliece348864>(5, 16);
            let b = pk_gen_random::<Mceliece348864f>(6, 6);
            let c = pk_gen_random::<Mceliece460896f>(7, 3);
            let d = pk_gen_random::<Mceliece6960119>(8, 8);
            // Both outcomes met: accepted and rejected candidates.
            assert!(
                a > 0 && a < 16 && b > 0 && c > 0 && d > 0 && d < 8,
                "{a} {b} {c} {d}"
            );
        }
    }
}

//! Constant-time check under valgrind memcheck (see the workspace's
//! docs/constant-time.md): secret inputs are marked undefined with
//! `pqdr_ctgrind::classify`; any branch or memory index depending on them fails the
//! run. Natively these tests only exercise the code.
//!
//! With the feature `simd` (default) on x86-64 the decapsulation tests
//! assert that AVX2 is detected, so the AVX2 decoder (products, butterflies)
//! is the code under check.
//!
//! `CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --track-origins=yes"
//!  RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-mceliece --test ct_valgrind`

mod common;

use common::{TestRng, boxed_array, random_key_and_ciphertext};
use pqdr_mceliece::{Buf, ParameterSet};

/// Like `TestRng`, but everything it emits is marked secret (TIMECOP style).
struct PoisonRng(TestRng);
impl rand_core::TryRng for PoisonRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut v = (self.0.next_word() >> 32) as u32;
        pqdr_ctgrind::classify(&mut v);
        Ok(v)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut v = self.0.next_word();
        pqdr_ctgrind::classify(&mut v);
        Ok(v)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst.iter_mut() {
            *b = (self.0.next_word() >> 56) as u8;
        }
        pqdr_ctgrind::classify(dst);
        Ok(())
    }
}
impl rand_core::TryCryptoRng for PoisonRng {}

/// With the feature `simd` on x86-64 the AVX2 decoder is the code checked
/// here: the CPU, as valgrind presents it (3.19 reports AVX2), must have
/// AVX2, or this file would silently check only the portable code.
fn assert_avx2_is_checked() {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    assert!(
        std::is_x86_feature_detected!("avx2"),
        "no AVX2 detected: the AVX2 path would not be checked"
    );
}

/// Decapsulation with the whole secret key and the ciphertext secret. The key
/// is random bytes in the right format (valid c; every byte of g, the control
/// bits and s arbitrary): decapsulation runs the same instructions for any key.
fn decaps_random_key<P: ParameterSet>(seed: u64) {
    assert_avx2_is_checked();
    let (mut sk, mut ct) = random_key_and_ciphertext::<P>(seed);
    pqdr_ctgrind::classify(sk.as_mut());
    pqdr_ctgrind::classify(ct.as_mut());
    let ss = pqdr_mceliece::decapsulate::<P>(&sk, &ct);
    let mut out = *ss.as_bytes();
    pqdr_ctgrind::declassify(&mut out);
    core::hint::black_box(out);
}

/// [`DecapsulationKey::prepare`] and the prepared decapsulation, with the
/// key object (after parsing, which checks the public format) and the
/// ciphertext secret.
fn prepared_random_key<P: ParameterSet>(seed: u64) {
    assert_avx2_is_checked();
    let (mut sk, ct) = random_key_and_ciphertext::<P>(seed);
    // g's coefficients in range (from_slice rejects set high bits).
    let high = u8::try_from(((1u32 << P::M) - 1) >> 8).expect("m <= 16");
    for i in 0..P::T {
        sk.as_mut()[41 + 2 * i] &= high;
    }
    let mut dk = pqdr_mceliece::DecapsulationKey::<P>::from_slice(sk.as_ref()).expect("format");
    pqdr_ctgrind::classify(&mut dk);
    let prepared = dk.prepare();
    let mut ct = pqdr_mceliece::Ciphertext::<P>::from_slice(ct.as_ref()).expect("format");
    pqdr_ctgrind::classify(&mut ct);
    let ss = prepared.decapsulate(&ct);
    let mut out = *ss.as_bytes();
    pqdr_ctgrind::declassify(&mut out);
    core::hint::black_box(out);
}

#[test]
fn prepared_348864() {
    prepared_random_key::<pqdr_mceliece::Mceliece348864>(11);
}

#[test]
fn prepared_6960119() {
    prepared_random_key::<pqdr_mceliece::Mceliece6960119>(12);
}

#[test]
fn prepared_8192128pcf() {
    prepared_random_key::<pqdr_mceliece::Mceliece8192128pcf>(13);
}

macro_rules! decaps_tests {
    ($($test:ident: $ty:ident;)*) => {$(
        #[test]
        fn $test() {
            decaps_random_key::<pqdr_mceliece::$ty>(line!() as u64);
        }
    )*};
}

decaps_tests! {
    decaps_348864: Mceliece348864;
    decaps_348864f: Mceliece348864f;
    decaps_460896: Mceliece460896;
    decaps_460896f: Mceliece460896f;
    decaps_6688128: Mceliece6688128;
    decaps_6688128f: Mceliece6688128f;
    decaps_6960119: Mceliece6960119;
    decaps_6960119f: Mceliece6960119f;
    decaps_8192128: Mceliece8192128;
    decaps_8192128f: Mceliece8192128f;
    // The pc sets add the C1 check to Decap; one per field size.
    decaps_348864pc: Mceliece348864pc;
    decaps_8192128pcf: Mceliece8192128pcf;
}

/// Key generation with a secret seed, then encapsulation with a secret error
/// vector, then decapsulation of a valid and of a tampered ciphertext with the
/// secret key classified (348864).
#[test]
fn keygen_encaps_decaps_348864() {
    use pqdr_mceliece::mceliece348864 as k;
    let mut rng = PoisonRng(TestRng(5));
    let mut pk = boxed_array::<{ k::ENCAPSULATION_KEY_SIZE }>();
    let mut sk = [0u8; k::DECAPSULATION_KEY_SIZE];
    k::generate_into(&mut pk, &mut sk, &mut rng);
    // The public key is public.
    pqdr_ctgrind::declassify(pk.as_mut_slice());
    let mut ct = [0u8; k::CIPHERTEXT_SIZE];
    let ss = k::encapsulate_into(&pk, &mut ct, &mut rng);
    pqdr_ctgrind::declassify(&mut ct);
    for flip in [false, true] {
        let mut c = ct;
        if flip {
            c[3] ^= 0x10;
        }
        pqdr_ctgrind::classify(&mut sk);
        pqdr_ctgrind::classify(&mut c);
        let k2 = k::decapsulate(&sk, &c);
        let mut a = *k2.as_bytes();
        let mut b = *ss.as_bytes();
        pqdr_ctgrind::declassify(&mut a);
        pqdr_ctgrind::declassify(&mut b);
        assert_eq!(a == b, !flip);
    }
}

/// Key generation from a secret seed: every value it derives is secret; the
/// only declassifications are the spec's rejections (and the self-check of
/// the control bits). 348864 runs in `keygen_encaps_decaps_348864`.
fn keygen_secret_seed<P: ParameterSet>(seed: u8) {
    let mut pk = P::PkBytes::boxed_zeroed();
    let mut sk = P::SkBytes::zeroed();
    let mut delta = [seed; 32];
    pqdr_ctgrind::classify(&mut delta);
    pqdr_mceliece::generate_deterministic_into::<P>(&mut pk, &mut sk, &delta);
    pqdr_ctgrind::declassify(pk.as_mut().as_mut());
    core::hint::black_box(&pk);
}

macro_rules! keygen_tests {
    ($($name:ident: $ty:ident;)*) => {$(
        #[test]
        fn $name() {
            keygen_secret_seed::<pqdr_mceliece::$ty>(line!().to_le_bytes()[0]);
        }
    )*};
}

// Every round-4 set (each is its own instantiation, so its own machine
// code); the pc sets run the same key generation as their base sets.
keygen_tests! {
    keygen_348864f: Mceliece348864f;
    keygen_460896: Mceliece460896;
    keygen_460896f: Mceliece460896f;
    keygen_6688128: Mceliece6688128;
    keygen_6688128f: Mceliece6688128f;
    keygen_6960119: Mceliece6960119;
    keygen_6960119f: Mceliece6960119f;
    keygen_8192128: Mceliece8192128;
    keygen_8192128f: Mceliece8192128f;
}

/// Must FAIL under valgrind (proves the harness is live): `-- --ignored canary`.
#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_branch_is_detected() {
    let mut s = [1u8; 4];
    pqdr_ctgrind::classify(&mut s);
    if core::hint::black_box(s)[0] == 1 {
        core::hint::black_box(1);
    }
}

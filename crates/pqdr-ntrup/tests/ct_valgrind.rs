//! Constant-time check under valgrind memcheck (see the crate README):
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" CARGO_TARGET_DIR=/work/target-ct-ntrup \
//! cargo test --release -p pqdr-ntrup --test ct_valgrind
//! ```
//!
//! Secrets are marked undefined: every byte the RNG returns (so g, f, rho in
//! key generation and r in encapsulation), the secret parts of the
//! decapsulation key (f, 1/g, rho), and the whole ciphertext given to
//! decapsulation (valid and tampered: the re-encryption comparison and the
//! implicit-rejection select must not branch), also through a prepared key
//! (`DecapsulationKey::prepare`, the transforms of f, 1/g and h). The only declassification is
//! key generation's "g not invertible in R/3" retry decision. Outputs are
//! declassified by the test before they are compared. Natively the client
//! requests are no-ops and the test is an ordinary round trip.
mod common;

use common::{TestRng, for_each_set, small_bytes};
use pqdr_ntrup::{Ciphertext, DecapsulationKey, ParameterSet, Sntrup761, sntrup761};

fn run<S: ParameterSet>() {
    let mut rng = TestRng::secret(0x1234_5678_9abc_def1 ^ S::P as u64);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, ss) = ek.encapsulate(&mut rng);

    // Public outputs become public again for the test's own checks.
    let mut sk = dk.as_bytes().as_ref().to_vec();
    let mut ct_bytes = ct.as_bytes().as_ref().to_vec();
    let mut ss_bytes = *ss.as_bytes();
    pqdr_ctgrind::declassify(&mut sk[..]);
    pqdr_ctgrind::declassify(&mut ct_bytes[..]);
    pqdr_ctgrind::declassify(&mut ss_bytes);

    let sb = small_bytes::<S>();
    let pk_len = ek.as_bytes().as_ref().len();
    for tamper in [None, Some(0usize), Some(ct_bytes.len() - 1)] {
        let mut c = ct_bytes.clone();
        if let Some(pos) = tamper {
            c[pos] ^= 0x10;
        }
        let mut key = sk.clone();
        pqdr_ctgrind::classify(&mut key[..2 * sb]); // f, 1/g
        pqdr_ctgrind::classify(&mut key[2 * sb + pk_len..3 * sb + pk_len]); // rho
        pqdr_ctgrind::classify(&mut c[..]);
        let dk2 = DecapsulationKey::<S>::from_slice(&key).expect("valid key");
        let ct2 = Ciphertext::<S>::from_slice(&c).expect("length");
        let mut k = *dk2.decapsulate(&ct2).as_bytes();
        pqdr_ctgrind::declassify(&mut k);
        assert_eq!(k == ss_bytes, tamper.is_none(), "{}", S::NAME);
        // The prepared key: the transforms of the secret f and 1/g (and h),
        // made and used.
        let mut kp = *dk2.prepare().decapsulate(&ct2).as_bytes();
        pqdr_ctgrind::declassify(&mut kp);
        assert_eq!(kp, k, "{} prepared", S::NAME);
    }
}

/// The PQClean draw pattern shares everything but the RNG calls.
#[test]
fn pqclean_pattern_is_constant_time() {
    let mut rng = TestRng::secret(0x0bad_5eed_1234_5678);
    let (dk, ek) = DecapsulationKey::<Sntrup761>::generate_pqclean(&mut rng);
    let (ct, ss) = ek.encapsulate_pqclean(&mut rng);
    let mut k = *dk.decapsulate(&ct).as_bytes();
    let mut want = *ss.as_bytes();
    pqdr_ctgrind::declassify(&mut k);
    pqdr_ctgrind::declassify(&mut want);
    assert_eq!(k, want);
}

/// PKCS#8 private keys (feature `pkcs8`, BouncyCastle 1.87's five-field
/// SEQUENCE): encoding, and decoding with the secret fields inside the DER
/// (f, 1/g, rho) classified; the tags, lengths and public fields stay
/// defined (the parser branches on them, and they are public).
#[cfg(feature = "pkcs8")]
fn pkcs8_private_key<S: ParameterSet>() {
    let mut rng = TestRng::secret(0x0bad_cafe ^ S::P as u64);
    let (dk, _) = DecapsulationKey::<S>::generate(&mut rng);
    let mut buf = vec![0u8; 16384];
    let mut der = dk.to_private_key_der(&mut buf).expect("fits").to_vec();
    pqdr_ctgrind::declassify(&mut der[..]);
    let mut sk = dk.as_bytes().as_ref().to_vec();
    pqdr_ctgrind::declassify(&mut sk[..]);
    let sb = small_bytes::<S>();
    let pk_len = sk.len() - 3 * sb - 32;
    let find = |needle: &[u8]| {
        let at = der
            .windows(needle.len())
            .position(|w| w == needle)
            .expect("present");
        at..at + needle.len()
    };
    let mut secret = der.clone();
    pqdr_ctgrind::classify(&mut secret[find(&sk[..sb])]); // f
    pqdr_ctgrind::classify(&mut secret[find(&sk[sb..2 * sb])]); // 1/g
    pqdr_ctgrind::classify(&mut secret[find(&sk[2 * sb + pk_len..3 * sb + pk_len])]); // rho
    let back = DecapsulationKey::<S>::from_private_key_der(&secret).expect("valid");
    let mut got = back.as_bytes().as_ref().to_vec();
    pqdr_ctgrind::declassify(&mut got[..]);
    assert_eq!(got, sk, "{}", S::NAME);
}

#[cfg(feature = "pkcs8")]
#[test]
fn pkcs8_private_key_is_constant_time() {
    for_each_set!(pkcs8_private_key());
}

#[test]
fn keygen_encaps_decaps_are_constant_time() {
    // With `simd` on x86-64 the operations pick the AVX2 kernels (products,
    // reciprocals, the sorting network of Short_random, which sorts the
    // secret RNG words of f and r) when the CPU reports AVX2, as valgrind's
    // does: assert it,
    // so this check cannot silently cover only the portable code.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    assert!(
        std::is_x86_feature_detected!("avx2"),
        "no AVX2 reported: the AVX2 kernels would not be checked"
    );
    for_each_set!(run());
}

/// Must FAIL under valgrind (proves the harness is live):
/// `… --test ct_valgrind -- --ignored canary`.
#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_branch_is_detected() {
    let mut s = [1u8; 4];
    pqdr_ctgrind::classify(&mut s);
    if core::hint::black_box(s)[0] == 1 {
        core::hint::black_box(1);
    }
}

/// Must FAIL under valgrind: the naive ciphertext check (compare, then copy
/// `r_enc` or `rho` depending on the result) branches on the secret
/// comparison, the pattern this crate replaces with `subtle` byte selects.
/// `… --test ct_valgrind -- --ignored canary_naive`.
#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_naive_ciphertext_check_is_detected() {
    let mut ct = [1u8; sntrup761::CIPHERTEXT_SIZE];
    let cnew = [1u8; sntrup761::CIPHERTEXT_SIZE];
    pqdr_ctgrind::classify(&mut ct);
    let (r_enc, rho) = ([3u8; sntrup761::INPUTS_SIZE], [2u8; sntrup761::INPUTS_SIZE]);
    let mut chosen = [0u8; sntrup761::INPUTS_SIZE];
    if core::hint::black_box(&ct)[..] == cnew[..] {
        chosen.copy_from_slice(&r_enc);
    } else {
        chosen.copy_from_slice(&rho);
    }
    core::hint::black_box(chosen);
}

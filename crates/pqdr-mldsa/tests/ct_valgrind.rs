//! Constant-time check under valgrind memcheck ("ctgrind"): secret inputs are
//! marked undefined, and memcheck reports any branch or memory index that
//! depends on them. Run (must exit 0):
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" CARGO_TARGET_DIR=/work/target-ct-mldsa \
//!   cargo test --release -p pqdr-mldsa --test ct_valgrind
//! ```
//!
//! Also clean (checked) with `CARGO_PROFILE_RELEASE_OPT_LEVEL` = `1`, `s` and
//! `z`: at `z` LLVM had turned two 0/−1 mask forms (a norm-check accumulator
//! and Decompose's corner case for γ2 = (q−1)/88) into branches, so those are
//! written without masks.
//!
//! With the feature `simd` on an AVX2 machine (asserted) this checks the AVX2
//! code paths: NTTs, pointwise products and the 4-way samplers.
//!
//! Secrets classified: ξ (key generation), the encoded signing key and rnd
//! (signing, hedged). The crate declassifies only at FIPS 204's public
//! points: ρ (seeds the public Â), the public key, the rejection decision of
//! each signing attempt and of the secret-seeded samplers, validity of a
//! decoded key, and the final signature.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::for_each_set;
use pqdr_ctgrind::classify;
#[cfg(feature = "pkcs8")]
use pqdr_ctgrind::declassify;
use pqdr_mldsa::{ParameterSet, PreHash, SigningKey};

fn keygen_and_sign<P: ParameterSet>() {
    let mut xi = [0x5au8; 32];
    classify(&mut xi);
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&xi);

    // Re-import the expanded key with every byte secret.
    let mut sk_bytes = *sk.as_bytes();
    classify(sk_bytes.as_mut());
    let sk2 = SigningKey::<P>::from_array(&sk_bytes).expect("valid key");

    for round in 0..3u8 {
        let mut rnd = [round; 32];
        classify(&mut rnd);
        let msg = [round; 100];
        let sig = sk2.sign_with_rnd(&msg, b"ctx", &rnd).expect("sign");
        assert!(vk.verify(&msg, b"ctx", &sig).is_ok());
        let mut buf = [0u8; 64];
        let digest = PreHash::Sha2_256.digest(&msg, &mut buf);
        let sig = sk
            .sign_prehash_with_rnd(PreHash::Sha2_256, digest, b"", &rnd)
            .expect("sign");
        assert!(
            vk.verify_prehash(PreHash::Sha2_256, digest, b"", &sig)
                .is_ok()
        );
    }
    // The expanded key: the precomputed NTT(s1), NTT(s2), NTT(t0) are secret too.
    let esk = sk2.expand();
    let mut rnd = [9u8; 32];
    classify(&mut rnd);
    let sig = esk.sign_with_rnd(b"expanded", b"", &rnd).expect("sign");
    assert!(vk.verify(b"expanded", b"", &sig).is_ok());
    let sig = sk2.sign_deterministic(b"deterministic", b"").expect("sign");
    assert!(vk.verify(b"deterministic", b"", &sig).is_ok());
}

/// LEGACY round-3.1 Dilithium (feature `dilithium-r3`): key generation from
/// a classified ζ, a secret key re-imported with every byte classified, and
/// deterministic signing (ρ' = H(K ‖ μ)) with it.
#[cfg(feature = "dilithium-r3")]
fn dilithium_r3<P: pqdr_mldsa::dilithium_r3::Round3Set>() {
    use pqdr_mldsa::dilithium_r3;
    let mut zeta = [0x3cu8; 32];
    classify(&mut zeta);
    let (sk, vk) = dilithium_r3::generate_deterministic::<P>(&zeta);
    let mut sk_bytes = *sk.as_bytes();
    classify(sk_bytes.as_mut());
    let sk2 = SigningKey::<P>::from_array(&sk_bytes).expect("valid key");
    for round in 0..3u8 {
        let msg = [round; 100];
        let sig = dilithium_r3::sign(&sk2, &msg);
        assert!(dilithium_r3::verify(&vk, &msg, &sig).is_ok());
    }
}

#[cfg(feature = "dilithium-r3")]
#[test]
fn dilithium_r3_is_constant_time() {
    use pqdr_mldsa::dilithium_r3::{Dilithium2, Dilithium3, Dilithium5};
    dilithium_r3::<Dilithium2>();
    dilithium_r3::<Dilithium3>();
    dilithium_r3::<Dilithium5>();
}

/// The byte range of `needle` inside `hay` (test data, before classifying).
#[cfg(feature = "pkcs8")]
fn find(hay: &[u8], needle: &[u8]) -> core::ops::Range<usize> {
    let at = hay
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present");
    at..at + needle.len()
}

/// PKCS#8 private keys (RFC 9881 §6, feature `pkcs8`): encoding each form
/// from a classified seed, and decoding each form with the secret bytes in
/// the DER classified: the seed ξ, and K, s1, s2 and t0 of the expanded key
/// (ρ and tr are public). Decoding the expanded form regenerates t and checks
/// t0 and tr (skDecode); a `both` whose expanded key differs in t0 must be
/// refused with no secret-dependent branch before the verdict.
#[cfg(feature = "pkcs8")]
fn pkcs8_private_key<P: ParameterSet>() {
    use pqdr_mldsa::{Error, PrivateKeyForm};
    let xi = [0x5cu8; 32];
    let sk_ref = SigningKey::<P>::from_seed(&xi);
    let expanded = sk_ref.as_bytes().as_ref().to_vec();
    let mut buf = [0u8; 8192];
    for form in [
        PrivateKeyForm::Seed,
        PrivateKeyForm::ExpandedKey,
        PrivateKeyForm::Both,
    ] {
        let der = sk_ref
            .to_private_key_der(form, &mut buf)
            .expect("fits")
            .to_vec();

        let mut s = xi;
        classify(&mut s);
        let mut out = [0u8; 8192];
        let mut enc = SigningKey::<P>::from_seed(&s)
            .to_private_key_der(form, &mut out)
            .expect("fits")
            .to_vec();
        declassify(&mut enc[..]);
        assert_eq!(enc, der);

        // ρ (32) ‖ K (32) ‖ tr (64) ‖ s1 ‖ s2 ‖ t0: classify K and s1‖s2‖t0.
        let secret_parts = |d: &mut Vec<u8>| {
            if form != PrivateKeyForm::ExpandedKey {
                classify(&mut d[find(&der, &xi)]);
            }
            if form != PrivateKeyForm::Seed {
                let e = find(&der, &expanded);
                classify(&mut d[e.start + 32..e.start + 64]);
                classify(&mut d[e.start + 128..e.end]);
            }
        };
        let mut secret = der.clone();
        secret_parts(&mut secret);
        let sk = SigningKey::<P>::from_private_key_der(&secret).expect("valid");
        let mut got = sk.as_bytes().as_ref().to_vec();
        declassify(&mut got[..]);
        assert_eq!(got, expanded);

        if form == PrivateKeyForm::Both {
            let mut bad = der.clone();
            let e = find(&der, &expanded);
            bad[e.end - 1] ^= 1;
            secret_parts(&mut bad);
            assert_eq!(
                SigningKey::<P>::from_private_key_der(&bad).err(),
                Some(Error::InconsistentKey)
            );
        }
    }
}

#[cfg(feature = "pkcs8")]
#[test]
fn pkcs8_private_key_is_constant_time() {
    for_each_set!(pkcs8_private_key());
}

#[test]
fn keygen_and_sign_every_set() {
    // With `simd` on x86-64 the AVX2 code must be what is checked: NTTs,
    // pointwise products, 4-way samplers (with idle lanes), ExpandMask's
    // `mask_unpack` on the secret SHAKE256(ρ''‖κ) bytes, and signing's
    // `z_pack`, `w1_pack`, `low_bits_check` on the secret z, w, cs2 of
    // every attempt, for every set's γ1 and γ2. This machine, and valgrind
    // (3.19 executes AVX2 and reports it in CPUID), must have AVX2, else the
    // crate would silently dispatch to the portable code only.
    #[cfg(all(target_arch = "x86_64", feature = "simd"))]
    {
        assert!(
            std::is_x86_feature_detected!("avx2"),
            "no AVX2: the AVX2 paths would not be checked"
        );
        assert!(pqdr_common::simd::Avx2::detect().is_some());
    }
    for_each_set!(keygen_and_sign());
}

/// Must FAIL under valgrind (proves the harness is live): `-- --ignored canary`.
#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_branch_is_detected() {
    let mut s = [1u8; 4];
    classify(&mut s);
    if core::hint::black_box(s)[0] == 1 {
        core::hint::black_box(1);
    }
}

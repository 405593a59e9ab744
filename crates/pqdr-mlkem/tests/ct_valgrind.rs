//! Constant-time check under valgrind memcheck (see docs/constant-time.md).
//!
//! The secret inputs are marked undefined with `pqdr_ctgrind::classify`: `d` and
//! `z` (key generation), `m` (encapsulation), the `dk_PKE` and `z` parts of
//! the decapsulation key and the ciphertext (decapsulation, both a valid and
//! a modified ciphertext). Memcheck then reports any branch or memory index
//! that depends on them. The crate itself declassifies only the public seed
//! `ρ` (`pqdr_ctgrind::hook::declassify`, active with `--cfg pqct_valgrind`), so
//! the rejection sampling of `Â` is not reported. Outputs are declassified
//! before they are compared.
//!
//! ```sh
//! CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="valgrind -q --error-exitcode=1 --track-origins=yes" \
//! RUSTFLAGS="--cfg pqct_valgrind" cargo test --release -p pqdr-mlkem --test ct_valgrind
//! ```
//! Natively (no valgrind) the client requests are no-ops and the tests simply pass.
//! With the feature `simd` (default) on x86-64 the tests assert that AVX2 is
//! detected, so the AVX2 arithmetic is the code under check.

mod common;

use common::for_each_set;
use pqdr_ctgrind::{classify, declassify};
use pqdr_mlkem::{Ciphertext, DecapsulationKey, ParameterSet};

fn keygen<P: ParameterSet>() {
    let (d0, z0) = ([0x11u8; 32], [0x22u8; 32]);
    let (dk_ref, _) = pqdr_mlkem::generate_deterministic::<P>(&d0, &z0);

    let (mut d, mut z) = (d0, z0);
    classify(&mut d);
    classify(&mut z);
    let (dk, ek) = pqdr_mlkem::generate_deterministic::<P>(&d, &z);
    let mut dk_bytes = dk.as_bytes().as_ref().to_vec();
    let mut ek_bytes = ek.as_bytes().as_ref().to_vec();
    declassify(&mut dk_bytes[..]);
    declassify(&mut ek_bytes[..]);
    assert_eq!(dk_bytes, dk_ref.as_bytes().as_ref());
    assert_eq!(ek_bytes, dk_ref.encapsulation_key().as_bytes().as_ref());
}

fn encaps<P: ParameterSet>() {
    let dk = DecapsulationKey::<P>::from_seed(&[0x33; 64]);
    let ek = dk.encapsulation_key();
    let (ct_ref, ss_ref) = ek.encapsulate_deterministic(&[0x44; 32]);

    let mut m = [0x44u8; 32];
    classify(&mut m);
    let (ct, ss) = ek.encapsulate_deterministic(&m);
    let mut ct_bytes = ct.as_bytes().as_ref().to_vec();
    let mut ss_bytes = *ss.as_bytes();
    declassify(&mut ct_bytes[..]);
    declassify(&mut ss_bytes);
    assert_eq!(ct_bytes, ct_ref.as_bytes().as_ref());
    assert_eq!(&ss_bytes, ss_ref.as_bytes());
}

fn decaps<P: ParameterSet>(tamper: bool) {
    let dk_ref = DecapsulationKey::<P>::from_seed(&[0x55; 64]);
    let (ct_ref, ss_ref) = dk_ref
        .encapsulation_key()
        .encapsulate_deterministic(&[0x66; 32]);
    let mut ct_bytes = ct_ref.as_bytes().as_ref().to_vec();
    if tamper {
        ct_bytes[17] ^= 0x04;
    }
    let expected = *dk_ref
        .decapsulate(&Ciphertext::<P>::from_slice(&ct_bytes).expect("length"))
        .as_bytes();
    assert_eq!(expected == *ss_ref.as_bytes(), !tamper);

    // dk = dk_PKE ‖ ek ‖ H(ek) ‖ z: the secret parts are dk_PKE and z.
    let mut dk_bytes = dk_ref.as_bytes().as_ref().to_vec();
    let dk_pke_len = 384 * P::K;
    let z_at = dk_bytes.len() - 32;
    classify(&mut dk_bytes[..dk_pke_len]);
    classify(&mut dk_bytes[z_at..]);
    classify(&mut ct_bytes[..]);
    let dk = DecapsulationKey::<P>::from_slice(&dk_bytes).expect("valid key");
    let ct = Ciphertext::<P>::from_slice(&ct_bytes).expect("length");
    let mut ss = *dk.decapsulate(&ct).as_bytes();
    declassify(&mut ss);
    assert_eq!(ss, expected);
}

/// With the feature `simd` on x86-64 the AVX2 arithmetic (NTT, NTT⁻¹,
/// base multiplication, reduction) is the code checked here: the CPU, as
/// valgrind presents it (3.19 reports AVX2), must have AVX2, or this file
/// would silently check only the portable code.
fn assert_avx2_is_checked() {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    assert!(
        std::is_x86_feature_detected!("avx2"),
        "no AVX2 detected: the AVX2 path would not be checked"
    );
}

#[test]
fn keygen_is_constant_time() {
    assert_avx2_is_checked();
    for_each_set!(keygen());
}

#[test]
fn encaps_is_constant_time() {
    assert_avx2_is_checked();
    for_each_set!(encaps());
}

#[test]
fn decaps_valid_ciphertext_is_constant_time() {
    assert_avx2_is_checked();
    for_each_set!(decaps(false));
}

#[test]
fn decaps_modified_ciphertext_is_constant_time() {
    assert_avx2_is_checked();
    for_each_set!(decaps(true));
}

/// LEGACY round-3 Kyber (feature `kyber-r3`): the same secrets classified
/// (`d`, `z`; the coins; `s`, `z` and the ciphertext), through its own FO
/// transform (`m = H(coins)`, `KDF(K̄ or z ‖ H(c))`).
#[cfg(feature = "kyber-r3")]
fn kyber_r3<P: ParameterSet>(tamper: bool) {
    use pqdr_mlkem::kyber_r3::DecapsulationKey as Dk;
    let dk_ref = Dk::<P>::generate_deterministic(&[0x11; 32], &[0x22; 32]);
    let (mut d, mut z) = ([0x11u8; 32], [0x22u8; 32]);
    classify(&mut d);
    classify(&mut z);
    let mut dk_bytes = Dk::<P>::generate_deterministic(&d, &z)
        .as_bytes()
        .as_ref()
        .to_vec();
    declassify(&mut dk_bytes[..]);
    assert_eq!(dk_bytes, dk_ref.as_bytes().as_ref());

    let ek = dk_ref.encapsulation_key();
    let (ct_ref, ss_ref) = ek.encapsulate_deterministic(&[0x44; 32]);
    let mut coins = [0x44u8; 32];
    classify(&mut coins);
    let (ct, ss) = ek.encapsulate_deterministic(&coins);
    let mut got = ct.as_bytes().as_ref().to_vec();
    got.extend_from_slice(ss.as_bytes());
    declassify(&mut got[..]);
    assert_eq!(got[..got.len() - 32], *ct_ref.as_bytes().as_ref());
    assert_eq!(got[got.len() - 32..], *ss_ref.as_bytes());

    let mut ct_bytes = ct_ref.as_bytes().as_ref().to_vec();
    if tamper {
        ct_bytes[17] ^= 0x04;
    }
    let expected = *dk_ref
        .decapsulate(&Ciphertext::<P>::from_slice(&ct_bytes).expect("length"))
        .as_bytes();
    assert_eq!(expected == *ss_ref.as_bytes(), !tamper);
    let dk_pke_len = 384 * P::K;
    let z_at = dk_bytes.len() - 32;
    classify(&mut dk_bytes[..dk_pke_len]);
    classify(&mut dk_bytes[z_at..]);
    classify(&mut ct_bytes[..]);
    let dk = Dk::<P>::from_slice(&dk_bytes).expect("valid key");
    let mut ss = *dk
        .decapsulate(&Ciphertext::<P>::from_slice(&ct_bytes).expect("length"))
        .as_bytes();
    declassify(&mut ss);
    assert_eq!(ss, expected);
}

#[cfg(feature = "kyber-r3")]
#[test]
fn kyber_r3_is_constant_time() {
    assert_avx2_is_checked();
    for_each_set!(kyber_r3(false));
    for_each_set!(kyber_r3(true));
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

/// PKCS#8 private keys (RFC 9935 §6, feature `pkcs8`): encoding a key in each
/// form, and decoding each form with the secret bytes in the DER (the seed,
/// and the `dk_PKE` and `z` parts of the expanded key) classified. The DER
/// tags and lengths and the public parts stay defined: they are public, and
/// the parser branches on them. A `both` whose expanded key differs in z must
/// be refused without a secret-dependent branch before the verdict.
#[cfg(feature = "pkcs8")]
fn pkcs8_private_key<P: ParameterSet>() {
    use pqdr_mlkem::{Error, PrivateKeyForm};
    let seed = [0x77u8; 64];
    let dk_ref = DecapsulationKey::<P>::from_seed(&seed);
    let expanded = dk_ref.as_bytes().as_ref().to_vec();
    let dk_pke_len = 384 * P::K;
    let mut buf = [0u8; 8192];
    for form in [
        PrivateKeyForm::Seed,
        PrivateKeyForm::ExpandedKey,
        PrivateKeyForm::Both,
    ] {
        let der = dk_ref
            .to_private_key_der(form, &mut buf)
            .expect("fits")
            .to_vec();

        // Encoding from a classified seed.
        let mut s = seed;
        classify(&mut s);
        let mut out = [0u8; 8192];
        let mut enc = DecapsulationKey::<P>::from_seed(&s)
            .to_private_key_der(form, &mut out)
            .expect("fits")
            .to_vec();
        declassify(&mut enc[..]);
        assert_eq!(enc, der);

        // Decoding with the secret bytes classified.
        let mut secret = der.clone();
        if form != PrivateKeyForm::ExpandedKey {
            classify(&mut secret[find(&der, &seed)]);
        }
        if form != PrivateKeyForm::Seed {
            let e = find(&der, &expanded);
            classify(&mut secret[e.start..e.start + dk_pke_len]);
            classify(&mut secret[e.end - 32..e.end]);
        }
        let dk = DecapsulationKey::<P>::from_private_key_der(&secret).expect("valid");
        let mut got = dk.as_bytes().as_ref().to_vec();
        declassify(&mut got[..]);
        assert_eq!(got, expanded);

        // An inconsistent `both`: z of the expanded key changed.
        if form == PrivateKeyForm::Both {
            let mut bad = der.clone();
            let e = find(&der, &expanded);
            bad[e.end - 1] ^= 1;
            classify(&mut bad[find(&der, &seed)]);
            classify(&mut bad[e.start..e.start + dk_pke_len]);
            classify(&mut bad[e.end - 32..e.end]);
            assert_eq!(
                DecapsulationKey::<P>::from_private_key_der(&bad).err(),
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

/// Negative control: must FAIL under valgrind (a branch on a classified
/// byte), proving the harness is live. Run with `-- --ignored canary`.
#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_secret_branch_is_detected() {
    let mut s = [1u8; 4];
    classify(&mut s);
    if core::hint::black_box(s)[0] == 1 {
        core::hint::black_box(1);
    }
}

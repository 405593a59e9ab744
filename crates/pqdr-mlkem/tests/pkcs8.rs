//! PKCS#8 / SubjectPublicKeyInfo encodings (RFC 9935, feature `pkcs8`).
//!
//! Known answers: the RFC 9935 Appendix C examples in `vectors/pkcs8/` (seed-form
//! private keys and public keys of every set, the `both` form of ML-KEM-768;
//! see `vectors/pkcs8/README.md`). Every example is decoded, re-encoded and
//! compared byte for byte; the expected DER of the other forms is built here
//! independently, byte by byte (`tlv`), not with the `der` crate.
#![cfg(feature = "pkcs8")]
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    reason = "tests"
)]

use pqdr_common::test_support::{
    assert_truncations_and_trailing_rejected, pem_der, pkcs8_der, pkcs8_v2_der, spki_der, tlv,
    with_null_parameters,
};
use pqdr_mlkem::{
    DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024, ParameterSet,
    PrivateKeyForm,
};

/// The DER OID 2.16.840.1.101.3.4.4.`arc` (RFC 9935 §3).
fn oid(arc: u8) -> Vec<u8> {
    vec![
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, arc,
    ]
}

/// The OID arc of `P` (RFC 9935 §3).
fn arc<P: ParameterSet>() -> u8 {
    match P::K {
        2 => 1,
        3 => 2,
        _ => 3,
    }
}

/// The three CHOICE encodings of `dk` (RFC 9935 §6), built by hand.
fn choices<P: ParameterSet>(seed: &[u8; 64], dk: &DecapsulationKey<P>) -> [Vec<u8>; 3] {
    let expanded = dk.as_bytes().as_ref();
    [
        tlv(0x80, seed),
        tlv(0x04, expanded),
        tlv(0x30, &[tlv(0x04, seed), tlv(0x04, expanded)].concat()),
    ]
}

const FORMS: [PrivateKeyForm; 3] = [
    PrivateKeyForm::Seed,
    PrivateKeyForm::ExpandedKey,
    PrivateKeyForm::Both,
];

/// The seed `00 01 … 3f` of every RFC 9935 example.
fn rfc_seed() -> [u8; 64] {
    core::array::from_fn(|i| i as u8)
}

fn encode_private<P: ParameterSet>(dk: &DecapsulationKey<P>, form: PrivateKeyForm) -> Vec<u8> {
    let mut buf = vec![0u8; 4000];
    let n = dk.to_private_key_der(form, &mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

fn encode_public<P: ParameterSet>(ek: &EncapsulationKey<P>) -> Vec<u8> {
    let mut buf = vec![0u8; 2000];
    let n = ek.to_spki_der(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

/// RFC 9935 Appendix C.1 (seed form) and C.2 (public key) of one set.
fn rfc_example<P: ParameterSet>(seed_pem: &str, pub_pem: &str) {
    let seed_der = pem_der(seed_pem);
    let pub_der = pem_der(pub_pem);
    let dk = DecapsulationKey::<P>::from_private_key_der(&seed_der).unwrap();
    assert_eq!(*dk.to_seed().unwrap(), rfc_seed());
    assert_eq!(encode_private(&dk, PrivateKeyForm::Seed), seed_der);
    assert_eq!(
        seed_der,
        pkcs8_der(&oid(arc::<P>()), &tlv(0x80, &rfc_seed()))
    );
    let ek = EncapsulationKey::<P>::from_spki_der(&pub_der).unwrap();
    assert_eq!(&ek, dk.encapsulation_key());
    assert_eq!(encode_public(&ek), pub_der);
    assert_eq!(pub_der, spki_der(&oid(arc::<P>()), ek.as_bytes().as_ref()));
}

#[test]
fn rfc9935_ml_kem_512() {
    rfc_example::<MlKem512>(
        include_str!("../../../vectors/pkcs8/ML-KEM-512-seed.priv"),
        include_str!("../../../vectors/pkcs8/ML-KEM-512.pub"),
    );
}

#[test]
fn rfc9935_ml_kem_768() {
    rfc_example::<MlKem768>(
        include_str!("../../../vectors/pkcs8/ML-KEM-768-seed.priv"),
        include_str!("../../../vectors/pkcs8/ML-KEM-768.pub"),
    );
}

#[test]
fn rfc9935_ml_kem_1024() {
    rfc_example::<MlKem1024>(
        include_str!("../../../vectors/pkcs8/ML-KEM-1024-seed.priv"),
        include_str!("../../../vectors/pkcs8/ML-KEM-1024.pub"),
    );
}

/// RFC 9935 Appendix C.1.2.3: the `both` form of ML-KEM-768; its expanded
/// key is also the expanded form's (C.1.2.2) content.
#[test]
fn rfc9935_ml_kem_768_both_and_expanded() {
    let both = pem_der(include_str!("../../../vectors/pkcs8/ML-KEM-768-both.priv"));
    let dk = DecapsulationKey::<MlKem768>::from_private_key_der(&both).unwrap();
    assert_eq!(*dk.to_seed().unwrap(), rfc_seed());
    assert_eq!(encode_private(&dk, PrivateKeyForm::Both), both);
    let [_, expanded_choice, both_choice] = choices(&rfc_seed(), &dk);
    assert_eq!(both, pkcs8_der(&oid(2), &both_choice));
    let expanded = encode_private(&dk, PrivateKeyForm::ExpandedKey);
    assert_eq!(expanded, pkcs8_der(&oid(2), &expanded_choice));
    let from_expanded = DecapsulationKey::<MlKem768>::from_private_key_der(&expanded).unwrap();
    assert_eq!(from_expanded, dk);
    assert!(from_expanded.to_seed().is_none());
}

/// Every set and form: encode, compare with the hand-built DER, decode.
fn round_trips<P: ParameterSet>() {
    for i in 0..4u8 {
        let seed: [u8; 64] = core::array::from_fn(|j| (j as u8).wrapping_mul(29) ^ i);
        let dk = DecapsulationKey::<P>::from_seed(&seed);
        let expected = choices(&seed, &dk);
        for (form, choice) in FORMS.iter().zip(&expected) {
            let der = encode_private(&dk, *form);
            assert_eq!(der, pkcs8_der(&oid(arc::<P>()), choice), "{form:?}");
            let back = DecapsulationKey::<P>::from_private_key_der(&der).unwrap();
            assert_eq!(back, dk);
            assert_eq!(
                back.to_seed().is_some(),
                *form != PrivateKeyForm::ExpandedKey
            );
        }
        let ek = dk.encapsulation_key();
        let der = encode_public(ek);
        assert_eq!(&EncapsulationKey::<P>::from_spki_der(&der).unwrap(), ek);
    }
}

#[test]
fn round_trips_every_set_and_form() {
    round_trips::<MlKem512>();
    round_trips::<MlKem768>();
    round_trips::<MlKem1024>();
}

/// Every rejection of one set, each with its typed error.
fn rejections<P: ParameterSet>() {
    let seed = rfc_seed();
    let dk = DecapsulationKey::<P>::from_seed(&seed);
    let ek = dk.encapsulation_key();
    let own = oid(arc::<P>());
    let other = oid(if arc::<P>() == 3 { 1 } else { arc::<P>() + 1 });
    let [seed_c, expanded_c, both_c] = choices(&seed, &dk);
    let dec = |der: &[u8]| DecapsulationKey::<P>::from_private_key_der(der).map(|_| ());
    let dec_pub = |der: &[u8]| EncapsulationKey::<P>::from_spki_der(der).map(|_| ());

    // Wrong OID, and parameters present (RFC 9935 §3: absent).
    for choice in [&seed_c, &expanded_c, &both_c] {
        assert_eq!(dec(&pkcs8_der(&other, choice)), Err(Error::Algorithm));
        let with_null = with_null_parameters(&own);
        assert_eq!(dec(&pkcs8_der(&with_null, choice)), Err(Error::Algorithm));
    }
    let pk = ek.as_bytes().as_ref();
    assert_eq!(dec_pub(&spki_der(&other, pk)), Err(Error::Algorithm));
    let with_null = with_null_parameters(&own);
    assert_eq!(dec_pub(&spki_der(&with_null, pk)), Err(Error::Algorithm));

    // Wrong lengths: seed, expanded key, both's parts, public key.
    let expanded = dk.as_bytes().as_ref();
    let short_dk = &expanded[..expanded.len() - 1];
    let long_dk = [expanded, &[0]].concat();
    for bad in [
        tlv(0x80, &seed[..63]),
        tlv(0x80, &[&seed[..], &[0]].concat()),
        tlv(0x04, short_dk),
        tlv(0x04, &long_dk),
        tlv(
            0x30,
            &[tlv(0x04, &seed[..63]), tlv(0x04, expanded)].concat(),
        ),
        tlv(0x30, &[tlv(0x04, &seed), tlv(0x04, short_dk)].concat()),
    ] {
        assert!(
            matches!(dec(&pkcs8_der(&own, &bad)), Err(Error::Length { .. })),
            "{:02x?}",
            &bad[..4]
        );
    }
    assert!(matches!(
        dec_pub(&spki_der(&own, &pk[..pk.len() - 1])),
        Err(Error::Length { .. })
    ));
    assert!(matches!(
        dec_pub(&spki_der(&own, &[pk, &[0]].concat())),
        Err(Error::Length { .. })
    ));

    // Other CHOICE tags, constructed [0], a third element in `both`.
    for bad in [
        tlv(0x81, &seed),
        tlv(0xa0, &tlv(0x04, &seed)),
        tlv(0x02, &[1]),
        tlv(
            0x30,
            &[tlv(0x04, &seed), tlv(0x04, expanded), tlv(0x05, &[])].concat(),
        ),
        tlv(0x30, &[tlv(0x04, &seed)].concat()),
        [seed_c.clone(), vec![0]].concat(),
    ] {
        assert_eq!(dec(&pkcs8_der(&own, &bad)), Err(Error::Der));
    }
    // A public key BIT STRING with unused bits.
    let mut unused = spki_der(&own, pk);
    let at = unused.len() - pk.len() - 1;
    unused[at] = 1;
    assert_eq!(dec_pub(&unused), Err(Error::Der));

    // Trailing data after the outer SEQUENCE.
    for choice in [&seed_c, &expanded_c, &both_c] {
        let der = [pkcs8_der(&own, choice), vec![0]].concat();
        assert_eq!(dec(&der), Err(Error::Der));
    }
    assert_eq!(
        dec_pub(&[spki_der(&own, pk), vec![0]].concat()),
        Err(Error::Der)
    );

    // Inconsistent `both`: a bit flipped in the seed, the expanded key's
    // start, its `H(ek)` and its `z` (RFC 9935 §8).
    let n = expanded.len();
    for (part, index) in [(0, 0), (0, 63), (1, 0), (1, n - 40), (1, n - 1)] {
        let mut s = seed;
        let mut e = expanded.to_vec();
        if part == 0 {
            s[index] ^= 1;
        } else {
            e[index] ^= 0x80;
        }
        let bad = tlv(0x30, &[tlv(0x04, &s), tlv(0x04, &e)].concat());
        assert_eq!(dec(&pkcs8_der(&own, &bad)), Err(Error::InconsistentKey));
    }
    // An expanded key whose stored H(ek) is wrong fails FIPS 203 §7.3.
    let mut e = expanded.to_vec();
    e[n - 40] ^= 1;
    assert_eq!(
        dec(&pkcs8_der(&own, &tlv(0x04, &e))),
        Err(Error::InvalidKey)
    );

    // OneAsymmetricKey v2 publicKey [1]: the key's own, or another.
    let v2 = |public: &[u8]| pkcs8_v2_der(&own, &seed_c, public);
    assert_eq!(dec(&v2(pk)), Ok(()));
    let mut wrong = pk.to_vec();
    wrong[0] ^= 1;
    assert_eq!(dec(&v2(&wrong)), Err(Error::InconsistentKey));

    // Truncated DER at every length, and a trailing byte.
    for der in [
        pkcs8_der(&own, &seed_c),
        pkcs8_der(&own, &expanded_c),
        pkcs8_der(&own, &both_c),
    ] {
        assert_truncations_and_trailing_rejected(&der, dec);
    }
    assert_truncations_and_trailing_rejected(&spki_der(&own, pk), dec_pub);

    // A key loaded without its seed has no seed or `both` form.
    let no_seed = DecapsulationKey::<P>::from_slice(expanded).unwrap();
    let mut buf = vec![0u8; 4000];
    for form in [PrivateKeyForm::Seed, PrivateKeyForm::Both] {
        assert_eq!(
            no_seed.to_private_key_der(form, &mut buf).map(|_| ()),
            Err(Error::NoSeed)
        );
    }
    // An output buffer one byte short.
    for form in FORMS {
        let len = encode_private(&dk, form).len();
        let mut short = vec![0u8; len - 1];
        assert_eq!(
            dk.to_private_key_der(form, &mut short).map(|_| ()),
            Err(Error::Length {
                what: pqdr_mlkem::Object::Output,
                expected: len,
                actual: len - 1
            })
        );
    }
    let len = encode_public(ek).len();
    let mut short = vec![0u8; len - 1];
    assert!(matches!(
        ek.to_spki_der(&mut short),
        Err(Error::Length { .. })
    ));
}

#[test]
fn rejections_ml_kem_512() {
    rejections::<MlKem512>();
}

#[test]
fn rejections_ml_kem_768() {
    rejections::<MlKem768>();
}

#[test]
fn rejections_ml_kem_1024() {
    rejections::<MlKem1024>();
}

/// The RustCrypto traits (`alloc`): seed form by default, expanded form
/// for a key without its seed; decoding through `TryFrom`.
#[cfg(feature = "alloc")]
#[test]
fn rustcrypto_traits() {
    use pqdr_mlkem::pkcs8::{DecodePrivateKey, EncodePrivateKey};
    use pqdr_mlkem::spki::{DecodePublicKey, EncodePublicKey};

    let seed_der = pem_der(include_str!("../../../vectors/pkcs8/ML-KEM-768-seed.priv"));
    let pub_der = pem_der(include_str!("../../../vectors/pkcs8/ML-KEM-768.pub"));
    let dk = <DecapsulationKey<MlKem768> as DecodePrivateKey>::from_pkcs8_der(&seed_der).unwrap();
    assert_eq!(
        EncodePrivateKey::to_pkcs8_der(&dk).unwrap().as_bytes(),
        &seed_der[..]
    );
    let ek =
        <EncapsulationKey<MlKem768> as DecodePublicKey>::from_public_key_der(&pub_der).unwrap();
    assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), &pub_der[..]);
    let expanded = DecapsulationKey::<MlKem768>::from_slice(dk.as_bytes().as_ref()).unwrap();
    let der = EncodePrivateKey::to_pkcs8_der(&expanded).unwrap();
    assert_eq!(
        der.as_bytes(),
        &pkcs8_der(&oid(2), &tlv(0x04, dk.as_bytes().as_ref()))[..]
    );
    assert!(<DecapsulationKey<MlKem512> as DecodePrivateKey>::from_pkcs8_der(&seed_der).is_err());
    assert!(
        <EncapsulationKey<MlKem1024> as DecodePublicKey>::from_public_key_der(&pub_der).is_err()
    );
}

/// PEM (feature `pem`): the RFC files as they are.
#[cfg(feature = "pem")]
#[test]
fn pem_files() {
    use pqdr_mlkem::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
    use pqdr_mlkem::spki::DecodePublicKey;

    let pem = include_str!("../../../vectors/pkcs8/ML-KEM-1024-seed.priv");
    let dk = <DecapsulationKey<MlKem1024> as DecodePrivateKey>::from_pkcs8_pem(pem).unwrap();
    assert_eq!(dk.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(), pem);
    let ek = <EncapsulationKey<MlKem1024> as DecodePublicKey>::from_public_key_pem(include_str!(
        "../../../vectors/pkcs8/ML-KEM-1024.pub"
    ))
    .unwrap();
    assert_eq!(&ek, dk.encapsulation_key());
}

/// The inherent PEM methods (feature `pem`, issue #37 item 9): the RFC files
/// as they are, and every rejection as this crate's typed `Error` (the
/// RustCrypto traits' `from_pkcs8_pem` only says `pkcs8::Error`).
#[cfg(feature = "pem")]
#[test]
fn inherent_pem_methods() {
    use pqdr_mlkem::pkcs8::LineEnding;

    let seed_pem = include_str!("../../../vectors/pkcs8/ML-KEM-768-seed.priv");
    let both_pem = include_str!("../../../vectors/pkcs8/ML-KEM-768-both.priv");
    let pub_pem = include_str!("../../../vectors/pkcs8/ML-KEM-768.pub");
    let dk = DecapsulationKey::<MlKem768>::from_private_key_pem(seed_pem).unwrap();
    let seed_out = dk.to_private_key_pem(PrivateKeyForm::Seed, LineEnding::LF);
    assert_eq!(seed_out.unwrap().as_str(), seed_pem);
    let both_out = dk.to_private_key_pem(PrivateKeyForm::Both, LineEnding::LF);
    assert_eq!(both_out.unwrap().as_str(), both_pem);
    assert!(DecapsulationKey::<MlKem768>::from_private_key_pem(both_pem).unwrap() == dk);
    let ek = EncapsulationKey::<MlKem768>::from_spki_pem(pub_pem).unwrap();
    assert_eq!(&ek, dk.encapsulation_key());
    assert_eq!(ek.to_spki_pem(LineEnding::LF).unwrap(), pub_pem);
    let crlf = ek.to_spki_pem(LineEnding::CRLF).unwrap();
    assert_eq!(crlf, pub_pem.replace('\n', "\r\n"));

    // Not PEM, a corrupted body, the other document's label.
    let dk_pem = DecapsulationKey::<MlKem768>::from_private_key_pem;
    assert_eq!(dk_pem("no PEM here").err(), Some(Error::Der));
    assert_eq!(
        dk_pem(&seed_pem.replacen('M', "!", 1)).err(),
        Some(Error::Der)
    );
    assert_eq!(dk_pem(pub_pem).err(), Some(Error::Der));
    assert_eq!(
        EncapsulationKey::<MlKem768>::from_spki_pem(seed_pem).err(),
        Some(Error::Der)
    );
    // Another set's OID.
    assert_eq!(
        DecapsulationKey::<MlKem512>::from_private_key_pem(seed_pem).err(),
        Some(Error::Algorithm)
    );
    assert_eq!(
        EncapsulationKey::<MlKem1024>::from_spki_pem(pub_pem).err(),
        Some(Error::Algorithm)
    );
    // The RFC 9935 Appendix C bad keys (vectors/pkcs8/README.md).
    let bad = DecapsulationKey::<MlKem512>::from_private_key_pem;
    assert_eq!(
        bad(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-1.priv")).err(),
        Some(Error::InconsistentKey)
    );
    assert_eq!(
        bad(include_str!("../../../vectors/pkcs8/bad-ML-KEM-512-3.priv")).err(),
        Some(Error::InvalidKey)
    );
    // A key without its seed has no seed form.
    let expanded = dk.to_private_key_pem(PrivateKeyForm::ExpandedKey, LineEnding::LF);
    let no_seed = dk_pem(&expanded.unwrap()).unwrap();
    assert_eq!(
        no_seed
            .to_private_key_pem(PrivateKeyForm::Seed, LineEnding::LF)
            .err(),
        Some(Error::NoSeed)
    );
}

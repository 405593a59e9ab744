//! PKCS#8 / SubjectPublicKeyInfo encodings as BouncyCastle 1.87 writes them
//! (feature `pkcs8`).
//!
//! Known answers: key pairs of every set written by BouncyCastle 1.87
//! (`vectors/pkcs8/bouncycastle/`, see its README): each is decoded, the public
//! key checked against the one inside the private key, an encapsulation to
//! BouncyCastle's public key decapsulated with its private key, and both
//! re-encoded and compared byte for byte. The expected DER is also built
//! here independently, byte by byte (`tlv`), not with the `der` crate.
#![cfg(feature = "pkcs8")]
#![allow(clippy::unwrap_used, reason = "tests")]

mod common;

use common::{TestRng, for_each_set};
use pqdr_common::test_support::{
    assert_truncations_and_trailing_rejected, pkcs8_der, pkcs8_v2_der, spki_der, tlv,
    with_null_parameters,
};
use pqdr_ntrup::{ByteArray, DecapsulationKey, EncapsulationKey, Error, ParameterSet};

/// The DER of the OID 1.3.6.1.4.1.22554.5.7.2.`arc` (BouncyCastle
/// `BCObjectIdentifiers.sntrupXXX`).
fn oid(arc: u8) -> Vec<u8> {
    vec![
        0x06, 0x0c, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x81, 0xb0, 0x1a, 0x05, 0x07, 0x02, arc,
    ]
}

/// The OID arc of `S`.
fn arc<S: ParameterSet>() -> u8 {
    match S::P {
        653 => 1,
        761 => 2,
        857 => 3,
        953 => 4,
        1013 => 5,
        _ => 6,
    }
}

/// The reference `sk` of `S` split into f, 1/g, pk, rho, Hash4(pk).
fn fields<S: ParameterSet>(sk: &[u8]) -> Vec<&[u8]> {
    let small = S::P.div_ceil(4);
    let pk = <S::EncapsulationKeyBytes as ByteArray>::LEN;
    let mut out = Vec::new();
    let mut at = 0;
    for len in [small, small, pk, small, 32] {
        out.push(&sk[at..at + len]);
        at += len;
    }
    assert_eq!(at, sk.len());
    out
}

/// The private-key SEQUENCE of OCTET STRINGs of `parts`.
fn sequence(parts: &[&[u8]]) -> Vec<u8> {
    let body: Vec<u8> = parts.iter().flat_map(|p| tlv(0x04, p)).collect();
    tlv(0x30, &body)
}

/// BouncyCastle's PKCS#8 of `sk`, built by hand.
fn expected_private<S: ParameterSet>(sk: &[u8]) -> Vec<u8> {
    pkcs8_der(&oid(arc::<S>()), &sequence(&fields::<S>(sk)))
}

/// BouncyCastle's SubjectPublicKeyInfo of `pk`, built by hand.
fn expected_public<S: ParameterSet>(pk: &[u8]) -> Vec<u8> {
    spki_der(&oid(arc::<S>()), &tlv(0x04, pk))
}

fn encode_private<S: ParameterSet>(dk: &DecapsulationKey<S>) -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let n = dk.to_private_key_der(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

fn encode_public<S: ParameterSet>(ek: &EncapsulationKey<S>) -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let n = ek.to_spki_der(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

/// One BouncyCastle key pair: decode, consistency, KEM, re-encode.
fn bouncycastle_pair<S: ParameterSet>(priv_der: &[u8], pub_der: &[u8]) {
    let dk = DecapsulationKey::<S>::from_private_key_der(priv_der).unwrap();
    let ek = EncapsulationKey::<S>::from_spki_der(pub_der).unwrap();
    assert_eq!(dk.encapsulation_key(), &ek, "{}", S::NAME);
    let mut rng = TestRng::new(7);
    let (ct, ss) = ek.encapsulate(&mut rng);
    assert_eq!(dk.decapsulate(&ct), ss);
    assert_eq!(encode_private(&dk), priv_der);
    assert_eq!(encode_public(&ek), pub_der);
    assert_eq!(expected_private::<S>(dk.as_bytes().as_ref()), priv_der);
    assert_eq!(expected_public::<S>(ek.as_bytes().as_ref()), pub_der);
}

macro_rules! bc_file {
    ($name:literal) => {
        include_bytes!(concat!("../../../vectors/pkcs8/bouncycastle/", $name))
    };
}

#[test]
fn bouncycastle_1_87_keys() {
    use pqdr_ntrup::{Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277};
    bouncycastle_pair::<Sntrup653>(
        bc_file!("sntrup653.priv.der"),
        bc_file!("sntrup653.pub.der"),
    );
    bouncycastle_pair::<Sntrup761>(
        bc_file!("sntrup761.priv.der"),
        bc_file!("sntrup761.pub.der"),
    );
    bouncycastle_pair::<Sntrup857>(
        bc_file!("sntrup857.priv.der"),
        bc_file!("sntrup857.pub.der"),
    );
    bouncycastle_pair::<Sntrup953>(
        bc_file!("sntrup953.priv.der"),
        bc_file!("sntrup953.pub.der"),
    );
    bouncycastle_pair::<Sntrup1013>(
        bc_file!("sntrup1013.priv.der"),
        bc_file!("sntrup1013.pub.der"),
    );
    bouncycastle_pair::<Sntrup1277>(
        bc_file!("sntrup1277.priv.der"),
        bc_file!("sntrup1277.pub.der"),
    );
    // Another set's key is refused by its OID.
    assert_eq!(
        DecapsulationKey::<Sntrup761>::from_private_key_der(bc_file!("sntrup653.priv.der"))
            .map(|_| ()),
        Err(Error::Algorithm)
    );
}

/// Fresh keys of every set: encode (equal to the hand-built DER), decode.
fn round_trips<S: ParameterSet>() {
    let mut rng = TestRng::new(S::P as u64 + 1);
    for _ in 0..2 {
        let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
        let der = encode_private(&dk);
        assert_eq!(der, expected_private::<S>(dk.as_bytes().as_ref()));
        assert!(DecapsulationKey::<S>::from_private_key_der(&der).unwrap() == dk);
        let der = encode_public(&ek);
        assert_eq!(der, expected_public::<S>(ek.as_bytes().as_ref()));
        assert_eq!(EncapsulationKey::<S>::from_spki_der(&der).unwrap(), ek);
    }
}

#[test]
fn round_trips_every_set() {
    for_each_set!(round_trips());
}

/// Every rejection of one set, each with its typed error.
fn rejections<S: ParameterSet>() {
    let mut rng = TestRng::new(99);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let sk = dk.as_bytes().as_ref();
    let pk = ek.as_bytes().as_ref();
    let own = oid(arc::<S>());
    let other = oid(if arc::<S>() == 6 { 1 } else { arc::<S>() + 1 });
    let parts = fields::<S>(sk);
    let private = sequence(&parts);
    let dec = |der: &[u8]| DecapsulationKey::<S>::from_private_key_der(der).map(|_| ());
    let dec_pub = |der: &[u8]| EncapsulationKey::<S>::from_spki_der(der).map(|_| ());

    // Wrong OID, and parameters present.
    assert_eq!(dec(&pkcs8_der(&other, &private)), Err(Error::Algorithm));
    let null = with_null_parameters(&own);
    assert_eq!(dec(&pkcs8_der(&null, &private)), Err(Error::Algorithm));
    assert_eq!(
        dec_pub(&spki_der(&other, &tlv(0x04, pk))),
        Err(Error::Algorithm)
    );
    assert_eq!(
        dec_pub(&spki_der(&null, &tlv(0x04, pk))),
        Err(Error::Algorithm)
    );

    // A field one byte short or long.
    for i in 0..5 {
        for delta in [-1isize, 1] {
            let mut changed: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
            if delta < 0 {
                changed[i].pop();
            } else {
                changed[i].push(0);
            }
            let refs: Vec<&[u8]> = changed.iter().map(Vec::as_slice).collect();
            assert!(
                matches!(
                    dec(&pkcs8_der(&own, &sequence(&refs))),
                    Err(Error::Length { .. })
                ),
                "field {i} {delta}"
            );
        }
    }
    // Four or six fields, the raw reference key, a field of another tag,
    // trailing bytes inside the OCTET STRING.
    let six = [&parts[..], &[&[][..]]].concat();
    let mut other_tag = sequence(&parts);
    other_tag[4] = 0x03; // the first field's tag (after a 4-byte header)
    for bad in [
        sequence(&parts[..4]),
        sequence(&six),
        sk.to_vec(),
        tlv(0x04, sk),
        other_tag,
        [private.clone(), vec![0]].concat(),
    ] {
        assert_eq!(dec(&pkcs8_der(&own, &bad)), Err(Error::Der));
    }
    // The public key without its OCTET STRING, or with unused bits.
    assert_eq!(dec_pub(&spki_der(&own, pk)), Err(Error::Der));
    let mut unused = expected_public::<S>(pk);
    let at = unused.len() - pk.len() - 4 - 1;
    assert_eq!(unused[at], 0);
    unused[at] = 1;
    assert_eq!(dec_pub(&unused), Err(Error::Der));
    assert!(matches!(
        dec_pub(&spki_der(&own, &tlv(0x04, &pk[1..]))),
        Err(Error::Length { .. })
    ));

    // The embedded public key changed: Hash4(pk) no longer matches.
    let mut changed_pk = parts[2].to_vec();
    changed_pk[0] ^= 1;
    let mut changed: Vec<&[u8]> = parts.clone();
    changed[2] = &changed_pk;
    assert_eq!(
        dec(&pkcs8_der(&own, &sequence(&changed))),
        Err(Error::InvalidKey)
    );
    // OneAsymmetricKey v2 publicKey [1]: the key's own, or another.
    assert_eq!(dec(&pkcs8_v2_der(&own, &private, &tlv(0x04, pk))), Ok(()));
    let mut wrong = pk.to_vec();
    wrong[5] ^= 1;
    assert_eq!(
        dec(&pkcs8_v2_der(&own, &private, &tlv(0x04, &wrong))),
        Err(Error::InconsistentKey)
    );
    assert_eq!(
        dec(&pkcs8_v2_der(&own, &private, pk)),
        Err(Error::InconsistentKey)
    );

    // Truncated DER at every length, and a trailing byte.
    assert_truncations_and_trailing_rejected(&pkcs8_der(&own, &private), dec);
    assert_truncations_and_trailing_rejected(&expected_public::<S>(pk), dec_pub);

    // An output buffer one byte short.
    let len = encode_private(&dk).len();
    let mut short = vec![0u8; len - 1];
    assert_eq!(
        dk.to_private_key_der(&mut short).map(|_| ()),
        Err(Error::Length {
            what: pqdr_ntrup::Object::Output,
            expected: len,
            actual: len - 1
        })
    );
    let len = encode_public(&ek).len();
    let mut short = vec![0u8; len - 1];
    assert!(matches!(
        ek.to_spki_der(&mut short),
        Err(Error::Length { .. })
    ));
}

#[test]
fn rejections_every_set() {
    for_each_set!(rejections());
}

/// The RustCrypto traits (`alloc`): the same bytes as BouncyCastle's.
#[cfg(feature = "alloc")]
#[test]
fn rustcrypto_traits() {
    use pqdr_ntrup::pkcs8::{DecodePrivateKey, EncodePrivateKey};
    use pqdr_ntrup::spki::{DecodePublicKey, EncodePublicKey};
    use pqdr_ntrup::{Sntrup761, Sntrup857};

    let priv_der = bc_file!("sntrup761.priv.der");
    let pub_der = bc_file!("sntrup761.pub.der");
    let dk = <DecapsulationKey<Sntrup761> as DecodePrivateKey>::from_pkcs8_der(priv_der).unwrap();
    assert_eq!(dk.to_pkcs8_der().unwrap().as_bytes(), priv_der);
    let ek =
        <EncapsulationKey<Sntrup761> as DecodePublicKey>::from_public_key_der(pub_der).unwrap();
    assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), pub_der);
    assert!(<DecapsulationKey<Sntrup857> as DecodePrivateKey>::from_pkcs8_der(priv_der).is_err());
    assert!(
        <EncapsulationKey<Sntrup857> as DecodePublicKey>::from_public_key_der(pub_der).is_err()
    );
}

/// PEM (feature `pem`): a round trip through the PEM text.
#[cfg(feature = "pem")]
#[test]
fn pem_round_trip() {
    use pqdr_ntrup::Sntrup653;
    use pqdr_ntrup::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};

    let dk = DecapsulationKey::<Sntrup653>::from_private_key_der(bc_file!("sntrup653.priv.der"))
        .unwrap();
    let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    let back = <DecapsulationKey<Sntrup653> as DecodePrivateKey>::from_pkcs8_pem(&pem).unwrap();
    assert!(back == dk);
}

/// The inherent PEM methods (feature `pem`, issue #37 item 9): BouncyCastle's
/// keys through PEM and back, and every rejection as this crate's typed
/// `Error` (the RustCrypto traits only say `pkcs8::Error` / `spki::Error`).
#[cfg(feature = "pem")]
#[test]
fn inherent_pem_methods() {
    use pqdr_common::test_support::pem_der;
    use pqdr_ntrup::pkcs8::LineEnding;
    use pqdr_ntrup::{Sntrup653, Sntrup761};

    let dk = DecapsulationKey::<Sntrup653>::from_private_key_der(bc_file!("sntrup653.priv.der"))
        .unwrap();
    let pem = dk.to_private_key_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    // The PEM body is the DER of to_private_key_der.
    let mut out = vec![0u8; 8192];
    let der = dk.to_private_key_der(&mut out).unwrap();
    assert_eq!(pem_der(&pem), der);
    assert!(DecapsulationKey::<Sntrup653>::from_private_key_pem(&pem).unwrap() == dk);
    let ek = dk.encapsulation_key();
    let pub_pem = ek.to_spki_pem(LineEnding::CRLF).unwrap();
    assert!(pub_pem.starts_with("-----BEGIN PUBLIC KEY-----\r\n"));
    assert_eq!(pem_der(&pub_pem), bc_file!("sntrup653.pub.der"));
    assert!(&EncapsulationKey::<Sntrup653>::from_spki_pem(&pub_pem).unwrap() == ek);

    let dk_pem = DecapsulationKey::<Sntrup653>::from_private_key_pem;
    assert_eq!(dk_pem("no PEM here").err(), Some(Error::Der));
    assert_eq!(dk_pem(&pub_pem).err(), Some(Error::Der));
    assert_eq!(
        EncapsulationKey::<Sntrup653>::from_spki_pem(&pem).err(),
        Some(Error::Der)
    );
    assert_eq!(
        DecapsulationKey::<Sntrup761>::from_private_key_pem(&pem).err(),
        Some(Error::Algorithm)
    );
    assert_eq!(
        EncapsulationKey::<Sntrup761>::from_spki_pem(&pub_pem).err(),
        Some(Error::Algorithm)
    );
}

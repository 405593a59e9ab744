//! PKCS#8 / SubjectPublicKeyInfo encodings as BouncyCastle 1.87 writes them
//! (feature `pkcs8`).
//!
//! Known answers: `mceliece460896` and `mceliece460896f` key pairs written
//! by BouncyCastle 1.87 (`vectors/pkcs8/bouncycastle/`, see its README; BC 1.87
//! has no `mceliece348864*`, so these are its smallest sets). Each private
//! key is decoded and regenerated from its delta: the public key that comes
//! out must be BouncyCastle's (so both use the reference key layouts), an
//! encapsulation to it must decapsulate with the private key, and both files
//! must re-encode byte for byte. The expected DER is also built here by
//! hand (`tlv`), not with the `der` crate.
//!
//! Cost: the default run does three `mceliece460896(f)` key generations;
//! round trips of the other sets are `#[ignore]`d (`--ignored`, release).
#![cfg(all(feature = "pkcs8", feature = "alloc"))]
#![allow(clippy::unwrap_used, reason = "tests")]

use crate::common::TestRng;
use pqdr_common::test_support::{
    assert_truncations_and_trailing_rejected, pkcs8_der, pkcs8_v2_der, spki_der, tlv,
    with_null_parameters,
};
use pqdr_mceliece::{
    Buf, DecapsulationKey, EncapsulationKey, Error, ParameterSet, public_key_from_spki_der,
    public_key_to_spki_der,
};

/// The DER of the OID 1.0.18033.2.2.6.`arc` (ISO/IEC 18033-2 `id-kem-cm`,
/// BouncyCastle `ISOIECObjectIdentifiers`).
fn oid(arc: u8) -> Vec<u8> {
    vec![0x06, 0x08, 0x28, 0x81, 0x8c, 0x71, 0x02, 0x02, 0x06, arc]
}

/// The OID arc of `P`: 460896, 6688128, 6960119, 8192128 in blocks of four
/// (plain, f, pc, pcf).
fn arc<P: ParameterSet>() -> u8 {
    let block = match P::N {
        4608 => 0,
        6688 => 1,
        6960 => 2,
        _ => 3,
    };
    1 + 4 * block + u8::from(P::SEMI) + 2 * u8::from(P::PC)
}

fn expected_private<P: ParameterSet>(sk: &[u8]) -> Vec<u8> {
    pkcs8_der(&oid(arc::<P>()), &tlv(0x04, sk))
}

fn expected_public<P: ParameterSet>(pk: &[u8]) -> Vec<u8> {
    spki_der(&oid(arc::<P>()), pk)
}

fn encode_private<P: ParameterSet>(dk: &DecapsulationKey<P>) -> Vec<u8> {
    let mut buf = vec![0u8; 16384];
    let n = dk.to_private_key_der(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

fn encode_public<P: ParameterSet>(ek: &EncapsulationKey<P>) -> Vec<u8> {
    let mut buf = vec![0u8; ek.as_bytes().as_ref().len() + 64];
    let n = ek.to_spki_der(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

/// One BouncyCastle key pair.
fn bouncycastle_pair<P: ParameterSet>(priv_der: &[u8], pub_der: &[u8]) {
    let pk = public_key_from_spki_der::<P>(pub_der).unwrap();
    let mut regenerated = P::PkBytes::boxed_zeroed();
    let dk = DecapsulationKey::<P>::from_private_key_der_into(priv_der, &mut regenerated).unwrap();
    assert_eq!(AsRef::<[u8]>::as_ref(&*regenerated), pk, "{}", P::NAME);
    let ek = EncapsulationKey::<P>::from_spki_der(pub_der).unwrap();
    let (ct, ss) = ek.encapsulate(&mut TestRng(5));
    assert_eq!(dk.decapsulate(&ct), ss);
    assert_eq!(encode_private(&dk), priv_der);
    assert_eq!(encode_public(&ek), pub_der);
    assert_eq!(expected_private::<P>(dk.as_bytes().as_ref()), priv_der);
    assert_eq!(expected_public::<P>(pk), pub_der);
    let mut out = vec![0u8; pub_der.len()];
    assert_eq!(
        public_key_to_spki_der::<P>(ek.as_bytes(), &mut out).unwrap(),
        pub_der
    );
    // The cheap decoder (no regeneration) gives the same key.
    assert!(DecapsulationKey::<P>::from_private_key_der(priv_der).unwrap() == dk);
}

macro_rules! bc_file {
    ($name:literal) => {
        include_bytes!(concat!("../../../../vectors/pkcs8/bouncycastle/", $name))
    };
}

const BC_460896_PRIV: &[u8] = bc_file!("mceliece460896.priv.der");
const BC_460896_PUB: &[u8] = bc_file!("mceliece460896.pub.der");

#[test]
fn bouncycastle_1_87_mceliece460896() {
    bouncycastle_pair::<pqdr_mceliece::Mceliece460896>(BC_460896_PRIV, BC_460896_PUB);
}

#[test]
fn bouncycastle_1_87_mceliece460896f() {
    bouncycastle_pair::<pqdr_mceliece::Mceliece460896f>(
        bc_file!("mceliece460896f.priv.der"),
        bc_file!("mceliece460896f.pub.der"),
    );
}

/// A fresh key of `P`: encode (equal to the hand-built DER), decode,
/// regenerate.
fn round_trip<P: ParameterSet>() {
    let (dk, ek) = pqdr_mceliece::generate::<P, _>(&mut TestRng(P::N as u64));
    let der = encode_private(&dk);
    assert_eq!(der, expected_private::<P>(dk.as_bytes().as_ref()));
    let mut pk = P::PkBytes::boxed_zeroed();
    let back = DecapsulationKey::<P>::from_private_key_der_into(&der, &mut pk).unwrap();
    assert!(back == dk);
    assert_eq!(AsRef::<[u8]>::as_ref(&*pk), ek.as_bytes().as_ref());
    let der = encode_public(&ek);
    assert_eq!(der, expected_public::<P>(ek.as_bytes().as_ref()));
    assert_eq!(EncapsulationKey::<P>::from_spki_der(&der).unwrap(), ek);
}

macro_rules! round_trip_tests {
    ($($name:ident: $set:ident),* $(,)?) => {$(
        #[test]
        #[ignore = "a large-set key generation: run with --ignored (release)"]
        fn $name() {
            round_trip::<pqdr_mceliece::$set>();
        }
    )*};
}

round_trip_tests!(
    round_trip_460896pc: Mceliece460896pc,
    round_trip_460896pcf: Mceliece460896pcf,
    round_trip_6688128: Mceliece6688128,
    round_trip_6688128f: Mceliece6688128f,
    round_trip_6688128pc: Mceliece6688128pc,
    round_trip_6688128pcf: Mceliece6688128pcf,
    round_trip_6960119: Mceliece6960119,
    round_trip_6960119f: Mceliece6960119f,
    round_trip_6960119pc: Mceliece6960119pc,
    round_trip_6960119pcf: Mceliece6960119pcf,
    round_trip_8192128: Mceliece8192128,
    round_trip_8192128f: Mceliece8192128f,
    round_trip_8192128pc: Mceliece8192128pc,
    round_trip_8192128pcf: Mceliece8192128pcf,
);

/// The OID table: every set BouncyCastle 1.87 has, and none for 348864.
#[test]
fn oids() {
    use pqdr_mceliece::algorithm_oid;
    fn arc_of<P: ParameterSet>() -> Option<u8> {
        let der = algorithm_oid::<P>()?.as_bytes().to_vec();
        assert_eq!(&der[..7], &oid(0)[2..9]);
        Some(der[7])
    }
    use pqdr_mceliece::*;
    assert_eq!(arc_of::<Mceliece460896>(), Some(1));
    assert_eq!(arc_of::<Mceliece460896pcf>(), Some(4));
    assert_eq!(arc_of::<Mceliece6688128f>(), Some(6));
    assert_eq!(arc_of::<Mceliece6960119pc>(), Some(11));
    assert_eq!(arc_of::<Mceliece8192128pcf>(), Some(16));
    assert_eq!(
        arc_of::<Mceliece8192128pcf>(),
        Some(arc::<Mceliece8192128pcf>())
    );
    assert_eq!(
        arc_of::<Mceliece6960119f>(),
        Some(arc::<Mceliece6960119f>())
    );
    assert_eq!(algorithm_oid::<Mceliece348864>(), None);
    assert_eq!(algorithm_oid::<Mceliece348864pcf>(), None);
    // A 348864 key has no encoding.
    let (dk, ek) = generate::<Mceliece348864, _>(&mut TestRng(1));
    let mut buf = vec![0u8; 300_000];
    assert_eq!(
        dk.to_private_key_der(&mut buf).map(|_| ()),
        Err(Error::Algorithm)
    );
    assert_eq!(ek.to_spki_der(&mut buf).map(|_| ()), Err(Error::Algorithm));
    let fake = spki_der(&oid(1), ek.as_bytes().as_ref());
    assert_eq!(
        EncapsulationKey::<Mceliece348864>::from_spki_der(&fake),
        Err(Error::Algorithm)
    );
}

/// Every rejection, on BouncyCastle's `mceliece460896` pair.
#[test]
fn rejections() {
    type P = pqdr_mceliece::Mceliece460896;
    let dk = DecapsulationKey::<P>::from_private_key_der(BC_460896_PRIV).unwrap();
    let sk = dk.as_bytes().as_ref();
    let pk = public_key_from_spki_der::<P>(BC_460896_PUB).unwrap();
    let own = oid(1);
    let dec = |der: &[u8]| DecapsulationKey::<P>::from_private_key_der(der).map(|_| ());
    let dec_pub = |der: &[u8]| public_key_from_spki_der::<P>(der).map(|_| ());

    // Wrong OID (460896f's), parameters present.
    assert_eq!(
        dec(&pkcs8_der(&oid(2), &tlv(0x04, sk))),
        Err(Error::Algorithm)
    );
    let null = with_null_parameters(&own);
    assert_eq!(
        dec(&pkcs8_der(&null, &tlv(0x04, sk))),
        Err(Error::Algorithm)
    );
    assert_eq!(dec_pub(&spki_der(&oid(2), pk)), Err(Error::Algorithm));
    assert_eq!(dec_pub(&spki_der(&null, pk)), Err(Error::Algorithm));

    // The raw key without its OCTET STRING, another tag, trailing bytes
    // inside, a short or long key.
    let mut other_tag = tlv(0x04, sk);
    other_tag[0] = 0x03;
    for bad in [
        sk.to_vec(),
        other_tag,
        [tlv(0x04, sk), vec![0]].concat(),
        tlv(0x30, &tlv(0x04, sk)),
    ] {
        assert_eq!(dec(&pkcs8_der(&own, &bad)), Err(Error::Der));
    }
    for bad in [&sk[..sk.len() - 1], &[sk, &[0]].concat()] {
        assert!(matches!(
            dec(&pkcs8_der(&own, &tlv(0x04, bad))),
            Err(Error::Length { .. })
        ));
    }
    assert!(matches!(
        dec_pub(&spki_der(&own, &pk[1..])),
        Err(Error::Length { .. })
    ));
    // A malformed secret key: the pivot word c of a systematic set.
    let mut bad_c = sk.to_vec();
    bad_c[32] = 0;
    assert_eq!(
        dec(&pkcs8_der(&own, &tlv(0x04, &bad_c))),
        Err(Error::InvalidKey)
    );
    // A public key BIT STRING with unused bits.
    let mut unused = expected_public::<P>(pk);
    let at = unused.len() - pk.len() - 1;
    unused[at] = 1;
    assert_eq!(dec_pub(&unused), Err(Error::Der));

    // A well-formed key that is not what its delta generates (a bit of s
    // flipped): accepted by the format checks, refused by the regeneration.
    let mut changed = sk.to_vec();
    *changed.last_mut().unwrap() ^= 1;
    let der = pkcs8_der(&own, &tlv(0x04, &changed));
    assert_eq!(dec(&der), Ok(()));
    let mut regenerated = <P as ParameterSet>::PkBytes::boxed_zeroed();
    assert_eq!(
        DecapsulationKey::<P>::from_private_key_der_into(&der, &mut regenerated).map(|_| ()),
        Err(Error::InconsistentKey)
    );
    // OneAsymmetricKey v2 publicKey [1]: the key's own, or another.
    let private = tlv(0x04, sk);
    assert_eq!(dec(&pkcs8_v2_der(&own, &private, pk)), Ok(()));
    let mut wrong = pk.to_vec();
    wrong[1000] ^= 4;
    assert_eq!(
        dec(&pkcs8_v2_der(&own, &private, &wrong)),
        Err(Error::InconsistentKey)
    );

    // Truncated at every length (private key), at the first and last 300
    // lengths and every 997th between (the 524 KB public key), and a
    // trailing byte.
    assert_truncations_and_trailing_rejected(BC_460896_PRIV, dec);
    let n = BC_460896_PUB.len();
    for len in (0..300)
        .chain((300..n - 300).step_by(997))
        .chain(n - 300..n)
    {
        assert!(
            dec_pub(&BC_460896_PUB[..len]).is_err(),
            "truncated to {len}"
        );
    }
    assert_eq!(dec_pub(&[BC_460896_PUB, &[0]].concat()), Err(Error::Der));

    // An output buffer one byte short.
    let len = BC_460896_PRIV.len();
    let mut short = vec![0u8; len - 1];
    assert_eq!(
        dk.to_private_key_der(&mut short).map(|_| ()),
        Err(Error::Length {
            what: pqdr_mceliece::Object::Output,
            expected: len,
            actual: len - 1
        })
    );
    let pk_bytes = <P as ParameterSet>::PkBytes::boxed_zeroed();
    let mut short = vec![0u8; n - 1];
    assert!(matches!(
        public_key_to_spki_der::<P>(&pk_bytes, &mut short),
        Err(Error::Length { .. })
    ));
}

/// The RustCrypto traits (`alloc`): the same bytes as BouncyCastle's.
#[test]
fn rustcrypto_traits() {
    use pqdr_mceliece::pkcs8::{DecodePrivateKey, EncodePrivateKey};
    use pqdr_mceliece::spki::{DecodePublicKey, EncodePublicKey};
    use pqdr_mceliece::{Mceliece460896, Mceliece460896f};

    let dk = <DecapsulationKey<Mceliece460896> as DecodePrivateKey>::from_pkcs8_der(BC_460896_PRIV)
        .unwrap();
    assert_eq!(dk.to_pkcs8_der().unwrap().as_bytes(), BC_460896_PRIV);
    let ek =
        <EncapsulationKey<Mceliece460896> as DecodePublicKey>::from_public_key_der(BC_460896_PUB)
            .unwrap();
    assert_eq!(ek.to_public_key_der().unwrap().as_bytes(), BC_460896_PUB);
    assert!(
        <DecapsulationKey<Mceliece460896f> as DecodePrivateKey>::from_pkcs8_der(BC_460896_PRIV)
            .is_err()
    );
    assert!(
        <EncapsulationKey<Mceliece460896f> as DecodePublicKey>::from_public_key_der(BC_460896_PUB)
            .is_err()
    );
}

/// PEM (feature `pem`): a round trip through the PEM text.
#[cfg(feature = "pem")]
#[test]
fn pem_round_trip() {
    use pqdr_mceliece::Mceliece460896;
    use pqdr_mceliece::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};

    let dk = DecapsulationKey::<Mceliece460896>::from_private_key_der(BC_460896_PRIV).unwrap();
    let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    let back =
        <DecapsulationKey<Mceliece460896> as DecodePrivateKey>::from_pkcs8_pem(&pem).unwrap();
    assert!(back == dk);
}

/// The inherent PEM methods (feature `pem`, issue #37 item 9): BouncyCastle's
/// keys through PEM and back, and every rejection as this crate's typed
/// `Error` (the RustCrypto traits only say `pkcs8::Error` / `spki::Error`).
#[cfg(feature = "pem")]
#[test]
fn inherent_pem_methods() {
    use pqdr_mceliece::pkcs8::LineEnding;
    use pqdr_mceliece::{Mceliece460896, Mceliece460896f};

    let dk = DecapsulationKey::<Mceliece460896>::from_private_key_der(BC_460896_PRIV).unwrap();
    let pem = dk.to_private_key_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    assert_eq!(pqdr_common::test_support::pem_der(&pem), BC_460896_PRIV);
    assert!(DecapsulationKey::<Mceliece460896>::from_private_key_pem(&pem).unwrap() == dk);

    let dk_pem = DecapsulationKey::<Mceliece460896>::from_private_key_pem;
    assert_eq!(dk_pem("no PEM here").err(), Some(Error::Der));
    assert_eq!(
        DecapsulationKey::<Mceliece460896f>::from_private_key_pem(&pem).err(),
        Some(Error::Algorithm)
    );
    assert_eq!(
        EncapsulationKey::<Mceliece460896>::from_spki_pem(&pem).err(),
        Some(Error::Der)
    );
}

//! Round trip, implicit rejection, and input validation for every parameter set.

use crate::common::{TestRng, boxed_array};
use pqdr_mceliece::{Buf, Ciphertext, DecapsulationKey, EncapsulationKey, Error, ParameterSet};

fn roundtrip<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng(seed);
    let (dk, ek) = pqdr_mceliece::generate::<P, _>(&mut rng);
    let prepared = dk.prepare();
    assert!(prepared.key() == &dk);
    for _ in 0..3 {
        let (ct, ss) = ek.encapsulate(&mut rng);
        assert_eq!(dk.decapsulate(&ct), ss, "{}", P::NAME);
        assert_eq!(prepared.decapsulate(&ct), ss, "{} prepared", P::NAME);
        // The prepared path rejects implicitly with the same key too: every
        // byte position class of C0 (and of C1 for the pc sets) flipped.
        let len = ct.as_bytes().as_ref().len();
        for pos in [0, 1, len >> 1, len - 1] {
            let mut bad = ct.as_bytes().clone();
            bad.as_mut()[pos] ^= 0x01;
            if let Ok(bad) = Ciphertext::<P>::from_slice(bad.as_ref()) {
                let k = prepared.decapsulate(&bad);
                assert_ne!(k, ss, "{} prepared, byte {pos}", P::NAME);
                assert_eq!(k, dk.decapsulate(&bad), "{} prepared, byte {pos}", P::NAME);
            }
        }
        assert_eq!(
            prepared.decapsulate_bytes(ct.as_bytes().as_ref()).ok(),
            Some(ss.clone())
        );

        // Serialization round trip.
        let dk2 = DecapsulationKey::<P>::from_slice(dk.as_bytes().as_ref()).expect("sk");
        let ek2 = EncapsulationKey::<P>::from_slice(ek.as_bytes().as_ref()).expect("pk");
        assert!(ek2 == ek);
        let ct2 = Ciphertext::<P>::from_slice(ct.as_bytes().as_ref()).expect("ct");
        assert_eq!(dk2.decapsulate(&ct2), ss);

        // The implicit-rejection key itself (H(0, s, C), and the pc sets'
        // confirmation check) is recomputed in `implicit_rejection.rs`.
    }

    // Caller-buffer API on the same keys.
    let mut ct = P::CtBytes::zeroed();
    let ss = pqdr_mceliece::encapsulate_into::<P, _>(ek.as_bytes(), &mut ct, &mut rng);
    assert_eq!(pqdr_mceliece::decapsulate::<P>(dk.as_bytes(), &ct), ss);

    // Wrong lengths.
    let pk = ek.as_bytes().as_ref();
    let sk = dk.as_bytes().as_ref();
    let c = ct.as_ref();
    let short = |what, expected: usize| {
        Some(Error::Length {
            what,
            expected,
            actual: expected - 1,
        })
    };
    let (pk_len, sk_len, ct_len) = (pk.len(), sk.len(), c.len());
    assert_eq!(
        EncapsulationKey::<P>::from_slice(&pk[1..]).err(),
        short(pqdr_mceliece::Object::EncapsulationKey, pk_len)
    );
    assert_eq!(
        pqdr_mceliece::validate_encapsulation_key::<P>(&pk[1..]).err(),
        short(pqdr_mceliece::Object::EncapsulationKey, pk_len)
    );
    assert_eq!(
        DecapsulationKey::<P>::from_slice(&sk[1..]).err(),
        short(pqdr_mceliece::Object::DecapsulationKey, sk_len)
    );
    assert_eq!(
        Ciphertext::<P>::from_slice(&c[1..]).err(),
        short(pqdr_mceliece::Object::Ciphertext, ct_len)
    );
    assert_eq!(
        Ciphertext::<P>::from_slice(&[c, &[0]].concat()).err(),
        Some(Error::Length {
            what: pqdr_mceliece::Object::Ciphertext,
            expected: ct_len,
            actual: ct_len + 1
        })
    );
    assert_eq!(
        dk.decapsulate_bytes(&c[1..]).err(),
        short(pqdr_mceliece::Object::Ciphertext, ct_len)
    );
    assert_eq!(
        prepared.decapsulate_bytes(&c[1..]).err(),
        short(pqdr_mceliece::Object::Ciphertext, ct_len)
    );

    // Secret-key format: the pivot word c, and a Goppa coefficient of more
    // than m bits.
    let mut sk_bad = sk.to_vec();
    sk_bad[32] ^= 1;
    assert_eq!(
        DecapsulationKey::<P>::from_slice(&sk_bad).err(),
        Some(Error::InvalidKey)
    );
    let mut sk_bad = sk.to_vec();
    sk_bad[41] |= 0x80;
    assert_eq!(
        DecapsulationKey::<P>::from_slice(&sk_bad).err(),
        Some(Error::InvalidKey)
    );
}

macro_rules! sets {
    ($($test:ident: $ty:ident;)*) => {$(
        #[test]
        fn $test() {
            roundtrip::<pqdr_mceliece::$ty>(0x1234_5678 ^ line!() as u64);
        }
    )*};
}

sets! {
    roundtrip_348864: Mceliece348864;
    roundtrip_348864f: Mceliece348864f;
    roundtrip_460896: Mceliece460896;
    roundtrip_460896f: Mceliece460896f;
    roundtrip_6688128: Mceliece6688128;
    roundtrip_6688128f: Mceliece6688128f;
    roundtrip_6960119: Mceliece6960119;
    roundtrip_6960119f: Mceliece6960119f;
    roundtrip_8192128: Mceliece8192128;
    roundtrip_8192128f: Mceliece8192128f;
    roundtrip_348864pc: Mceliece348864pc;
    roundtrip_348864pcf: Mceliece348864pcf;
    roundtrip_460896pc: Mceliece460896pc;
    roundtrip_460896pcf: Mceliece460896pcf;
    roundtrip_6688128pc: Mceliece6688128pc;
    roundtrip_6688128pcf: Mceliece6688128pcf;
    roundtrip_6960119pc: Mceliece6960119pc;
    roundtrip_6960119pcf: Mceliece6960119pcf;
    roundtrip_8192128pc: Mceliece8192128pc;
    roundtrip_8192128pcf: Mceliece8192128pcf;
}

/// The `pc` sets: same keys as their base set from the same seed (KeyGen is
/// unchanged), a ciphertext 32 bytes longer (C1), and C0 equal to the base
/// set's for the same error vector.
fn pc_vs_base<B: ParameterSet, P: ParameterSet>() {
    assert!(P::PC && !B::PC);
    let (dk_b, ek_b) = pqdr_mceliece::generate_deterministic::<B>(&[3; 32]);
    let (dk_p, ek_p) = pqdr_mceliece::generate_deterministic::<P>(&[3; 32]);
    assert_eq!(ek_b.as_bytes().as_ref(), ek_p.as_bytes().as_ref());
    assert_eq!(dk_b.as_bytes().as_ref(), dk_p.as_bytes().as_ref());
    let (ct_b, _) = ek_b.encapsulate(&mut TestRng(11));
    let (ct_p, ss_p) = ek_p.encapsulate(&mut TestRng(11));
    let (c_b, c_p) = (ct_b.as_bytes().as_ref(), ct_p.as_bytes().as_ref());
    assert_eq!(c_p.len(), c_b.len() + 32);
    assert_eq!(&c_p[..c_b.len()], c_b);
    assert_eq!(dk_p.decapsulate(&ct_p), ss_p);
    // A base-set ciphertext is not a pc ciphertext and vice versa.
    let (len_b, len_p) = (c_b.len(), c_p.len());
    assert_eq!(
        Ciphertext::<P>::from_slice(c_b).err(),
        Some(Error::Length {
            what: pqdr_mceliece::Object::Ciphertext,
            expected: len_p,
            actual: len_b
        })
    );
    assert_eq!(
        Ciphertext::<B>::from_slice(c_p).err(),
        Some(Error::Length {
            what: pqdr_mceliece::Object::Ciphertext,
            expected: len_b,
            actual: len_p
        })
    );
}

#[test]
fn pc_vs_base_348864() {
    pc_vs_base::<pqdr_mceliece::Mceliece348864, pqdr_mceliece::Mceliece348864pc>();
    pc_vs_base::<pqdr_mceliece::Mceliece348864f, pqdr_mceliece::Mceliece348864pcf>();
}

#[test]
fn pc_vs_base_6960119() {
    pc_vs_base::<pqdr_mceliece::Mceliece6960119, pqdr_mceliece::Mceliece6960119pc>();
}

#[test]
fn pc_sizes() {
    use pqdr_mceliece as m;
    assert_eq!(m::mceliece348864pc::CIPHERTEXT_SIZE, 128);
    assert_eq!(m::mceliece348864pcf::CIPHERTEXT_SIZE, 128);
    assert_eq!(m::mceliece460896pc::CIPHERTEXT_SIZE, 188);
    assert_eq!(m::mceliece6688128pc::CIPHERTEXT_SIZE, 240);
    assert_eq!(m::mceliece6960119pc::CIPHERTEXT_SIZE, 226);
    assert_eq!(m::mceliece8192128pcf::CIPHERTEXT_SIZE, 240);
    assert_eq!(m::mceliece348864pc::DECAPSULATION_KEY_SIZE, 6492);
    assert_eq!(m::mceliece8192128pc::ENCAPSULATION_KEY_SIZE, 1_357_824);
}

#[test]
fn streaming_6960119pc() {
    streaming::<pqdr_mceliece::Mceliece6960119pc>();
}

/// 6960119: mt = 1547 and n - mt = 5413 are not multiples of 8, so the
/// ciphertext and every public-key row carry padding bits that must be zero.
#[test]
fn padding_6960119() {
    use pqdr_mceliece::mceliece6960119 as k;
    let mut rng = TestRng(7);
    let (dk, ek) = k::generate(&mut rng);
    let (ct, ss) = ek.encapsulate(&mut rng);
    let mut c = ct.as_bytes().to_vec();
    *c.last_mut().expect("nonempty") |= 0x80;
    assert_eq!(
        k::Ciphertext::from_slice(&c).err(),
        Some(Error::InvalidCiphertext)
    );
    let mut pk = ek.as_bytes().to_vec();
    pk[676] |= 0x80; // last byte of row 0 (677 bytes per row)
    assert_eq!(
        k::EncapsulationKey::from_slice(&pk).err(),
        Some(Error::InvalidKey)
    );
    assert_eq!(
        pqdr_mceliece::validate_encapsulation_key::<k::Set>(&pk).err(),
        Some(Error::InvalidKey)
    );
    let mut st = k::StreamingEncapsulation::new(&mut rng);
    st.update(&pk).expect("within the key");
    assert_eq!(st.finish().err(), Some(Error::InvalidKey));
    assert!(pqdr_mceliece::validate_encapsulation_key::<k::Set>(ek.as_bytes()).is_ok());
    assert_eq!(dk.decapsulate(&ct), ss);
}

/// The per-set modules' array API with heap buffers built directly on the heap.
#[test]
fn array_api_348864() {
    use pqdr_mceliece::mceliece348864 as k;
    let mut rng = TestRng(9);
    let mut pk = boxed_array::<{ k::ENCAPSULATION_KEY_SIZE }>();
    let mut sk = [0u8; k::DECAPSULATION_KEY_SIZE];
    k::generate_into(&mut pk, &mut sk, &mut rng);
    let mut ct = [0u8; k::CIPHERTEXT_SIZE];
    let ss = k::encapsulate_into(&pk, &mut ct, &mut rng);
    assert_eq!(k::decapsulate(&sk, &ct), ss);
    // Deterministic key generation reproduces the same keys from the stored delta.
    let mut pk2 = boxed_array::<{ k::ENCAPSULATION_KEY_SIZE }>();
    let mut sk2 = [0u8; k::DECAPSULATION_KEY_SIZE];
    let delta: [u8; 32] = sk[..32].try_into().expect("32");
    k::generate_deterministic_into(&mut pk2, &mut sk2, &delta);
    assert!(pk == pk2 && sk == sk2);
}

/// Streaming encapsulation over odd-sized pieces equals the one-shot one.
fn streaming<P: ParameterSet>() {
    let mut rng = TestRng(21);
    let (dk, ek) = pqdr_mceliece::generate::<P, _>(&mut rng);
    let pk = ek.as_bytes().as_ref();
    let (ct, ss) = ek.encapsulate(&mut TestRng(5));
    let mut st = pqdr_mceliece::StreamingEncapsulation::<P>::new(&mut TestRng(5));
    for piece in pk.chunks(1000) {
        st.update(piece).expect("within the key");
    }
    let (ct2, ss2) = st.finish().expect("complete");
    assert!(ct == ct2 && ss == ss2);
    assert_eq!(dk.decapsulate(&ct2), ss2);
    // Too long, too short.
    let mut st = pqdr_mceliece::StreamingEncapsulation::<P>::new(&mut TestRng(5));
    st.update(pk).expect("exact");
    assert_eq!(
        st.update(&[0]).err(),
        Some(Error::Length {
            what: pqdr_mceliece::Object::EncapsulationKey,
            expected: pk.len(),
            actual: pk.len() + 1
        })
    );
    let mut st = pqdr_mceliece::StreamingEncapsulation::<P>::new(&mut TestRng(5));
    st.update(&pk[..pk.len() - 1]).expect("prefix");
    assert_eq!(
        st.finish().err(),
        Some(Error::Length {
            what: pqdr_mceliece::Object::EncapsulationKey,
            expected: pk.len(),
            actual: pk.len() - 1
        })
    );
}

#[test]
fn streaming_348864() {
    streaming::<pqdr_mceliece::Mceliece348864>();
}

#[test]
fn streaming_6960119() {
    streaming::<pqdr_mceliece::Mceliece6960119>();
}

//! The `self-test` feature (issue #19): `self_test()` passes for every set,
//! and its known answers are those of the official NIST KAT record 0.
//!
//! The McEliece `.rsp` files (54–275 MB) are not stored, so record 0 is
//! regenerated (as `tests/kat.rs` does): pqdr-kat's
//! NIST AES-256-CTR DRBG seeded with the master DRBG's first seed gives δ (one
//! 32-byte draw) for `generate_deterministic_into` and the encapsulation
//! randomness for `encapsulate_into`; the record's text, as `PQCgenKAT_kem.c`
//! prints it, must have the SHA-256 `round4_pqclean_nistkat_sha256` of
//! `vectors/kat-checksums.json`, which makes its `pk`, `sk`, `ct`, `ss` official.
//! Then, for each base set:
//! - δ and the self-test's `FixedWeight` bytes are the DRBG's draws (the
//!   attempt loop of Classic McEliece spec §2.4.5 is written out here to find
//!   the accepted attempt; the error vector `e` it gives reproduces the
//!   record's `ss = H(1, e, C)` with the `shake` crate);
//! - the digests are SHAKE256 (the `shake` crate) of its `pk ‖ sk`,
//!   `ct ‖ ss` and `ss`, and of `H(0, s, C')` for `C'` = its `ct` with bit 0
//!   of byte 0 flipped, `s` the last n/8 bytes of its `sk`.
//!
//! The `pc` sets (no single-record checksum is published) share their base
//! set's key generation (plaintext confirmation changes only Encap and
//! Decap); their ciphertext is the base record's `C0 ‖ H(2, e)` and their
//! key `H(1, e, C0 ‖ C1)`, recomputed here from the official `e` and `C0`.
//!
//! About 10 key generations for the records plus 20 for `self_test()`.
#![cfg(all(feature = "self-test", feature = "alloc"))]

use crate::common::boxed_array;
use pqdr_common::hex::encode as hex;
use pqdr_kat::{Drbg, rsp};
use pqdr_mceliece::self_test::known_answers;
use pqdr_mceliece::{Buf, ParameterSet};
use sha2::{Digest, Sha256};
use shake::{ExtendableOutput, Update, XofReader};

/// `SHAKE256(parts…)`, 32 bytes.
fn shake(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = shake::Shake256::default();
    for p in parts {
        h.update(p);
    }
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    out
}

/// `H(b, parts…) = SHAKE256(b ‖ parts…)`, 32 bytes (Classic McEliece spec §2.5.1).
fn h(b: u8, parts: &[&[u8]]) -> [u8; 32] {
    let prefix = [b];
    let mut all: Vec<&[u8]> = vec![&prefix];
    all.extend_from_slice(parts);
    shake(&all)
}

/// The seed of record 0: the master DRBG's first 48 bytes.
fn record0_seed() -> [u8; 48] {
    let req = rsp::parse_file(&rsp::kem_req(1)).expect("req");
    req.records[0].hex_array("seed").expect("seed")
}

/// `FixedWeight`'s attempts on the DRBG stream after δ (Classic McEliece
/// spec §2.4.5, round-4 reference `gen_e`): returns the accepted attempt's
/// bytes and the error vector e (n/8 bytes).
fn fixed_weight<P: ParameterSet>(drbg: &mut Drbg) -> (Vec<u8>, Vec<u8>) {
    let (m, n, t) = (P::M, P::N, P::T);
    let mask = u16::try_from((1u32 << m) - 1).expect("m <= 13");
    for _ in 0..100 {
        let mut ind = Vec::new();
        let bytes = if n == 1 << m {
            let mut b = vec![0u8; 2 * t];
            drbg.fill(&mut b);
            for i in 0..t {
                ind.push(u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) & mask);
            }
            b
        } else {
            let mut b = vec![0u8; 4 * t];
            drbg.fill(&mut b);
            for i in 0..2 * t {
                let x = u16::from_le_bytes([b[2 * i], b[2 * i + 1]]) & mask;
                if ind.len() < t && usize::from(x) < n {
                    ind.push(x);
                }
            }
            if ind.len() < t {
                continue;
            }
            b
        };
        let mut sorted = ind.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == t {
            let mut e = vec![0u8; n >> 3];
            for &x in &ind {
                e[usize::from(x >> 3)] |= 1 << (x & 7);
            }
            return (bytes, e);
        }
    }
    panic!("{}: no accepted FixedWeight attempt", P::NAME);
}

/// Record 0 of a base (round-4) set, regenerated and checked against the
/// upstream checksum: (δ, accepted FixedWeight bytes, e, pk, sk, ct, ss).
struct Record {
    delta: [u8; 32],
    fixed_weight: Vec<u8>,
    e: Vec<u8>,
    pk: Vec<u8>,
    sk: Vec<u8>,
    ct: Vec<u8>,
    ss: [u8; 32],
}

fn official_record<P: ParameterSet>() -> Record {
    assert!(!P::PC);
    let seed = record0_seed();
    let mut pk = P::PkBytes::boxed_zeroed();
    let mut sk = P::SkBytes::boxed_zeroed();
    let mut ct = P::CtBytes::zeroed();
    let mut drbg = Drbg::new(&seed);
    let delta: [u8; 32] = drbg.bytes();
    // The DRBG state after δ, for the attempt loop written out below.
    let mut after_delta = Drbg::new(&seed);
    let _: [u8; 32] = after_delta.bytes();
    pqdr_mceliece::generate_deterministic_into::<P>(&mut pk, &mut sk, &delta);
    let ss = *pqdr_mceliece::encapsulate_into::<P, _>(&pk, &mut ct, &mut drbg).as_bytes();
    let pk = AsRef::<[u8]>::as_ref(&*pk).to_vec();
    let sk = AsRef::<[u8]>::as_ref(&*sk).to_vec();
    let ct = ct.as_ref().to_vec();

    let text = rsp::kem_record(0, &seed, &pk, &sk, &ct, &ss);
    let sums: serde_json::Value = serde_json::from_slice(
        &std::fs::read(pqdr_kat::vectors_dir().join("kat-checksums.json")).expect("checksums"),
    )
    .expect("JSON");
    assert_eq!(
        hex(&Sha256::digest(&text.as_bytes()[..text.len() - 1])),
        sums[P::NAME]["round4_pqclean_nistkat_sha256"]
            .as_str()
            .expect("checksum"),
        "{}: record 0",
        P::NAME
    );

    let (fixed_weight, e) = fixed_weight::<P>(&mut after_delta);
    assert_eq!(h(1, &[&e, &ct]), ss, "{}: ss = H(1, e, C)", P::NAME);
    Record {
        delta,
        fixed_weight,
        e,
        pk,
        sk,
        ct,
        ss,
    }
}

/// `s`: the last n/8 bytes of `sk = δ ‖ c ‖ g ‖ α ‖ s` (layout checked).
fn s_from_sk<P: ParameterSet>(sk: &[u8]) -> &[u8] {
    let alpha_bytes = (2 * P::M - 1) << (P::M - 4);
    assert_eq!(sk.len(), 32 + 8 + 2 * P::T + alpha_bytes + (P::N >> 3));
    &sk[sk.len() - (P::N >> 3)..]
}

/// Checks set `P` against the record `rec` of its base set (`P` itself, or
/// `P` without `pc`); returns whether all answers matched (printed).
fn check<P: ParameterSet>(rec: &Record) -> bool {
    let kat = known_answers::<P>();
    // For a pc set: C = C0 ‖ H(2, e), K = H(1, e, C).
    let (ct, ss) = if P::PC {
        let mut ct = rec.ct.clone();
        ct.extend_from_slice(&h(2, &[&rec.e]));
        let ss = h(1, &[&rec.e, &ct]);
        (ct, ss)
    } else {
        (rec.ct.clone(), rec.ss)
    };
    let mut bad = ct.clone();
    bad[0] ^= 1;
    let rejection = h(0, &[s_from_sk::<P>(&rec.sk), &bad]);
    let got = [
        kat.key_generation,
        kat.encapsulation,
        kat.decapsulation,
        kat.implicit_rejection,
    ];
    let want = [
        shake(&[&rec.pk, &rec.sk]),
        shake(&[&ct, &ss]),
        shake(&[&ss]),
        shake(&[&rejection]),
    ];
    println!(
        "{} {} {} {} {}",
        P::NAME,
        hex(&want[0]),
        hex(&want[1]),
        hex(&want[2]),
        hex(&want[3])
    );
    kat.seed == rec.delta && kat.encapsulation_randomness == &rec.fixed_weight[..] && got == want
}

macro_rules! family {
    ($test:ident, $base:ident, $f:ident, $pc:ident, $pcf:ident) => {
        #[test]
        fn $test() {
            use pqdr_mceliece::{$base, $f, $pc, $pcf};
            // The f sets draw the same δ and FixedWeight bytes but make
            // another key: each is checked against its own record.
            let rec = official_record::<$base>();
            let base = [check::<$base>(&rec), check::<$pc>(&rec)];
            let rec = official_record::<$f>();
            let f = [check::<$f>(&rec), check::<$pcf>(&rec)];
            assert_eq!([base, f], [[true; 2]; 2], "[[base, pc], [f, pcf]]");
        }
    };
}

family!(
    known_answers_348864,
    Mceliece348864,
    Mceliece348864f,
    Mceliece348864pc,
    Mceliece348864pcf
);
family!(
    known_answers_460896,
    Mceliece460896,
    Mceliece460896f,
    Mceliece460896pc,
    Mceliece460896pcf
);
family!(
    known_answers_6688128,
    Mceliece6688128,
    Mceliece6688128f,
    Mceliece6688128pc,
    Mceliece6688128pcf
);
family!(
    known_answers_6960119,
    Mceliece6960119,
    Mceliece6960119f,
    Mceliece6960119pc,
    Mceliece6960119pcf
);
family!(
    known_answers_8192128,
    Mceliece8192128,
    Mceliece8192128f,
    Mceliece8192128pc,
    Mceliece8192128pcf
);

#[test]
fn self_test_passes_for_every_set() {
    use pqdr_mceliece as m;
    for (name, result) in [
        ("mceliece348864", m::mceliece348864::self_test()),
        ("mceliece348864f", m::mceliece348864f::self_test()),
        ("mceliece460896", m::mceliece460896::self_test()),
        ("mceliece460896f", m::mceliece460896f::self_test()),
        ("mceliece6688128", m::mceliece6688128::self_test()),
        ("mceliece6688128f", m::mceliece6688128f::self_test()),
        ("mceliece6960119", m::mceliece6960119::self_test()),
        ("mceliece6960119f", m::mceliece6960119f::self_test()),
        ("mceliece8192128", m::mceliece8192128::self_test()),
        ("mceliece8192128f", m::mceliece8192128f::self_test()),
        ("mceliece348864pc", m::mceliece348864pc::self_test()),
        ("mceliece348864pcf", m::mceliece348864pcf::self_test()),
        ("mceliece460896pc", m::mceliece460896pc::self_test()),
        ("mceliece460896pcf", m::mceliece460896pcf::self_test()),
        ("mceliece6688128pc", m::mceliece6688128pc::self_test()),
        ("mceliece6688128pcf", m::mceliece6688128pcf::self_test()),
        ("mceliece6960119pc", m::mceliece6960119pc::self_test()),
        ("mceliece6960119pcf", m::mceliece6960119pcf::self_test()),
        ("mceliece8192128pc", m::mceliece8192128pc::self_test()),
        ("mceliece8192128pcf", m::mceliece8192128pcf::self_test()),
    ] {
        assert_eq!(result, Ok(()), "{name}");
    }
}

/// The caller-buffer form, and a buffer pair that held other keys before.
#[test]
fn self_test_into_caller_buffers() {
    use pqdr_mceliece::mceliece348864 as k;
    let mut pk = boxed_array::<{ k::ENCAPSULATION_KEY_SIZE }>();
    let mut sk = boxed_array::<{ k::DECAPSULATION_KEY_SIZE }>();
    k::generate_deterministic_into(&mut pk, &mut sk, &[9; 32]);
    assert_eq!(k::self_test_into(&mut pk, &mut sk), Ok(()));
}

/// Through the public API: the key generation entry points run the
/// pair-wise consistency test, and it accepts matching keys only.
#[test]
fn pairwise_consistency_through_the_public_api() {
    use pqdr_mceliece::mceliece348864 as k;
    use pqdr_mceliece::self_test::pairwise_consistency;
    let (dk_a, ek_a) = k::generate_deterministic(&[1; 32]);
    let mut pk_b = boxed_array::<{ k::ENCAPSULATION_KEY_SIZE }>();
    let mut sk_b = boxed_array::<{ k::DECAPSULATION_KEY_SIZE }>();
    k::generate_into(&mut pk_b, &mut sk_b, &mut crate::common::TestRng(5));
    assert_eq!(
        pairwise_consistency::<k::Set>(ek_a.as_bytes(), dk_a.as_bytes()),
        Ok(())
    );
    assert_eq!(pairwise_consistency::<k::Set>(&pk_b, &sk_b), Ok(()));
    assert_eq!(
        pairwise_consistency::<k::Set>(ek_a.as_bytes(), &sk_b),
        Err(pqdr_mceliece::Error::PairwiseConsistency)
    );
}

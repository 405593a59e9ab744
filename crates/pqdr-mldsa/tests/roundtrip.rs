//! Round trips of every entry point for every parameter set, key decoding and
//! validation, malformed inputs, and the `signature` traits.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::{TestRng, keys};
use pqdr_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, Signature, SigningKey, VerifyingKey,
    generate, generate_deterministic,
};

fn all_entry_points<P: ParameterSet>() {
    let mut rng = TestRng(0x1234_5678_9abc_def1);
    let (sk, vk) = generate::<P, _>(&mut rng);
    let msg = b"the message";
    let ctx = b"ctx";

    // Hedged and deterministic signing.
    let s1 = sk.sign(msg, ctx, &mut rng).expect("sign");
    let s2 = sk.sign(msg, ctx, &mut rng).expect("sign");
    assert_ne!(s1, s2, "hedged signatures differ");
    vk.verify(msg, ctx, &s1).expect("verify");
    vk.verify(msg, ctx, &s2).expect("verify");
    let d1 = sk.sign_deterministic(msg, ctx).expect("sign");
    let esk = sk.expand();
    assert_eq!(esk.verifying_key(), &vk);
    assert!(esk.signing_key() == &sk);
    assert_eq!(esk.sign_deterministic(msg, ctx).expect("sign"), d1);
    let e1 = esk.sign(msg, ctx, &mut rng).expect("sign");
    vk.verify(msg, ctx, &e1)
        .expect("expanded-key hedged signature");
    assert_eq!(
        esk.sign_deterministic(msg, &[0u8; 256]),
        Err(Error::ContextTooLong)
    );
    assert_eq!(d1, sk.sign_deterministic(msg, ctx).expect("sign"));
    assert_eq!(d1, sk.sign_with_rnd(msg, ctx, &[0; 32]).expect("sign"));
    vk.verify(msg, ctx, &d1).expect("verify");
    assert_eq!(vk.verify(msg, b"other", &d1), Err(Error::InvalidSignature));
    let evk = vk.expand();
    assert_eq!(evk.verifying_key(), &vk);
    evk.verify(msg, ctx, &d1).expect("expanded verify");
    evk.verify(msg, ctx, &s1).expect("expanded verify");
    assert_eq!(evk.verify(msg, b"other", &d1), Err(Error::InvalidSignature));
    assert!(evk.verify(b"other", ctx, &d1).is_err());
    assert!(vk.verify(b"other", ctx, &d1).is_err());

    // Context length: 255 is fine, 256 is an error everywhere.
    let long = [7u8; 255];
    let sig = sk.sign_deterministic(msg, &long).expect("255-byte context");
    vk.verify(msg, &long, &sig).expect("verify");
    let too_long = [7u8; 256];
    assert_eq!(
        sk.sign_deterministic(msg, &too_long),
        Err(Error::ContextTooLong)
    );
    assert_eq!(
        sk.sign(msg, &too_long, &mut rng),
        Err(Error::ContextTooLong)
    );
    assert_eq!(vk.verify(msg, &too_long, &sig), Err(Error::ContextTooLong));
    assert_eq!(sk.signer(&too_long).err(), Some(Error::ContextTooLong));
    assert_eq!(vk.verifier(&too_long).err(), Some(Error::ContextTooLong));

    // Internal interface = pure interface with M′ = 0‖|ctx|‖ctx‖M.
    let mut m_prime = vec![0u8, ctx.len() as u8];
    m_prime.extend_from_slice(ctx);
    m_prime.extend_from_slice(msg);
    let si = sk.sign_internal(&m_prime, &[0; 32]);
    assert_eq!(si, d1);
    vk.verify_internal(&m_prime, &si).expect("verify_internal");

    // External μ.
    let mu = vk.compute_mu(msg, ctx).expect("mu");
    let sm = sk.sign_mu(&mu, &[0; 32]);
    assert_eq!(sm, d1);
    vk.verify_mu(&mu, &sm).expect("verify_mu");

    // HashML-DSA with every pre-hash.
    for ph in PreHash::ALL {
        let mut buf = [0u8; 64];
        let digest = ph.digest(msg, &mut buf).to_vec();
        let sig = sk
            .sign_prehash(ph, &digest, ctx, &mut rng)
            .expect("sign_prehash");
        vk.verify_prehash(ph, &digest, ctx, &sig)
            .expect("verify_prehash");
        let det = sk
            .sign_prehash_deterministic(ph, &digest, ctx)
            .expect("det");
        vk.verify_prehash(ph, &digest, ctx, &det)
            .expect("verify_prehash");
        assert!(
            vk.verify(msg, ctx, &det).is_err(),
            "pre-hash and pure are separated"
        );
        let short = Err(Error::Length {
            what: pqdr_mldsa::Object::Digest,
            expected: ph.digest_size(),
            actual: ph.digest_size() - 1,
        });
        assert_eq!(
            sk.sign_prehash_deterministic(ph, &digest[1..], ctx),
            short,
            "digest length"
        );
        assert_eq!(
            vk.verify_prehash(ph, &digest[1..], ctx, &det),
            short.map(|_| ())
        );
    }

    // Streaming in uneven pieces.
    let long_msg: Vec<u8> = (0..10_000u32).map(|i| (i * 7) as u8).collect();
    let mut signer = sk.signer(ctx).expect("signer");
    for chunk in long_msg.chunks(333) {
        signer.update(chunk);
    }
    let ss = signer.finalize_deterministic();
    assert_eq!(ss, sk.sign_deterministic(&long_msg, ctx).expect("sign"));
    let mut verifier = vk.verifier(ctx).expect("verifier");
    for chunk in long_msg.chunks(1000) {
        verifier.update(chunk);
    }
    verifier.verify(&ss).expect("streamed verify");

    // Encodings.
    let sig2 = Signature::<P>::from_slice(ss.as_bytes().as_ref()).expect("sig");
    assert_eq!(sig2, ss);
    assert_eq!(
        Signature::<P>::from_slice(&ss.as_bytes().as_ref()[1..]),
        Err(Error::Length {
            what: pqdr_mldsa::Object::Signature,
            expected: P::SIG_SIZE,
            actual: P::SIG_SIZE - 1
        })
    );
    let vk2 = VerifyingKey::<P>::from_array(vk.as_bytes());
    assert_eq!(vk2, vk);
    assert_eq!(
        VerifyingKey::<P>::from_slice(&vk.as_bytes().as_ref()[1..]),
        Err(Error::Length {
            what: pqdr_mldsa::Object::VerifyingKey,
            expected: P::VK_SIZE,
            actual: P::VK_SIZE - 1
        })
    );
    let sk2 = SigningKey::<P>::from_array(sk.as_bytes()).expect("sk");
    assert!(sk2 == sk);
    assert_eq!(sk2.verifying_key(), &vk);
    assert!(sk2.seed().is_none());
    assert_eq!(
        SigningKey::<P>::from_slice(&sk.as_bytes().as_ref()[1..]).err(),
        Some(Error::Length {
            what: pqdr_mldsa::Object::SigningKey,
            expected: P::SK_SIZE,
            actual: P::SK_SIZE - 1
        })
    );

    // Seed form.
    let xi = [9u8; 32];
    let (ska, vka) = generate_deterministic::<P>(&xi);
    assert_eq!(ska.seed(), Some(&xi));
    let skb = SigningKey::<P>::from_seed(ska.seed().expect("seed"));
    assert!(skb == ska);
    assert_eq!(skb.verifying_key(), &vka);
    // Debug never prints the secret key.
    let dbg = format!("{ska:?}");
    assert!(dbg.starts_with("SigningKey"));
}

/// Signing keys with a coefficient of s1/s2 out of range, or with t0 / tr not
/// matching, are rejected.
fn sk_validation<P: ParameterSet>() {
    let (sk, _) = keys::<P>(3);
    let good = *sk.as_bytes();
    // s1's first coefficient field set to all ones (7 or 15 > 2η).
    let mut bad = good;
    bad.as_mut()[128] |= if P::ETA == 2 { 0x07 } else { 0x0f };
    assert!(
        SigningKey::<P>::from_array(&bad).err() == Some(Error::InvalidKey),
        "s1 out of range"
    );
    // Last s2 coefficient out of range.
    let s2_end = 128 + (P::K + P::L) * 32 * if P::ETA == 2 { 3 } else { 4 };
    let mut bad = good;
    bad.as_mut()[s2_end - 1] |= 0xf0;
    assert!(
        SigningKey::<P>::from_array(&bad).err() == Some(Error::InvalidKey),
        "s2 out of range"
    );
    // A changed t0 byte, a changed tr byte, a changed ρ.
    for pos in [s2_end + 5, 64 + 3, 1, P::SK_SIZE - 1] {
        let mut bad = good;
        bad.as_mut()[pos] ^= 1;
        assert_eq!(
            SigningKey::<P>::from_array(&bad).err(),
            Some(Error::InvalidKey),
            "byte {pos}"
        );
    }
    // K (bytes 32..64) is not checkable: changing it gives another valid key.
    let mut other = good;
    other.as_mut()[40] ^= 1;
    assert!(SigningKey::<P>::from_array(&other).is_ok());
}

/// Malformed hints (FIPS 204 Algorithm 21) fail verification without panicking.
fn malformed_hints<P: ParameterSet>() {
    let (sk, vk) = keys::<P>(5);
    let sig = sk.sign_deterministic(b"m", b"").expect("sign");
    vk.verify(b"m", b"", &sig).expect("valid");
    let n = P::SIG_SIZE;
    let h0 = n - P::OMEGA - P::K;
    let base = *sig.as_bytes();
    let mut cases = Vec::new();
    // A count above ω.
    let mut b = base;
    b.as_mut()[n - 1] = (P::OMEGA + 1) as u8;
    cases.push(b);
    // Decreasing counts.
    let mut b = base;
    b.as_mut()[n - P::K] = 5;
    b.as_mut()[n - P::K + 1] = 2;
    cases.push(b);
    // Non-zero padding after the last index.
    let mut b = base;
    let used = usize::from(base.as_ref()[n - 1]);
    if used < P::OMEGA {
        b.as_mut()[h0 + P::OMEGA - 1] = 1;
        cases.push(b);
    }
    // Indices not strictly increasing inside a row.
    let mut b = base;
    b.as_mut()[h0..h0 + P::OMEGA].fill(0);
    b.as_mut()[h0] = 10;
    b.as_mut()[h0 + 1] = 10;
    for i in 0..P::K {
        b.as_mut()[h0 + P::OMEGA + i] = 2;
    }
    cases.push(b);
    // All bytes 0xff.
    let mut b = base;
    b.as_mut().fill(0xff);
    cases.push(b);
    for c in cases {
        assert!(
            vk.verify(b"m", b"", &Signature::<P>::from_array(&c))
                .is_err()
        );
    }
}

#[cfg(feature = "signature")]
fn traits<P: ParameterSet>()
where
    Signature<P>: signature::SignatureEncoding,
{
    use signature::{
        Keypair, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
        SignatureEncoding, Signer, Verifier,
    };
    let (sk, vk) = keys::<P>(1);
    let sig: Signature<P> = Signer::sign(&sk, b"abc");
    Verifier::verify(&vk, b"abc", &sig).expect("verify");
    assert_eq!(sig, sk.sign_deterministic(b"abc", b"").expect("sign"));
    let parts: Signature<P> = sk.multipart_sign(&[b"a", b"bc"]);
    assert_eq!(parts, sig);
    vk.multipart_verify(&[b"ab", b"c"], &sig)
        .expect("multipart verify");
    let mut rng = TestRng(77);
    let r: Signature<P> = sk.sign_with_rng(&mut rng, b"abc");
    Verifier::verify(&vk, b"abc", &r).expect("verify");
    let r2: Signature<P> = sk.multipart_sign_with_rng(&mut rng, &[b"a", b"bc"]);
    Verifier::verify(&vk, b"abc", &r2).expect("verify");
    assert_eq!(Keypair::verifying_key(&sk), vk);
    let bytes = sig.to_bytes();
    assert_eq!(bytes.as_ref(), sig.as_bytes().as_ref());
    assert_eq!(sig.encoded_len(), P::SIG_SIZE);
}

macro_rules! per_set {
    ($($name:ident: $P:ty),*) => {$(
        mod $name {
            use super::*;
            #[test]
            fn entry_points() { all_entry_points::<$P>() }
            #[test]
            fn signing_key_validation() { sk_validation::<$P>() }
            #[test]
            fn malformed_hints_fail() { malformed_hints::<$P>() }
            #[cfg(feature = "signature")]
            #[test]
            fn signature_traits() { traits::<$P>() }
        }
    )*};
}

per_set!(ml_dsa_44: MlDsa44, ml_dsa_65: MlDsa65, ml_dsa_87: MlDsa87);

#[cfg(all(feature = "ml_dsa_44", feature = "ml_dsa_65", feature = "ml_dsa_87"))]
#[test]
fn sizes_match_fips_204_table_2() {
    use pqdr_mldsa::{ml_dsa_44 as a, ml_dsa_65 as b, ml_dsa_87 as c};
    assert_eq!(
        (
            a::VERIFYING_KEY_SIZE,
            a::SIGNING_KEY_SIZE,
            a::SIGNATURE_SIZE
        ),
        (1312, 2560, 2420)
    );
    assert_eq!(
        (
            b::VERIFYING_KEY_SIZE,
            b::SIGNING_KEY_SIZE,
            b::SIGNATURE_SIZE
        ),
        (1952, 4032, 3309)
    );
    assert_eq!(
        (
            c::VERIFYING_KEY_SIZE,
            c::SIGNING_KEY_SIZE,
            c::SIGNATURE_SIZE
        ),
        (2592, 4896, 4627)
    );
}

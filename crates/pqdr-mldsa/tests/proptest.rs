//! Property tests: sign/verify round trips for random keys, messages and
//! contexts; any single-bit flip of the signature, message, context or public
//! key fails verification; arbitrary bytes never make decoding or
//! verification panic.

#![allow(
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    reason = "test code on public values"
)]

mod common;

use common::{cycled, for_each_set, keys};
use pqdr_mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};
use proptest::prelude::*;

fn round_trip_and_flips<P: ParameterSet>(
    xi: [u8; 32],
    msg: &[u8],
    ctx: &[u8],
    rnd: [u8; 32],
    bit: usize,
) -> Result<(), TestCaseError> {
    let (sk, vk) = pqdr_mldsa::generate_deterministic::<P>(&xi);
    let sig = sk.sign_with_rnd(msg, ctx, &rnd).expect("ctx ≤ 255");
    prop_assert!(vk.verify(msg, ctx, &sig).is_ok());

    // Signature bit flip.
    let mut s = *sig.as_bytes();
    let i = bit % (P::SIG_SIZE * 8);
    s.as_mut()[i / 8] ^= 1 << (i % 8);
    prop_assert!(
        vk.verify(msg, ctx, &Signature::<P>::from_array(&s))
            .is_err(),
        "sig bit {}",
        i
    );

    // Message bit flip.
    if !msg.is_empty() {
        let mut m = msg.to_vec();
        let i = bit % (m.len() * 8);
        m[i / 8] ^= 1 << (i % 8);
        prop_assert!(vk.verify(&m, ctx, &sig).is_err(), "msg bit {}", i);
    }
    // Context bit flip.
    if !ctx.is_empty() {
        let mut c = ctx.to_vec();
        let i = bit % (c.len() * 8);
        c[i / 8] ^= 1 << (i % 8);
        prop_assert!(vk.verify(msg, &c, &sig).is_err(), "ctx bit {}", i);
    }
    // Public-key bit flip.
    let mut p = *vk.as_bytes();
    let i = bit % (P::VK_SIZE * 8);
    p.as_mut()[i / 8] ^= 1 << (i % 8);
    let vk2 = VerifyingKey::<P>::from_array(&p);
    prop_assert!(vk2.verify(msg, ctx, &sig).is_err(), "pk bit {}", i);
    Ok(())
}

fn garbage_never_panics<P: ParameterSet>(bytes: &[u8]) {
    let sig: P::SigBytes = cycled(bytes);
    let (_, vk) = keys::<P>(0);
    let _ = vk.verify(b"x", b"", &Signature::<P>::from_array(&sig));
    let _ = Signature::<P>::from_slice(bytes);
    let _ = VerifyingKey::<P>::from_slice(bytes);
    let _ = SigningKey::<P>::from_slice(bytes);
    let _ = SigningKey::<P>::from_array(&cycled(bytes));
    let pk: P::VkBytes = cycled(bytes);
    let vk = VerifyingKey::<P>::from_array(&pk);
    let _ = vk.verify(b"x", b"", &Signature::<P>::from_array(&sig));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn ml_dsa_44_round_trip_and_flips(xi in any::<[u8; 32]>(), msg in prop::collection::vec(any::<u8>(), 0..300),
        ctx in prop::collection::vec(any::<u8>(), 0..256), rnd in any::<[u8; 32]>(), bit in any::<usize>()) {
        round_trip_and_flips::<MlDsa44>(xi, &msg, &ctx, rnd, bit)?;
    }

    #[test]
    fn ml_dsa_65_round_trip_and_flips(xi in any::<[u8; 32]>(), msg in prop::collection::vec(any::<u8>(), 0..300),
        ctx in prop::collection::vec(any::<u8>(), 0..256), rnd in any::<[u8; 32]>(), bit in any::<usize>()) {
        round_trip_and_flips::<MlDsa65>(xi, &msg, &ctx, rnd, bit)?;
    }

    #[test]
    fn ml_dsa_87_round_trip_and_flips(xi in any::<[u8; 32]>(), msg in prop::collection::vec(any::<u8>(), 0..300),
        ctx in prop::collection::vec(any::<u8>(), 0..256), rnd in any::<[u8; 32]>(), bit in any::<usize>()) {
        round_trip_and_flips::<MlDsa87>(xi, &msg, &ctx, rnd, bit)?;
    }

    #[test]
    fn malformed_inputs_never_panic(bytes in prop::collection::vec(any::<u8>(), 1..5000)) {
        for_each_set!(garbage_never_panics(&bytes));
    }

    #[test]
    fn long_context_is_an_error(len in 256usize..600) {
        let (sk, vk) = keys::<MlDsa44>(1);
        let ctx = vec![0u8; len];
        prop_assert_eq!(sk.sign_deterministic(b"m", &ctx), Err(Error::ContextTooLong));
        let sig = sk.sign_deterministic(b"m", b"").expect("sign");
        prop_assert_eq!(vk.verify(b"m", &ctx, &sig), Err(Error::ContextTooLong));
    }
}

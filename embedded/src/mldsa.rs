//! ML-DSA (FIPS 204) on the target.
use pqdr_kat::Drbg;
use crate::{FastRng, RspHasher, check, check_digest, first_sign_seed, stack};
use pqdr_mldsa::{ByteArray, ParameterSet, Signature, SigningKey, VerifyingKey};

/// ML-DSA: the first NIST KAT record (`PQCgenKAT_sign.c` with FIPS 204: one
/// 32-byte draw for ξ, one for `rnd`; pure ML-DSA, empty context,
/// `sm = signature ‖ msg`), verification, a randomized round trip, and
/// rejection of a changed message and of a changed signature.
#[inline(never)]
pub(crate) fn run<P: ParameterSet>(want: &str) {
    let set = P::NAME;
    let (seed, msg) = first_sign_seed();
    let mut drbg = Drbg::new(&seed);
    let xi: [u8; 32] = drbg.bytes();
    let rnd: [u8; 32] = drbg.bytes();

    let ((sk, vk), used) = stack::measure(pqdr_mldsa::generate_deterministic::<P>, &xi);
    stack(set, "keygen", used);
    let (sig, used) = stack::measure(
        |(sk, msg, rnd): (&SigningKey<P>, &[u8], &[u8; 32])| sk.sign_with_rnd(msg, &[], rnd),
        (&sk, &msg[..], &rnd),
    );
    stack(set, "sign", used);
    let Ok(sig) = sig else {
        check(set, "sign", false);
        return;
    };
    // The same signature into a caller's buffer (as pqm4 counts `crypto_sign`:
    // the output is the caller's): no signature-sized copy in the frame.
    let mut out = Signature::<P>::from_array(&P::SigBytes::zeroed());
    let (r, used) = stack::measure(
        |(sk, msg, rnd, out): (&SigningKey<P>, &[u8], &[u8; 32], &mut Signature<P>)| {
            sk.sign_with_rnd_into(msg, &[], rnd, out)
        },
        (&sk, &msg[..], &rnd, &mut out),
    );
    stack(set, "sign_into", used);
    check(
        set,
        "sign-into-same-signature",
        r.is_ok() && out.as_bytes().as_ref() == sig.as_bytes().as_ref(),
    );
    let (ok, used) = stack::measure(
        |(vk, msg, sig): (&VerifyingKey<P>, &[u8], &Signature<P>)| vk.verify(msg, &[], sig),
        (&vk, &msg[..], &sig),
    );
    stack(set, "verify", used);
    check(set, "kat-verify", ok.is_ok());

    let mut h = RspHasher::new();
    h.text("count = 0\n");
    h.field("seed", &seed);
    h.number("mlen", msg.len());
    h.field("msg", &msg);
    h.field("pk", vk.as_bytes().as_ref());
    h.field("sk", sk.as_bytes().as_ref());
    h.number("smlen", sig.as_bytes().as_ref().len() + msg.len());
    h.fields("sm", &[sig.as_bytes().as_ref(), &msg]);
    check_digest(set, h, want);

    // Round trip through the randomized API, with a context string.
    let mut rng = FastRng::new(u64::from_le_bytes(drbg.bytes()));
    let ((sk2, vk2), used) = stack::measure(pqdr_mldsa::generate::<P, FastRng>, &mut rng);
    stack(set, "generate(rng)", used);
    let ctx = b"pqdr firmware";
    let (sig2, used) = stack::measure(
        |(sk, ctx, rng): (&SigningKey<P>, &[u8], &mut FastRng)| sk.sign(b"round trip", ctx, rng),
        (&sk2, &ctx[..], &mut rng),
    );
    stack(set, "sign(rng)", used);
    let Ok(sig2) = sig2 else {
        check(set, "round-trip", false);
        return;
    };
    check(
        set,
        "round-trip",
        vk2.verify(b"round trip", ctx, &sig2).is_ok(),
    );
    check(
        set,
        "reject-message",
        vk2.verify(b"round trip?", ctx, &sig2).is_err(),
    );
    check(
        set,
        "reject-context",
        vk2.verify(b"round trip", &[], &sig2).is_err(),
    );
    let mut bad = [0u8; 4627];
    let n = sig2.as_bytes().as_ref().len();
    bad[..n].copy_from_slice(sig2.as_bytes().as_ref());
    bad[7] ^= 1;
    let ok = match Signature::<P>::from_slice(&bad[..n]) {
        Ok(s) => vk2.verify(b"round trip", ctx, &s).is_err(),
        Err(_) => true,
    };
    check(set, "reject-signature", ok);
}

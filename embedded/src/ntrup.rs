//! Streamlined NTRU Prime (round 3) on the target.
use pqdr_kat::Drbg;
use crate::{FastRng, RspHasher, check, check_digest, first_kem_seed, stack};
use pqdr_ntrup::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet};

/// sntrup: the first record of the official round-3 KAT file (the reference
/// draws every 32-bit word with its own `randombytes(4)`, which `generate` and
/// `encapsulate_reference` reproduce), decapsulation, a round trip and implicit
/// rejection of a modified ciphertext.
#[inline(never)]
pub(crate) fn run<S: ParameterSet>(want: &str) {
    let set = S::NAME;
    let seed = first_kem_seed();
    let mut drbg = Drbg::new(&seed);

    // The KAT draws 4 bytes per `randombytes` call from the AES DRBG (most of
    // the time here), so it is not measured; the round trip below is.
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut drbg);
    let (ct, ss) = ek.encapsulate_reference(&mut drbg);
    let ss2 = dk.decapsulate(&ct);

    let mut h = RspHasher::new();
    h.text("count = 0\n");
    h.field("seed", &seed);
    h.field("pk", ek.as_bytes().as_ref());
    h.field("sk", dk.as_bytes().as_ref());
    h.field("ct", ct.as_bytes().as_ref());
    h.field("ss", ss.as_bytes());
    check_digest(set, h, want);
    check(set, "kat-decaps", ss2.as_bytes() == ss.as_bytes());

    let mut rng = FastRng::new(u64::from_le_bytes(drbg.bytes()));
    let ((dk2, ek2), used) = stack::measure(DecapsulationKey::<S>::generate::<FastRng>, &mut rng);
    stack(set, "keygen", used);
    let ((ct2, ss3), used) = stack::measure(
        |(ek, rng): (&EncapsulationKey<S>, &mut FastRng)| ek.encapsulate(rng),
        (&ek2, &mut rng),
    );
    stack(set, "encaps", used);
    let (ss4, used) = stack::measure(
        |(dk, ct): (&DecapsulationKey<S>, &Ciphertext<S>)| dk.decapsulate(ct),
        (&dk2, &ct2),
    );
    stack(set, "decaps", used);
    check(set, "round-trip", ss4.as_bytes() == ss3.as_bytes());

    let mut bad = [0u8; 2048];
    let n = ct2.as_bytes().as_ref().len();
    bad[..n].copy_from_slice(ct2.as_bytes().as_ref());
    bad[3] ^= 0x10;
    let ok = match Ciphertext::<S>::from_slice(&bad[..n]) {
        Ok(ct3) => dk2.decapsulate(&ct3).as_bytes() != ss3.as_bytes(),
        Err(_) => false,
    };
    check(set, "implicit-rejection", ok);
}

//! ML-KEM (FIPS 203) on the target.
use pqdr_kat::Drbg;
use crate::{FastRng, RspHasher, check, check_digest, first_kem_seed, stack};
use pqdr_mlkem::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet};

/// ML-KEM: the first NIST KAT record (`PQCgenKAT_kem.c`: one 64-byte draw for
/// d ‖ z, one 32-byte draw for m), decapsulation of its ciphertext, a
/// randomized round trip and implicit rejection of a modified ciphertext.
#[inline(never)]
pub(crate) fn run<P: ParameterSet>(want: &str) {
    let set = P::NAME;
    let seed = first_kem_seed();
    let mut drbg = Drbg::new(&seed);
    let d_z: [u8; 64] = drbg.bytes();
    let m: [u8; 32] = drbg.bytes();

    let (dk, used) = stack::measure(DecapsulationKey::<P>::from_seed, &d_z);
    stack(set, "keygen", used);
    // The same key written into existing storage (no by-value temporary).
    let mut dk_in_place = DecapsulationKey::<P>::from_seed(&[0; 64]);
    let ((), used) = stack::measure(
        |(dk, d_z): (&mut DecapsulationKey<P>, &[u8; 64])| dk.fill_from_seed(d_z),
        (&mut dk_in_place, &d_z),
    );
    stack(set, "keygen (key in place)", used);
    check(set, "keygen-in-place", dk_in_place == dk);
    let ((ct, ss), used) = stack::measure(
        |(ek, m): (&EncapsulationKey<P>, &[u8; 32])| ek.encapsulate_deterministic(m),
        (dk.encapsulation_key(), &m),
    );
    stack(set, "encaps", used);
    let (ss2, used) = stack::measure(
        |(dk, ct): (&DecapsulationKey<P>, &Ciphertext<P>)| dk.decapsulate(ct),
        (&dk, &ct),
    );
    stack(set, "decaps", used);

    let mut h = RspHasher::new();
    h.text("count = 0\n");
    h.field("seed", &seed);
    h.field("pk", dk.encapsulation_key().as_bytes().as_ref());
    h.field("sk", dk.as_bytes().as_ref());
    h.field("ct", ct.as_bytes().as_ref());
    h.field("ss", ss.as_bytes());
    check_digest(set, h, want);
    check(set, "kat-decaps", ss2.as_bytes() == ss.as_bytes());

    // Round trip through the randomized API.
    let mut rng = FastRng::new(u64::from_le_bytes(drbg.bytes()));
    let ((dk2, ek2), used) = stack::measure(pqdr_mlkem::generate::<P, FastRng>, &mut rng);
    stack(set, "generate(rng)", used);
    let ((ct2, ss3), used) = stack::measure(
        |(ek, rng): (&EncapsulationKey<P>, &mut FastRng)| ek.encapsulate(rng),
        (&ek2, &mut rng),
    );
    stack(set, "encapsulate(rng)", used);
    let ss4 = dk2.decapsulate(&ct2);
    check(set, "round-trip", ss3.as_bytes() == ss4.as_bytes());

    // A one-bit change of the ciphertext must give another (rejection) secret.
    let mut bad = [0u8; 1568];
    let n = ct2.as_bytes().as_ref().len();
    bad[..n].copy_from_slice(ct2.as_bytes().as_ref());
    bad[n / 2] ^= 0x10;
    let ok = match Ciphertext::<P>::from_slice(&bad[..n]) {
        Ok(ct3) => dk2.decapsulate(&ct3).as_bytes() != ss3.as_bytes(),
        Err(_) => false,
    };
    check(set, "implicit-rejection", ok);
}

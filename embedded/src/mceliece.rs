//! Classic McEliece on the target, keys in caller buffers: the public and the
//! secret key live in a static arena (the emulated RAM), not on the stack.
use pqdr_kat::Drbg;
use crate::{FastRng, RspHasher, check, check_digest, first_kem_seed, stack};
use pqdr_mceliece::{Buf, ParameterSet};

/// Room for the largest public key tested (460896: 524,160 bytes) and its
/// secret key (13,608 bytes).
const PK_MAX: usize = 524_160;
const SK_MAX: usize = 16_384;
static mut PK: [u8; PK_MAX] = [0; PK_MAX];
static mut SK: [u8; SK_MAX] = [0; SK_MAX];

/// The arena as `P`'s key buffers (`[u8; N]`, alignment 1).
fn buffers<P: ParameterSet>() -> (&'static mut P::PkBytes, &'static mut P::SkBytes) {
    assert!(core::mem::size_of::<P::PkBytes>() <= PK_MAX);
    assert!(core::mem::size_of::<P::SkBytes>() <= SK_MAX);
    assert!(core::mem::align_of::<P::PkBytes>() == 1 && core::mem::align_of::<P::SkBytes>() == 1);
    // SAFETY: the key types are byte arrays (checked: size, alignment 1) that
    // fit the arena; every byte pattern is valid for them; `run` calls this
    // once per set, and the borrows end before the next call.
    unsafe { (&mut *(&raw mut PK).cast(), &mut *(&raw mut SK).cast()) }
}

/// McEliece: the first record of the round-4 KAT (`randombytes(32)` for the
/// key seed, then the `gen_e` draws), decapsulation, implicit rejection.
#[inline(never)]
pub(crate) fn run<P: ParameterSet>(want: &str) {
    let set = P::NAME;
    let seed = first_kem_seed();
    let mut drbg = Drbg::new(&seed);
    let (pk, sk) = buffers::<P>();
    let mut ct = P::CtBytes::zeroed();

    // `generate_into` = one 32-byte draw for delta, then the deterministic
    // KeyGen (measured without the DRBG).
    let delta: [u8; 32] = drbg.bytes();
    let ((), used) = stack::measure(
        |(pk, sk, d)| pqdr_mceliece::generate_deterministic_into::<P>(pk, sk, d),
        (&mut *pk, &mut *sk, &delta),
    );
    stack(set, "keygen (keys in caller buffers)", used);
    let ss = pqdr_mceliece::encapsulate_into::<P, _>(pk, &mut ct, &mut drbg);
    let ss2 = pqdr_mceliece::decapsulate::<P>(sk, &ct);

    let mut h = RspHasher::new();
    h.text("count = 0\n");
    h.field("seed", &seed);
    h.field("pk", pk.as_ref());
    h.field("sk", sk.as_ref());
    h.field("ct", ct.as_ref());
    h.field("ss", ss.as_bytes());
    check_digest(set, h, want);
    check(set, "kat-decaps", ss2.as_bytes() == ss.as_bytes());

    let mut rng = FastRng::new(u64::from_le_bytes(drbg.bytes()));
    let mut ct2 = P::CtBytes::zeroed();
    let (ss3, used) = stack::measure(
        |(pk, ct, rng)| pqdr_mceliece::encapsulate_into::<P, FastRng>(pk, ct, rng),
        (&*pk, &mut ct2, &mut rng),
    );
    stack(set, "encaps", used);
    let (ss4, used) = stack::measure(
        |(sk, ct)| pqdr_mceliece::decapsulate::<P>(sk, ct),
        (&*sk, &ct2),
    );
    stack(set, "decaps", used);
    check(set, "round-trip", ss3.as_bytes() == ss4.as_bytes());

    let mut bad = ct.clone();
    bad.as_mut()[5] ^= 0x04;
    check(
        set,
        "implicit-rejection",
        pqdr_mceliece::decapsulate::<P>(sk, &bad).as_bytes() != ss.as_bytes(),
    );
}

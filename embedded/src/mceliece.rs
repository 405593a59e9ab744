//! Classic McEliece on the target, keys in caller buffers: the public and the
//! secret key live in a static arena (the emulated RAM), not on the stack.
use crate::{FastRng, RspHasher, check, check_digest, first_kem_seed, stack};
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, Ordering};
use pqdr_kat::Drbg;
use pqdr_mceliece::{Buf, ParameterSet};

/// Room for the largest public key tested (460896: 524,160 bytes) and its
/// secret key (13,608 bytes).
const PK_MAX: usize = 524_160;
const SK_MAX: usize = 16_384;
static mut PK: [u8; PK_MAX] = [0; PK_MAX];
static mut SK: [u8; SK_MAX] = [0; SK_MAX];

/// Set while a [`Keys`] holds the arena.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Exclusive use of the arena as `P`'s key buffers (`[u8; N]`, alignment
/// 1), until dropped: at most one exists at a time (the `TAKEN` flag), and
/// the buffers are borrowed from it, so no two `&mut` to the arena can
/// coexist however often `run` is called.
struct Keys<P: ParameterSet>(PhantomData<P>);

impl<P: ParameterSet> Keys<P> {
    /// The arena, or `None` while another `Keys` holds it.
    fn take() -> Option<Self> {
        assert!(core::mem::size_of::<P::PkBytes>() <= PK_MAX);
        assert!(core::mem::size_of::<P::SkBytes>() <= SK_MAX);
        assert!(
            core::mem::align_of::<P::PkBytes>() == 1 && core::mem::align_of::<P::SkBytes>() == 1
        );
        (!TAKEN.swap(true, Ordering::Acquire)).then_some(Self(PhantomData))
    }

    /// The public- and secret-key buffers, borrowed from the guard.
    fn split(&mut self) -> (&mut P::PkBytes, &mut P::SkBytes) {
        // SAFETY: the key types are byte arrays (checked in `take`: size,
        // alignment 1) that fit the arena, and every byte pattern is valid
        // for them. While `self` exists `TAKEN` is set, so no other `Keys`
        // exists, and the returned borrows of `self` end before any other
        // call of `split` or the drop: these are the only references to the
        // arena.
        unsafe { (&mut *(&raw mut PK).cast(), &mut *(&raw mut SK).cast()) }
    }
}

impl<P: ParameterSet> Drop for Keys<P> {
    fn drop(&mut self) {
        TAKEN.store(false, Ordering::Release);
    }
}

/// McEliece: the first record of the round-4 KAT (`randombytes(32)` for the
/// key seed, then the `gen_e` draws), decapsulation, implicit rejection.
#[inline(never)]
pub(crate) fn run<P: ParameterSet>(want: &str) {
    let set = P::NAME;
    let seed = first_kem_seed();
    let mut drbg = Drbg::new(&seed);
    let Some(mut keys) = Keys::<P>::take() else {
        check(set, "key-arena", false);
        return;
    };
    let (pk, sk) = keys.split();
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

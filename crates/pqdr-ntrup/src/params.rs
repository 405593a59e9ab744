//! The six Streamlined NTRU Prime parameter sets of the round-3 submission
//! (NTRU Prime spec §3, the list of parameter sets; sntrup761 is §3.5): p
//! prime, q prime, w the weight of short polynomials, in the Core parameter
//! space of §2.3. Every byte length follows from (p, q) through the encodings
//! of §3.1.
//!
//! Each set is a zero-sized marker type implementing the sealed
//! [`ParameterSet`]; the arithmetic is written once, const-generic over
//! (p, q, w), and the trait's hidden methods connect the two.

use core::fmt::Debug;

use crate::arch::Hat;
use crate::encode::{MAX_LEN, rounded_bytes, rq_bytes, small_bytes};
use crate::kem;
use crate::kem::HASH_BYTES;
use crate::sntrup_core::hats_len;

/// `[u8; N]`: the storage of keys, ciphertexts and encoded inputs (the
/// family's one byte-array trait).
pub use pqdr_common::ByteArray;

pub(crate) mod sealed {
    use crate::arch::Hat;

    /// Only this crate's parameter sets implement [`ParameterSet`](super::ParameterSet).
    pub trait Sealed {}

    /// The storage of a kept `Rq_decode(pk)` (`ParameterSet::DecodedKey`):
    /// `[i16; P]`, or `()` where none is kept (no bytes, alignment 1: the
    /// key's layout is the one without it).
    pub trait Decoded: Copy + Send + Sync + 'static {
        /// All zero.
        const ZERO: Self;
        /// The coefficients (none for `()`).
        fn coeffs(&self) -> &[i16];
        /// The coefficients, to fill (none for `()`).
        fn coeffs_mut(&mut self) -> &mut [i16];
    }

    impl<const N: usize> Decoded for [i16; N] {
        const ZERO: Self = [0; N];
        fn coeffs(&self) -> &[i16] {
            self
        }
        fn coeffs_mut(&mut self) -> &mut [i16] {
            self
        }
    }

    /// The storage of a prepared key's kept transforms
    /// (`ParameterSet::PreparedHats`): `[Hat; N]`, N = `sntrup_core::hats_len(P)`.
    pub trait Prepared: AsRef<[Hat]> + AsMut<[Hat]> + Send + Sync + 'static {
        /// All zero.
        const ZERO: Self;
    }

    impl<const N: usize> Prepared for [Hat; N] {
        const ZERO: Self = [[[0; 16]; 64]; N];
    }

    impl Decoded for () {
        const ZERO: Self = ();
        fn coeffs(&self) -> &[i16] {
            &[]
        }
        fn coeffs_mut(&mut self) -> &mut [i16] {
            &mut []
        }
    }
}

/// A Streamlined NTRU Prime parameter set (NTRU Prime spec §3; implemented by
/// the marker types [`Sntrup653`] … [`Sntrup1277`]; sealed).
///
/// The `#[doc(hidden)]` methods connect the generic key types to the one
/// const-generic implementation; use the key types instead.
pub trait ParameterSet:
    Copy + Clone + Debug + Default + Eq + Ord + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"sntrup761"`.
    const NAME: &'static str;
    /// Degree p (prime; the ring is Z\[x\]/(x^p - x - 1)).
    const P: usize;
    /// Modulus q (prime).
    const Q: u16;
    /// Weight w of short polynomials.
    const W: usize;
    /// `[u8; ENCAPSULATION_KEY_SIZE]`.
    type EncapsulationKeyBytes: ByteArray;
    /// `[u8; DECAPSULATION_KEY_SIZE]`.
    type DecapsulationKeyBytes: ByteArray;
    /// `[u8; CIPHERTEXT_SIZE]`.
    type CiphertextBytes: ByteArray;
    /// `[u8; INPUTS_SIZE]`: a `Small_encode`d polynomial (`r_enc`, `rho`).
    type InputBytes: ByteArray;
    /// `Rq_decode(pk)` as an encapsulation key keeps it: `[i16; P]` for
    /// sntrup653/761/857, `()` for the larger sets, which decode pk at
    /// every encapsulation instead: a key pair holds two encapsulation keys
    /// (the secret key embeds one), and 4p bytes more would take their key
    /// generation past its 24 KB stack budget (tests/stack.rs).
    #[doc(hidden)]
    type DecodedKey: sealed::Decoded;
    /// The transforms a `PreparedDecapsulationKey` keeps: as many 2 KB
    /// blocks as the set's AVX2 product needs for f, 1/g and h
    /// (`sntrup_core::hats_len`).
    #[doc(hidden)]
    type PreparedHats: sealed::Prepared;

    #[doc(hidden)]
    fn keypair<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
        rng: &mut R,
        pk: &mut Self::EncapsulationKeyBytes,
        sk: &mut Self::DecapsulationKeyBytes,
    ) -> Result<(), R::Error>;
    #[doc(hidden)]
    fn keypair_deterministic(
        f: &Self::InputBytes,
        g: &Self::InputBytes,
        rho: &Self::InputBytes,
        pk: &mut Self::EncapsulationKeyBytes,
        sk: &mut Self::DecapsulationKeyBytes,
    ) -> Option<()>;
    #[doc(hidden)]
    fn decode_key(pk: &Self::EncapsulationKeyBytes, h: &mut Self::DecodedKey);
    #[doc(hidden)]
    fn encap<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
        rng: &mut R,
        pk: EncapKey<'_, Self>,
        ct: &mut Self::CiphertextBytes,
        ss: &mut [u8; HASH_BYTES],
    ) -> Result<(), R::Error>;
    #[doc(hidden)]
    fn encap_deterministic(
        r_enc: &Self::InputBytes,
        pk: EncapKey<'_, Self>,
        ct: &mut Self::CiphertextBytes,
        ss: &mut [u8; HASH_BYTES],
    ) -> Option<()>;
    #[doc(hidden)]
    fn hash3_rho(sk: &Self::DecapsulationKeyBytes, out: &mut [u8; HASH_BYTES]);
    #[doc(hidden)]
    fn decap(
        ct: &Self::CiphertextBytes,
        sk: &Self::DecapsulationKeyBytes,
        kept: (&Self::DecodedKey, &[u8; HASH_BYTES]),
        ss: &mut [u8; HASH_BYTES],
    );
    #[doc(hidden)]
    fn prepare(sk: &Self::DecapsulationKeyBytes, hats: &mut Self::PreparedHats) -> bool;
    #[doc(hidden)]
    fn decap_prepared(
        ct: &Self::CiphertextBytes,
        sk: &Self::DecapsulationKeyBytes,
        hats: Option<&Self::PreparedHats>,
        h3_rho: &[u8; HASH_BYTES],
        ss: &mut [u8; HASH_BYTES],
    );
    #[doc(hidden)]
    fn sk_valid(sk: &Self::DecapsulationKeyBytes) -> bool;
}

/// What encapsulation reads of an encapsulation key: `pk`, its kept
/// `Rq_decode` ([`ParameterSet::DecodedKey`]) and `Hash4(pk)`.
#[doc(hidden)]
pub(crate) type EncapKey<'a, S> = (
    &'a <S as ParameterSet>::EncapsulationKeyBytes,
    &'a <S as ParameterSet>::DecodedKey,
    &'a [u8; HASH_BYTES],
);

pub(crate) use crate::arith::MAX_P;

/// The largest modulus q of any set (sntrup1277): `Encode` takes moduli below
/// 2^14, and the 16-bit lanes of the products and reciprocals hold values in
/// (-2q, 2q).
pub(crate) const MAX_Q: i16 = 7879;

const _: () = assert!(MAX_P <= MAX_LEN && MAX_Q < 1 << 14);

/// Encapsulation-key length: `Rq_bytes` (`pk = Rq_encode(h)`, NTRU Prime spec §3.1).
pub(crate) const fn pk_bytes(p: usize, q: i16) -> usize {
    rq_bytes(p, q)
}

/// Ciphertext length: `Rounded_bytes + Confirm_bytes`.
pub(crate) const fn ct_bytes(p: usize, q: i16) -> usize {
    rounded_bytes(p, q) + HASH_BYTES
}

/// Decapsulation-key length: `2 Small_bytes + Rq_bytes + Small_bytes + Hash_bytes`
/// (`f`, `1/g`, `pk`, `rho`, `Hash4(pk)`).
pub(crate) const fn sk_bytes(p: usize, q: i16) -> usize {
    3 * small_bytes(p) + pk_bytes(p, q) + HASH_BYTES
}

/// Declares a marker type and its [`ParameterSet`] impl.
macro_rules! variant {
    ($marker:ident, $name:literal, p = $p:literal, q = $q:literal, w = $w:literal, decoded = $decoded:ty) => {
        #[doc = concat!("Marker type for `", $name, "` (p = ", stringify!($p), ", q = ",
                                                    stringify!($q), ", w = ", stringify!($w), ").")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $marker;

        impl sealed::Sealed for $marker {}

        // The set fits the bounds the working buffers are sized for.
        const _: () = assert!($p <= MAX_P && $q <= MAX_Q);

        impl ParameterSet for $marker {
            const NAME: &'static str = $name;
            const P: usize = $p;
            const Q: u16 = $q;
            const W: usize = $w;
            type EncapsulationKeyBytes = [u8; pk_bytes($p, $q)];
            type DecapsulationKeyBytes = [u8; sk_bytes($p, $q)];
            type CiphertextBytes = [u8; ct_bytes($p, $q)];
            type InputBytes = [u8; small_bytes($p)];
            type DecodedKey = $decoded;
            type PreparedHats = [Hat; hats_len($p)];

            fn decode_key(pk: &Self::EncapsulationKeyBytes, h: &mut Self::DecodedKey) {
                kem::decode_key::<$p, $q>(pk, sealed::Decoded::coeffs_mut(h))
            }

            fn keypair<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
                rng: &mut R,
                pk: &mut Self::EncapsulationKeyBytes,
                sk: &mut Self::DecapsulationKeyBytes,
            ) -> Result<(), R::Error> {
                kem::keypair::<$p, $q, $w, BATCHED, R>(rng, pk, sk)
            }
            fn keypair_deterministic(
                f: &Self::InputBytes,
                g: &Self::InputBytes,
                rho: &Self::InputBytes,
                pk: &mut Self::EncapsulationKeyBytes,
                sk: &mut Self::DecapsulationKeyBytes,
            ) -> Option<()> {
                kem::keypair_from_encodings::<$p, $q, $w>(f, g, rho, pk, sk)
            }
            fn encap<R: rand_core::TryCryptoRng + ?Sized, const BATCHED: bool>(
                rng: &mut R,
                (pk, h, cache): EncapKey<'_, Self>,
                ct: &mut Self::CiphertextBytes,
                ss: &mut [u8; HASH_BYTES],
            ) -> Result<(), R::Error> {
                let h = sealed::Decoded::coeffs(h);
                kem::encap::<$p, $q, $w, BATCHED, R>(rng, (pk, h, cache), ct, ss)
            }
            fn encap_deterministic(
                r_enc: &Self::InputBytes,
                (pk, h, cache): EncapKey<'_, Self>,
                ct: &mut Self::CiphertextBytes,
                ss: &mut [u8; HASH_BYTES],
            ) -> Option<()> {
                let mut r = kem::decode_short::<$p, $w>(r_enc)?;
                let h = sealed::Decoded::coeffs(h);
                kem::encap_with::<$p, $q>(&mut r, (pk, h, cache), ct, ss);
                Some(())
            }
            fn hash3_rho(sk: &Self::DecapsulationKeyBytes, out: &mut [u8; HASH_BYTES]) {
                kem::hash3_rho::<$p, $q>(sk, out)
            }
            fn decap(
                ct: &Self::CiphertextBytes,
                sk: &Self::DecapsulationKeyBytes,
                (h, h3_rho): (&Self::DecodedKey, &[u8; HASH_BYTES]),
                ss: &mut [u8; HASH_BYTES],
            ) {
                let h = sealed::Decoded::coeffs(h);
                kem::decap::<$p, $q, $w, { ct_bytes($p, $q) }>(ct, (sk, h, h3_rho), ss)
            }
            fn prepare(sk: &Self::DecapsulationKeyBytes, hats: &mut Self::PreparedHats) -> bool {
                kem::prepare::<$p, $q>(sk, hats)
            }
            fn decap_prepared(
                ct: &Self::CiphertextBytes,
                sk: &Self::DecapsulationKeyBytes,
                hats: Option<&Self::PreparedHats>,
                h3_rho: &[u8; HASH_BYTES],
                ss: &mut [u8; HASH_BYTES],
            ) {
                let hats = hats.map(|h| &h[..]);
                kem::decap_prepared::<$p, $q, $w, { ct_bytes($p, $q) }>(ct, sk, hats, h3_rho, ss)
            }
            fn sk_valid(sk: &Self::DecapsulationKeyBytes) -> bool {
                kem::sk_valid::<$p, $q>(sk)
            }
        }
    };
}

#[cfg(feature = "sntrup653")]
variant!(
    Sntrup653,
    "sntrup653",
    p = 653,
    q = 4621,
    w = 288,
    decoded = [i16; 653]
);
#[cfg(feature = "sntrup761")]
variant!(
    Sntrup761,
    "sntrup761",
    p = 761,
    q = 4591,
    w = 286,
    decoded = [i16; 761]
);
#[cfg(feature = "sntrup857")]
variant!(
    Sntrup857,
    "sntrup857",
    p = 857,
    q = 5167,
    w = 322,
    decoded = [i16; 857]
);
#[cfg(feature = "sntrup953")]
variant!(
    Sntrup953,
    "sntrup953",
    p = 953,
    q = 6343,
    w = 396,
    decoded = ()
);
#[cfg(feature = "sntrup1013")]
variant!(
    Sntrup1013,
    "sntrup1013",
    p = 1013,
    q = 7177,
    w = 448,
    decoded = ()
);
#[cfg(feature = "sntrup1277")]
variant!(
    Sntrup1277,
    "sntrup1277",
    p = 1277,
    q = 7879,
    w = 492,
    decoded = ()
);

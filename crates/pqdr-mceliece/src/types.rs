//! Public key, secret key, ciphertext and shared-secret types, generic over the
//! parameter set, with the spec's validity checks on untrusted bytes (Classic
//! McEliece spec §3, data formats), and the public KeyGen / Encap / Decap
//! entry points (spec §8.1–§8.3) on them and on caller buffers.

use crate::error::{Error, Object, check_length};
use crate::kem;
use crate::params::{Buf, Derived, MAX_N_BYTES, MAX_ROW_BYTES, MAX_SYND_BYTES, ParameterSet};
use core::fmt;
use rand_core::CryptoRng;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, ZeroizeOnDrop};

pub use pqdr_common::SharedSecret;

/// Whether the padding bits of a public key are zero (Classic McEliece spec
/// §3.1: each row of T is n - mt bits in ceil((n - mt)/8) bytes; only 6960119
/// has padding).
pub(crate) fn pk_padding_ok<P: ParameterSet>(pk: &[u8]) -> bool {
    let bits = (P::N - P::MT) & 7;
    if bits == 0 {
        return true;
    }
    let mut acc = 0u8;
    for row in pk.chunks_exact(P::ROW_BYTES) {
        acc |= row[P::ROW_BYTES - 1] >> bits;
    }
    acc == 0
}

/// Whether the padding bits of C0 are zero (Classic McEliece spec §3.2).
pub(crate) fn ct_padding_ok<P: ParameterSet>(ct: &[u8]) -> bool {
    let bits = P::MT & 7;
    bits == 0 || ct[P::SYND_BYTES - 1] >> bits == 0
}

/// Checks an encoded public key held in a caller buffer: its length and the
/// spec's format rule (zero padding bits in every row of T, 6960119 sets;
/// Classic McEliece spec §3.1).
///
/// # Errors
/// [`Error::Length`] for a wrong length, [`Error::InvalidKey`] for nonzero
/// padding bits.
pub fn validate_encapsulation_key<P: ParameterSet>(pk: &[u8]) -> Result<(), Error> {
    check_length(Object::EncapsulationKey, P::PK_BYTES, pk.len())?;
    if !pk_padding_ok::<P>(pk) {
        return Err(Error::InvalidKey);
    }
    Ok(())
}

/// Secret-key format checks (Classic McEliece spec §3.3): the pivot word c is
/// 2^32 - 1 for the systematic sets and has exactly 32 bits set for the `f`
/// sets; the Goppa coefficients fit in m bits. Only the format is examined, in constant time
/// with respect to the secret parts.
fn check_sk<P: ParameterSet>(sk: &[u8]) -> Result<(), Error> {
    check_length(Object::DecapsulationKey, P::SK_BYTES, sk.len())?;
    let mut c = [0u8; 8];
    c.copy_from_slice(&sk[32..40]);
    let c = u64::from_le_bytes(c);
    let c_ok = if P::SEMI {
        c.count_ones() == 32
    } else {
        c == 0xFFFF_FFFF
    };
    let mut high = 0u16;
    for i in 0..P::T {
        high |= u16::from_le_bytes([sk[40 + 2 * i], sk[41 + 2 * i]]) & !P::GF_MASK;
    }
    if !c_ok || high != 0 {
        return Err(Error::InvalidKey);
    }
    Ok(())
}

/// A ciphertext (C0, plus C1 for the `pc` sets).
#[derive(Clone)]
pub struct Ciphertext<P: ParameterSet> {
    bytes: P::CtBytes,
}

impl<P: ParameterSet> PartialEq for Ciphertext<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref() == other.bytes.as_ref()
    }
}
impl<P: ParameterSet> Eq for Ciphertext<P> {}

impl<P: ParameterSet> fmt::Debug for Ciphertext<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ciphertext")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Ciphertext<P> {
    /// Parses a ciphertext (Classic McEliece spec §3.2).
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, [`Error::InvalidCiphertext`] for
    /// nonzero padding bits in C0 (6960119 sets).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_length(Object::Ciphertext, P::CT_BYTES, bytes.len())?;
        if !ct_padding_ok::<P>(bytes) {
            return Err(Error::InvalidCiphertext);
        }
        let mut c = P::CtBytes::zeroed();
        c.as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: c })
    }
    /// [`Self::from_slice`] of an array (the padding check still runs).
    ///
    /// # Errors
    /// [`Error::InvalidCiphertext`] for nonzero padding bits in C0.
    pub fn from_array(bytes: &P::CtBytes) -> Result<Self, Error> {
        Self::from_slice(bytes.as_ref())
    }
    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
    /// The encoding.
    pub fn as_bytes(&self) -> &P::CtBytes {
        &self.bytes
    }
}

/// A secret (decapsulation) key: delta || c || g || control bits || s.
#[derive(Clone)]
pub struct DecapsulationKey<P: ParameterSet> {
    bytes: P::SkBytes,
}

impl<P: ParameterSet> fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}
impl<P: ParameterSet> ConstantTimeEq for DecapsulationKey<P> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.bytes.as_ref().ct_eq(other.bytes.as_ref())
    }
}
impl<P: ParameterSet> PartialEq for DecapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}
impl<P: ParameterSet> Eq for DecapsulationKey<P> {}
impl<P: ParameterSet> Zeroize for DecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.bytes.zeroize();
    }
}
impl<P: ParameterSet> Drop for DecapsulationKey<P> {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for DecapsulationKey<P> {}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// Parses a secret key (Classic McEliece spec §3.3).
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, [`Error::InvalidKey`] for a
    /// malformed pivot word c or Goppa coefficient.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        check_sk::<P>(bytes)?;
        let mut b = P::SkBytes::zeroed();
        b.as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: b })
    }
    /// [`Self::from_slice`] of an array (the format checks still run).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] as [`Self::from_slice`].
    pub fn from_array(bytes: &P::SkBytes) -> Result<Self, Error> {
        Self::from_slice(bytes.as_ref())
    }
    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
    /// The encoding.
    pub fn as_bytes(&self) -> &P::SkBytes {
        &self.bytes
    }
    /// `Decap` with implicit rejection (Classic McEliece spec §8.3): never fails.
    pub fn decapsulate(&self, ct: &Ciphertext<P>) -> SharedSecret {
        SharedSecret::from(kem::decapsulate::<P>(
            self.bytes.as_ref(),
            ct.bytes.as_ref(),
        ))
    }
    /// Decap of untrusted bytes.
    ///
    /// # Errors
    /// As [`Ciphertext::from_slice`]: `ct` has the wrong length or nonzero
    /// padding bits.
    pub fn decapsulate_bytes(&self, ct: &[u8]) -> Result<SharedSecret, Error> {
        Ok(self.decapsulate(&Ciphertext::from_slice(ct)?))
    }
    /// Precomputes the part of decoding that depends on the key alone (the
    /// Goppa polynomial evaluated at every field element and inverted and
    /// squared, and the support positions permuted), for a server that
    /// decapsulates many ciphertexts with one key: each
    /// [`PreparedDecapsulationKey::decapsulate`] then does about a third less
    /// work. The result is as secret as the key (zeroized on drop) and takes
    /// about 15 KB (m = 13) beside a copy of the key.
    ///
    /// ```
    /// # #[cfg(all(feature = "mceliece348864", feature = "alloc"))] {
    /// use pqdr_mceliece::mceliece348864 as k;
    /// # struct Rng(u64); // a toy generator for the example only
    /// # impl rand_core::TryRng for Rng {
    /// #     type Error = core::convert::Infallible;
    /// #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Ok(self.try_next_u64()? as u32) }
    /// #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
    /// #         self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; Ok(self.0)
    /// #     }
    /// #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
    /// #         for b in d { *b = self.try_next_u64()? as u8; } Ok(())
    /// #     }
    /// # }
    /// # impl rand_core::TryCryptoRng for Rng {}
    /// # let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    /// let (dk, ek) = k::generate(&mut rng);
    /// let prepared = dk.prepare();
    /// let (ct, ss) = ek.encapsulate(&mut rng);
    /// assert_eq!(prepared.decapsulate(&ct).as_bytes(), ss.as_bytes());
    /// # }
    /// ```
    pub fn prepare(&self) -> PreparedDecapsulationKey<P> {
        let mut p = PreparedDecapsulationKey {
            key: self.clone(),
            pre: crate::decrypt::Prepared::new(),
        };
        crate::decrypt::prepare::<P>(&mut p.pre, &self.bytes.as_ref()[40..]);
        p
    }
}

/// A [`DecapsulationKey`] with the key-only part of decoding precomputed
/// ([`DecapsulationKey::prepare`]): same results, less work per call.
pub struct PreparedDecapsulationKey<P: ParameterSet> {
    key: DecapsulationKey<P>,
    pre: crate::decrypt::Prepared,
}

impl<P: ParameterSet> fmt::Debug for PreparedDecapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PreparedDecapsulationKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}
impl<P: ParameterSet> Zeroize for PreparedDecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.key.zeroize();
        self.pre.zeroize();
    }
}
impl<P: ParameterSet> Drop for PreparedDecapsulationKey<P> {
    fn drop(&mut self) {
        self.pre.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for PreparedDecapsulationKey<P> {}

impl<P: ParameterSet> PreparedDecapsulationKey<P> {
    /// The key it was prepared from.
    pub fn key(&self) -> &DecapsulationKey<P> {
        &self.key
    }
    /// `Decap` with implicit rejection (Classic McEliece spec §8.3): never
    /// fails; the same shared secret as [`DecapsulationKey::decapsulate`].
    pub fn decapsulate(&self, ct: &Ciphertext<P>) -> SharedSecret {
        SharedSecret::from(kem::decapsulate_prepared::<P>(
            self.key.bytes.as_ref(),
            &self.pre,
            ct.bytes.as_ref(),
        ))
    }
    /// Decap of untrusted bytes.
    ///
    /// # Errors
    /// As [`Ciphertext::from_slice`]: `ct` has the wrong length or nonzero
    /// padding bits.
    pub fn decapsulate_bytes(&self, ct: &[u8]) -> Result<SharedSecret, Error> {
        Ok(self.decapsulate(&Ciphertext::from_slice(ct)?))
    }
}

/// A public (encapsulation) key: the mt x (n - mt) matrix T, row by row.
/// Held on the heap (255 KB to 1.3 MB).
#[cfg(feature = "alloc")]
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    bytes: alloc::boxed::Box<P::PkBytes>,
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes.as_ref().as_ref() == other.bytes.as_ref().as_ref()
    }
}
#[cfg(feature = "alloc")]
impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncapsulationKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> EncapsulationKey<P> {
    /// Parses a public key (copied into a fresh heap buffer; Classic McEliece
    /// spec §3.1).
    ///
    /// # Errors
    /// [`Error::Length`] for a wrong length, [`Error::InvalidKey`] for nonzero
    /// padding bits (6960119 sets).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        validate_encapsulation_key::<P>(bytes)?;
        let mut b = P::PkBytes::boxed_zeroed();
        b.as_mut().as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: b })
    }
    /// [`Self::from_slice`] of an array, copied to the heap (the padding
    /// check still runs; [`Self::from_boxed`] takes a box without copying).
    ///
    /// # Errors
    /// [`Error::InvalidKey`] for nonzero padding bits (6960119 sets).
    pub fn from_array(bytes: &P::PkBytes) -> Result<Self, Error> {
        Self::from_slice(bytes.as_ref())
    }
    /// Renamed [`Self::from_slice`].
    ///
    /// # Errors
    /// As [`Self::from_slice`].
    #[deprecated(since = "0.1.0", note = "renamed `from_slice`")]
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_slice(bytes)
    }
    /// Takes ownership of a boxed encoding after checking it.
    ///
    /// # Errors
    /// [`Error::InvalidKey`] for nonzero padding bits (6960119 sets).
    pub fn from_boxed(bytes: alloc::boxed::Box<P::PkBytes>) -> Result<Self, Error> {
        validate_encapsulation_key::<P>(bytes.as_ref().as_ref())?;
        Ok(Self { bytes })
    }
    /// The encoding.
    pub fn as_bytes(&self) -> &P::PkBytes {
        &self.bytes
    }
    /// `Encap` (Classic McEliece spec §8.2): a fresh ciphertext and session key.
    pub fn encapsulate<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = P::CtBytes::zeroed();
        let k = kem::encapsulate::<P, R>(self.bytes.as_ref().as_ref(), ct.as_mut(), rng);
        (Ciphertext { bytes: ct }, SharedSecret::from(k))
    }
}

/// `KeyGen` into heap buffers from the 32-byte seed delta (Classic McEliece
/// spec §8.1; the deterministic twin of [`generate`]).
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test (`self_test::pairwise_consistency`): only a hardware or
/// memory fault can cause that, never an input.
#[cfg(feature = "alloc")]
pub fn generate_deterministic<P: ParameterSet>(
    seed: &[u8; 32],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let mut pk = P::PkBytes::boxed_zeroed();
    let mut sk = DecapsulationKey {
        bytes: P::SkBytes::zeroed(),
    };
    kem::keypair::<P>(
        AsMut::<[u8]>::as_mut(pk.as_mut()),
        AsMut::<[u8]>::as_mut(&mut sk.bytes),
        seed,
    );
    #[cfg(feature = "self-test")]
    crate::self_test::assert_pairwise_consistent::<P>(&pk, &sk.bytes);
    (sk, EncapsulationKey { bytes: pk })
}

/// `KeyGen` into heap buffers (Classic McEliece spec §8.1; the public key is
/// allocated directly on the heap).
///
/// # Panics
/// With the feature `self-test`, as [`generate_deterministic`].
#[cfg(feature = "alloc")]
pub fn generate<P: ParameterSet, R: CryptoRng + ?Sized>(
    rng: &mut R,
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    let r = generate_deterministic::<P>(&seed);
    seed.zeroize();
    r
}

/// `KeyGen` into caller buffers from the 32-byte seed delta (Classic McEliece
/// spec §8.1).
///
/// # Panics
/// With the feature `self-test`, if the new pair fails its pair-wise
/// consistency test (`self_test::pairwise_consistency`): only a hardware or
/// memory fault can cause that, never an input.
pub fn generate_deterministic_into<P: ParameterSet>(
    pk: &mut P::PkBytes,
    sk: &mut P::SkBytes,
    seed: &[u8; 32],
) {
    kem::keypair::<P>(pk.as_mut(), sk.as_mut(), seed);
    #[cfg(feature = "self-test")]
    crate::self_test::assert_pairwise_consistent::<P>(pk, sk);
}

/// `KeyGen` into caller buffers (Classic McEliece spec §8.1): draws delta (one
/// 32-byte `fill_bytes`, as the reference's single `randombytes(32)`) then
/// runs the deterministic KeyGen.
///
/// # Panics
/// With the feature `self-test`, as [`generate_deterministic_into`].
pub fn generate_into<P: ParameterSet, R: CryptoRng + ?Sized>(
    pk: &mut P::PkBytes,
    sk: &mut P::SkBytes,
    rng: &mut R,
) {
    let mut seed = [0u8; 32];
    rng.fill_bytes(&mut seed);
    kem::keypair::<P>(pk.as_mut(), sk.as_mut(), &seed);
    seed.zeroize();
    #[cfg(feature = "self-test")]
    crate::self_test::assert_pairwise_consistent::<P>(pk, sk);
}

/// `Encap` with a public key in a caller buffer (Classic McEliece spec §8.2;
/// its padding bits are ignored).
pub fn encapsulate_into<P: ParameterSet, R: CryptoRng + ?Sized>(
    pk: &P::PkBytes,
    ct: &mut P::CtBytes,
    rng: &mut R,
) -> SharedSecret {
    SharedSecret::from(kem::encapsulate::<P, R>(pk.as_ref(), ct.as_mut(), rng))
}

/// `Decap` with a secret key in a caller buffer (Classic McEliece spec §8.3,
/// implicit rejection; the padding bits of C0 are ignored: use
/// [`Ciphertext::from_slice`] to reject them).
pub fn decapsulate<P: ParameterSet>(sk: &P::SkBytes, ct: &P::CtBytes) -> SharedSecret {
    SharedSecret::from(kem::decapsulate::<P>(sk.as_ref(), ct.as_ref()))
}

/// Encap reading the public key in pieces of any size (Classic McEliece spec
/// §2.4.5: each bit of C0 depends on one row of T only), for keys that are streamed from
/// storage or the network instead of held in memory.
pub struct StreamingEncapsulation<P: ParameterSet> {
    e: [u8; MAX_N_BYTES],
    tail: [u8; MAX_ROW_BYTES],
    c0: [u8; MAX_SYND_BYTES],
    row: [u8; MAX_ROW_BYTES],
    fill: usize,
    rows: usize,
    padding: u8,
    _set: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> fmt::Debug for StreamingEncapsulation<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamingEncapsulation")
            .field("set", &P::NAME)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Drop for StreamingEncapsulation<P> {
    fn drop(&mut self) {
        self.e.zeroize();
        self.tail.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for StreamingEncapsulation<P> {}

impl<P: ParameterSet> StreamingEncapsulation<P> {
    /// Draws the error vector e (`FixedWeight`, Classic McEliece spec §2.4.5).
    pub fn new<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut s = Self {
            e: [0; MAX_N_BYTES],
            tail: [0; MAX_ROW_BYTES],
            c0: [0; MAX_SYND_BYTES],
            row: [0; MAX_ROW_BYTES],
            fill: 0,
            rows: 0,
            padding: 0,
            _set: core::marker::PhantomData,
        };
        crate::encrypt::gen_e::<P, R>(&mut s.e[..P::N >> 3], rng);
        crate::encrypt::e_tail::<P>(&mut s.tail, &s.e[..P::N >> 3]);
        s
    }

    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public lengths only"
    )]
    fn rows_in(&mut self, rows: &[u8]) {
        let rb = P::ROW_BYTES;
        let bits = (P::N - P::MT) & 7;
        if bits != 0 {
            for r in rows.chunks_exact(rb) {
                self.padding |= r[rb - 1] >> bits;
            }
        }
        crate::encrypt::syndrome_rows::<P>(&mut self.c0, rows, self.rows, &self.e, &self.tail);
        self.rows += rows.len() / rb; // ct: public division
    }

    /// Feeds the next bytes of the public key.
    ///
    /// # Errors
    /// [`Error::Length`] if the bytes fed so far would exceed a public key
    /// (`actual` is that total).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "public lengths only"
    )]
    pub fn update(&mut self, mut data: &[u8]) -> Result<(), Error> {
        let rb = P::ROW_BYTES;
        let total = self.rows * rb + self.fill + data.len();
        if total > P::PK_BYTES {
            return Err(Error::Length {
                what: Object::EncapsulationKey,
                expected: P::PK_BYTES,
                actual: total,
            });
        }
        if self.fill > 0 {
            let take = (rb - self.fill).min(data.len());
            self.row[self.fill..self.fill + take].copy_from_slice(&data[..take]);
            self.fill += take;
            data = &data[take..];
            if self.fill == rb {
                let row = self.row;
                self.rows_in(&row[..rb]);
                self.fill = 0;
            }
        }
        let whole = data.len() / rb * rb; // ct: public division
        if whole > 0 {
            self.rows_in(&data[..whole]);
        }
        let rest = &data[whole..];
        self.row[..rest.len()].copy_from_slice(rest);
        self.fill += rest.len();
        Ok(())
    }

    /// The ciphertext and session key.
    ///
    /// # Errors
    /// [`Error::Length`] if the public key was incomplete (`actual` is the
    /// number of bytes fed), [`Error::InvalidKey`] if it had nonzero padding
    /// bits.
    pub fn finish(mut self) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        let fed = self.rows * P::ROW_BYTES + self.fill;
        if fed != P::PK_BYTES {
            return Err(Error::Length {
                what: Object::EncapsulationKey,
                expected: P::PK_BYTES,
                actual: fed,
            });
        }
        if self.padding != 0 {
            return Err(Error::InvalidKey);
        }
        let mut ct = P::CtBytes::zeroed();
        ct.as_mut()[..P::SYND_BYTES].copy_from_slice(&self.c0[..P::SYND_BYTES]);
        let k = kem::finish_encapsulation::<P>(&self.e[..P::N >> 3], ct.as_mut());
        self.e.zeroize();
        Ok((Ciphertext { bytes: ct }, SharedSecret::from(k)))
    }
}

//! Suites (docs/protocol/handshake.md §2) and the static-key algorithms behind them.
//!
//! One [`Auth`] type per static algorithm; the suite id adds the hybrid bit
//! (from the identities) and the ephemeral KEM (ML-KEM-768, or ML-KEM-512 for
//! KMc-c).

use pqdr_mlkem::{ml_kem_512, ml_kem_768};
use zeroize::Zeroize;

use crate::Error;
use crate::kdf::Coins;

/// Bit 7 of the suite id: the `-X` (X25519 hybrid) variant.
pub const HYBRID_BIT: u16 = 0x0080;
/// `pqdr_ratchet::XWing::ID` (the HPKE KEM id of X-Wing; tests/handshake/ratchet_kem.rs
/// checks it against the adapter).
pub const XWING_KEM_ID: u16 = 0x647A;
/// `pqdr_ratchet::MlKem768::ID` (the HPKE KEM id of ML-KEM-768).
pub const MLKEM768_KEM_ID: u16 = 0x0041;
/// Bits 6..4 of the suite id: the ephemeral KEM.
const EPHEMERAL_MASK: u16 = 0x0070;

/// KEM mode (PQ-WireGuard / pqIK) or signature mode (SIGMA-I).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Identities are KEM keys; authentication by decapsulation.
    Kem,
    /// Identities are ML-DSA keys; authentication by signatures over th.
    Sig,
}

/// The ephemeral KEM of an attempt (suite bits 6..4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ephemeral {
    /// ML-KEM-768 (every suite's default).
    #[default]
    MlKem768,
    /// ML-KEM-512: only KMc-c (feature `kmc-c`).
    MlKem512,
}

impl Ephemeral {
    pub(crate) const fn bits(self) -> u16 {
        match self {
            Ephemeral::MlKem768 => 0x0000,
            Ephemeral::MlKem512 => 0x0010,
        }
    }
    pub(crate) const fn ek_len(self) -> usize {
        match self {
            Ephemeral::MlKem768 => ml_kem_768::ENCAPSULATION_KEY_SIZE,
            Ephemeral::MlKem512 => ml_kem_512::ENCAPSULATION_KEY_SIZE,
        }
    }
    pub(crate) const fn ct_len(self) -> usize {
        match self {
            Ephemeral::MlKem768 => ml_kem_768::CIPHERTEXT_SIZE,
            Ephemeral::MlKem512 => ml_kem_512::CIPHERTEXT_SIZE,
        }
    }
}

/// A parsed suite id: static algorithm, hybrid flag and ephemeral KEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite(u16);

impl Suite {
    /// The suite for static algorithm `A`, `hybrid`, and `ephemeral`.
    ///
    /// # Errors
    /// [`Error::Config`] if `A` does not allow that ephemeral KEM.
    pub fn new<A: Auth>(hybrid: bool, ephemeral: Ephemeral) -> Result<Self, Error> {
        if ephemeral == Ephemeral::MlKem512 && !A::COMPACT {
            return Err(Error::Config);
        }
        let h = if hybrid { HYBRID_BIT } else { 0 };
        Ok(Suite(A::ALG | h | ephemeral.bits()))
    }

    /// Parses a wire suite id against static algorithm `A`.
    pub(crate) fn parse<A: Auth>(id: u16) -> Result<Self, Error> {
        let known = matches!(id & !HYBRID_BIT, 0x0101..=0x0103 | 0x0112 | 0x0201..=0x0203);
        if !known {
            return Err(Error::UnknownSuite);
        }
        if id & 0xFF0F != A::ALG {
            return Err(Error::SuiteNotAccepted);
        }
        let eph = match id & EPHEMERAL_MASK {
            0 => Ephemeral::MlKem768,
            _ if A::COMPACT => Ephemeral::MlKem512,
            _ => return Err(Error::SuiteNotAccepted),
        };
        Suite::new::<A>(id & HYBRID_BIT != 0, eph)
    }

    /// The wire id.
    pub const fn id(self) -> u16 {
        self.0
    }
    /// Whether this is a `-X` suite.
    pub const fn hybrid(self) -> bool {
        self.0 & HYBRID_BIT != 0
    }
    /// The wire id ([`pqdr_ratchet::RatchetKem::ID`]) of the ratchet KEM the
    /// suite starts (docs/protocol/handshake.md §4 "Output"): X-Wing for a `-X` suite, so
    /// the session's epochs stay hybrid, ML-KEM-768 otherwise.
    pub const fn ratchet_kem_id(self) -> u16 {
        if self.hybrid() {
            XWING_KEM_ID
        } else {
            MLKEM768_KEM_ID
        }
    }
    /// The ephemeral KEM.
    pub const fn ephemeral(self) -> Ephemeral {
        if self.0 & EPHEMERAL_MASK == 0 {
            Ephemeral::MlKem768
        } else {
            Ephemeral::MlKem512
        }
    }
    /// The suite's name (`K768`, `S65-X`, …).
    pub const fn name(self) -> &'static str {
        match self.0 {
            0x0101 => "K768",
            0x0181 => "K768-X",
            0x0102 => "KMc",
            0x0182 => "KMc-X",
            0x0103 => "KNt",
            0x0183 => "KNt-X",
            0x0112 => "KMc-c",
            0x0192 => "KMc-c-X",
            0x0201 => "S44",
            0x0281 => "S44-X",
            0x0202 => "S65",
            0x0282 => "S65-X",
            0x0203 => "S87",
            0x0283 => "S87-X",
            _ => "unknown",
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A static-key algorithm: the identity keys of one family of suites.
///
/// Sealed: implemented by [`K768`], [`KMc`], [`KNt`], [`S44`], [`S65`], [`S87`].
pub trait Auth: sealed::Sealed + Sized + 'static {
    /// Static algorithm id: the suite id without hybrid and ephemeral bits.
    const ALG: u16;
    /// KEM or signature mode.
    const MODE: Mode;
    /// Whether the ML-KEM-512 ephemeral (KMc-c) is allowed.
    const COMPACT: bool;
    /// Static ciphertext length (KEM mode; 0 in SIG mode).
    const CT_LEN: usize;
    /// Signature length (SIG mode; 0 in KEM mode).
    const SIG_LEN: usize;
    /// Verifying-key length (SIG mode; 0 in KEM mode).
    const VK_LEN: usize;
    /// The private key (decapsulation or signing key).
    type SecretKey;
    /// The public key (encapsulation or verifying key).
    type PublicKey: ?Sized;
    /// The initiator's copy of the responder's encoded verifying key (SIG
    /// mode: `[u8; VK_LEN]`, verified against sig_R at msg2). Empty in KEM
    /// mode, so a KEM-mode `Initiator` has no 2.6 KB buffer to clear and move.
    #[doc(hidden)]
    type VkBuf: Copy + AsRef<[u8]> + AsMut<[u8]>;
    /// An all-zero [`Auth::VkBuf`].
    #[doc(hidden)]
    const VK_BUF: Self::VkBuf;

    /// The encoded public key (hashed into the key id).
    fn public_bytes(pk: &Self::PublicKey) -> &[u8];
    /// KEM mode: encapsulates to `pk` with hedged coins; writes `ct` (CT_LEN) and `ss`.
    fn encapsulate(pk: &Self::PublicKey, coins: &mut Coins, ct: &mut [u8], ss: &mut [u8; 32]);
    /// KEM mode: decapsulates `ct` (CT_LEN bytes; implicit rejection).
    fn decapsulate(sk: &Self::SecretKey, ct: &[u8], ss: &mut [u8; 32]);
    /// SIG mode: ML-DSA.Sign (FIPS 204 Algorithm 2) with explicit `rnd`; writes SIG_LEN bytes.
    fn sign(sk: &Self::SecretKey, msg: &[&[u8]], ctx: &[u8], rnd: &[u8; 32], sig: &mut [u8]);
    /// SIG mode: ML-DSA.Verify (FIPS 204 Algorithm 3) of `sig` over `msg` under the encoded key `vk`.
    fn verify(vk: &[u8], msg: &[&[u8]], ctx: &[u8], sig: &[u8]) -> bool;
    /// SIG mode: [`Auth::verify`] under an already parsed key.
    fn verify_with(pk: &Self::PublicKey, msg: &[&[u8]], ctx: &[u8], sig: &[u8]) -> bool;
}

/// Concatenates message parts into a small stack buffer (SIG mode: th ‖ hpk ‖ ts).
fn join<'a>(parts: &[&[u8]], buf: &'a mut [u8; 128]) -> &'a [u8] {
    let mut n = 0;
    for p in parts {
        let end = (n + p.len()).min(buf.len());
        buf[n..end].copy_from_slice(&p[..end - n]);
        n = end;
    }
    &buf[..n]
}

macro_rules! kem_only {
    () => {
        fn sign(_: &Self::SecretKey, _: &[&[u8]], _: &[u8], _: &[u8; 32], _: &mut [u8]) {}
        fn verify(_: &[u8], _: &[&[u8]], _: &[u8], _: &[u8]) -> bool {
            false
        }
        fn verify_with(_: &Self::PublicKey, _: &[&[u8]], _: &[u8], _: &[u8]) -> bool {
            false
        }
    };
}

/// K768: ML-KEM-768 static keys (the default KEM suite, 0x0101).
#[derive(Clone, Copy, Debug)]
pub struct K768;
impl sealed::Sealed for K768 {}
impl Auth for K768 {
    const ALG: u16 = 0x0101;
    const MODE: Mode = Mode::Kem;
    const COMPACT: bool = false;
    const CT_LEN: usize = ml_kem_768::CIPHERTEXT_SIZE;
    const SIG_LEN: usize = 0;
    const VK_LEN: usize = 0;
    type VkBuf = [u8; 0];
    const VK_BUF: [u8; 0] = [];
    type SecretKey = ml_kem_768::DecapsulationKey;
    type PublicKey = ml_kem_768::EncapsulationKey;

    fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
        pk.as_bytes()
    }
    // FIPS 203 Algorithm 17 (Encaps_internal) with m from the hedged coins.
    fn encapsulate(pk: &Self::PublicKey, coins: &mut Coins, ct: &mut [u8], ss: &mut [u8; 32]) {
        let mut m = [0u8; 32];
        rand_core::Rng::fill_bytes(coins, &mut m);
        let (c, s) = pk.encapsulate_deterministic(&m);
        m.zeroize();
        ct.copy_from_slice(c.as_bytes());
        ss.copy_from_slice(s.as_bytes());
    }
    // FIPS 203 Algorithm 18 (Decaps_internal), implicit rejection.
    fn decapsulate(sk: &Self::SecretKey, ct: &[u8], ss: &mut [u8; 32]) {
        if let Ok(c) = ml_kem_768::Ciphertext::from_slice(ct) {
            ss.copy_from_slice(sk.decapsulate(&c).as_bytes());
        }
    }
    kem_only!();
}

/// KMc: Classic McEliece mceliece460896 static keys (0x0102; KMc-c 0x0112 with feature `kmc-c`).
#[cfg(feature = "mceliece")]
#[derive(Clone, Copy, Debug)]
pub struct KMc;
#[cfg(feature = "mceliece")]
impl sealed::Sealed for KMc {}
#[cfg(feature = "mceliece")]
impl Auth for KMc {
    const ALG: u16 = 0x0102;
    const MODE: Mode = Mode::Kem;
    const COMPACT: bool = cfg!(feature = "kmc-c");
    const CT_LEN: usize = pqdr_mceliece::mceliece460896::CIPHERTEXT_SIZE;
    const SIG_LEN: usize = 0;
    const VK_LEN: usize = 0;
    type VkBuf = [u8; 0];
    const VK_BUF: [u8; 0] = [];
    /// The prepared key (`DecapsulationKey::prepare`): a third less work per
    /// decapsulation, which is the responder's cost of every msg1.
    type SecretKey = pqdr_mceliece::mceliece460896::PreparedDecapsulationKey;
    type PublicKey = [u8; pqdr_mceliece::mceliece460896::ENCAPSULATION_KEY_SIZE];

    fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
        pk
    }
    // `Encap` (Classic McEliece spec §8.2), randomness from the hedged coins.
    fn encapsulate(pk: &Self::PublicKey, coins: &mut Coins, ct: &mut [u8], ss: &mut [u8; 32]) {
        let mut c = [0u8; pqdr_mceliece::mceliece460896::CIPHERTEXT_SIZE];
        let s = pqdr_mceliece::mceliece460896::encapsulate_into(pk, &mut c, coins);
        ct.copy_from_slice(&c);
        ss.copy_from_slice(s.as_bytes());
    }
    // `Decap` (Classic McEliece spec §8.3), implicit rejection. mceliece460896
    // ciphertexts (mt = 1248 bits) have no padding bits and the length is
    // fixed by the layout, so `decapsulate_bytes` cannot fail here.
    fn decapsulate(sk: &Self::SecretKey, ct: &[u8], ss: &mut [u8; 32]) {
        if let Ok(s) = sk.decapsulate_bytes(ct) {
            ss.copy_from_slice(s.as_bytes());
        }
    }
    kem_only!();
}

/// KNt: sntrup761 static keys (0x0103).
#[cfg(feature = "ntrup")]
#[derive(Clone, Copy, Debug)]
pub struct KNt;
#[cfg(feature = "ntrup")]
impl sealed::Sealed for KNt {}
#[cfg(feature = "ntrup")]
impl Auth for KNt {
    const ALG: u16 = 0x0103;
    const MODE: Mode = Mode::Kem;
    const COMPACT: bool = false;
    const CT_LEN: usize = pqdr_ntrup::sntrup761::CIPHERTEXT_SIZE;
    const SIG_LEN: usize = 0;
    const VK_LEN: usize = 0;
    type VkBuf = [u8; 0];
    const VK_BUF: [u8; 0] = [];
    type SecretKey = pqdr_ntrup::sntrup761::DecapsulationKey;
    type PublicKey = pqdr_ntrup::sntrup761::EncapsulationKey;

    fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
        pk.as_bytes()
    }
    // Streamlined NTRU Prime Encap (submission §1.10 / KEM), randomness from the coins.
    fn encapsulate(pk: &Self::PublicKey, coins: &mut Coins, ct: &mut [u8], ss: &mut [u8; 32]) {
        // One 4p-byte read of the coin stream: the same bytes, in the same
        // order, as p 4-byte draws (so the same ciphertext), in one XOF call.
        let (c, s) = pk.encapsulate_pqclean(coins);
        ct.copy_from_slice(c.as_bytes());
        ss.copy_from_slice(s.as_bytes());
    }
    // Streamlined NTRU Prime Decap, implicit rejection.
    fn decapsulate(sk: &Self::SecretKey, ct: &[u8], ss: &mut [u8; 32]) {
        if let Ok(c) = pqdr_ntrup::sntrup761::Ciphertext::from_slice(ct) {
            ss.copy_from_slice(sk.decapsulate(&c).as_bytes());
        }
    }
    kem_only!();
}

macro_rules! sig_suite {
    ($(#[$doc:meta])* $name:ident, $module:ident, $alg:expr) => {
        $(#[$doc])*
        #[cfg(feature = "mldsa")]
        #[derive(Clone, Copy, Debug)]
        pub struct $name;
        #[cfg(feature = "mldsa")]
        impl sealed::Sealed for $name {}
        #[cfg(feature = "mldsa")]
        impl Auth for $name {
            const ALG: u16 = $alg;
            const MODE: Mode = Mode::Sig;
            const COMPACT: bool = false;
            const CT_LEN: usize = 0;
            const SIG_LEN: usize = pqdr_mldsa::$module::SIGNATURE_SIZE;
            const VK_LEN: usize = pqdr_mldsa::$module::VERIFYING_KEY_SIZE;
            type VkBuf = [u8; pqdr_mldsa::$module::VERIFYING_KEY_SIZE];
            const VK_BUF: Self::VkBuf = [0; pqdr_mldsa::$module::VERIFYING_KEY_SIZE];
            type SecretKey = pqdr_mldsa::$module::SigningKey;
            type PublicKey = pqdr_mldsa::$module::VerifyingKey;

            fn public_bytes(pk: &Self::PublicKey) -> &[u8] {
                pk.as_bytes()
            }
            fn encapsulate(_: &Self::PublicKey, _: &mut Coins, _: &mut [u8], _: &mut [u8; 32]) {}
            fn decapsulate(_: &Self::SecretKey, _: &[u8], _: &mut [u8; 32]) {}
            // FIPS 204 Algorithm 2 (ML-DSA.Sign) with the hedged rnd.
            fn sign(sk: &Self::SecretKey, msg: &[&[u8]], ctx: &[u8], rnd: &[u8; 32], sig: &mut [u8]) {
                let mut buf = [0u8; 128];
                let m = join(msg, &mut buf);
                if let Ok(s) = sk.sign_with_rnd(m, ctx, rnd) {
                    sig.copy_from_slice(s.as_bytes());
                }
            }
            // FIPS 204 Algorithm 3 (ML-DSA.Verify).
            fn verify(vk: &[u8], msg: &[&[u8]], ctx: &[u8], sig: &[u8]) -> bool {
                let mut buf = [0u8; 128];
                let m = join(msg, &mut buf);
                match (
                    pqdr_mldsa::$module::VerifyingKey::from_slice(vk),
                    pqdr_mldsa::$module::Signature::from_slice(sig),
                ) {
                    (Ok(vk), Ok(sig)) => vk.verify(m, ctx, &sig).is_ok(),
                    _ => false,
                }
            }
            // FIPS 204 Algorithm 3 under the parsed key.
            fn verify_with(pk: &Self::PublicKey, msg: &[&[u8]], ctx: &[u8], sig: &[u8]) -> bool {
                let mut buf = [0u8; 128];
                let m = join(msg, &mut buf);
                pqdr_mldsa::$module::Signature::from_slice(sig).is_ok_and(|s| pk.verify(m, ctx, &s).is_ok())
            }
        }
    };
}

sig_suite!(
    /// S44: ML-DSA-44 identities (0x0201).
    S44, ml_dsa_44, 0x0201
);
sig_suite!(
    /// S65: ML-DSA-65 identities (0x0202), the default SIG suite.
    S65, ml_dsa_65, 0x0202
);
sig_suite!(
    /// S87: ML-DSA-87 identities (0x0203).
    S87, ml_dsa_87, 0x0203
);

/// The initiator's ephemeral ML-KEM key pair (FIPS 203 Algorithm 16 from hedged coins).
/// Kept inline (no heap): the state is fixed-size, sized by the larger key.
#[allow(clippy::large_enum_variant)]
pub(crate) enum EphKey {
    /// ML-KEM-768.
    K768(ml_kem_768::DecapsulationKey),
    /// ML-KEM-512 (KMc-c).
    K512(ml_kem_512::DecapsulationKey),
}

impl EphKey {
    pub(crate) fn generate(e: Ephemeral, seed: &[u8; 64]) -> Self {
        match e {
            Ephemeral::MlKem768 => EphKey::K768(ml_kem_768::DecapsulationKey::from_seed(seed)),
            Ephemeral::MlKem512 => EphKey::K512(ml_kem_512::DecapsulationKey::from_seed(seed)),
        }
    }
    pub(crate) fn ek(&self) -> &[u8] {
        match self {
            EphKey::K768(dk) => dk.encapsulation_key().as_bytes(),
            EphKey::K512(dk) => dk.encapsulation_key().as_bytes(),
        }
    }
    /// Decapsulates ct_E (FIPS 203 Algorithm 18, implicit rejection).
    pub(crate) fn decapsulate(&self, ct: &[u8], ss: &mut [u8; 32]) {
        match self {
            EphKey::K768(dk) => {
                if let Ok(c) = ml_kem_768::Ciphertext::from_slice(ct) {
                    ss.copy_from_slice(dk.decapsulate(&c).as_bytes());
                }
            }
            EphKey::K512(dk) => {
                if let Ok(c) = ml_kem_512::Ciphertext::from_slice(ct) {
                    ss.copy_from_slice(dk.decapsulate(&c).as_bytes());
                }
            }
        }
    }
}

/// Encapsulates to the peer's ephemeral key (FIPS 203 §7.2 check first).
pub(crate) fn eph_encapsulate(
    e: Ephemeral,
    ek: &[u8],
    m: &[u8; 32],
    ct: &mut [u8],
    ss: &mut [u8; 32],
) -> Result<(), Error> {
    match e {
        Ephemeral::MlKem768 => {
            let ek = ml_kem_768::EncapsulationKey::from_slice(ek)
                .map_err(|_| Error::InvalidEncapsulationKey)?;
            let (c, s) = ek.encapsulate_deterministic(m);
            ct.copy_from_slice(c.as_bytes());
            ss.copy_from_slice(s.as_bytes());
        }
        Ephemeral::MlKem512 => {
            let ek = ml_kem_512::EncapsulationKey::from_slice(ek)
                .map_err(|_| Error::InvalidEncapsulationKey)?;
            let (c, s) = ek.encapsulate_deterministic(m);
            ct.copy_from_slice(c.as_bytes());
            ss.copy_from_slice(s.as_bytes());
        }
    }
    Ok(())
}

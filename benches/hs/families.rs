//! The handshake bench's primitives per static-key family: ephemeral KEM
//! sizes, key generation, encapsulation and decapsulation, and the `Fam`
//! trait each suite's static algorithm implements (K768, KMc, KNt, S44/S65/S87).

use super::*;

// ------------------------------------------------------------ primitives

pub(crate) fn eph_sizes(e: Ephemeral) -> (usize, usize) {
    match e {
        Ephemeral::MlKem768 => (
            ml_kem_768::ENCAPSULATION_KEY_SIZE,
            ml_kem_768::CIPHERTEXT_SIZE,
        ),
        Ephemeral::MlKem512 => (
            ml_kem_512::ENCAPSULATION_KEY_SIZE,
            ml_kem_512::CIPHERTEXT_SIZE,
        ),
    }
}

/// The initiator's ephemeral ML-KEM key.
#[allow(
    clippy::large_enum_variant,
    reason = "as the crate's own: no allocation in the timed KGe"
)]
pub(crate) enum EphDk {
    K768(ml_kem_768::DecapsulationKey),
    K512(ml_kem_512::DecapsulationKey),
}

impl EphDk {
    /// KGe: ML-KEM KeyGen from the 64-byte seed (d ‖ z).
    pub(crate) fn keygen(e: Ephemeral, seed: &[u8; 64]) -> Self {
        match e {
            Ephemeral::MlKem768 => EphDk::K768(ml_kem_768::DecapsulationKey::from_seed(seed)),
            Ephemeral::MlKem512 => EphDk::K512(ml_kem_512::DecapsulationKey::from_seed(seed)),
        }
    }
    pub(crate) fn ek(&self) -> &[u8] {
        match self {
            EphDk::K768(d) => d.encapsulation_key().as_bytes(),
            EphDk::K512(d) => d.encapsulation_key().as_bytes(),
        }
    }
    /// De.
    pub(crate) fn decaps(&self, ct: &[u8]) -> [u8; 32] {
        match self {
            EphDk::K768(d) => *d
                .decapsulate(&ml_kem_768::Ciphertext::from_slice(ct).unwrap())
                .as_bytes(),
            EphDk::K512(d) => *d
                .decapsulate(&ml_kem_512::Ciphertext::from_slice(ct).unwrap())
                .as_bytes(),
        }
    }
}

/// Ee: the FIPS 203 §7.2 check of ek_E and deterministic encaps with `m`.
pub(crate) fn eph_encaps(e: Ephemeral, ek: &[u8], m: &[u8; 32], ct: &mut [u8]) -> [u8; 32] {
    match e {
        Ephemeral::MlKem768 => {
            let ek = ml_kem_768::EncapsulationKey::from_slice(ek).unwrap();
            let (c, s) = ek.encapsulate_deterministic(m);
            ct[..ml_kem_768::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
            *s.as_bytes()
        }
        Ephemeral::MlKem512 => {
            let ek = ml_kem_512::EncapsulationKey::from_slice(ek).unwrap();
            let (c, s) = ek.encapsulate_deterministic(m);
            ct[..ml_kem_512::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
            *s.as_bytes()
        }
    }
}

/// A static-key family: key pairs and its primitive operations, on the
/// primitive crates directly.
pub(crate) trait Fam: Auth {
    /// Name of the static algorithm (pieces table).
    const ALG_NAME: &'static str;
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>);
    /// Es: encapsulation to a static key, randomness from `rng`.
    fn s_encaps<R: rand_core::CryptoRng>(
        _pk: &Self::PublicKey,
        _rng: &mut R,
        _ct: &mut [u8],
    ) -> [u8; 32] {
        unreachable!()
    }
    /// Ds.
    fn s_decaps(_sk: &Self::SecretKey, _ct: &[u8]) -> [u8; 32] {
        unreachable!()
    }
    /// S: `sign_with_rnd`, the signature copied into `sig`.
    fn op_sign(_sk: &Self::SecretKey, _msg: &[u8], _ctx: &[u8], _rnd: &[u8; 32], _sig: &mut [u8]) {
        unreachable!()
    }
    /// V under the parsed verifying key.
    fn op_verify(_pk: &Self::PublicKey, _msg: &[u8], _ctx: &[u8], _sig: &[u8]) -> bool {
        unreachable!()
    }
}

impl Fam for K768 {
    const ALG_NAME: &'static str = "ML-KEM-768";
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        let (dk, ek) = ml_kem_768::generate_deterministic(&[seed; 32], &[seed ^ 0x55; 32]);
        (dk, Box::new(ek))
    }
    fn s_encaps<R: rand_core::CryptoRng>(
        pk: &Self::PublicKey,
        rng: &mut R,
        ct: &mut [u8],
    ) -> [u8; 32] {
        let mut m = [0u8; 32];
        rng.fill_bytes(&mut m);
        let (c, s) = pk.encapsulate_deterministic(&m);
        ct[..ml_kem_768::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
        *s.as_bytes()
    }
    fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
        *sk.decapsulate(&ml_kem_768::Ciphertext::from_slice(ct).unwrap())
            .as_bytes()
    }
}

pub(crate) use pqdr_mceliece::mceliece460896 as mc;

/// A key pair's encodings (secret key, public key).
pub(crate) type KeyBytes = (Box<[u8]>, Box<[u8]>);

/// The two McEliece key pairs (seeds 1 and 2), generated once.
pub(crate) static MC_KEYS: [OnceLock<KeyBytes>; 2] = [const { OnceLock::new() }; 2];

impl Fam for KMc {
    const ALG_NAME: &'static str = "mceliece460896";
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        let (sk, pk) = MC_KEYS[usize::from(seed - 1)].get_or_init(|| {
            let mut pk = vec![0u8; mc::ENCAPSULATION_KEY_SIZE].into_boxed_slice();
            let mut sk = vec![0u8; mc::DECAPSULATION_KEY_SIZE].into_boxed_slice();
            mc::generate_deterministic_into(
                (&mut *pk).try_into().unwrap(),
                (&mut *sk).try_into().unwrap(),
                &[seed; 32],
            );
            (sk, pk)
        });
        let dk = mc::DecapsulationKey::from_slice(sk).unwrap().prepare();
        (dk, pk.clone().try_into().unwrap())
    }
    fn s_encaps<R: rand_core::CryptoRng>(
        pk: &Self::PublicKey,
        rng: &mut R,
        ct: &mut [u8],
    ) -> [u8; 32] {
        let ct: &mut [u8; mc::CIPHERTEXT_SIZE] =
            (&mut ct[..mc::CIPHERTEXT_SIZE]).try_into().unwrap();
        *mc::encapsulate_into(pk, ct, rng).as_bytes()
    }
    fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
        *sk.decapsulate_bytes(ct).unwrap().as_bytes()
    }
}

pub(crate) use pqdr_ntrup::sntrup761 as nt;

impl Fam for KNt {
    const ALG_NAME: &'static str = "sntrup761";
    fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
        let (dk, ek) = nt::generate(&mut StdRng::seed_from_u64(u64::from(seed)));
        (dk, Box::new(ek))
    }
    fn s_encaps<R: rand_core::CryptoRng>(
        pk: &Self::PublicKey,
        rng: &mut R,
        ct: &mut [u8],
    ) -> [u8; 32] {
        // As the handshake: one 4p-byte read of the coin stream.
        let (c, s) = pk.encapsulate_pqclean(rng);
        ct[..nt::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
        *s.as_bytes()
    }
    fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
        *sk.decapsulate(&nt::Ciphertext::from_slice(ct).unwrap())
            .as_bytes()
    }
}

macro_rules! sig_family {
    ($t:ident, $m:ident, $name:literal) => {
        impl Fam for $t {
            const ALG_NAME: &'static str = $name;
            fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
                let (sk, vk) = pqdr_mldsa::$m::generate_deterministic(&[seed; 32]);
                (sk, Box::new(vk))
            }
            fn op_sign(
                sk: &Self::SecretKey,
                msg: &[u8],
                ctx: &[u8],
                rnd: &[u8; 32],
                sig: &mut [u8],
            ) {
                let s = sk.sign_with_rnd(msg, ctx, rnd).unwrap();
                sig[..pqdr_mldsa::$m::SIGNATURE_SIZE].copy_from_slice(s.as_bytes());
            }
            fn op_verify(pk: &Self::PublicKey, msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let s = pqdr_mldsa::$m::Signature::from_slice(sig).unwrap();
                pk.verify(msg, ctx, &s).is_ok()
            }
        }
    };
}
sig_family!(S44, ml_dsa_44, "ML-DSA-44");
sig_family!(S65, ml_dsa_65, "ML-DSA-65");
sig_family!(S87, ml_dsa_87, "ML-DSA-87");

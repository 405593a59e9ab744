//! docs/protocol/ratchet.md §1.2: the KEM behind the asymmetric ratchet, as a trait.
//!
//! The ratchet never assumes ML-KEM sizes: blobs (ek, ct) are byte slices of
//! lengths `EK_LEN` / `CT_LEN` ≤ [`MAX_BLOB_LEN`], the owner's private key is
//! kept only as its `SEED_LEN`-byte seed (≤ [`MAX_SEED_LEN`]), and encapsulation
//! is driven by an explicit `ENCAPS_SEED_LEN`-byte randomness (≤ [`MAX_SEED_LEN`]).

/// Largest ek or ct a ratchet KEM may have (rejects Classic McEliece, docs/protocol/ratchet.md §1.2).
pub const MAX_BLOB_LEN: usize = 4096;
/// Largest key-generation or encapsulation seed.
pub const MAX_SEED_LEN: usize = 64;

pub use crate::error::KemError;

/// A key-encapsulation mechanism usable for the ratchet.
///
/// Implementations are deterministic functions of their seeds; the ratchet
/// draws the seeds from the caller's RNG. All slices have exactly the
/// advertised lengths (the ratchet guarantees it).
pub trait RatchetKem {
    /// Wire identifier, bound into `root_0` and every KEM transcript.
    const ID: u16;
    /// Encapsulation-key length in bytes (≤ [`MAX_BLOB_LEN`]).
    const EK_LEN: usize;
    /// Ciphertext length in bytes (≤ [`MAX_BLOB_LEN`]).
    const CT_LEN: usize;
    /// Key-generation seed length (ML-KEM: 64 = d ‖ z).
    const SEED_LEN: usize;
    /// Encapsulation randomness length (ML-KEM: 32 = m).
    const ENCAPS_SEED_LEN: usize;

    /// Derives the key pair from `seed` and writes the encapsulation key to `ek`.
    fn generate_from_seed(seed: &[u8], ek: &mut [u8]);

    /// Encapsulates to `ek` with randomness `m`: writes `ct` and the 32-byte shared secret.
    ///
    /// # Errors
    /// [`KemError`] if `ek` is not a valid encapsulation key.
    fn encapsulate_deterministic(
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Result<(), KemError>;

    /// Decapsulates `ct` with the key pair derived from `seed`, writing the shared secret.
    fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]);
}

/// Compile-time check that `K` fits the ratchet's fixed-size buffers.
pub(crate) const fn check_sizes<K: RatchetKem>() {
    assert!(K::EK_LEN > 0 && K::EK_LEN <= MAX_BLOB_LEN);
    assert!(K::CT_LEN > 0 && K::CT_LEN <= MAX_BLOB_LEN);
    assert!(K::SEED_LEN > 0 && K::SEED_LEN <= MAX_SEED_LEN);
    assert!(K::ENCAPS_SEED_LEN > 0 && K::ENCAPS_SEED_LEN <= MAX_SEED_LEN);
}

/// ML-KEM adapters (FIPS 203 via `pqdr-mlkem`); IDs are the HPKE KEM identifiers.
#[cfg(feature = "mlkem")]
mod mlkem {
    use zeroize::Zeroize;

    use super::{KemError, RatchetKem};

    macro_rules! ml_kem_adapter {
        ($(#[$doc:meta])* $name:ident, $module:ident, $id:expr) => {
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct $name;

            impl RatchetKem for $name {
                const ID: u16 = $id;
                const EK_LEN: usize = pqdr_mlkem::$module::ENCAPSULATION_KEY_SIZE;
                const CT_LEN: usize = pqdr_mlkem::$module::CIPHERTEXT_SIZE;
                const SEED_LEN: usize = pqdr_mlkem::SEED_SIZE;
                const ENCAPS_SEED_LEN: usize = 32;

                // FIPS 203 Algorithm 16 (ML-KEM.KeyGen_internal) from the seed d ‖ z.
                fn generate_from_seed(seed: &[u8], ek: &mut [u8]) {
                    let mut s = [0u8; pqdr_mlkem::SEED_SIZE];
                    if seed.len() == s.len() && ek.len() == Self::EK_LEN {
                        s.copy_from_slice(seed);
                        let dk = pqdr_mlkem::$module::DecapsulationKey::from_seed(&s);
                        ek.copy_from_slice(&dk.encapsulation_key().as_bytes()[..]);
                    }
                    s.zeroize();
                }

                // FIPS 203 §7.2 input check, then Algorithm 17 (ML-KEM.Encaps_internal).
                fn encapsulate_deterministic(
                    ek: &[u8],
                    m: &[u8],
                    ct: &mut [u8],
                    ss: &mut [u8; 32],
                ) -> Result<(), KemError> {
                    let ek = pqdr_mlkem::$module::EncapsulationKey::from_slice(ek).map_err(|_| KemError)?;
                    let mut mm = [0u8; 32];
                    if m.len() != 32 || ct.len() != Self::CT_LEN {
                        return Err(KemError);
                    }
                    mm.copy_from_slice(m);
                    let (c, k) = ek.encapsulate_deterministic(&mm);
                    mm.zeroize();
                    ct.copy_from_slice(&c.as_bytes()[..]);
                    ss.copy_from_slice(k.as_bytes());
                    Ok(())
                }

                // FIPS 203 Algorithm 18 (ML-KEM.Decaps_internal), implicit rejection.
                fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
                    let mut s = [0u8; pqdr_mlkem::SEED_SIZE];
                    if seed.len() != s.len() {
                        return;
                    }
                    let Ok(c) = pqdr_mlkem::$module::Ciphertext::from_slice(ct) else { return };
                    s.copy_from_slice(seed);
                    let dk = pqdr_mlkem::$module::DecapsulationKey::from_seed(&s);
                    s.zeroize();
                    ss.copy_from_slice(dk.decapsulate(&c).as_bytes());
                }
            }
        };
    }

    ml_kem_adapter!(
        /// ML-KEM-512 (ek 800 B, ct 768 B).
        MlKem512, ml_kem_512, 0x0040
    );
    ml_kem_adapter!(
        /// ML-KEM-768, the default (ek 1184 B, ct 1088 B).
        MlKem768, ml_kem_768, 0x0041
    );
    ml_kem_adapter!(
        /// ML-KEM-1024 (ek 1568 B, ct 1568 B).
        MlKem1024, ml_kem_1024, 0x0042
    );
}

#[cfg(feature = "mlkem")]
pub use mlkem::{MlKem512, MlKem768, MlKem1024};

#[cfg(feature = "sntrup761")]
mod sntrup;
#[cfg(feature = "sntrup761")]
pub use sntrup::Sntrup761;

#[cfg(feature = "xwing")]
mod xwing;
#[cfg(feature = "xwing")]
pub use xwing::XWing;

//! RATCHET.md §1.2: the KEM behind the asymmetric ratchet, as a trait.
//!
//! The ratchet never assumes ML-KEM sizes: blobs (ek, ct) are byte slices of
//! lengths `EK_LEN` / `CT_LEN` ≤ [`MAX_BLOB_LEN`], the owner's private key is
//! kept only as its `SEED_LEN`-byte seed (≤ [`MAX_SEED_LEN`]), and encapsulation
//! is driven by an explicit `ENCAPS_SEED_LEN`-byte randomness (≤ [`MAX_SEED_LEN`]).

/// Largest ek or ct a ratchet KEM may have (rejects Classic McEliece, RATCHET.md §1.2).
pub const MAX_BLOB_LEN: usize = 4096;
/// Largest key-generation or encapsulation seed.
pub const MAX_SEED_LEN: usize = 64;

/// The encapsulation key was rejected (FIPS 203 §7.2 modulus check or similar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KemError;

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

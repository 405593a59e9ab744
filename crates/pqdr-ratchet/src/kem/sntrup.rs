//! sntrup761 adapter (feature `sntrup761`): Streamlined NTRU Prime through
//! `pqdr-ntrup`, the KEM OpenSSH uses (`sntrup761x25519-sha512`).
//!
//! NTRU Prime's key generation and encapsulation draw from an RNG, not from
//! fixed-size seeds, so the adapter expands its seeds into a deterministic
//! stream: BLAKE3 in XOF mode under a `derive_key` context per use
//! ([`seed_rng`], a `pqdr_common::xof::XofRng`). The owner keeps only the 32-byte seed and regenerates the
//! key pair to decapsulate (one key generation per decapsulation).

use pqdr_common::xof::XofRng;
use pqdr_ntrup::sntrup761;
use zeroize::Zeroize;

use super::{KemError, RatchetKem};

/// `derive_key` context of the key-generation stream.
const CTX_KEYGEN: &str = "pqdr-ratchet v1 2026-11-26 sntrup761 keygen";
/// `derive_key` context of the encapsulation stream.
const CTX_ENCAPS: &str = "pqdr-ratchet v1 2026-11-26 sntrup761 encaps";

/// sntrup761 (ek 1158 B, ct 1039 B). ID 0xFE61: sntrup761 has no HPKE KEM
/// identifier, so this is pqdr's own, outside the registered ML-KEM/X-Wing range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sntrup761;

/// A deterministic RNG: the BLAKE3 XOF of `derive_key(context, seed)`.
/// Wiped on drop.
fn seed_rng(context: &str, seed: &[u8]) -> XofRng<blake3::OutputReader> {
    let mut h = blake3::Hasher::new_derive_key(context);
    h.update(seed);
    let reader = h.finalize_xof();
    h.zeroize();
    XofRng::new(reader)
}

impl RatchetKem for Sntrup761 {
    const ID: u16 = 0xFE61;
    const EK_LEN: usize = sntrup761::ENCAPSULATION_KEY_SIZE;
    const CT_LEN: usize = sntrup761::CIPHERTEXT_SIZE;
    const SEED_LEN: usize = 32;
    const ENCAPS_SEED_LEN: usize = 32;

    // KEM_KeyGen (NTRU Prime spec §2.3) on the seed's stream.
    fn generate_from_seed(seed: &[u8], ek: &mut [u8]) {
        if seed.len() != Self::SEED_LEN || ek.len() != Self::EK_LEN {
            return;
        }
        let (_, pk) = sntrup761::generate(&mut seed_rng(CTX_KEYGEN, seed));
        ek.copy_from_slice(pk.as_bytes().as_ref());
    }

    // Encap (spec §2.3.7) on the stream of `m`; any ek of the right length decodes.
    fn encapsulate_deterministic(
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Result<(), KemError> {
        let ek = sntrup761::EncapsulationKey::from_slice(ek).map_err(|_| KemError)?;
        if m.len() != Self::ENCAPS_SEED_LEN || ct.len() != Self::CT_LEN {
            return Err(KemError);
        }
        let (c, k) = ek.encapsulate(&mut seed_rng(CTX_ENCAPS, m));
        ct.copy_from_slice(c.as_bytes().as_ref());
        ss.copy_from_slice(k.as_bytes());
        Ok(())
    }

    // Decap (spec §2.3.8) with the regenerated key; implicit rejection.
    fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
        if seed.len() != Self::SEED_LEN {
            return;
        }
        let Ok(c) = sntrup761::Ciphertext::from_slice(ct) else {
            return;
        };
        let (dk, _) = sntrup761::generate(&mut seed_rng(CTX_KEYGEN, seed));
        ss.copy_from_slice(dk.decapsulate(&c).as_bytes());
    }
}

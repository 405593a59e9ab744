//! X-Wing adapter (feature `xwing`, docs/protocol/ratchet.md §1.12 (a)): every epoch's
//! fresh secret is hybrid, X25519 and ML-KEM-768, through `pqdr-hybrid`
//! (draft-connolly-cfrg-xwing-kem). The owner keeps the 32-byte X-Wing seed,
//! which *is* the X-Wing decapsulation key; encapsulation takes the draft's
//! 64-byte `eseed` (`EncapsulateDerand`, §5.4.1).

use pqdr_hybrid::xwing;
use zeroize::Zeroizing;

use super::{KemError, RatchetKem};

/// X-Wing (ek 1216 B, ct 1120 B); ID = its HPKE KEM identifier 0x647A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct XWing;

impl RatchetKem for XWing {
    const ID: u16 = xwing::HPKE_KEM_ID;
    const EK_LEN: usize = xwing::ENCAPSULATION_KEY_SIZE;
    const CT_LEN: usize = xwing::CIPHERTEXT_SIZE;
    const SEED_LEN: usize = xwing::SEED_SIZE;
    const ENCAPS_SEED_LEN: usize = xwing::ENCAPSULATION_SEED_SIZE;

    // X-Wing GenerateKeyPairDerand(sk) (draft §5.2.1).
    fn generate_from_seed(seed: &[u8], ek: &mut [u8]) {
        if ek.len() != Self::EK_LEN {
            return;
        }
        if let Ok(dk) = xwing::DecapsulationKey::from_slice(seed) {
            ek.copy_from_slice(dk.encapsulation_key().as_bytes());
        }
    }

    // ML-KEM §7.2 check of pk_M on parsing, then EncapsulateDerand (draft §5.4.1).
    fn encapsulate_deterministic(
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Result<(), KemError> {
        let ek = xwing::EncapsulationKey::from_slice(ek).map_err(|_| KemError)?;
        let mut eseed = Zeroizing::new([0u8; xwing::ENCAPSULATION_SEED_SIZE]);
        if m.len() != eseed.len() || ct.len() != Self::CT_LEN {
            return Err(KemError);
        }
        eseed.copy_from_slice(m);
        let (c, k) = ek.encapsulate_deterministic(&eseed);
        ct.copy_from_slice(c.as_bytes());
        ss.copy_from_slice(k.as_bytes());
        Ok(())
    }

    // X-Wing Decapsulate (draft §5.5): never fails on a ciphertext of the right length.
    fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
        let (Ok(dk), Ok(c)) = (
            xwing::DecapsulationKey::from_slice(seed),
            xwing::Ciphertext::from_slice(ct),
        ) else {
            return;
        };
        ss.copy_from_slice(dk.decapsulate(&c).as_bytes());
    }
}

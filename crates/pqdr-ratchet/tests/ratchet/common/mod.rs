//! Shared test helpers: an insecure deterministic toy KEM with non-ML-KEM
//! sizes (so nothing assumes ML-KEM), a seeded RNG, and a two-party driver.
#![allow(dead_code, clippy::unwrap_used, missing_docs, unreachable_pub)]

use pqdr_ratchet::{Config, InitialSecret, Instant, KemError, RatchetKem, Role, Session};

/// INSECURE toy KEM: anyone holding ek can decapsulate. Tests only.
#[derive(Debug)]
pub struct ToyKem;

fn xof(label: &str, parts: &[&[u8]], out: &mut [u8]) {
    let mut h = blake3::Hasher::new_derive_key(label);
    for p in parts {
        h.update(p);
    }
    h.finalize_xof().fill(out);
}

impl RatchetKem for ToyKem {
    const ID: u16 = 0xff01;
    const EK_LEN: usize = 300;
    const CT_LEN: usize = 200;
    const SEED_LEN: usize = 32;
    const ENCAPS_SEED_LEN: usize = 32;

    fn generate_from_seed(seed: &[u8], ek: &mut [u8]) {
        let mut pk = [0u8; 32];
        xof("toy pk", &[seed], &mut pk);
        ek[..32].copy_from_slice(&pk);
        xof("toy ek filler", &[&pk], &mut ek[32..]);
    }

    fn encapsulate_deterministic(
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Result<(), KemError> {
        let mut filler = [0u8; 300 - 32];
        xof("toy ek filler", &[&ek[..32]], &mut filler);
        if filler[..] != ek[32..] {
            return Err(KemError);
        }
        let mut mask = [0u8; 32];
        xof("toy mask", &[&ek[..32]], &mut mask);
        for i in 0..32 {
            ct[i] = m[i] ^ mask[i];
        }
        let head: [u8; 32] = ct[..32].try_into().unwrap();
        xof("toy ct filler", &[&head], &mut ct[32..]);
        xof("toy ss", &[m, &ct[..]], ss);
        Ok(())
    }

    fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
        let mut pk = [0u8; 32];
        xof("toy pk", &[seed], &mut pk);
        let mut mask = [0u8; 32];
        xof("toy mask", &[&pk], &mut mask);
        let mut m = [0u8; 32];
        for i in 0..32 {
            m[i] = ct[i] ^ mask[i];
        }
        xof("toy ss", &[&m, ct], ss);
    }
}

/// Deterministic RNG for tests.
pub fn rng(seed: u8) -> pqdr_kat::Drbg {
    pqdr_kat::Drbg::new(&[seed; 48])
}

pub const SECRET: [u8; 32] = [0x11; 32];

pub fn init() -> InitialSecret<'static> {
    InitialSecret {
        secret: &SECRET,
        transcript: b"transcript",
        context: b"pqdr test",
    }
}

pub fn pair<K: RatchetKem, const WW: usize, const MS: usize>(
    cfg: &Config,
    now: Instant,
    r: &mut pqdr_kat::Drbg,
) -> (Session<K, WW, MS>, Session<K, WW, MS>) {
    let a = Session::new(cfg, Role::Initiator, init(), now, r).unwrap();
    let b = Session::new(cfg, Role::Responder, init(), now, r).unwrap();
    (a, b)
}

/// ToyKem whose key generation yields an invalid ek for even first seed bytes
/// (exercises RATCHET_ABORT and retry).
#[derive(Debug)]
pub struct FlakyKem;

impl RatchetKem for FlakyKem {
    const ID: u16 = 0xff02;
    const EK_LEN: usize = ToyKem::EK_LEN;
    const CT_LEN: usize = ToyKem::CT_LEN;
    const SEED_LEN: usize = ToyKem::SEED_LEN;
    const ENCAPS_SEED_LEN: usize = ToyKem::ENCAPS_SEED_LEN;

    fn generate_from_seed(seed: &[u8], ek: &mut [u8]) {
        ToyKem::generate_from_seed(seed, ek);
        if seed[0] & 1 == 0 {
            ek[40] ^= 1;
        }
    }

    fn encapsulate_deterministic(
        ek: &[u8],
        m: &[u8],
        ct: &mut [u8],
        ss: &mut [u8; 32],
    ) -> Result<(), KemError> {
        ToyKem::encapsulate_deterministic(ek, m, ct, ss)
    }

    fn decapsulate(seed: &[u8], ct: &[u8], ss: &mut [u8; 32]) {
        ToyKem::decapsulate(seed, ct, ss);
    }
}

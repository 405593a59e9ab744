//! The oracles of the `mceliece` fuzz target (`mceliece.rs`): the fuzz bytes
//! as the randomness source, the spec's sizes and format rules recomputed
//! from Classic McEliece spec §3, and the peer implementation (pq-mceliece)
//! per set.

use super::*;

// ---------------------------------------------------------------------------
// Randomness: the fuzz bytes, then a splitmix64 stream seeded from them (so
// `FixedWeight` always terminates). Cloned to give several implementations the
// same bytes.

#[derive(Clone)]
pub(crate) struct Tape<'a> {
    pub(crate) tape: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) state: u64,
}

impl<'a> Tape<'a> {
    pub(crate) fn new(tape: &'a [u8]) -> Self {
        // FNV-1a of the tape as the continuation's seed.
        let state = tape.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        Self {
            tape,
            pos: 0,
            state,
        }
    }
}

pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl rand_core::TryRng for Tape<'_> {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst {
            *b = match self.tape.get(self.pos) {
                Some(&x) => x,
                None => splitmix(&mut self.state) as u8,
            };
            self.pos += 1;
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for Tape<'_> {}

// ---------------------------------------------------------------------------
// The spec's sizes and format rules, recomputed here (Classic McEliece spec §3).

#[derive(Debug, PartialEq)]
pub(crate) struct Spec {
    pub(crate) m: usize,
    pub(crate) t: usize,
    pub(crate) semi: bool,
    pub(crate) row: usize,
    pub(crate) pk: usize,
    pub(crate) synd: usize,
    pub(crate) ct: usize,
    pub(crate) sk: usize,
    /// Bits used in the last byte of a public-key row (0: no padding).
    pub(crate) pk_bits: usize,
    /// Bits used in the last byte of C0 (0: no padding).
    pub(crate) ct_bits: usize,
}

pub(crate) fn spec<P: Set>() -> Spec {
    let (m, n, t) = (P::M, P::N, P::T);
    let mt = m * t;
    let row = (n - mt).div_ceil(8);
    let synd = mt.div_ceil(8);
    let s = Spec {
        m,
        t,
        semi: P::SEMI,
        row,
        pk: mt * row,
        synd,
        ct: synd + if P::PC { 32 } else { 0 },
        sk: 40 + 2 * t + (2 * m - 1) * (1 << (m - 4)) + n / 8,
        pk_bits: (n - mt) % 8,
        ct_bits: mt % 8,
    };
    // The module constants are the spec's sizes.
    assert_eq!((s.pk, s.sk, s.ct), (P::PK, P::SK, P::CT), "{}", P::NAME);
    s
}

impl Spec {
    /// §3.2: the padding bits of C0 are zero.
    pub(crate) fn ct_ok(&self, ct: &[u8]) -> bool {
        self.ct_bits == 0 || ct[self.synd - 1] >> self.ct_bits == 0
    }
    /// §3.1: the padding bits of every row of T are zero.
    pub(crate) fn pk_ok(&self, pk: &[u8]) -> bool {
        self.pk_bits == 0
            || pk
                .chunks_exact(self.row)
                .all(|r| r[self.row - 1] >> self.pk_bits == 0)
    }
    /// §3.3: c = 2^32 - 1 (systematic) or of weight 32 (semi-systematic), and
    /// the t Goppa coefficients are below 2^m.
    pub(crate) fn sk_ok(&self, sk: &[u8]) -> bool {
        let c = u64::from_le_bytes(sk[32..40].try_into().unwrap());
        let c_ok = if self.semi {
            c.count_ones() == 32
        } else {
            c == 0xFFFF_FFFF
        };
        c_ok && (0..self.t)
            .all(|i| u16::from_le_bytes([sk[40 + 2 * i], sk[41 + 2 * i]]) >> self.m == 0)
    }
    pub(crate) fn clear_pk_padding(&self, pk: &mut [u8]) {
        if self.pk_bits != 0 {
            for r in pk.chunks_exact_mut(self.row) {
                r[self.row - 1] &= (1 << self.pk_bits) - 1;
            }
        }
    }
    pub(crate) fn clear_ct_padding(&self, ct: &mut [u8]) {
        if self.ct_bits != 0 {
            ct[self.synd - 1] &= (1 << self.ct_bits) - 1;
        }
    }
}

// ---------------------------------------------------------------------------
// The peer, per set (absent for 348864pc / 348864pcf).

pub(crate) type PeerResult<T> = Result<T, pq_mceliece::Error>;

pub(crate) trait PeerOps {
    const PRESENT: bool;
    /// (pk, sk) from delta.
    fn keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>);
    /// (ct, ss).
    fn encaps(pk: &[u8], rng: Tape<'_>) -> PeerResult<(Vec<u8>, Vec<u8>)>;
    fn decaps(sk: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>>;
    /// Whether its `from_slice` accepts these lengths (pk, sk, ct).
    fn lengths_ok(pk: usize, sk: usize, ct: usize) -> (bool, bool, bool);
    fn pk_padding_ok(pk: &[u8]) -> bool;
    fn ct_padding_ok(ct: &[u8]) -> bool;
}

pub(crate) struct NoPeer;
impl PeerOps for NoPeer {
    const PRESENT: bool = false;
    fn keygen(_: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
        unreachable!()
    }
    fn encaps(_: &[u8], _: Tape<'_>) -> PeerResult<(Vec<u8>, Vec<u8>)> {
        unreachable!()
    }
    fn decaps(_: &[u8], _: &[u8]) -> PeerResult<Vec<u8>> {
        unreachable!()
    }
    fn lengths_ok(_: usize, _: usize, _: usize) -> (bool, bool, bool) {
        unreachable!()
    }
    fn pk_padding_ok(_: &[u8]) -> bool {
        unreachable!()
    }
    fn ct_padding_ok(_: &[u8]) -> bool {
        unreachable!()
    }
}

pub(crate) struct Peer<Q>(pub(crate) PhantomData<Q>);
impl<Q: peer::Params> PeerOps for Peer<Q> {
    const PRESENT: bool = true;
    fn keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
        let (ek, dk) = <Q as peer::Kem>::generate_keypair_from_seed(seed).unwrap();
        (ek.as_ref().to_vec(), dk.as_ref().to_vec())
    }
    fn encaps(pk: &[u8], mut rng: Tape<'_>) -> PeerResult<(Vec<u8>, Vec<u8>)> {
        let ek = peer::EncapsulationKey::<Q>::from_slice(pk)?;
        let (ct, ss) = <Q as peer::Kem>::encapsulate(&ek, &mut rng)?;
        Ok((ct.as_ref().to_vec(), ss.as_ref().to_vec()))
    }
    fn decaps(sk: &[u8], ct: &[u8]) -> PeerResult<Vec<u8>> {
        let dk = peer::DecapsulationKey::<Q>::from_slice(sk)?;
        let ct = peer::Ciphertext::<Q>::from_slice(ct)?;
        Ok(<Q as peer::Kem>::decapsulate(&dk, &ct)?.as_ref().to_vec())
    }
    fn lengths_ok(pk: usize, sk: usize, ct: usize) -> (bool, bool, bool) {
        (
            pk == peer::EncapsulationKey::<Q>::LENGTH,
            sk == peer::DecapsulationKey::<Q>::LENGTH,
            ct == peer::Ciphertext::<Q>::LENGTH,
        )
    }
    fn pk_padding_ok(pk: &[u8]) -> bool {
        peer::EncapsulationKey::<Q>::from_slice(pk)
            .unwrap()
            .padding_is_zero()
    }
    fn ct_padding_ok(ct: &[u8]) -> bool {
        peer::Ciphertext::<Q>::from_slice(ct)
            .unwrap()
            .padding_is_zero()
    }
}

//! The hybrids MLKEM768-P256 and MLKEM1024-P384 (draft-ietf-hpke-pq §4):
//! the 32-byte seed expanded with SHAKE256 into the ML-KEM seed and the
//! curve scalar (rejection sampled), and the combiner
//! `SHA3-256(ss_PQ ‖ ss_T ‖ ct_T ‖ ek_T ‖ label)`. MLKEM768-X25519 is
//! X-Wing, from `pqdr-hybrid`.

use sha3::{Digest, Sha3_256};
use shake::{ExtendableOutput, Shake256, Update, XofReader};
use zeroize::Zeroizing;

use super::{SharedSecret, Sk};
use crate::error::Error;
use crate::suite::Kem;
use pqdr_hybrid::ecdh::{p256 as c256, p384 as c384};
use pqdr_mlkem::{ml_kem_768, ml_kem_1024};

/// The hybrids' combiner labels (draft-ietf-hpke-pq §4).
const LABEL_P256: &[u8] = b"MLKEM768-P256";
const LABEL_P384: &[u8] = b"MLKEM1024-P384";

/// The most curve-scalar candidates drawn before giving up (each is
/// rejected with probability below 2⁻³², so 256 rejections never happen).
const MAX_CANDIDATES: usize = 256;

/// `SHA3-256(ss_PQ ‖ ss_T ‖ ct_T ‖ ek_T ‖ label)` (draft-ietf-hpke-pq §4).
fn combiner(ss_pq: &[u8], ss_t: &[u8], ct_t: &[u8], ek_t: &[u8], label: &[u8]) -> SharedSecret {
    let mut h = Sha3_256::new();
    for part in [ss_pq, ss_t, ct_t, ek_t, label] {
        Digest::update(&mut h, part);
    }
    let mut out = Zeroizing::new([0u8; 32]);
    h.finalize_into((&mut *out).into());
    out
}

/// Parses the P-256 part of a public key or `enc`.
pub(super) fn parse_p256(t: &[u8]) -> Result<c256::PublicPoint, Error> {
    let arr: &[u8; c256::POINT_SIZE] = t.try_into().map_err(|_| Error::InvalidPublicKey)?;
    c256::PublicPoint::from_sec1(arr).map_err(|_| Error::InvalidPublicKey)
}

/// Parses the P-384 part of a public key or `enc`.
pub(super) fn parse_p384(t: &[u8]) -> Result<c384::PublicPoint, Error> {
    let arr: &[u8; c384::POINT_SIZE] = t.try_into().map_err(|_| Error::InvalidPublicKey)?;
    c384::PublicPoint::from_sec1(arr).map_err(|_| Error::InvalidPublicKey)
}

/// `expandDecapsulationKey(seed)` (draft-ietf-hpke-pq §4): SHAKE256(seed)
/// gives the 64-byte ML-KEM seed, then curve-scalar candidates until one is
/// in `[1, n − 1]`. Writes the public key `ek_PQ ‖ ek_T` into `pk`.
pub(super) fn expand(kem: Kem, seed: &[u8], pk: &mut [u8]) -> Result<(Sk, usize), Error> {
    let mut xof = Shake256::default();
    xof.update(seed);
    let mut r = xof.finalize_xof();
    let mut pq_seed = Zeroizing::new([0u8; 64]);
    r.read(&mut pq_seed[..]);
    macro_rules! hybrid {
        ($pq:ident, $c:ident, $variant:ident) => {{
            let dk = $pq::DecapsulationKey::from_seed(&pq_seed);
            let mut cand = Zeroizing::new([0u8; $c::SECRET_SIZE]);
            let mut found = None;
            for _ in 0..MAX_CANDIDATES {
                r.read(&mut cand[..]);
                if let Some(s) = $c::SecretScalar::from_be_bytes(&cand) {
                    found = Some(s);
                    break;
                }
            }
            let s = found.ok_or(Error::InvalidPrivateKey)?;
            let ek = dk.encapsulation_key().as_bytes();
            pk[..ek.len()].copy_from_slice(ek);
            pk[ek.len()..ek.len() + $c::POINT_SIZE].copy_from_slice(&s.public());
            let n = ek.len() + $c::POINT_SIZE;
            (Sk::$variant(dk, s), n)
        }};
    }
    Ok(match kem {
        Kem::MlKem768P256 => hybrid!(ml_kem_768, c256, P256),
        _ => hybrid!(ml_kem_1024, c384, P384),
    })
}

macro_rules! encap_decap {
    ($encap:ident, $decap:ident, $pq:ident, $c:ident, $label:ident) => {
        /// `Encap` (draft-ietf-hpke-pq §4) with `m` and the ephemeral scalar
        /// candidate `t_seed` given; `Ok(None)` if the candidate is out of
        /// range. Writes `enc = ct_PQ ‖ ct_T` into `enc`.
        pub(super) fn $encap(
            ek: &$pq::EncapsulationKey,
            t: &$c::PublicPoint,
            t_bytes: &[u8],
            m: &[u8; 32],
            t_seed: &[u8],
            enc: &mut [u8],
        ) -> Result<Option<SharedSecret>, Error> {
            let mut cand = Zeroizing::new([0u8; $c::SECRET_SIZE]);
            cand.copy_from_slice(t_seed);
            let Some(e) = $c::SecretScalar::from_be_bytes(&cand) else {
                return Ok(None);
            };
            let ct_t = e.public();
            let ss_t = e.dh(t).map_err(|_| Error::Encap)?;
            let (ct_pq, ss_pq) = ek.encapsulate_deterministic(m);
            let n = ct_pq.as_bytes().len();
            enc[..n].copy_from_slice(ct_pq.as_bytes());
            enc[n..n + $c::POINT_SIZE].copy_from_slice(&ct_t);
            Ok(Some(combiner(
                ss_pq.as_bytes(),
                &ss_t[..],
                &ct_t,
                t_bytes,
                $label,
            )))
        }

        /// `Decap` (draft-ietf-hpke-pq §4): `enc = ct_PQ ‖ ct_T`.
        ///
        /// # Errors
        /// [`Error::Decap`] if `ct_T` is not a valid uncompressed point.
        pub(super) fn $decap(
            dk: &$pq::DecapsulationKey,
            s: &$c::SecretScalar,
            t_bytes: &[u8],
            enc: &[u8],
        ) -> Result<SharedSecret, Error> {
            let (ct_pq, ct_t) = enc.split_at($pq::CIPHERTEXT_SIZE);
            let ct = $pq::Ciphertext::from_slice(ct_pq).map_err(|_| Error::Decap)?;
            let ss_pq = dk.decapsulate(&ct);
            let arr: &[u8; $c::POINT_SIZE] = ct_t.try_into().map_err(|_| Error::Decap)?;
            let q = $c::PublicPoint::from_sec1(arr).map_err(|_| Error::Decap)?;
            let ss_t = s.dh(&q).map_err(|_| Error::Decap)?;
            Ok(combiner(ss_pq.as_bytes(), &ss_t[..], ct_t, t_bytes, $label))
        }
    };
}

encap_decap!(encap_p256, decap_p256, ml_kem_768, c256, LABEL_P256);
encap_decap!(encap_p384, decap_p384, ml_kem_1024, c384, LABEL_P384);

//! μ = H(tr‖M′, 64) (FIPS 204 Algorithm 7, line 6 and Algorithm 8, line 7)
//! for the three ways of forming M′: pure ML-DSA (Algorithms 2 and 3), the
//! internal interface (M′ given) and HashML-DSA (Algorithms 4 and 5).

use crate::error::{Error, Object, check_length};
use crate::params::ParameterSet;
use crate::prehash::PreHash;
use pqdr_keccak::Shake256;

/// A compile-time refusal of the FIPS 204 message formats (context,
/// HashML-DSA) on a legacy round-3.1 Dilithium set, whose μ is H(tr‖M):
/// `pqdr_mldsa::dilithium_r3` signs and verifies those. Called before
/// [`pure_mu`], [`pure_prefix`] and [`prehash_mu`] by the generic callers; it
/// generates no code.
#[inline(always)]
pub(crate) fn not_round3<P: ParameterSet>() {
    const {
        assert!(
            !P::ROUND3,
            "round-3.1 Dilithium has no context or pre-hash: use pqdr_mldsa::dilithium_r3"
        );
    }
}

/// Checks the context length (FIPS 204 Algorithms 2–5: at most 255 bytes).
fn ctx_len(ctx: &[u8]) -> Result<u8, Error> {
    u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)
}

/// A SHAKE256 state that has absorbed tr‖0‖|ctx|‖ctx (pure ML-DSA, FIPS 204
/// Algorithms 2 and 3: M′ = 0‖|ctx|‖ctx‖M).
#[inline]
pub(crate) fn pure_prefix(tr: &[u8; 64], ctx: &[u8]) -> Result<Shake256, Error> {
    let n = ctx_len(ctx)?;
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(tr);
    x.absorb(&[0, n]);
    x.absorb(ctx);
    Ok(x)
}

/// μ for HashML-DSA (FIPS 204 Algorithms 4 and 5):
/// M′ = 1‖|ctx|‖ctx‖OID‖PH(M).
pub(crate) fn prehash_mu(
    tr: &[u8; 64],
    ph: PreHash,
    digest: &[u8],
    ctx: &[u8],
) -> Result<[u8; 64], Error> {
    let n = ctx_len(ctx)?;
    check_length(Object::Digest, ph.digest_size(), digest.len())?;
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(tr);
    x.absorb(&[1, n]);
    x.absorb(ctx);
    x.absorb(&ph.oid());
    x.absorb(digest);
    Ok(finish_mu(x))
}

/// μ for pure ML-DSA (FIPS 204 Algorithms 2 and 3): M′ = 0‖|ctx|‖ctx‖msg.
#[inline]
pub(crate) fn pure_mu(tr: &[u8; 64], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
    let mut x = pure_prefix(tr, ctx)?;
    x.absorb(msg);
    Ok(finish_mu(x))
}

/// μ = H(tr‖M′, 64) for the internal interface (M′ given).
pub(crate) fn internal_mu(tr: &[u8; 64], m_prime: &[u8]) -> [u8; 64] {
    let mut x = Shake256::with_bmi(crate::arch::keccak_bmi());
    x.absorb(tr);
    x.absorb(m_prime);
    finish_mu(x)
}

/// Squeezes the 64 bytes of μ.
#[inline]
pub(crate) fn finish_mu(mut x: Shake256) -> [u8; 64] {
    let mut mu = [0u8; 64];
    x.squeeze(&mut mu);
    mu
}

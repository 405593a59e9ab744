//! Test-only introspection (feature `test-utils`): the key-schedule trace
//! and the hedged-coin derivation, for the vectors. Never in production.

/// One key-schedule operation and its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOp {
    /// `ck0`, `th0`, `mixhash`, `mix` or `key`.
    pub op: &'static str,
    /// The 1-byte label of `mix` / `key`.
    pub label: Option<u8>,
    /// The new ck (mix), th (mixhash) or key.
    pub out: [u8; 32],
}

/// `DKx(C_COINS, σ ‖ r ‖ label, n)` (SPEC.md "Hedged coins").
pub fn coins(sigma: &[u8; 32], r: &[u8; 32], label: u8, out: &mut [u8]) {
    let mut h = crate::kdf::C_COINS.hasher();
    h.update(sigma);
    h.update(r);
    h.update(&[label]);
    h.finalize_xof().fill(out);
}

/// The key id function (SPEC.md "Key ids").
pub use crate::ids::key_id;

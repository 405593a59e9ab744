//! Test-only introspection (feature `test-utils`): the key-schedule trace
//! and the hedged-coin derivation, for the vectors. Never in production.

pub use crate::kdf::TraceOp;

/// `DKx(C_COINS, σ ‖ r ‖ label, n)` (docs/protocol/handshake.md §4.7).
pub fn coins(sigma: &[u8; 32], r: &[u8; 32], label: u8, out: &mut [u8]) {
    let mut h = crate::kdf::C_COINS.hasher();
    h.update(sigma);
    h.update(r);
    h.update(&[label]);
    h.finalize_xof().fill(out);
}

/// The key id function (docs/protocol/handshake.md §4.2).
pub use crate::ids::key_id;

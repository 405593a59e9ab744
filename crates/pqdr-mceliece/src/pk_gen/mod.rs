//! Public-key generation: the systematic form [I_mt | T] of the parity-check
//! matrix (Classic McEliece spec §2.4.3, "MatGen"), and the semi-systematic
//! form with (mu, nu) = (32, 64) of the `f` sets (Classic McEliece spec §2.4.3 / §7).
//!
//! Memory: no mt x n matrix is built. The caller's public-key buffer holds,
//! in its last bytes, H_left (the first mt columns of H, plus the 32 window
//! columns for the `f` sets) and the record of the elimination's row
//! operations. Gauss–Jordan elimination reduces H_left, the record replayed
//! on the identity gives A = H_left^-1; then T = A H_right is produced in
//! blocks of 64 rows from the front of the buffer, regenerating 64 columns of
//! H_right at a time (bitsliced), so the output never overtakes the rows
//! still to be read.
//!
//! One file per job:
//!
//! | file | job | spec |
//! |---|---|---|
//! | `matrix.rs` | columns of H, bitsliced (H_left here, H_right for T) | §2.4.3 (MatGen, H) |
//! | `eliminate.rs` | blocked Gauss–Jordan on H_left, its record and the replay giving A | §2.4.3 (systematic form) |
//! | `rows.rs` | the wide row kernels of one elimination block, the pivot-row masks of the rows | §2.4.3 |
//! | `semi.rs` | the semi-systematic column moves of the `f` sets | §2.4.3, (mu, nu) = (32, 64) |
//! | `t_stage.rs` | T = A H_right, row block by row block | §2.4.3 (T) |
//! | `layout.rs` | where H_left, A and the record live in the key buffer | — |
//! | `avx2_tests.rs` | differential tests of the AVX2 kernels (`arch::fold_pivot_rows`, `arch::recv_masks`, `arch::window_fix`, `arch::window_clear`, `arch::t_row`, `arch::genpoly_gen`) against `rows.rs` / `eliminate.rs` / `t_stage.rs` / `sk_gen.rs` | — |
// ref: pk_gen.c

#[cfg(all(
    test,
    feature = "simd",
    target_arch = "x86_64",
    feature = "mceliece348864",
    feature = "mceliece460896"
))]
mod avx2_tests;
mod eliminate;
mod layout;
mod matrix;
mod rows;
mod semi;
mod t_stage;

use crate::gf;
// The row count the elimination's fixed buffers are sized for.
use crate::params::MAX_MT;
use crate::params::{Derived, ParameterSet};
use layout::Layout;

/// Builds the public key into `pk` from the Goppa polynomial `g` (t low
/// coefficients) and the permutation `pi` (length 2^m; the `f` sets may
/// change it): MatGen (Classic McEliece spec §2.4.3). `support` is scratch
/// of length n. Returns the pivot word c (0xFFFFFFFF for the systematic
/// sets), or `None` if this key is rejected.
///
/// Memory: no mt x n matrix is built, nor [H_left | I]: H_left and the
/// record of the elimination live in the caller's public-key buffer, then A
/// in place of H_left, then T overwrites all of it.
pub(crate) fn pk_gen<P: ParameterSet>(
    pk: &mut [u8],
    g: &[u16],
    pi: &mut [u16],
    support: &mut [u16],
) -> Option<u64> {
    let (mt, n) = (P::MT, P::N);
    // Checked at compile time for every set: the record and H_left fit
    // the key buffer (64–94 % of it), the rows fit the pivot buffers.
    let lay = const {
        let lay = Layout::of(P::MT, P::SEMI);
        assert!(lay.fits(P::PK_BYTES));
        lay
    };
    debug_assert_eq!(pk.len(), P::PK_BYTES);

    for (l, &p) in support.iter_mut().zip(pi.iter()).take(n) {
        *l = gf::bitrev::<P>(p);
    }

    let split = pk.len() - lay.tail;
    let (head, tail) = pk.split_at_mut(split);
    let record = &mut head[split - lay.record..];
    let left = &mut tail[lay.tail - mt * lay.left_stride..];
    left.fill(0);
    matrix::write_h_left::<P>(left, lay.left_stride, lay.left_words, g, support);

    let pivots = eliminate::eliminate::<P>(left, lay.left_stride, record, pi, support)?;
    let a = &mut tail[lay.tail - mt * lay.a_stride..];
    eliminate::replay::<P>(a, lay.a_stride, record);

    t_stage::t_from_a::<P>(pk, lay.a_stride, g, support);
    Some(pivots)
}

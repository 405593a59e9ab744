//! KAT registry entries for pqdr-mldsa (filled in with the crate).

use super::SignAlg;

pub(super) static ALGORITHMS: &[SignAlg] = &[];

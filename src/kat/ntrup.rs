//! KAT registry entries for pqdr-ntrup (filled in with the crate).

use super::KemAlg;

pub(super) static ALGORITHMS: &[KemAlg] = &[];

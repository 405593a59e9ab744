//! KAT registry entries for pqdr-mceliece (filled in with the crate).

use super::KemAlg;

pub(super) static ALGORITHMS: &[KemAlg] = &[];

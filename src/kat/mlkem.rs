//! KAT registry entries for pqdr-mlkem (filled in with the crate).

use super::KemAlg;

pub(super) static ALGORITHMS: &[KemAlg] = &[];

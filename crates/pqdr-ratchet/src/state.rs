//! RATCHET.md §1.11: versioned state export/import.

/// Current state format version.
pub const STATE_FORMAT_VERSION: u16 = 1;

/// Upper bound on an exported state.
pub const fn max_state_len(ww: usize, ms: usize) -> usize {
    1024 + 3 * (200 + 8 * ww + 36 * ms) + 2 * crate::kem::MAX_BLOB_LEN
}

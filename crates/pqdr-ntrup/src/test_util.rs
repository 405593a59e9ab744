//! Helpers shared by the unit tests (`#[cfg(test)]` only).

/// A 64-bit linear congruential generator (Knuth's MMIX constants): a
/// repeatable stream of public test values, its high 31 bits per step.
pub(crate) fn lcg(s: &mut u64) -> u32 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*s >> 33) as u32
}

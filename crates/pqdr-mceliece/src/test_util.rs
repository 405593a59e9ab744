//! Helpers shared by the unit tests (`#[cfg(test)]` only).

/// Marsaglia's xorshift64 (shifts 13, 7, 17): the next state, a repeatable
/// stream of public test values from a nonzero seed.
pub(crate) fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

//! Negative control for the constant-time harness: this test branches on a
//! classified byte, so memcheck must report it. `scripts/ct-check.sh` runs it
//! under valgrind with `--ignored` and fails unless valgrind flags it.

#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_branch_is_detected() {
    let mut secret = [1u8; 4];
    pqdr_ctgrind::classify(&mut secret);
    if std::hint::black_box(secret)[0] == 1 {
        std::hint::black_box(1);
    }
}

#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_index_is_detected() {
    let table: [u8; 256] = std::hint::black_box(core::array::from_fn(|i| i as u8));
    let mut secret = [7u8; 1];
    pqdr_ctgrind::classify(&mut secret);
    std::hint::black_box(table[usize::from(std::hint::black_box(secret)[0])]);
}

/// Negative control for the division scan of `scripts/ct-check.sh`: one
/// hardware division (`div`) and one compiler-builtin 128-bit remainder
/// (`__umodti3`). The scan must find both in this file, or it is blind.
#[inline(never)]
#[allow(
    clippy::integer_division_remainder_used,
    reason = "the division scan must find these"
)]
fn divide(a: u64, b: u64, c: u128, d: u128) -> (u64, u128) {
    (a / b, c % d)
}

#[test]
fn division_canary_divides() {
    let (q, r) = divide(
        std::hint::black_box(100),
        std::hint::black_box(7),
        std::hint::black_box(1 << 100),
        std::hint::black_box(1000),
    );
    // 2^100 = 1267650600228229401496703205376.
    assert_eq!((q, r), (14, 376));
}

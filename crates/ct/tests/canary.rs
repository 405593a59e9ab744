//! Negative control for the constant-time harness: this test branches on a
//! classified byte, so memcheck must report it. `scripts/ct-check.sh` runs it
//! under valgrind with `--ignored` and fails unless valgrind flags it.

#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_branch_is_detected() {
    let mut secret = [1u8; 4];
    pqdr_ct::classify(&mut secret);
    if std::hint::black_box(secret)[0] == 1 {
        std::hint::black_box(1);
    }
}

#[test]
#[ignore = "negative control; expected to fail under valgrind"]
fn canary_index_is_detected() {
    let table: [u8; 256] = std::hint::black_box(core::array::from_fn(|i| i as u8));
    let mut secret = [7u8; 1];
    pqdr_ct::classify(&mut secret);
    std::hint::black_box(table[usize::from(std::hint::black_box(secret)[0])]);
}

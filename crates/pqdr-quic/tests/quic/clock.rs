//! The packet path's cached millisecond clock (`keys::Clock`) gives the same
//! value as computing the milliseconds since the connection's start at every
//! read: across millisecond boundaries, at them exactly, after long gaps and
//! for repeated instants.

#[test]
fn cached_clock_is_exact() {
    // Dense reads around boundaries (every 250 µs, and the instants just
    // before, at and after each of the first 20 boundaries), then gaps.
    let mut offsets: Vec<u64> = (0..200).map(|i| i * 250).collect();
    for ms in 50..70u64 {
        offsets.extend([ms * 1000 - 1, ms * 1000, ms * 1000, ms * 1000 + 1]);
    }
    let mut t = 70_000u64;
    for gap in [1u64, 999, 1, 1000, 5_000_000, 3, 997, 1_000_001, 0, 2] {
        t += gap;
        offsets.push(t);
    }
    offsets.sort_unstable();
    let trace = pqdr_quic::clock_trace(&offsets);
    assert_eq!(trace.len(), offsets.len());
    for (&us, &(cached, exact)) in offsets.iter().zip(&trace) {
        assert_eq!(exact, us / 1000, "direct value at {us} µs");
        assert_eq!(cached, exact, "cached clock at {us} µs");
    }
}

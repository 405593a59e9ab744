//! The painting method sees a frame of known size.

#[inline(never)]
fn use_stack<const N: usize>() {
    let mut buf = [0u8; N];
    for (i, b) in buf.iter_mut().enumerate() {
        *b = i as u8 | 1;
    }
    std::hint::black_box(&mut buf);
}

#[test]
fn painting_measures_a_known_frame() {
    let (small, big) = std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(|| {
            (
                pqdr_ctgrind::stack::peak(1 << 20, || {}),
                pqdr_ctgrind::stack::peak(1 << 20, use_stack::<40_000>),
            )
        })
        .expect("spawn")
        .join()
        .expect("join");
    assert!(small <= 2048, "no-op measured {small}");
    assert!(
        (40_000..48_000).contains(&big),
        "40 kB frame measured {big}"
    );
}

/// A depth far beyond the thread's stack is clamped to the stack: painting
/// 64 MiB below the frame of a thread with a 512 KiB stack ran through the
/// guard page (SIGSEGV) before `peak` read the thread's stack bounds.
#[test]
fn depth_beyond_the_thread_stack_is_clamped() {
    let used = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(|| pqdr_ctgrind::stack::peak(64 << 20, use_stack::<40_000>))
        .expect("spawn")
        .join()
        .expect("join");
    assert!(
        (40_000..48_000).contains(&used),
        "40 kB frame measured {used} with a clamped depth"
    );
}

/// The same on the thread libtest gives the test (2 MiB unless
/// `RUST_MIN_STACK` says otherwise, or the main thread): a 1 GiB request
/// paints only what the thread's stack holds and still sees the frame.
#[test]
fn depth_beyond_the_test_thread_stack_is_clamped() {
    let used = pqdr_ctgrind::stack::peak(1 << 30, use_stack::<40_000>);
    assert!((40_000..48_000).contains(&used), "measured {used}");
}

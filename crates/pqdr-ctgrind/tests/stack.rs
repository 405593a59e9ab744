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

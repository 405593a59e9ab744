//! The samplers against their references: the AVX2 kernels against their
//! portable twins, the 4-way row samplers against `SampleNTT` one entry at
//! a time (random and edge inputs).
use super::*;
extern crate std;

/// The block of 112 candidates `d` (each < 2^12) as `ByteEncode_12` bytes.
fn block_of(d: &[i16; 112]) -> [u8; REJ_BLOCK] {
    let mut b = [0u8; REJ_BLOCK];
    for (o, p) in b
        .as_chunks_mut::<3>()
        .0
        .iter_mut()
        .zip(d.as_chunks::<2>().0)
    {
        let (x, y) = (p[0] as u16, p[1] as u16);
        *o = [x as u8, ((x >> 8) | (y << 4)) as u8, (y >> 4) as u8];
    }
    b
}

/// The AVX2 rejection step (when detected) against its portable twin:
/// random blocks, and blocks of edge candidates (q − 1, q, 0, 4095, all
/// accepted, none accepted, alternating), for every carried count
/// 0..=15 (with distinct carried values, which must be kept).
#[test]
fn rej_uniform_matches_portable() {
    let Some(token) = crate::arch::avx2() else {
        std::eprintln!("no AVX2 on this CPU: differential test skipped");
        return;
    };
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut blocks = std::vec::Vec::new();
    for v in [
        [0i16; 2],
        [4095; 2],
        [3328; 2],
        [3329; 2],
        [3328, 3329],
        [3329, 3328],
        [0, 4095],
    ] {
        blocks.push(block_of(&core::array::from_fn(|i| v[i & 1])));
    }
    for _ in 0..2000 {
        let mut b = [0u8; REJ_BLOCK];
        for x in &mut b[..RATE_128] {
            *x = next() as u8;
        }
        blocks.push(b);
        // Candidates near q.
        blocks.push(block_of(&core::array::from_fn(|_| {
            3320 + (next() % 16) as i16
        })));
    }
    for (k, b) in blocks.iter().enumerate() {
        for n0 in 0..=15 {
            let mut got = [-1i16; REJ_OUT];
            let mut want = [-1i16; REJ_OUT];
            for j in 0..n0 {
                got[j] = 5000 + j as i16;
                want[j] = 5000 + j as i16;
            }
            let n = crate::arch::rej_uniform(token, b, &mut got, n0);
            let m = rej_uniform_portable(b, &mut want, n0);
            assert_eq!(n, m, "block {k}, carried {n0}");
            assert_eq!(got[..n], want[..m], "block {k}, carried {n0}");
        }
    }
}

/// The AVX2 `SamplePolyCBD_2` (when detected) against its portable twin
/// on random bytes and on all-zero, all-one and alternating bytes.
#[test]
fn cbd2_matches_portable() {
    let Some(token) = crate::arch::avx2() else {
        return;
    };
    let mut seed = 0x0f1e_2d3c_4b5a_6978u64;
    for iter in 0..2000 {
        let b: [u8; 128] = core::array::from_fn(|i| match iter {
            0 => 0,
            1 => 0xff,
            2 => 0x0f,
            3 => 0xf0,
            4 => [0x03, 0x0c, 0x30, 0xc0][i & 3],
            _ => {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            }
        });
        let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
        crate::arch::cbd2(token, &b, &mut got.c);
        sample_cbd_portable(2, &b, &mut want);
        assert_eq!(got.c, want.c, "iteration {iter}");
    }
}

#[test]
fn cbd3_matches_portable() {
    let Some(token) = crate::arch::avx2() else {
        return;
    };
    let mut seed = 0x1f2e_3d4c_5b6a_7988u64;
    for iter in 0..2000 {
        let b: [u8; 192] = core::array::from_fn(|i| match iter {
            0 => 0,
            1 => 0xff,
            2 => [0x07, 0x00, 0x00][i % 3],
            3 => [0x38, 0x00, 0x00][i % 3],
            4 => [0x00, 0x00, 0xfc][i % 3],
            5 => [0xc0, 0x01, 0x00][i % 3],
            _ => {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            }
        });
        let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
        crate::arch::cbd3(token, &b, &mut got.c);
        sample_cbd_portable(3, &b, &mut want);
        assert_eq!(got.c, want.c, "iteration {iter}");
    }
}

/// The 4-way sampler of two rows (or columns) at once against
/// `SampleNTT` one entry at a time, on both Keccak backends, k = 1, 2,
/// 500 random seeds each; the accumulators start non-zero.
#[test]
fn row_pair_x4_matches_sample_ntt() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut v = [Multiplicand::ZERO; 2];
    let mut start = Poly::ZERO;
    for iter in 0..500 {
        let rho: [u8; 32] = core::array::from_fn(|_| next() as u8);
        for m in &mut v {
            for c in &mut m.f.c {
                *c = (next() % 3329) as i16 - 1664;
            }
            m.cache = crate::ntt::MulCache::new(&m.f);
        }
        for c in &mut start.c {
            *c = (next() % 3329) as i16 - 1664;
        }
        let k = 1 + iter % 2;
        let i = (next() % 3) as u8;
        for transpose in [false, true] {
            let (mut want0, mut want1) = (Accumulator::ZERO, Accumulator::ZERO);
            want0.set(&start);
            sample_ntt_row(&rho, i, transpose, &v[..k], &mut want0);
            sample_ntt_row(&rho, i + 1, transpose, &v[..k], &mut want1);
            for backend in [crate::arch::keccak_avx2(), None] {
                let (mut got0, mut got1) = (Accumulator::ZERO, Accumulator::ZERO);
                got0.set(&start);
                sample_ntt_row_pair_x4(backend, &rho, i, transpose, &v[..k], &mut got0, &mut got1);
                assert_eq!(got0.c, want0.c, "iteration {iter}, k {k}, {backend:?}");
                assert_eq!(got1.c, want1.c, "iteration {iter}, k {k}, {backend:?}");
            }
        }
    }
}

/// The streamed 4-way row sampler against `SampleNTT` one entry at a
/// time followed by `Accumulator::add`, on both Keccak backends, for
/// k = 1..=4, rows and columns, 1,000 random seeds each (some streams
/// need a fourth block: about 1 % of entries), with a `J` sponge riding
/// in the spare lane against `hash::j`.
#[test]
fn row_x4_matches_sample_ntt() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut v = [Multiplicand::ZERO; 4];
    for iter in 0..1000 {
        let rho: [u8; 32] = core::array::from_fn(|_| next() as u8);
        for m in &mut v {
            for c in &mut m.f.c {
                *c = (next() % 3329) as i16 - 1664;
            }
            m.cache = crate::ntt::MulCache::new(&m.f);
        }
        let k = 1 + iter % 4;
        let i = (next() % 4) as u8;
        for transpose in [false, true] {
            let mut want = Accumulator::ZERO;
            sample_ntt_row(&rho, i, transpose, &v[..k], &mut want);
            for backend in [crate::arch::keccak_avx2(), None] {
                let mut got = Accumulator::ZERO;
                // A `J(z ‖ c)` sponge rides along (k < 4) for a
                // message of 0..=1,120 bytes (up to 9 blocks: more
                // than a row's permutations, so `finish` has work).
                let msg: [u8; 1120] = core::array::from_fn(|_| next() as u8);
                let len = (iter * 37) % 1121;
                let (z, c) = msg[..len].split_at(((iter % 3) * 16).min(len));
                let (mut rode, mut want_hash) = ([0u8; 32], [0u8; 32]);
                if iter % 2 == 0 {
                    let mut rider = crate::hash::JRider::new(z, c);
                    sample_ntt_row_x4(
                        backend,
                        &rho,
                        i,
                        transpose,
                        &v[..k],
                        &mut got,
                        Some(&mut rider),
                    );
                    rider.finish(&mut rode);
                    crate::hash::j(&[z, c], &mut want_hash);
                } else {
                    // An `H` sponge over the prefix msg[..len] of a
                    // longer message (key generation's `ek`), finished
                    // over all of it.
                    let mut h = crate::hash::HState::new();
                    let mut rider = h.rider(&msg[..len]);
                    sample_ntt_row_x4(
                        backend,
                        &rho,
                        i,
                        transpose,
                        &v[..k],
                        &mut got,
                        Some(&mut rider),
                    );
                    h.finish(&msg, &mut rode);
                    crate::hash::h(&msg, &mut want_hash);
                }
                assert_eq!(got.c, want.c, "iteration {iter}, k {k}, {backend:?}");
                assert_eq!(rode, want_hash, "iteration {iter}, k {k}, {backend:?}");
            }
        }
    }
}

/// The entry-range sampler (`k = 4` decapsulation: entries 0–2 of one
/// column with `J` riding, entry 3 of four columns) against `SampleNTT`
/// one entry at a time followed by `Accumulator::add`, on both Keccak
/// backends, rows and columns, 300 random seeds, with `J(z ‖ c)` over
/// 1,600 bytes (`k = 4`: 12 blocks) in the spare lane against `hash::j`.
#[test]
fn rows_part_x4_matches_sample_ntt() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut v = [Multiplicand::ZERO; 4];
    for iter in 0..300 {
        let rho: [u8; 32] = core::array::from_fn(|_| next() as u8);
        for m in &mut v {
            for c in &mut m.f.c {
                *c = (next() % 3329) as i16 - 1664;
            }
            m.cache = crate::ntt::MulCache::new(&m.f);
        }
        let msg: [u8; 1600] = core::array::from_fn(|_| next() as u8);
        let (z, c) = msg.split_at(32);
        let mut want_hash = [0u8; 32];
        crate::hash::j(&[z, c], &mut want_hash);
        for transpose in [false, true] {
            // want[r]: entries 0..3 of row r, then entry 3 added.
            let mut want = [Accumulator::ZERO; 4];
            let mut a_hat = Poly::ZERO;
            for (r, w) in want.iter_mut().enumerate() {
                for (j, g) in v.iter().enumerate() {
                    let (b0, b1) = if transpose {
                        (r as u8, j as u8)
                    } else {
                        (j as u8, r as u8)
                    };
                    sample_ntt(&rho, b0, b1, &mut a_hat);
                    w.add(&a_hat, g);
                }
            }
            for backend in [crate::arch::keccak_avx2(), None] {
                let mut got = [Accumulator::ZERO; 4];
                let mut rider = crate::hash::JRider::new(z, c);
                let [g0, g1, g2, g3] = &mut got;
                let mut accs = [g0, g1, g2, g3];
                for (r, a) in accs.iter_mut().enumerate() {
                    let one: &mut [&mut Accumulator; 1] = &mut [&mut **a];
                    let rider: &mut dyn LaneRider = &mut rider;
                    sample_ntt_rows_part_x4(
                        backend,
                        &rho,
                        r as u8,
                        transpose,
                        &v,
                        0,
                        3,
                        one,
                        Some(rider),
                    );
                }
                sample_ntt_rows_part_x4(backend, &rho, 0, transpose, &v, 3, 1, &mut accs, None);
                let mut rode = [0u8; 32];
                rider.finish(&mut rode);
                for (r, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g.c, w.c, "iteration {iter}, row {r}, {backend:?}");
                }
                assert_eq!(rode, want_hash, "iteration {iter}, {backend:?}");
            }
        }
    }
}

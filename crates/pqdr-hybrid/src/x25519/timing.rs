//! The per-operation timing report (`--ignored`, not a check) of our X25519
//! against the previous kernel path, the portable one, x25519-dalek and
//! AWS-LC (aws-lc-rs, behind the `bench-aws-lc` feature): `cargo test --release -p
//! pqdr-hybrid --features bench-aws-lc -- --ignored --nocapture timing`.

extern crate std;

use std::boxed::Box;
use std::vec::Vec;

use super::X25519_SIZE;
use super::field::{Arith, Fe, Portable};
use super::invert::Invert;
use super::tests::Rng;
use super::{dh, ladder, public, public_with};
use crate::arch;

/// The kernel operations one at a time and the Fermat inversion: the
/// `Arith` / `Invert` of [`Previous`] and [`Fermat`], which differ only in
/// the extra methods given (`Fermat` has the squaring-run kernel).
macro_rules! kernel_arith {
    ($name:ident { $($extra:item)* }) => {
        impl Arith for $name {
            fn add(self, a: &Fe, b: &Fe) -> Fe {
                self.0.add(a, b)
            }
            fn sub(self, a: &Fe, b: &Fe) -> Fe {
                self.0.sub(a, b)
            }
            fn mul_a24(self, a: &Fe) -> Fe {
                self.0.mul_a24(a)
            }
            fn mul(self, a: &Fe, b: &Fe) -> Fe {
                self.0.mul(a, b)
            }
            fn square(self, a: &Fe) -> Fe {
                self.0.square(a)
            }
            $($extra)*
        }

        impl Invert for $name {
            fn invert(self, z: &Fe) -> Fe {
                self.0.invert_fermat(z)
            }
        }
    };
}

/// The kernel path of the previous release (`fe_mul` … `fe_square` one
/// operation at a time, the generic ladder and inversion), for [`timing`].
#[derive(Clone, Copy)]
struct Previous(arch::Bmi2Adx);

kernel_arith!(Previous {});

/// The kernel path with the previous inversion (the Fermat chain with the
/// squaring-run kernel), for [`timing`].
#[derive(Clone, Copy)]
struct Fermat(arch::Bmi2Adx);

kernel_arith!(Fermat {
    fn square_n(self, a: &Fe, n: u32) -> Fe {
        self.0.square_n(a, n)
    }
});

impl super::base::Madd for Fermat {
    fn madd(self, s: &mut super::base::MaddState) {
        arch::fe_madd(self.0, s);
    }
}

/// Per-operation times (not a check; `--ignored`): the variable-base `dh`
/// and the base point `public` on the path detection picks, on the previous
/// kernel path, on the portable one, and x25519-dalek's, in interleaved
/// batches (short, so that a busy machine preempts few of them); median
/// and 10th percentile µs per operation.
///
/// ```sh
/// cargo test --release -p pqdr-hybrid --lib -- --ignored --nocapture x25519::timing::timing
/// ```
#[test]
#[ignore = "a timing report, not a check"]
fn timing() {
    use core::hint::black_box;
    use std::time::Instant;
    let Some(token) = arch::bmi2_adx() else {
        return;
    };
    let prev = Previous(token);
    let mut rng = Rng(0x71e);
    let k = rng.bytes();
    let u = public(&rng.bytes());
    let kc = super::clamp(&k);
    type Op<'a> = (&'a str, Box<dyn Fn() -> [u8; X25519_SIZE] + 'a>);
    use aws_lc_rs::agreement::{self as lc, PrivateKey, UnparsedPublicKey, X25519};
    let lc_key = PrivateKey::from_private_key(&X25519, &k).unwrap();
    let lc_dh = || {
        lc::agree(
            &lc_key,
            UnparsedPublicKey::new(&X25519, black_box(&u)),
            (),
            |s| Ok(<[u8; X25519_SIZE]>::try_from(s).unwrap()),
        )
        .unwrap()
    };
    // AWS-LC computes the public key when it takes the private key.
    let lc_public = || {
        let key = PrivateKey::from_private_key(&X25519, black_box(&k)).unwrap();
        <[u8; X25519_SIZE]>::try_from(key.compute_public_key().unwrap().as_ref()).unwrap()
    };
    let ops: [Op<'_>; 15] = [
        (
            "dh (detected path)",
            Box::new(|| *dh(black_box(&k), black_box(&u))),
        ),
        (
            "dh (previous kernels)",
            Box::new(|| ladder(prev, black_box(&k), black_box(&u))),
        ),
        (
            "dh (portable)",
            Box::new(|| ladder(Portable, black_box(&k), black_box(&u))),
        ),
        (
            "dh (x25519-dalek)",
            Box::new(|| x25519_dalek::x25519(black_box(k), black_box(u))),
        ),
        ("public (detected path)", Box::new(|| public(black_box(&k)))),
        (
            "public (kernels, Fermat inversion)",
            Box::new(|| super::base::base_mul(Fermat(token), arch::avx2(), black_box(&kc))),
        ),
        (
            "dh (kernels, Fermat inversion)",
            Box::new(|| {
                super::ladder_with(Fermat(token), black_box(&k), black_box(&u), |swap, s| {
                    arch::fe_ladder_step(token, swap, s);
                })
            }),
        ),
        (
            "public (portable)",
            Box::new(|| public_with(None, black_box(&k))),
        ),
        (
            "public (x25519-dalek)",
            Box::new(|| x25519_dalek::x25519(black_box(k), x25519_dalek::X25519_BASEPOINT_BYTES)),
        ),
        ("dh (aws-lc-rs)", Box::new(lc_dh)),
        ("public (aws-lc-rs)", Box::new(lc_public)),
        (
            "invert (Fermat, kernels)",
            Box::new(|| {
                token
                    .invert_fermat(&Fe::from_bytes(black_box(&k)))
                    .to_bytes()
            }),
        ),
        (
            "invert (Fermat, portable)",
            Box::new(|| {
                Portable
                    .invert_fermat(&Fe::from_bytes(black_box(&k)))
                    .to_bytes()
            }),
        ),
        (
            "invert (divsteps, kernel)",
            Box::new(|| super::invert::invert(token, &Fe::from_bytes(black_box(&k))).to_bytes()),
        ),
        (
            "invert (divsteps, portable)",
            Box::new(|| super::invert::invert(Portable, &Fe::from_bytes(black_box(&k))).to_bytes()),
        ),
    ];
    // Every dh and public variant gives x25519-dalek's value.
    for (name, f) in &ops {
        if name.starts_with("dh") {
            assert_eq!(f(), x25519_dalek::x25519(k, u), "{name}");
        } else if name.starts_with("public") {
            let want = x25519_dalek::x25519(k, x25519_dalek::X25519_BASEPOINT_BYTES);
            assert_eq!(f(), want, "{name}");
        }
    }
    let (rounds, batch) = (301, 4);
    let mut t: Vec<Vec<f64>> = (0..ops.len()).map(|_| Vec::new()).collect();
    for _ in 0..rounds {
        for (i, (_, f)) in ops.iter().enumerate() {
            let start = Instant::now();
            for _ in 0..batch {
                black_box(f());
            }
            t[i].push(start.elapsed().as_secs_f64() * 1e6 / f64::from(batch));
        }
    }
    for ((name, _), mut v) in ops.iter().zip(t) {
        v.sort_by(f64::total_cmp);
        // 301 rounds: the 10th percentile and the median.
        let (p10, med) = (v[30], v[150]);
        std::println!("{name:26} median {med:8.2} µs, 10th percentile {p10:8.2} µs");
    }
}

/// A loop of base-point products on the detected path, for `perf record`
/// (not a check; `--ignored`): 20,000 `public` calls.
#[test]
#[ignore = "a profiling loop, not a check"]
fn profile_public() {
    let mut k = [7u8; X25519_SIZE];
    for _ in 0..20_000 {
        k = public(core::hint::black_box(&k));
    }
    core::hint::black_box(k);
}

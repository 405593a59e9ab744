//! Runs one Classic McEliece operation in a loop, for profilers and
//! instruction counts:
//! `cargo run --release -p pqdr-mceliece --example mceliece_ops -- <348864|460896|460896f|6688128|6960119|6960119f|8192128|8192128f> <keygen|encaps|decaps> [iterations]`
//! e.g. `valgrind --tool=callgrind target/release/examples/mceliece_ops 348864 decaps 10`.
//! Keys live in boxed caller buffers (the public key is 255 KB – 1 MB).
//! With `--features self-test`, `keygen` includes the pair-wise consistency
//! test and the operation `selftest` runs the set's `self_test_into`.
#![allow(
    clippy::cast_possible_truncation,
    reason = "loop counter as a seed byte"
)]

use core::hint::black_box;

#[cfg(feature = "mceliece460896")]
use pqdr_mceliece::mceliece460896;
#[cfg(feature = "mceliece6688128")]
use pqdr_mceliece::mceliece6688128;
#[cfg(feature = "mceliece6960119f")]
use pqdr_mceliece::mceliece6960119f;
#[cfg(feature = "mceliece8192128")]
use pqdr_mceliece::mceliece8192128;
#[cfg(feature = "mceliece8192128f")]
use pqdr_mceliece::mceliece8192128f;
use pqdr_mceliece::{mceliece348864, mceliece460896f, mceliece6960119};

/// xorshift64: reproducible bytes for encapsulation (not a CSPRNG).
struct XorShift(u64);

impl rand_core::TryRng for XorShift {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for XorShift {}

macro_rules! run {
    ($set:ident, $op:expr, $n:expr) => {{
        use $set as s;
        let mut pk = vec![0u8; s::ENCAPSULATION_KEY_SIZE].into_boxed_slice();
        let mut sk = vec![0u8; s::DECAPSULATION_KEY_SIZE].into_boxed_slice();
        let mut ct = [0u8; s::CIPHERTEXT_SIZE];
        let pk: &mut [u8; s::ENCAPSULATION_KEY_SIZE] = (&mut *pk).try_into().expect("size");
        let sk: &mut [u8; s::DECAPSULATION_KEY_SIZE] = (&mut *sk).try_into().expect("size");
        s::generate_deterministic_into(pk, sk, &[7; 32]);
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let _ = s::encapsulate_into(pk, &mut ct, &mut rng);
        for i in 0..$n {
            match $op {
                "keygen" => s::generate_deterministic_into(pk, sk, black_box(&[i as u8; 32])),
                "encaps" => {
                    black_box(s::encapsulate_into(pk, &mut ct, &mut rng));
                }
                "decaps" => {
                    black_box(s::decapsulate(sk, black_box(&ct)));
                }
                #[cfg(feature = "self-test")]
                "selftest" => {
                    // Through an opaque pointer, so the call is not hoisted out of the loop.
                    let run: fn(
                        &mut [u8; s::ENCAPSULATION_KEY_SIZE],
                        &mut [u8; s::DECAPSULATION_KEY_SIZE],
                    ) -> Result<(), pqdr_mceliece::Error> = black_box(s::self_test_into);
                    assert_eq!(run(pk, sk), Ok(()));
                }
                other => panic!("unknown operation {other}"),
            }
        }
    }};
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let set = args.get(1).map_or("348864", String::as_str);
    let op = args.get(2).map_or("decaps", String::as_str);
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    match set {
        "348864" => run!(mceliece348864, op, n),
        "460896f" => run!(mceliece460896f, op, n),
        "6960119" => run!(mceliece6960119, op, n),
        #[cfg(feature = "mceliece460896")]
        "460896" => run!(mceliece460896, op, n),
        #[cfg(feature = "mceliece6688128")]
        "6688128" => run!(mceliece6688128, op, n),
        #[cfg(feature = "mceliece8192128")]
        "8192128" => run!(mceliece8192128, op, n),
        #[cfg(feature = "mceliece6960119f")]
        "6960119f" => run!(mceliece6960119f, op, n),
        #[cfg(feature = "mceliece8192128f")]
        "8192128f" => run!(mceliece8192128f, op, n),
        other => panic!("unknown set {other}"),
    }
}

//! SHA-512 (FIPS 180-4), the hash of every `Hash_b` (NTRU Prime spec
//! §2.3.5): an incremental hasher over this CPU's compression kernel (AVX2
//! with the 2-block message schedule in 256-bit registers,
//! `arch::x86_64::sha512`, or the portable `sha512::compress_portable`).
//!
//! [`Sha512`] wipes its chaining state and block buffer when dropped (the
//! hashed inputs are secret); the compression functions keep their message
//! schedule and working variables in their own frames and registers. No
//! branch or memory index depends on the hashed bytes: only on their
//! lengths, which are public.

use crate::arch::{self, Avx2};
use crate::sha512::{BLOCK, H0, compress_portable};
use pqdr_common::simd::Bmi1Bmi2;
use zeroize::Zeroize;

/// The compression kernel this process runs: AVX2 (with BMI2's `rorx` for
/// the rounds' rotations, hence both tokens) when this crate's `simd`
/// feature is on and the CPU has both, else the portable one.
pub(crate) type Kernel = Option<(Avx2, Bmi1Bmi2)>;

/// The kernel for this CPU (`arch::avx2`, plus BMI1/BMI2 detection).
#[inline]
pub(crate) fn kernel() -> Kernel {
    arch::avx2().and_then(|t| Some((t, Bmi1Bmi2::detect()?)))
}

/// Compresses `blocks` into `h` on `kernel`.
#[inline]
fn compress_on(kernel: Kernel, h: &mut [u64; 8], blocks: &[[u8; BLOCK]]) {
    match kernel {
        Some((avx2, bmi)) => arch::sha512_blocks(avx2, bmi, h, blocks),
        None => compress_portable(h, blocks),
    }
}

/// The hasher of this build: a buffer of two blocks where the AVX2 kernel
/// (which compresses pairs) is built, else of one (the smaller stack of the
/// microcontroller builds; `arch::SHA512_BUFFER_BLOCKS`).
pub(crate) type Sha512 = Sha512Buf<{ arch::SHA512_BUFFER_BLOCKS }>;

/// An incremental SHA-512 hasher (FIPS 180-4 §5.1.2 padding, §6.4
/// computation) buffering up to `BLOCKS` blocks (1 or 2). Wipes its chaining
/// state and block buffer when dropped.
pub(crate) struct Sha512Buf<const BLOCKS: usize> {
    kernel: Kernel,
    /// The hash value H(i).
    h: [u64; 8],
    /// Input bytes not yet compressed: the first `len mod BUF` (the buffer
    /// is compressed whenever it fills, so no separate count is kept).
    buf: [[u8; BLOCK]; BLOCKS],
    /// Bytes hashed so far.
    len: u64,
}

impl<const BLOCKS: usize> Sha512Buf<BLOCKS> {
    /// The buffer's length in bytes.
    const BUF: usize = BLOCKS * BLOCK;

    /// A hasher on this CPU's kernel.
    #[inline]
    pub(crate) fn new() -> Self {
        Self::new_on(kernel())
    }

    /// A hasher on `kernel` (tests: `None` is the portable path).
    pub(crate) fn new_on(kernel: Kernel) -> Self {
        const { assert!(BLOCKS == 1 || BLOCKS == 2, "one or two blocks") };
        Self {
            kernel,
            h: H0,
            buf: [[0; BLOCK]; BLOCKS],
            len: 0,
        }
    }

    /// Appends `data` to the message; compresses the buffer each time it is
    /// full.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let n = self.buffered();
            let take = (Self::BUF - n).min(data.len());
            self.buf.as_flattened_mut()[n..n + take].copy_from_slice(&data[..take]);
            self.len = self.len.wrapping_add(take as u64);
            data = &data[take..];
            if n + take == Self::BUF {
                compress_on(self.kernel, &mut self.h, &self.buf);
            }
        }
    }

    /// The bytes in the buffer: `len mod BUF` (BUF a power of two).
    fn buffered(&self) -> usize {
        // BUF - 1 < 2^8: the low byte holds every bit of the remainder.
        usize::from(self.len.to_le_bytes()[0]) & (Self::BUF - 1)
    }

    /// Pads the message (FIPS 180-4 §5.1.2: a 1 bit, zeros, the length in
    /// bits as 128 bits big-endian) and writes the first `N` bytes of the
    /// digest H(N) (§6.4.2; N a multiple of 8, at most 64) to `out` (the
    /// rest never leaves the hasher). The hasher is wiped when dropped.
    pub(crate) fn finalize_into<const N: usize>(mut self, out: &mut [u8; N]) {
        const { assert!(N <= 64 && N & 7 == 0, "whole words of the 64-byte digest") };
        let n = self.buffered();
        let bits = u128::from(self.len) << 3;
        // The padded message ends at the first block end with room for the
        // 0x80 byte and the 16-byte length after the n buffered bytes
        // (n < 2 blocks, so within 3).
        let end = if n + 17 <= BLOCK {
            BLOCK
        } else if n + 17 <= 2 * BLOCK {
            2 * BLOCK
        } else {
            3 * BLOCK
        };
        let buf = self.buf.as_flattened_mut();
        buf[n] = 0x80;
        let end = if end > Self::BUF {
            // The length does not fit in the buffer: the buffer's blocks
            // with zeros after the 0x80 byte, then a block of zeros and the
            // length.
            buf[n + 1..].fill(0);
            compress_on(self.kernel, &mut self.h, &self.buf);
            self.buf.as_flattened_mut()[..BLOCK - 16].fill(0);
            BLOCK
        } else {
            buf[n + 1..end - 16].fill(0);
            end
        };
        let buf = self.buf.as_flattened_mut();
        buf[end - 16..end].copy_from_slice(&bits.to_be_bytes());
        // end / BLOCK blocks (BLOCK = 2^7).
        compress_on(self.kernel, &mut self.h, &self.buf[..end >> 7]);
        for (out, h) in out.as_chunks_mut::<8>().0.iter_mut().zip(self.h) {
            *out = h.to_be_bytes();
        }
    }
}

impl<const BLOCKS: usize> Drop for Sha512Buf<BLOCKS> {
    fn drop(&mut self) {
        self.h.zeroize();
        self.buf.zeroize();
    }
}

impl<const BLOCKS: usize> zeroize::ZeroizeOnDrop for Sha512Buf<BLOCKS> {}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    /// SHA-512 of `parts` on `kernel`.
    fn digest_on(kernel: Kernel, parts: &[&[u8]]) -> [u8; 64] {
        let one = digest_buf::<1>(kernel, parts);
        let two = digest_buf::<2>(kernel, parts);
        assert_eq!(one, two, "one- and two-block buffers, {kernel:?}");
        two
    }

    /// SHA-512 of `parts` on `kernel` with a buffer of `B` blocks.
    fn digest_buf<const B: usize>(kernel: Kernel, parts: &[&[u8]]) -> [u8; 64] {
        let mut h = Sha512Buf::<B>::new_on(kernel);
        for p in parts {
            h.update(p);
        }
        let mut out = [0; 64];
        h.finalize_into(&mut out);
        out
    }

    /// The kernels to compare: the portable one, and AVX2 where it runs.
    fn kernels() -> std::vec::Vec<Kernel> {
        let mut k = std::vec![None];
        if kernel().is_some() {
            k.push(kernel());
        }
        k
    }

    /// FIPS 180-4's SHA-512 examples (NIST CSRC "Examples with Intermediate
    /// Values", SHA512.pdf: "abc", the 896-bit message "abcdefghbcdefghi…")
    /// and the empty message (NIST SHA test vectors, SHA512ShortMsg.rsp Len = 0),
    /// on each kernel.
    #[test]
    fn fips_180_4_examples() {
        use pqdr_common::hex::decode as hex;
        let cases: [(&[u8], [u8; 64]); 3] = [
            (
                b"abc",
                hex(b"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                      2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
            ),
            (
                b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                hex(b"8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
                      501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
            ),
            (
                b"",
                hex(b"cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
                      47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
            ),
        ];
        for kernel in kernels() {
            for (msg, want) in cases {
                assert_eq!(digest_on(kernel, &[msg]), want, "{kernel:?}");
            }
        }
    }

    /// Differential: each kernel against the `sha2` crate (an independent
    /// implementation) on random messages of every length 0..=300 and long
    /// ones around the block and buffer boundaries, split into three parts
    /// at varying points (as `hash_prefix` feeds them).
    #[test]
    fn kernels_match_sha2() {
        let mut s = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let long = [
            111, 112, 127, 128, 129, 239, 240, 255, 256, 257, 367, 368, 383, 384, 495, 496, 511,
            512, 1000, 1839, 1880, 4096,
        ];
        for len in (0..=300).chain(long) {
            for rep in 0..4 {
                let msg: std::vec::Vec<u8> = match rep {
                    // Edge bytes: all zero, all one.
                    0 => std::vec![0; len],
                    1 => std::vec![0xff; len],
                    _ => (0..len).map(|_| next() as u8).collect(),
                };
                let want = sha2::Sha512::digest(&msg);
                // Uniform cut points by multiply-shift (no division).
                let mut below = |n: usize| (((next() >> 32) * (n as u64 + 1)) >> 32) as usize;
                let cut1 = below(len);
                let cut2 = cut1 + below(len - cut1);
                let parts = [&msg[..cut1], &msg[cut1..cut2], &msg[cut2..]];
                for kernel in kernels() {
                    assert_eq!(
                        digest_on(kernel, &parts).as_slice(),
                        want.as_slice(),
                        "len {len}, cuts {cut1} {cut2}, {kernel:?}"
                    );
                }
            }
        }
    }

    /// The kernels on many blocks at once (odd and even counts), every
    /// byte value in every position, against each other.
    #[test]
    fn compress_kernels_agree() {
        let Some(k) = kernel() else { return };
        let mut s = 1u32;
        for count in 0..=7 {
            let blocks: std::vec::Vec<[u8; BLOCK]> = (0..count)
                .map(|_| {
                    core::array::from_fn(|_| {
                        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        (s >> 16) as u8
                    })
                })
                .collect();
            let (mut a, mut b) = (H0, H0);
            compress_portable(&mut a, &blocks);
            compress_on(Some(k), &mut b, &blocks);
            assert_eq!(a, b, "{count} blocks");
        }
    }

    /// Interleaved micro-bench (not a timed test: `cargo test --release -p
    /// pqdr-ntrup --lib sha512_speed -- --ignored --nocapture`): a
    /// 1,880-byte message (about sntrup1277's session hash) hashed by each
    /// kernel and by the `sha2` crate in alternating batches in one
    /// process; prints the median of the per-round ratios sha2 time / our
    /// time. Built with `RUSTFLAGS='--cfg sha2_backend="soft"'`, `sha2`
    /// runs its portable code, the comparison for our portable kernel.
    #[test]
    #[ignore = "micro-bench"]
    fn sha512_speed() {
        use std::time::Instant;
        let msg: std::vec::Vec<u8> = (0..1880u32).map(|i| (i * 131 + 7) as u8).collect();
        const BATCH: usize = 200;
        let time = |f: &dyn Fn() -> [u8; 64]| {
            let t = Instant::now();
            for _ in 0..BATCH {
                core::hint::black_box(f());
            }
            t.elapsed().as_nanos() as f64
        };
        let sha2 = || {
            let mut out = [0; 64];
            out.copy_from_slice(&sha2::Sha512::digest(core::hint::black_box(&msg)));
            out
        };
        for kernel in kernels() {
            let ours = || digest_on(kernel, &[core::hint::black_box(&msg)]);
            let mut ratios = std::vec::Vec::new();
            let (mut t_sha2, mut t_ours) = (0.0, 0.0);
            for _ in 0..41 {
                let a = time(&sha2);
                let b = time(&ours);
                t_sha2 += a;
                t_ours += b;
                ratios.push(a / b);
            }
            ratios.sort_by(f64::total_cmp);
            let per_byte = |t: f64| t / (41.0 * BATCH as f64 * msg.len() as f64);
            std::println!(
                "{kernel:?}: sha2 {:.3} ns/byte, ours {:.3} ns/byte, median ratio sha2/ours {:.3}",
                per_byte(t_sha2),
                per_byte(t_ours),
                ratios[20]
            );
        }
    }
}

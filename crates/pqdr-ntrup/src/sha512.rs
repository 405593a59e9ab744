//! SHA-512 (FIPS 180-4): the hash of every `Hash_b` (NTRU Prime spec
//! §2.3.5), written here so that its compression function has an AVX2 kernel
//! (`arch::x86_64::sha512`, the 2-block message schedule in 256-bit
//! registers) beside the portable one below, its twin.
//!
//! [`Sha512`] wipes its chaining state and block buffer when dropped (the
//! hashed inputs are secret); the compression functions keep their message
//! schedule and working variables in their own frames and registers. No
//! branch or memory index depends on the hashed bytes: only on their
//! lengths, which are public.

use crate::arch::{self, Avx2};
use pqdr_common::simd::Bmi1Bmi2;
use zeroize::Zeroize;

/// Bytes of one message block (FIPS 180-4 §1, SHA-512's block size).
pub(crate) const BLOCK: usize = 128;

/// The block buffer: two blocks, so that the AVX2 kernel compresses pairs.
const BUF: usize = 2 * BLOCK;

/// Repeats `body` with the constant `$i` bound to each listed value, so that
/// the rounds' rotation of the working variables and the schedule's indices
/// are compile-time constants (no moves between registers, no array in memory).
macro_rules! unroll {
    ($i:ident in [$($n:literal),*] $body:block) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}
pub(crate) use unroll;

/// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube
/// roots of the first 80 primes.
pub(crate) const K: [u64; 80] = [
    0x428a_2f98_d728_ae22,
    0x7137_4491_23ef_65cd,
    0xb5c0_fbcf_ec4d_3b2f,
    0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538,
    0x59f1_11f1_b605_d019,
    0x923f_82a4_af19_4f9b,
    0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242,
    0x1283_5b01_4570_6fbe,
    0x2431_85be_4ee4_b28c,
    0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f,
    0x80de_b1fe_3b16_96b1,
    0x9bdc_06a7_25c7_1235,
    0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2,
    0xefbe_4786_384f_25e3,
    0x0fc1_9dc6_8b8c_d5b5,
    0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275,
    0x4a74_84aa_6ea6_e483,
    0x5cb0_a9dc_bd41_fbd4,
    0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab,
    0xa831_c66d_2db4_3210,
    0xb003_27c8_98fb_213f,
    0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2,
    0xd5a7_9147_930a_a725,
    0x06ca_6351_e003_826f,
    0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc,
    0x2e1b_2138_5c26_c926,
    0x4d2c_6dfc_5ac4_2aed,
    0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de,
    0x766a_0abb_3c77_b2a8,
    0x81c2_c92e_47ed_aee6,
    0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364,
    0xa81a_664b_bc42_3001,
    0xc24b_8b70_d0f8_9791,
    0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218,
    0xd699_0624_5565_a910,
    0xf40e_3585_5771_202a,
    0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8,
    0x1e37_6c08_5141_ab53,
    0x2748_774c_df8e_eb99,
    0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63,
    0x4ed8_aa4a_e341_8acb,
    0x5b9c_ca4f_7763_e373,
    0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc,
    0x78a5_636f_4317_2f60,
    0x84c8_7814_a1f0_ab72,
    0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28,
    0xa450_6ceb_de82_bde9,
    0xbef9_a3f7_b2c6_7915,
    0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c,
    0xd186_b8c7_21c0_c207,
    0xeada_7dd6_cde0_eb1e,
    0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba,
    0x0a63_7dc5_a2c8_98a6,
    0x113f_9804_bef9_0dae,
    0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84,
    0x32ca_ab7b_40c7_2493,
    0x3c9e_be0a_15c9_bebc,
    0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6,
    0x597f_299c_fc65_7e2a,
    0x5fcb_6fab_3ad6_faec,
    0x6c44_198c_4a47_5817,
];

/// FIPS 180-4 §5.3.5: the initial hash value H(0) of SHA-512.
const H0: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// FIPS 180-4 §4.1.3 (4.10): Σ0(x) = ROTR^28 ⊕ ROTR^34 ⊕ ROTR^39.
#[inline(always)]
fn big_sigma0(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}

/// FIPS 180-4 §4.1.3 (4.11): Σ1(x) = ROTR^14 ⊕ ROTR^18 ⊕ ROTR^41.
#[inline(always)]
fn big_sigma1(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}

/// The chaining state of one compression: the working variables a..h
/// (FIPS 180-4 §6.4.2 step 2) and `a ⊕ b` of the round before, for `Maj`.
pub(crate) struct Working {
    /// a, b, c, d, e, f, g, h.
    v: [u64; 8],
    /// The previous round's `a ⊕ b`, which is this round's `b ⊕ c`.
    bc: u64,
}

impl Working {
    /// Step 2: the working variables from the hash value H(i-1).
    #[inline(always)]
    pub(crate) fn new(h: &[u64; 8]) -> Self {
        Self {
            v: *h,
            bc: h[1] ^ h[2],
        }
    }

    /// One round t of step 3 with `wk = K_t + W_t`: `Ch(e, f, g)` as the sum
    /// of its two disjoint parts `e ∧ f` and `¬e ∧ g`, `Maj(a, b, c)` as
    /// `((a ⊕ b) ∧ (b ⊕ c)) ⊕ b` with `b ⊕ c` kept from the round before.
    #[inline(always)]
    pub(crate) fn round(&mut self, wk: u64) {
        let [a, b, c, d, e, f, g, h] = self.v;
        let ch = (e & f).wrapping_add(!e & g);
        let e1 = d
            .wrapping_add(h)
            .wrapping_add(wk)
            .wrapping_add(ch)
            .wrapping_add(big_sigma1(e));
        let ab = a ^ b;
        let maj = (ab & self.bc) ^ b;
        self.bc = ab;
        let t2 = big_sigma0(a).wrapping_add(maj).wrapping_sub(d);
        self.v = [e1.wrapping_add(t2), a, b, c, e1, e, f, g];
    }

    /// Step 4: H(i) = the working variables + H(i-1).
    #[inline(always)]
    pub(crate) fn add_into(&self, h: &mut [u64; 8]) {
        for (h, v) in h.iter_mut().zip(self.v) {
            *h = h.wrapping_add(v);
        }
    }
}

/// FIPS 180-4 §4.1.3 (4.12): σ0(x) = ROTR^1 ⊕ ROTR^8 ⊕ SHR^7.
#[inline(always)]
fn small_sigma0(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}

/// FIPS 180-4 §4.1.3 (4.13): σ1(x) = ROTR^19 ⊕ ROTR^61 ⊕ SHR^6.
#[inline(always)]
fn small_sigma1(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// The SHA-512 compression of each block into `h` (FIPS 180-4 §6.4.2), the
/// portable twin of the AVX2 kernel: the message schedule (step 1) kept as
/// its last 16 words, W_t computed in place of W_{t-16} in the round that
/// uses it.
pub(crate) fn compress_portable(h: &mut [u64; 8], blocks: &[[u8; BLOCK]]) {
    for block in blocks {
        let mut w = [0u64; 16];
        for (w, bytes) in w.iter_mut().zip(block.as_chunks::<8>().0) {
            *w = u64::from_be_bytes(*bytes);
        }
        let mut s = Working::new(h);
        for (t, k) in K.as_chunks::<16>().0.iter().enumerate() {
            unroll!(I in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
                if t > 0 {
                    w[I] = small_sigma1(w[(I + 14) & 15])
                        .wrapping_add(w[(I + 9) & 15])
                        .wrapping_add(small_sigma0(w[(I + 1) & 15]))
                        .wrapping_add(w[I]);
                }
                s.round(w[I].wrapping_add(k[I]));
            });
        }
        s.add_into(h);
    }
}

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

/// An incremental SHA-512 hasher (FIPS 180-4 §5.1.2 padding, §6.4
/// computation). Wipes its chaining state and block buffer when dropped.
pub(crate) struct Sha512 {
    kernel: Kernel,
    /// The hash value H(i).
    h: [u64; 8],
    /// Input bytes not yet compressed (`n` of them, `n < BUF`).
    buf: [u8; BUF],
    n: usize,
    /// Bytes hashed so far.
    len: u64,
}

impl Sha512 {
    /// A hasher on this CPU's kernel.
    #[inline]
    pub(crate) fn new() -> Self {
        Self::new_on(kernel())
    }

    /// A hasher on `kernel` (tests: `None` is the portable path).
    pub(crate) fn new_on(kernel: Kernel) -> Self {
        Self {
            kernel,
            h: H0,
            buf: [0; BUF],
            n: 0,
            len: 0,
        }
    }

    /// Appends `data` to the message; compresses the buffer each time it
    /// holds two blocks.
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (BUF - self.n).min(data.len());
            self.buf[self.n..self.n + take].copy_from_slice(&data[..take]);
            self.n += take;
            data = &data[take..];
            if self.n == BUF {
                compress_on(self.kernel, &mut self.h, self.buf.as_chunks().0);
                self.n = 0;
            }
        }
    }

    /// Pads the message (FIPS 180-4 §5.1.2: a 1 bit, zeros, the length in
    /// bits as 128 bits big-endian) and writes the digest H(N) (§6.4.2) to
    /// `out`. The hasher is wiped when dropped.
    pub(crate) fn finalize_into(mut self, out: &mut [u8; 64]) {
        let mut n = self.n;
        if n + 17 > BUF {
            // The padding does not fit the buffer: the first block alone.
            compress_on(self.kernel, &mut self.h, &self.buf.as_chunks().0[..1]);
            self.buf.copy_within(BLOCK..n, 0);
            n -= BLOCK;
        }
        let end = if n + 17 > BLOCK { BUF } else { BLOCK };
        self.buf[n] = 0x80;
        self.buf[n + 1..end - 16].fill(0);
        let bits = u128::from(self.len) << 3;
        self.buf[end - 16..end].copy_from_slice(&bits.to_be_bytes());
        compress_on(self.kernel, &mut self.h, &self.buf[..end].as_chunks().0);
        for (out, h) in out.as_chunks_mut::<8>().0.iter_mut().zip(self.h) {
            *out = h.to_be_bytes();
        }
    }
}

impl Drop for Sha512 {
    fn drop(&mut self) {
        self.h.zeroize();
        self.buf.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Sha512 {}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    /// SHA-512 of `parts` on `kernel`.
    fn digest_on(kernel: Kernel, parts: &[&[u8]]) -> [u8; 64] {
        let mut h = Sha512::new_on(kernel);
        for p in parts {
            h.update(p);
        }
        let mut out = [0; 64];
        h.finalize_into(&mut out);
        out
    }

    fn hex(s: &str) -> std::vec::Vec<u8> {
        let s: std::string::String = s.split_whitespace().collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
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
        let cases: [(&[u8], &str); 3] = [
            (
                b"abc",
                "ddaf35a193617aba cc417349ae204131 12e6fa4e89a97ea2 0a9eeee64b55d39a
                 2192992a274fc1a8 36ba3c23a3feebbd 454d4423643ce80e 2a9ac94fa54ca49f",
            ),
            (
                b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "8e959b75dae313da 8cf4f72814fc143f 8f7779c6eb9f7fa1 7299aeadb6889018
                 501d289e4900f7e4 331b99dec4b5433a c7d329eeb6dd2654 5e96e55b874be909",
            ),
            (
                b"",
                "cf83e1357eefb8bd f1542850d66d8007 d620e4050b5715dc 83f4a921d36ce9ce
                 47d0d13c5d85f2b0 ff8318d2877eec2f 63b931bd47417a81 a538327af927da3e",
            ),
        ];
        for kernel in kernels() {
            for (msg, want) in cases {
                assert_eq!(
                    digest_on(kernel, &[msg]).as_slice(),
                    hex(want),
                    "{kernel:?}"
                );
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
                let mut below = |n: usize| ((next() >> 32) * (n as u64 + 1) >> 32) as usize;
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

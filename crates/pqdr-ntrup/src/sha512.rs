//! The SHA-512 compression function (FIPS 180-4 §6.4.2) and what its
//! kernels share: the constants, the round, the portable compression (the
//! twin of the AVX2 kernel `arch::x86_64::sha512`, and the path of every
//! other CPU). The hasher on top is `hash::Sha512`. No branch or memory
//! index depends on the hashed bytes.

/// Bytes of one message block (FIPS 180-4 §1, SHA-512's block size).
pub(crate) const BLOCK: usize = 128;

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
#[allow(
    unused_imports,
    reason = "named only by the AVX2 kernel, which builds without `simd` leave out"
)]
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
pub(crate) const H0: [u64; 8] = [
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

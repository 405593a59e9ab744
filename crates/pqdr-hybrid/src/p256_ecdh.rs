//! ECDH on P-256 (secp256r1) for SecP256r1MLKEM768 on our own curve
//! arithmetic ([`crate::nistp256`]): the items of `nist_ecdh.rs` at
//! P-256's sizes (a 40-byte scalar seed, 65-byte points, 32-byte secrets),
//! with the MULX/ADCX/ADOX field kernels where the CPU has BMI2 and ADX.

nist_ecdh! {
    curve = nistp256,
    limbs = 4,
    field_bytes = 32,
    // n − 1 of P-256 (SP 800-186 §3.2.1.3), little-endian limbs.
    order_minus_one = [
        0xf3b9_cac2_fc63_2550,
        0xbce6_faad_a717_9e84,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_0000_0000,
    ],
    fast = arch::Bmi2Adx,
    detect = arch::bmi2_adx(),
}

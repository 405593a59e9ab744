//! ECDH on P-384 (secp384r1) for SecP384r1MLKEM1024 on our own curve
//! arithmetic ([`crate::nistp384`]): the items of `nist_ecdh.rs` at
//! P-384's sizes (a 56-byte scalar seed, 97-byte points, 48-byte secrets),
//! with the MULX/ADCX/ADOX field products where the CPU has BMI2 and ADX.

nist_ecdh! {
    curve = nistp384,
    limbs = 6,
    field_bytes = 48,
    // n − 1 of P-384 (SP 800-186 §3.2.1.4), little-endian limbs.
    order_minus_one = [
        0xecec_196a_ccc5_2972,
        0x581a_0db2_48b0_a77a,
        0xc763_4d81_f437_2ddf,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
    ],
    fast = arch::Bmi2Adx,
    detect = arch::bmi2_adx(),
}

//! ECDH on P-256 (secp256r1) for SecP256r1MLKEM768, through RustCrypto
//! `p256`: the items of `nist_ecdh.rs` at P-256's sizes (a 40-byte scalar
//! seed, 65-byte points, 32-byte secrets).

nist_ecdh! {
    curve = p256,
    narrow = U256,
    wide = U320,
    field_bytes = 32,
    // n − 1 of P-256 (FIPS 186-5 / SP 800-186 §3.2.1.3).
    order_minus_one = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
}

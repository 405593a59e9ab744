//! ECDH on P-384 (secp384r1) for SecP384r1MLKEM1024, through RustCrypto
//! `p384`: the items of `nist_ecdh.rs` at P-384's sizes (a 56-byte scalar
//! seed, 97-byte points, 48-byte secrets).

nist_ecdh! {
    curve = p384,
    narrow = U384,
    wide = U448,
    field_bytes = 48,
    // n − 1 of P-384 (FIPS 186-5 / SP 800-186 §3.2.1.4).
    order_minus_one = concat!(
        "ffffffffffffffffffffffffffffffffffffffffffffffff",
        "c7634d81f4372ddf581a0db248b0a77aecec196accc52972",
    ),
}

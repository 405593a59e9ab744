//! SecP384r1MLKEM1024 against Go 1.26's standard library (crypto/mlkem,
//! crypto/ecdh P384, math/big for the FIPS 186-5 A.2.1 scalar):
//! `vectors/hybrid/secp384r1mlkem1024-go.json`, written by
//! `interop/go/secp384r1mlkem1024` (see `vectors/hybrid/README.md` to regenerate).
//!
//! - 6 valid exchanges (2 with edge scalars: d = 1, d = n − 1, c = 2^448 − 1):
//!   client seed → client share; (client share, server seed) → server share
//!   and the 80-byte secret; (client, server share) → the same secret;
//! - 1 modified ML-KEM ciphertext: the client's implicit-rejection secret;
//! - 8 client shares the server must refuse (5 invalid P-384 keys: off the
//!   curve, x = p, a compressed tag, the identity's 0x00 tag, (0, 0); an
//!   `ek` failing the FIPS 203 §7.2 check; 2 wrong lengths) and 2 server
//!   shares the client must refuse (off-curve key, wrong length).
#![cfg(feature = "p384")]

mod common;
#[macro_use]
mod nist_vectors;

nist_group_vectors!(
    secp384r1_mlkem1024,
    include_str!("../../../vectors/hybrid/secp384r1mlkem1024-go.json")
);

#![doc = "ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87 incl. HashML-DSA, pure Rust, no_std, constant time"]
#![no_std]

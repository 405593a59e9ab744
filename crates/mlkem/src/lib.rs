#![doc = "ML-KEM (FIPS 203): ML-KEM-512, ML-KEM-768 and ML-KEM-1024, pure Rust, no_std, constant time"]
#![no_std]

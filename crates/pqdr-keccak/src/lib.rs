#![doc = include_str!("../README.md")]
#![no_std]
#![deny(unsafe_code)]

mod arch;
mod f1600;
mod lane;
mod scalar;
mod sponge;
mod sponge_x4;
mod x4;

pub use f1600::{f1600, f1600_portable};
pub use lane::{LaneSponge, Shake256Lane};
pub use pqdr_common::simd::{Avx2, Avx512Vl, Bmi1Bmi2};
pub use scalar::f1600_with;
pub use sponge::{
    PAD_SHA3, PAD_SHAKE, RATE_SHA3_512, RATE_SHAKE128, RATE_SHAKE256, Sha3_256, Sha3_512, Shake128,
    Shake256, Sponge, sha3_256, sha3_512, shake256,
};
pub use sponge_x4::{Shake128x4, Shake256x4, SpongeX4};
pub use x4::{StateX4, f1600_x4, f1600_x4_portable, f1600_x4_public};

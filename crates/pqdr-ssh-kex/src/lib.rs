#![no_std]
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod cipher;
mod error;
pub mod hash;
pub mod hostkey;
pub mod hybrid;
pub mod kex;
pub mod kexinit;
pub mod msg;
pub mod packet;
pub mod version;
pub mod wire;

pub use error::{Category, Error, Field};
pub use kexinit::Kex;

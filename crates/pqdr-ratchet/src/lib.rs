#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod aead;
mod chain;
pub mod codec;
mod config;
mod control;
mod epoch;
mod error;
mod kdf;
pub mod kem;
mod keys;
mod near;
mod persist;
mod receive;
mod schedule;
mod session;
mod state;
#[cfg(feature = "test-utils")]
pub mod testing;
mod window;
pub mod wire;

pub use config::{
    AbortReason, Config, Event, HandshakeOutput, HardStop, InitialSecret, Instant, Mode, Role,
    SeedToken, Status,
};
pub use error::Error;
pub use kdf::Direction;
#[cfg(feature = "sntrup761")]
pub use kem::Sntrup761;
#[cfg(feature = "xwing")]
pub use kem::XWing;
pub use kem::{KemError, RatchetKem};
#[cfg(feature = "mlkem")]
pub use kem::{MlKem512, MlKem768, MlKem1024};

/// A session with the default KEM, ML-KEM-768.
#[cfg(feature = "mlkem")]
pub type DefaultSession = Session<MlKem768>;
pub use control::{Authentic, SymbolOut};
pub use keys::{PacketKey, SendKey};
pub use schedule::{AEAD_ID, KeySchedule};
pub use session::{MAX_AAD_LEN, Opened, Session, stream_record_len};
pub use state::{MIN_STORAGE_KEY_LEN, SESSION_ID_LEN, STATE_FORMAT_VERSION, max_state_len};

/// Re-exported so applications (and the examples) use the same AEAD and hash.
pub use blake3;
pub use chacha20poly1305;

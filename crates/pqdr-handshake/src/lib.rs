//! # pqdr-handshake
//!
//! A post-quantum authenticated key exchange that starts a
//! [`pqdr_ratchet::Session`]: one round trip for the initiator (msg3 rides
//! with its first record), no responder state before msg3, `no_std`,
//! sans-IO (you pass bytes, time and an RNG), fixed-size state.
//!
//! - **KEM mode** (after PQ-WireGuard and pqNoise's pqIK): an ephemeral
//!   ML-KEM-768 key plus an encapsulation to each static key. Suites
//!   [`K768`] (default), [`KMc`] (mceliece460896), [`KNt`] (sntrup761),
//!   KMc-c (feature `kmc-c`).
//! - **SIG mode** (SIGMA-I): ML-DSA identities [`S44`], [`S65`], [`S87`].
//! - **`-X`** (feature `hybrid`): X25519 mixed in as Noise IK's es/ss/ee/se.
//! - **Fragmentation** ([`frag`], docs/protocol/fragmentation.md): messages over
//!   1,232 bytes travel as MACed fragments, so every datagram fits the IPv6
//!   minimum MTU; a fixed-memory [`frag::Reassembler`] checks each fragment's
//!   MAC before storing it.
//!
//! The protocol, with every byte layout and context string, is the
//! workspace's `docs/protocol/handshake.md`.
//!
//! ```
//! use pqdr_handshake::{Identity, Initiator, InitiatorConfig, Instant, K768, Load, Peer,
//!     PeerStore, ReplayRecord, Reply, Responder, Role, Tai64N};
//! use pqdr_mlkem::ml_kem_768 as k;
//! # use rand_core::{TryRng, TryCryptoRng, Infallible};
//! # struct Rng(u64);
//! # impl TryRng for Rng { type Error = Infallible;
//! #   fn try_next_u32(&mut self) -> Result<u32, Infallible> { Ok(self.try_next_u64()? as u32) }
//! #   fn try_next_u64(&mut self) -> Result<u64, Infallible> { self.0 ^= self.0 << 13; self.0 ^= self.0 >> 7; self.0 ^= self.0 << 17; Ok(self.0) }
//! #   fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Infallible> { for b in d { *b = self.try_next_u64()? as u8; } Ok(()) } }
//! # impl TryCryptoRng for Rng {}
//! # let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
//! // Long-term keys: ML-KEM-768 for both sides, plus a 32-byte σ each.
//! let (dk_i, ek_i) = k::generate(&mut rng);
//! let (dk_r, ek_r) = k::generate(&mut rng);
//! let alice = Identity::<K768>::new(dk_i, &ek_i, [1; 32]);
//! let bob = Identity::<K768>::new(dk_r, &ek_r, [2; 32]);
//!
//! // Bob's peer table: Alice's key and her replay record.
//! struct Table<'a> { alice: &'a k::EncapsulationKey, rec: ReplayRecord }
//! impl PeerStore<K768> for Table<'_> {
//!     fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, K768>> {
//!         let p = Peer::new(self.alice);
//!         (p.key_id() == hpk).then_some(p)
//!     }
//!     fn record(&mut self, _: &[u8; 32]) -> Option<&mut ReplayRecord> { Some(&mut self.rec) }
//! }
//! let mut table = Table { alice: &ek_i, rec: ReplayRecord::new() };
//! let mut responder: Responder<K768> = Responder::new(bob, b"demo", Instant(0), &mut rng)?;
//!
//! // Alice → msg1 → Bob → msg2 → Alice → msg3 → Bob.
//! let cfg = InitiatorConfig::new(Peer::new(&ek_r), b"demo");
//! let now = Instant(0);
//! let clock = Tai64N { secs: 1_700_000_000, nanos: 0 };
//! let mut init = Initiator::start(&cfg, &alice, clock, Tai64N::default(), now, &mut rng)?;
//! let (mut m1, mut m2) = ([0u8; 4096], [0u8; 6144]);
//! let n1 = init.poll_transmit(now, &mut m1).unwrap();
//! let Reply::Msg2(n2) = responder.handle_msg1(&mut table, b"10.0.0.1:5000", &m1[..n1], Load::Normal, now, &mut rng, &mut m2)? else { unreachable!() };
//! let a = init.handle_msg2(&m2[..n2], &alice, now, &mut rng)?;
//! let b = responder.handle_msg3(&mut table, b"10.0.0.1:5000", a.msg3().unwrap(), Load::Normal, now)?;
//! assert_eq!((a.role(), b.role()), (Role::Initiator, Role::Responder));
//! assert_eq!(a.transcript(), b.transcript());
//! # Ok::<(), pqdr_handshake::Error>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

#[cfg(feature = "alloc")]
extern crate alloc;

mod chunk;
mod error;
mod established;
pub mod frag;
mod ids;
mod initiator;
mod kdf;
mod responder;
mod suite;
pub mod wire;
mod x25519;

#[cfg(feature = "test-utils")]
pub mod testing;

pub use error::Error;
pub use established::{Established, MAX_APP_LABEL, MAX_CONTEXT, Msg3Retransmit};
pub use ids::{Identity, Load, OnePeer, Peer, PeerStore, ReplayRecord, Tai64N, key_id};
pub use initiator::{COOKIE_LIFE_MS, GIVE_UP_MS, Initiator, InitiatorConfig, RENEW_MS};
pub use kdf::Coins;
pub use pqdr_ratchet::{Instant, Role};
pub use responder::{ROTATE_MS, Reply, Responder};
#[cfg(feature = "mceliece")]
pub use suite::KMc;
#[cfg(feature = "ntrup")]
pub use suite::KNt;
pub use suite::{Auth, Ephemeral, HYBRID_BIT, K768, MLKEM768_KEM_ID, Mode, Suite, XWING_KEM_ID};
#[cfg(feature = "mldsa")]
pub use suite::{S44, S65, S87};

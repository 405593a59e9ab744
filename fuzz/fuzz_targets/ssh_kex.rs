//! pqdr-ssh-kex on fuzzer input: the packet layer and the key exchange
//! message parsers. The first byte picks the operation (`byte % 6`), the rest
//! is the input. Checks (never a panic):
//!
//! 0. `KexInit::parse`: on `Ok`, every name-list is printable ASCII; the
//!    negotiation against our KEXINIT, both roles, gives a method or
//!    `NoCommonAlgorithm`, and a method only if both lists name it.
//! 1. `Opener::open` in the clear: `Ok` only for exactly `wire_len` bytes,
//!    and then the payload fits inside the packet.
//! 2. `Opener::open` under a fixed chacha20-poly1305 key of an honest packet
//!    xor a fuzz patch: `Ok` (with the sealed payload) iff the patch is zero,
//!    else `Mac` or `PacketLength`; the raw input is opened too.
//! 3. `kex::client_finish` on a fuzz KEX_ECDH_REPLY under a fixed client
//!    share: a typed error (a forged signature over H cannot verify).
//! 4. `kex::server_respond` on a fuzz KEX_ECDH_INIT: `Ok` only if the
//!    `C_INIT` has the method's exact length.
//! 5. `version::parse_line`: an identification is a prefix of the line
//!    without CR LF.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqdr_ssh_kex::hostkey::HostKey;
use pqdr_ssh_kex::hybrid::{self, ClientShare};
use pqdr_ssh_kex::kex::{self, Hello};
use pqdr_ssh_kex::kexinit::{self, KexInit};
use pqdr_ssh_kex::packet::{Opener, Sealer};
use pqdr_ssh_kex::version::{self, Line};
use pqdr_ssh_kex::{Error, Kex};

/// A fixed-stream generator (splitmix64): deterministic runs.
struct Rng(u64);

impl rand_core::TryRng for Rng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Ok(z ^ (z >> 31))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Rng {}

fn ours() -> Vec<u8> {
    let mut v = Vec::new();
    kexinit::write_kexinit(&mut v, &[0; 16], &Kex::ALL, kexinit::Role::Server).unwrap();
    v
}

fn hello<'a>(i: &'a [u8]) -> Hello<'a> {
    Hello {
        v_c: b"SSH-2.0-c",
        v_s: b"SSH-2.0-s",
        i_c: i,
        i_s: i,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, input)) = data.split_first() else {
        return;
    };
    let kex = Kex::ALL[usize::from(input.first().copied().unwrap_or(0) & 3) % 3];
    match op % 6 {
        0 => {
            if let Ok(theirs) = KexInit::parse(input) {
                for l in theirs.lists {
                    assert!(l.iter().all(|&b| (0x21..=0x7e).contains(&b)));
                }
                let ours_bytes = ours();
                let ours = KexInit::parse(&ours_bytes).unwrap();
                for (c, s) in [(&theirs, &ours), (&ours, &theirs)] {
                    match kexinit::negotiate(c, s) {
                        Ok(n) => {
                            let name = n.kex.name().as_bytes();
                            assert!(theirs.lists[0].split(|&b| b == b',').any(|x| x == name));
                        }
                        Err(Error::NoCommonAlgorithm(_)) => {}
                        Err(e) => panic!("negotiate: {e:?}"),
                    }
                }
            }
        }
        1 => {
            let mut wire = input.to_vec();
            let expected = input.get(..4).map(|b| Opener::new().wire_len(b.try_into().unwrap()));
            if let Ok(payload) = Opener::new().open(&mut wire) {
                assert_eq!(expected, Some(Ok(input.len())));
                assert!(payload.len() + 9 <= input.len());
            }
        }
        2 => {
            let key = [0x5au8; 64];
            let payload = input.get(..input.len().min(64)).unwrap_or_default();
            let mut s = Sealer::new();
            s.set_key(&key);
            let honest = s.seal_to_vec(payload, &mut Rng(1)).unwrap();
            let patch = input.get(64..).unwrap_or_default();
            let mut wire = honest.clone();
            for (w, p) in wire.iter_mut().zip(patch) {
                *w ^= p;
            }
            let zero_patch = honest == wire;
            let mut o = Opener::new();
            o.set_key(&key);
            match o.open(&mut wire) {
                Ok(p) => {
                    assert!(zero_patch);
                    assert_eq!(p, payload);
                }
                Err(Error::Mac | Error::PacketLength { .. }) => assert!(!zero_patch),
                Err(e) => panic!("open: {e:?}"),
            }
            let mut o = Opener::new();
            o.set_key(&key);
            let _ = o.open(&mut input.to_vec());
        }
        3 => {
            let i = ours();
            let share = ClientShare::generate(kex, &mut Rng(2));
            assert!(kex::client_finish(share, &hello(&i), input).is_err());
        }
        4 => {
            let i = ours();
            let host = HostKey::from_secret(&[3; 32]);
            let mut reply = Vec::new();
            let r = kex::server_respond(kex, &host, &hello(&i), input, &mut Rng(3), &mut reply);
            if r.is_ok() {
                let c_init = kex::parse_init(input).unwrap();
                assert_eq!(c_init.len(), hybrid::client_init_len(kex));
                assert!(kex::parse_reply(&reply).is_ok());
            }
        }
        _ => {
            if let Ok(Line::Identification(id)) = version::parse_line(input) {
                assert!(input.starts_with(id) && input.len() == id.len() + 2);
            }
        }
    }
});

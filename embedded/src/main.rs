//! Firmware test for Cortex-M4F under QEMU (issue #20); see Cargo.toml.
//!
//! Output lines (parsed by scripts/cortex-m-check.sh):
//! `STACK <set> <operation> <bytes>`, `CHECK <set> <what> ok|FAIL ...`,
//! then `PASS` or `FAIL <n>`; the exit status (semihosting) is nonzero on any
//! failure.
#![no_std]
#![no_main]

mod drbg;
mod stack;

mod kat_sums {
    include!(concat!(env!("OUT_DIR"), "/kat_sums.rs"));
}

use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use drbg::Drbg;
use pqdr_mlkem::{Ciphertext, DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};
use sha2::{Digest, Sha256};

static FAILURES: AtomicU32 = AtomicU32::new(0);

fn check(set: &str, what: &str, ok: bool) {
    if ok {
        hprintln!("CHECK {} {} ok", set, what);
    } else {
        FAILURES.fetch_add(1, Ordering::Relaxed);
        hprintln!("CHECK {} {} FAIL", set, what);
    }
}

fn stack(set: &str, op: &str, used: Option<usize>) {
    match used {
        Some(n) => hprintln!("STACK {} {} {}", set, op, n),
        None => {
            FAILURES.fetch_add(1, Ordering::Relaxed);
            hprintln!("STACK {} {} overflow", set, op);
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// SHA-256 over the text of an `.rsp` record, fed field by field.
struct RspHasher(Sha256);

impl RspHasher {
    fn text(&mut self, s: &str) {
        self.0.update(s.as_bytes());
    }

    /// `name = HEX\n` (upper-case hex, as `fprintBstr`).
    fn field(&mut self, name: &str, bytes: &[u8]) {
        self.text(name);
        self.text(" = ");
        let mut buf = [0u8; 64];
        for chunk in bytes.chunks(32) {
            for (i, b) in chunk.iter().enumerate() {
                buf[2 * i] = HEX[usize::from(b >> 4)];
                buf[2 * i + 1] = HEX[usize::from(b & 15)];
            }
            self.0.update(&buf[..2 * chunk.len()]);
        }
        self.text("\n");
    }

    fn hex_digest(self) -> [u8; 64] {
        let d = self.0.finalize();
        let mut out = [0u8; 64];
        for (i, b) in d.iter().enumerate() {
            out[2 * i] = HEX[usize::from(b >> 4)].to_ascii_lowercase();
            out[2 * i + 1] = HEX[usize::from(b & 15)].to_ascii_lowercase();
        }
        out
    }
}

/// The first seed of the NIST `.req` files: the master DRBG seeded with 0..47.
fn first_kat_seed() -> [u8; 48] {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    #[allow(unused_mut)]
    let mut seed: [u8; 48] = Drbg::new(&entropy).bytes();
    #[cfg(feature = "tamper")]
    {
        seed[0] ^= 1;
    }
    seed
}

/// ML-KEM: the first NIST KAT record (`PQCgenKAT_kem.c`: one 64-byte draw for
/// d ‖ z, one 32-byte draw for m), decapsulation of its ciphertext, a
/// randomized round trip and implicit rejection of a modified ciphertext.
#[inline(never)]
fn mlkem<P: ParameterSet>(want: &str) {
    let set = P::NAME;
    let seed = first_kat_seed();
    let mut drbg = Drbg::new(&seed);
    let d_z: [u8; 64] = drbg.bytes();
    let m: [u8; 32] = drbg.bytes();

    let (dk, used) = stack::measure(|| DecapsulationKey::<P>::from_seed(&d_z));
    stack(set, "keygen", used);
    let ((ct, ss), used) =
        stack::measure(|| dk.encapsulation_key().encapsulate_deterministic(&m));
    stack(set, "encaps", used);
    let (ss2, used) = stack::measure(|| dk.decapsulate(&ct));
    stack(set, "decaps", used);

    let mut h = RspHasher(Sha256::new());
    h.text("count = 0\n");
    h.field("seed", &seed);
    h.field("pk", dk.encapsulation_key().as_bytes().as_ref());
    h.field("sk", dk.as_bytes().as_ref());
    h.field("ct", ct.as_bytes().as_ref());
    h.field("ss", ss.as_bytes());
    let got = h.hex_digest();
    let ok = &got[..] == want.as_bytes();
    if !ok {
        hprintln!(
            "  first record SHA-256 {} want {}",
            core::str::from_utf8(&got).unwrap_or("?"),
            want
        );
    }
    check(set, "kat-first-record-sha256", ok);
    check(set, "kat-decaps", ss2.as_bytes() == ss.as_bytes());

    // Round trip through the randomized API (rng = the KAT DRBG, continued).
    let ((dk2, ek2), used) = stack::measure(|| pqdr_mlkem::generate::<P, _>(&mut drbg));
    stack(set, "generate(rng)", used);
    let ((ct2, ss3), used) = stack::measure(|| ek2.encapsulate(&mut drbg));
    stack(set, "encapsulate(rng)", used);
    let ss4 = dk2.decapsulate(&ct2);
    check(set, "round-trip", ss3.as_bytes() == ss4.as_bytes());

    // A one-bit change of the ciphertext must give another (rejection) secret.
    let mut bad = [0u8; 1568];
    let n = ct2.as_bytes().as_ref().len();
    bad[..n].copy_from_slice(ct2.as_bytes().as_ref());
    bad[n / 2] ^= 0x10;
    let ok = match Ciphertext::<P>::from_bytes(&bad[..n]) {
        Ok(ct3) => dk2.decapsulate(&ct3).as_bytes() != ss3.as_bytes(),
        Err(_) => false,
    };
    check(set, "implicit-rejection", ok);
}

#[entry]
fn main() -> ! {
    hprintln!("pqdr firmware test: Cortex-M4F (thumbv7em-none-eabihf)");
    mlkem::<MlKem512>(kat_sums::ML_KEM_512);
    mlkem::<MlKem768>(kat_sums::ML_KEM_768);
    mlkem::<MlKem1024>(kat_sums::ML_KEM_1024);

    let failures = FAILURES.load(Ordering::Relaxed);
    if failures == 0 {
        hprintln!("PASS");
        debug::exit(debug::EXIT_SUCCESS);
    } else {
        hprintln!("FAIL {}", failures);
        debug::exit(debug::EXIT_FAILURE);
    }
    loop {}
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("PANIC {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}

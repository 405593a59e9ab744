//! ML-KEM (pqdr-mlkem, FIPS 203) on fuzzer input, every parameter set, and
//! differentially against RustCrypto `ml-kem` (hazmat) and `libcrux-ml-kem`
//! (its portable code and its multiplexed API, which runs AVX2 code on an AVX2
//! CPU). The first byte picks the set (`byte % 3`: 512, 768, 1024) and the
//! operation (`byte / 3 % 5`); reads past the end of the input give zeros, so
//! every operation reaches its exact-length paths. Checks:
//!
//! 0. `EncapsulationKey::from_slice` (§7.2): a wrong length is
//!    `Error::Length { expected, actual }`; at the exact length (raw bytes,
//!    coefficients reduced below q, or reduced with one planted coefficient in
//!    q..4095) it accepts exactly when every 12-bit coefficient is below q
//!    (recomputed here), and so do `ml-kem`'s `EncapsulationKey::new` and
//!    libcrux's `validate_public_key`; an accepted key re-encodes to its bytes,
//!    caches `H(ek)` = SHA3-256 (`sha3` crate), and encapsulates a fuzz `m` to
//!    the same ciphertext and secret in all three.
//! 1. `DecapsulationKey::from_slice` (§7.3): a wrong length is `Error::Length`;
//!    at the exact length (raw, or built from a fuzz `dk_PKE` whose 12-bit
//!    values may exceed q, a reduced `ek` with an optional bad coefficient, the
//!    true or a corrupted `H(ek)`, a fuzz `z`) it accepts exactly when the
//!    embedded `ek` passes the modulus check and the stored hash is
//!    SHA3-256(ek), as `ml-kem`'s expanded-key decoding and libcrux's
//!    `validate_private_key_only` + `validate_public_key` do; an accepted key
//!    re-encodes to its bytes, its `encapsulation_key()` is the embedded `ek`,
//!    and an honest and a byte-flipped ciphertext decapsulate to the same
//!    secret in all three.
//! 2. `Ciphertext::from_slice`: a wrong length is `Error::Length`; the exact
//!    length is accepted and re-encodes (also through `from_array`).
//! 3. Decapsulation under a fixed key per set of an arbitrary ciphertext or an
//!    honest one with a fuzz xor patch: no panic, the same secret twice and
//!    in all three implementations; the honest ciphertext gives the
//!    encapsulated secret, a changed one a different (implicit-rejection) one.
//! 4. Key generation from fuzz `(d, z)`: identical `ek` and expanded `dk` in
//!    all three, `to_seed` = `d ‖ z`, `from_seed` and `from_bytes` give the same
//!    key; deterministic encapsulation with a fuzz `m`: identical ciphertext and
//!    secret; decapsulation of the honest ciphertext gives the secret, of a
//!    fuzz-patched one the same implicit-rejection secret in all three.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
#[allow(
    deprecated,
    reason = "the expanded dk form is the one FIPS 203 §7.3 checks"
)]
use ml_kem::ExpandedKeyEncoding as _;
use ml_kem::{Decapsulate as _, KeyExport as _};
use pqdr_mlkem::Error;
use sha3::{Digest as _, Sha3_256};

/// The ML-KEM modulus q (FIPS 203 §2.4).
const Q: u16 = 3329;

/// The fuzz input, read front to back; reads past the end give zeros.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let mut b = [0u8; 1];
        self.fill(&mut b);
        b[0]
    }

    fn u16(&mut self) -> u16 {
        let mut b = [0u8; 2];
        self.fill(&mut b);
        u16::from_le_bytes(b)
    }

    /// Copies the next bytes into `out`, zero-padded when the input ends.
    fn fill(&mut self, out: &mut [u8]) {
        let n = out.len().min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        out[n..].fill(0);
        self.0 = &self.0[n..];
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }

    fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// Coefficient `i` of a ByteEncode₁₂ string (FIPS 203 Algorithm 5), unreduced.
fn coeff(b: &[u8], i: usize) -> u16 {
    let c = &b[3 * (i / 2)..];
    if i.is_multiple_of(2) {
        u16::from(c[0]) | (u16::from(c[1] & 0x0f) << 8)
    } else {
        u16::from(c[1] >> 4) | (u16::from(c[2]) << 4)
    }
}

fn set_coeff(b: &mut [u8], i: usize, v: u16) {
    let c = &mut b[3 * (i / 2)..];
    if i.is_multiple_of(2) {
        c[0] = v as u8;
        c[1] = (c[1] & 0xf0) | ((v >> 8) as u8 & 0x0f);
    } else {
        c[1] = (c[1] & 0x0f) | ((v as u8 & 0x0f) << 4);
        c[2] = (v >> 4) as u8;
    }
}

/// The §7.2 modulus check, written out: every 12-bit value is below q.
fn coeffs_below_q(b: &[u8]) -> bool {
    (0..b.len() / 3 * 2).all(|i| coeff(b, i) < Q)
}

/// Replaces every 12-bit value ≥ q by value − q (a valid encoding).
fn reduce(b: &mut [u8]) {
    for i in 0..b.len() / 3 * 2 {
        let v = coeff(b, i);
        if v >= Q {
            set_coeff(b, i, v - Q);
        }
    }
}

/// A planted out-of-range coefficient: (index, value in q..4095).
fn bad_coeff(inp: &mut Input<'_>) -> (u16, u16) {
    (inp.u16(), Q + inp.u16() % (4096 - Q))
}

fn plant(b: &mut [u8], (i, v): (u16, u16)) {
    let n = b.len() / 3 * 2;
    set_coeff(b, usize::from(i) % n, v);
}

/// XORs `patch` into `bytes` from position `pos` (mod the length), wrapping.
fn xor_patch(bytes: &mut [u8], pos: u16, patch: &[u8]) {
    let n = bytes.len();
    for (j, p) in patch.iter().enumerate().take(n) {
        bytes[(usize::from(pos) + j) % n] ^= p;
    }
}

macro_rules! kem_set {
    ($m:ident, $ours:ident, $rc:ident, $lx:ident) => {
        mod $m {
            use super::*;
            use libcrux_ml_kem::$lx as lx;
            use ml_kem::$rc as rc;
            use pqdr_mlkem::$ours as o;

            const EK: usize = o::ENCAPSULATION_KEY_SIZE;
            const DK: usize = o::DECAPSULATION_KEY_SIZE;
            const CT: usize = o::CIPHERTEXT_SIZE;
            /// Bytes of the encoded `t̂` (and of `dk_PKE`): `384k`.
            const T: usize = EK - 32;

            type LxPk = libcrux_ml_kem::MlKemPublicKey<EK>;
            type LxSk = libcrux_ml_kem::MlKemPrivateKey<DK>;
            type LxCt = libcrux_ml_kem::MlKemCiphertext<CT>;

            /// The three implementations' keys for one key pair.
            struct Keys {
                ours: o::DecapsulationKey,
                rc: rc::DecapsulationKey,
                lx: LxSk,
            }

            /// The fixed key of operation 3 (built once per process).
            fn fixed() -> &'static Keys {
                static K: OnceLock<Keys> = OnceLock::new();
                K.get_or_init(|| keygen(&[0x5a; 32], &[0xa5; 32]))
            }

            /// Key generation in all three; the keys must agree byte for byte.
            fn keygen(d: &[u8; 32], z: &[u8; 32]) -> Keys {
                let mut seed = [0u8; 64];
                seed[..32].copy_from_slice(d);
                seed[32..].copy_from_slice(z);
                let (dk, ek) = o::generate_deterministic(d, z);
                let rc_dk = rc::DecapsulationKey::from_seed(seed.into());
                let lx_kp = lx::generate_key_pair(seed);
                let lp_kp = lx::portable::generate_key_pair(seed);
                // Algorithm 16: ek = ek_PKE, dk = dk_PKE ‖ ek ‖ H(ek) ‖ z.
                assert_eq!(ek.as_bytes(), dk.encapsulation_key().as_bytes());
                assert_eq!(
                    ek.as_bytes().as_slice(),
                    rc_dk.encapsulation_key().to_bytes().as_slice()
                );
                assert_eq!(ek.as_bytes(), lx_kp.public_key().as_slice());
                assert_eq!(ek.as_bytes(), lp_kp.public_key().as_slice());
                #[allow(deprecated, reason = "the expanded form is what we compare")]
                let rc_expanded = rc_dk.to_expanded_bytes();
                assert_eq!(dk.as_bytes().as_slice(), rc_expanded.as_slice());
                assert_eq!(dk.as_bytes(), lx_kp.private_key().as_slice());
                assert_eq!(dk.as_bytes(), lp_kp.private_key().as_slice());
                assert_eq!(&dk.as_bytes()[DK - 32..], z);
                assert_eq!(ek.hash()[..], Sha3_256::digest(ek.as_bytes())[..]);
                assert_eq!(dk.to_seed().as_deref(), Some(&seed));
                let again = o::DecapsulationKey::from_seed(&seed);
                assert_eq!(again.as_bytes(), dk.as_bytes());
                let parsed = o::DecapsulationKey::from_slice(dk.as_bytes()).expect("own dk");
                assert_eq!(parsed.as_bytes(), dk.as_bytes());
                assert!(parsed.to_seed().is_none());
                Keys {
                    ours: dk,
                    rc: rc_dk,
                    lx: LxSk::from(*lx_kp.private_key().as_slice()),
                }
            }

            /// Deterministic encapsulation (Algorithm 17) in all three.
            fn encaps(
                ek: &o::EncapsulationKey,
                rc_ek: &rc::EncapsulationKey,
                lx_pk: &LxPk,
                m: &[u8; 32],
            ) -> (o::Ciphertext, [u8; 32]) {
                let (ct, ss) = ek.encapsulate_deterministic(m);
                let (rc_ct, rc_ss) = rc_ek.encapsulate_deterministic(&(*m).into());
                let (lx_ct, lx_ss) = lx::encapsulate(lx_pk, *m);
                let (lp_ct, lp_ss) = lx::portable::encapsulate(lx_pk, *m);
                assert_eq!(ct.as_bytes().as_slice(), rc_ct.as_slice(), "ct vs ml-kem");
                assert_eq!(ct.as_bytes(), lx_ct.as_slice(), "ct vs libcrux");
                assert_eq!(ct.as_bytes(), lp_ct.as_slice(), "ct vs libcrux portable");
                assert_eq!(ss.as_bytes().as_slice(), rc_ss.as_slice(), "K vs ml-kem");
                assert_eq!(ss.as_bytes(), &lx_ss, "K vs libcrux");
                assert_eq!(ss.as_bytes(), &lp_ss, "K vs libcrux portable");
                (ct, *ss.as_bytes())
            }

            /// Decapsulation (Algorithm 18/21) in all three, twice in ours:
            /// the same secret everywhere.
            fn decaps(keys: &Keys, ct: &[u8; CT]) -> [u8; 32] {
                let c = o::Ciphertext::from_array(ct);
                let ss = keys.ours.decapsulate(&c);
                assert_eq!(
                    ss,
                    keys.ours.decapsulate(&c),
                    "decapsulation not deterministic"
                );
                let rc_ss = keys.rc.decapsulate(&(*ct).into());
                let lx_ct = LxCt::from(*ct);
                let lx_ss = lx::decapsulate(&keys.lx, &lx_ct);
                let lp_ss = lx::portable::decapsulate(&keys.lx, &lx_ct);
                assert_eq!(
                    ss.as_bytes().as_slice(),
                    rc_ss.as_slice(),
                    "decaps vs ml-kem"
                );
                assert_eq!(ss.as_bytes(), &lx_ss, "decaps vs libcrux");
                assert_eq!(ss.as_bytes(), &lp_ss, "decaps vs libcrux portable");
                *ss.as_bytes()
            }

            pub fn run(op: u8, mut inp: Input<'_>) {
                match op {
                    0 => decode_ek(inp),
                    1 => decode_dk(inp),
                    2 => decode_ct(inp.rest()),
                    3 => {
                        let mode = inp.byte();
                        decaps_fixed(mode, inp)
                    }
                    _ => differential(inp),
                }
            }

            /// Operation 0: mode (raw any length / raw exact / reduced /
            /// reduced + planted), m, [planted coefficient], key bytes.
            fn decode_ek(mut inp: Input<'_>) {
                let mode = inp.byte() % 4;
                let m: [u8; 32] = inp.array();
                let bad = bad_coeff(&mut inp);
                if mode == 0 {
                    return check_ek(inp.rest(), &m);
                }
                let mut ek = [0u8; EK];
                inp.fill(&mut ek);
                if mode >= 2 {
                    reduce(&mut ek[..T]);
                }
                if mode == 3 {
                    plant(&mut ek[..T], bad);
                }
                check_ek(&ek, &m)
            }

            fn check_ek(bytes: &[u8], m: &[u8; 32]) {
                let ours = o::EncapsulationKey::from_slice(bytes);
                let Ok(arr) = <[u8; EK]>::try_from(bytes) else {
                    // §7.2 check 1 (type check).
                    let want = Error::Length {
                        what: pqdr_mlkem::Object::EncapsulationKey,
                        expected: EK,
                        actual: bytes.len(),
                    };
                    assert_eq!(ours.err(), Some(want));
                    return;
                };
                // §7.2 check 2 (modulus check).
                let valid = coeffs_below_q(&arr[..T]);
                let rc_ek = rc::EncapsulationKey::new(&arr.into());
                let lx_pk = LxPk::from(arr);
                assert_eq!(rc_ek.is_ok(), valid, "ek check vs ml-kem");
                assert_eq!(
                    lx::validate_public_key(&lx_pk),
                    valid,
                    "ek check vs libcrux"
                );
                assert_eq!(lx::portable::validate_public_key(&lx_pk), valid);
                match ours {
                    Ok(ek) => {
                        assert!(valid, "accepted an ek with a coefficient ≥ q");
                        assert_eq!(ek.as_bytes(), &arr);
                        assert_eq!(ek.hash()[..], Sha3_256::digest(arr)[..]);
                        let rc_ek = rc_ek.expect("checked above");
                        assert_eq!(rc_ek.to_bytes().as_slice(), &arr);
                        let _ = encaps(&ek, &rc_ek, &lx_pk, m);
                    }
                    Err(e) => {
                        assert!(!valid, "rejected a valid ek");
                        assert_eq!(e, Error::InvalidKey);
                    }
                }
            }

            /// Operation 1: mode (raw any length / raw exact / built), flags,
            /// planted coefficient, hash corruption, m, ct patch, then the
            /// key bytes (raw) or `dk_PKE`, `t̂`, ρ, z (built).
            fn decode_dk(mut inp: Input<'_>) {
                let mode = inp.byte() % 4;
                let flags = inp.byte();
                let bad = bad_coeff(&mut inp);
                let (hpos, hxor) = (inp.byte() % 32, inp.byte() | 1);
                let m: [u8; 32] = inp.array();
                let (cpos, cxor) = (inp.u16(), inp.byte() | 1);
                let mut dk = [0u8; DK];
                match mode {
                    0 => return check_dk(inp.rest(), &m, (cpos, cxor)),
                    1 => inp.fill(&mut dk),
                    _ => {
                        // dk_PKE: any 12-bit values (ByteDecode₁₂ reduces mod q).
                        let (dk_pke, rest) = dk.split_at_mut(T);
                        let (ek, rest) = rest.split_at_mut(EK);
                        let (h, z) = rest.split_at_mut(32);
                        inp.fill(dk_pke);
                        inp.fill(ek);
                        inp.fill(z);
                        reduce(&mut ek[..T]);
                        if flags & 1 != 0 {
                            plant(&mut ek[..T], bad);
                        }
                        h.copy_from_slice(&Sha3_256::digest(&*ek));
                        if flags & 2 != 0 {
                            h[usize::from(hpos)] ^= hxor;
                        }
                    }
                }
                check_dk(&dk, &m, (cpos, cxor))
            }

            fn check_dk(bytes: &[u8], m: &[u8; 32], (cpos, cxor): (u16, u8)) {
                let ours = o::DecapsulationKey::from_slice(bytes);
                let Ok(arr) = <[u8; DK]>::try_from(bytes) else {
                    // §7.3 check 2 (decapsulation key type check).
                    let want = Error::Length {
                        what: pqdr_mlkem::Object::DecapsulationKey,
                        expected: DK,
                        actual: bytes.len(),
                    };
                    assert_eq!(ours.err(), Some(want));
                    return;
                };
                let ek = &arr[T..T + EK];
                // §7.3 check 3 (hash check), and §7.2 on the embedded ek.
                let hash_ok = Sha3_256::digest(ek)[..] == arr[T + EK..T + EK + 32];
                let valid = hash_ok && coeffs_below_q(&ek[..T]);
                #[allow(deprecated, reason = "the expanded form is what §7.3 checks")]
                let rc_dk = rc::DecapsulationKey::from_expanded_bytes(&arr.into());
                let lx_sk = LxSk::from(arr);
                let lx_ek = LxPk::from(<[u8; EK]>::try_from(ek).expect("EK bytes"));
                assert_eq!(rc_dk.is_ok(), valid, "dk check vs ml-kem");
                assert_eq!(lx::portable::validate_private_key_only(&lx_sk), hash_ok);
                let ct0 = LxCt::from([0u8; CT]);
                assert_eq!(lx::validate_private_key(&lx_sk, &ct0), hash_ok);
                assert_eq!(lx::validate_public_key(&lx_ek) && hash_ok, valid);
                let dk = match ours {
                    Ok(dk) => dk,
                    Err(e) => {
                        assert!(!valid, "rejected a valid dk");
                        assert_eq!(e, Error::InvalidKey);
                        return;
                    }
                };
                assert!(valid, "accepted a dk failing the §7.3 checks");
                assert_eq!(dk.as_bytes(), &arr);
                assert!(dk.to_seed().is_none());
                assert_eq!(dk.encapsulation_key().as_bytes(), ek);
                let keys = Keys {
                    ours: dk,
                    rc: rc_dk.expect("checked above"),
                    lx: lx_sk,
                };
                let ek_o = keys.ours.encapsulation_key();
                let (ct, _) = encaps(ek_o, keys.rc.encapsulation_key(), &lx_ek, m);
                // A dk_PKE unrelated to ek (built mode) decrypts to some m′,
                // usually implicit rejection: only agreement is checked here;
                // operation 4 checks the honest secret of generated keys.
                let mut ct = *ct.as_bytes();
                let _ = decaps(&keys, &ct);
                xor_patch(&mut ct, cpos, &[cxor]);
                let _ = decaps(&keys, &ct);
            }

            /// Operation 2: any length; the exact length is always accepted.
            fn decode_ct(bytes: &[u8]) {
                match o::Ciphertext::from_slice(bytes) {
                    Ok(ct) => {
                        assert_eq!(bytes.len(), CT);
                        assert_eq!(ct.as_bytes().as_slice(), bytes);
                        assert_eq!(o::Ciphertext::from_array(ct.as_bytes()), ct);
                    }
                    Err(e) => {
                        assert_ne!(bytes.len(), CT, "rejected an exact-length ciphertext");
                        assert_eq!(
                            e,
                            Error::Length {
                                what: pqdr_mlkem::Object::Ciphertext,
                                expected: CT,
                                actual: bytes.len()
                            }
                        );
                    }
                }
                let mut exact = [0u8; CT];
                Input(bytes).fill(&mut exact);
                let ct = o::Ciphertext::from_slice(&exact).expect("exact length");
                assert_eq!(ct.as_bytes(), &exact);
            }

            /// Operation 3: an arbitrary ciphertext (even mode) or an honest
            /// one for a fuzz m with a fuzz xor patch (odd mode).
            fn decaps_fixed(mode: u8, mut inp: Input<'_>) {
                let keys = fixed();
                let mut ct = [0u8; CT];
                if mode % 2 == 0 {
                    inp.fill(&mut ct);
                    let _ = decaps(keys, &ct);
                    return;
                }
                let m: [u8; 32] = inp.array();
                let pos = inp.u16();
                let patch = inp.rest();
                let ek = keys.ours.encapsulation_key();
                let lx_pk = LxPk::from(*ek.as_bytes());
                let (c, ss) = encaps(ek, keys.rc.encapsulation_key(), &lx_pk, &m);
                ct = *c.as_bytes();
                xor_patch(&mut ct, pos, patch);
                let got = decaps(keys, &ct);
                if ct == *c.as_bytes() {
                    assert_eq!(got, ss, "honest ciphertext not decapsulated");
                } else {
                    assert_ne!(got, ss, "changed ciphertext gave the real secret");
                }
            }

            /// Operation 4: d, z, m, patch position, patch.
            fn differential(mut inp: Input<'_>) {
                let d: [u8; 32] = inp.array();
                let z: [u8; 32] = inp.array();
                let m: [u8; 32] = inp.array();
                let pos = inp.u16();
                let patch = inp.rest();
                let keys = keygen(&d, &z);
                let ek = keys.ours.encapsulation_key();
                let lx_pk = LxPk::from(*ek.as_bytes());
                let (c, ss) = encaps(ek, keys.rc.encapsulation_key(), &lx_pk, &m);
                assert_eq!(
                    decaps(&keys, c.as_bytes()),
                    ss,
                    "honest ciphertext not decapsulated"
                );
                let mut ct = *c.as_bytes();
                xor_patch(&mut ct, pos, patch);
                if ct != *c.as_bytes() {
                    assert_ne!(
                        decaps(&keys, &ct),
                        ss,
                        "changed ciphertext gave the real secret"
                    );
                }
            }
        }
    };
}

kem_set!(k512, ml_kem_512, ml_kem_512, mlkem512);
kem_set!(k768, ml_kem_768, ml_kem_768, mlkem768);
kem_set!(k1024, ml_kem_1024, ml_kem_1024, mlkem1024);

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 3 % 5;
    let inp = Input(rest);
    match sel % 3 {
        0 => k512::run(op, inp),
        1 => k768::run(op, inp),
        _ => k1024::run(op, inp),
    }
});

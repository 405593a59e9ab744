//! pqdr-ntrup, every parameter set (sntrup653 … sntrup1277), alone and
//! against PQClean through `pqcrypto-ntruprime` (its `clean` code: the crate is
//! built without `avx2`). Input: `data[0]` selects the operation, `data[1]`
//! the set, the rest is the operation's input. Byte strings of an exact
//! length are drawn from [`Stream`] (the fuzz bytes, then a fixed
//! pseudo-random tail), so the right-length paths are reached.
//!
//! Checked properties:
//! - decode: `EncapsulationKey` / `Ciphertext` / `DecapsulationKey::from_slice`
//!   at the input's own length and at the exact length. A wrong length is
//!   `Error::Length { expected: LEN, actual: len }`; every exact-length string
//!   is an encapsulation key and a ciphertext; an exact-length secret key is
//!   accepted iff f and 1/g are valid `Small_encode` strings (no field 3, no
//!   bit past coefficient p) and its cache is `Hash4(pk) = SHA-512(4 ‖ pk)[..32]`
//!   (both recomputed here from the spec, NTRU Prime §3.1 / §2.3.5), and then
//!   `as_bytes` gives the same bytes and `encapsulation_key` the embedded pk;
//! - arbitrary accepted secret key (fields made valid, cache recomputed):
//!   accepted; decapsulating an arbitrary ciphertext does not panic, is
//!   deterministic, and equals PQClean's decapsulation with the same bytes;
//! - arbitrary ciphertexts under a fixed key per set: no panic, same ct twice
//!   gives the same secret, equal to PQClean's implicit-rejection output, and
//!   not the genuine secret unless it is the genuine ciphertext;
//! - a genuine ciphertext with fuzz-chosen byte flips: no flips gives the
//!   encapsulated secret, any flip another one, and PQClean agrees either way;
//! - our encapsulation with fuzz randomness (fixed key, PQClean's key, or an
//!   arbitrary encapsulation key): `encapsulate_reference` (p 4-byte draws) and
//!   `encapsulate` (one 4p-byte draw) on the same byte stream, and
//!   `encapsulate_deterministic` of r computed here by the spec's
//!   `Short_fromlist`, give the same ciphertext and secret; our and PQClean's
//!   decapsulation give that secret back. An arbitrary exact-length `r_enc` is
//!   accepted iff it encodes a weight-w small polynomial;
//! - PQClean's key pairs import into ours with identical bytes (and the
//!   embedded pk); PQClean's encapsulation to its key and to our fixed key
//!   decapsulates on our side to its secret, also after fuzz-chosen flips
//!   (both sides' implicit rejection equal);
//! - key generation with fuzz randomness: `generate`, `generate_pqclean` and
//!   `generate_deterministic` of f, g, rho computed here by the spec's
//!   `Small_random` / `Short_fromlist` (a g that generate_deterministic
//!   rejects, i.e. not invertible in R/3, is redrawn) give the same key
//!   pair; its secret key is `f_enc ‖ · ‖ pk ‖ rho ‖ Hash4(pk)`, it
//!   re-imports, and PQClean encapsulates to it. Arbitrary exact-length f, g: a non-short f or an invalid g is
//!   rejected; an accepted key satisfies the same layout.
#![no_main]

use std::convert::Infallible;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use pqdr_ntrup::rand_core::{TryCryptoRng, TryRng};
use pqdr_ntrup::{
    ByteArray, Ciphertext, DecapsulationKey, EncapsulationKey, Error, ParameterSet, Sntrup653,
    Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277,
};
use sha2::{Digest, Sha512};

/// The fuzz bytes, then a fixed splitmix64 stream: an RNG for the crate and
/// the source of exact-length byte strings.
#[derive(Clone)]
struct Stream<'a> {
    data: &'a [u8],
    pos: usize,
    ctr: u64,
}

impl<'a> Stream<'a> {
    fn new(data: &'a [u8]) -> Self {
        Stream {
            data,
            pos: 0,
            ctr: 0,
        }
    }

    fn byte(&mut self) -> u8 {
        if let Some(&b) = self.data.get(self.pos) {
            self.pos += 1;
            return b;
        }
        self.ctr = self.ctr.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.ctr;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) as u8
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }

    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    fn words(&mut self, n: usize) -> Vec<u32> {
        (0..n).map(|_| self.word()).collect()
    }
}

impl TryRng for Stream<'_> {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.word())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from(self.word()) | (u64::from(self.word()) << 32))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for b in dst {
            *b = self.byte();
        }
        Ok(())
    }
}

impl TryCryptoRng for Stream<'_> {}

// ---- The spec's encodings and samplers, written here independently ----

fn small_bytes<S: ParameterSet>() -> usize {
    S::P.div_ceil(4)
}
fn ek_len<S: ParameterSet>() -> usize {
    <S::EncapsulationKeyBytes as ByteArray>::LEN
}
fn dk_len<S: ParameterSet>() -> usize {
    <S::DecapsulationKeyBytes as ByteArray>::LEN
}
fn ct_len<S: ParameterSet>() -> usize {
    <S::CiphertextBytes as ByteArray>::LEN
}

/// The 2-bit field of coefficient `i` of a `Small_encode` string.
fn field(enc: &[u8], i: usize) -> u8 {
    (enc[i / 4] >> (2 * (i % 4))) & 3
}

/// A valid `Small_encode` string (NTRU Prime spec §3.1): every coefficient's
/// field is 0..=2 (coefficient + 1) and the fields past coefficient p are 0.
fn small_valid<S: ParameterSet>(enc: &[u8]) -> bool {
    (0..4 * enc.len()).all(|i| {
        if i < S::P {
            field(enc, i) != 3
        } else {
            field(enc, i) == 0
        }
    })
}

/// A valid `Small_encode` string of a polynomial of weight w (`Short`).
fn short_valid<S: ParameterSet>(enc: &[u8]) -> bool {
    small_valid::<S>(enc) && (0..S::P).filter(|&i| field(enc, i) != 1).count() == S::W
}

/// Makes `enc` a valid `Small_encode` string: field 3 becomes 2, fields past p become 0.
fn make_small_valid<S: ParameterSet>(enc: &mut [u8]) {
    for i in 0..4 * enc.len() {
        let f = field(enc, i);
        let new = if i >= S::P {
            0
        } else if f == 3 {
            2
        } else {
            f
        };
        enc[i / 4] = (enc[i / 4] & !(3 << (2 * (i % 4)))) | (new << (2 * (i % 4)));
    }
}

/// `Small_encode`: coefficient + 1, four per byte, little end first.
fn small_encode(coeffs: &[i8]) -> Vec<u8> {
    coeffs
        .chunks(4)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |x, (j, &v)| x | (((v + 1) as u8) << (2 * j)))
        })
        .collect()
}

/// `Short_fromlist` (reference `Short_fromlist`): the first w words tagged
/// ±1 (`& ~1`), the rest 0 (`& ~3 | 1`), sorted, coefficient = low 2 bits - 1.
fn short_fromlist<S: ParameterSet>(words: &[u32]) -> Vec<i8> {
    let mut l: Vec<u32> = words
        .iter()
        .enumerate()
        .map(|(i, &x)| if i < S::W { x & !1 } else { (x & !3) | 1 })
        .collect();
    l.sort_unstable();
    l.iter().map(|&x| (x & 3) as i8 - 1).collect()
}

/// `Small_random`'s coefficient: `((x mod 2^30) * 3 >> 30) - 1`.
fn small_from_u32(x: u32) -> i8 {
    (((u64::from(x & 0x3fff_ffff) * 3) >> 30) as i8) - 1
}

/// `Hash4(pk)`: the first 32 bytes of SHA-512(4 ‖ pk) (NTRU Prime spec §2.3.5).
fn hash4(pk: &[u8]) -> Vec<u8> {
    let mut h = Sha512::new();
    h.update([4u8]);
    h.update(pk);
    h.finalize()[..32].to_vec()
}

// ---- Fixed keys and the PQClean peer ----

/// Per set: our key pair from a fixed DRBG seed with one genuine
/// encapsulation, and one PQClean key pair (system randomness; cached).
struct Fixed<S: ParameterSet> {
    dk: DecapsulationKey<S>,
    ek: EncapsulationKey<S>,
    ct: Ciphertext<S>,
    ss: [u8; 32],
    pq_pk: Vec<u8>,
    pq_sk: Vec<u8>,
}

trait Set: ParameterSet {
    fn fixed() -> &'static Fixed<Self>;
    fn pq_keypair() -> (Vec<u8>, Vec<u8>);
    /// PQClean `crypto_kem_enc`: (ct, ss).
    fn pq_encapsulate(pk: &[u8]) -> (Vec<u8>, Vec<u8>);
    /// PQClean `crypto_kem_dec`.
    fn pq_decapsulate(ct: &[u8], sk: &[u8]) -> Vec<u8>;
}

fn make_fixed<S: Set>(seed: u8) -> Fixed<S> {
    let mut rng = pqdr_kat::Drbg::new(&[seed; 48]);
    let (dk, ek) = DecapsulationKey::<S>::generate(&mut rng);
    let (ct, ss) = ek.encapsulate(&mut rng);
    let (pq_pk, pq_sk) = S::pq_keypair();
    Fixed {
        dk,
        ek,
        ct,
        ss: *ss.as_bytes(),
        pq_pk,
        pq_sk,
    }
}

macro_rules! set {
    ($marker:ty, $pq:ident, $seed:literal) => {
        impl Set for $marker {
            fn fixed() -> &'static Fixed<Self> {
                static F: OnceLock<Fixed<$marker>> = OnceLock::new();
                F.get_or_init(|| make_fixed($seed))
            }
            fn pq_keypair() -> (Vec<u8>, Vec<u8>) {
                let (pk, sk) = pqcrypto_ntruprime::$pq::keypair();
                (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
            }
            fn pq_encapsulate(pk: &[u8]) -> (Vec<u8>, Vec<u8>) {
                let pk = pqcrypto_ntruprime::$pq::PublicKey::from_bytes(pk).expect("pk length");
                let (ss, ct) = pqcrypto_ntruprime::$pq::encapsulate(&pk);
                (ct.as_bytes().to_vec(), ss.as_bytes().to_vec())
            }
            fn pq_decapsulate(ct: &[u8], sk: &[u8]) -> Vec<u8> {
                let ct = pqcrypto_ntruprime::$pq::Ciphertext::from_bytes(ct).expect("ct length");
                let sk = pqcrypto_ntruprime::$pq::SecretKey::from_bytes(sk).expect("sk length");
                pqcrypto_ntruprime::$pq::decapsulate(&ct, &sk)
                    .as_bytes()
                    .to_vec()
            }
        }
    };
}

set!(Sntrup653, sntrup653, 1);
set!(Sntrup761, sntrup761, 2);
set!(Sntrup857, sntrup857, 3);
set!(Sntrup953, sntrup953, 4);
set!(Sntrup1013, sntrup1013, 5);
set!(Sntrup1277, sntrup1277, 6);

// ---- Operations ----

fn length_err(what: pqdr_ntrup::Object, expected: usize, actual: usize) -> Error {
    Error::Length {
        what,
        expected,
        actual,
    }
}

/// Our decapsulation of `ct` under `dk` twice (equal) and PQClean's under the
/// same secret-key bytes (equal); returns the secret.
fn decap_both<S: Set>(dk: &DecapsulationKey<S>, ct: &Ciphertext<S>) -> [u8; 32] {
    let ss = *dk.decapsulate(ct).as_bytes();
    assert_eq!(
        &ss,
        dk.decapsulate(ct).as_bytes(),
        "{}: decapsulation not deterministic",
        S::NAME
    );
    let pq = S::pq_decapsulate(ct.as_bytes().as_ref(), dk.as_bytes().as_ref());
    assert_eq!(
        &ss[..],
        &pq[..],
        "{}: decapsulation differs from PQClean",
        S::NAME
    );
    ss
}

/// Checks `from_bytes` of all three types on `bytes`.
fn check_decode<S: Set>(bytes: &[u8]) {
    let len = bytes.len();
    match EncapsulationKey::<S>::from_slice(bytes) {
        Ok(ek) => {
            assert_eq!(len, ek_len::<S>());
            assert_eq!(ek.as_bytes().as_ref(), bytes);
        }
        Err(e) => {
            assert_ne!(len, ek_len::<S>(), "{}: exact-length ek rejected", S::NAME);
            assert_eq!(e, length_err(pqdr_ntrup::Object::EncapsulationKey, ek_len::<S>(), len));
        }
    }
    match Ciphertext::<S>::from_slice(bytes) {
        Ok(ct) => {
            assert_eq!(len, ct_len::<S>());
            assert_eq!(ct.as_bytes().as_ref(), bytes);
            // Arbitrary ciphertexts under the fixed key: same secret twice, PQClean agrees.
            let f = S::fixed();
            let ss = decap_both(&f.dk, &ct);
            if ct != f.ct {
                assert_ne!(
                    ss,
                    f.ss,
                    "{}: another ciphertext gives the genuine secret",
                    S::NAME
                );
            }
        }
        Err(e) => {
            assert_ne!(len, ct_len::<S>(), "{}: exact-length ct rejected", S::NAME);
            assert_eq!(e, length_err(pqdr_ntrup::Object::Ciphertext, ct_len::<S>(), len));
        }
    }
    let sb = small_bytes::<S>();
    let expect_ok = len == dk_len::<S>()
        && small_valid::<S>(&bytes[..sb])
        && small_valid::<S>(&bytes[sb..2 * sb])
        && hash4(&bytes[2 * sb..2 * sb + ek_len::<S>()])[..] == bytes[len - 32..];
    match DecapsulationKey::<S>::from_slice(bytes) {
        Ok(dk) => {
            assert!(expect_ok, "{}: invalid dk accepted", S::NAME);
            assert_eq!(dk.as_bytes().as_ref(), bytes);
            let pk = &bytes[2 * sb..2 * sb + ek_len::<S>()];
            assert_eq!(dk.encapsulation_key().as_bytes().as_ref(), pk);
        }
        Err(e) if len != dk_len::<S>() => assert_eq!(e, length_err(pqdr_ntrup::Object::DecapsulationKey, dk_len::<S>(), len)),
        Err(e) => {
            assert!(!expect_ok, "{}: valid dk rejected", S::NAME);
            assert_eq!(e, Error::InvalidKey);
        }
    }
}

/// Op 0: decoding at the input's own length and at each exact length.
fn op_decode<S: Set>(input: &[u8]) {
    check_decode::<S>(input);
    for len in [ek_len::<S>(), ct_len::<S>(), dk_len::<S>()] {
        check_decode::<S>(&Stream::new(input).bytes(len));
    }
}

/// Op 1: an arbitrary accepted secret key (f, 1/g made valid, cache
/// recomputed) decapsulating an arbitrary ciphertext.
fn op_arbitrary_key<S: Set>(input: &[u8]) {
    let sb = small_bytes::<S>();
    let mut s = Stream::new(input);
    let mut sk = s.bytes(dk_len::<S>());
    make_small_valid::<S>(&mut sk[..sb]);
    make_small_valid::<S>(&mut sk[sb..2 * sb]);
    let cache = hash4(&sk[2 * sb..2 * sb + ek_len::<S>()]);
    let n = sk.len();
    sk[n - 32..].copy_from_slice(&cache);
    let dk = DecapsulationKey::<S>::from_slice(&sk)
        .unwrap_or_else(|e| panic!("{}: valid dk rejected: {e}", S::NAME));
    assert_eq!(dk.as_bytes().as_ref(), &sk[..]);
    check_decode::<S>(&sk);
    let ct = Ciphertext::<S>::from_slice(&s.bytes(ct_len::<S>())).expect("exact length");
    decap_both(&dk, &ct);
}

/// XORs bytes of `ct` at the (u16 position, xor) triples of `input`; whether
/// `ct` changed (two flips of one byte may cancel).
fn flip(ct: &mut [u8], input: &[u8]) -> bool {
    let before = ct.to_vec();
    for c in input.chunks_exact(3) {
        let pos = usize::from(u16::from_le_bytes([c[0], c[1]])) % ct.len();
        ct[pos] ^= c[2];
    }
    before != ct
}

/// Op 2: a genuine ciphertext of the fixed key with fuzz-chosen flips.
fn op_flipped<S: Set>(input: &[u8]) {
    let f = S::fixed();
    let mut bytes = f.ct.as_bytes().as_ref().to_vec();
    flip(&mut bytes, input);
    let ct = Ciphertext::<S>::from_slice(&bytes).expect("exact length");
    let ss = decap_both(&f.dk, &ct);
    if ct == f.ct {
        assert_eq!(ss, f.ss, "{}: genuine ciphertext not decapsulated", S::NAME);
    } else {
        assert_ne!(
            ss,
            f.ss,
            "{}: flipped ciphertext gives the genuine secret",
            S::NAME
        );
    }
}

/// Op 3: our encapsulation with fuzz randomness.
fn op_encapsulate<S: Set>(input: &[u8]) {
    let (mode, input) = input.split_first().unwrap_or((&0, &[]));
    let f = S::fixed();
    let pq_dk;
    let arbitrary;
    let (ek, sk): (&EncapsulationKey<S>, Option<&[u8]>) = match mode % 3 {
        0 => (&f.ek, Some(f.dk.as_bytes().as_ref())),
        1 => {
            pq_dk = DecapsulationKey::<S>::from_slice(&f.pq_sk).expect("PQClean sk");
            (pq_dk.encapsulation_key(), Some(&f.pq_sk[..]))
        }
        _ => {
            arbitrary = EncapsulationKey::<S>::from_slice(&Stream::new(input).bytes(ek_len::<S>()))
                .expect("exact length");
            (&arbitrary, None)
        }
    };
    let (ct1, ss1) = ek.encapsulate_reference(&mut Stream::new(input));
    let (ct2, ss2) = ek.encapsulate(&mut Stream::new(input));
    let r = short_fromlist::<S>(&Stream::new(input).words(S::P));
    let mut r_enc = S::InputBytes::zeroed();
    r_enc.as_mut().copy_from_slice(&small_encode(&r));
    let (ct3, ss3) = ek
        .encapsulate_deterministic(&r_enc)
        .unwrap_or_else(|e| panic!("{}: Short_fromlist output rejected: {e}", S::NAME));
    assert!(
        ct1 == ct2 && ct1 == ct3,
        "{}: encapsulations differ",
        S::NAME
    );
    assert!(
        ss1.as_bytes() == ss2.as_bytes() && ss1.as_bytes() == ss3.as_bytes(),
        "{}: encapsulated secrets differ",
        S::NAME
    );
    if let Some(sk) = sk {
        let dk = DecapsulationKey::<S>::from_slice(sk).expect("valid sk");
        assert_eq!(
            &decap_both(&dk, &ct1),
            ss1.as_bytes(),
            "{}: round trip",
            S::NAME
        );
    }
    // An arbitrary exact-length r_enc: accepted iff it is a weight-w small encoding.
    let mut raw = S::InputBytes::zeroed();
    raw.as_mut()
        .copy_from_slice(&Stream::new(input).bytes(small_bytes::<S>()));
    match ek.encapsulate_deterministic(&raw) {
        Ok((ct, ss)) => {
            assert!(
                short_valid::<S>(raw.as_ref()),
                "{}: invalid r_enc accepted",
                S::NAME
            );
            if let Some(sk) = sk {
                let dk = DecapsulationKey::<S>::from_slice(sk).expect("valid sk");
                assert_eq!(&decap_both(&dk, &ct), ss.as_bytes());
            }
        }
        Err(e) => {
            assert!(
                !short_valid::<S>(raw.as_ref()),
                "{}: valid r_enc rejected",
                S::NAME
            );
            assert_eq!(e, Error::InvalidInput);
        }
    }
}

/// Op 4: PQClean's keys and encapsulations on our side.
fn op_pqclean<S: Set>(input: &[u8]) {
    let f = S::fixed();
    let dk = DecapsulationKey::<S>::from_slice(&f.pq_sk)
        .unwrap_or_else(|e| panic!("{}: PQClean sk rejected: {e}", S::NAME));
    assert_eq!(dk.as_bytes().as_ref(), &f.pq_sk[..]);
    assert_eq!(dk.encapsulation_key().as_bytes().as_ref(), &f.pq_pk[..]);
    let ek = EncapsulationKey::<S>::from_slice(&f.pq_pk).expect("PQClean pk");
    assert_eq!(ek.as_bytes().as_ref(), &f.pq_pk[..]);
    for (dk, pk) in [(&dk, &f.pq_pk[..]), (&f.dk, f.ek.as_bytes().as_ref())] {
        let (mut ct, ss) = S::pq_encapsulate(pk);
        let changed = flip(&mut ct, input);
        let ours = decap_both(dk, &Ciphertext::<S>::from_slice(&ct).expect("ct length"));
        assert_eq!(
            &ours[..] == &ss[..],
            !changed,
            "{}: PQClean encapsulation",
            S::NAME
        );
    }
}

/// Op 5: key generation with fuzz randomness, and from arbitrary encodings.
fn op_keygen<S: Set>(input: &[u8]) {
    let sb = small_bytes::<S>();
    let (dk1, ek1) = DecapsulationKey::<S>::generate(&mut Stream::new(input));
    let (dk2, ek2) = DecapsulationKey::<S>::generate_pqclean(&mut Stream::new(input));
    // The reference order: Small_random(g) until g is invertible in R/3,
    // Short_random(f), rho. f is short by construction, so
    // generate_deterministic fails only for a g that is not invertible: then
    // the words read for f and rho are the next g's.
    let mut s = Stream::new(input);
    let (f_enc, rho, (dk3, ek3)) = loop {
        let g: Vec<i8> = s.words(S::P).into_iter().map(small_from_u32).collect();
        let g_enc = to_input::<S>(&small_encode(&g));
        let mut t = s.clone();
        let f_enc = to_input::<S>(&small_encode(&short_fromlist::<S>(&t.words(S::P))));
        let rho = to_input::<S>(&t.bytes(sb));
        match DecapsulationKey::<S>::generate_deterministic(&f_enc, &g_enc, &rho) {
            Ok(pair) => break (f_enc, rho, pair),
            Err(e) => assert_eq!(e, Error::InvalidInput),
        }
    };
    assert!(
        dk1 == dk2 && dk1 == dk3,
        "{}: key generations differ",
        S::NAME
    );
    assert!(
        ek1 == ek2 && ek1 == ek3,
        "{}: encapsulation keys differ",
        S::NAME
    );
    check_key::<S>(&dk1, &ek1, f_enc.as_ref(), rho.as_ref());

    // Arbitrary exact-length encodings.
    let mut s = Stream::new(input);
    let (f_raw, g_raw, rho) = (
        to_input::<S>(&s.bytes(sb)),
        to_input::<S>(&s.bytes(sb)),
        to_input::<S>(&s.bytes(sb)),
    );
    match DecapsulationKey::<S>::generate_deterministic(&f_raw, &g_raw, &rho) {
        Ok((dk, ek)) => {
            assert!(
                short_valid::<S>(f_raw.as_ref()),
                "{}: non-short f accepted",
                S::NAME
            );
            assert!(
                small_valid::<S>(g_raw.as_ref()),
                "{}: invalid g accepted",
                S::NAME
            );
            check_key::<S>(&dk, &ek, f_raw.as_ref(), rho.as_ref());
        }
        Err(e) => {
            assert_eq!(e, Error::InvalidInput);
            // Only a g not invertible in R/3 may reject valid encodings.
            if short_valid::<S>(f_raw.as_ref()) && small_valid::<S>(g_raw.as_ref()) {
                // A fixed short f: generate_deterministic as a test of g alone.
                let mut one = vec![0i8; S::P];
                one[..S::W].fill(1);
                let fixed_f = to_input::<S>(&small_encode(&one));
                assert!(
                    DecapsulationKey::<S>::generate_deterministic(&fixed_f, &g_raw, &rho).is_err(),
                    "{}: valid f rejected with an invertible g",
                    S::NAME
                );
            }
        }
    }
}

fn to_input<S: ParameterSet>(bytes: &[u8]) -> S::InputBytes {
    let mut out = S::InputBytes::zeroed();
    out.as_mut().copy_from_slice(bytes);
    out
}

/// A generated key: `sk = f_enc ‖ Small_encode(1/g) ‖ pk ‖ rho ‖ Hash4(pk)`,
/// re-imports, and PQClean's encapsulation to pk decapsulates on both sides.
fn check_key<S: Set>(dk: &DecapsulationKey<S>, ek: &EncapsulationKey<S>, f_enc: &[u8], rho: &[u8]) {
    let sb = small_bytes::<S>();
    let sk = dk.as_bytes().as_ref();
    let pk = ek.as_bytes().as_ref();
    assert_eq!(&sk[..sb], f_enc, "{}: sk does not start with f", S::NAME);
    assert!(small_valid::<S>(&sk[sb..2 * sb]));
    assert_eq!(&sk[2 * sb..2 * sb + pk.len()], pk);
    assert_eq!(&sk[2 * sb + pk.len()..3 * sb + pk.len()], rho);
    assert_eq!(sk[sk.len() - 32..], hash4(pk)[..]);
    assert_eq!(dk.encapsulation_key(), ek);
    let again = DecapsulationKey::<S>::from_slice(sk).expect("generated sk");
    assert!(&again == dk);
    let (ct, ss) = S::pq_encapsulate(pk);
    let ours = decap_both(dk, &Ciphertext::<S>::from_slice(&ct).expect("ct length"));
    assert_eq!(
        &ours[..],
        &ss[..],
        "{}: PQClean encapsulation to our key",
        S::NAME
    );
}

fn run<S: Set>(op: u8, input: &[u8]) {
    match op % 6 {
        0 => op_decode::<S>(input),
        1 => op_arbitrary_key::<S>(input),
        2 => op_flipped::<S>(input),
        3 => op_encapsulate::<S>(input),
        4 => op_pqclean::<S>(input),
        _ => op_keygen::<S>(input),
    }
}

fuzz_target!(|data: &[u8]| {
    let [op, set, input @ ..] = data else {
        return;
    };
    match set % 6 {
        0 => run::<Sntrup653>(*op, input),
        1 => run::<Sntrup761>(*op, input),
        2 => run::<Sntrup857>(*op, input),
        3 => run::<Sntrup953>(*op, input),
        4 => run::<Sntrup1013>(*op, input),
        _ => run::<Sntrup1277>(*op, input),
    }
});

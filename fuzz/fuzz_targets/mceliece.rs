//! Classic McEliece (pqdr-mceliece, all 20 parameter sets) on untrusted bytes,
//! with `pq-mceliece` 0.3 (hazmat API; 18 sets, no `348864pc`/`348864pcf`) as
//! the differential peer.
//!
//! Input: `op` (0xFF: keygen, else `op % 15`), `set` (% 20), `flags`,
//! payload. Checks, by operation:
//! * decoding (`ct_*`, `sk_*`, `pk_*`), every set, arbitrary lengths (the raw
//!   payload) and the exact length (the payload repeated or cut to the size,
//!   or the size +- a fuzz-chosen delta): a wrong length is
//!   `Error::Length { expected: size, actual: len }`; at the right length the
//!   verdict equals the spec's format rule recomputed here (Classic McEliece
//!   spec §3.1 zero padding bits of every public-key row and §3.2 of C0, both
//!   6960119 only; §3.3 pivot word c = 2^32 - 1, or of weight 32 for the `f`
//!   sets, and Goppa coefficients below 2^m), `Ciphertext`, `DecapsulationKey`,
//!   `EncapsulationKey` (`from_bytes`, `from_boxed`) and
//!   `validate_encapsulation_key` agree, the peer's padding verdict agrees, and
//!   an accepted input gives the same bytes back. An accepted arbitrary secret
//!   key decapsulates a ciphertext without panic, twice to the same secret,
//!   the same through `prepare`, `decapsulate_bytes` and the array function;
//!   for the peer's sets the peer's secret is the same.
//! * `decap`: fixed keys (`generate_deterministic` of a fixed seed, built once)
//!   of 348864, 348864pc, 460896, 460896pc; a pc set's keys equal its base
//!   set's and the peer's keys equal ours. Arbitrary ciphertexts: no panic,
//!   same secret twice and through every entry point, the peer's secret
//!   equal. Genuine ciphertexts (encapsulation with fuzz-chosen randomness,
//!   ours and the peer's byte-identical) decapsulate to the encapsulated
//!   secret; with a flipped bit, all implementations agree on a different one.
//! * `encap`: every set, the fixed real key or a fixed pseudo-random public key
//!   (zero padding) per size; `StreamingEncapsulation` fed in fuzz-chosen
//!   chunks equals the one-shot `encapsulate_into` and
//!   `EncapsulationKey::encapsulate` with the same randomness, and the peer's
//!   encapsulation; too few bytes (`Length`, actual = bytes fed), a chunk
//!   overrunning the key (`Length`, actual = total; the chunk is not absorbed,
//!   the stream still finishes to the one-shot result) and a corrupted chunk
//!   (nonzero padding: `InvalidKey` here, `EncapsulationKeyPadding` from the
//!   peer; otherwise the one-shot result of the corrupted key) are typed
//!   errors or the right result, never a panic.
//! * `keygen` (op byte 0xFF only): deterministic key generation from a fuzz
//!   seed on 348864 (460896 for 1 in 64 of those) gives the peer's public and
//!   secret key byte for byte; the keys parse; both implementations
//!   encapsulate identically and decapsulate to the same secret.
#![no_main]

mod mceliece_model;

use std::marker::PhantomData;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mceliece_model::*;
use pq_mceliece::hazmat as peer;
use pqdr_mceliece::{
    self as mc, Buf, Ciphertext, DecapsulationKey, EncapsulationKey, Error, ParameterSet,
    StreamingEncapsulation,
};

/// The key-generation seed delta of the fixed keys.
const SEED: [u8; 32] = *b"pqdr-mceliece fuzz fixed seed 32";

// ---------------------------------------------------------------------------
// The sets.

struct Keys<P: ParameterSet> {
    dk: DecapsulationKey<P>,
    ek: EncapsulationKey<P>,
}

trait Set: ParameterSet {
    const PK: usize;
    const SK: usize;
    const CT: usize;
    /// (m, n, t) class 0..5: the sets sharing a public-key size.
    const CLASS: usize;
    type Peer: PeerOps;
    /// The fixed keys (348864, 460896 and their pc sets).
    fn keys() -> Option<&'static Keys<Self>>;
}

/// The fixed keys of `P`; a pc set's keys equal its base set `B`'s
/// (key generation is unchanged), and the peer's keys equal ours.
fn fixed_keys<P: Set, B: Set>() -> Keys<P> {
    let (dk, ek) = mc::generate_deterministic::<P>(&SEED);
    if P::NAME != B::NAME {
        let b = B::keys().unwrap();
        assert_eq!(dk.as_bytes().as_ref(), b.dk.as_bytes().as_ref());
        assert_eq!(ek.as_bytes().as_ref(), b.ek.as_bytes().as_ref());
    }
    if <P::Peer as PeerOps>::PRESENT {
        let (pk, sk) = <P::Peer as PeerOps>::keygen(&SEED);
        assert!(pk == ek.as_bytes().as_ref(), "{}: peer pk differs", P::NAME);
        assert!(sk == dk.as_bytes().as_ref(), "{}: peer sk differs", P::NAME);
    }
    Keys { dk, ek }
}

macro_rules! set {
    ($ty:ident, $module:ident, $peer:ty, $class:expr) => {
        set!(@impl $ty, $module, $peer, $class, fn keys() -> Option<&'static Keys<Self>> { None });
    };
    ($ty:ident, $module:ident, $peer:ty, $class:expr, keys = $base:ident) => {
        set!(@impl $ty, $module, $peer, $class, fn keys() -> Option<&'static Keys<Self>> {
            static K: OnceLock<Keys<mc::$ty>> = OnceLock::new();
            Some(K.get_or_init(fixed_keys::<mc::$ty, mc::$base>))
        });
    };
    (@impl $ty:ident, $module:ident, $peer:ty, $class:expr, $keys:item) => {
        impl Set for mc::$ty {
            const PK: usize = mc::$module::ENCAPSULATION_KEY_SIZE;
            const SK: usize = mc::$module::DECAPSULATION_KEY_SIZE;
            const CT: usize = mc::$module::CIPHERTEXT_SIZE;
            const CLASS: usize = $class;
            type Peer = $peer;
            $keys
        }
    };
}

set!(
    Mceliece348864,
    mceliece348864,
    Peer<peer::McEliece348864>,
    0,
    keys = Mceliece348864
);
set!(
    Mceliece348864f,
    mceliece348864f,
    Peer<peer::McEliece348864f>,
    0
);
set!(
    Mceliece460896,
    mceliece460896,
    Peer<peer::McEliece460896>,
    1,
    keys = Mceliece460896
);
set!(
    Mceliece460896f,
    mceliece460896f,
    Peer<peer::McEliece460896f>,
    1
);
set!(
    Mceliece6688128,
    mceliece6688128,
    Peer<peer::McEliece6688128>,
    2
);
set!(
    Mceliece6688128f,
    mceliece6688128f,
    Peer<peer::McEliece6688128f>,
    2
);
set!(
    Mceliece6960119,
    mceliece6960119,
    Peer<peer::McEliece6960119>,
    3
);
set!(
    Mceliece6960119f,
    mceliece6960119f,
    Peer<peer::McEliece6960119f>,
    3
);
set!(
    Mceliece8192128,
    mceliece8192128,
    Peer<peer::McEliece8192128>,
    4
);
set!(
    Mceliece8192128f,
    mceliece8192128f,
    Peer<peer::McEliece8192128f>,
    4
);
// pq-mceliece has no 348864pc / 348864pcf (not in the ISO draft's list it follows).
set!(
    Mceliece348864pc,
    mceliece348864pc,
    NoPeer,
    0,
    keys = Mceliece348864
);
set!(Mceliece348864pcf, mceliece348864pcf, NoPeer, 0);
set!(
    Mceliece460896pc,
    mceliece460896pc,
    Peer<peer::McEliece460896pc>,
    1,
    keys = Mceliece460896
);
set!(
    Mceliece460896pcf,
    mceliece460896pcf,
    Peer<peer::McEliece460896pcf>,
    1
);
set!(
    Mceliece6688128pc,
    mceliece6688128pc,
    Peer<peer::McEliece6688128pc>,
    2
);
set!(
    Mceliece6688128pcf,
    mceliece6688128pcf,
    Peer<peer::McEliece6688128pcf>,
    2
);
set!(
    Mceliece6960119pc,
    mceliece6960119pc,
    Peer<peer::McEliece6960119pc>,
    3
);
set!(
    Mceliece6960119pcf,
    mceliece6960119pcf,
    Peer<peer::McEliece6960119pcf>,
    3
);
set!(
    Mceliece8192128pc,
    mceliece8192128pc,
    Peer<peer::McEliece8192128pc>,
    4
);
set!(
    Mceliece8192128pcf,
    mceliece8192128pcf,
    Peer<peer::McEliece8192128pcf>,
    4
);

/// Runs `$f::<Set>(args)` for set number `$i` (0..20: the round-4 sets in
/// README order, then their pc sets).
macro_rules! dispatch {
    ($i:expr, $f:ident($($a:expr),*)) => {
        match $i {
            0 => $f::<mc::Mceliece348864>($($a),*),
            1 => $f::<mc::Mceliece348864f>($($a),*),
            2 => $f::<mc::Mceliece460896>($($a),*),
            3 => $f::<mc::Mceliece460896f>($($a),*),
            4 => $f::<mc::Mceliece6688128>($($a),*),
            5 => $f::<mc::Mceliece6688128f>($($a),*),
            6 => $f::<mc::Mceliece6960119>($($a),*),
            7 => $f::<mc::Mceliece6960119f>($($a),*),
            8 => $f::<mc::Mceliece8192128>($($a),*),
            9 => $f::<mc::Mceliece8192128f>($($a),*),
            10 => $f::<mc::Mceliece348864pc>($($a),*),
            11 => $f::<mc::Mceliece348864pcf>($($a),*),
            12 => $f::<mc::Mceliece460896pc>($($a),*),
            13 => $f::<mc::Mceliece460896pcf>($($a),*),
            14 => $f::<mc::Mceliece6688128pc>($($a),*),
            15 => $f::<mc::Mceliece6688128pcf>($($a),*),
            16 => $f::<mc::Mceliece6960119pc>($($a),*),
            17 => $f::<mc::Mceliece6960119pcf>($($a),*),
            18 => $f::<mc::Mceliece8192128pc>($($a),*),
            19 => $f::<mc::Mceliece8192128pcf>($($a),*),
            _ => unreachable!(),
        }
    };
}

/// A fixed pseudo-random public key per size class, padding bits zero (any
/// such matrix is a valid public key for encapsulation).
fn random_pk<P: Set>(s: &Spec) -> &'static [u8] {
    static PK: [OnceLock<Box<[u8]>>; 5] = [const { OnceLock::new() }; 5];
    PK[P::CLASS].get_or_init(|| {
        let mut state = P::CLASS as u64;
        let mut pk = vec![0u8; P::PK];
        for c in pk.chunks_mut(8) {
            c.copy_from_slice(&splitmix(&mut state).to_le_bytes()[..c.len()]);
        }
        s.clear_pk_padding(&mut pk);
        pk.into_boxed_slice()
    })
}

// ---------------------------------------------------------------------------
// Helpers.

/// `src` repeated (or cut) to `len` bytes; zeros if `src` is empty.
fn expand(src: &[u8], len: usize) -> Vec<u8> {
    if src.is_empty() {
        return vec![0; len];
    }
    let mut v = Vec::with_capacity(len);
    v.extend_from_slice(&src[..src.len().min(len)]);
    // Doubling keeps the period: v is always whole copies of src until the last step.
    while v.len() < len {
        let k = v.len().min(len - v.len());
        v.extend_from_within(..k);
    }
    v
}

/// The length of an "exact" input: the size, or the size + a signed delta if
/// flag 0x01 is set.
fn length(size: usize, flags: u8, delta: u8) -> usize {
    if flags & 1 == 0 {
        size
    } else {
        size.saturating_add_signed(isize::from(delta as i8))
    }
}

fn len_err(what: pqdr_mceliece::Object, expected: usize, actual: usize) -> Error {
    Error::Length {
        what,
        expected,
        actual,
    }
}

// ---------------------------------------------------------------------------
// Decoding of the three public types.

fn check_ct<P: Set>(bytes: &[u8]) {
    let s = spec::<P>();
    let r = Ciphertext::<P>::from_slice(bytes);
    if bytes.len() != s.ct {
        assert_eq!(r.err(), Some(len_err(pqdr_mceliece::Object::Ciphertext, s.ct, bytes.len())));
        return;
    }
    let ok = s.ct_ok(bytes);
    match r {
        Ok(c) => {
            assert!(ok, "{}: C0 padding accepted", P::NAME);
            assert_eq!(c.as_bytes().as_ref(), bytes);
        }
        Err(e) => {
            assert!(!ok, "{}: valid ciphertext rejected", P::NAME);
            assert_eq!(e, Error::InvalidCiphertext);
        }
    }
    if <P::Peer as PeerOps>::PRESENT {
        assert_eq!(<P::Peer as PeerOps>::ct_padding_ok(bytes), ok);
    }
}

fn check_pk<P: Set>(bytes: &[u8]) {
    let s = spec::<P>();
    let r = EncapsulationKey::<P>::from_slice(bytes);
    let v = mc::validate_encapsulation_key::<P>(bytes);
    if <P::Peer as PeerOps>::PRESENT {
        let (pk_len_ok, _, _) = <P::Peer as PeerOps>::lengths_ok(bytes.len(), 0, 0);
        assert_eq!(pk_len_ok, bytes.len() == s.pk);
    }
    if bytes.len() != s.pk {
        assert_eq!(r.err(), Some(len_err(pqdr_mceliece::Object::EncapsulationKey, s.pk, bytes.len())));
        assert_eq!(v, Err(len_err(pqdr_mceliece::Object::EncapsulationKey, s.pk, bytes.len())));
        return;
    }
    let ok = s.pk_ok(bytes);
    assert_eq!(v.is_ok(), ok, "{}: validate_encapsulation_key", P::NAME);
    if !ok {
        assert_eq!(v, Err(Error::InvalidKey));
    }
    let mut boxed = <P::PkBytes as Buf<u8>>::boxed_zeroed();
    AsMut::<[u8]>::as_mut(&mut *boxed).copy_from_slice(bytes);
    let rb = EncapsulationKey::<P>::from_boxed(boxed);
    match (r, rb) {
        (Ok(k), Ok(kb)) => {
            assert!(ok, "{}: public-key padding accepted", P::NAME);
            assert!(k.as_bytes().as_ref() == bytes);
            assert!(k == kb);
        }
        (Err(e), Err(eb)) => {
            assert!(!ok, "{}: valid public key rejected", P::NAME);
            assert_eq!((e, eb), (Error::InvalidKey, Error::InvalidKey));
        }
        _ => panic!("{}: from_bytes and from_boxed disagree", P::NAME),
    }
    if <P::Peer as PeerOps>::PRESENT {
        assert_eq!(<P::Peer as PeerOps>::pk_padding_ok(bytes), ok);
    }
}

/// A secret key; if accepted, it decapsulates `ct` (right length, padding
/// cleared) the same way everywhere.
fn check_sk<P: Set>(bytes: &[u8], ct: &[u8]) {
    let s = spec::<P>();
    let r = DecapsulationKey::<P>::from_slice(bytes);
    if <P::Peer as PeerOps>::PRESENT {
        let (_, sk_len_ok, _) = <P::Peer as PeerOps>::lengths_ok(0, bytes.len(), 0);
        assert_eq!(sk_len_ok, bytes.len() == s.sk);
    }
    if bytes.len() != s.sk {
        assert_eq!(r.err(), Some(len_err(pqdr_mceliece::Object::DecapsulationKey, s.sk, bytes.len())));
        return;
    }
    let ok = s.sk_ok(bytes);
    let dk = match r {
        Ok(dk) => {
            assert!(ok, "{}: malformed secret key accepted", P::NAME);
            assert!(dk.as_bytes().as_ref() == bytes);
            dk
        }
        Err(e) => {
            assert!(!ok, "{}: well-formed secret key rejected", P::NAME);
            assert_eq!(e, Error::InvalidKey);
            return;
        }
    };
    let mut ctb = expand(ct, s.ct);
    s.clear_ct_padding(&mut ctb);
    let c = Ciphertext::<P>::from_slice(&ctb).unwrap();
    let k = dk.decapsulate(&c);
    assert_eq!(dk.decapsulate(&c), k);
    assert_eq!(dk.decapsulate_bytes(&ctb).unwrap(), k);
    assert_eq!(dk.prepare().decapsulate(&c), k);
    assert_eq!(mc::decapsulate::<P>(dk.as_bytes(), c.as_bytes()), k);
    if <P::Peer as PeerOps>::PRESENT {
        let pk = <P::Peer as PeerOps>::decaps(bytes, &ctb).unwrap();
        assert!(
            pk == k.as_bytes(),
            "{}: peer decapsulates an arbitrary key differently",
            P::NAME
        );
    }
}

// ---------------------------------------------------------------------------
// Decapsulation under the fixed keys.

/// Every decapsulation of `ct` under the fixed keys agrees; returns it.
fn decap_all<P: Set>(keys: &Keys<P>, ct: &[u8]) -> [u8; 32] {
    let c = Ciphertext::<P>::from_slice(ct).unwrap();
    let k = keys.dk.decapsulate(&c);
    assert_eq!(keys.dk.decapsulate(&c), k, "{}: not deterministic", P::NAME);
    assert_eq!(keys.dk.prepare().decapsulate(&c), k);
    assert_eq!(mc::decapsulate::<P>(keys.dk.as_bytes(), c.as_bytes()), k);
    if <P::Peer as PeerOps>::PRESENT {
        let pk = <P::Peer as PeerOps>::decaps(keys.dk.as_bytes().as_ref(), ct).unwrap();
        assert!(
            pk == k.as_bytes(),
            "{}: peer decapsulates differently",
            P::NAME
        );
    }
    *k.as_bytes()
}

/// Encapsulation with `rng` everywhere (one-shot typed, array, peer); the
/// results agree. Returns (ct, ss).
fn encap_all<P: Set>(ek: &EncapsulationKey<P>, rng: &Tape<'_>) -> (Vec<u8>, [u8; 32]) {
    let (ct, ss) = ek.encapsulate(&mut rng.clone());
    let mut c = <P::CtBytes as Buf<u8>>::zeroed();
    let ss2 = mc::encapsulate_into::<P, _>(ek.as_bytes(), &mut c, &mut rng.clone());
    assert_eq!((c.as_ref(), &ss2), (ct.as_bytes().as_ref(), &ss));
    if <P::Peer as PeerOps>::PRESENT {
        let (pc, pss) = <P::Peer as PeerOps>::encaps(ek.as_bytes().as_ref(), rng.clone()).unwrap();
        assert!(
            pc == ct.as_bytes().as_ref(),
            "{}: peer ciphertext differs",
            P::NAME
        );
        assert!(pss == ss.as_bytes(), "{}: peer secret differs", P::NAME);
    }
    (ct.as_bytes().as_ref().to_vec(), *ss.as_bytes())
}

fn op_decap<P: Set>(flags: u8, payload: &[u8]) {
    let s = spec::<P>();
    let keys = P::keys().unwrap();
    if flags & 1 == 0 {
        // An arbitrary ciphertext (padding-free sets: every one parses).
        let ct = expand(payload, s.ct);
        decap_all(keys, &ct);
        return;
    }
    let (mut ct, ss) = encap_all(&keys.ek, &Tape::new(payload));
    assert_eq!(decap_all(keys, &ct), ss, "{}: genuine ciphertext", P::NAME);
    if flags & 2 != 0 {
        let bit = usize::from(u16::from_le_bytes([
            flags,
            payload.first().copied().unwrap_or(0),
        ])) % (8 * s.ct);
        ct[bit / 8] ^= 1 << (bit % 8);
        let k = decap_all(keys, &ct);
        assert_ne!(k, ss, "{}: flipped bit {bit} kept the secret", P::NAME);
    }
}

// ---------------------------------------------------------------------------
// Encapsulation, one-shot and streamed.

fn op_encap<P: Set>(flags: u8, payload: &[u8]) {
    let s = spec::<P>();
    let keys = if flags & 8 != 0 { P::keys() } else { None };
    let pk: &[u8] = match keys {
        Some(k) => k.ek.as_bytes().as_ref(),
        None => random_pk::<P>(&s),
    };
    // Payload: n, n chunk sizes (u16 each), a cut point (u32), the rest is
    // the randomness.
    let n = usize::from(payload.first().copied().unwrap_or(0) % 8) + 1;
    let mut sizes = Vec::with_capacity(n);
    for i in 0..n {
        let v = u16::from_le_bytes([
            payload.get(1 + 2 * i).copied().unwrap_or(0),
            payload.get(2 + 2 * i).copied().unwrap_or(0),
        ]);
        // Small sizes, and large ones (multiples of 64 up to 2 MB).
        sizes.push(if v & 0x8000 == 0 {
            usize::from(v)
        } else {
            usize::from(v & 0x7fff) * 64
        });
    }
    let at = 1 + 2 * n;
    let cut_word = u32::from_le_bytes(std::array::from_fn(|i| {
        payload.get(at + i).copied().unwrap_or(0)
    }));
    let rng = Tape::new(payload.get(at + 4..).unwrap_or(&[]));

    // Feeds `data` in the fuzz-chosen chunk sizes (cyclically; after 4096
    // updates the rest goes in one).
    let feed = |st: &mut StreamingEncapsulation<P>, data: &[u8]| {
        let mut off = 0;
        for (calls, &sz) in sizes.iter().cycle().enumerate() {
            if off == data.len() {
                break;
            }
            let end = if calls >= 4096 {
                data.len()
            } else {
                (off + sz).min(data.len())
            };
            st.update(&data[off..end]).unwrap();
            off = end;
        }
    };
    let mut st = StreamingEncapsulation::<P>::new(&mut rng.clone());

    match flags & 3 {
        // The whole key in chunks.
        0 => {
            feed(&mut st, pk);
            let (ct, ss) = st.finish().unwrap();
            let ek = EncapsulationKey::<P>::from_slice(pk).unwrap();
            let (rct, rss) = encap_all(&ek, &rng);
            assert!(
                ct.as_bytes().as_ref() == rct.as_slice(),
                "{}: streamed ct",
                P::NAME
            );
            assert_eq!(ss.as_bytes(), &rss, "{}: streamed secret", P::NAME);
            if let Some(k) = keys {
                assert_eq!(k.dk.decapsulate(&ct), ss);
            }
        }
        // Too few bytes.
        1 => {
            let cut = cut_word as usize % s.pk;
            feed(&mut st, &pk[..cut]);
            assert_eq!(st.finish().err(), Some(len_err(pqdr_mceliece::Object::EncapsulationKey, s.pk, cut)));
        }
        // A chunk overrunning the end is refused and not absorbed.
        2 => {
            let cut = cut_word as usize % (s.pk + 1);
            let extra = usize::from(flags >> 4) + 1;
            feed(&mut st, &pk[..cut]);
            let mut over = pk[cut..].to_vec();
            over.extend(std::iter::repeat_n(0u8, extra));
            assert_eq!(st.update(&over), Err(len_err(pqdr_mceliece::Object::EncapsulationKey, s.pk, s.pk + extra)));
            feed(&mut st, &pk[cut..]);
            assert_eq!(st.update(&[0]), Err(len_err(pqdr_mceliece::Object::EncapsulationKey, s.pk, s.pk + 1)));
            let (ct, ss) = st.finish().unwrap();
            let mut c = <P::CtBytes as Buf<u8>>::zeroed();
            let mut arr = <P::PkBytes as Buf<u8>>::boxed_zeroed();
            AsMut::<[u8]>::as_mut(&mut *arr).copy_from_slice(pk);
            let rss = mc::encapsulate_into::<P, _>(&arr, &mut c, &mut rng.clone());
            assert!(
                ct.as_bytes().as_ref() == c.as_ref() && ss == rss,
                "{}: after overrun",
                P::NAME
            );
        }
        // A corrupted chunk: byte `cut` xor a nonzero byte (flag 0x04: a
        // padding bit of that byte's row).
        _ => {
            let mut bad = pk.to_vec();
            let pos = cut_word as usize % s.pk;
            if flags & 4 != 0 && s.pk_bits != 0 {
                let last = pos - pos % s.row + s.row - 1;
                bad[last] |= 1 << (s.pk_bits + usize::from(flags >> 4) % (8 - s.pk_bits));
            } else {
                bad[pos] ^= (flags >> 4).max(1);
            }
            feed(&mut st, &bad);
            let r = st.finish();
            let ok = s.pk_ok(&bad);
            let peer = <P::Peer as PeerOps>::PRESENT
                .then(|| <P::Peer as PeerOps>::encaps(&bad, rng.clone()));
            if !ok {
                assert_eq!(r.err(), Some(Error::InvalidKey), "{}", P::NAME);
                assert_eq!(
                    mc::validate_encapsulation_key::<P>(&bad),
                    Err(Error::InvalidKey)
                );
                if let Some(p) = peer {
                    assert_eq!(p.err(), Some(pq_mceliece::Error::EncapsulationKeyPadding));
                }
                return;
            }
            let (ct, ss) = r.unwrap();
            let mut c = <P::CtBytes as Buf<u8>>::zeroed();
            let mut arr = <P::PkBytes as Buf<u8>>::boxed_zeroed();
            AsMut::<[u8]>::as_mut(&mut *arr).copy_from_slice(&bad);
            let rss = mc::encapsulate_into::<P, _>(&arr, &mut c, &mut rng.clone());
            assert!(
                ct.as_bytes().as_ref() == c.as_ref() && ss == rss,
                "{}: corrupted key",
                P::NAME
            );
            if let Some(p) = peer {
                let (pc, pss) = p.unwrap();
                assert!(
                    pc == c.as_ref() && pss == rss.as_bytes(),
                    "{}: peer, corrupted key",
                    P::NAME
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Key generation against the peer.

fn op_keygen<P: Set>(payload: &[u8]) {
    let seed: [u8; 32] = std::array::from_fn(|i| payload.get(i).copied().unwrap_or(0));
    let (dk, ek) = mc::generate_deterministic::<P>(&seed);
    let (ppk, psk) = <P::Peer as PeerOps>::keygen(&seed);
    assert!(
        ppk == ek.as_bytes().as_ref(),
        "{}: public key differs from the peer's",
        P::NAME
    );
    assert!(
        psk == dk.as_bytes().as_ref(),
        "{}: secret key differs from the peer's",
        P::NAME
    );
    let dk2 = DecapsulationKey::<P>::from_slice(dk.as_bytes().as_ref()).unwrap();
    assert!(dk2 == dk);
    mc::validate_encapsulation_key::<P>(ek.as_bytes().as_ref()).unwrap();
    let keys = Keys { dk, ek };
    let (ct, ss) = encap_all(&keys.ek, &Tape::new(payload.get(32..).unwrap_or(&[])));
    assert_eq!(decap_all(&keys, &ct), ss);
}

fuzz_target!(|data: &[u8]| {
    let [op, set, flags, payload @ ..] = data else {
        return;
    };
    let (set, flags) = (usize::from(*set) % 20, *flags);
    let delta = payload.first().copied().unwrap_or(0);
    if *op == 0xFF {
        // Key generation: tens of ms per implementation (seconds under ASan),
        // so only this one op value; 460896 for flags 0x3F of it.
        if flags & 0x3F == 0x3F {
            op_keygen::<mc::Mceliece460896>(payload);
        } else {
            op_keygen::<mc::Mceliece348864>(payload);
        }
        return;
    }
    match op % 15 {
        0 => dispatch!(set, check_ct(payload)),
        1 | 12 => {
            let s = dispatch!(set, spec());
            dispatch!(set, check_ct(&expand(payload, length(s.ct, flags, delta))));
        }
        2 => dispatch!(set, check_sk(payload, &[])),
        3 | 13 => {
            let s = dispatch!(set, spec());
            let mut sk = expand(payload, length(s.sk, flags, delta));
            if flags & 2 != 0 && sk.len() == s.sk {
                // Make the format right (so the decapsulation path is reached):
                // c as the set requires, the Goppa coefficients masked to m bits.
                let c: u64 = if s.semi {
                    u64::from(u32::MAX).rotate_left(u32::from(flags >> 2))
                } else {
                    0xFFFF_FFFF
                };
                sk[32..40].copy_from_slice(&c.to_le_bytes());
                for i in 0..s.t {
                    sk[41 + 2 * i] &= ((1u16 << s.m) - 1).to_le_bytes()[1];
                }
            }
            let ct: Vec<u8> = payload.iter().rev().copied().collect();
            dispatch!(set, check_sk(&sk, &ct));
        }
        4 => dispatch!(set, check_pk(payload)),
        5 | 14 => {
            let s = dispatch!(set, spec());
            let mut pk = expand(payload, length(s.pk, flags, delta));
            if flags & 2 != 0 && pk.len() == s.pk {
                s.clear_pk_padding(&mut pk);
                if flags & 4 != 0 && s.pk_bits != 0 {
                    // One padding bit (fuzz-chosen) of one row.
                    let row = usize::from(u16::from_le_bytes([delta, flags])) % (s.pk / s.row);
                    let bit = s.pk_bits + usize::from(flags >> 3) % (8 - s.pk_bits);
                    pk[row * s.row + s.row - 1] |= 1 << bit;
                }
            }
            dispatch!(set, check_pk(&pk));
        }
        6..=8 => {
            // The sets with fixed keys: 348864, 348864pc, 460896, 460896pc.
            let set = [0, 10, 2, 12][set % 4];
            dispatch!(set, op_decap(flags, payload));
        }
        _ => dispatch!(set, op_encap(flags, payload)),
    }
});

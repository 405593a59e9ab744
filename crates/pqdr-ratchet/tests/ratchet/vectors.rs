//! Deterministic test vectors of protocol v2 (docs/protocol/ratchet.md §3.1, key schedule
//! of §1.4 and sealed export of §1.11 as revised 2026-11-25), compared with
//! `vectors/v2.json`; `scripts/ratchet_vectors.py` recomputes every derivation
//! in it independently (written from docs/protocol/ratchet.md, not from this code).
//!
//! Recorded: `root_0` and its children (`rk_0`, `xk_0`, `seg_0` per
//! direction); `ck_{0,0}` and the message keys at counters
//! {0, 1, 7, 8, 255, 256, 257, 65535, 2^20} per direction; records sealed by live
//! sessions at those counters; the ratchet to epoch 1 (owner's seed, ek, ct,
//! rid, ss, `th_1`, `root_1 = DK(root step, rk_0 ‖ ss ‖ th_1)`, the epoch-1
//! children) and the first epoch-1 records; exporter outputs; RS symbols of a
//! fixed blob; a sealed state blob (fixed storage key, deterministic RNG).
//!
//! Besides the file comparison, the test checks that the live sessions use
//! exactly these keys: the instrumented AEAD (`last_sealed`) of every
//! recorded record, the leaked `rk`/send chains, and the decryption of the
//! epoch-1 records with keys derived here from `root_1` (a wrong `root_1`, or
//! v1's `root_step(root_0, ..)`, fails). A second test fails if a v1 context
//! string or the v1 flags byte would be produced.
//!
//! Compare: `cargo test -p pqdr-ratchet --release --test ratchet vectors::`.
//! Regenerate: `PQDR_WRITE_VECTORS=1 cargo test -p pqdr-ratchet --release --test ratchet vectors::`.
#![cfg(feature = "mlkem")]
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    clippy::too_many_lines,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use pqdr_ratchet::chacha20poly1305::aead::{AeadInOut, KeyInit};
use pqdr_ratchet::chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
use pqdr_ratchet::testing::{self, LeakChain};
use pqdr_ratchet::wire::{FLAGS, HEADER_LEN, TAG_LEN};
use pqdr_ratchet::{
    Config, Direction, Error, InitialSecret, Instant, Mode, RatchetKem, Role, Session, codec,
};
use serde_json::{Value, json};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

const COUNTERS: [u32; 9] = [0, 1, 7, 8, 255, 256, 257, 65535, 1 << 20];
const AAD: &[u8] = b"aad";
const EXPORTER_LABEL: &[u8] = b"pqdr vector exporter";
/// Send positions reserved by the recorded export.
const RESERVE: u32 = 61;
/// v2 context prefix (docs/protocol/ratchet.md §1.4 and the v2 brief).
const V2: &str = "pqdr-ratchet v2 2026-11-25T20:00Z ";
/// v1 context prefix, which v2 must never produce.
const V1: &str = "pqdr-ratchet v1 2026-11-22T02:00Z ";
/// The v1 wire flags byte (version 001).
const FLAGS_V1: u8 = 0x20;

type VK = pqdr_ratchet::MlKem768;

fn storage_key() -> Vec<u8> {
    (0x80..=0x9f).collect()
}

fn secret() -> Vec<u8> {
    (0x00..=0x1f).collect()
}

fn transcript() -> Vec<u8> {
    (0x20..=0x3f).collect()
}

fn dir_of(role: Role) -> Direction {
    match role {
        Role::Initiator => Direction::I2R,
        Role::Responder => Direction::R2I,
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Initiator => "initiator",
        Role::Responder => "responder",
    }
}

/// `(rk, xk, seg_0 i2r, seg_0 r2i)` as JSON.
fn children_json(k: &([u8; 32], [u8; 32], [u8; 32], [u8; 32])) -> Value {
    json!({"rk": hex(&k.0), "xk": hex(&k.1), "seg0_i2r": hex(&k.2), "seg0_r2i": hex(&k.3)})
}

fn seg0_of(k: &([u8; 32], [u8; 32], [u8; 32], [u8; 32]), d: Direction) -> [u8; 32] {
    match d {
        Direction::I2R => k.2,
        Direction::R2I => k.3,
    }
}

/// Opens a datagram record with an explicit message key (the attacker-free
/// ChaCha20-Poly1305 of docs/protocol/ratchet.md §1.4); returns the frame plaintext.
fn open_with(
    mk: &[u8; 32],
    d: Direction,
    epoch: u64,
    record: &[u8],
    aad: &[u8],
) -> Option<Vec<u8>> {
    if record.len() < HEADER_LEN + TAG_LEN {
        return None;
    }
    let (hd, rest) = record.split_at(HEADER_LEN);
    let c = u32::from_be_bytes(hd[2..6].try_into().unwrap());
    let n = rest.len() - TAG_LEN;
    let tag = Tag::try_from(&rest[n..]).ok()?;
    let mut buf = rest[..n].to_vec();
    let mut ad = hd.to_vec();
    ad.extend_from_slice(aad);
    let nonce = Nonce::from(testing::record_nonce(d, epoch, c));
    ChaCha20Poly1305::new(mk.into())
        .decrypt_inout_detached(&nonce, &ad, (&mut buf[..]).into(), &tag)
        .ok()?;
    Some(buf)
}

/// One record sealed by a live session, with the instrumented AEAD's
/// (key, nonce) of that seal.
struct Rec {
    role: Role,
    epoch: u64,
    counter: u32,
    record: Vec<u8>,
    app: Option<Vec<u8>>,
    aead: ([u8; 32], [u8; 12]),
}

impl Rec {
    fn take(s: &Session<VK>, role: Role, record: &[u8], app: Option<&[u8]>) -> Rec {
        Rec {
            role,
            epoch: u64::from(record[1]),
            counter: u32::from_be_bytes(record[2..6].try_into().unwrap()),
            record: record.to_vec(),
            app: app.map(<[u8]>::to_vec),
            aead: s.last_sealed().unwrap(),
        }
    }

    /// Checks that the session sealed this record with `mk` and the §1.4
    /// nonce, that `mk` opens it and that the plaintext carries the app data.
    fn check(&self, mk: &[u8; 32]) {
        let d = dir_of(self.role);
        let what = format!(
            "{} epoch {} counter {}",
            role_name(self.role),
            self.epoch,
            self.counter
        );
        assert_eq!(self.record[0], FLAGS, "{what}: flags byte");
        assert_eq!(&self.aead.0, mk, "{what}: live session's AEAD key");
        assert_eq!(
            self.aead.1,
            testing::record_nonce(d, self.epoch, self.counter),
            "{what}: live session's nonce"
        );
        let pt = open_with(mk, d, self.epoch, &self.record, AAD)
            .unwrap_or_else(|| panic!("{what}: derived key does not open the record"));
        if let Some(app) = &self.app {
            let mut tail = vec![0x01];
            tail.extend_from_slice(app);
            assert!(pt.ends_with(&tail), "{what}: DATA frame");
        }
    }

    fn json(&self) -> Value {
        json!({"role": role_name(self.role), "epoch": self.epoch, "counter": self.counter,
               "aad": hex(AAD), "plaintext": self.app.as_deref().map(hex),
               "record": hex(&self.record)})
    }
}

/// What the ratchet to epoch 1 leaves for the vectors.
#[derive(Default)]
struct Capture {
    /// Owner (phase 1 = owner sent ek): seed, ek, rid.
    seed: Vec<u8>,
    ek: Vec<u8>,
    rid: Option<u16>,
    /// Peer (phase 3 = peer sent ct): ct, its `rk_1` and epoch-1 send chain.
    ct: Vec<u8>,
    peer_rk1: Option<[u8; 32]>,
    peer_chain1: Option<LeakChain>,
}

impl Capture {
    fn see(&mut self, s: &Session<VK>) {
        let lk = s.leak_kem();
        if lk.phase == 1 && self.rid.is_none() {
            self.seed = lk.seed[..VK::SEED_LEN].to_vec();
            self.ek = lk.blob[..VK::EK_LEN].to_vec();
            self.rid = Some(lk.rid);
        }
        if lk.phase == 3 && self.ct.is_empty() {
            self.ct = lk.blob[..VK::CT_LEN].to_vec();
            self.peer_rk1 = s.leak_rk(1);
            self.peer_chain1 = s.leak_send_chain(1);
        }
    }
}

fn init<'a>(secret: &'a [u8], transcript: &'a [u8]) -> InitialSecret<'a> {
    InitialSecret {
        secret,
        transcript,
        context: b"pqdr test",
    }
}

fn cfg() -> Config {
    Config {
        ratchet_on_start: false,
        ..Config::default()
    }
}

fn generate() -> Value {
    let (secret, transcript) = (secret(), transcript());
    let root0 = testing::root0(&init(&secret, &transcript), VK::ID, Mode::Datagram);
    let keys0 = testing::epoch_keys(&root0);
    let mut dirs = serde_json::Map::new();
    for (name, d) in [("i2r", Direction::I2R), ("r2i", Direction::R2I)] {
        let seg0 = seg0_of(&keys0, d);
        assert_eq!(seg0, testing::seg0(&root0, d));
        let mks: Vec<Value> = COUNTERS
            .iter()
            .map(|&c| {
                let mk = testing::message_key_from_seg0(&seg0, c);
                assert_eq!(mk, testing::message_key(&root0, d, c));
                json!({"counter": c, "mk": hex(&mk)})
            })
            .collect();
        dirs.insert(
            name.into(),
            json!({"seg0": hex(&seg0), "ck00": hex(&testing::ck00(&root0, d)), "mk": mks}),
        );
    }

    // Sealed records of epoch 0 at the vector counters, both roles.
    let cfg = cfg();
    let mut rng = pqdr_kat::Drbg::new(&[42; 48]);
    let mut a: Session<VK> = Session::new(
        &cfg,
        Role::Initiator,
        init(&secret, &transcript),
        Instant(0),
        &mut rng,
    )
    .unwrap();
    let mut b: Session<VK> = Session::new(
        &cfg,
        Role::Responder,
        init(&secret, &transcript),
        Instant(0),
        &mut rng,
    )
    .unwrap();
    // No root is held: rk_0 is read before the switch to epoch 1 erases it.
    let rk0 = a.leak_rk(0).unwrap();
    assert_eq!(rk0, keys0.0, "initiator's rk_0");
    assert_eq!(b.leak_rk(0).unwrap(), keys0.0, "responder's rk_0");
    let mut x0 = [0u8; 32];
    let mut x0b = [0u8; 32];
    a.export_secret(EXPORTER_LABEL, &mut x0).unwrap();
    b.export_secret(EXPORTER_LABEL, &mut x0b).unwrap();
    assert_eq!(x0, x0b, "epoch-0 exporter differs between the roles");

    let mut sealed = Vec::new();
    let mut pkt = [0u8; 1500];
    for (role, s) in [(Role::Initiator, &mut a), (Role::Responder, &mut b)] {
        let seg0 = seg0_of(&keys0, dir_of(role));
        let mut next = 0u32;
        for &c in &COUNTERS {
            while next < c {
                s.seal(Instant(0), AAD, b"", &mut pkt, &mut rng).unwrap();
                next += 1;
            }
            let pt = format!("pqdr vector {c}");
            let n = s
                .seal(Instant(0), AAD, pt.as_bytes(), &mut pkt, &mut rng)
                .unwrap();
            next += 1;
            let r = Rec::take(s, role, &pkt[..n], Some(pt.as_bytes()));
            assert_eq!((r.epoch, r.counter), (0, c));
            r.check(&testing::message_key_from_seg0(&seg0, c));
            sealed.push(r.json());
        }
    }

    // Epoch 1: the initiator owns the first ratchet.
    assert_eq!(Role::owner_of(0), Role::Initiator);
    a.request_ratchet();
    let mut out = [0u8; 1500];
    let mut cap = Capture::default();
    let mut epoch1: Vec<Rec> = Vec::new();
    let mut parties = [(Role::Initiator, a), (Role::Responder, b)];
    for t in 1..50u64 {
        let now = Instant(t);
        for from_a in [true, false] {
            let (l, r) = parties.split_at_mut(1);
            let (s, o) = if from_a {
                (&mut l[0], &mut r[0])
            } else {
                (&mut r[0], &mut l[0])
            };
            let pt = format!("epoch data {t}");
            let n =
                s.1.seal(now, AAD, pt.as_bytes(), &mut pkt, &mut rng)
                    .unwrap();
            if pkt[1] == 1 && epoch1.len() < 6 {
                epoch1.push(Rec::take(&s.1, s.0, &pkt[..n], Some(pt.as_bytes())));
            }
            cap.see(&s.1);
            let r = o.1.open(now, AAD, &pkt[..n], &mut out, &mut rng).unwrap();
            assert_eq!(&out[..r.len], pt.as_bytes());
            cap.see(&o.1);
            while let Some(n) = s.1.poll_transmit(now, AAD, &mut pkt, &mut rng) {
                if pkt[1] == 1 && epoch1.len() < 6 {
                    epoch1.push(Rec::take(&s.1, s.0, &pkt[..n], None));
                }
                o.1.open(now, AAD, &pkt[..n], &mut out, &mut rng).unwrap();
                cap.see(&o.1);
            }
        }
    }
    let [(_, mut a), (_, b)] = parties;
    assert_eq!(a.status(Instant(50)).epoch, 1);
    assert_eq!(b.status(Instant(50)).epoch, 1);
    assert!(
        epoch1.iter().any(|r| r.role == Role::Initiator)
            && epoch1.iter().any(|r| r.role == Role::Responder),
        "epoch-1 records of both roles"
    );
    let rid = cap.rid.expect("owner's attempt seen in phase 1");
    assert!(!cap.ct.is_empty(), "peer seen in phase 3");
    let mut ss = [0u8; 32];
    VK::decapsulate(&cap.seed, &cap.ct, &mut ss);
    let owner = 0u8; // Role::Initiator's byte (docs/protocol/ratchet.md §1.4 transcript)
    let th1 = testing::transcript(1, VK::ID, owner, rid, &cap.ek, &cap.ct);
    let root1 = testing::root_step(&rk0, &ss, &th1);
    let keys1 = testing::epoch_keys(&root1);

    // The sessions really use keys from this root_1.
    assert_eq!(cap.peer_rk1, Some(keys1.0), "peer's installed rk_1");
    let chain = cap
        .peer_chain1
        .expect("peer's installed epoch-1 send chain");
    for p in [chain.pos, chain.pos + 1, chain.pos + 257] {
        let c = p as u32;
        assert_eq!(
            chain.key_at(c),
            Some(testing::message_key_from_seg0(&keys1.3, c)),
            "peer's installed epoch-1 chain at {c}"
        );
    }
    // v1's root step (over root_0 instead of rk_0) must open none of them.
    let keys1_v1 = testing::epoch_keys(&testing::root_step(&root0, &ss, &th1));
    for r in &epoch1 {
        assert_eq!(r.epoch, 1);
        r.check(&testing::message_key_from_seg0(
            &seg0_of(&keys1, dir_of(r.role)),
            r.counter,
        ));
        let mk = testing::message_key_from_seg0(&seg0_of(&keys1_v1, dir_of(r.role)), r.counter);
        assert!(open_with(&mk, dir_of(r.role), 1, &r.record, AAD).is_none());
    }
    for (s, seg0) in [(&a, keys1.2), (&b, keys1.3)] {
        let ch = s.leak_send_chain(1).unwrap();
        let c = ch.pos as u32;
        assert_eq!(ch.key_at(c), Some(testing::message_key_from_seg0(&seg0, c)));
        assert_eq!(s.leak_rk(1), Some(keys1.0), "rk_1 held in epoch 1");
        assert_eq!(s.leak_rk(0), None, "rk_0 erased after the switch");
    }
    let mut x1 = [0u8; 64];
    let mut x1b = [0u8; 64];
    a.export_secret(EXPORTER_LABEL, &mut x1).unwrap();
    b.export_secret(EXPORTER_LABEL, &mut x1b).unwrap();
    assert_eq!(x1, x1b, "epoch-1 exporter differs between the roles");
    assert_ne!(x1[..32], x0[..], "exporter changes with the epoch");

    // RS symbols of a fixed 1000-byte blob.
    let blob: Vec<u8> = (0..1000usize).map(|i| (i * 7 + 3) as u8).collect();
    let symbols: Vec<Value> = (0..=12u8)
        .chain([100, 254])
        .map(|idx| {
            let mut s = [0u8; 128];
            codec::encode_symbol(&blob, 128, idx, &mut s).unwrap();
            json!({"idx": idx, "data": hex(&s)})
        })
        .collect();

    // Sealed state of the initiator (fixed storage key, deterministic RNG).
    let sk = storage_key();
    let mut srng = pqdr_kat::Drbg::new(&[0x53; 48]);
    let state = a
        .export_state_to_vec(RESERVE, &sk, Instant(60), &mut srng)
        .unwrap();
    let generation = a.generation();
    assert_eq!(&state[..6], b"PQDS\x00\x03");
    let id = a.session_id();
    assert_eq!(state[6..22], id, "the session id in clear");
    let mut copy = state.clone();
    let restored = Session::<VK>::import_state(&cfg, &sk, id, &mut copy, generation, Instant(60));
    assert_eq!(restored.unwrap().generation(), generation);
    for i in [0, 5, 6, 21, 22, 45, 46, state.len() / 2, state.len() - 1] {
        let mut t = state.clone();
        t[i] ^= 0x01;
        let r = Session::<VK>::import_state(&cfg, &sk, id, &mut t, 0, Instant(60));
        assert!(
            matches!(
                r,
                Err(Error::StateCorrupt | Error::StateVersion | Error::WrongSession)
            ),
            "tampered byte {i} accepted"
        );
    }
    let mut wrong = sk.clone();
    wrong[0] ^= 1;
    let r = Session::<VK>::import_state(&cfg, &wrong, id, &mut state.clone(), 0, Instant(60));
    assert!(matches!(r, Err(Error::StateCorrupt)), "wrong storage key");

    let json_dir = |k: &([u8; 32], [u8; 32], [u8; 32], [u8; 32]), d: Direction| {
        let seg0 = seg0_of(k, d);
        let mks: Vec<Value> = COUNTERS[..5]
            .iter()
            .map(|&c| json!({"counter": c, "mk": hex(&testing::message_key_from_seg0(&seg0, c))}))
            .collect();
        json!({"seg0": hex(&seg0), "mk": mks})
    };
    json!({
        "version": 2,
        "flags": FLAGS,
        "kem_id": VK::ID,
        "aead_id": pqdr_ratchet::AEAD_ID,
        "mode": 0,
        "secret": hex(&secret), "transcript": hex(&transcript), "context": hex(b"pqdr test"),
        "root0": hex(&root0),
        "epoch0": children_json(&keys0),
        "directions": dirs,
        "sealed": sealed,
        "exporter": {"label": hex(EXPORTER_LABEL), "epoch0": hex(&x0), "epoch1": hex(&x1)},
        "ratchet": {"owner": owner, "rid": rid, "seed": hex(&cap.seed), "ek": hex(&cap.ek),
                    "ct": hex(&cap.ct), "ss": hex(&ss), "th1": hex(&th1), "root1": hex(&root1),
                    "epoch1": children_json(&keys1),
                    "directions": {"i2r": json_dir(&keys1, Direction::I2R),
                                   "r2i": json_dir(&keys1, Direction::R2I)},
                    "records": epoch1.iter().map(Rec::json).collect::<Vec<_>>()},
        "rs": {"blob": hex(&blob), "sym_len": 128, "k": 8, "symbols": symbols},
        "state": {"sealed": hex(&state), "storage_key": hex(&sk), "role": "initiator",
                  "session_id": hex(&id), "format_version": pqdr_ratchet::STATE_FORMAT_VERSION,
                  "generation": generation, "reserve": RESERVE, "ww": 16, "ms": 256},
    })
}

#[test]
fn vectors_v2() {
    let v = generate();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/v2.json");
    if std::env::var_os("PQDR_WRITE_VECTORS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(v, want, "vectors differ from {path}");
    // Every record in the file is a v2 record.
    let records = want["sealed"]
        .as_array()
        .unwrap()
        .iter()
        .chain(want["ratchet"]["records"].as_array().unwrap());
    let mut n = 0;
    for r in records {
        let rec = r["record"].as_str().unwrap();
        assert_eq!(&rec[..2], "40", "record flags byte in {path}");
        n += 1;
    }
    println!(
        "vectors/v2.json: {} sealed epoch-0 records, {} epoch-1 records, state blob of {} bytes match",
        want["sealed"].as_array().unwrap().len(),
        want["ratchet"]["records"].as_array().unwrap().len(),
        want["state"]["sealed"].as_str().unwrap().len() / 2,
    );
    assert!(n >= 14 + 2);
}

fn dk(ctx: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(ctx);
    for p in parts {
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// The crate produces v2 context strings and the v2 flags byte, never v1's:
/// each derivation is recomputed here with plain `blake3::derive_key` under
/// both prefixes and must equal the v2 value and differ from the v1 value.
#[test]
fn v2_contexts_and_flags_not_v1() {
    let (secret, transcript) = (secret(), transcript());
    let lp = |x: &[u8]| {
        let mut v = (x.len() as u16).to_be_bytes().to_vec();
        v.extend_from_slice(x);
        v
    };
    let mut m = lp(&secret);
    m.extend(lp(&transcript));
    m.extend(lp(b"pqdr test"));
    m.extend(VK::ID.to_be_bytes());
    m.extend(pqdr_ratchet::AEAD_ID.to_be_bytes());
    m.push(0);
    let root0 = testing::root0(&init(&secret, &transcript), VK::ID, Mode::Datagram);
    let check = |purpose: &str, parts: &[&[u8]], got: [u8; 32]| {
        assert_eq!(
            got,
            dk(&format!("{V2}{purpose}"), parts),
            "{purpose}: not the v2 context"
        );
        assert_ne!(
            got,
            dk(&format!("{V1}{purpose}"), parts),
            "{purpose}: v1 context"
        );
    };
    check("root init", &[&m], root0);
    let (rk, xk, s_i2r, s_r2i) = testing::epoch_keys(&root0);
    check("root carry", &[&root0], rk);
    check("exporter", &[&root0], xk);
    check("segment 0 i2r", &[&root0], s_i2r);
    check("segment 0 r2i", &[&root0], s_r2i);
    check("inner 0", &[&s_i2r], testing::ck00(&root0, Direction::I2R));
    // The first key of a group (revision 2026-12-03: group step, then packet
    // key) at counters 0 and 3 and, through one segment step, at 256; never
    // the previous revision's per-record `packet step` or v1's contexts.
    let group_key = |prefix: &str, ck: &[u8; 32], c0: u32, c: u32| {
        let mut h = blake3::Hasher::new_derive_key(&format!("{prefix}group step"));
        h.update(ck);
        h.update(&c0.to_be_bytes());
        let mut o = [0u8; 64];
        h.finalize_xof().fill(&mut o);
        let mut m = [0u8; 64];
        m[..32].copy_from_slice(&o[32..]);
        m[32..36].copy_from_slice(&c.to_be_bytes());
        blake3::derive_key(&format!("{prefix}packet key"), &m)
    };
    let old_packet_step = |ctx: &str, ck: &[u8; 32], c: u32| {
        let mut h = blake3::Hasher::new_derive_key(ctx);
        h.update(ck);
        h.update(&c.to_be_bytes());
        let mut o = [0u8; 64];
        h.finalize_xof().fill(&mut o);
        <[u8; 32]>::try_from(&o[32..]).unwrap()
    };
    let mk0 = testing::message_key_from_seg0(&s_i2r, 0);
    let ck00 = dk(&format!("{V2}inner 0"), &[&s_i2r]);
    assert_eq!(mk0, group_key(V2, &ck00, 0, 0));
    assert_ne!(mk0, group_key(V1, &ck00, 0, 0));
    assert_ne!(mk0, old_packet_step(&format!("{V2}packet step"), &ck00, 0));
    assert_ne!(mk0, old_packet_step(&format!("{V1}packet step"), &ck00, 0));
    let mk3 = testing::message_key_from_seg0(&s_i2r, 3);
    assert_eq!(mk3, group_key(V2, &ck00, 0, 3));
    let seg1 = dk(&format!("{V2}segment step"), &[&s_i2r]);
    let ck10 = dk(&format!("{V2}inner 0"), &[&seg1]);
    let mk256 = testing::message_key_from_seg0(&s_i2r, 256);
    assert_eq!(mk256, group_key(V2, &ck10, 256, 256));
    let seg1_v1 = dk(&format!("{V1}segment step"), &[&s_i2r]);
    let ck10_v1 = dk(&format!("{V2}inner 0"), &[&seg1_v1]);
    assert_ne!(mk256, group_key(V2, &ck10_v1, 256, 256));
    let (ek, ct) = ([7u8; 40], [9u8; 30]);
    let mut tm = 1u64.to_be_bytes().to_vec();
    tm.extend(VK::ID.to_be_bytes());
    tm.push(0);
    tm.extend(0x1234u16.to_be_bytes());
    tm.extend(lp(&ek));
    tm.extend(lp(&ct));
    let th = testing::transcript(1, VK::ID, 0, 0x1234, &ek, &ct);
    check("kem transcript", &[&tm], th);
    let ss = [5u8; 32];
    check(
        "root step",
        &[&rk, &ss, &th],
        testing::root_step(&rk, &ss, &th),
    );

    // Wire: the flags byte is v2's, and a v1-flagged record is refused.
    assert_eq!(FLAGS, 0x40);
    let cfg = cfg();
    let mut rng = pqdr_kat::Drbg::new(&[7; 48]);
    let mut a: Session<VK> = Session::new(
        &cfg,
        Role::Initiator,
        init(&secret, &transcript),
        Instant(0),
        &mut rng,
    )
    .unwrap();
    let mut b: Session<VK> = Session::new(
        &cfg,
        Role::Responder,
        init(&secret, &transcript),
        Instant(0),
        &mut rng,
    )
    .unwrap();
    let (mut pkt, mut out) = ([0u8; 256], [0u8; 256]);
    let n = a.seal(Instant(0), AAD, b"v2", &mut pkt, &mut rng).unwrap();
    assert_eq!(pkt[0], 0x40, "sealed record's flags byte");
    let mut v1 = pkt;
    v1[0] = FLAGS_V1;
    assert!(
        b.open(Instant(0), AAD, &v1[..n], &mut out, &mut rng)
            .is_err()
    );
    let r = b
        .open(Instant(0), AAD, &pkt[..n], &mut out, &mut rng)
        .unwrap();
    assert_eq!(&out[..r.len], b"v2");
    // The exporter: DK(exporter, xk ‖ lp(label)).
    let mut x = [0u8; 32];
    a.export_secret(EXPORTER_LABEL, &mut x).unwrap();
    check("exporter", &[&xk, &lp(EXPORTER_LABEL)], x);
}

//! Deterministic test vectors (RATCHET.md §3.1), compared with
//! `vectors/v1.json`; `scripts/ratchet_vectors.py` recomputes them independently.
//! Regenerate with `PQDR_WRITE_VECTORS=1 cargo test -p pqdr-ratchet --release --test vectors`.
#![cfg(feature = "mlkem")]
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

mod common;

use pqdr_ratchet::testing;
use pqdr_ratchet::{
    Config, Direction, InitialSecret, Instant, Mode, RatchetKem, Role, Session, codec,
};
use serde_json::{Value, json};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

const COUNTERS: [u32; 7] = [0, 1, 255, 256, 257, 65535, 1 << 20];

type VK = pqdr_ratchet::MlKem768;

/// Records the owner's seed/ek/rid when first seen; returns (ct, root_1) from the peer.
fn capture(
    s: &Session<VK>,
    seed: &mut Vec<u8>,
    ek: &mut Vec<u8>,
    rid: &mut u16,
) -> Option<(Vec<u8>, [u8; 32])> {
    let lk = s.leak_kem();
    if lk.phase == 1 && seed.is_empty() {
        *seed = lk.seed[..VK::SEED_LEN].to_vec();
        *ek = lk.blob[..VK::EK_LEN].to_vec();
        *rid = lk.rid;
    }
    if lk.phase == 3 {
        return Some((lk.blob[..VK::CT_LEN].to_vec(), s.leak_root(1)?));
    }
    None
}

fn generate() -> Value {
    let secret: Vec<u8> = (0x00..=0x1f).collect();
    let transcript: Vec<u8> = (0x20..=0x3f).collect();
    let init = || InitialSecret {
        secret: &secret,
        transcript: &transcript,
        context: b"pqdr test",
    };
    let root0 = testing::root0(&init(), VK::ID, Mode::Datagram);
    let mut dirs = serde_json::Map::new();
    for (name, d) in [("i2r", Direction::I2R), ("r2i", Direction::R2I)] {
        let mks: Vec<Value> = COUNTERS
            .iter()
            .map(|&c| json!({"counter": c, "mk": hex(&testing::message_key(&root0, d, c))}))
            .collect();
        dirs.insert(
            name.into(),
            json!({"seg0": hex(&testing::seg0(&root0, d)), "ck00": hex(&testing::ck00(&root0, d)), "mk": mks}),
        );
    }
    // Sealed records of epoch 0 at the vector counters, both roles.
    let cfg = Config {
        ratchet_on_start: false,
        ..Config::default()
    };
    let mut rng = pqdr_kat::Drbg::new(&[42; 48]);
    let mut a: Session<VK> =
        Session::new(&cfg, Role::Initiator, init(), Instant(0), &mut rng).unwrap();
    let mut b: Session<VK> =
        Session::new(&cfg, Role::Responder, init(), Instant(0), &mut rng).unwrap();
    let mut sealed = Vec::new();
    let mut pkt = [0u8; 1500];
    for (role, s) in [("initiator", &mut a), ("responder", &mut b)] {
        let mut next = 0u32;
        for &c in &COUNTERS {
            while next < c {
                s.seal(Instant(0), b"aad", b"", &mut pkt, &mut rng).unwrap();
                next += 1;
            }
            let pt = format!("pqdr vector {c}");
            let n = s
                .seal(Instant(0), b"aad", pt.as_bytes(), &mut pkt, &mut rng)
                .unwrap();
            next += 1;
            sealed.push(
                json!({"role": role, "epoch": 0, "counter": c, "aad": hex(b"aad"),
                "plaintext": hex(pt.as_bytes()), "record": hex(&pkt[..n])}),
            );
        }
    }
    // Epoch 1: the initiator owns the first ratchet.
    a.request_ratchet();
    let mut out = [0u8; 1500];
    let (mut seed, mut ek, mut ct, mut rid) = (Vec::new(), Vec::new(), Vec::new(), 0u16);
    let mut root1: Option<[u8; 32]> = None;
    let mut epoch1 = Vec::new();
    let mut parties = [a, b];
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
            let n = s
                .seal(now, b"aad", pt.as_bytes(), &mut pkt, &mut rng)
                .unwrap();
            if pkt[1] == 1 && epoch1.len() < 6 {
                epoch1.push(json!({"role": if from_a {"initiator"} else {"responder"}, "epoch": 1,
                    "counter": u32::from_be_bytes(pkt[2..6].try_into().unwrap()), "aad": hex(b"aad"),
                    "record": hex(&pkt[..n])}));
            }
            if let Some(x) = capture(s, &mut seed, &mut ek, &mut rid) {
                (ct, root1) = (x.0, Some(x.1));
            }
            let r = o.open(now, b"aad", &pkt[..n], &mut out, &mut rng).unwrap();
            assert_eq!(&out[..r.len], pt.as_bytes());
            if let Some(x) = capture(o, &mut seed, &mut ek, &mut rid) {
                (ct, root1) = (x.0, Some(x.1));
            }
            while let Some(n) = s.poll_transmit(now, b"aad", &mut pkt, &mut rng) {
                if pkt[1] == 1 && epoch1.len() < 6 {
                    epoch1.push(json!({"role": if from_a {"initiator"} else {"responder"}, "epoch": 1,
                        "counter": u32::from_be_bytes(pkt[2..6].try_into().unwrap()), "aad": hex(b"aad"),
                        "record": hex(&pkt[..n])}));
                }
                o.open(now, b"aad", &pkt[..n], &mut out, &mut rng).unwrap();
                if let Some(x) = capture(o, &mut seed, &mut ek, &mut rid) {
                    (ct, root1) = (x.0, Some(x.1));
                }
            }
        }
    }
    let [mut a, b] = parties;
    assert_eq!(a.status(Instant(50)).epoch, 1);
    assert_eq!(b.status(Instant(50)).epoch, 1);
    let mut ss = [0u8; 32];
    VK::decapsulate(&seed, &ct, &mut ss);
    let th1 = testing::transcript(1, VK::ID, 0, rid, &ek, &ct);
    let root1 = root1.unwrap();
    assert_eq!(root1, testing::root_step(&root0, &ss, &th1));
    // RS symbols of a fixed 1000-byte blob.
    let blob: Vec<u8> = (0..1000usize).map(|i| (i * 7 + 3) as u8).collect();
    let symbols: Vec<Value> = (0..=12u8)
        .chain([100, 254])
        .map(|idx| {
            let mut s = [0u8; 128];
            codec::encode_symbol(&blob, 128, idx, &mut s);
            json!({"idx": idx, "data": hex(&s)})
        })
        .collect();
    // Exported state, plain and sealed.
    let mut st = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
    let n = a.export_state(64, Instant(60), &mut st).unwrap();
    let plain = hex(&st[..n]);
    let n = a
        .export_state_sealed(64, b"storage key", Instant(60), &mut st)
        .unwrap();
    let sealed_state = hex(&st[..n]);
    json!({
        "version": 1,
        "kem_id": VK::ID,
        "aead_id": pqdr_ratchet::AEAD_ID,
        "mode": 0,
        "secret": hex(&secret), "transcript": hex(&transcript), "context": hex(b"pqdr test"),
        "root0": hex(&root0),
        "directions": dirs,
        "sealed": sealed,
        "ratchet": {"owner": 0, "rid": rid, "ek": hex(&ek), "ct": hex(&ct), "ss": hex(&ss),
                    "th1": hex(&th1), "root1": hex(&root1), "records": epoch1},
        "rs": {"blob": hex(&blob), "sym_len": 128, "k": 8, "symbols": symbols},
        "state": {"plain": plain, "sealed": sealed_state, "storage_key": hex(b"storage key")},
    })
}

#[test]
fn vectors_v1() {
    let v = generate();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/v1.json");
    if std::env::var_os("PQDR_WRITE_VECTORS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&v).unwrap() + "\n").unwrap();
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(v, want, "vectors differ from {path}");
    println!(
        "vectors/v1.json: {} sealed records, {} epoch-1 records match",
        14,
        v["ratchet"]["records"].as_array().unwrap().len()
    );
}

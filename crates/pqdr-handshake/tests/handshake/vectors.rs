//! Test vectors for every suite (docs/protocol/handshake.md §9), checked in CI by the
//! independent Python reference `scripts/handshake_vectors.py`.
//!
//! This test regenerates `vectors/v1.json` from fixed seeds and compares it
//! byte for byte with the committed file; `PQDR_WRITE_VECTORS=1` rewrites it.
//! Every value comes out of the library's real code paths: the RNG is wrapped
//! to record each draw, the key-schedule trace is the library's own
//! (`test-utils`), and the ratchet's root_0 / rk_0 come from `pqdr-ratchet`.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]
use crate::common;
use core::fmt::Write as _;

use common::*;
use pqdr_handshake::testing::coins;
use pqdr_handshake::{
    Auth, Ephemeral, Established, Initiator, Instant, K768, KMc, KNt, Load, Mode, Reply, Responder,
    S44, S65, S87,
};
use pqdr_ratchet::RatchetKem;
use rand_chacha::ChaCha20Rng;
use rand_core::{Infallible, Rng, TryCryptoRng, TryRng};
use serde_json::{Value, json};

const PREFIX: &str = "pqdr-handshake v1 2026-11-25T22:00Z ";
const BKEY: [u8; 32] = [0xB1; 32];
const CSECRET: [u8; 32] = [0xC1; 32];
const PSK: [u8; 32] = [0x50; 32];

/// The vector RNG: ChaCha20 from 42 × 32 (docs/protocol/handshake.md §9), recording every draw.
struct Recorder {
    inner: ChaCha20Rng,
    log: Vec<Vec<u8>>,
}

impl Recorder {
    fn new(seed: u8) -> Self {
        Recorder {
            inner: rng(seed),
            log: Vec::new(),
        }
    }
    fn take(&mut self) -> Vec<Vec<u8>> {
        core::mem::take(&mut self.log)
    }
}

impl TryRng for Recorder {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let v = self.inner.next_u32();
        self.log.push(v.to_le_bytes().to_vec());
        Ok(v)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let v = self.inner.next_u64();
        self.log.push(v.to_le_bytes().to_vec());
        Ok(v)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.inner.fill_bytes(dst);
        self.log.push(dst.to_vec());
        Ok(())
    }
}
impl TryCryptoRng for Recorder {}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(2 * b.len());
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// Labels the 32-byte coin draws in the order docs/protocol/handshake.md §4.7
/// fixes; checks the count.
fn label_draws(log: &[Vec<u8>], who: &str, labels: &[u8], sigma: &[u8; 32]) -> Vec<Value> {
    let r32: Vec<&Vec<u8>> = log.iter().filter(|d| d.len() == 32).collect();
    assert_eq!(r32.len(), labels.len(), "{who}: coin draws {labels:?}");
    r32.iter()
        .zip(labels)
        .map(|(r, &l)| {
            let r: [u8; 32] = r.as_slice().try_into().unwrap();
            let mut c = [0u8; 64];
            coins(sigma, &r, l, &mut c);
            json!({"who": who, "label": (l as char).to_string(), "r": hex(&r), "coins": hex(&c)})
        })
        .collect()
}

/// Per-suite test-side knowledge: the key seed as the Python side regenerates it,
/// and the static decapsulation (to record ss for McEliece / sntrup761).
trait VecKeys: TestKeys {
    fn seed_hex(seed: u8) -> String;
    fn pk_json(side: &Side<Self>, name: &str) -> Value;
}

fn kem768_seed(seed: u8) -> String {
    let mut d = vec![seed; 32];
    d.extend_from_slice(&[seed ^ 0x55; 32]);
    hex(&d)
}

impl VecKeys for K768 {
    fn seed_hex(seed: u8) -> String {
        kem768_seed(seed)
    }
    fn pk_json(side: &Side<Self>, _: &str) -> Value {
        json!(hex(K768::public_bytes(&side.pk)))
    }
}
impl VecKeys for KMc {
    fn seed_hex(seed: u8) -> String {
        hex(&[seed; 32])
    }
    fn pk_json(side: &Side<Self>, name: &str) -> Value {
        let file = format!("{name}.pk.bin");
        let path = format!("{}/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
        let pk = KMc::public_bytes(&side.pk);
        if std::env::var_os("PQDR_WRITE_VECTORS").is_some() {
            std::fs::write(&path, pk).unwrap();
        } else {
            assert_eq!(std::fs::read(&path).unwrap(), pk, "{path}");
        }
        json!({"file": file})
    }
}
impl VecKeys for KNt {
    fn seed_hex(seed: u8) -> String {
        hex(&[seed; 32]) // sntrup761::generate(ChaCha20Rng::from_seed([seed; 32]))
    }
    fn pk_json(side: &Side<Self>, _: &str) -> Value {
        json!(hex(KNt::public_bytes(&side.pk)))
    }
}
macro_rules! vec_sig {
    ($t:ident) => {
        impl VecKeys for $t {
            fn seed_hex(seed: u8) -> String {
                hex(&[seed; 32])
            }
            fn pk_json(side: &Side<Self>, _: &str) -> Value {
                json!(hex($t::public_bytes(&side.pk)))
            }
        }
    };
}
vec_sig!(S44);
vec_sig!(S65);
vec_sig!(S87);

fn side_json<A: VecKeys>(side: &Side<A>, seed: u8, idx: u32, file: &str) -> Value {
    json!({
        "seed": A::seed_hex(seed),
        "pk": A::pk_json(side, file),
        "x25519_sk": side.x_secret.map(|x| hex(&x)),
        "x25519_pk": side.id.x25519_public().map(|x| hex(&x)),
        "sigma": hex(&[seed ^ 0xA5; 32]),
        "hpk": hex(side.id.key_id()),
        "idx": idx,
    })
}

fn trace_json(est: &Established) -> (Value, Value) {
    let mut keys = serde_json::Map::new();
    for k in ["k1", "k2", "k3", "k4", "k_m"] {
        keys.insert(k.into(), Value::Null);
    }
    let ops: Vec<Value> = est
        .trace()
        .iter()
        .map(|t| {
            if t.op == "key" {
                let l = t.label.unwrap() as char;
                let name = if l == 'm' { "k_m".to_string() } else { format!("k{l}") };
                keys.insert(name, json!(hex(&t.out)));
            }
            json!({"op": t.op, "label": t.label.map(|l| (l as char).to_string()), "out": hex(&t.out)})
        })
        .collect();
    (Value::Array(ops), Value::Object(keys))
}

fn case<A: VecKeys>(name: &str, hybrid: bool, eph: Ephemeral, psk: bool) -> Value {
    let w = World::<A>::new(hybrid, eph);
    let now = Instant(5_000);
    let mut resp: Responder<A, 16> =
        Responder::new(Side::<A>::new(2, hybrid).id, LABEL, Instant(0), &mut rng(3)).unwrap();
    resp.set_secrets_for_test(BKEY, CSECRET);
    let mut table = w.table();
    if psk {
        table.psk = Some(PSK);
    }
    let mut cfg = w.cfg();
    if psk {
        cfg.peer = cfg.peer.with_psk(PSK);
    }
    let mut ri = Recorder::new(42);
    let mut rr = Recorder::new(43);
    let mut init =
        Initiator::start(&cfg, &w.i.id, clock(), Default::default(), now, &mut ri).unwrap();
    let start_log = ri.take();
    let suite = init.suite();
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(now, &mut m1).unwrap();
    let msg1 = m1[..n1].to_vec();

    // The cookie round: under load, msg1 without mac2 gets a cookie reply.
    let mut rc = Recorder::new(44);
    let mut reply = [0u8; 64];
    let Reply::CookieReply(nc) = resp
        .handle_msg1(
            &mut table,
            SRC,
            &msg1,
            Load::Under,
            now,
            &mut rc,
            &mut reply,
        )
        .unwrap()
    else {
        panic!("expected a cookie reply")
    };
    let reply = reply[..nc].to_vec();
    init.handle_cookie_reply(&reply, now).unwrap();
    let n1c = init.poll_transmit(now, &mut m1).unwrap();
    let msg1_mac2 = m1[..n1c].to_vec();

    let mut m2 = vec![0u8; 6144];
    let Reply::Msg2(n2) = resp
        .handle_msg1(
            &mut table,
            SRC,
            &msg1_mac2,
            Load::Under,
            now,
            &mut rr,
            &mut m2,
        )
        .unwrap()
    else {
        panic!("expected msg2")
    };
    let msg2 = m2[..n2].to_vec();
    let resp_log = rr.take();
    let a = init.handle_msg2(&msg2, &w.i.id, now, &mut ri).unwrap();
    let msg2_log = ri.take();
    let msg3 = a.msg3().unwrap().to_vec();
    let b = resp
        .handle_msg3(&mut table, SRC, &msg3, Load::Normal, now)
        .unwrap();
    assert_eq!(
        a.initial_secret_for_test().secret,
        b.initial_secret_for_test().secret
    );
    assert!(
        a.trace().ends_with(b.trace()),
        "the responder's msg3 trace is the initiator's tail"
    );

    // Coin draws in the order of docs/protocol/handshake.md §4.7.
    let kem = A::MODE == Mode::Kem;
    let mut li = vec![b'e'];
    if kem {
        li.push(b'r');
    }
    if hybrid {
        li.push(b'x');
    }
    let mut draws = label_draws(&start_log, "I", &li, &[1 ^ 0xA5; 32]);
    let mut lr = vec![b'E'];
    if kem {
        lr.push(b'I');
    }
    if hybrid {
        lr.push(b'y');
    }
    if !kem {
        lr.push(b's');
    }
    draws.extend(label_draws(&resp_log, "R", &lr, &[2 ^ 0xA5; 32]));
    draws.extend(label_draws(
        &msg2_log,
        "I",
        if kem { b"" } else { b"t" },
        &[1 ^ 0xA5; 32],
    ));
    let idx_i = init.index();
    let idx_r = u32::from_be_bytes(msg2[4..8].try_into().unwrap());

    // Offsets (docs/protocol/handshake.md §3) for the recorded ciphertexts.
    let (ek_len, cte_len) = match eph {
        Ephemeral::MlKem768 => (1184, 1088),
        Ephemeral::MlKem512 => (800, 768),
    };
    let ek_e = &msg1[8..8 + ek_len];
    let ct_e = &msg2[12..12 + cte_len];
    let mut c = [0u8; 64];
    let r_e: [u8; 32] = start_log
        .iter()
        .find(|d| d.len() == 32)
        .unwrap()
        .as_slice()
        .try_into()
        .unwrap();
    coins(&[1 ^ 0xA5; 32], &r_e, b'e', &mut c);
    let seed64: [u8; 64] = c;
    let ss_e = match eph {
        Ephemeral::MlKem768 => {
            let dk = ml_kem_768::DecapsulationKey::from_seed(&seed64);
            *dk.decapsulate(&ml_kem_768::Ciphertext::from_slice(ct_e).unwrap())
                .as_bytes()
        }
        Ephemeral::MlKem512 => {
            let dk = pqdr_mlkem::ml_kem_512::DecapsulationKey::from_seed(&seed64);
            *dk.decapsulate(&pqdr_mlkem::ml_kem_512::Ciphertext::from_slice(ct_e).unwrap())
                .as_bytes()
        }
    };
    let static_json = if kem {
        let ct_r = &msg1[8 + ek_len..8 + ek_len + A::CT_LEN];
        let ct_i = &msg2[12 + cte_len..12 + cte_len + A::CT_LEN];
        let (ss_r, ss_i) = (static_ss::<A>(&w.r, ct_r), static_ss::<A>(&w.i, ct_i));
        json!({"ct_R": hex(ct_r), "ss_R": hex(&ss_r), "ct_I": hex(ct_i), "ss_I": hex(&ss_i)})
    } else {
        Value::Null
    };

    // The biscuit, opened here with its key (docs/protocol/handshake.md §3.4).
    let boff = n2 - 16 - 148;
    let bsalt = &msg2[boff..boff + 16];
    // Seal1 (§4.1) from its definition: k_e ‖ k_a = DKx(C_BISCUIT, bkey ‖ salt, 64).
    let mut bk = [0u8; 64];
    blake3::Hasher::new_derive_key(&format!("{PREFIX}biscuit"))
        .update(&BKEY)
        .update(bsalt)
        .finalize_xof()
        .fill(&mut bk);
    let mut ad = suite.id().to_be_bytes().to_vec();
    ad.extend_from_slice(&idx_i.to_be_bytes());
    ad.extend_from_slice(&idx_r.to_be_bytes());
    ad.extend_from_slice(w.r.id.key_id());
    let ct = &msg2[boff + 16..boff + 132];
    let mut t_in = ad.clone();
    t_in.extend_from_slice(ct);
    t_in.extend_from_slice(&(ad.len() as u64).to_be_bytes());
    t_in.extend_from_slice(&(ct.len() as u64).to_be_bytes());
    let ka: [u8; 32] = bk[32..].try_into().unwrap();
    assert_eq!(
        blake3::keyed_hash(&ka, &t_in).as_bytes()[..16],
        msg2[boff + 132..boff + 148],
        "biscuit tag"
    );
    let ke: [u8; 32] = bk[..32].try_into().unwrap();
    let mut pt = std::vec![0u8; 116];
    blake3::Hasher::new_keyed(&ke).finalize_xof().fill(&mut pt);
    pt.iter_mut().zip(ct).for_each(|(p, c)| *p ^= c);

    let (trace, keys) = trace_json(&a);
    let init_secret = a.initial_secret_for_test();
    // The suite's ratchet KEM: X-Wing after a `-X` suite (issue #33 L8).
    let kem_id = a.ratchet_kem_id();
    let root_0 = pqdr_ratchet::testing::root0(&init_secret, kem_id, pqdr_ratchet::Mode::Datagram);
    let cfg_r = pqdr_ratchet::Config {
        ratchet_on_start: false,
        ..Default::default()
    };
    let rk_0 = if kem_id == pqdr_ratchet::XWing::ID {
        a.into_session::<pqdr_ratchet::XWing, _>(&cfg_r, now, &mut rng(9))
            .unwrap()
            .leak()
            .slots[0]
            .rk
            .unwrap()
    } else {
        a.into_session::<pqdr_ratchet::MlKem768, _>(&cfg_r, now, &mut rng(9))
            .unwrap()
            .leak()
            .slots[0]
            .rk
            .unwrap()
    };
    let fname = if name.starts_with("KMc") { "kmc" } else { "" };
    json!({
        "name": name,
        "suite": suite.id(),
        "app_label": hex(LABEL),
        "psk": psk.then(|| hex(&PSK)),
        "ts": hex(&clock().to_bytes()),
        "initiator": side_json(&w.i, 1, idx_i, &format!("{fname}_i")),
        "responder": side_json(&w.r, 2, idx_r, &format!("{fname}_r")),
        "draws": draws,
        "static": static_json,
        "ephemeral": {"ek_E": hex(ek_e), "ct_E": hex(ct_e), "ss_E": hex(&ss_e)},
        "trace": trace,
        "keys": keys,
        "biscuit": {"bkey": hex(&BKEY), "salt": hex(bsalt), "no": 1, "plaintext": hex(&pt)},
        "msg1": hex(&msg1),
        "msg2": hex(&msg2),
        "msg3": hex(&msg3),
        "cookie": {
            "src": hex(SRC), "csecret": hex(&CSECRET), "salt": hex(&reply[8..24]),
            "cookie": hex(&resp.cookie_for_test(SRC)), "reply": hex(&reply), "msg1_with_mac2": hex(&msg1_mac2),
        },
        "output": {
            "secret": hex(b.initial_secret_for_test().secret),
            "transcript": hex(b.initial_secret_for_test().transcript),
            "context": hex(b.initial_secret_for_test().context),
        },
        "ratchet": {"kem_id": kem_id, "aead_id": pqdr_ratchet::AEAD_ID, "mode": 0, "root_0": hex(&root_0), "rk_0": hex(&rk_0)},
    })
}

/// The static shared secret, decapsulated test-side with the receiver's key.
fn static_ss<A: TestKeys>(side: &Side<A>, ct: &[u8]) -> [u8; 32] {
    // Re-derive through a second identity is not possible (keys are owned);
    // use the primitive crates directly on regenerated keys.
    let seed = if side.id.key_id() == Side::<A>::new(1, side.x_secret.is_some()).id.key_id() {
        1
    } else {
        2
    };
    let (sk, _) = A::keypair(seed);
    let mut ss = [0u8; 32];
    decap::<A>(&sk, ct, &mut ss);
    ss
}

fn decap<A: Auth>(sk: &A::SecretKey, ct: &[u8], ss: &mut [u8; 32]) {
    A::decapsulate(sk, ct, ss);
}

#[test]
fn vectors_v1() {
    let cases = vec![
        case::<K768>("K768", false, Ephemeral::MlKem768, false),
        case::<K768>("K768-X", true, Ephemeral::MlKem768, false),
        case::<K768>("K768-psk", false, Ephemeral::MlKem768, true),
        case::<KMc>("KMc", false, Ephemeral::MlKem768, false),
        case::<KMc>("KMc-X", true, Ephemeral::MlKem768, false),
        case::<KMc>("KMc-c", false, Ephemeral::MlKem512, false),
        case::<KNt>("KNt", false, Ephemeral::MlKem768, false),
        case::<KNt>("KNt-X", true, Ephemeral::MlKem768, false),
        case::<S44>("S44", false, Ephemeral::MlKem768, false),
        case::<S44>("S44-X", true, Ephemeral::MlKem768, false),
        case::<S65>("S65", false, Ephemeral::MlKem768, false),
        case::<S65>("S65-X", true, Ephemeral::MlKem768, false),
        case::<S87>("S87", false, Ephemeral::MlKem768, false),
        case::<S87>("S87-X", true, Ephemeral::MlKem768, false),
    ];
    let doc = json!({"prefix": PREFIX, "cases": cases});
    let text = serde_json::to_string_pretty(&doc).unwrap() + "\n";
    let path = format!("{}/vectors/v1.json", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("PQDR_WRITE_VECTORS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed =
        std::fs::read_to_string(&path).expect("vectors/v1.json (PQDR_WRITE_VECTORS=1 writes it)");
    assert!(
        committed == text,
        "vectors/v1.json differs from what the library computes now"
    );
}

//! Tamper tests (docs/protocol/handshake.md §9, issue 15): every field of msg1, msg2, msg3
//! and the cookie reply, in every suite, flipped, truncated by one byte and
//! extended by one byte. Each case asserts the typed error the spec's order
//! of checks gives (the tables in `tamper_ctx/`) and a bit-identical state afterwards.
//!
//! Besides the raw mutation (caught by mac1 or an earlier check), a *deep*
//! flip re-authenticates the outer MAC test-side (mac1 of msg1/msg3 is keyed
//! by the public DK(C_MAC1, hpk_R); msg2's k_m is read from an identical
//! initiator's key-schedule trace), so the check that guards the field
//! itself is reached. SIG-mode msg2/msg3 are also re-sealed test-side (k3/k4
//! from the trace) to reach sig_R, kind, id, ts and sig_I.
//!
//! Run with `--nocapture` for the per-suite counts.
#![allow(
    clippy::unwrap_used,
    clippy::missing_panics_doc,
    clippy::too_many_lines
)]

use crate::adv;
use crate::common;
use crate::tamper_ctx;
use adv::*;
use common::*;
use pqdr_handshake::Error::{
    Decrypt, InvalidEncapsulationKey, LowOrderPoint, Mac1, Signature, StaleTimestamp,
    SuiteNotAccepted, UnknownPeer,
};
use pqdr_handshake::{
    Ephemeral, Error, Initiator, InitiatorConfig, Instant, K768, KMc, KNt, Load, Mode, Reply, S44,
    S65, S87, Tai64N,
};
use tamper_ctx::*;

/// Every tamper case of one suite; returns the counts.
fn tamper_suite<A: TestKem>(hybrid: bool, eph: Ephemeral, b: Budget) -> (String, Counts) {
    let w = World::<A>::new(hybrid, eph);
    let mut cx = Ctx::new(&w);
    let name = Initiator::start(
        &w.cfg(),
        &w.i.id,
        clock(),
        Tai64N::default(),
        Instant(0),
        &mut rng(1),
    )
    .unwrap()
    .suite()
    .name();
    let f = Fields::of::<A>(cx.suite);
    let kem = A::MODE == Mode::Kem;
    let hpk_r = cx.hpk_r;
    let own_x = cx.own_x;

    // ------------------------------------------------------------ msg1
    let (mut init, msg1) = cx.start(7);
    let pristine = init.snapshot();
    assert_eq!(msg1.len(), f.msg1_len(), "{name}: msg1 length");
    let m1_model = |m: &[u8]| msg1_prefix::<A>(m, own_x);
    // SIG: deep ek_E flips that keep a valid key / that break FIPS 203 §7.2.
    let mut ek_seen = [0usize; 2];
    for (field, range) in f.msg1() {
        let (_, flip_e, deep_e, trunc_e, ext_e) = row(if kem { MSG1_KEM } else { MSG1_SIG }, field);
        for (byte, bit) in flip_positions(&range, b.all, b.spread) {
            let m = flip(&msg1, byte, bit);
            let what = format!("{name} msg1 {field} flip {byte}.{bit}");
            match resolve(flip_e, m1_model(&m), &what) {
                E(e) => drop(cx.r1(&m, Load::Normal, Err(e), &what)),
                Accept => {
                    let m2 = cx.r1(&m, Load::Normal, Ok(()), &what).unwrap();
                    if byte == range.start && bit == 0 {
                        // mac2 is not in th: the msg2 completes an identical initiator.
                        let (mut twin, _) = cx.start(7);
                        assert!(cx.i2(&mut twin, &m2, Ok(()), &what).is_some());
                    }
                }
                other => panic!("{what}: {other:?}"),
            }
            cx.c.m1 += 1;
        }
        if deep_e != No {
            for (byte, bit) in deep_positions(&range, b) {
                let mut m = flip(&msg1, byte, bit);
                remac_msg1(&mut m, &hpk_r);
                let what = format!("{name} msg1 {field} deep flip {byte}.{bit}");
                let exp = match deep_e {
                    EkCheck if ek_valid(&m[f.msg1()[4].1.clone()]) => {
                        ek_seen[0] += 1;
                        Then(Mac1)
                    }
                    EkCheck => {
                        ek_seen[1] += 1;
                        E(InvalidEncapsulationKey)
                    }
                    e => e,
                };
                match exp {
                    E(e) => drop(cx.r1(&m, Load::Normal, Err(e), &what)),
                    Then(e) => {
                        let m2 = cx.r1(&m, Load::Normal, Ok(()), &what).unwrap();
                        cx.i2(&mut init, &m2, Err(e), &format!("{what} → msg2"));
                    }
                    other => panic!("{what}: {other:?}"),
                }
                cx.c.m1 += 1;
            }
        }
        for (kind, exp, m) in [
            ("truncated", trunc_e, truncate(&msg1, &range)),
            ("extended", ext_e, extend(&msg1, &range)),
        ] {
            let what = format!("{name} msg1 {field} {kind}");
            let E(e) = resolve(exp, m1_model(&m), &what) else {
                panic!("{what}")
            };
            cx.r1(&m, Load::Normal, Err(e), &what);
            cx.c.m1 += 1;
        }
    }
    if !kem {
        assert!(
            ek_seen[0] > 0 && ek_seen[1] > 0,
            "{name}: both ek_E outcomes exercised: {ek_seen:?}"
        );
    }
    // Special msg1 cases: an invalid ek_E (FIPS 203 §7.2), low-order X_I.
    let ek_r = f.msg1()[4].1.clone();
    if kem {
        // ek_E is bound into th before enc_id: build msg1 test-side around a bad key.
        let x = hybrid.then(|| {
            (
                [0x77; 32],
                w.i.x_secret.unwrap(),
                w.r.id.x25519_public().unwrap(),
            )
        });
        let eph_dk = ml_kem_768::DecapsulationKey::from_seed(&[0x31; 64]);
        let eph_dk512 = pqdr_mlkem::ml_kem_512::DecapsulationKey::from_seed(&[0x31; 64]);
        let mut ek = if eph == Ephemeral::MlKem512 {
            eph_dk512.encapsulation_key().as_bytes().to_vec()
        } else {
            eph_dk.encapsulation_key().as_bytes().to_vec()
        };
        for valid in [true, false] {
            if !valid {
                break_ek(&mut ek);
                assert!(!ek_valid(&ek));
            }
            let spec = Msg1Spec {
                suite: cx.suite,
                sender: 0x0102_0304,
                ek: &ek,
                hpk_i: *w.i.id.key_id(),
                hpk_r,
                x,
                psk: None,
                ts: clock(),
                label: LABEL,
            };
            let (m, k_m) = build_msg1::<A>(&spec, &w.r.pk, &mut rng(33));
            let what = format!("{name} msg1 test-side ek valid={valid}");
            if valid {
                // The control: the test-side schedule matches (msg2's mac1 verifies under our k_m).
                let m2 = cx.r1(&m, Load::Normal, Ok(()), &what).unwrap();
                assert_eq!(
                    mac16(&k_m, &mac1_input(&m2, m2.len() - 16)),
                    m2[m2.len() - 16..],
                    "{what}: k_m"
                );
            } else {
                cx.r1(&m, Load::Normal, Err(InvalidEncapsulationKey), &what);
            }
            cx.c.m1 += 1;
        }
    } else {
        let mut m = msg1.clone();
        break_ek(&mut m[ek_r.clone()]);
        remac_msg1(&mut m, &hpk_r);
        cx.r1(
            &m,
            Load::Normal,
            Err(InvalidEncapsulationKey),
            &format!("{name} msg1 ek ≥ q"),
        );
        cx.c.m1 += 1;
    }
    if hybrid {
        let xr = f.msg1().iter().find(|x| x.0 == "X_I").unwrap().1.clone();
        for (k, p) in LOW_ORDER.iter().enumerate() {
            let mut m = msg1.clone();
            m[xr.clone()].copy_from_slice(p);
            remac_msg1(&mut m, &hpk_r);
            cx.r1(
                &m,
                Load::Normal,
                Err(LowOrderPoint),
                &format!("{name} msg1 X_I low order #{k}"),
            );
            cx.c.m1 += 1;
        }
    }
    assert_eq!(
        init.snapshot(),
        pristine,
        "{name}: initiator after msg1 cases"
    );

    // ------------------------------------------------------------ msg2
    let msg2 = cx
        .r1(&msg1, Load::Normal, Ok(()), &format!("{name} genuine msg1"))
        .unwrap();
    assert_eq!(msg2.len(), f.msg2_len(), "{name}: msg2 length");
    // The oracle: an identical initiator completes the genuine msg2; its trace gives k_m, k3.
    let (mut oracle, _) = cx.start(7);
    assert_eq!(
        oracle.snapshot(),
        pristine,
        "{name}: initiators are deterministic"
    );
    let est_o = cx.i2(&mut oracle, &msg2, Ok(()), "oracle").unwrap();
    let (k_m, _) = traced_key(est_o.trace(), b'm');
    let (k3, th3) = traced_key(est_o.trace(), b'3');
    let (idx, suite) = (init.index(), cx.suite);
    let m2_model = |m: &[u8]| msg2_prefix::<A>(m, suite, idx);
    for (field, range) in f.msg2() {
        let (_, flip_e, deep_e, trunc_e, ext_e) = row(MSG2, field);
        for (byte, bit) in flip_positions(&range, b.all, b.spread) {
            let m = flip(&msg2, byte, bit);
            let what = format!("{name} msg2 {field} flip {byte}.{bit}");
            let E(e) = resolve(flip_e, m2_model(&m), &what) else {
                panic!("{what}")
            };
            cx.i2(&mut init, &m, Err(e), &what);
            cx.c.m2 += 1;
        }
        if deep_e != No {
            for (byte, bit) in deep_positions(&range, b) {
                let mut m = flip(&msg2, byte, bit);
                remac_tail(&mut m, &k_m);
                let what = format!("{name} msg2 {field} deep flip {byte}.{bit}");
                match resolve(deep_e, m2_model(&m), &what) {
                    E(e) => drop(cx.i2(&mut init, &m, Err(e), &what)),
                    Then(e) => {
                        let est = cx.i2(&mut init, &m, Ok(()), &what).unwrap();
                        cx.r3(est.msg3().unwrap(), Err(e), &format!("{what} → msg3"));
                        init = cx.start(7).0;
                    }
                    other => panic!("{what}: {other:?}"),
                }
                cx.c.m2 += 1;
            }
        }
        for (kind, exp, m) in [
            ("truncated", trunc_e, truncate(&msg2, &range)),
            ("extended", ext_e, extend(&msg2, &range)),
        ] {
            let what = format!("{name} msg2 {field} {kind}");
            let E(e) = resolve(exp, m2_model(&m), &what) else {
                panic!("{what}")
            };
            cx.i2(&mut init, &m, Err(e), &what);
            cx.c.m2 += 1;
        }
    }
    if hybrid {
        let xr = f.msg2().iter().find(|x| x.0 == "X_R").unwrap().1.clone();
        for (k, p) in LOW_ORDER.iter().enumerate() {
            let mut m = msg2.clone();
            m[xr.clone()].copy_from_slice(p);
            remac_tail(&mut m, &k_m);
            cx.i2(
                &mut init,
                &m,
                Err(LowOrderPoint),
                &format!("{name} msg2 X_R low order #{k}"),
            );
            cx.c.m2 += 1;
        }
    }
    if kem {
        // conf_R = KH(k3, th)[0..16] (§4.4 step 5): the field is that MAC, and
        // the v2-before-#33 construction Seal(k3, ε, ad = th) is refused.
        let cr = f.msg2().iter().find(|x| x.0 == "conf_R").unwrap().1.clone();
        assert_eq!(
            &msg2[cr.clone()],
            &mac16(&k3, &th3)[..],
            "{name}: conf_R = KH(k3, th)[..16]"
        );
        let mut m = msg2.clone();
        m[cr].copy_from_slice(&seal(&k3, &[], &th3));
        remac_tail(&mut m, &k_m);
        cx.i2(
            &mut init,
            &m,
            Err(Decrypt),
            &format!("{name} msg2 conf_R as Seal(k3, ε)"),
        );
        cx.c.m2 += 1;
    }
    if !kem {
        // sig_R re-sealed under k3: a flipped signature bit must fail ML-DSA.Verify.
        let er = f.msg2().iter().find(|x| x.0 == "enc_R").unwrap().1.clone();
        let sig = open(&k3, &msg2[er.clone()], &th3).expect("k3/th3 from the trace open enc_R");
        for pos in [0, sig.len() >> 1, sig.len() - 1] {
            let mut bad = sig.clone();
            bad[pos] ^= 0x10;
            let mut m = msg2.clone();
            m[er.clone()].copy_from_slice(&seal(&k3, &bad, &th3));
            remac_tail(&mut m, &k_m);
            cx.i2(
                &mut init,
                &m,
                Err(Signature),
                &format!("{name} msg2 sig_R byte {pos} re-sealed"),
            );
            cx.c.m2 += 1;
        }
    }
    assert_eq!(
        init.snapshot(),
        pristine,
        "{name}: initiator after msg2 cases"
    );

    // ------------------------------------------------------------ msg3
    let est_i = cx.i2(&mut init, &msg2, Ok(()), "genuine msg2").unwrap();
    let msg3 = est_i.msg3().unwrap().to_vec();
    assert_eq!(msg3.len(), f.msg3_len(32), "{name}: msg3 length");
    let m3_model = |m: &[u8]| msg3_prefix::<A>(m, own_x);
    let mk = mac1_key(&hpk_r);
    for (field, range) in f.msg3() {
        let (_, flip_e, deep_e, trunc_e, ext_e) = row(MSG3, field);
        for (byte, bit) in flip_positions(&range, b.all, b.spread) {
            let m = flip(&msg3, byte, bit);
            let what = format!("{name} msg3 {field} flip {byte}.{bit}");
            let E(e) = resolve(flip_e, m3_model(&m), &what) else {
                panic!("{what}")
            };
            cx.r3(&m, Err(e), &what);
            cx.c.m3 += 1;
        }
        if deep_e != No {
            for (byte, bit) in deep_positions(&range, b) {
                let mut m = flip(&msg3, byte, bit);
                remac_tail(&mut m, &mk);
                let what = format!("{name} msg3 {field} deep flip {byte}.{bit}");
                match resolve(deep_e, m3_model(&m), &what) {
                    E(e) => drop(cx.r3(&m, Err(e), &what)),
                    other => panic!("{what}: {other:?}"),
                }
                cx.c.m3 += 1;
            }
        }
        for (kind, exp, m) in [
            ("truncated", trunc_e, truncate(&msg3, &range)),
            ("extended", ext_e, extend(&msg3, &range)),
        ] {
            let what = format!("{name} msg3 {field} {kind}");
            let E(e) = resolve(exp, m3_model(&m), &what) else {
                panic!("{what}")
            };
            cx.r3(&m, Err(e), &what);
            cx.c.m3 += 1;
        }
    }
    if kem {
        // conf_I = KH(k4, th)[0..16] (§4.4 step 6); Seal(k4, ε, ad = th) is refused.
        let (k4, th4) = traced_key(est_i.trace(), b'4');
        let c = 12 + BISCUIT..msg3.len() - 16;
        assert_eq!(
            &msg3[c.clone()],
            &mac16(&k4, &th4)[..],
            "{name}: conf_I = KH(k4, th)[..16]"
        );
        let mut m = msg3.clone();
        m[c].copy_from_slice(&seal(&k4, &[], &th4));
        remac_tail(&mut m, &mk);
        cx.r3(
            &m,
            Err(Decrypt),
            &format!("{name} msg3 conf_I as Seal(k4, ε)"),
        );
        cx.c.m3 += 1;
    }
    if !kem {
        // enc_I re-sealed under k4 (from the initiator's trace): kind, id, ts, sig_I.
        let (k4, th4) = traced_key(est_i.trace(), b'4');
        let c = 12 + BISCUIT..msg3.len() - 16;
        let pt = open(&k4, &msg3[c.clone()], &th4).expect("k4/th4 open enc_I");
        let reseal = |pt: &[u8]| {
            let mut m = msg3[..c.start].to_vec();
            m.extend_from_slice(&seal(&k4, pt, &th4));
            m.extend_from_slice(&[0; 16]);
            remac_tail(&mut m, &mk);
            m
        };
        assert_eq!(
            reseal(&pt),
            msg3,
            "{name}: test-side re-seal reproduces msg3"
        );
        assert_eq!(
            (pt[0], &pt[1..33]),
            (0, &w.i.id.key_id()[..]),
            "{name}: kind 0, id = hpk_I"
        );
        let (ts, sig) = (&pt[33..45], &pt[45..]);
        let vk = A::public_bytes(&w.i.pk).to_vec();
        let with = |kind: u8, id: &[u8], ts: &[u8], sig: &[u8]| [&[kind][..], id, ts, sig].concat();
        let mut bad_sig = sig.to_vec();
        bad_sig[7] ^= 1;
        let mut ts_plus = ts.to_vec();
        ts_plus[11] ^= 1;
        let zero_ts = Tai64N::default().to_bytes();
        let cases: [(&str, Vec<u8>, Result<(), Error>); 8] = [
            // The kind byte names the id length, hence the msg3 length.
            (
                "kind 2",
                with(2, &pt[1..33], ts, sig),
                Err(len(f.msg3_len(f.vk), f.msg3_len(32))),
            ),
            (
                "kind 1 with a 32-byte id",
                with(1, &pt[1..33], ts, sig),
                Err(len(f.msg3_len(f.vk), f.msg3_len(32))),
            ),
            (
                "kind 0 with a verifying key",
                with(0, &vk, ts, sig),
                Err(len(f.msg3_len(32), f.msg3_len(f.vk))),
            ),
            (
                "sig_I bit flipped",
                with(0, &pt[1..33], ts, &bad_sig),
                Err(Signature),
            ),
            (
                "ts changed under the same sig_I",
                with(0, &pt[1..33], &ts_plus, sig),
                Err(Signature),
            ),
            (
                "ts not after last_ts",
                with(0, &pt[1..33], &zero_ts, sig),
                Err(StaleTimestamp),
            ),
            (
                "unknown id",
                with(0, &[0x42; 32], ts, sig),
                Err(UnknownPeer),
            ),
            (
                "kind 1 with the verifying key",
                with(1, &vk, ts, sig),
                Ok(()),
            ),
        ];
        for (what, pt, exp) in cases {
            let m = reseal(&pt);
            let what = format!("{name} msg3 enc_I re-sealed: {what}");
            if exp.is_ok() {
                // Accepted (this crate takes kind 0 and kind 1): on a copy of the peer table.
                let mut t2 = w.table();
                t2.rec = cx.table.rec;
                let est = cx
                    .resp
                    .handle_msg3(&mut t2, SRC, &m, Load::Normal, cx.now)
                    .unwrap_or_else(|e| panic!("{what}: {e:?}"));
                assert_eq!(est.peer(), w.i.id.key_id(), "{what}");
                assert_eq!(t2.rec.last_timestamp(), clock(), "{what}");
                assert_ne!(
                    est.transcript(),
                    est_i.transcript(),
                    "{what}: enc_I is in th"
                );
            } else {
                cx.r3(&m, exp, &what);
            }
            cx.c.m3 += 1;
        }
    }
    // The control: the genuine msg3 still completes, both sides agree.
    let est_r = cx
        .r3(&msg3, Ok(()), &format!("{name} genuine msg3"))
        .unwrap();
    assert_eq!(
        est_r.initial_secret_for_test().secret,
        est_i.initial_secret_for_test().secret,
        "{name}"
    );
    assert_eq!(cx.table.rec.last_timestamp(), clock());

    // ------------------------------------------------------------ cookie reply
    let (mut init_c, msg1_c) = cx.start(11);
    let mut out = vec![0u8; 6144];
    let snap = cx.resp.snapshot();
    let got = cx.resp.handle_msg1(
        &mut cx.table,
        SRC,
        &msg1_c,
        Load::Under,
        cx.now,
        &mut cx.rr,
        &mut out,
    );
    assert_eq!(got, Ok(Reply::CookieReply(56)), "{name}");
    assert_eq!(cx.resp.snapshot(), snap);
    let reply = out[..56].to_vec();
    let pristine_c = init_c.snapshot();
    let idx_c = init_c.index();
    for (field, range) in cookie_fields() {
        let (_, flip_e, _, trunc_e, ext_e) = row(COOKIE, field);
        let mut cases: Vec<(String, Vec<u8>, Exp)> = flip_positions(&range, b.all, b.spread)
            .into_iter()
            .map(|(byte, bit)| {
                (
                    format!("flip {byte}.{bit}"),
                    flip(&reply, byte, bit),
                    flip_e,
                )
            })
            .collect();
        cases.push(("truncated".into(), truncate(&reply, &range), trunc_e));
        cases.push(("extended".into(), extend(&reply, &range), ext_e));
        for (kind, m, exp) in cases {
            let what = format!("{name} cookie reply {field} {kind}");
            let E(e) = resolve(exp, cookie_prefix(&m, suite, idx_c), &what) else {
                panic!("{what}")
            };
            assert_eq!(init_c.handle_cookie_reply(&m, cx.t_i), Err(e), "{what}");
            assert_eq!(
                init_c.snapshot(),
                pristine_c,
                "{what}: initiator state changed"
            );
            cx.c.cr += 1;
        }
    }
    // The control: the genuine reply is taken.
    assert_eq!(init_c.handle_cookie_reply(&reply, cx.t_i), Ok(()), "{name}");
    assert_ne!(init_c.snapshot(), pristine_c);
    (name.to_string(), cx.c)
}

type Job = Box<dyn Fn() -> (String, Counts) + Send + Sync>;

#[test]
fn tamper_every_field_of_every_suite() {
    let jobs: Vec<Job> = vec![
        Box::new(|| tamper_suite::<K768>(false, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<K768>(true, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<KMc>(false, Ephemeral::MlKem768, LIGHT)),
        Box::new(|| tamper_suite::<KMc>(true, Ephemeral::MlKem768, LIGHT)),
        Box::new(|| tamper_suite::<KMc>(false, Ephemeral::MlKem512, LIGHT)),
        Box::new(|| tamper_suite::<KMc>(true, Ephemeral::MlKem512, LIGHT)),
        Box::new(|| tamper_suite::<KNt>(false, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<KNt>(true, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S44>(false, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S44>(true, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S65>(false, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S65>(true, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S87>(false, Ephemeral::MlKem768, FULL)),
        Box::new(|| tamper_suite::<S87>(true, Ephemeral::MlKem768, FULL)),
    ];
    let next = core::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let r = job();
                    results.lock().unwrap()[i] = Some(r);
                }
            });
        }
    });
    let results: Vec<(String, Counts)> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let mut total = Counts::default();
    for (name, c) in &results {
        println!(
            "tamper: {name:8} msg1 {:4} msg2 {:4} msg3 {:4} cookie reply {:3} cases = {:5}",
            c.m1,
            c.m2,
            c.m3,
            c.cr,
            c.total(),
        );
        total.m1 += c.m1;
        total.m2 += c.m2;
        total.m3 += c.m3;
        total.cr += c.cr;
    }
    println!(
        "tamper: total    msg1 {:4} msg2 {:4} msg3 {:4} cookie reply {:3} cases = {:5} ({} suites)",
        total.m1,
        total.m2,
        total.m3,
        total.cr,
        total.total(),
        results.len()
    );
    assert_eq!(results.len(), 14);
    assert!(total.total() > 10_000, "{total:?}");
}

// ---------------------------------------------------------------- cases outside the tables

/// One handshake attempt of `w`'s initiator with a different app label:
/// KEM mode fails at the responder (enc_id does not open: th_0 binds the
/// label); SIG mode at the initiator (k_m differs: msg2's mac1).
fn wrong_label<A: TestKem>(hybrid: bool) -> usize {
    let w = World::<A>::new(hybrid, Ephemeral::MlKem768);
    let mut cx = Ctx::new(&w);
    let cfg = InitiatorConfig {
        peer: w.r.peer(hybrid),
        app_label: b"pqdr other",
        ephemeral: Ephemeral::MlKem768,
    };
    let mut init = Initiator::start(
        &cfg,
        &w.i.id,
        clock(),
        Tai64N::default(),
        cx.now,
        &mut rng(7),
    )
    .unwrap();
    let mut m1 = vec![0u8; 4096];
    let n1 = init.poll_transmit(cx.now, &mut m1).unwrap();
    let what = format!("{} wrong app label", init.suite().name());
    if A::MODE == Mode::Kem {
        cx.r1(&m1[..n1], Load::Normal, Err(Decrypt), &what);
    } else {
        let m2 = cx.r1(&m1[..n1], Load::Normal, Ok(()), &what).unwrap();
        cx.i2(&mut init, &m2, Err(Mac1), &what);
    }
    1
}

#[test]
fn wrong_app_label_fails() {
    let n = wrong_label::<K768>(false)
        + wrong_label::<K768>(true)
        + wrong_label::<KNt>(false)
        + wrong_label::<S44>(false)
        + wrong_label::<S65>(true);
    println!("tamper: wrong app label {n} cases");
}

/// KEM mode: a plain msg1 to a `-X` responder and a `-X` msg1 to a plain one
/// are refused before mac1 (`SuiteNotAccepted`), state unchanged.
fn hybrid_mismatch_kem<A: TestKem>() -> usize {
    let plain = World::<A>::new(false, Ephemeral::MlKem768);
    let hyb = World::<A>::new(true, Ephemeral::MlKem768);
    let mut n = 0;
    for (from, to) in [(&plain, &hyb), (&hyb, &plain)] {
        let (_, m1) = Ctx::new(from).start(7);
        let mut cx = Ctx::new(to);
        cx.r1(
            &m1,
            Load::Normal,
            Err(SuiteNotAccepted),
            "msg1 to a responder of the other kind",
        );
        // Also with mac1 recomputed for the receiving responder: still refused first.
        let mut m = m1.clone();
        remac_msg1(&mut m, to.r.id.key_id());
        cx.r1(&m, Load::Normal, Err(SuiteNotAccepted), "re-MACed");
        n += 2;
    }
    // The responder's own suite with the hybrid bit flipped in an otherwise genuine msg1.
    let mut cx = Ctx::new(&hyb);
    let (_, mut m1) = cx.start(7);
    m1[3] &= 0x7F;
    remac_msg1(&mut m1, &cx.hpk_r);
    cx.r1(&m1, Load::Normal, Err(SuiteNotAccepted), "-X bit cleared");
    n + 1
}

/// SIG mode: the responder's key is the same for S65 and S65-X; the peer's
/// policy decides at msg3 (`SuiteNotAccepted`, record unchanged).
fn hybrid_mismatch_sig<A: TestKem>() -> usize {
    let mut n = 0;
    for init_hybrid in [false, true] {
        let w = World::<A>::new(init_hybrid, Ephemeral::MlKem768);
        let mut cx = Ctx::new(&w);
        cx.table.hybrid = !init_hybrid;
        let (mut init, m1) = cx.start(7);
        let m2 = cx
            .r1(&m1, Load::Normal, Ok(()), "sig hybrid mismatch msg1")
            .unwrap();
        let est = cx
            .i2(&mut init, &m2, Ok(()), "sig hybrid mismatch msg2")
            .unwrap();
        cx.r3(
            est.msg3().unwrap(),
            Err(SuiteNotAccepted),
            &format!(
                "{} to a peer entry with hybrid = {}",
                est.suite().name(),
                !init_hybrid
            ),
        );
        n += 1;
    }
    n
}

#[test]
fn plain_and_hybrid_mismatch_refused() {
    let n = hybrid_mismatch_kem::<K768>()
        + hybrid_mismatch_kem::<KNt>()
        + hybrid_mismatch_sig::<S65>()
        + hybrid_mismatch_sig::<S44>();
    println!("tamper: plain/-X mismatch {n} cases");
}

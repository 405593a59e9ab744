//! The handshake bench's case set-up: one suite's keys, responder and peer
//! table, a real handshake, and the replay of its primitive operations'
//! inputs (checked against the messages before anything is timed).

use super::*;

impl<A: Fam> Case<A> {
    pub(crate) fn new(name: &'static str, hybrid: bool, eph: Ephemeral) -> Self {
        let kem = A::MODE == Mode::Kem;
        let (i_sk, i_pk) = A::keypair(1);
        let (r_sk, r_pk) = A::keypair(2);
        let i_pk: &'static A::PublicKey = Box::leak(i_pk);
        let r_pk: &'static A::PublicKey = Box::leak(r_pk);
        let mut i_id = Identity::new(i_sk, i_pk, SIGMA_I);
        let mut r_id = Identity::new(r_sk, r_pk, SIGMA_R);
        if hybrid && kem {
            i_id = i_id.with_x25519(i_pk, XS_I);
            r_id = r_id.with_x25519(r_pk, XS_R);
        }
        let hpk_i = *i_id.key_id();
        let hpk_r = *r_id.key_id();
        let cfg = InitiatorConfig {
            peer: peer(r_pk, r_id.x25519_public(), hybrid, hpk_r),
            app_label: LABEL,
            ephemeral: eph,
        };
        let mut store = Store {
            pk: i_pk,
            x: i_id.x25519_public(),
            hybrid,
            hpk: hpk_i,
            rec: ReplayRecord::new(),
        };
        let mut resp: Responder<A> =
            Responder::new(r_id, LABEL, NOW, &mut StdRng::seed_from_u64(100)).unwrap();
        let (seed_i, seed_r) = (11, 12);

        // One handshake: the messages every iteration replays.
        let mut ri = StdRng::seed_from_u64(seed_i);
        let mut init =
            Initiator::start(&cfg, &i_id, CLOCK, Tai64N::default(), NOW, &mut ri).unwrap();
        let mut buf = vec![0u8; wire::MSG2_MAX];
        let n1 = init.poll_transmit(NOW, &mut buf).unwrap();
        let m1 = buf[..n1].to_vec();
        let Reply::Msg2(n2) = resp
            .handle_msg1(
                &mut store,
                SRC,
                &m1,
                Load::Normal,
                NOW,
                &mut StdRng::seed_from_u64(seed_r),
                &mut buf,
            )
            .unwrap()
        else {
            panic!("cookie reply")
        };
        let m2 = buf[..n2].to_vec();
        let est_i = init.handle_msg2(&m2, &i_id, NOW, &mut ri).unwrap();
        let m3 = est_i.msg3().unwrap().to_vec();
        let est_r = resp
            .handle_msg3(&mut store, SRC, &m3, Load::Normal, NOW)
            .unwrap();
        assert_eq!(est_i.transcript(), est_r.transcript());
        assert_eq!(init.suite().name(), name);
        store.rec = ReplayRecord::new();

        let o = Self::replay(
            hybrid,
            eph,
            init.suite().id(),
            (&hpk_i, &hpk_r),
            (r_pk, i_pk),
            (seed_i, seed_r),
            (&m1, &m2, &m3),
            est_i.transcript(),
        );
        let nx = match (hybrid, kem) {
            (false, _) => 0,
            (true, true) => 5,
            (true, false) => 2,
        };
        Case {
            name,
            hybrid,
            eph,
            r_pk,
            i_pk,
            i_id,
            cfg,
            resp,
            store,
            seed_i,
            seed_r,
            m1,
            m2,
            m3,
            hpk_r,
            o,
            nx,
        }
    }

    /// Recomputes the operations' inputs from the seeded RNGs and the
    /// public messages (docs/protocol/handshake.md §4), and checks them against the messages:
    /// ek_E, ct_E (and ct_R for K768), the final transcript, and in SIG
    /// mode both signatures (opened with the recomputed k3, k4).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn replay(
        hybrid: bool,
        eph: Ephemeral,
        suite: u16,
        (hpk_i, hpk_r): (&[u8; 32], &[u8; 32]),
        (r_pk, i_pk): (&A::PublicKey, &A::PublicKey),
        (seed_i, seed_r): (u64, u64),
        (m1, m2, m3): (&[u8], &[u8], &[u8]),
        transcript: &[u8; 32],
    ) -> OpsIn<A> {
        let kem = A::MODE == Mode::Kem;
        let xl = if hybrid { 32 } else { 0 };
        let (ek_len, cte_len) = eph_sizes(eph);
        // The initiator's draws: index, e, r (KEM), x (-X), jitter, then t (SIG).
        let mut r = StdRng::seed_from_u64(seed_i);
        r.next_u32();
        let r_e = draw32(&mut r);
        let r_r = if kem { draw32(&mut r) } else { [0; 32] };
        if hybrid {
            draw32(&mut r);
        }
        r.next_u32();
        let r_t = if kem { [0; 32] } else { draw32(&mut r) };
        // The responder's: index, E, I (KEM), y (-X), s (SIG).
        let mut r = StdRng::seed_from_u64(seed_r);
        r.next_u32();
        let r_big_e = draw32(&mut r);
        let r_big_i = if kem { draw32(&mut r) } else { [0; 32] };
        let r_y = if hybrid { draw32(&mut r) } else { [0; 32] };
        let r_s = if kem { [0; 32] } else { draw32(&mut r) };

        let seed_e: [u8; 64] = coins(&SIGMA_I, &r_e, b'e');
        let ek_e = m1[8..8 + ek_len].to_vec();
        assert_eq!(EphDk::keygen(eph, &seed_e).ek(), &ek_e[..], "KGe seed");
        let m_e: [u8; 32] = coins(&SIGMA_R, &r_big_e, b'E');
        let ct_e = m2[12..12 + cte_len].to_vec();
        let mut ct = vec![0u8; cte_len];
        let ss_e = eph_encaps(eph, &ek_e, &m_e, &mut ct);
        assert_eq!(ct, ct_e, "Ee coins");

        let (mut ct_r, mut ct_i) = (Vec::new(), Vec::new());
        let coins_r = coin_stream(&SIGMA_I, &r_r, b'r');
        let coins_i = coin_stream(&SIGMA_R, &r_big_i, b'I');
        if kem {
            ct_r = m1[8 + ek_len..8 + ek_len + A::CT_LEN].to_vec();
            ct_i = m2[12 + cte_len..12 + cte_len + A::CT_LEN].to_vec();
            // Both Es, as the ops run them, give the handshake's ciphertexts.
            let mut c = vec![0u8; A::CT_LEN];
            A::s_encaps(r_pk, &mut xof_at(&coins_r), &mut c);
            assert_eq!(c, ct_r, "initiator Es coins");
            A::s_encaps(i_pk, &mut xof_at(&coins_i), &mut c);
            assert_eq!(c, ct_i, "responder Es coins");
        }

        // Transcript: th_0, then MixHash over each public segment.
        let lp = |x: &[u8]| (x.len() as u16).to_be_bytes();
        let s = suite.to_be_bytes();
        let th0 = dk(
            "transcript",
            &[&lp(PROTO), PROTO, &s, hpk_r, &lp(LABEL), LABEL],
        );
        let mix_hash = |th: &[u8; 32], x: &[u8]| dk("transcript", &[th, x]);
        // v2 (docs/protocol/handshake.md §3.5): the heads of msg1 and msg2 enter as H(head).
        let hh = |x: &[u8]| *blake3::hash(x).as_bytes();
        let (n1, n3) = (m1.len(), m3.len());
        let mut o = OpsIn {
            i_sk: A::keypair(1).0,
            r_sk: A::keypair(2).0,
            seed_e,
            m_e,
            ek_e,
            ct_e,
            ct_r,
            ct_i,
            coins_r,
            coins_i,
            msg_r: Vec::new(),
            rnd_r: [0; 32],
            sig_r: Vec::new(),
            msg_i: Vec::new(),
            rnd_i: [0; 32],
            sig_i: Vec::new(),
            x_point: x25519_dalek::x25519([0x45; 32], x25519_dalek::X25519_BASEPOINT_BYTES),
        };
        let last = if kem {
            let a = 8 + ek_len + A::CT_LEN + xl;
            let b = 12 + cte_len + A::CT_LEN + xl;
            let mut th = th0;
            let (h1, h2) = (hh(&m1[..a]), hh(&m2[..b]));
            for seg in [&h1[..], &m1[a..a + 48], &m1[a + 48..a + 76], &h2[..]] {
                th = mix_hash(&th, seg);
            }
            th = mix_hash(&th, &m2[b..b + 16]);
            th = mix_hash(&th, &m3[..12]);
            mix_hash(&th, &m3[160..176])
        } else {
            let b = 12 + cte_len + xl;
            let sig_end = b + A::SIG_LEN + 16;
            let th1 = mix_hash(&th0, &hh(&m1[..n1 - 32]));
            let th2 = mix_hash(&th1, &hh(&m2[..b]));
            let th2b = mix_hash(&th2, &m2[b..sig_end]);
            let th3 = mix_hash(&th2b, &m3[..12]);
            // k3, k4: ck_0, Mix('E', ss_E) [, Mix('c', ee)].
            let ck0 = dk("chaining key init", &[&lp(PROTO), PROTO, &s, hpk_r]);
            let mut ck = dk("mix", &[&ck0, b"E", &th2, &ss_e]);
            if hybrid {
                let x_r: [u8; 32] = coins(&SIGMA_R, &r_y, b'y');
                let x_i: [u8; 32] = m1[8 + ek_len..8 + ek_len + 32].try_into().unwrap();
                let ee = x25519_dalek::x25519(x_r, x_i);
                ck = dk("mix", &[&ck, b"c", &th2, &ee]);
            }
            let k3 = dk("handshake key", &[&ck, b"3", &th2]);
            let k4 = dk("handshake key", &[&ck, b"4", &th3]);
            o.msg_r = [&th2[..], &hpk_r[..]].concat();
            o.rnd_r = coins(&SIGMA_R, &r_s, b's');
            o.sig_r = vec![0u8; A::SIG_LEN];
            A::op_sign(&o.r_sk, &o.msg_r, CTX_R, &o.rnd_r, &mut o.sig_r);
            assert_eq!(open(&k3, &th2, &m2[b..sig_end]), o.sig_r, "sig_R replay");
            assert!(A::op_verify(r_pk, &o.msg_r, CTX_R, &o.sig_r));
            o.msg_i = [&th3[..], &hpk_i[..], &CLOCK.to_bytes()[..]].concat();
            o.rnd_i = coins(&SIGMA_I, &r_t, b't');
            o.sig_i = vec![0u8; A::SIG_LEN];
            A::op_sign(&o.i_sk, &o.msg_i, CTX_I, &o.rnd_i, &mut o.sig_i);
            let pt = open(&k4, &th3, &m3[160..n3 - 16]);
            assert_eq!(pt[0], 0, "kind");
            assert_eq!(&pt[1..33], hpk_i);
            assert_eq!(pt[33..45], CLOCK.to_bytes());
            assert_eq!(pt[45..], o.sig_i[..], "sig_I replay");
            assert!(A::op_verify(i_pk, &o.msg_i, CTX_I, &o.sig_i));
            mix_hash(&th3, &m3[160..n3 - 16])
        };
        assert_eq!(&last, transcript, "transcript replay");
        o
    }
}

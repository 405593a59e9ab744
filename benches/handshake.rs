//! pqdr-handshake: time per side and per suite against the sum of the
//! primitive operations that side performs, measured in the same run
//! (docs/protocol/handshake.md §7, §9 "Benchmark"); bytes and packets per message; the
//! responder's cost of floods.
//!
//! `cargo bench --features bench-peers --bench handshake -- --warm-up-time 1 --measurement-time 3`
//!
//! (the default features supply the primitive crates the operations are
//! measured with; `bench-peers` adds the optional KMc-c suite).
//!
//! Every suite: K768, K768-X, KMc, KMc-X, KMc-c, KNt, KNt-X, S44, S65, S87,
//! S44-X, S65-X, S87-X. One initiator and one responder (static keys from
//! fixed seeds; McEliece keys generated once), ChaCha12 (`StdRng`) as the
//! caller's RNG, re-seeded before every handshake so that every iteration
//! processes the same bytes: msg1, msg2, msg3 are fixed per suite and the
//! ML-DSA signatures take the same number of rejection rounds each time.
//!
//! * The size table (printed first): bytes of msg1/msg2/msg3 and their sum,
//!   UDP datagrams at a 1,232-byte MTU (⌈len / 1232⌉ each) and the wire bytes
//!   with 48 B of IPv6 + UDP per packet (docs/protocol/handshake.md §7's accounting).
//! * `ops` (sum of the primitive operations, docs/protocol/handshake.md §7 "Ops"), on the
//!   workspace's crates directly, with exactly the handshake's inputs
//!   (replayed from the seeded RNGs and the public messages, checked against
//!   them before anything is timed):
//!   - KEM mode, initiator: KGe (ML-KEM KeyGen from the 64-byte seed), Es
//!     (encapsulation to pk_R, reading its randomness from a copy of the
//!     handshake's own hedged-coin XOF stream: ML-KEM deterministic encaps
//!     with `m` = its first 32 bytes, McEliece `encapsulate_into`, sntrup761
//!     `encapsulate_pqclean`; the bench checks that each gives msg1's ct_R
//!     and msg2's ct_I), De, Ds (McEliece: the prepared key);
//!     responder: Ds, Ee (the FIPS 203 §7.2 check of ek_E + deterministic
//!     encaps), Es.
//!   - SIG mode, initiator: KGe, De, V (sig_R under the peer's already
//!     parsed key), S (`sign_with_rnd`); responder: Ee, S, V.
//!   - `-X`: X25519 multiplications: KEM mode 5 per side (initiator: X_I,
//!     es, ss in msg1, ee, se in msg2; responder: es, ss, X_R, ee, se), SIG
//!     mode 2 per side (X and ee).
//! * `paired` (printed): handshake and ops as alternating batches, so both
//!   sides of each ratio see the same machine load: per-operation medians
//!   over the rounds of initiator start (msg1, including `poll_transmit`),
//!   `handle_msg2` (msg3), responder `handle_msg1` (msg2) and `handle_msg3`,
//!   the ops, and the median of the per-round ratios handshake / ops
//!   (target ≤ 1.10: the protocol's own cost under 10 %).
//! * `handshake/<suite>`: the same pieces as criterion benchmarks.
//! * `handshake/pieces`: the single primitive operations, the key id of each
//!   public key (`Peer::new` hashes it; the bench's store caches it and uses
//!   `Peer::from_parts`), sntrup761's per-word-draw encapsulation from a BLAKE3
//!   XOF reader (the path before `encapsulate_pqclean`), and BLAKE3 `derive_key`
//!   with the context string hashed per call against a precomputed context key.
//! * `handshake/flood`: a forged msg1 rejected at mac1, a cookie reply under
//!   load, a msg1 refused by the per-source bucket under load (valid mac2),
//!   and a forged msg1 with a valid mac1 (anyone holding pk_R can make one)
//!   that costs the responder its static decapsulation before `Decrypt`.
//!
//! Objects are dropped (zeroized) outside the timed regions on both sides.
//!
//! Instruction counts: with `HANDSHAKE_PROFILE=<suite>:<what>:<n>` (`what`:
//! `start` | `initiator` | `msg1` | `responder` | `ops-initiator` |
//! `ops-responder`) the binary builds that one suite, runs `what` `n` times in
//! `profile_loop` and exits; run it under
//! `valgrind --tool=callgrind --toggle-collect='*profile_loop*'` to count the
//! loop alone (`initiator` = start + msg2, `responder` = msg1 + msg3).
#![allow(
    clippy::std_instead_of_core,
    clippy::unwrap_used,
    clippy::integer_division_remainder_used,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    reason = "benchmark code on public values"
)]

#[cfg(all(
    feature = "mlkem",
    feature = "mldsa",
    feature = "ntrup",
    feature = "mceliece"
))]
mod hs {
    use std::hint::black_box;
    use std::sync::OnceLock;
    use std::time::{Duration, Instant as StdInstant};

    use chacha20poly1305::aead::{AeadInOut, KeyInit};
    use chacha20poly1305::{ChaCha20Poly1305, Nonce, Tag};
    use criterion::Criterion;
    use pqdr_mlkem::{ml_kem_512, ml_kem_768};
    use pqdr_suite::handshake::{
        Auth, Ephemeral, Established, Identity, Initiator, InitiatorConfig, Instant, K768, KMc,
        KNt, Load, Mode, Peer, PeerStore, ReplayRecord, Reply, Responder, S44, S65, S87, Tai64N,
        key_id, wire,
    };
    use pqdr_suite::ratchet::blake3;
    use pqdr_suite::ratchet::blake3::hazmat::HasherExt;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand_core::{Infallible, Rng, TryCryptoRng, TryRng};

    mod families;
    mod replay;
    mod runs;
    mod spec;

    use families::*;
    use spec::*;

    const LABEL: &[u8] = b"pqdr bench";
    const SRC: &[u8] = b"192.0.2.1:51820";
    const NOW: Instant = Instant(1_000);
    const CLOCK: Tai64N = Tai64N {
        secs: 1_764_000_000,
        nanos: 5,
    };
    const SIGMA_I: [u8; 32] = [0xA1; 32];
    const SIGMA_R: [u8; 32] = [0xA2; 32];
    const XS_I: [u8; 32] = [0x31; 32];
    const XS_R: [u8; 32] = [0x32; 32];
    /// IPv6 minimum MTU and the IPv6 + UDP header bytes per packet.
    const MTU: usize = 1232;
    const IP_UDP: usize = 48;
    /// The context prefix, `PROTO` and the ML-DSA contexts (docs/protocol/handshake.md §4.1).
    const PREFIX: &str = "pqdr-handshake v1 2026-11-25T22:00Z ";
    const PROTO: &[u8] = b"pqdr-handshake v2";
    const CTX_R: &[u8] = b"pqdr-handshake v2 responder";
    const CTX_I: &[u8] = b"pqdr-handshake v2 initiator";
    /// Scalar and point of the timed X25519 operations (constant time).
    const X_SCALAR: [u8; 32] = [0x44; 32];
    /// Rounds of the alternating measurement and the time of one batch.
    const ROUNDS: usize = 120;
    const BATCH_TIME: Duration = Duration::from_millis(2);

    // ------------------------------------------------------------ the suites

    /// The responder's peer table: the one initiator, found by its cached key
    /// id and returned through `Peer::from_parts` (no hashing per lookup).
    struct Store<A: Auth + 'static> {
        pk: &'static A::PublicKey,
        x: Option<[u8; 32]>,
        hybrid: bool,
        hpk: [u8; 32],
        rec: ReplayRecord,
    }

    /// A peer from its keys and its cached key id (`Peer::from_parts`: no
    /// hashing of the public key per lookup, as a peer store should do it).
    fn peer<A: Auth>(
        pk: &A::PublicKey,
        x: Option<[u8; 32]>,
        hybrid: bool,
        hpk: [u8; 32],
    ) -> Peer<'_, A> {
        let p = Peer::from_parts(pk, x, hpk);
        let p = if hybrid && x.is_none() { p.hybrid() } else { p };
        p.allow_compact()
    }

    impl<A: Auth> PeerStore<A> for Store<A> {
        fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, A>> {
            (hpk == &self.hpk).then(|| peer(self.pk, self.x, self.hybrid, self.hpk))
        }
        fn record(&mut self, hpk: &[u8; 32]) -> Option<&mut ReplayRecord> {
            (hpk == &self.hpk).then_some(&mut self.rec)
        }
    }

    /// The inputs of the primitive operations, replayed from the handshake.
    struct OpsIn<A: Fam> {
        i_sk: A::SecretKey,
        r_sk: A::SecretKey,
        seed_e: [u8; 64],
        m_e: [u8; 32],
        ek_e: Vec<u8>,
        ct_e: Vec<u8>,
        ct_r: Vec<u8>,
        ct_i: Vec<u8>,
        /// The hedged-coin streams of the two static encapsulations (Es):
        /// the initiator's `coins(σ_I, r, 'r')`, the responder's `coins(σ_R, r, 'I')`.
        coins_r: blake3::OutputReader,
        coins_i: blake3::OutputReader,
        msg_r: Vec<u8>,
        rnd_r: [u8; 32],
        sig_r: Vec<u8>,
        msg_i: Vec<u8>,
        rnd_i: [u8; 32],
        sig_i: Vec<u8>,
        x_point: [u8; 32],
    }

    /// One suite: both identities, a responder, the fixed messages.
    struct Case<A: Fam> {
        name: &'static str,
        hybrid: bool,
        eph: Ephemeral,
        r_pk: &'static A::PublicKey,
        i_pk: &'static A::PublicKey,
        i_id: Identity<A>,
        cfg: InitiatorConfig<'static, A>,
        resp: Responder<A>,
        store: Store<A>,
        /// Seeds of the initiator's and the responder's RNG (re-seeded per handshake).
        seed_i: u64,
        seed_r: u64,
        m1: Vec<u8>,
        m2: Vec<u8>,
        m3: Vec<u8>,
        hpk_r: [u8; 32],
        o: OpsIn<A>,
        /// X25519 multiplications per side.
        nx: usize,
    }

    /// Per-operation medians of one side, from the alternating rounds.
    #[derive(Clone, Copy, Default)]
    struct Side {
        first: f64,
        second: f64,
        total: f64,
        ops: f64,
        ratio: f64,
        q1: f64,
        q3: f64,
    }

    fn median(v: &mut [f64]) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    impl<A: Fam> Case<A> {
        fn kem(&self) -> bool {
            A::MODE == Mode::Kem
        }

        /// The initiator's primitive operations (outputs returned, dropped untimed).
        fn ops_initiator(&self, ct: &mut [u8], sig: &mut [u8]) -> (EphDk, [u8; 32]) {
            let o = &self.o;
            let mut acc = [0u8; 32];
            let mut fold = |x: [u8; 32]| acc.iter_mut().zip(x).for_each(|(a, b)| *a ^= b);
            let e = EphDk::keygen(self.eph, &o.seed_e); // KGe
            black_box(e.ek());
            if self.kem() {
                fold(A::s_encaps(self.r_pk, &mut xof_at(&o.coins_r), ct)); // Es
                fold(e.decaps(&o.ct_e)); // De
                fold(A::s_decaps(&o.i_sk, &o.ct_i)); // Ds
            } else {
                fold(e.decaps(&o.ct_e)); // De
                black_box(A::op_verify(self.r_pk, &o.msg_r, CTX_R, &o.sig_r)); // V
                A::op_sign(&o.i_sk, &o.msg_i, CTX_I, &o.rnd_i, sig); // S
            }
            for _ in 0..self.nx {
                fold(x25519_dalek::x25519(X_SCALAR, o.x_point));
            }
            (e, acc)
        }

        /// The responder's primitive operations.
        fn ops_responder(&self, ct: &mut [u8], sig: &mut [u8]) -> [u8; 32] {
            let o = &self.o;
            let mut acc = [0u8; 32];
            let mut fold = |x: [u8; 32]| acc.iter_mut().zip(x).for_each(|(a, b)| *a ^= b);
            if self.kem() {
                fold(A::s_decaps(&o.r_sk, &o.ct_r)); // Ds
                fold(eph_encaps(self.eph, &o.ek_e, &o.m_e, ct)); // Ee
                fold(A::s_encaps(self.i_pk, &mut xof_at(&o.coins_i), ct)); // Es
            } else {
                fold(eph_encaps(self.eph, &o.ek_e, &o.m_e, ct)); // Ee
                A::op_sign(&o.r_sk, &o.msg_r, CTX_R, &o.rnd_r, sig); // S
                black_box(A::op_verify(self.i_pk, &o.msg_i, CTX_I, &o.sig_i)); // V
            }
            for _ in 0..self.nx {
                fold(x25519_dalek::x25519(X_SCALAR, o.x_point));
            }
            acc
        }

        /// `Initiator::start` + `poll_transmit` (msg1); returns the state and its RNG.
        fn start(&self, out: &mut [u8]) -> (Initiator<A>, StdRng, Duration) {
            let mut rng = StdRng::seed_from_u64(self.seed_i);
            let t = StdInstant::now();
            let mut init = Initiator::start(
                &self.cfg,
                &self.i_id,
                CLOCK,
                Tai64N::default(),
                NOW,
                &mut rng,
            )
            .unwrap();
            black_box(init.poll_transmit(NOW, out).unwrap());
            let d = t.elapsed();
            (init, rng, d)
        }

        /// `handle_msg2` (msg3) on a started initiator.
        fn msg2(&self, init: &mut Initiator<A>, rng: &mut StdRng) -> (Established, Duration) {
            let t = StdInstant::now();
            let est = init.handle_msg2(&self.m2, &self.i_id, NOW, rng).unwrap();
            (est, t.elapsed())
        }

        /// `handle_msg1` (msg2) on a fresh replay record.
        fn msg1(&mut self, out: &mut [u8]) -> Duration {
            self.store.rec = ReplayRecord::new();
            let mut rng = StdRng::seed_from_u64(self.seed_r);
            let t = StdInstant::now();
            let r = self
                .resp
                .handle_msg1(
                    &mut self.store,
                    SRC,
                    &self.m1,
                    Load::Normal,
                    NOW,
                    &mut rng,
                    out,
                )
                .unwrap();
            let d = t.elapsed();
            assert!(matches!(r, Reply::Msg2(_)));
            d
        }

        /// `handle_msg3` on a fresh replay record.
        fn msg3(&mut self) -> (Established, Duration) {
            self.store.rec = ReplayRecord::new();
            let t = StdInstant::now();
            let est = self
                .resp
                .handle_msg3(&mut self.store, SRC, &self.m3, Load::Normal, NOW)
                .unwrap();
            (est, t.elapsed())
        }

        fn ops_i_timed(&self, ct: &mut [u8], sig: &mut [u8]) -> Duration {
            let t = StdInstant::now();
            let out = self.ops_initiator(ct, sig);
            let d = t.elapsed();
            black_box(out);
            d
        }

        fn ops_r_timed(&self, ct: &mut [u8], sig: &mut [u8]) -> Duration {
            let t = StdInstant::now();
            let out = self.ops_responder(ct, sig);
            let d = t.elapsed();
            black_box(out);
            d
        }

        /// Alternating batches: (initiator, responder).
        fn paired(&mut self) -> (Side, Side) {
            let mut ct = vec![0u8; 2048];
            let mut sig = vec![0u8; 4700];
            let mut out = vec![0u8; wire::MSG2_MAX];
            // Batch size from one untimed estimate of each side.
            let t = StdInstant::now();
            for _ in 0..3 {
                let (mut i, mut r, _) = self.start(&mut out);
                self.msg2(&mut i, &mut r);
                self.msg1(&mut out);
                self.msg3();
            }
            let per = t.elapsed() / 3;
            let n = (BATCH_TIME.as_nanos() / per.as_nanos().max(1)).clamp(1, 64) as u32;
            let (mut is, mut im, mut it, mut io, mut ir) = (vec![], vec![], vec![], vec![], vec![]);
            let (mut r1, mut r3, mut rt, mut ro, mut rr) = (vec![], vec![], vec![], vec![], vec![]);
            for round in 0..ROUNDS {
                let (mut s, mut m, mut op) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
                let hs_first = round % 2 == 0;
                for pass in 0..2 {
                    if (pass == 0) == hs_first {
                        for _ in 0..n {
                            let (mut i, mut r, d1) = self.start(&mut out);
                            let (est, d2) = self.msg2(&mut i, &mut r);
                            black_box(est);
                            s += d1;
                            m += d2;
                        }
                    } else {
                        for _ in 0..n {
                            op += self.ops_i_timed(&mut ct, &mut sig);
                        }
                    }
                }
                let f = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(n);
                is.push(f(s));
                im.push(f(m));
                it.push(f(s + m));
                io.push(f(op));
                ir.push((s + m).as_secs_f64() / op.as_secs_f64());

                let (mut a, mut b, mut op) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
                for pass in 0..2 {
                    if (pass == 0) == hs_first {
                        for _ in 0..n {
                            a += self.msg1(&mut out);
                            let (est, d) = self.msg3();
                            black_box(est);
                            b += d;
                        }
                    } else {
                        for _ in 0..n {
                            op += self.ops_r_timed(&mut ct, &mut sig);
                        }
                    }
                }
                r1.push(f(a));
                r3.push(f(b));
                rt.push(f(a + b));
                ro.push(f(op));
                rr.push((a + b).as_secs_f64() / op.as_secs_f64());
            }
            let side = |a: &mut Vec<f64>,
                        b: &mut Vec<f64>,
                        t: &mut Vec<f64>,
                        o: &mut Vec<f64>,
                        r: &mut Vec<f64>| {
                let m = median(r);
                Side {
                    first: median(a),
                    second: median(b),
                    total: median(t),
                    ops: median(o),
                    ratio: m,
                    q1: r[r.len() / 4],
                    q3: r[r.len() * 3 / 4],
                }
            };
            (
                side(&mut is, &mut im, &mut it, &mut io, &mut ir),
                side(&mut r1, &mut r3, &mut rt, &mut ro, &mut rr),
            )
        }

        /// `n` times one side (`HANDSHAKE_PROFILE`, for callgrind).
        fn profile(&mut self, what: &str, n: u64) {
            let (mut ct, mut sig) = (vec![0u8; 2048], vec![0u8; 4700]);
            let mut out = vec![0u8; wire::MSG2_MAX];
            let mut f: Box<dyn FnMut() + '_> = match what {
                "start" => Box::new(|| {
                    black_box(self.start(&mut out));
                }),
                "initiator" => Box::new(|| {
                    let (mut i, mut r, _) = self.start(&mut out);
                    black_box(self.msg2(&mut i, &mut r));
                }),
                "msg1" => Box::new(|| {
                    black_box(self.msg1(&mut out));
                }),
                "responder" => Box::new(|| {
                    black_box(self.msg1(&mut out));
                    black_box(self.msg3());
                }),
                "ops-initiator" => Box::new(|| {
                    black_box(self.ops_initiator(&mut ct, &mut sig));
                }),
                "ops-responder" => Box::new(|| {
                    black_box(self.ops_responder(&mut ct, &mut sig));
                }),
                _ => panic!(
                    "HANDSHAKE_PROFILE=<suite>:<start|initiator|msg1|responder|ops-initiator|ops-responder>:<n>"
                ),
            };
            profile_loop(&mut *f, n);
        }

        /// Single operations of this family (run for one suite per family).
        fn pieces(&self, c: &mut Criterion) {
            let mut g = c.benchmark_group("handshake/pieces");
            if self.name.starts_with("KMc") {
                g.sample_size(30);
            }
            let o = &self.o;
            let alg = A::ALG_NAME;
            let mut rng = StdRng::seed_from_u64(5);
            let mut ct = vec![0u8; 2048];
            let mut sig = vec![0u8; 4700];
            let pk = A::public_bytes(self.i_pk);
            g.bench_function(format!("key-id/{alg} ({} B)", pk.len()), |b| {
                b.iter(|| key_id(A::ALG, black_box(pk), None))
            });
            if self.kem() {
                g.bench_function(format!("encaps/{alg}"), |b| {
                    b.iter(|| A::s_encaps(self.i_pk, &mut rng, &mut ct))
                });
                g.bench_function(format!("encaps-xof-coins/{alg}"), |b| {
                    let mut x = Xof::new(9);
                    b.iter(|| A::s_encaps(self.i_pk, &mut x, &mut ct))
                });
                g.bench_function(format!("decaps/{alg}"), |b| {
                    b.iter(|| A::s_decaps(&o.r_sk, black_box(&o.ct_r)))
                });
            } else {
                g.bench_function(format!("sign/{alg}"), |b| {
                    b.iter(|| A::op_sign(&o.r_sk, &o.msg_r, CTX_R, &o.rnd_r, &mut sig))
                });
                g.bench_function(format!("verify/{alg}"), |b| {
                    b.iter(|| A::op_verify(self.i_pk, &o.msg_i, CTX_I, black_box(&o.sig_i)))
                });
                g.bench_function(format!("verify-from-bytes/{alg}"), |b| {
                    b.iter(|| {
                        let vk = <A as Auth>::public_bytes(self.i_pk);
                        <A as Auth>::verify(black_box(vk), &[&o.msg_i], CTX_I, &o.sig_i)
                    })
                });
            }
            g.finish();
        }
    }

    /// The object-safe view of a `Case<A>` the driver iterates over.
    trait AnyCase {
        fn name(&self) -> &'static str;
        fn sizes(&self) -> [usize; 3];
        fn paired(&mut self) -> (Side, Side);
        fn criterion(&mut self, c: &mut Criterion);
        fn flood(&mut self, c: &mut Criterion, rate_limited: bool);
        fn pieces(&self, c: &mut Criterion);
        fn profile(&mut self, what: &str, n: u64);
    }

    impl<A: Fam> AnyCase for Case<A> {
        fn name(&self) -> &'static str {
            self.name
        }
        fn sizes(&self) -> [usize; 3] {
            [self.m1.len(), self.m2.len(), self.m3.len()]
        }
        fn paired(&mut self) -> (Side, Side) {
            Case::paired(self)
        }
        fn criterion(&mut self, c: &mut Criterion) {
            Case::criterion(self, c)
        }
        fn flood(&mut self, c: &mut Criterion, rate_limited: bool) {
            Case::flood(self, c, rate_limited)
        }
        fn pieces(&self, c: &mut Criterion) {
            Case::pieces(self, c)
        }
        fn profile(&mut self, what: &str, n: u64) {
            Case::profile(self, what, n)
        }
    }

    /// The loop `HANDSHAKE_PROFILE` runs: give callgrind
    /// `--toggle-collect='*profile_loop*'` to count it alone.
    #[inline(never)]
    fn profile_loop(f: &mut dyn FnMut(), n: u64) {
        for _ in 0..n {
            f();
        }
    }

    /// Builds one suite's case from its name.
    type MakeCase = Box<dyn Fn(&'static str) -> Box<dyn AnyCase>>;

    /// Every suite (or the one named).
    fn cases(only: Option<&str>) -> Vec<Box<dyn AnyCase>> {
        fn k<A: Fam>(hybrid: bool, eph: Ephemeral) -> impl Fn(&'static str) -> Box<dyn AnyCase> {
            move |name| Box::new(Case::<A>::new(name, hybrid, eph))
        }
        let (m768, m512) = (Ephemeral::MlKem768, Ephemeral::MlKem512);
        let all: [(&'static str, MakeCase); 13] = [
            ("K768", Box::new(k::<K768>(false, m768))),
            ("K768-X", Box::new(k::<K768>(true, m768))),
            ("KMc", Box::new(k::<KMc>(false, m768))),
            ("KMc-X", Box::new(k::<KMc>(true, m768))),
            ("KMc-c", Box::new(k::<KMc>(false, m512))),
            ("KNt", Box::new(k::<KNt>(false, m768))),
            ("KNt-X", Box::new(k::<KNt>(true, m768))),
            ("S44", Box::new(k::<S44>(false, m768))),
            ("S65", Box::new(k::<S65>(false, m768))),
            ("S87", Box::new(k::<S87>(false, m768))),
            ("S44-X", Box::new(k::<S44>(true, m768))),
            ("S65-X", Box::new(k::<S65>(true, m768))),
            ("S87-X", Box::new(k::<S87>(true, m768))),
        ];
        all.iter()
            .filter(|(n, _)| only.is_none_or(|o| o == *n))
            .map(|(n, make)| make(n))
            .collect()
    }

    fn size_table(cases: &[Box<dyn AnyCase>]) {
        println!(
            "\npqdr-handshake sizes (packets = ceil(len / {MTU}); wire = bytes + {IP_UDP} B IPv6/UDP per packet)"
        );
        println!(
            "| suite | msg1 | msg2 | msg3 | sum | packets | wire |\n|---|---|---|---|---|---|---|"
        );
        for c in cases {
            let s = c.sizes();
            let p = s.map(|n| n.div_ceil(MTU));
            let sum: usize = s.iter().sum();
            let wire = sum + IP_UDP * p.iter().sum::<usize>();
            println!(
                "| {} | {} | {} | {} | {sum} | {}+{}+{} | {wire} |",
                c.name(),
                s[0],
                s[1],
                s[2],
                p[0],
                p[1],
                p[2]
            );
        }
        println!();
    }

    /// Criterion's positional filter, if any.
    fn filter_given() -> Option<String> {
        const WITH_VALUE: &[&str] = &[
            "--warm-up-time",
            "--measurement-time",
            "--sample-size",
            "--save-baseline",
            "--baseline",
            "--baseline-lenient",
            "--load-baseline",
            "--profile-time",
            "--noise-threshold",
            "--confidence-level",
            "--significance-level",
            "--nresamples",
            "--output-format",
            "--plotting-backend",
            "--color",
            "--format",
        ];
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut i = 0;
        while i < args.len() {
            if WITH_VALUE.contains(&args[i].as_str()) {
                i += 2;
                continue;
            }
            if !args[i].starts_with('-') {
                return Some(args[i].clone());
            }
            i += 1;
        }
        None
    }

    pub(crate) fn all(c: &mut Criterion) {
        if let Ok(p) = std::env::var("HANDSHAKE_PROFILE") {
            let mut it = p.split(':');
            let (suite, what) = (it.next().unwrap(), it.next().unwrap());
            let n = it.next().map_or(10, |x| x.parse().unwrap());
            let mut cs = cases(Some(suite));
            cs[0].profile(what, n);
            std::process::exit(0);
        }
        let t = StdInstant::now();
        let mut cases = cases(None);
        eprintln!(
            "setup (keys, one handshake per suite, replay checks): {:.1} s",
            t.elapsed().as_secs_f64()
        );
        size_table(&cases);
        if filter_given().is_none_or(|f| f.contains("paired")) {
            println!(
                "paired ({ROUNDS} alternating rounds; per-operation medians in µs; ratio = median of the per-round ratios handshake / ops, quartiles)"
            );
            println!(
                "| suite | I start | I msg2 | I total | I ops | I ratio | R msg1 | R msg3 | R total | R ops | R ratio |"
            );
            println!("|---|---|---|---|---|---|---|---|---|---|---|");
            for case in &mut cases {
                let (i, r) = case.paired();
                println!(
                    "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.3} ({:.3}-{:.3}) | {:.1} | {:.1} | {:.1} | {:.1} | {:.3} ({:.3}-{:.3}) |",
                    case.name(),
                    i.first,
                    i.second,
                    i.total,
                    i.ops,
                    i.ratio,
                    i.q1,
                    i.q3,
                    r.first,
                    r.second,
                    r.total,
                    r.ops,
                    r.ratio,
                    r.q1,
                    r.q3
                );
            }
            println!();
        }
        for case in &mut cases {
            case.criterion(c);
        }
        for name in ["K768", "KMc", "KNt", "S44", "S65", "S87"] {
            if let Some(case) = cases.iter().find(|x| x.name() == name) {
                case.pieces(c);
            }
        }
        let mut g = c.benchmark_group("handshake/pieces");
        let (mut ct, m) = (vec![0u8; 2048], [7u8; 32]);
        for (e, n) in [
            (Ephemeral::MlKem768, "ML-KEM-768"),
            (Ephemeral::MlKem512, "ML-KEM-512"),
        ] {
            let seed = [3u8; 64];
            let dk_e = EphDk::keygen(e, &seed);
            let ek = dk_e.ek().to_vec();
            let (_, cl) = eph_sizes(e);
            eph_encaps(e, &ek, &m, &mut ct);
            let c_e = ct[..cl].to_vec();
            g.bench_function(format!("keygen-from-seed/{n}"), |b| {
                b.iter(|| EphDk::keygen(e, black_box(&seed)))
            });
            g.bench_function(format!("check-ek+encaps/{n}"), |b| {
                b.iter(|| eph_encaps(e, black_box(&ek), &m, &mut ct))
            });
            g.bench_function(format!("decaps/{n}"), |b| {
                b.iter(|| dk_e.decaps(black_box(&c_e)))
            });
        }
        g.bench_function("x25519", |b| {
            b.iter(|| x25519_dalek::x25519(black_box(X_SCALAR), [9; 32]))
        });
        let (prepared, _) = KMc::keypair(2); // the handshake's KMc key is the prepared one
        let (_, pk_m) = KMc::keypair(2);
        let mut c_m = [0u8; mc::CIPHERTEXT_SIZE];
        mc::encapsulate_into(&pk_m, &mut c_m, &mut StdRng::seed_from_u64(6));
        g.sample_size(30);
        g.bench_function("decaps-prepared/mceliece460896", |b| {
            b.iter(|| prepared.decapsulate_bytes(black_box(&c_m)).unwrap())
        });
        g.sample_size(100);
        let (_, pk_n) = KNt::keypair(2);
        // The same XOF stream gives the same ciphertext either way; the
        // handshake (and `encaps-xof-coins/sntrup761`) uses `encapsulate_pqclean`.
        let (c1, _) = pk_n.encapsulate(&mut Xof::new(8));
        let (c2, _) = pk_n.encapsulate_pqclean(&mut Xof::new(8));
        assert_eq!(c1.as_bytes(), c2.as_bytes());
        g.bench_function("encaps-per-word-draws-xof-coins/sntrup761", |b| {
            let mut x = Xof::new(9);
            b.iter(|| pk_n.encapsulate(&mut x))
        });
        let msg = vec![0x5au8; 2388];
        g.bench_function("blake3-keyed-hash/2388 B", |b| {
            b.iter(|| blake3::keyed_hash(&[1; 32], black_box(&msg)))
        });
        // One DK: the context string hashed per call (the crate before
        // cae8e1b), and from the precomputed context key (the crate now).
        const MIX: &str = "pqdr-handshake v1 2026-11-25T22:00Z mix";
        let dk97 = |mut h: blake3::Hasher| {
            h.update(black_box(&[1; 32]));
            h.update(b"E");
            h.update(&[2; 32]);
            h.update(&[3; 32]);
            *h.finalize().as_bytes()
        };
        g.bench_function("blake3-derive-key/97 B", |b| {
            b.iter(|| dk97(blake3::Hasher::new_derive_key(black_box(MIX))))
        });
        let ctx_key = blake3::hazmat::hash_derive_key_context(MIX);
        g.bench_function("blake3-derive-key-context-key/97 B", |b| {
            b.iter(|| dk97(blake3::Hasher::new_from_context_key(black_box(&ctx_key))))
        });
        g.finish();
        for case in &mut cases {
            let rl = case.name() == "K768";
            case.flood(c, rl);
        }
    }
}

#[cfg(all(
    feature = "mlkem",
    feature = "mldsa",
    feature = "ntrup",
    feature = "mceliece"
))]
criterion::criterion_group!(benches, hs::all);
#[cfg(all(
    feature = "mlkem",
    feature = "mldsa",
    feature = "ntrup",
    feature = "mceliece"
))]
criterion::criterion_main!(benches);

#[cfg(not(all(
    feature = "mlkem",
    feature = "mldsa",
    feature = "ntrup",
    feature = "mceliece"
)))]
fn main() {
    eprintln!(
        "the handshake benchmark needs the default features: cargo bench --features bench-peers --bench handshake"
    );
}

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
    const PROTO: &[u8] = b"pqdr-handshake v1";
    const CTX_R: &[u8] = b"pqdr-handshake v1 responder";
    const CTX_I: &[u8] = b"pqdr-handshake v1 initiator";
    /// Scalar and point of the timed X25519 operations (constant time).
    const X_SCALAR: [u8; 32] = [0x44; 32];
    /// Rounds of the alternating measurement and the time of one batch.
    const ROUNDS: usize = 120;
    const BATCH_TIME: Duration = Duration::from_millis(2);

    // ------------------------------------------- docs/protocol/handshake.md §4

    /// `DK(PREFIX ‖ purpose, parts…)`.
    fn dk(purpose: &str, parts: &[&[u8]]) -> [u8; 32] {
        let mut h = blake3::Hasher::new_derive_key(&format!("{PREFIX}{purpose}"));
        for p in parts {
            h.update(p);
        }
        *h.finalize().as_bytes()
    }

    /// The stream `coins(σ, label, ·)` for the 32 bytes `r` the RNG gave.
    fn coin_stream(sigma: &[u8; 32], r: &[u8; 32], label: u8) -> blake3::OutputReader {
        let mut h = blake3::Hasher::new_derive_key(&format!("{PREFIX}hedged coins"));
        h.update(sigma);
        h.update(r);
        h.update(&[label]);
        h.finalize_xof()
    }

    /// `coins(σ, label, N)`: the first N bytes of the stream.
    fn coins<const N: usize>(sigma: &[u8; 32], r: &[u8; 32], label: u8) -> [u8; N] {
        let mut out = [0u8; N];
        coin_stream(sigma, r, label).fill(&mut out);
        out
    }

    fn draw32(rng: &mut StdRng) -> [u8; 32] {
        let mut r = [0u8; 32];
        rng.fill_bytes(&mut r);
        r
    }

    /// ChaCha20-Poly1305 open with the zero nonce (docs/protocol/handshake.md §4.1 `Seal`).
    fn open(key: &[u8; 32], ad: &[u8], sealed: &[u8]) -> Vec<u8> {
        let (ct, tag) = sealed.split_at(sealed.len() - 16);
        let mut buf = ct.to_vec();
        ChaCha20Poly1305::new(&(*key).into())
            .decrypt_inout_detached(
                &Nonce::default(),
                ad,
                buf.as_mut_slice().into(),
                &Tag::try_from(tag).unwrap(),
            )
            .unwrap();
        buf
    }

    /// An RNG over a BLAKE3 XOF reader, as the handshake's hedged coins.
    struct Xof(blake3::OutputReader);

    impl Xof {
        fn new(seed: u8) -> Self {
            Xof(blake3::Hasher::new().update(&[seed]).finalize_xof())
        }
    }

    /// A fresh reader at the start of a coin stream (the handshake's `Coins`).
    fn xof_at(stream: &blake3::OutputReader) -> Xof {
        Xof(stream.clone())
    }

    impl TryRng for Xof {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            let mut b = [0u8; 4];
            self.0.fill(&mut b);
            Ok(u32::from_le_bytes(b))
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            let mut b = [0u8; 8];
            self.0.fill(&mut b);
            Ok(u64::from_le_bytes(b))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            self.0.fill(dst);
            Ok(())
        }
    }

    impl TryCryptoRng for Xof {}

    // ------------------------------------------------------------ primitives

    fn eph_sizes(e: Ephemeral) -> (usize, usize) {
        match e {
            Ephemeral::MlKem768 => (
                ml_kem_768::ENCAPSULATION_KEY_SIZE,
                ml_kem_768::CIPHERTEXT_SIZE,
            ),
            Ephemeral::MlKem512 => (
                ml_kem_512::ENCAPSULATION_KEY_SIZE,
                ml_kem_512::CIPHERTEXT_SIZE,
            ),
        }
    }

    /// The initiator's ephemeral ML-KEM key.
    #[allow(
        clippy::large_enum_variant,
        reason = "as the crate's own: no allocation in the timed KGe"
    )]
    enum EphDk {
        K768(ml_kem_768::DecapsulationKey),
        K512(ml_kem_512::DecapsulationKey),
    }

    impl EphDk {
        /// KGe: ML-KEM KeyGen from the 64-byte seed (d ‖ z).
        fn keygen(e: Ephemeral, seed: &[u8; 64]) -> Self {
            match e {
                Ephemeral::MlKem768 => EphDk::K768(ml_kem_768::DecapsulationKey::from_seed(seed)),
                Ephemeral::MlKem512 => EphDk::K512(ml_kem_512::DecapsulationKey::from_seed(seed)),
            }
        }
        fn ek(&self) -> &[u8] {
            match self {
                EphDk::K768(d) => d.encapsulation_key().as_bytes(),
                EphDk::K512(d) => d.encapsulation_key().as_bytes(),
            }
        }
        /// De.
        fn decaps(&self, ct: &[u8]) -> [u8; 32] {
            match self {
                EphDk::K768(d) => *d
                    .decapsulate(&ml_kem_768::Ciphertext::from_slice(ct).unwrap())
                    .as_bytes(),
                EphDk::K512(d) => *d
                    .decapsulate(&ml_kem_512::Ciphertext::from_slice(ct).unwrap())
                    .as_bytes(),
            }
        }
    }

    /// Ee: the FIPS 203 §7.2 check of ek_E and deterministic encaps with `m`.
    fn eph_encaps(e: Ephemeral, ek: &[u8], m: &[u8; 32], ct: &mut [u8]) -> [u8; 32] {
        match e {
            Ephemeral::MlKem768 => {
                let ek = ml_kem_768::EncapsulationKey::from_slice(ek).unwrap();
                let (c, s) = ek.encapsulate_deterministic(m);
                ct[..ml_kem_768::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
                *s.as_bytes()
            }
            Ephemeral::MlKem512 => {
                let ek = ml_kem_512::EncapsulationKey::from_slice(ek).unwrap();
                let (c, s) = ek.encapsulate_deterministic(m);
                ct[..ml_kem_512::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
                *s.as_bytes()
            }
        }
    }

    /// A static-key family: key pairs and its primitive operations, on the
    /// primitive crates directly.
    trait Fam: Auth {
        /// Name of the static algorithm (pieces table).
        const ALG_NAME: &'static str;
        fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>);
        /// Es: encapsulation to a static key, randomness from `rng`.
        fn s_encaps<R: rand_core::CryptoRng>(
            _pk: &Self::PublicKey,
            _rng: &mut R,
            _ct: &mut [u8],
        ) -> [u8; 32] {
            unreachable!()
        }
        /// Ds.
        fn s_decaps(_sk: &Self::SecretKey, _ct: &[u8]) -> [u8; 32] {
            unreachable!()
        }
        /// S: `sign_with_rnd`, the signature copied into `sig`.
        fn op_sign(
            _sk: &Self::SecretKey,
            _msg: &[u8],
            _ctx: &[u8],
            _rnd: &[u8; 32],
            _sig: &mut [u8],
        ) {
            unreachable!()
        }
        /// V under the parsed verifying key.
        fn op_verify(_pk: &Self::PublicKey, _msg: &[u8], _ctx: &[u8], _sig: &[u8]) -> bool {
            unreachable!()
        }
    }

    impl Fam for K768 {
        const ALG_NAME: &'static str = "ML-KEM-768";
        fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
            let (dk, ek) = ml_kem_768::generate_deterministic(&[seed; 32], &[seed ^ 0x55; 32]);
            (dk, Box::new(ek))
        }
        fn s_encaps<R: rand_core::CryptoRng>(
            pk: &Self::PublicKey,
            rng: &mut R,
            ct: &mut [u8],
        ) -> [u8; 32] {
            let mut m = [0u8; 32];
            rng.fill_bytes(&mut m);
            let (c, s) = pk.encapsulate_deterministic(&m);
            ct[..ml_kem_768::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
            *s.as_bytes()
        }
        fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
            *sk.decapsulate(&ml_kem_768::Ciphertext::from_slice(ct).unwrap())
                .as_bytes()
        }
    }

    use pqdr_mceliece::mceliece460896 as mc;

    /// A key pair's encodings (secret key, public key).
    type KeyBytes = (Box<[u8]>, Box<[u8]>);

    /// The two McEliece key pairs (seeds 1 and 2), generated once.
    static MC_KEYS: [OnceLock<KeyBytes>; 2] = [const { OnceLock::new() }; 2];

    impl Fam for KMc {
        const ALG_NAME: &'static str = "mceliece460896";
        fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
            let (sk, pk) = MC_KEYS[usize::from(seed - 1)].get_or_init(|| {
                let mut pk = vec![0u8; mc::ENCAPSULATION_KEY_SIZE].into_boxed_slice();
                let mut sk = vec![0u8; mc::DECAPSULATION_KEY_SIZE].into_boxed_slice();
                mc::generate_deterministic_into(
                    (&mut *pk).try_into().unwrap(),
                    (&mut *sk).try_into().unwrap(),
                    &[seed; 32],
                );
                (sk, pk)
            });
            let dk = mc::DecapsulationKey::from_slice(sk).unwrap().prepare();
            (dk, pk.clone().try_into().unwrap())
        }
        fn s_encaps<R: rand_core::CryptoRng>(
            pk: &Self::PublicKey,
            rng: &mut R,
            ct: &mut [u8],
        ) -> [u8; 32] {
            let ct: &mut [u8; mc::CIPHERTEXT_SIZE] =
                (&mut ct[..mc::CIPHERTEXT_SIZE]).try_into().unwrap();
            *mc::encapsulate_into(pk, ct, rng).as_bytes()
        }
        fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
            *sk.decapsulate_bytes(ct).unwrap().as_bytes()
        }
    }

    use pqdr_ntrup::sntrup761 as nt;

    impl Fam for KNt {
        const ALG_NAME: &'static str = "sntrup761";
        fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
            let (dk, ek) = nt::generate(&mut StdRng::seed_from_u64(u64::from(seed)));
            (dk, Box::new(ek))
        }
        fn s_encaps<R: rand_core::CryptoRng>(
            pk: &Self::PublicKey,
            rng: &mut R,
            ct: &mut [u8],
        ) -> [u8; 32] {
            // As the handshake: one 4p-byte read of the coin stream.
            let (c, s) = pk.encapsulate_pqclean(rng);
            ct[..nt::CIPHERTEXT_SIZE].copy_from_slice(c.as_bytes());
            *s.as_bytes()
        }
        fn s_decaps(sk: &Self::SecretKey, ct: &[u8]) -> [u8; 32] {
            *sk.decapsulate(&nt::Ciphertext::from_slice(ct).unwrap())
                .as_bytes()
        }
    }

    macro_rules! sig_family {
        ($t:ident, $m:ident, $name:literal) => {
            impl Fam for $t {
                const ALG_NAME: &'static str = $name;
                fn keypair(seed: u8) -> (Self::SecretKey, Box<Self::PublicKey>) {
                    let (sk, vk) = pqdr_mldsa::$m::generate_deterministic(&[seed; 32]);
                    (sk, Box::new(vk))
                }
                fn op_sign(
                    sk: &Self::SecretKey,
                    msg: &[u8],
                    ctx: &[u8],
                    rnd: &[u8; 32],
                    sig: &mut [u8],
                ) {
                    let s = sk.sign_with_rnd(msg, ctx, rnd).unwrap();
                    sig[..pqdr_mldsa::$m::SIGNATURE_SIZE].copy_from_slice(s.as_bytes());
                }
                fn op_verify(pk: &Self::PublicKey, msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                    let s = pqdr_mldsa::$m::Signature::from_slice(sig).unwrap();
                    pk.verify(msg, ctx, &s).is_ok()
                }
            }
        };
    }
    sig_family!(S44, ml_dsa_44, "ML-DSA-44");
    sig_family!(S65, ml_dsa_65, "ML-DSA-65");
    sig_family!(S87, ml_dsa_87, "ML-DSA-87");

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
        fn new(name: &'static str, hybrid: bool, eph: Ephemeral) -> Self {
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
        fn replay(
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
                for seg in [&m1[..a], &m1[a..a + 48], &m1[a + 48..a + 76], &m2[..b]] {
                    th = mix_hash(&th, seg);
                }
                th = mix_hash(&th, &m2[b..b + 16]);
                th = mix_hash(&th, &m3[..12]);
                mix_hash(&th, &m3[160..176])
            } else {
                let b = 12 + cte_len + xl;
                let sig_end = b + A::SIG_LEN + 16;
                let th1 = mix_hash(&th0, &m1[..n1 - 32]);
                let th2 = mix_hash(&th1, &m2[..b]);
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

        /// A msg1 with a valid mac1 whose enc_id does not open (KEM mode):
        /// what anyone holding pk_R can send.
        fn forged_valid_mac1(&self) -> Vec<u8> {
            let mut m = self.m1.clone();
            let (ek_len, _) = eph_sizes(self.eph);
            let xl = if self.hybrid { 32 } else { 0 };
            m[8 + ek_len + A::CT_LEN + xl] ^= 1;
            let n = m.len();
            let key = dk("mac1", &[&self.hpk_r]);
            let mac = blake3::keyed_hash(&key, &m[..n - 32]);
            m[n - 32..n - 16].copy_from_slice(&mac.as_bytes()[..16]);
            m
        }

        fn criterion(&mut self, c: &mut Criterion) {
            let mut g = c.benchmark_group(format!("handshake/{}", self.name));
            if self.name.starts_with("KMc") {
                g.sample_size(30);
            }
            let mut out = vec![0u8; wire::MSG2_MAX];
            g.bench_function("initiator-start", |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let (i, r, d) = self.start(&mut out);
                        total += d;
                        black_box((i, r));
                    }
                    total
                })
            });
            g.bench_function("initiator-msg2", |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let (mut i, mut r, _) = self.start(&mut out);
                        let (est, d) = self.msg2(&mut i, &mut r);
                        total += d;
                        black_box(est);
                    }
                    total
                })
            });
            g.bench_function("responder-msg1", |b| {
                b.iter_custom(|iters| (0..iters).map(|_| self.msg1(&mut out)).sum())
            });
            g.bench_function("responder-msg3", |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let (est, d) = self.msg3();
                        total += d;
                        black_box(est);
                    }
                    total
                })
            });
            let mut ct = vec![0u8; 2048];
            let mut sig = vec![0u8; 4700];
            g.bench_function("ops-initiator", |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| self.ops_i_timed(&mut ct, &mut sig))
                        .sum()
                })
            });
            g.bench_function("ops-responder", |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| self.ops_r_timed(&mut ct, &mut sig))
                        .sum()
                })
            });
            g.finish();
        }

        /// Flood costs: mac1 rejection, cookie reply, forged valid-mac1 msg1.
        fn flood(&mut self, c: &mut Criterion, rate_limited: bool) {
            let mut g = c.benchmark_group("handshake/flood");
            let mut out = vec![0u8; wire::MSG2_MAX];
            let mut rng = StdRng::seed_from_u64(4);
            let mut bad = self.m1.clone();
            let n = bad.len();
            bad[n - 17] ^= 1;
            g.bench_function(format!("mac1-reject/{}", self.name), |b| {
                b.iter(|| {
                    let r = self.resp.handle_msg1(
                        &mut self.store,
                        SRC,
                        black_box(&bad),
                        Load::Normal,
                        NOW,
                        &mut rng,
                        &mut out,
                    );
                    debug_assert_eq!(r, Err(pqdr_suite::handshake::Error::Mac1));
                    black_box(r.is_err())
                })
            });
            g.bench_function(format!("cookie-reply/{}", self.name), |b| {
                b.iter(|| {
                    let r = self.resp.handle_msg1(
                        &mut self.store,
                        SRC,
                        black_box(&self.m1),
                        Load::Under,
                        NOW,
                        &mut rng,
                        &mut out,
                    );
                    debug_assert_eq!(r, Ok(Reply::CookieReply(wire::COOKIE_REPLY_LEN)));
                    black_box(r.is_ok())
                })
            });
            if rate_limited {
                // A msg1 carrying the cookie's mac2, from a source whose bucket is empty.
                let Ok(Reply::CookieReply(k)) = self.resp.handle_msg1(
                    &mut self.store,
                    SRC,
                    &self.m1,
                    Load::Under,
                    NOW,
                    &mut rng,
                    &mut out,
                ) else {
                    panic!("no cookie reply")
                };
                let reply = out[..k].to_vec();
                let (mut init, _, _) = self.start(&mut out);
                init.handle_cookie_reply(&reply, NOW).unwrap();
                let k = init.poll_transmit(NOW, &mut out).unwrap();
                let with_mac2 = out[..k].to_vec();
                let mut limited = 0;
                for _ in 0..10 {
                    self.store.rec = ReplayRecord::new();
                    let r = self.resp.handle_msg1(
                        &mut self.store,
                        SRC,
                        &with_mac2,
                        Load::Under,
                        NOW,
                        &mut rng,
                        &mut out,
                    );
                    limited += usize::from(r == Err(pqdr_suite::handshake::Error::RateLimited));
                }
                assert_eq!(limited, 5, "burst of 5 per source");
                g.bench_function(format!("rate-limited/{}", self.name), |b| {
                    b.iter(|| {
                        let r = self.resp.handle_msg1(
                            &mut self.store,
                            SRC,
                            black_box(&with_mac2),
                            Load::Under,
                            NOW,
                            &mut rng,
                            &mut out,
                        );
                        debug_assert_eq!(r, Err(pqdr_suite::handshake::Error::RateLimited));
                        black_box(r.is_err())
                    })
                });
            }
            if self.kem() && !self.hybrid {
                let forged = self.forged_valid_mac1();
                let r = self.resp.handle_msg1(
                    &mut self.store,
                    SRC,
                    &forged,
                    Load::Normal,
                    NOW,
                    &mut rng,
                    &mut out,
                );
                assert_eq!(r, Err(pqdr_suite::handshake::Error::Decrypt));
                if self.name.starts_with("KMc") {
                    g.sample_size(30);
                }
                g.bench_function(format!("forged-valid-mac1/{}", self.name), |b| {
                    b.iter(|| {
                        let r = self.resp.handle_msg1(
                            &mut self.store,
                            SRC,
                            black_box(&forged),
                            Load::Normal,
                            NOW,
                            &mut rng,
                            &mut out,
                        );
                        black_box(r.is_err())
                    })
                });
            }
            g.finish();
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

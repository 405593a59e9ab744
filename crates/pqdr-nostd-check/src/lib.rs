//! `no_std` build check: calls every primitive's key generation, encapsulation
//! and decapsulation (or signing and verification) through the heap-free API.
#![no_std]

// `scripts/nostd-check.sh --self-test`: std in the graph must fail the check.
#[cfg(feature = "plant-std")]
extern crate std;

use core::convert::Infallible;
use core::panic::PanicInfo;
// pqdr-hpke: linked, so any use of `std` in it or its dependencies fails this build.
use pqdr_hpke as _;

#[panic_handler]
fn panic(_: &PanicInfo<'_>) -> ! {
    loop {}
}

/// A tiny deterministic generator (xorshift64): enough to drive the APIs here.
struct Xorshift(u64);

impl rand_core::TryRng for Xorshift {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for b in dst {
            *b = self.try_next_u64()? as u8;
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for Xorshift {}

/// One round trip per parameter set, through the set's module
/// (`$krate::$set`) and the heap-free API. Three forms:
/// - `each_set!(kem rng, krate::{sets})`: key generation, encapsulation and
///   decapsulation; 1 if every pair of shared secrets agrees;
/// - `each_set!(sign rng, msg, krate::{sets})`: key generation, signing and
///   verification; 1 if every signature verifies;
/// - `each_set!(kem_into krate::{fn_name => set, ...})`: one exported function
///   per set running the KEM round trip in caller buffers (keys live
///   wherever the caller keeps them).
///
/// The sets run in the order given, drawing from the same `rng`.
macro_rules! each_set {
    (kem $rng:ident, $krate:ident::{$($set:ident),+ $(,)?}) => {
        1 $(& {
            let (dk, ek) = $krate::$set::generate(&mut $rng);
            let (ct, ss) = ek.encapsulate(&mut $rng);
            u32::from(dk.decapsulate(&ct).as_bytes() == ss.as_bytes())
        })+
    };
    (sign $rng:ident, $msg:expr, $krate:ident::{$($set:ident),+ $(,)?}) => {
        1 $(& {
            let (sk, vk) = $krate::$set::generate(&mut $rng);
            match sk.sign($msg, b"ctx", &mut $rng) {
                Ok(sig) => u32::from(vk.verify($msg, b"ctx", &sig).is_ok()),
                Err(_) => 0,
            }
        })+
    };
    (kem_into $krate:ident::{$($name:ident => $set:ident),+ $(,)?}) => {$(
        #[doc = concat!("`", stringify!($set), "` into caller buffers: keygen, encaps, decaps; 1 if the shared secrets agree.")]
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(
            seed: u64,
            pk: &mut [u8; $krate::$set::ENCAPSULATION_KEY_SIZE],
            sk: &mut [u8; $krate::$set::DECAPSULATION_KEY_SIZE],
            ct: &mut [u8; $krate::$set::CIPHERTEXT_SIZE],
        ) -> u32 {
            let mut rng = Xorshift(seed | 1);
            $krate::$set::generate_into(pk, sk, &mut rng);
            let ss = $krate::$set::encapsulate_into(pk, ct, &mut rng);
            u32::from($krate::$set::decapsulate(sk, ct).as_bytes() == ss.as_bytes())
        }
    )+};
}

/// ML-KEM-512/768/1024: keygen, encaps, decaps; 1 if every shared secret agrees.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_mlkem(seed: u64) -> u32 {
    let mut rng = Xorshift(seed | 1);
    each_set!(kem rng, pqdr_mlkem::{ml_kem_512, ml_kem_768, ml_kem_1024})
}

/// X-Wing, X25519MLKEM768 and SecP256r1MLKEM768 (pqdr-hybrid, with its
/// feature `p256`): keygen, encaps, decaps and the TLS exchanges; 1 if both
/// sides agree in all three.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_hybrid(seed: u64) -> u32 {
    use pqdr_hybrid::{secp256r1_mlkem768 as p256, x25519_mlkem768 as tls, xwing};
    let mut rng = Xorshift(seed | 1);
    let (dk, ek) = xwing::generate(&mut rng);
    let (ct, ss) = ek.encapsulate(&mut rng);
    let client = tls::ClientSecret::generate(&mut rng);
    let tls_ok = tls::server_respond(client.share(), &mut rng)
        .is_ok_and(|(reply, secret)| client.finish(&reply).is_ok_and(|s| s == secret));
    let client = p256::ClientSecret::generate(&mut rng);
    let p256_ok = p256::server_respond(client.share(), &mut rng)
        .is_ok_and(|(reply, secret)| client.finish(&reply).is_ok_and(|s| s == secret));
    u32::from(dk.decapsulate(&ct) == ss && tls_ok && p256_ok)
}

/// ML-DSA-44/65/87: keygen, sign, verify; 1 if every signature verifies.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_mldsa(seed: u64, msg: &[u8; 32]) -> u32 {
    let mut rng = Xorshift(seed | 1);
    each_set!(sign rng, msg, pqdr_mldsa::{ml_dsa_44, ml_dsa_65, ml_dsa_87})
}

/// Streamlined NTRU Prime, every set: keygen, encaps, decaps.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_ntrup(seed: u64) -> u32 {
    let mut rng = Xorshift(seed | 1);
    each_set!(kem rng, pqdr_ntrup::{
        sntrup653, sntrup761, sntrup857, sntrup953, sntrup1013, sntrup1277,
    })
}

// Classic McEliece (the feature-enabled sets) into caller buffers.
each_set!(kem_into pqdr_mceliece::{
    pqdr_nostd_mceliece348864 => mceliece348864,
    pqdr_nostd_mceliece6960119f => mceliece6960119f,
});

/// pqdr-ratchet: two sessions exchange ten records (the bootstrap ML-KEM-768
/// ratchet runs inside); returns 1 if every record opens to what was sealed.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_ratchet(seed: u64) -> u32 {
    use pqdr_ratchet::{Config, DefaultSession, InitialSecret, Instant, Role};
    let mut rng = Xorshift(seed | 1);
    let secret = [0x42u8; 32];
    let init = || InitialSecret {
        secret: &secret,
        transcript: b"",
        context: b"nostd",
    };
    let cfg = Config::default();
    let (Ok(mut a), Ok(mut b)) = (
        DefaultSession::new(&cfg, Role::Initiator, init(), Instant(0), &mut rng),
        DefaultSession::new(&cfg, Role::Responder, init(), Instant(0), &mut rng),
    ) else {
        return 0;
    };
    let (mut wire, mut out) = ([0u8; 1200], [0u8; 1200]);
    let mut ok = 1;
    for t in 0..10u64 {
        let now = Instant(t * 10);
        let msg = b"hello";
        let Ok(n) = a.seal(now, b"id", msg, &mut wire, &mut rng) else {
            return 0;
        };
        match b.open(now, b"id", &wire[..n], &mut out, &mut rng) {
            Ok(got) => ok &= u32::from(&out[..got.len] == msg),
            Err(_) => return 0,
        }
        while let Some(n) = b.poll_transmit(now, b"id", &mut wire, &mut rng) {
            let _ = a.open(now, b"id", &wire[..n], &mut out, &mut rng);
        }
        while let Some(n) = a.poll_transmit(now, b"id", &mut wire, &mut rng) {
            let _ = b.open(now, b"id", &wire[..n], &mut out, &mut rng);
        }
    }
    ok
}

/// pqdr-handshake: a K768-X handshake between two in-memory peers, no heap,
/// then a ratchet session from its output; returns 1 if both sides agree.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_handshake(seed: u64) -> u32 {
    use pqdr_handshake::{
        Identity, Initiator, InitiatorConfig, Instant, K768, Load, Peer, PeerStore, ReplayRecord,
        Reply, Responder, Tai64N,
    };
    use pqdr_mlkem::ml_kem_768 as k;
    struct Table<'a> {
        pk: &'a k::EncapsulationKey,
        x: [u8; 32],
        rec: ReplayRecord,
    }
    impl PeerStore<K768> for Table<'_> {
        fn lookup(&self, hpk: &[u8; 32]) -> Option<Peer<'_, K768>> {
            let p = Peer::new(self.pk).with_x25519(self.x);
            (p.key_id() == hpk).then_some(p)
        }
        fn record(&mut self, _: &[u8; 32]) -> Option<&mut ReplayRecord> {
            Some(&mut self.rec)
        }
    }
    let mut rng = Xorshift(seed | 1);
    let (dk_i, ek_i) = k::generate(&mut rng);
    let (dk_r, ek_r) = k::generate(&mut rng);
    let alice = Identity::<K768>::new(dk_i, &ek_i, [1; 32]).with_x25519(&ek_i, [3; 32]);
    let bob = Identity::<K768>::new(dk_r, &ek_r, [2; 32]).with_x25519(&ek_r, [4; 32]);
    let (Some(xa), Some(xb)) = (alice.x25519_public(), bob.x25519_public()) else {
        return 0;
    };
    let mut table = Table {
        pk: &ek_i,
        x: xa,
        rec: ReplayRecord::new(),
    };
    let Ok(mut resp) = Responder::<K768, 8>::new(bob, b"nostd", Instant(0), &mut rng) else {
        return 0;
    };
    let cfg = InitiatorConfig::new(Peer::new(&ek_r).with_x25519(xb), b"nostd");
    let clock = Tai64N { secs: 1, nanos: 0 };
    let Ok(mut init) =
        Initiator::start(&cfg, &alice, clock, Tai64N::default(), Instant(0), &mut rng)
    else {
        return 0;
    };
    let (mut m1, mut m2) = ([0u8; 4096], [0u8; 6144]);
    let Some(n1) = init.poll_transmit(Instant(0), &mut m1) else {
        return 0;
    };
    let Ok(Reply::Msg2(n2)) = resp.handle_msg1(
        &mut table,
        b"src",
        &m1[..n1],
        Load::Normal,
        Instant(0),
        &mut rng,
        &mut m2,
    ) else {
        return 0;
    };
    let Ok(a) = init.handle_msg2(&m2[..n2], &alice, Instant(0), &mut rng) else {
        return 0;
    };
    let Some(m3) = a.msg3() else { return 0 };
    let Ok(b) = resp.handle_msg3(&mut table, b"src", m3, Load::Normal, Instant(0)) else {
        return 0;
    };
    let same = a.transcript() == b.transcript();
    let cfg = pqdr_ratchet::Config::default();
    let session = a.into_session::<pqdr_ratchet::MlKem768, _>(&cfg, Instant(0), &mut rng);
    u32::from(same && session.is_ok())
}

/// The shared Keccak crate with its `simd` backend: four SHAKE128 streams
/// against one; 1 if they agree.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_keccak(seed: u64) -> u32 {
    let input = seed.to_le_bytes();
    let mut x4 = pqdr_keccak::Shake128x4::new();
    x4.absorb([&input, &input, &input, &input]);
    let mut out = [[0u8; 168]; 4];
    let [a, b, c, d] = &mut out;
    x4.squeeze_blocks([a, b, c, d]);
    let mut one = pqdr_keccak::Shake128::new();
    one.absorb(&input);
    let mut want = [0u8; 168];
    one.squeeze(&mut want);
    u32::from(out.iter().all(|o| *o == want))
}

/// pqdr-ssh-kex without a heap: both KEXINITs, the negotiation, the
/// mlkem768x25519-sha256 exchange and one sealed and opened packet, all in
/// stack buffers; 1 if both sides derive the same keys and the packet opens.
#[unsafe(no_mangle)]
pub extern "C" fn pqdr_nostd_ssh_kex(seed: u64) -> u32 {
    use pqdr_ssh_kex::wire::SliceSink;
    use pqdr_ssh_kex::{Kex, hostkey::HostKey, hybrid::ClientShare, kex, kexinit, packet};
    let mut rng = Xorshift(seed | 1);
    let (mut ic, mut is) = ([0u8; 512], [0u8; 512]);
    let (mut ic, mut is) = (SliceSink::new(&mut ic), SliceSink::new(&mut is));
    let both = [Kex::MlKem768X25519Sha256];
    if kexinit::write_kexinit(&mut ic, &[1; 16], &both, kexinit::Role::Client).is_err()
        || kexinit::write_kexinit(&mut is, &[2; 16], &both, kexinit::Role::Server).is_err()
    {
        return 0;
    }
    let (Ok(c), Ok(s)) = (
        kexinit::KexInit::parse(ic.written()),
        kexinit::KexInit::parse(is.written()),
    ) else {
        return 0;
    };
    let Ok(chosen) = kexinit::negotiate(&c, &s) else {
        return 0;
    };
    let hello = kex::Hello {
        v_c: b"SSH-2.0-c",
        v_s: b"SSH-2.0-s",
        i_c: ic.written(),
        i_s: is.written(),
    };
    let share = ClientShare::generate(chosen.kex, &mut rng);
    let (mut init, mut reply) = ([0u8; 1300], [0u8; 1300]);
    let mut init = SliceSink::new(&mut init);
    let mut reply = SliceSink::new(&mut reply);
    let host = HostKey::generate(&mut rng);
    if kex::write_init(&mut init, &share).is_err() {
        return 0;
    }
    let Ok(server) = kex::server_respond(
        chosen.kex,
        &host,
        &hello,
        init.written(),
        &mut rng,
        &mut reply,
    ) else {
        return 0;
    };
    let Ok(client) = kex::client_finish(share, &hello, reply.written()) else {
        return 0;
    };
    let mut sealer = packet::Sealer::new();
    sealer.set_key(&client.keys.client_to_server);
    let mut wire = [0u8; 64];
    let Ok(n) = sealer.seal(b"\x05\0\0\0\x0cssh-userauth", &mut rng, &mut wire) else {
        return 0;
    };
    let mut opener = packet::Opener::new();
    opener.set_key(&server.keys.client_to_server);
    let opened = opener
        .open(&mut wire[..n])
        .is_ok_and(|p| p == b"\x05\0\0\0\x0cssh-userauth");
    u32::from(client.exchange_hash == server.exchange_hash && opened)
}

//! Bad bytes into every parser: each a typed error, never a panic.

use pqdr_ssh_kex::hostkey::{self, HostKey};
use pqdr_ssh_kex::hybrid::{self, ClientShare};
use pqdr_ssh_kex::kex::{self, Hello};
use pqdr_ssh_kex::kexinit::{self, KexInit};
use pqdr_ssh_kex::packet::{Opener, Sealer};
use pqdr_ssh_kex::version::{self, Line};
use pqdr_ssh_kex::wire::{Sink, SliceSink};
use pqdr_ssh_kex::{Category, Error, Field, Kex, msg};

use crate::conn::rng;

fn kexinit_payload(kexes: &[Kex]) -> Vec<u8> {
    let mut v = Vec::new();
    kexinit::write_kexinit(&mut v, &[7; 16], kexes, kexinit::Role::Server).unwrap();
    v
}

/// A KEXINIT with hand-written lists.
fn custom_kexinit(lists: [&str; 10]) -> Vec<u8> {
    let mut v = vec![msg::KEXINIT];
    v.extend_from_slice(&[0; 16]);
    for l in lists {
        v.put_string(l.as_bytes()).unwrap();
    }
    v.extend_from_slice(&[0, 0, 0, 0, 0]);
    v
}

const GOOD: [&str; 10] = [
    "mlkem768x25519-sha256",
    "ssh-ed25519",
    "chacha20-poly1305@openssh.com",
    "chacha20-poly1305@openssh.com",
    "hmac-sha2-256",
    "hmac-sha2-256",
    "none",
    "none",
    "",
    "",
];

#[test]
fn kexinit_negotiation_and_refusals() {
    let ours = kexinit_payload(&Kex::ALL);
    let ours = KexInit::parse(&ours).unwrap();
    let good = custom_kexinit(GOOD);
    assert_eq!(
        kexinit::negotiate(&KexInit::parse(&good).unwrap(), &ours)
            .unwrap()
            .kex,
        Kex::MlKem768X25519Sha256
    );
    for (i, bad, category) in [
        (
            0,
            "curve25519-sha256,diffie-hellman-group14-sha256",
            Category::Kex,
        ),
        (1, "rsa-sha2-512,ecdsa-sha2-nistp256", Category::HostKey),
        (2, "aes128-ctr,aes256-gcm@openssh.com", Category::Cipher),
        (3, "aes256-ctr", Category::Cipher),
        (6, "zlib@openssh.com", Category::Compression),
        (7, "zlib", Category::Compression),
    ] {
        let mut lists = GOOD;
        lists[i] = bad;
        let client = custom_kexinit(lists);
        let client = KexInit::parse(&client).unwrap();
        assert_eq!(
            kexinit::negotiate(&client, &ours),
            Err(Error::NoCommonAlgorithm(category)),
            "list {i} = {bad}"
        );
        // And with the roles swapped.
        assert_eq!(
            kexinit::negotiate(&ours, &client),
            Err(Error::NoCommonAlgorithm(category))
        );
    }
    // Strict kex only when the client lists the client marker and the
    // server the server marker.
    let client = custom_kexinit(GOOD);
    assert!(
        !kexinit::negotiate(&KexInit::parse(&client).unwrap(), &ours)
            .unwrap()
            .strict
    );
    for (marker, strict) in [
        ("kex-strict-c-v00@openssh.com", true),
        ("kex-strict-s-v00@openssh.com", false),
    ] {
        let mut lists = GOOD;
        let kex = format!("{},{marker}", GOOD[0]);
        lists[0] = &kex;
        let client = custom_kexinit(lists);
        let n = kexinit::negotiate(&KexInit::parse(&client).unwrap(), &ours).unwrap();
        assert_eq!(
            (n.kex, n.strict),
            (Kex::MlKem768X25519Sha256, strict),
            "{marker}"
        );
    }
    // The client's order wins (RFC 4253 §7.1).
    let mut lists = GOOD;
    lists[0] = "curve25519-sha256,sntrup761x25519-sha512@openssh.com,mlkem768x25519-sha256";
    let client = custom_kexinit(lists);
    assert_eq!(
        kexinit::negotiate(&KexInit::parse(&client).unwrap(), &ours)
            .unwrap()
            .kex,
        Kex::Sntrup761X25519Sha512OpenSsh
    );
}

#[test]
fn kexinit_malformed() {
    let good = kexinit_payload(&Kex::ALL);
    // Every truncation is a field error.
    for n in 0..good.len() {
        assert!(
            matches!(KexInit::parse(&good[..n]), Err(Error::Field { .. })),
            "truncated to {n}"
        );
    }
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        KexInit::parse(&long),
        Err(Error::Field {
            field: Field::Trailing,
            ..
        })
    ));
    let mut wrong = good.clone();
    wrong[0] = msg::NEWKEYS;
    assert_eq!(
        KexInit::parse(&wrong),
        Err(Error::UnexpectedMessage {
            expected: msg::KEXINIT,
            actual: msg::NEWKEYS
        })
    );
    for bad in ["a,,b", ",a", "a,", "caf\u{e9}", "a b"] {
        let mut lists = GOOD;
        lists[0] = bad;
        assert!(
            matches!(
                KexInit::parse(&custom_kexinit(lists)),
                Err(Error::Field {
                    field: Field::NameList,
                    offset: 17
                })
            ),
            "{bad:?}"
        );
    }
    // A string length running far past the end.
    let mut huge = good[..17].to_vec();
    huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, b'a']);
    assert!(matches!(
        KexInit::parse(&huge),
        Err(Error::Field {
            field: Field::String,
            offset: 17
        })
    ));
}

#[test]
fn version_lines() {
    assert_eq!(
        version::parse_line(b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10\r\n"),
        Ok(Line::Identification(
            b"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10"
        ))
    );
    assert_eq!(version::parse_line(b"hello\r\n"), Ok(Line::Other));
    let long = [b"SSH-2.0-".as_slice(), &[b'a'; 246], b"\r\n"].concat();
    assert_eq!(long.len(), 256);
    for bad in [
        &b"SSH-2.0-x\n"[..],
        b"SSH-2.0-x",
        b"SSH-1.5-x\r\n",
        b"SSH-2.0-a\0b\r\n",
        b"SSH-2.0-a\rb\r\n",
        &long,
    ] {
        assert_eq!(version::parse_line(bad), Err(Error::Version), "{bad:?}");
    }
    assert!(version::parse_line(&long[1..]).is_ok());
}

fn sealed(payload: &[u8], key: Option<&[u8; 64]>) -> Vec<u8> {
    let mut s = Sealer::new();
    if let Some(k) = key {
        s.set_key(k);
    }
    s.seal_to_vec(payload, &mut rng()).unwrap()
}

fn opener(key: Option<&[u8; 64]>) -> Opener {
    let mut o = Opener::new();
    if let Some(k) = key {
        o.set_key(k);
    }
    o
}

#[test]
fn packets() {
    let key = [0x42u8; 64];
    for key in [None, Some(&key)] {
        for len in [0, 1, 7, 8, 100, 1000] {
            let payload: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut wire = sealed(&payload, key);
            let first4: [u8; 4] = wire[..4].try_into().unwrap();
            assert_eq!(opener(key).wire_len(&first4), Ok(wire.len()));
            assert_eq!(opener(key).open(&mut wire.clone()).unwrap(), &payload[..]);
            // Truncated or extended: a length error, never a panic.
            for n in [0, 3, 4, wire.len() - 1] {
                assert!(matches!(
                    opener(key).open(&mut wire[..n].to_vec()),
                    Err(Error::PacketLength { .. })
                ));
            }
            let mut longer = wire.clone();
            longer.push(0);
            assert!(matches!(
                opener(key).open(&mut longer),
                Err(Error::PacketLength { .. })
            ));
            if key.is_some() {
                // Any flipped bit (length, body or tag) fails the tag.
                for i in [0, 4, wire.len() / 2, wire.len() - 1] {
                    let mut bad = wire.clone();
                    bad[i] ^= 1;
                    let r = opener(key).open(&mut bad);
                    assert!(
                        matches!(r, Err(Error::Mac | Error::PacketLength { .. })),
                        "{i}: {r:?}"
                    );
                    if i > 3 {
                        assert_eq!(r, Err(Error::Mac));
                    }
                }
                // Out of order: packet 0 opened as packet 1.
                let mut o = opener(key);
                o.open(&mut sealed(b"\x02", key)).unwrap();
                assert!(matches!(
                    o.open(&mut wire),
                    Err(Error::Mac | Error::PacketLength { .. })
                ));
            }
        }
    }
    // Clear-text headers that break §6: too long, misaligned, bad padding.
    for (packet_length, padding) in [(35_008u32, 4u8), (13, 4), (12, 3), (12, 12), (4, 4)] {
        let mut wire = packet_length.to_be_bytes().to_vec();
        wire.push(padding);
        wire.resize(4 + packet_length as usize, 0);
        assert!(
            matches!(
                opener(None).open(&mut wire),
                Err(Error::PacketLength { .. })
            ),
            "{packet_length} {padding}"
        );
    }
    assert!(matches!(
        opener(None).wire_len(&[0xff; 4]),
        Err(Error::PacketLength {
            packet_length: u32::MAX
        })
    ));
    // A caller buffer too small.
    let mut out = [0u8; 8];
    assert_eq!(
        Sealer::new().seal(b"abc", &mut rng(), &mut out),
        Err(Error::BufferTooSmall { needed: 16, got: 8 })
    );
}

/// A whole in-memory exchange: (hello parts, client share, init, reply).
struct Exchange {
    i_c: Vec<u8>,
    i_s: Vec<u8>,
    init: Vec<u8>,
    reply: Vec<u8>,
}

impl Exchange {
    fn hello(&self) -> Hello<'_> {
        Hello {
            v_c: b"SSH-2.0-c",
            v_s: b"SSH-2.0-s",
            i_c: &self.i_c,
            i_s: &self.i_s,
        }
    }
}

fn exchange(kex: Kex) -> (Exchange, ClientShare) {
    let mut rng = rng();
    let share = ClientShare::generate(kex, &mut rng);
    let mut e = Exchange {
        i_c: kexinit_payload(&[kex]),
        i_s: kexinit_payload(&[kex]),
        init: Vec::new(),
        reply: Vec::new(),
    };
    kex::write_init(&mut e.init, &share).unwrap();
    let host = HostKey::generate(&mut rng);
    let mut reply = Vec::new();
    kex::server_respond(kex, &host, &e.hello(), &e.init, &mut rng, &mut reply).unwrap();
    e.reply = reply;
    (e, share)
}

fn reply_with(k_s: &[u8], s_reply: &[u8], signature: &[u8]) -> Vec<u8> {
    let mut v = vec![msg::KEX_ECDH_REPLY];
    v.put_string(k_s).unwrap();
    v.put_string(s_reply).unwrap();
    v.put_string(signature).unwrap();
    v
}

type Mutation = fn(kex::Reply<'_>) -> Vec<u8>;

#[test]
fn replies_refused() {
    for kex in Kex::ALL {
        let (e, share) = exchange(kex);
        let expected = hybrid::server_reply_len(kex);
        assert_eq!(kex::parse_reply(&e.reply).unwrap().s_reply.len(), expected);
        assert!(kex::client_finish(share, &e.hello(), &e.reply).is_ok());

        let cases: [(Mutation, Error); 7] = [
            (
                |r| reply_with(r.k_s, &r.s_reply[1..], r.signature),
                Error::Length {
                    field: Field::ServerReply,
                    expected,
                    actual: expected - 1,
                },
            ),
            (
                |r| {
                    let mut s = r.signature.to_vec();
                    s[30] ^= 1;
                    reply_with(r.k_s, r.s_reply, &s)
                },
                Error::BadSignature,
            ),
            (
                // Another KEM ciphertext: another K, so another H.
                |r| {
                    let mut s = r.s_reply.to_vec();
                    s[0] ^= 1;
                    reply_with(r.k_s, &s, r.signature)
                },
                Error::BadSignature,
            ),
            (
                |r| {
                    let k_s = [&b"\0\0\0\x07ssh-rsa"[..], &r.k_s[15..]].concat();
                    reply_with(&k_s, r.s_reply, r.signature)
                },
                Error::HostKeyType,
            ),
            (
                |r| {
                    let n = r.s_reply.len() - 32;
                    reply_with(r.k_s, &[&r.s_reply[..n], &[0u8; 32]].concat(), r.signature)
                },
                Error::LowOrderPoint,
            ),
            (
                |r| {
                    let mut sig = Vec::new();
                    sig.put_string(b"ssh-ed25519").unwrap();
                    sig.put_string(&r.signature[19..82]).unwrap();
                    reply_with(r.k_s, r.s_reply, &sig)
                },
                Error::Length {
                    field: Field::Signature,
                    expected: 64,
                    actual: 63,
                },
            ),
            (
                |r| reply_with(r.k_s, r.s_reply, &r.signature[..r.signature.len() - 1]),
                Error::Field {
                    field: Field::String,
                    offset: 15,
                },
            ),
        ];
        for (i, (mutate, err)) in cases.into_iter().enumerate() {
            // A fresh exchange each, finished with its own client share.
            let (e, share) = exchange(kex);
            let reply = mutate(kex::parse_reply(&e.reply).unwrap());
            assert_eq!(
                kex::client_finish(share, &e.hello(), &reply).unwrap_err(),
                err,
                "{kex:?} case {i}"
            );
        }
        // The untouched reply under another transcript (a changed KEXINIT):
        // another H, so the signature fails.
        let (mut e, share) = exchange(kex);
        e.i_s.push(0);
        assert_eq!(
            kex::client_finish(share, &e.hello(), &e.reply).unwrap_err(),
            Error::BadSignature
        );
        // Every truncation of the reply: a typed error, no panic.
        let (e, _) = exchange(kex);
        for n in 0..e.reply.len() {
            let share = ClientShare::generate(kex, &mut rng());
            assert!(kex::client_finish(share, &e.hello(), &e.reply[..n]).is_err());
        }
    }
}

#[test]
fn client_inits_refused() {
    let host = HostKey::generate(&mut rng());
    for kex in Kex::ALL {
        let (e, _) = exchange(kex);
        let c_init = kex::parse_init(&e.init).unwrap();
        let expected = hybrid::client_init_len(kex);
        let respond = |c_init: &[u8]| {
            let mut init = vec![msg::KEX_ECDH_INIT];
            init.put_string(c_init).unwrap();
            kex::server_respond(kex, &host, &e.hello(), &init, &mut rng(), &mut Vec::new())
        };
        assert!(respond(c_init).is_ok());
        assert_eq!(
            respond(&c_init[..expected - 1]).unwrap_err(),
            Error::Length {
                field: Field::ClientInit,
                expected,
                actual: expected - 1
            }
        );
        // X25519 u = 0 and u = 1: low-order points.
        for u in [0u8, 1] {
            let mut bad = c_init.to_vec();
            bad[expected - 32..].fill(0);
            bad[expected - 32] = u;
            assert_eq!(respond(&bad).unwrap_err(), Error::LowOrderPoint);
        }
        if kex == Kex::MlKem768X25519Sha256 {
            // A first 12-bit coefficient of 0xFFF ≥ q: FIPS 203 §7.2.
            let mut bad = c_init.to_vec();
            bad[0] = 0xff;
            bad[1] |= 0x0f;
            assert_eq!(respond(&bad).unwrap_err(), Error::InvalidKey);
        }
        assert!(matches!(
            kex::server_respond(
                kex,
                &host,
                &e.hello(),
                &e.reply,
                &mut rng(),
                &mut Vec::new()
            ),
            Err(Error::UnexpectedMessage {
                expected: msg::KEX_ECDH_INIT,
                actual: msg::KEX_ECDH_REPLY
            })
        ));
        let mut small = [0u8; 100];
        assert!(matches!(
            kex::server_respond(
                kex,
                &host,
                &e.hello(),
                &e.init,
                &mut rng(),
                &mut SliceSink::new(&mut small)
            ),
            Err(Error::BufferTooSmall { .. })
        ));
    }
}

#[test]
fn disconnect_and_host_key_blobs() {
    let mut d = vec![msg::DISCONNECT];
    d.put_u32(14).unwrap();
    d.put_string(b"No supported authentication methods available")
        .unwrap();
    d.put_string(b"").unwrap();
    assert_eq!(
        msg::parse_service(&d, msg::SERVICE_ACCEPT),
        Err(Error::Disconnected { reason: 14 })
    );
    assert_eq!(
        kex::parse_newkeys(&[msg::NEWKEYS, 0]).unwrap_err(),
        Error::Field {
            field: Field::Trailing,
            offset: 1
        }
    );
    let host = HostKey::from_secret(&[9; 32]);
    let blob = host.public_blob();
    assert!(hostkey::parse_public_blob(&blob).is_ok());
    for n in 0..blob.len() {
        assert!(hostkey::parse_public_blob(&blob[..n]).is_err());
    }
}

/// Pseudo-random bytes (a fixed xorshift stream) into every parser: no
/// panic. The fuzz target `ssh_kex` does this at scale.
#[test]
fn random_bytes_no_panic() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let key = [1u8; 64];
    for _ in 0..3000 {
        let len = (next() % 300) as usize;
        let mut data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if let Some(b) = data.first_mut() {
            *b = [msg::KEXINIT, msg::KEX_ECDH_INIT, msg::KEX_ECDH_REPLY, 0][(next() % 4) as usize];
        }
        let _ = KexInit::parse(&data);
        let _ = kex::parse_init(&data);
        let _ = kex::parse_reply(&data);
        let _ = version::parse_line(&data);
        let _ = hostkey::parse_public_blob(&data);
        let _ = opener(None).open(&mut data.clone());
        let _ = opener(Some(&key)).open(&mut data);
    }
}

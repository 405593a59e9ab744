//! Peak stack per operation, measured by painting (`pqdr_ctgrind::stack::peak`),
//! and the fixed size of the session value. Run with `--nocapture` to see the figures.
#![cfg(feature = "mlkem")]
#![allow(
    clippy::integer_division_remainder_used,
    clippy::std_instead_of_core,
    clippy::cast_possible_truncation,
    clippy::unwrap_used,
    missing_docs,
    reason = "test code: public values, std harness"
)]

use pqdr_ctgrind::stack::peak;
use pqdr_ratchet::{Config, DefaultSession, InitialSecret, Instant, KeySchedule, MlKem768, Role};

#[test]
fn stack_peaks() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let cfg = Config {
                ratchet_on_start: false,
                ..Config::default()
            };
            let init = || InitialSecret {
                secret: &[1; 32],
                transcript: b"",
                context: b"stack",
            };
            let mut r = pqdr_kat::Drbg::new(&[1; 48]);
            let mut a = Box::new(
                DefaultSession::new(&cfg, Role::Initiator, init(), Instant(0), &mut r).unwrap(),
            );
            let mut b = Box::new(
                DefaultSession::new(&cfg, Role::Responder, init(), Instant(0), &mut r).unwrap(),
            );
            let mut pkt = vec![0u8; 1200];
            let mut out = vec![0u8; 1200];
            let depth = 1 << 20;
            let mut n = 0;
            let seal = peak(depth, || {
                n = a
                    .seal(Instant(0), b"", &[7; 1000], &mut pkt, &mut r)
                    .unwrap()
            });
            let open = peak(depth, || {
                b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
                    .unwrap();
            });
            // Far-ahead open: 100k counters ahead (skip-chain jump on scratch copies).
            for _ in 0..100_000 {
                a.seal(Instant(0), b"", b"", &mut pkt, &mut r).unwrap();
            }
            n = a.seal(Instant(0), b"", b"x", &mut pkt, &mut r).unwrap();
            let open_gap = peak(depth, || {
                b.open(Instant(0), b"", &pkt[..n], &mut out, &mut r)
                    .unwrap();
            });
            // The owner's ratchet start (ML-KEM-768 keygen) inside seal.
            a.request_ratchet();
            let seal_keygen = peak(depth, || {
                n = a.seal(Instant(10), b"", b"k", &mut pkt, &mut r).unwrap()
            });
            b.open(Instant(10), b"", &pkt[..n], &mut out, &mut r)
                .unwrap();
            // Deliver symbols both ways until the ratchet completes: the open that
            // completes the ek runs encapsulation, the one that completes the ct decapsulation.
            let (mut open_encaps, mut open_decaps) = (0, 0);
            for t in 10..500u64 {
                while let Some(n) = a.poll_transmit(Instant(t), b"", &mut pkt, &mut r) {
                    open_encaps = open_encaps.max(peak(depth, || {
                        b.open(Instant(t), b"", &pkt[..n], &mut out, &mut r)
                            .unwrap();
                    }));
                }
                while let Some(n) = b.poll_transmit(Instant(t), b"", &mut pkt, &mut r) {
                    open_decaps = open_decaps.max(peak(depth, || {
                        a.open(Instant(t), b"", &pkt[..n], &mut out, &mut r)
                            .unwrap();
                    }));
                }
                if a.status(Instant(t)).epoch == 1 && b.status(Instant(t)).epoch == 1 {
                    break;
                }
            }
            assert_eq!(a.status(Instant(500)).epoch, 1);
            let mut st = vec![0u8; pqdr_ratchet::max_state_len(16, 256)];
            let key = [9u8; 32];
            let mut st_len = 0;
            let export = peak(depth, || {
                st_len = a
                    .export_state(10, &key, Instant(11), &mut st, &mut r)
                    .unwrap();
            });
            let generation = a.generation();
            let import = peak(depth, || {
                let s = DefaultSession::import_state(
                    &cfg,
                    &key,
                    a.session_id(),
                    &mut st[..st_len],
                    generation,
                    Instant(11),
                );
                assert!(s.is_ok());
            });
            println!(
                "size_of Session<MlKem768> = {} B",
                size_of::<DefaultSession>()
            );
            println!(
                "size_of KeySchedule<MlKem768, 1, 8> = {} B",
                size_of::<KeySchedule<MlKem768, 1, 8>>()
            );
            println!("peak stack (painting), bytes below the caller:");
            println!("  seal 1000 B            {seal}");
            println!("  open in order          {open}");
            println!("  open 100k ahead        {open_gap}");
            println!("  seal + ML-KEM keygen   {seal_keygen}");
            println!("  open + encapsulation   {open_encaps}");
            println!("  open + decapsulation   {open_decaps}");
            println!("  export_state           {export}");
            println!("  import_state (Result)  {import}");
            assert!(seal > 0 && open_decaps > 0);
        })
        .unwrap()
        .join()
        .unwrap();
}

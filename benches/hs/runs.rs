//! The handshake bench's criterion groups: each side's time against its
//! primitive operations, and the responder's cost of floods (forged mac1,
//! rate-limited sources).

use super::*;

impl<A: Fam> Case<A> {
    /// A msg1 with a valid mac1 whose enc_id does not open (KEM mode):
    /// what anyone holding pk_R can send.
    pub(crate) fn forged_valid_mac1(&self) -> Vec<u8> {
        let mut m = self.m1.clone();
        let (ek_len, _) = eph_sizes(self.eph);
        let xl = if self.hybrid { 32 } else { 0 };
        let a = 8 + ek_len + A::CT_LEN + xl;
        m[a] ^= 1;
        let n = m.len();
        let key = dk("mac1", &[&self.hpk_r]);
        // mac1 = KH(K, H(msg1[0..a]) ‖ enc_id ‖ enc_ts) (docs/protocol/handshake.md §3.5).
        let input = [blake3::hash(&m[..a]).as_bytes(), &m[a..n - 32]].concat();
        let mac = blake3::keyed_hash(&key, &input);
        m[n - 32..n - 16].copy_from_slice(&mac.as_bytes()[..16]);
        m
    }

    pub(crate) fn criterion(&mut self, c: &mut Criterion) {
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
    pub(crate) fn flood(&mut self, c: &mut Criterion, rate_limited: bool) {
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
}

//! msg1 stages 5–6 (docs/protocol/handshake.md §4.4 / §4.6, §5.1 step 5):
//! decapsulate ct_R and open the initiator's id and timestamp (KEM mode),
//! then write msg2 — the encapsulations, conf_R / enc_R, the biscuit and mac1.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::admit::Msg1;
use super::{PEER_INTERVAL_MS, Reply, Responder};
use crate::chunk::Seal1Key;
use crate::ids::{PeerStore, Tai64N, gcra};
use crate::kdf::{
    C_BISCUIT, Chain, Key, SIG_CTX_R, coins, coins32, derive_key64, digest, mac16_digest,
};
use crate::suite::{Auth, Mode};
use crate::wire::{self, BISCUIT_PT, MSG2, biscuit_ad};
use crate::{Error, Instant, x25519};

/// What stage 5 learned about the initiator (KEM mode; zeros in SIG mode,
/// where the id and timestamp come in msg3).
#[derive(Default)]
pub(super) struct Known {
    pub(super) hpk_i: [u8; 32],
    pub(super) ts: Tai64N,
    /// The initiator's static X25519 key (`-X`).
    pub(super) xs_i: [u8; 32],
}

impl<A: Auth, const RL: usize> Responder<A, RL> {
    /// KEM mode, §4.4 steps 1–2 mirrored: decapsulate ct_R, open enc_id.
    /// Returns hpk_I, the key id we look the initiator up by.
    pub(super) fn open_id(&self, m: &Msg1<'_>, chain: &mut Chain) -> Result<[u8; 32], Error> {
        let (msg, l) = (m.msg, &m.l);
        chain.mix_hash(&[&m.head]);
        let mut ss = [0u8; 32];
        A::decapsulate(&self.me.sk, &msg[l.m1_ct()], &mut ss);
        chain.mix(b'R', &ss);
        ss.zeroize();
        if m.suite.hybrid() {
            let xs_r = self.me.x_secret.as_ref().unwrap_or(&[0; 32]);
            chain.mix_dh(b'a', xs_r, &msg[l.m1_x()])?;
        }
        let k1 = chain.key64(b'1');
        let mut enc_id = [0u8; 48];
        enc_id.copy_from_slice(&msg[l.m1_enc_id()]);
        k1.open(&mut enc_id, &chain.th)?;
        // Public to us: the key id we look the initiator up by.
        pqdr_ctgrind::hook::declassify(&mut enc_id[..32]);
        let mut hpk_i = [0u8; 32];
        hpk_i.copy_from_slice(&enc_id[..32]);
        chain.mix_hash(&[&msg[l.m1_enc_id()]]);
        Ok(hpk_i)
    }

    /// KEM mode, §4.4 steps 2–3 mirrored and §5.1 step 5: the peer's psk
    /// (and static DH), open enc_ts, then freshness and the per-peer rate.
    pub(super) fn open_ts(
        &self,
        peers: &mut impl PeerStore<A>,
        m: &Msg1<'_>,
        chain: &mut Chain,
        hpk_i: [u8; 32],
        now: Instant,
    ) -> Result<Known, Error> {
        let (msg, l, suite) = (m.msg, &m.l, m.suite);
        let hybrid = suite.hybrid();
        let (mut psk, xs_i, authenticated) = {
            let peer = peers.lookup(&hpk_i).ok_or(Error::UnknownPeer)?;
            if peer.hybrid != hybrid
                || (suite.ephemeral() != crate::Ephemeral::MlKem768 && !peer.compact)
            {
                return Err(Error::SuiteNotAccepted);
            }
            let authenticated = peer.psk.is_some() || hybrid;
            (
                peer.psk.unwrap_or([0; 32]),
                peer.x_public.unwrap_or([0; 32]),
                authenticated,
            )
        };
        chain.mix(b'P', &psk);
        psk.zeroize();
        if hybrid {
            chain.mix_dh(b'b', self.me.x_secret.as_ref().unwrap_or(&[0; 32]), &xs_i)?;
        }
        let k2 = chain.key64(b'2');
        let mut enc_ts = [0u8; 28];
        enc_ts.copy_from_slice(&msg[l.m1_enc_ts()]);
        k2.open(&mut enc_ts, &chain.th)?;
        // Public to us: the timestamp compared with the replay record.
        pqdr_ctgrind::hook::declassify(&mut enc_ts[..12]);
        let mut tsb = [0u8; 12];
        tsb.copy_from_slice(&enc_ts[..12]);
        let ts = Tai64N::from_bytes(&tsb);
        chain.mix_hash(&[&msg[l.m1_enc_ts()]]);
        let rec = peers.record(&hpk_i).ok_or(Error::UnknownPeer)?;
        if ts <= rec.last_ts {
            return Err(Error::StaleTimestamp);
        }
        // The per-peer rate counts distinct timestamps (docs/protocol/handshake.md §5,
        // issue #33 L4): only a msg1 newer than the last charged one is
        // charged, so a replayed (or resent) authenticated msg1 cannot
        // keep the bucket empty and lock the initiator's next msg1 out.
        if authenticated && ts > rec.flood_ts {
            if !gcra(&mut rec.flood_tat, now.0, PEER_INTERVAL_MS, 1) {
                return Err(Error::Flood);
            }
            rec.flood_ts = ts;
        }
        Ok(Known { hpk_i, ts, xs_i })
    }

    /// §4.4 steps 4–5 / §4.6: msg2 up to and including conf_R / enc_R in
    /// `out` (exactly msg2's length). Returns R's sender index and `H(head)`
    /// of msg2 (§3.5).
    pub(super) fn encapsulate<R: CryptoRng + ?Sized>(
        &self,
        peers: &mut impl PeerStore<A>,
        m: &Msg1<'_>,
        chain: &mut Chain,
        known: &Known,
        rng: &mut R,
        out: &mut [u8],
    ) -> Result<(u32, [u8; 32]), Error> {
        let (msg, l, hybrid) = (m.msg, &m.l, m.suite.hybrid());
        let idx_r = rng.next_u32();
        wire::write_header(out, MSG2, m.suite.id(), idx_r, Some(m.h.sender));
        // ct_E to ek_E (FIPS 203 §7.2 check) and, in KEM mode, ct_I to pk_I.
        let mut e = coins32(&self.me.sigma, b'E', rng);
        let mut ss_e = [0u8; 32];
        let eph = m.suite.ephemeral();
        let r = crate::suite::eph_encapsulate(
            eph,
            &msg[l.m1_ek()],
            &e,
            &mut out[l.m2_ct_e()],
            &mut ss_e,
        );
        e.zeroize();
        r?;
        let mut ss_i = [0u8; 32];
        if A::MODE == Mode::Kem {
            let peer = peers.lookup(&known.hpk_i).ok_or(Error::UnknownPeer)?;
            let mut coins = coins(&self.me.sigma, b'I', rng);
            A::encapsulate(peer.pk, &mut coins, &mut out[l.m2_ct_i()], &mut ss_i);
        }
        let mut x_r = [0u8; 32];
        if hybrid {
            x_r = coins32(&self.me.sigma, b'y', rng);
            out[l.m2_x()].copy_from_slice(&x25519::public(&x_r));
        }
        // Public: hdrB, ct_E, ct_I and X_R are sent (th hashes them).
        pqdr_ctgrind::hook::declassify(&mut out[..l.m2_conf().start]);
        let head = digest(&out[..l.m2_conf().start]);
        chain.mix_hash(&[&head]);
        chain.mix(b'E', &ss_e);
        ss_e.zeroize();
        let x_i = &msg[l.m1_x()];
        let dh_result = (|| -> Result<(), Error> {
            if A::MODE == Mode::Kem {
                chain.mix(b'I', &ss_i);
                if hybrid {
                    chain.mix_dh(b'c', &x_r, x_i)?;
                    chain.mix_dh(b'd', &x_r, &known.xs_i)?;
                }
            } else if hybrid {
                chain.mix_dh(b'c', &x_r, x_i)?;
            }
            Ok(())
        })();
        ss_i.zeroize();
        x_r.zeroize();
        dh_result?;
        let k3 = chain.key(b'3');
        let conf = &mut out[l.m2_conf()];
        if A::MODE == Mode::Sig {
            let mut rnd = coins32(&self.me.sigma, b's', rng);
            let n = conf.len() - 16;
            A::sign(
                &self.me.sk,
                &[&chain.th, &self.me.hpk],
                SIG_CTX_R,
                &rnd,
                &mut conf[..n],
            );
            rnd.zeroize();
        }
        if A::MODE == Mode::Kem {
            // conf_R = KH(k3, th)[0..16] (§4.4 step 5).
            conf.copy_from_slice(&k3.confirm(&chain.th));
            // Public: conf_R is sent.
            pqdr_ctgrind::hook::declassify(conf);
        } else {
            k3.seal(conf, &chain.th);
        }
        chain.mix_hash(&[&out[l.m2_conf()]]);
        Ok((idx_r, head))
    }

    /// The biscuit (§3.4: our whole state for this attempt, sealed under
    /// bkey) and msg2's mac1 under k_m.
    pub(super) fn seal_biscuit<R: CryptoRng + ?Sized>(
        &mut self,
        m: &Msg1<'_>,
        chain: &Chain,
        known: &Known,
        (idx_r, head, k_m): (u32, [u8; 32], Key),
        rng: &mut R,
        out: &mut [u8],
    ) -> Reply {
        let l = &m.l;
        self.biscuit_no += 1;
        let b = &mut out[l.m2_biscuit()];
        rng.fill_bytes(&mut b[..16]);
        let pt = &mut b[16..16 + BISCUIT_PT];
        pt[..8].copy_from_slice(&self.biscuit_no.to_be_bytes());
        // SIG mode: hpk_I and ts are 32 and 12 zero bytes (the id and ts come in enc_I).
        pt[8..40].copy_from_slice(&known.hpk_i);
        if A::MODE == Mode::Kem {
            pt[40..52].copy_from_slice(&known.ts.to_bytes());
        } else {
            pt[40..52].fill(0);
        }
        pt[52..84].copy_from_slice(&chain.ck);
        pt[84..116].copy_from_slice(&chain.th);
        let key = Seal1Key::from_output(derive_key64(C_BISCUIT, &[&self.bkeys[0], &b[..16]]));
        let ad = biscuit_ad(m.suite.id(), m.h.sender, idx_r, &self.me.hpk);
        key.seal(&mut b[16..], &ad);
        let mac = mac16_digest(&k_m.0, &head, &out[l.m2_conf().start..l.m2_mac1().start]);
        out[l.m2_mac1()].copy_from_slice(&mac);
        self.last_k_m = k_m.0;
        Reply::Msg2(l.msg2_len())
    }
}

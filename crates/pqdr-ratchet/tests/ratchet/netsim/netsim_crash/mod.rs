//! The simulator's crashes and persistence (`tests/ratchet/netsim.rs`,
//! docs/protocol/ratchet.md §1.11): a party crashes at random points, is
//! restored from its disk, and exports, persists and confirms its state
//! before it may send.

use crate::netsim_model::*;
use pqdr_ratchet::{Error, Instant, RatchetKem};

impl<K: RatchetKem> Sim<K> {
    pub(crate) fn crashes_allowed(&self) -> Option<Crashes> {
        let c = self.sc.crashes?;
        (self.now + c.quiet_ms < self.sc.duration_ms).then_some(c)
    }

    /// Crashes party `i` with probability `prob` (if crashes are on).
    pub(crate) fn maybe_crash(&mut self, i: usize, prob: f64) -> bool {
        let Some(c) = self.crashes_allowed() else {
            return false;
        };
        if !self.up(i) || !(self.net.f() < prob) {
            return false;
        }
        // Everything in memory is lost, including an export not yet persisted.
        self.p[i].s = None;
        self.p[i].deferred = None;
        self.p[i].down_until = self.now + self.net.below(c.max_down_ms + 1);
        self.report.crashes += 1;
        true
    }

    /// Restores party `i` from its disk.
    pub(crate) fn restore(&mut self, i: usize) {
        let now = self.now;
        let mut d = self.p[i].disk.clone().unwrap();
        if self
            .sc
            .crashes
            .is_some_and(|c| c.misuse == Misuse::RollbackImport)
            && let Some(o) = self.p[i].older.clone()
        {
            d = o;
        }
        let mut copy = d.blob.clone();
        let r = S::<K>::import_state(
            &self.sc.cfg,
            STORAGE_KEY,
            self.p[i].id,
            &mut copy,
            d.generation,
            Instant(now),
        );
        check!(self, r.is_ok(), "party {i}: import failed: {:?}", r.err());
        let mut s = r.unwrap();
        check!(
            self,
            s.generation() == d.generation,
            "restored generation {} != persisted {}",
            s.generation(),
            d.generation
        );
        // Rule 1: nothing is sent before the application exported again, and
        // the refused attempt moves no send position.
        let before = s.leak_positions();
        let mut pkt = [0u8; 1500];
        let (sealed, polled) = self.with_rng(|_, r| {
            (
                s.seal(Instant(now), b"cid", b"probe", &mut pkt, r),
                s.poll_transmit(Instant(now), b"cid", &mut pkt, r),
            )
        });
        check!(
            self,
            sealed == Err(Error::ExportRequired),
            "seal after import: {sealed:?}"
        );
        check!(self, polled.is_none(), "poll_transmit sent after import");
        check!(
            self,
            before == s.leak_positions(),
            "send position moved before export"
        );
        let epoch = s.status(Instant(now)).epoch;
        // The receive state is that of the blob: what was delivered after it
        // may be delivered once more (docs/protocol/ratchet.md §1.11 rule 4).
        let p = &mut self.p[i];
        for id in p.log.drain(d.mark..) {
            p.delivered.remove(&id);
        }
        p.s = Some(s);
        p.need_export = true;
        p.sent_since_export = 0;
        p.restored_from = Some((d.blob.clone(), d.generation));
        self.report.restores += 1;
        self.report.restores_by_phase[usize::from(d.phase)] += 1;
        self.restore_points.push((now, i, epoch));
        let again = self.sc.crashes.map_or(0.0, |c| c.after_restore);
        if self.maybe_crash(i, again) {
            self.report.same_blob_reimports += 1;
        }
    }

    /// Exports party `i` if an export is owed and persists it; returns whether
    /// the party may send (it is up and has nothing owed).
    pub(crate) fn ensure_persisted(&mut self, i: usize) -> bool {
        if !self.up(i) {
            return false;
        }
        if self.p[i].need_export {
            self.export_and_persist(i, true);
        }
        self.up(i)
    }

    pub(crate) fn export_and_persist(&mut self, i: usize, may_crash: bool) {
        let now = self.now;
        let reserve = [1u32, 16, 64, 300, 2000][self.net.below(5) as usize];
        let mark = self.p[i].log.len();
        let (blob, generation, phase) = self.with_rng(|sim, r| {
            let s = sim.p[i].s.as_mut().unwrap();
            let phase = s.leak_kem().phase;
            let g0 = s.generation();
            let blob = s.export_state_to_vec(reserve, STORAGE_KEY, Instant(now), r);
            (blob, (g0, s.generation()), phase)
        });
        let blob = match blob {
            Ok(b) => b,
            Err(e) => {
                check!(self, false, "party {i}: export failed: {e:?}");
                unreachable!()
            }
        };
        check!(
            self,
            generation.1 == generation.0 + 1,
            "generation {} -> {}",
            generation.0,
            generation.1
        );
        self.report.exports += 1;
        let c = self.sc.crashes.filter(|_| may_crash);
        if self.maybe_crash(i, c.map_or(0.0, |c| c.before_persist)) {
            // The previous blob and generation stay on disk.
            self.report.lost_exports += 1;
            return;
        }
        let persisted = Persisted {
            blob,
            generation: generation.1,
            mark,
            phase,
        };
        let p = &mut self.p[i];
        p.need_export = false;
        p.sent_since_export = 0;
        p.reserve = reserve;
        if c.is_some_and(|c| c.misuse == Misuse::ConfirmBeforePersist) {
            let g = persisted.generation;
            p.deferred = Some((now + 30, persisted));
            let r = p.s.as_mut().unwrap().confirm_persisted(g);
            check!(self, r.is_ok(), "party {i}: confirm failed: {r:?}");
            return;
        }
        self.persist(i, persisted);
        // Phase 2: the blob and its generation are durable.
        let r = self.p[i]
            .s
            .as_mut()
            .unwrap()
            .confirm_persisted(generation.1);
        check!(self, r.is_ok(), "party {i}: confirm failed: {r:?}");
        if phase != 0 {
            self.maybe_crash(i, c.map_or(0.0, |c| c.after_mid_ratchet_persist));
        }
    }

    /// Writes `(blob, generation)` to party `i`'s disk.
    pub(crate) fn persist(&mut self, i: usize, d: Persisted) {
        let now = self.now;
        let generation = d.generation;
        let p = &mut self.p[i];
        p.older = p.disk.replace(d);
        if let Some((old, g)) = p.restored_from.take() {
            // The blob this incarnation was restored from, imported again
            // with the persisted generation: refused.
            let mut old = old;
            let r = S::<K>::import_state(
                &self.sc.cfg,
                STORAGE_KEY,
                p.id,
                &mut old,
                generation,
                Instant(now),
            );
            check!(
                self,
                r.as_ref().err() == Some(&Error::StaleGeneration),
                "re-import of generation {g} after persisting {generation}: {:?}",
                r.err()
            );
            self.report.stale_refused += 1;
        }
    }
}

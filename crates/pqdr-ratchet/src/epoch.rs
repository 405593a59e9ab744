//! docs/protocol/ratchet.md §1.4, §1.9: the keys and windows of one live epoch.

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::chain::Chain;
use crate::config::{Instant, Role};
use crate::kdf::{self, Direction, Key};
use crate::window::Window;

/// Keys and windows of one live epoch.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct EpochSlot<const WW: usize, const MS: usize> {
    pub(crate) live: bool,
    pub(crate) epoch: u64,
    /// `rk_e` (docs/protocol/ratchet.md §1.4): enters only the next root step; erased when
    /// sending moves to the next epoch. `root_e` itself is never kept.
    pub(crate) rk: Key,
    pub(crate) rk_live: bool,
    /// `xk_e`: the exporter key of the epoch (erased with `rk`).
    pub(crate) xk: Key,
    /// Test-only (`testing::V1Leak`): the v1 derivation kept `root_e` for the
    /// whole epoch; the FS experiment shows what that leaks.
    #[cfg(feature = "test-utils")]
    pub(crate) v1_root: Option<Key>,
    pub(crate) send: Chain,
    pub(crate) send_live: bool,
    /// Reservation limit: no send at or beyond this position (`u64::MAX`: none).
    pub(crate) send_limit: u64,
    pub(crate) sent_packets: u64,
    pub(crate) sent_bytes: u64,
    pub(crate) recv: Window<WW, MS>,
    pub(crate) recv_any: bool,
    pub(crate) started: Instant,
    pub(crate) rekey_at_ms: u64,
    /// Erase at this time (grace period of an old epoch).
    pub(crate) expires: Option<Instant>,
}

impl<const WW: usize, const MS: usize> EpochSlot<WW, MS> {
    pub(crate) fn dead() -> Self {
        EpochSlot {
            live: false,
            epoch: 0,
            rk: [0; 32],
            rk_live: false,
            xk: [0; 32],
            #[cfg(feature = "test-utils")]
            v1_root: None,
            send: Chain::empty(),
            send_live: false,
            send_limit: u64::MAX,
            sent_packets: 0,
            sent_bytes: 0,
            recv: Window::new(Chain::empty()),
            recv_any: false,
            started: Instant(0),
            rekey_at_ms: 0,
            expires: None,
        }
    }

    /// Installs epoch `epoch` from its root in place (docs/protocol/ratchet.md §1.4 as
    /// revised: the root's four children at once, then the root is erased).
    /// `send_limit` is the number of records the send chain may carry before
    /// the next export (`u64::MAX`: no export reservation is active).
    #[allow(clippy::too_many_arguments, reason = "one call site per role")]
    pub(crate) fn install(
        &mut self,
        epoch: u64,
        root: &mut Key,
        role: Role,
        now: Instant,
        rekey_at_ms: u64,
        send_limit: u64,
        keep_v1_root: bool,
    ) {
        self.zeroize();
        #[cfg(feature = "test-utils")]
        if keep_v1_root {
            self.v1_root = Some(*root);
        }
        let _ = keep_v1_root;
        // Built in place and wiped on drop (ZeroizeOnDrop); the children
        // are then copied field by field into the slot.
        let mut keys = kdf::EpochKeys {
            rk: [0; 32],
            xk: [0; 32],
            seg0_i2r: [0; 32],
            seg0_r2i: [0; 32],
        };
        keys.fill_from_root(root);
        let (mine, theirs) = directions(role);
        self.live = true;
        self.epoch = epoch;
        self.rk = keys.rk;
        self.rk_live = true;
        self.xk = keys.xk;
        self.send = Chain::from_seg0(keys.seg0(mine));
        self.send_live = true;
        self.send_limit = send_limit;
        self.recv = Window::new(Chain::from_seg0(keys.seg0(theirs)));
        self.started = now;
        self.rekey_at_ms = rekey_at_ms;
    }
}

/// `(my sending direction, peer's sending direction)`.
pub(crate) fn directions(role: Role) -> (Direction, Direction) {
    match role {
        Role::Initiator => (Direction::I2R, Direction::R2I),
        Role::Responder => (Direction::R2I, Direction::I2R),
    }
}

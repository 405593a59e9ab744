//! Message layouts (docs/protocol/handshake.md §3): every length is
//! fixed by the suite, so parsing is by offset.

use core::ops::Range;

use crate::Error;
use crate::suite::{Auth, Mode, Suite};

/// Protocol version byte.
pub const VERSION: u8 = 0x02;
/// Message type bytes.
pub const MSG1: u8 = 0x01;
/// msg2.
pub const MSG2: u8 = 0x02;
/// msg3.
pub const MSG3: u8 = 0x03;
/// Cookie reply.
pub const COOKIE_REPLY: u8 = 0x04;
/// Cookie reply length.
pub const COOKIE_REPLY_LEN: usize = 56;
/// Biscuit length: salt(16) ‖ sealed 116-byte plaintext (132).
pub const BISCUIT_LEN: usize = 148;
pub(crate) const BISCUIT_PT: usize = 116;
/// Largest msg1 of any suite (SIG padding stays under this).
pub const MSG1_MAX: usize = 4096;
/// The initiator's msg1 buffer: the largest msg1 of any suite (K768-X,
/// 2,420 B; SIG msg1 is at most ⌈(msg2 + 2) / 3⌉ ≤ 2,049 B), so the state it
/// lives in (and every move of it) is 1.6 KB smaller than with [`MSG1_MAX`].
pub(crate) const MSG1_BUF: usize = 2432;
/// Largest msg2 of any suite (S87-X: 5,939 B).
pub const MSG2_MAX: usize = 6144;
/// Largest msg3 this crate sends (S87, kind 0: 4,864 B).
pub const MSG3_MAX: usize = 4864;
/// A KEM-mode msg3: hdrB ‖ biscuit ‖ conf_I ‖ mac1.
pub(crate) const MSG3_KEM: usize = HDR_B + BISCUIT_LEN + TAG + MAC;
/// Largest verifying key (ML-DSA-87).
pub(crate) const VK_MAX: usize = 2592;
/// Largest signature (ML-DSA-87).
pub(crate) const SIG_MAX: usize = 4627;

pub(crate) const HDR_A: usize = 8;
pub(crate) const HDR_B: usize = 12;
const TAG: usize = 16;
const MAC: usize = 16;

/// Offsets of every field for one suite.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub(crate) mode: Mode,
    ek: usize,
    ct_e: usize,
    ct_s: usize,
    x: usize,
    sig: usize,
    vk: usize,
}

fn r(start: usize, len: usize) -> Range<usize> {
    start..start + len
}

impl Layout {
    pub(crate) fn new<A: Auth>(suite: Suite) -> Self {
        let e = suite.ephemeral();
        Layout {
            mode: A::MODE,
            ek: e.ek_len(),
            ct_e: e.ct_len(),
            ct_s: A::CT_LEN,
            x: if suite.hybrid() { 32 } else { 0 },
            sig: A::SIG_LEN,
            vk: A::VK_LEN,
        }
    }

    // ---- msg1 ----
    pub(crate) fn m1_ek(&self) -> Range<usize> {
        r(HDR_A, self.ek)
    }
    /// KEM mode: ct_R.
    pub(crate) fn m1_ct(&self) -> Range<usize> {
        r(HDR_A + self.ek, self.ct_s)
    }
    pub(crate) fn m1_x(&self) -> Range<usize> {
        r(HDR_A + self.ek + self.ct_s, self.x)
    }
    /// KEM mode: enc_id (hpk_I sealed: 48 B).
    pub(crate) fn m1_enc_id(&self) -> Range<usize> {
        r(self.m1_x().end, 32 + TAG)
    }
    /// KEM mode: enc_ts (28 B).
    pub(crate) fn m1_enc_ts(&self) -> Range<usize> {
        r(self.m1_enc_id().end, 12 + TAG)
    }
    /// SIG mode: zero padding.
    pub(crate) fn m1_pad(&self) -> Range<usize> {
        let start = self.m1_x().end;
        start..self.msg1_len() - 2 * MAC
    }
    pub(crate) fn m1_mac1(&self) -> Range<usize> {
        r(self.msg1_len() - 2 * MAC, MAC)
    }
    pub(crate) fn m1_mac2(&self) -> Range<usize> {
        r(self.msg1_len() - MAC, MAC)
    }
    pub(crate) fn msg1_len(&self) -> usize {
        match self.mode {
            Mode::Kem => HDR_A + self.ek + self.ct_s + self.x + 48 + 28 + 2 * MAC,
            // At least ceil(len(msg2) / 3), so msg2 ≤ 3 · msg1 (anti-amplification).
            Mode::Sig => {
                (((self.msg2_len() + 2) * 0x5556) >> 16).max(HDR_A + self.ek + self.x + 2 * MAC)
            }
        }
    }

    // ---- msg2 ----
    pub(crate) fn m2_ct_e(&self) -> Range<usize> {
        r(HDR_B, self.ct_e)
    }
    /// KEM mode: ct_I.
    pub(crate) fn m2_ct_i(&self) -> Range<usize> {
        r(HDR_B + self.ct_e, self.ct_s)
    }
    pub(crate) fn m2_x(&self) -> Range<usize> {
        r(HDR_B + self.ct_e + self.ct_s, self.x)
    }
    /// conf_R (KEM, 16 B) or enc_R (SIG, sig + 16 B).
    pub(crate) fn m2_conf(&self) -> Range<usize> {
        let len = match self.mode {
            Mode::Kem => TAG,
            Mode::Sig => self.sig + TAG,
        };
        r(self.m2_x().end, len)
    }
    pub(crate) fn m2_biscuit(&self) -> Range<usize> {
        r(self.m2_conf().end, BISCUIT_LEN)
    }
    pub(crate) fn m2_mac1(&self) -> Range<usize> {
        r(self.m2_biscuit().end, MAC)
    }
    pub(crate) fn msg2_len(&self) -> usize {
        self.m2_mac1().end
    }

    // ---- msg3 ----
    pub(crate) fn m3_biscuit(&self) -> Range<usize> {
        r(HDR_B, BISCUIT_LEN)
    }
    /// conf_I (KEM) or enc_I (SIG) for an id of `id_len` bytes.
    pub(crate) fn m3_conf(&self, id_len: usize) -> Range<usize> {
        let len = match self.mode {
            Mode::Kem => TAG,
            Mode::Sig => 1 + id_len + 12 + self.sig + TAG,
        };
        r(HDR_B + BISCUIT_LEN, len)
    }
    pub(crate) fn msg3_len(&self, id_len: usize) -> usize {
        self.m3_conf(id_len).end + MAC
    }
    /// The id length a msg3 of `len` bytes carries (SIG: kind 0 or 1), or
    /// [`Error::Length`] naming the length of a msg3 with a 32-byte id.
    pub(crate) fn msg3_id_len(&self, len: usize) -> Result<usize, Error> {
        if len == self.msg3_len(32) {
            Ok(32)
        } else if self.mode == Mode::Sig && len == self.msg3_len(self.vk) {
            Ok(self.vk)
        } else {
            Err(Error::length(self.msg3_len(32), len))
        }
    }
    /// The msg3 length a SIG-mode kind byte calls for (kind 0: a 32-byte id,
    /// any other: the verifying key).
    pub(crate) fn msg3_len_of_kind(&self, kind: u8) -> usize {
        self.msg3_len(if kind == 0 { 32 } else { self.vk })
    }
}

/// A parsed header.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub(crate) suite: u16,
    pub(crate) sender: u32,
    pub(crate) receiver: u32,
}

/// Parses hdrA / hdrB; checks type and version.
pub(crate) fn header(msg: &[u8], ty: u8, hdr_len: usize) -> Result<Header, Error> {
    if msg.len() < hdr_len {
        return Err(Error::length(hdr_len, msg.len()));
    }
    if msg[0] != ty {
        return Err(Error::MessageType);
    }
    if msg[1] != VERSION {
        return Err(Error::Version);
    }
    let be32 = |i: usize| u32::from_be_bytes([msg[i], msg[i + 1], msg[i + 2], msg[i + 3]]);
    Ok(Header {
        suite: u16::from_be_bytes([msg[2], msg[3]]),
        sender: be32(4),
        receiver: if hdr_len == HDR_B { be32(8) } else { 0 },
    })
}

/// Writes hdrA or hdrB.
/// The biscuit's associated data (42 bytes): suite ‖ idx_I ‖ idx_R ‖ hpk_R (docs/protocol/handshake.md §3.4).
pub(crate) fn biscuit_ad(suite: u16, idx_i: u32, idx_r: u32, hpk_r: &[u8; 32]) -> [u8; 42] {
    let mut ad = [0u8; 42];
    ad[..2].copy_from_slice(&suite.to_be_bytes());
    ad[2..6].copy_from_slice(&idx_i.to_be_bytes());
    ad[6..10].copy_from_slice(&idx_r.to_be_bytes());
    ad[10..].copy_from_slice(hpk_r);
    ad
}

pub(crate) fn write_header(out: &mut [u8], ty: u8, suite: u16, sender: u32, receiver: Option<u32>) {
    out[0] = ty;
    out[1] = VERSION;
    out[2..4].copy_from_slice(&suite.to_be_bytes());
    out[4..8].copy_from_slice(&sender.to_be_bytes());
    if let Some(rx) = receiver {
        out[8..12].copy_from_slice(&rx.to_be_bytes());
    }
}

/// Compile-time: the buffers hold every suite's messages.
const _: () = {
    assert!(MSG2_MAX >= HDR_B + 1088 + 32 + SIG_MAX + 16 + BISCUIT_LEN + 16);
    assert!(MSG3_MAX >= HDR_B + BISCUIT_LEN + 1 + 32 + 12 + SIG_MAX + 16 + 16);
    assert!(MSG1_MAX >= MSG1_BUF);
    // KEM: hdrA ‖ ek_E (ML-KEM-768) ‖ ct_R (≤ 1088: ML-KEM-768; sntrup761 1039,
    // McEliece ≤ 208) ‖ X_I ‖ enc_id ‖ enc_ts ‖ mac1 ‖ mac2.
    assert!(MSG1_BUF >= HDR_A + 1184 + 1088 + 32 + 48 + 28 + 32);
    // SIG: Layout::msg1_len's anti-amplification floor for the largest msg2, and its minimum.
    assert!(MSG1_BUF >= ((MSG2_MAX + 2) * 0x5556) >> 16);
    assert!(MSG1_BUF >= HDR_A + 1184 + 32 + 2 * MAC);
    assert!(BISCUIT_LEN == 16 + BISCUIT_PT + 16);
};

//! docs/protocol/ratchet.md §1.5: record header and the frames inside the AEAD plaintext.
//!
//! Every parser here takes untrusted bytes and returns `Err(Error::Malformed)`
//! instead of panicking; unknown frame types are errors (the packet is dropped
//! before commit, so version skew cannot desync state).

use crate::Error;

/// Datagram header length: flags ‖ epoch_lo ‖ be32(counter).
pub const HEADER_LEN: usize = 6;
/// Poly1305 tag length.
pub const TAG_LEN: usize = 16;
/// Fixed per-record overhead in datagram mode (header + tag).
pub const OVERHEAD: usize = HEADER_LEN + TAG_LEN;
/// Stream-mode record prefix: be16(len) ‖ flags ‖ epoch_lo.
pub const STREAM_PREFIX_LEN: usize = 4;
/// Flags byte: version 010 (wire version 2), kind 00 (protected), reserved 000.
pub const FLAGS: u8 = 0b0100_0000;

/// Frame types.
pub(crate) mod ty {
    pub(crate) const PADDING: u8 = 0x00;
    pub(crate) const DATA: u8 = 0x01;
    pub(crate) const DATA_LEN: u8 = 0x02;
    pub(crate) const KEM_SYMBOL: u8 = 0x10;
    pub(crate) const KEM_DONE: u8 = 0x11;
    pub(crate) const RATCHET_REQUEST: u8 = 0x12;
    pub(crate) const RATCHET_ABORT: u8 = 0x13;
    pub(crate) const RECV_REPORT: u8 = 0x14;
}

/// Which KEM blob a symbol belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blob {
    /// The owner's encapsulation key.
    Ek = 0,
    /// The peer's ciphertext.
    Ct = 1,
}

impl Blob {
    fn parse(b: u8) -> Result<Self, Error> {
        match b {
            0 => Ok(Blob::Ek),
            1 => Ok(Blob::Ct),
            _ => Err(Error::Malformed),
        }
    }
}

/// A KEM_SYMBOL frame body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// Ratchet attempt id.
    pub rid: u16,
    /// ek or ct.
    pub blob: Blob,
    /// Number of data symbols.
    pub k: u8,
    /// Symbol index (evaluation point).
    pub idx: u8,
    /// Symbol bytes (`sym_len` of them).
    pub data: &'a [u8],
}

/// Size of a KEM_SYMBOL frame with `sym_len` data bytes.
pub const fn symbol_frame_len(sym_len: usize) -> usize {
    8 + sym_len
}

/// One parsed frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'a> {
    /// PADDING: the rest of the plaintext (all zero).
    Padding,
    /// DATA or DATA_LEN: application bytes at `start..start + len` of the plaintext.
    Data {
        /// Offset in the plaintext.
        start: usize,
        /// Length.
        len: usize,
    },
    /// KEM_SYMBOL.
    Symbol(Symbol<'a>),
    /// KEM_DONE.
    Done {
        /// Attempt id.
        rid: u16,
        /// Blob fully decoded.
        blob: Blob,
    },
    /// RATCHET_REQUEST.
    Request {
        /// `(epoch + 1) mod 256` the requester wants.
        next_epoch_lo: u8,
    },
    /// RATCHET_ABORT.
    Abort {
        /// Attempt id.
        rid: u16,
        /// Reason code.
        reason: u8,
    },
    /// RECV_REPORT (also used as a probe that elicits one reply packet).
    RecvReport {
        /// Epoch (low byte).
        epoch_lo: u8,
        /// Highest counter received.
        highest: u32,
    },
}

/// Iterator over the frames of a decrypted plaintext.
#[derive(Debug)]
pub struct Frames<'a> {
    r: Reader<'a>,
}

impl<'a> Frames<'a> {
    /// Frames of `plaintext`.
    pub fn new(plaintext: &'a [u8]) -> Self {
        Frames {
            r: Reader::new(plaintext, Error::Malformed),
        }
    }
}

/// A big-endian reader over untrusted bytes: every short read is `err`
/// (frames: [`Error::Malformed`]; state blobs: [`Error::StateCorrupt`]).
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
    err: Error,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8], err: Error) -> Self {
        Reader { buf, pos: 0, err }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.pos.checked_add(n).ok_or(self.err)?;
        let s = self.buf.get(self.pos..end).ok_or(self.err)?;
        self.pos = end;
        Ok(s)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, Error> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, Error> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_be_bytes(a))
    }

    pub(crate) fn array<const N: usize>(&mut self, out: &mut [u8; N]) -> Result<(), Error> {
        out.copy_from_slice(self.take(N)?);
        Ok(())
    }

    /// QUIC-style variable-length integer (RFC 9000 §16).
    pub(crate) fn varint(&mut self) -> Result<u64, Error> {
        let first = self.u8()?;
        let extra = (1usize << (first >> 6)) - 1;
        let mut v = u64::from(first & 0x3f);
        for &b in self.take(extra)? {
            v = (v << 8) | u64::from(b);
        }
        Ok(v)
    }

    /// The next frame (docs/protocol/ratchet.md §1.5 frame table).
    pub(crate) fn frame(&mut self) -> Result<Frame<'a>, Error> {
        let t = self.u8()?;
        match t {
            ty::PADDING => {
                let rest = self.take(self.buf.len() - self.pos)?;
                if rest.iter().any(|&b| b != 0) {
                    return Err(Error::Malformed);
                }
                Ok(Frame::Padding)
            }
            ty::DATA => {
                let start = self.pos;
                let len = self.buf.len() - start;
                self.pos = self.buf.len();
                Ok(Frame::Data { start, len })
            }
            ty::DATA_LEN => {
                let len = usize::try_from(self.varint()?).map_err(|_| Error::Malformed)?;
                let start = self.pos;
                self.take(len)?;
                Ok(Frame::Data { start, len })
            }
            ty::KEM_SYMBOL => {
                let rid = self.u16()?;
                let blob = Blob::parse(self.u8()?)?;
                let k = self.u8()?;
                let sym_len = usize::from(self.u16()?);
                let idx = self.u8()?;
                if k == 0 || sym_len == 0 || idx > crate::codec::MAX_INDEX {
                    return Err(Error::Malformed);
                }
                let data = self.take(sym_len)?;
                Ok(Frame::Symbol(Symbol {
                    rid,
                    blob,
                    k,
                    idx,
                    data,
                }))
            }
            ty::KEM_DONE => {
                let rid = self.u16()?;
                let blob = Blob::parse(self.u8()?)?;
                Ok(Frame::Done { rid, blob })
            }
            ty::RATCHET_REQUEST => Ok(Frame::Request {
                next_epoch_lo: self.u8()?,
            }),
            ty::RATCHET_ABORT => {
                let rid = self.u16()?;
                let reason = self.u8()?;
                Ok(Frame::Abort { rid, reason })
            }
            ty::RECV_REPORT => {
                let epoch_lo = self.u8()?;
                let highest = self.u32()?;
                Ok(Frame::RecvReport { epoch_lo, highest })
            }
            _ => Err(Error::Malformed),
        }
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<Frame<'a>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.r.pos >= self.r.buf.len() {
            return None;
        }
        let r = self.r.frame();
        if r.is_err() {
            self.r.pos = self.r.buf.len();
        }
        Some(r)
    }
}

/// Validates every frame of `plaintext` without side effects: at most one DATA
/// run is allowed.
///
/// # Errors
/// [`Error::Malformed`] on any malformed or unknown frame.
pub fn validate(plaintext: &[u8]) -> Result<(), Error> {
    if plaintext.first() == Some(&ty::DATA) {
        // One DATA frame: the rest of the plaintext.
        return Ok(());
    }
    let mut data = 0usize;
    for f in Frames::new(plaintext) {
        if let Frame::Data { .. } = f? {
            data += 1;
            if data > 1 {
                return Err(Error::Malformed);
            }
        }
    }
    Ok(())
}

/// Writes frames into a plaintext buffer.
#[derive(Debug)]
pub(crate) struct Writer<'a> {
    pub(crate) buf: &'a mut [u8],
    pub(crate) pos: usize,
}

impl Writer<'_> {
    pub(crate) fn room(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Appends `b`, or [`Error::BufferTooSmall`] if it does not fit.
    pub(crate) fn try_put(&mut self, b: &[u8]) -> Result<(), Error> {
        let short = Error::short(self.pos.saturating_add(b.len()), self.buf.len());
        let end = self.pos.checked_add(b.len()).ok_or(short)?;
        self.buf
            .get_mut(self.pos..end)
            .ok_or(short)?
            .copy_from_slice(b);
        self.pos = end;
        Ok(())
    }

    pub(crate) fn u8(&mut self, v: u8) -> Result<(), Error> {
        self.try_put(&[v])
    }

    pub(crate) fn u16(&mut self, v: u16) -> Result<(), Error> {
        self.try_put(&v.to_be_bytes())
    }

    pub(crate) fn u32(&mut self, v: u32) -> Result<(), Error> {
        self.try_put(&v.to_be_bytes())
    }

    pub(crate) fn u64(&mut self, v: u64) -> Result<(), Error> {
        self.try_put(&v.to_be_bytes())
    }

    pub(crate) fn put(&mut self, b: &[u8]) {
        self.buf[self.pos..self.pos + b.len()].copy_from_slice(b);
        self.pos += b.len();
    }

    /// KEM_SYMBOL header (`data` follows, written by the caller via [`Writer::tail`]).
    #[allow(clippy::cast_possible_truncation, reason = "sym_len ≤ MAX_SYM_LEN")]
    pub(crate) fn symbol_header(&mut self, rid: u16, blob: Blob, k: u8, sym_len: usize, idx: u8) {
        self.put(&[ty::KEM_SYMBOL]);
        self.put(&rid.to_be_bytes());
        self.put(&[blob as u8, k]);
        self.put(&(sym_len as u16).to_be_bytes());
        self.put(&[idx]);
    }
}

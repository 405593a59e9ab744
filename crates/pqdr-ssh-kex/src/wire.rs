//! The SSH data types of RFC 4251 §5 (`byte`, `boolean`, `uint32`,
//! `string`, `name-list`): a bounds-checked [`Reader`] over a message
//! payload and the [`Sink`] the encoders write into (a caller's slice
//! through [`SliceSink`], or a `Vec<u8>` with feature `alloc`).

use crate::error::{Error, Field};

/// Reads RFC 4251 §5 fields from a payload; every read checks its bounds.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    #[must_use]
    pub const fn new(buf: &'a [u8]) -> Self {
        Self { buf, pos: 0 }
    }

    /// The offset of the next field.
    #[must_use]
    pub const fn position(&self) -> usize {
        self.pos
    }

    fn take(&mut self, n: usize, field: Field) -> Result<&'a [u8], Error> {
        let err = Error::Field {
            field,
            offset: self.pos,
        };
        let end = self.pos.checked_add(n).ok_or(err)?;
        let out = self.buf.get(self.pos..end).ok_or(err)?;
        self.pos = end;
        Ok(out)
    }

    /// A `byte`.
    ///
    /// # Errors
    /// [`Error::Field`] at the end of the payload.
    pub fn byte(&mut self) -> Result<u8, Error> {
        Ok(self.take(1, Field::Byte)?[0])
    }

    /// A `boolean` (any non-zero byte is true, RFC 4251 §5).
    ///
    /// # Errors
    /// [`Error::Field`] at the end of the payload.
    pub fn boolean(&mut self) -> Result<bool, Error> {
        Ok(self.byte()? != 0)
    }

    /// `n` raw bytes.
    ///
    /// # Errors
    /// [`Error::Field`] (naming `field`) if fewer than `n` bytes are left.
    pub fn bytes(&mut self, n: usize, field: Field) -> Result<&'a [u8], Error> {
        self.take(n, field)
    }

    /// A `uint32`, big-endian.
    ///
    /// # Errors
    /// [`Error::Field`] if fewer than 4 bytes are left.
    pub fn uint32(&mut self) -> Result<u32, Error> {
        let b = self.take(4, Field::Uint32)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A `string`: a `uint32` length and that many bytes.
    ///
    /// # Errors
    /// [`Error::Field`] if the length runs past the payload.
    pub fn string(&mut self) -> Result<&'a [u8], Error> {
        let start = self.pos;
        let len = self.uint32()?;
        let len = usize::try_from(len).map_err(|_| Error::Field {
            field: Field::String,
            offset: start,
        })?;
        self.take(len, Field::String).map_err(|_| Error::Field {
            field: Field::String,
            offset: start,
        })
    }

    /// A `name-list`: a `string` of comma-separated, non-empty names of
    /// printable US-ASCII without commas (RFC 4251 §5). The empty list is
    /// allowed.
    ///
    /// # Errors
    /// [`Error::Field`] for a malformed string or list.
    pub fn name_list(&mut self) -> Result<&'a [u8], Error> {
        let start = self.pos;
        let list = self.string()?;
        let bad = Error::Field {
            field: Field::NameList,
            offset: start,
        };
        if !list.is_empty() {
            for name in list.split(|&b| b == b',') {
                if name.is_empty() || name.iter().any(|&b| !(0x21..=0x7e).contains(&b)) {
                    return Err(bad);
                }
            }
        }
        Ok(list)
    }

    /// Checks that the whole payload was read.
    ///
    /// # Errors
    /// [`Error::Field`] naming [`Field::Trailing`] if bytes are left.
    pub fn finish(&self) -> Result<(), Error> {
        if self.pos == self.buf.len() {
            Ok(())
        } else {
            Err(Error::Field {
                field: Field::Trailing,
                offset: self.pos,
            })
        }
    }
}

/// Where the encoders write: a caller's slice ([`SliceSink`]) or, with
/// feature `alloc`, a `Vec<u8>`.
pub trait Sink {
    /// Appends `bytes`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if they do not fit.
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error>;

    /// Appends a `byte`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if it does not fit.
    fn put_byte(&mut self, b: u8) -> Result<(), Error> {
        self.put(&[b])
    }

    /// Appends a big-endian `uint32`.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if it does not fit.
    fn put_u32(&mut self, v: u32) -> Result<(), Error> {
        self.put(&v.to_be_bytes())
    }

    /// Appends a `string` (length, then bytes).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if it does not fit (or is over 4 GiB).
    fn put_string(&mut self, s: &[u8]) -> Result<(), Error> {
        let len = u32::try_from(s.len()).map_err(|_| Error::BufferTooSmall {
            needed: s.len(),
            got: u32::MAX as usize,
        })?;
        self.put_u32(len)?;
        self.put(s)
    }

    /// Appends a `name-list` from names (joined with commas).
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] if it does not fit.
    fn put_name_list(&mut self, names: &[&str]) -> Result<(), Error> {
        let len: usize =
            names.iter().map(|n| n.len()).sum::<usize>() + names.len().saturating_sub(1);
        let len = u32::try_from(len).map_err(|_| Error::BufferTooSmall {
            needed: len,
            got: u32::MAX as usize,
        })?;
        self.put_u32(len)?;
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                self.put(b",")?;
            }
            self.put(n.as_bytes())?;
        }
        Ok(())
    }
}

/// A [`Sink`] over a caller's buffer (no heap).
#[derive(Debug)]
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceSink<'a> {
    /// An empty sink writing into `buf`.
    #[must_use]
    pub const fn new(buf: &'a mut [u8]) -> Self {
        Self { buf, len: 0 }
    }

    /// The bytes written so far.
    #[must_use]
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// How many bytes were written.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was written.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Sink for SliceSink<'_> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let needed = self.len + bytes.len();
        let got = self.buf.len();
        let dst = self
            .buf
            .get_mut(self.len..needed)
            .ok_or(Error::BufferTooSmall { needed, got })?;
        dst.copy_from_slice(bytes);
        self.len = needed;
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl Sink for alloc::vec::Vec<u8> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

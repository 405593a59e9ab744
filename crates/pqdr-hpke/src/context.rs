//! The key schedule and the encryption context (RFC 9180 §5.1–§5.3; the
//! one-stage schedule of draft-ietf-hpke-hpke §5.1 for the SHAKE KDFs).

use core::fmt;

use rand_core::CryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::aead;
use crate::error::Error;
use crate::kdf::{self, MAX_NH};
use crate::kem::{self, Enc, PrivateKey, PublicKey, SECRET_SIZE};
use crate::suite::{Aead, Suite};

/// A pre-shared key and its identifier, for the `mode_psk` mode (RFC 9180
/// §5.1.2). Both must be non-empty (§5.1.1 `VerifyPSKInputs`); RFC 9180
/// §9.5 asks for at least 32 bytes of entropy in `psk`.
#[derive(Clone, Copy)]
pub struct Psk<'a> {
    psk: &'a [u8],
    id: &'a [u8],
}

impl<'a> Psk<'a> {
    /// The pre-shared key `psk` with identifier `psk_id`.
    ///
    /// # Errors
    /// [`Error::InvalidPsk`] if either is empty.
    pub const fn new(psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        if psk.is_empty() || psk_id.is_empty() {
            return Err(Error::InvalidPsk);
        }
        Ok(Self { psk, id: psk_id })
    }
}

impl fmt::Debug for Psk<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Psk")
            .field("psk_id_len", &self.id.len())
            .finish_non_exhaustive()
    }
}

/// The secret state of a context: `key`, `base_nonce`, `exporter_secret`
/// and the sequence number (RFC 9180 §5.1). Wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Context {
    #[zeroize(skip)]
    suite: Suite,
    key: [u8; 32],
    base_nonce: [u8; 12],
    exporter_secret: [u8; MAX_NH],
    seq: u64,
}

impl Context {
    /// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)`.
    fn new(
        suite: Suite,
        ss: &[u8; SECRET_SIZE],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<Self, Error> {
        let (mode, psk_bytes, psk_id): (u8, &[u8], &[u8]) = match psk {
            None => (0x00, b"", b""),
            Some(p) => (0x01, p.psk, p.id),
        };
        let sid = suite.suite_id();
        let (nk, nn, nh) = (
            suite.aead.key_size(),
            suite.aead.nonce_size(),
            suite.kdf.nh(),
        );
        let mut ctx = Self {
            suite,
            key: [0; 32],
            base_nonce: [0; 12],
            exporter_secret: [0; MAX_NH],
            seq: 0,
        };
        if suite.kdf.is_one_stage() {
            // draft-ietf-hpke-hpke §5.1, one-stage KDF:
            // secrets = I2OSP(len(psk), 2) ‖ psk ‖ I2OSP(len(ss), 2) ‖ ss,
            // context = mode ‖ I2OSP(len(psk_id), 2) ‖ psk_id ‖ I2OSP(len(info), 2) ‖ info,
            // secret = LabeledDerive(secrets, "secret", context, Nk + Nn + Nh).
            let psk_len = kdf::len16(psk_bytes.len())?;
            let ss_len = kdf::len16(ss.len())?;
            let id_len = kdf::len16(psk_id.len())?;
            let info_len = kdf::len16(info.len())?;
            let mut secret = Zeroizing::new([0u8; 32 + 12 + MAX_NH]);
            kdf::labeled_derive(
                suite.kdf,
                &sid,
                &[&psk_len, psk_bytes, &ss_len, ss],
                b"secret",
                &[&[mode], &id_len, psk_id, &info_len, info],
                &mut secret[..nk + nn + nh],
            )?;
            ctx.key[..nk].copy_from_slice(&secret[..nk]);
            ctx.base_nonce[..nn].copy_from_slice(&secret[nk..nk + nn]);
            ctx.exporter_secret[..nh].copy_from_slice(&secret[nk + nn..nk + nn + nh]);
        } else {
            // RFC 9180 §5.1.
            let psk_id_hash = kdf::labeled_extract(suite.kdf, &sid, b"", b"psk_id_hash", psk_id);
            let info_hash = kdf::labeled_extract(suite.kdf, &sid, b"", b"info_hash", info);
            let mut ks_context = [0u8; 1 + 2 * MAX_NH];
            ks_context[0] = mode;
            ks_context[1..1 + nh].copy_from_slice(&psk_id_hash[..nh]);
            ks_context[1 + nh..1 + 2 * nh].copy_from_slice(&info_hash[..nh]);
            let ks_context = &ks_context[..1 + 2 * nh];
            let secret = kdf::labeled_extract(suite.kdf, &sid, ss, b"secret", psk_bytes);
            let secret = &secret[..nh];
            if nk > 0 {
                kdf::labeled_expand(
                    suite.kdf,
                    &sid,
                    secret,
                    b"key",
                    ks_context,
                    &mut ctx.key[..nk],
                )?;
                kdf::labeled_expand(
                    suite.kdf,
                    &sid,
                    secret,
                    b"base_nonce",
                    ks_context,
                    &mut ctx.base_nonce[..nn],
                )?;
            }
            kdf::labeled_expand(
                suite.kdf,
                &sid,
                secret,
                b"exp",
                ks_context,
                &mut ctx.exporter_secret[..nh],
            )?;
        }
        Ok(ctx)
    }

    /// `ComputeNonce(seq)`: `base_nonce XOR I2OSP(seq, Nn)` (RFC 9180 §5.2).
    fn nonce(&self) -> [u8; 12] {
        let mut n = self.base_nonce;
        for (b, s) in n[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *b ^= s;
        }
        n
    }

    /// The sequence number of the next message, refusing the last one
    /// (RFC 9180 §5.2 `IncrementSeq`; our counter is 64 bits, so the limit
    /// is `2⁶⁴ − 1` messages, far below `2^(8·Nn) − 1`).
    fn check_seq(&self) -> Result<(), Error> {
        if self.suite.aead == Aead::ExportOnly {
            return Err(Error::ExportOnly);
        }
        if self.seq == u64::MAX {
            return Err(Error::MessageLimit);
        }
        Ok(())
    }

    fn seal(&mut self, aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.check_seq()?;
        let n = aead::seal(
            self.suite.aead,
            &self.key[..self.suite.aead.key_size()],
            &self.nonce(),
            aad,
            pt,
            out,
        )?;
        self.seq += 1;
        Ok(n)
    }

    fn open(&mut self, aad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.check_seq()?;
        let n = aead::open(
            self.suite.aead,
            &self.key[..self.suite.aead.key_size()],
            &self.nonce(),
            aad,
            ct,
            out,
        )?;
        self.seq += 1;
        Ok(n)
    }

    /// `Context.Export(exporter_context, L)` (RFC 9180 §5.3; `LabeledDerive`
    /// for the one-stage KDFs), `L = out.len()`.
    fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let sid = self.suite.suite_id();
        let secret = &self.exporter_secret[..self.suite.kdf.nh()];
        if self.suite.kdf.is_one_stage() {
            kdf::labeled_derive(
                self.suite.kdf,
                &sid,
                &[secret],
                b"sec",
                &[exporter_context],
                out,
            )
        } else {
            kdf::labeled_expand(self.suite.kdf, &sid, secret, b"sec", exporter_context, out)
        }
    }
}

fn check_kem(suite: &Suite, kem: crate::Kem) -> Result<(), Error> {
    if suite.kem == kem {
        Ok(())
    } else {
        Err(Error::KemMismatch {
            suite: suite.kem.id(),
            key: kem.id(),
        })
    }
}

/// The sender's context (`ContextS`, RFC 9180 §5.2): seals messages to the
/// recipient and exports secrets. Wiped on drop.
pub struct Sender(Context);

impl Sender {
    /// `SetupBaseS` / `SetupPSKS` (RFC 9180 §5.1.1, §5.1.2): encapsulates to
    /// `pk` and runs the key schedule; `psk = None` is the base mode. Returns
    /// `enc` (to send to the recipient) and the context.
    ///
    /// # Errors
    /// [`Error::KemMismatch`] if `pk` is not of the suite's KEM;
    /// [`Error::Encap`] for a low-order DHKEM key; [`Error::Length`] if a
    /// one-stage (SHAKE) schedule input exceeds 65535 bytes.
    pub fn new<R: CryptoRng + ?Sized>(
        suite: &Suite,
        pk: &PublicKey,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        rng: &mut R,
    ) -> Result<(Enc, Self), Error> {
        check_kem(suite, pk.kem())?;
        let (enc, ss) = kem::encap(pk, rng)?;
        Ok((enc, Self(Context::new(*suite, &ss, info, psk)?)))
    }

    /// [`Self::new`] with the encapsulation randomness given (known-answer
    /// tests only): DHKEM's `ikmE`, ML-KEM's `m`, the hybrids' `m ‖` curve
    /// key ([`crate::Kem::encap_randomness_size`] bytes).
    ///
    /// # Errors
    /// As [`Self::new`]; [`Error::Length`] (`Ikm`) for randomness of the
    /// wrong size; [`Error::Encap`] if a P-256 / P-384 ephemeral scalar is
    /// out of range.
    pub fn new_deterministic(
        suite: &Suite,
        pk: &PublicKey,
        info: &[u8],
        psk: Option<&Psk<'_>>,
        randomness: &[u8],
    ) -> Result<(Enc, Self), Error> {
        check_kem(suite, pk.kem())?;
        let (enc, ss) = kem::encap_derand(pk, randomness)?.ok_or(Error::Encap)?;
        Ok((enc, Self(Context::new(*suite, &ss, info, psk)?)))
    }

    /// `ContextS.Seal(aad, pt)` (RFC 9180 §5.2): writes `ct ‖ tag` into
    /// `out` (at least `pt.len() + 16` bytes) and returns its length.
    ///
    /// # Errors
    /// [`Error::Length`] (`Output`) if `out` is too short;
    /// [`Error::ExportOnly`]; [`Error::MessageLimit`].
    pub fn seal(&mut self, aad: &[u8], pt: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.0.seal(aad, pt, out)
    }

    /// `ContextS.Export(exporter_context, L)` (RFC 9180 §5.3) into `out`
    /// (`L = out.len()`).
    ///
    /// # Errors
    /// [`Error::Length`] (`ExportLength`) if `L` exceeds the KDF's maximum.
    pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.0.export(exporter_context, out)
    }

    /// `ContextS.Seal` into a new vector (feature `alloc`).
    ///
    /// # Errors
    /// As [`Self::seal`].
    #[cfg(feature = "alloc")]
    pub fn seal_to_vec(&mut self, aad: &[u8], pt: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut out = alloc::vec![0u8; pt.len() + crate::TAG_SIZE];
        self.seal(aad, pt, &mut out)?;
        Ok(out)
    }

    /// The sequence number of the next message.
    #[must_use]
    pub const fn sequence_number(&self) -> u64 {
        self.0.seq
    }

    /// Sets the sequence number (feature `test-utils`, never in production:
    /// reusing a sequence number reuses a nonce).
    #[cfg(feature = "test-utils")]
    pub fn set_sequence_number(&mut self, seq: u64) {
        self.0.seq = seq;
    }
}

impl fmt::Debug for Sender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sender")
            .field("suite", &self.0.suite)
            .field("seq", &self.0.seq)
            .finish_non_exhaustive()
    }
}

/// The recipient's context (`ContextR`, RFC 9180 §5.2): opens the sender's
/// messages and exports secrets. Wiped on drop.
pub struct Recipient(Context);

impl Recipient {
    /// `SetupBaseR` / `SetupPSKR` (RFC 9180 §5.1.1, §5.1.2): decapsulates
    /// `enc` with `sk` and runs the key schedule.
    ///
    /// # Errors
    /// [`Error::KemMismatch`]; [`Error::Length`] (`Enc`) for an `enc` of the
    /// wrong size; [`Error::Decap`] for a low-order or invalid curve point
    /// in `enc`.
    pub fn new(
        suite: &Suite,
        sk: &PrivateKey,
        enc: &[u8],
        info: &[u8],
        psk: Option<&Psk<'_>>,
    ) -> Result<Self, Error> {
        check_kem(suite, sk.kem())?;
        let ss = kem::decap(sk, enc)?;
        Ok(Self(Context::new(*suite, &ss, info, psk)?))
    }

    /// `ContextR.Open(aad, ct)` (RFC 9180 §5.2): writes the plaintext into
    /// `out` (at least `ct.len() - 16` bytes) and returns its length. The
    /// sequence number advances only on success.
    ///
    /// # Errors
    /// [`Error::Open`] if the tag does not verify; [`Error::Length`] for a
    /// `ct` shorter than a tag or a short `out`; [`Error::ExportOnly`];
    /// [`Error::MessageLimit`].
    pub fn open(&mut self, aad: &[u8], ct: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.0.open(aad, ct, out)
    }

    /// `ContextR.Export(exporter_context, L)` (RFC 9180 §5.3) into `out`.
    ///
    /// # Errors
    /// [`Error::Length`] (`ExportLength`) if `L` exceeds the KDF's maximum.
    pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        self.0.export(exporter_context, out)
    }

    /// `ContextR.Open` into a new vector (feature `alloc`).
    ///
    /// # Errors
    /// As [`Self::open`].
    #[cfg(feature = "alloc")]
    pub fn open_to_vec(&mut self, aad: &[u8], ct: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        let n = ct.len().checked_sub(crate::TAG_SIZE).ok_or(Error::Length {
            what: crate::error::Object::Ciphertext,
            expected: crate::TAG_SIZE,
            actual: ct.len(),
        })?;
        let mut out = alloc::vec![0u8; n];
        self.open(aad, ct, &mut out)?;
        Ok(out)
    }

    /// The sequence number of the next message.
    #[must_use]
    pub const fn sequence_number(&self) -> u64 {
        self.0.seq
    }

    /// Sets the sequence number (feature `test-utils`, never in production).
    #[cfg(feature = "test-utils")]
    pub fn set_sequence_number(&mut self, seq: u64) {
        self.0.seq = seq;
    }
}

impl fmt::Debug for Recipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Recipient")
            .field("suite", &self.0.suite)
            .field("seq", &self.0.seq)
            .finish_non_exhaustive()
    }
}

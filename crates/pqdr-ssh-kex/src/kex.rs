//! The key exchange messages and both sides' steps (RFC 4253 §7–8 with the
//! ECDH message shape of RFC 5656 §4, which RFC 9941 and
//! draft-ietf-sshm-mlkem-hybrid-kex-09 reuse):
//!
//! ```text
//! client → server   byte SSH_MSG_KEX_ECDH_INIT (30), string C_INIT
//! server → client   byte SSH_MSG_KEX_ECDH_REPLY (31), string K_S,
//!                   string S_REPLY, string signature of H
//! ```
//!
//! Then both send SSH_MSG_NEWKEYS (§7.3) and switch to the derived keys.

use rand_core::CryptoRng;

use crate::error::Error;
use crate::hash::{ExchangeHash, SessionKeys, Transcript, exchange_hash, session_keys};
use crate::hostkey::{self, HostKey};
use crate::hybrid::{self, ClientShare};
use crate::kexinit::Kex;
use crate::msg;
use crate::wire::{Reader, Sink, SliceSink};

/// The version lines and KEXINIT payloads both sides hash.
#[derive(Clone, Copy, Debug)]
pub struct Hello<'a> {
    /// `V_C`, without CR LF.
    pub v_c: &'a [u8],
    /// `V_S`, without CR LF.
    pub v_s: &'a [u8],
    /// `I_C`, the client's KEXINIT payload.
    pub i_c: &'a [u8],
    /// `I_S`, the server's KEXINIT payload.
    pub i_s: &'a [u8],
}

/// What a completed exchange gives either side.
#[derive(Debug)]
pub struct Outcome {
    /// The exchange hash `H` (the session identifier of a first exchange).
    pub exchange_hash: ExchangeHash,
    /// The derived cipher keys.
    pub keys: SessionKeys,
    /// The server's Ed25519 host key (the client checks it against its
    /// known hosts).
    pub host_key: [u8; 32],
}

/// Writes SSH_MSG_KEX_ECDH_INIT with the share's `C_INIT`.
///
/// # Errors
/// [`Error::BufferTooSmall`] from the sink.
pub fn write_init<S: Sink + ?Sized>(sink: &mut S, share: &ClientShare) -> Result<(), Error> {
    sink.put_byte(msg::KEX_ECDH_INIT)?;
    let len = hybrid::client_init_len(share.kex());
    sink.put_u32(u32::try_from(len).unwrap_or(u32::MAX))?;
    share.write_init(sink)
}

/// The `C_INIT` of an SSH_MSG_KEX_ECDH_INIT payload (its length is checked
/// against the method by [`server_respond`]).
///
/// # Errors
/// [`Error::UnexpectedMessage`], [`Error::Disconnected`], [`Error::Field`].
pub fn parse_init(payload: &[u8]) -> Result<&[u8], Error> {
    let mut r = msg::expect(payload, msg::KEX_ECDH_INIT)?;
    let c_init = r.string()?;
    r.finish()?;
    Ok(c_init)
}

/// The three fields of an SSH_MSG_KEX_ECDH_REPLY.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply<'a> {
    /// `K_S`, the host key blob.
    pub k_s: &'a [u8],
    /// `S_REPLY`.
    pub s_reply: &'a [u8],
    /// The signature blob over `H`.
    pub signature: &'a [u8],
}

/// Parses an SSH_MSG_KEX_ECDH_REPLY payload.
///
/// # Errors
/// [`Error::UnexpectedMessage`], [`Error::Disconnected`], [`Error::Field`].
pub fn parse_reply(payload: &[u8]) -> Result<Reply<'_>, Error> {
    let mut r: Reader<'_> = msg::expect(payload, msg::KEX_ECDH_REPLY)?;
    let k_s = r.string()?;
    let s_reply = r.string()?;
    let signature = r.string()?;
    r.finish()?;
    Ok(Reply {
        k_s,
        s_reply,
        signature,
    })
}

/// The client's last step: from the server's SSH_MSG_KEX_ECDH_REPLY
/// payload, computes `K` and `H`, verifies the host key signature over `H`
/// (RFC 4253 §8) and derives the keys (§7.2; the session identifier is `H`
/// of this first exchange).
///
/// # Errors
/// Those of [`parse_reply`], [`ClientShare::finish`] and [`hostkey::verify`].
pub fn client_finish(
    share: ClientShare,
    hello: &Hello<'_>,
    reply_payload: &[u8],
) -> Result<Outcome, Error> {
    let kex = share.kex();
    let reply = parse_reply(reply_payload)?;
    let mut c_init = [0u8; hybrid_max::C_INIT];
    let mut sink = SliceSink::new(&mut c_init);
    share.write_init(&mut sink)?;
    let c_init_len = sink.len();
    // Refuse a foreign host key type before any KEM work.
    hostkey::parse_public_blob(reply.k_s)?;
    let k = share.finish(reply.s_reply)?;
    let t = Transcript {
        v_c: hello.v_c,
        v_s: hello.v_s,
        i_c: hello.i_c,
        i_s: hello.i_s,
        k_s: reply.k_s,
        c_init: &c_init[..c_init_len],
        s_reply: reply.s_reply,
    };
    let h = exchange_hash(kex, &t, &k);
    let host_key = hostkey::verify(reply.k_s, reply.signature, &h)?;
    let keys = session_keys(kex, &k, &h, h.as_bytes());
    Ok(Outcome {
        exchange_hash: h,
        keys,
        host_key,
    })
}

/// The server's step: from the client's SSH_MSG_KEX_ECDH_INIT payload,
/// encapsulates, computes `K` and `H`, signs `H` with `host_key` and writes
/// the SSH_MSG_KEX_ECDH_REPLY payload into `sink`.
///
/// # Errors
/// Those of [`parse_init`] and [`hybrid::server_reply`] (wrong `C_INIT`
/// length, invalid ML-KEM key, low-order X25519 key), or the sink's.
pub fn server_respond<R: CryptoRng + ?Sized, S: Sink + ?Sized>(
    kex: Kex,
    host_key: &HostKey,
    hello: &Hello<'_>,
    init_payload: &[u8],
    rng: &mut R,
    sink: &mut S,
) -> Result<Outcome, Error> {
    let c_init = parse_init(init_payload)?;
    let mut s_reply = [0u8; hybrid_max::S_REPLY];
    let mut reply_sink = SliceSink::new(&mut s_reply);
    let k = hybrid::server_reply(kex, c_init, rng, &mut reply_sink)?;
    let s_len = reply_sink.len();
    let k_s = host_key.public_blob();
    let t = Transcript {
        v_c: hello.v_c,
        v_s: hello.v_s,
        i_c: hello.i_c,
        i_s: hello.i_s,
        k_s: &k_s,
        c_init,
        s_reply: &s_reply[..s_len],
    };
    let h = exchange_hash(kex, &t, &k);
    let signature = host_key.sign(&h);
    sink.put_byte(msg::KEX_ECDH_REPLY)?;
    sink.put_string(&k_s)?;
    sink.put_string(&s_reply[..s_len])?;
    sink.put_string(&signature)?;
    let keys = session_keys(kex, &k, &h, h.as_bytes());
    let host_key = hostkey::parse_public_blob(&k_s)?;
    Ok(Outcome {
        exchange_hash: h,
        keys,
        host_key,
    })
}

/// Checks an SSH_MSG_NEWKEYS payload (RFC 4253 §7.3: the byte alone).
///
/// # Errors
/// [`Error::UnexpectedMessage`], [`Error::Disconnected`], or
/// [`Error::Field`] for trailing bytes.
pub fn parse_newkeys(payload: &[u8]) -> Result<(), Error> {
    msg::expect(payload, msg::NEWKEYS)?.finish()
}

/// The largest `C_INIT` / `S_REPLY` of the methods (stack buffers).
mod hybrid_max {
    use super::{Kex, hybrid};
    pub(super) const C_INIT: usize = hybrid::client_init_len(Kex::MlKem768X25519Sha256);
    pub(super) const S_REPLY: usize = hybrid::server_reply_len(Kex::MlKem768X25519Sha256);
    const _: () = assert!(
        C_INIT >= hybrid::client_init_len(Kex::Sntrup761X25519Sha512)
            && S_REPLY >= hybrid::server_reply_len(Kex::Sntrup761X25519Sha512)
    );
}

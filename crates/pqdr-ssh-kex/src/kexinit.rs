//! SSH_MSG_KEXINIT and algorithm negotiation (RFC 4253 §7.1).
//!
//! ```text
//! byte         SSH_MSG_KEXINIT (20)
//! byte[16]     cookie (random bytes)
//! name-list    kex_algorithms
//! name-list    server_host_key_algorithms
//! name-list    encryption_algorithms_client_to_server
//! name-list    encryption_algorithms_server_to_client
//! name-list    mac_algorithms_client_to_server
//! name-list    mac_algorithms_server_to_client
//! name-list    compression_algorithms_client_to_server
//! name-list    compression_algorithms_server_to_client
//! name-list    languages_client_to_server
//! name-list    languages_server_to_client
//! boolean      first_kex_packet_follows
//! uint32       0 (reserved for future extension)
//! ```

use crate::error::{Category, Error, Field};
use crate::msg;
use crate::wire::{Reader, Sink};

/// A key exchange method this crate implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kex {
    /// `sntrup761x25519-sha512` (RFC 9941): sntrup761 and X25519, SHA-512.
    Sntrup761X25519Sha512,
    /// `sntrup761x25519-sha512@openssh.com`: OpenSSH's name (8.5 and
    /// later, the default since 9.0) of the same method.
    Sntrup761X25519Sha512OpenSsh,
    /// `mlkem768x25519-sha256` (draft-ietf-sshm-mlkem-hybrid-kex): ML-KEM-768
    /// and X25519, SHA-256.
    MlKem768X25519Sha256,
}

impl Kex {
    /// Every method, in our order of preference.
    pub const ALL: [Self; 3] = [
        Self::MlKem768X25519Sha256,
        Self::Sntrup761X25519Sha512,
        Self::Sntrup761X25519Sha512OpenSsh,
    ];

    /// The method's name in a KEXINIT `kex_algorithms` list.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Sntrup761X25519Sha512 => "sntrup761x25519-sha512",
            Self::Sntrup761X25519Sha512OpenSsh => "sntrup761x25519-sha512@openssh.com",
            Self::MlKem768X25519Sha256 => "mlkem768x25519-sha256",
        }
    }

    /// The method with this name, if we implement it.
    #[must_use]
    pub fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name().as_bytes() == name)
    }

    /// The length of the exchange hash and of each key-derivation block:
    /// 64 (SHA-512) or 32 (SHA-256).
    #[must_use]
    pub const fn hash_len(self) -> usize {
        match self {
            Self::Sntrup761X25519Sha512 | Self::Sntrup761X25519Sha512OpenSsh => 64,
            Self::MlKem768X25519Sha256 => 32,
        }
    }
}

/// The only host key algorithm: `ssh-ed25519` (RFC 8709).
pub const HOST_KEY_ALGORITHM: &str = "ssh-ed25519";
/// The only cipher: `chacha20-poly1305@openssh.com` (OpenSSH PROTOCOL.chacha20poly1305).
pub const CIPHER: &str = "chacha20-poly1305@openssh.com";
/// The MAC list we send; an AEAD cipher negotiates no MAC, as OpenSSH and
/// Go do, but a non-empty list keeps strict peers content.
pub const MAC: &str = "hmac-sha2-256";
/// The only compression: `none` (RFC 4253 §6.2).
pub const COMPRESSION: &str = "none";
/// The client's strict key exchange marker (OpenSSH PROTOCOL "strict key exchange extension", the
/// Terrapin countermeasure), sent in `kex_algorithms` of the first KEXINIT.
pub const STRICT_KEX_CLIENT: &str = "kex-strict-c-v00@openssh.com";
/// The server's strict key exchange marker.
pub const STRICT_KEX_SERVER: &str = "kex-strict-s-v00@openssh.com";

/// Which side writes a KEXINIT: it names its strict-kex marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The client (`kex-strict-c-v00@openssh.com`).
    Client,
    /// The server (`kex-strict-s-v00@openssh.com`).
    Server,
}

/// A parsed SSH_MSG_KEXINIT payload, borrowing its name-lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KexInit<'a> {
    /// The 16 random cookie bytes.
    pub cookie: [u8; 16],
    /// The ten name-lists in wire order (`kex_algorithms` … `languages_server_to_client`).
    pub lists: [&'a [u8]; 10],
    /// `first_kex_packet_follows`.
    pub first_kex_packet_follows: bool,
}

impl<'a> KexInit<'a> {
    /// Parses a KEXINIT payload (message number included).
    ///
    /// # Errors
    /// [`Error::UnexpectedMessage`] for another message number,
    /// [`Error::Field`] for a truncated or malformed field or trailing bytes.
    pub fn parse(payload: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(payload);
        let n = r.byte()?;
        if n != msg::KEXINIT {
            return Err(Error::UnexpectedMessage {
                expected: msg::KEXINIT,
                actual: n,
            });
        }
        let mut cookie = [0u8; 16];
        cookie.copy_from_slice(r.bytes(16, Field::Cookie)?);
        let mut lists: [&[u8]; 10] = [&[]; 10];
        for l in &mut lists {
            *l = r.name_list()?;
        }
        let first_kex_packet_follows = r.boolean()?;
        let _reserved = r.uint32()?;
        r.finish()?;
        Ok(Self {
            cookie,
            lists,
            first_kex_packet_follows,
        })
    }
}

/// Writes our KEXINIT payload offering `kex` (in that order of preference,
/// at most [`Kex::ALL`]`.len()` of them), the `role`'s strict-kex marker,
/// `ssh-ed25519`, `chacha20-poly1305@openssh.com` and no compression.
///
/// # Errors
/// [`Error::BufferTooSmall`] from the sink.
pub fn write_kexinit<S: Sink + ?Sized>(
    sink: &mut S,
    cookie: &[u8; 16],
    kex: &[Kex],
    role: Role,
) -> Result<(), Error> {
    sink.put_byte(msg::KEXINIT)?;
    sink.put(cookie)?;
    let mut names = [""; Kex::ALL.len() + 1];
    let n = kex.len().min(Kex::ALL.len());
    for (dst, k) in names.iter_mut().zip(&kex[..n]) {
        *dst = k.name();
    }
    names[n] = match role {
        Role::Client => STRICT_KEX_CLIENT,
        Role::Server => STRICT_KEX_SERVER,
    };
    sink.put_name_list(&names[..=n])?;
    sink.put_name_list(&[HOST_KEY_ALGORITHM])?;
    sink.put_name_list(&[CIPHER])?;
    sink.put_name_list(&[CIPHER])?;
    sink.put_name_list(&[MAC])?;
    sink.put_name_list(&[MAC])?;
    sink.put_name_list(&[COMPRESSION])?;
    sink.put_name_list(&[COMPRESSION])?;
    sink.put_name_list(&[])?;
    sink.put_name_list(&[])?;
    sink.put_byte(0)?;
    sink.put_u32(0)
}

/// The first name on the client's list that is also on the server's
/// (RFC 4253 §7.1).
fn first_common<'a>(client: &'a [u8], server: &[u8]) -> Option<&'a [u8]> {
    let names = |l: &'a [u8]| l.split(|&b| b == b',').filter(|n| !n.is_empty());
    names(client).find(|c| server.split(|&b| b == b',').any(|s| s == *c))
}

/// The first name of a list.
fn first_name(list: &[u8]) -> Option<&[u8]> {
    list.split(|&b| b == b',').next()
}

/// The outcome of the negotiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// The key exchange method.
    pub kex: Kex,
    /// Whether the peer's guessed first KEX packet must be ignored (RFC 4253
    /// §7.1: `first_kex_packet_follows` set and its guess of the method or
    /// host key algorithm wrong).
    pub ignore_guessed_packet: bool,
    /// Strict key exchange (OpenSSH PROTOCOL, "strict key exchange extension"): the client listed
    /// `kex-strict-c-v00@openssh.com` and the server
    /// `kex-strict-s-v00@openssh.com`. Then each side resets its sequence
    /// number to 0 after NEWKEYS ([`Sealer::reset_sequence_number`]) and
    /// refuses any message but the key exchange's until NEWKEYS (IGNORE and
    /// DEBUG included), and KEXINIT must have been the first packet.
    ///
    /// [`Sealer::reset_sequence_number`]: crate::packet::Sealer::reset_sequence_number
    pub strict: bool,
}

/// Negotiates between the client's and the server's KEXINIT (RFC 4253
/// §7.1): in each category the first of the client's algorithms the server
/// also lists. Only what this crate implements can be chosen: the method
/// among [`Kex::ALL`], `ssh-ed25519`, `chacha20-poly1305@openssh.com`
/// both ways (an AEAD cipher: no MAC is negotiated) and `none` compression.
///
/// # Errors
/// [`Error::NoCommonAlgorithm`] naming the first category without a
/// common algorithm we implement.
pub fn negotiate(client: &KexInit<'_>, server: &KexInit<'_>) -> Result<Negotiated, Error> {
    let kex_name = first_common(client.lists[0], server.lists[0])
        .ok_or(Error::NoCommonAlgorithm(Category::Kex))?;
    let kex = Kex::from_name(kex_name).ok_or(Error::NoCommonAlgorithm(Category::Kex))?;
    let host = first_common(client.lists[1], server.lists[1])
        .ok_or(Error::NoCommonAlgorithm(Category::HostKey))?;
    if host != HOST_KEY_ALGORITHM.as_bytes() {
        return Err(Error::NoCommonAlgorithm(Category::HostKey));
    }
    for i in [2, 3] {
        if first_common(client.lists[i], server.lists[i]) != Some(CIPHER.as_bytes()) {
            return Err(Error::NoCommonAlgorithm(Category::Cipher));
        }
    }
    for i in [6, 7] {
        if first_common(client.lists[i], server.lists[i]) != Some(COMPRESSION.as_bytes()) {
            return Err(Error::NoCommonAlgorithm(Category::Compression));
        }
    }
    // §7.1: the guess is right only if the first kex and host key names of
    // both lists are the negotiated ones.
    let guess_ok = [client, server]
        .iter()
        .all(|k| first_name(k.lists[0]) == Some(kex_name) && first_name(k.lists[1]) == Some(host));
    let follows = client.first_kex_packet_follows || server.first_kex_packet_follows;
    let lists = |l: &[u8], name: &str| l.split(|&b| b == b',').any(|n| n == name.as_bytes());
    let strict =
        lists(client.lists[0], STRICT_KEX_CLIENT) && lists(server.lists[0], STRICT_KEX_SERVER);
    Ok(Negotiated {
        kex,
        ignore_guessed_packet: follows && !guess_ok,
        strict,
    })
}

//! The algorithm identifiers (RFC 9180 §7, draft-ietf-hpke-pq §3 and §4)
//! and their sizes.

use crate::error::Error;

/// The largest `Nenc` of the supported KEMs (MLKEM1024-P384: 1568 + 97).
pub const MAX_ENC_SIZE: usize = 1665;
/// The largest `Npk` of the supported KEMs (MLKEM1024-P384: 1568 + 97).
pub const MAX_PUBLIC_KEY_SIZE: usize = 1665;
/// The largest `Nsk` of the supported KEMs (ML-KEM: the 64-byte seed `d ‖ z`).
pub const MAX_PRIVATE_KEY_SIZE: usize = 64;
/// The AEAD tag size `Nt` of every supported AEAD.
pub const TAG_SIZE: usize = 16;

/// A KEM (RFC 9180 §7.1 and the draft-ietf-hpke-pq registrations).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kem {
    /// DHKEM(X25519, HKDF-SHA256), `0x0020` (RFC 9180 §7.1).
    DhKemX25519,
    /// ML-KEM-768, `0x0041` (draft-ietf-hpke-pq §3).
    MlKem768,
    /// ML-KEM-1024, `0x0042` (draft-ietf-hpke-pq §3).
    MlKem1024,
    /// MLKEM768-X25519 (X-Wing), `0x647A` (draft-ietf-hpke-pq §4).
    XWing,
    /// MLKEM768-P256, `0x0050` (draft-ietf-hpke-pq §4).
    MlKem768P256,
    /// MLKEM1024-P384, `0x0051` (draft-ietf-hpke-pq §4).
    MlKem1024P384,
}

impl Kem {
    /// Every supported KEM.
    pub const ALL: [Self; 6] = [
        Self::DhKemX25519,
        Self::MlKem768,
        Self::MlKem1024,
        Self::XWing,
        Self::MlKem768P256,
        Self::MlKem1024P384,
    ];

    /// The KEM with the registry identifier `id`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an identifier this crate does not implement.
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        Ok(match id {
            0x0020 => Self::DhKemX25519,
            0x0041 => Self::MlKem768,
            0x0042 => Self::MlKem1024,
            0x647A => Self::XWing,
            0x0050 => Self::MlKem768P256,
            0x0051 => Self::MlKem1024P384,
            _ => {
                return Err(Error::Unsupported {
                    registry: "KEM",
                    id,
                });
            }
        })
    }

    /// The registry identifier.
    #[must_use]
    pub const fn id(self) -> u16 {
        match self {
            Self::DhKemX25519 => 0x0020,
            Self::MlKem768 => 0x0041,
            Self::MlKem1024 => 0x0042,
            Self::XWing => 0x647A,
            Self::MlKem768P256 => 0x0050,
            Self::MlKem1024P384 => 0x0051,
        }
    }

    /// `Nenc`: the size of the encapsulated key.
    #[must_use]
    pub const fn enc_size(self) -> usize {
        match self {
            Self::DhKemX25519 => 32,
            Self::MlKem768 => 1088,
            Self::MlKem1024 => 1568,
            Self::XWing => 1088 + 32,
            Self::MlKem768P256 => 1088 + 65,
            Self::MlKem1024P384 => 1568 + 97,
        }
    }

    /// `Npk`: the size of a serialized public key.
    #[must_use]
    pub const fn public_key_size(self) -> usize {
        match self {
            Self::DhKemX25519 => 32,
            Self::MlKem768 => 1184,
            Self::MlKem1024 => 1568,
            Self::XWing => 1184 + 32,
            Self::MlKem768P256 => 1184 + 65,
            Self::MlKem1024P384 => 1568 + 97,
        }
    }

    /// `Nsk`: the size of a serialized private key (a seed for every KEM
    /// but DHKEM).
    #[must_use]
    pub const fn private_key_size(self) -> usize {
        match self {
            Self::MlKem768 | Self::MlKem1024 => 64,
            _ => 32,
        }
    }

    /// The size of the randomness a derandomized encapsulation takes
    /// ([`crate::Sender::new_deterministic`]): DHKEM's `ikmE` for
    /// `DeriveKeyPair` (any length, 32 here), ML-KEM's `m`, the hybrids'
    /// `m ‖ ` ephemeral curve scalar.
    #[must_use]
    pub const fn encap_randomness_size(self) -> usize {
        match self {
            Self::DhKemX25519 | Self::MlKem768 | Self::MlKem1024 => 32,
            Self::XWing | Self::MlKem768P256 => 64,
            Self::MlKem1024P384 => 32 + 48,
        }
    }
}

/// A KDF (RFC 9180 §7.2; the one-stage SHAKE KDFs of draft-ietf-hpke-pq,
/// which cites draft-ietf-hpke-hpke for them).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kdf {
    /// HKDF-SHA256, `0x0001`.
    HkdfSha256,
    /// HKDF-SHA384, `0x0002`.
    HkdfSha384,
    /// HKDF-SHA512, `0x0003`.
    HkdfSha512,
    /// SHAKE128 (one-stage), `0x0010`.
    Shake128,
    /// SHAKE256 (one-stage), `0x0011`.
    Shake256,
}

impl Kdf {
    /// Every supported KDF.
    pub const ALL: [Self; 5] = [
        Self::HkdfSha256,
        Self::HkdfSha384,
        Self::HkdfSha512,
        Self::Shake128,
        Self::Shake256,
    ];

    /// The KDF with the registry identifier `id`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an identifier this crate does not implement
    /// (TurboSHAKE `0x0012`, `0x0013`).
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        Ok(match id {
            0x0001 => Self::HkdfSha256,
            0x0002 => Self::HkdfSha384,
            0x0003 => Self::HkdfSha512,
            0x0010 => Self::Shake128,
            0x0011 => Self::Shake256,
            _ => {
                return Err(Error::Unsupported {
                    registry: "KDF",
                    id,
                });
            }
        })
    }

    /// The registry identifier.
    #[must_use]
    pub const fn id(self) -> u16 {
        match self {
            Self::HkdfSha256 => 0x0001,
            Self::HkdfSha384 => 0x0002,
            Self::HkdfSha512 => 0x0003,
            Self::Shake128 => 0x0010,
            Self::Shake256 => 0x0011,
        }
    }

    /// `Nh`: the size of the exporter secret (and of an HKDF PRK).
    #[must_use]
    pub const fn nh(self) -> usize {
        match self {
            Self::HkdfSha256 | Self::Shake128 => 32,
            Self::HkdfSha384 => 48,
            Self::HkdfSha512 | Self::Shake256 => 64,
        }
    }

    /// Whether the KDF is one-stage (`LabeledDerive`) rather than
    /// extract-then-expand.
    #[must_use]
    pub const fn is_one_stage(self) -> bool {
        matches!(self, Self::Shake128 | Self::Shake256)
    }

    /// The largest exporter output `L` (RFC 9180 §5.3: `255 * Nh` for HKDF;
    /// the two-byte length prefix for the one-stage KDFs).
    #[must_use]
    pub const fn max_export_size(self) -> usize {
        if self.is_one_stage() {
            0xFFFF
        } else {
            255 * self.nh()
        }
    }
}

/// An AEAD (RFC 9180 §7.3).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aead {
    /// AES-128-GCM, `0x0001`.
    Aes128Gcm,
    /// AES-256-GCM, `0x0002`.
    Aes256Gcm,
    /// ChaCha20Poly1305, `0x0003`.
    ChaCha20Poly1305,
    /// Export-only, `0xFFFF`: no `Seal` / `Open` (RFC 9180 §5.3).
    ExportOnly,
}

impl Aead {
    /// Every supported AEAD.
    pub const ALL: [Self; 4] = [
        Self::Aes128Gcm,
        Self::Aes256Gcm,
        Self::ChaCha20Poly1305,
        Self::ExportOnly,
    ];

    /// The AEAD with the registry identifier `id`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an identifier this crate does not implement.
    pub const fn from_id(id: u16) -> Result<Self, Error> {
        Ok(match id {
            0x0001 => Self::Aes128Gcm,
            0x0002 => Self::Aes256Gcm,
            0x0003 => Self::ChaCha20Poly1305,
            0xFFFF => Self::ExportOnly,
            _ => {
                return Err(Error::Unsupported {
                    registry: "AEAD",
                    id,
                });
            }
        })
    }

    /// The registry identifier.
    #[must_use]
    pub const fn id(self) -> u16 {
        match self {
            Self::Aes128Gcm => 0x0001,
            Self::Aes256Gcm => 0x0002,
            Self::ChaCha20Poly1305 => 0x0003,
            Self::ExportOnly => 0xFFFF,
        }
    }

    /// `Nk`: the key size (0 for export-only).
    #[must_use]
    pub const fn key_size(self) -> usize {
        match self {
            Self::Aes128Gcm => 16,
            Self::Aes256Gcm | Self::ChaCha20Poly1305 => 32,
            Self::ExportOnly => 0,
        }
    }

    /// `Nn`: the nonce size (0 for export-only).
    #[must_use]
    pub const fn nonce_size(self) -> usize {
        match self {
            Self::ExportOnly => 0,
            _ => 12,
        }
    }
}

/// A cipher suite: one KEM, one KDF, one AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Suite {
    /// The KEM.
    pub kem: Kem,
    /// The KDF of the key schedule (the KEM has its own).
    pub kdf: Kdf,
    /// The AEAD.
    pub aead: Aead,
}

impl Suite {
    /// The suite of the three identifiers.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if one of them is not implemented.
    pub const fn from_ids(kem: u16, kdf: u16, aead: u16) -> Result<Self, Error> {
        let kem = match Kem::from_id(kem) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let kdf = match Kdf::from_id(kdf) {
            Ok(k) => k,
            Err(e) => return Err(e),
        };
        let aead = match Aead::from_id(aead) {
            Ok(a) => a,
            Err(e) => return Err(e),
        };
        Ok(Self { kem, kdf, aead })
    }

    /// `suite_id = "HPKE" ‖ I2OSP(kem_id, 2) ‖ I2OSP(kdf_id, 2) ‖ I2OSP(aead_id, 2)`
    /// (RFC 9180 §5.1).
    #[must_use]
    pub const fn suite_id(&self) -> [u8; 10] {
        let k = self.kem.id().to_be_bytes();
        let d = self.kdf.id().to_be_bytes();
        let a = self.aead.id().to_be_bytes();
        [b'H', b'P', b'K', b'E', k[0], k[1], d[0], d[1], a[0], a[1]]
    }
}

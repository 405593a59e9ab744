//! Pre-hashing (FIPS 204 §5.4): the hash functions HashML-DSA accepts, with
//! their DER-encoded object identifiers (the OID in M′ of Algorithms 4 and 5).

use sha2::Digest;
use shake::{ExtendableOutput, Update, XofReader};

/// A hash function for HashML-DSA (FIPS 204 §5.4): PH(M) is signed together
/// with the function's OID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PreHash {
    /// SHA-224 (FIPS 180-4).
    Sha2_224,
    /// SHA-256.
    Sha2_256,
    /// SHA-384.
    Sha2_384,
    /// SHA-512.
    Sha2_512,
    /// SHA-512/224.
    Sha2_512_224,
    /// SHA-512/256.
    Sha2_512_256,
    /// SHA3-224 (FIPS 202).
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with 256 bits of output.
    Shake128,
    /// SHAKE256 with 512 bits of output.
    Shake256,
}

impl PreHash {
    /// Every supported pre-hash function.
    pub const ALL: [Self; 12] = [
        Self::Sha2_224,
        Self::Sha2_256,
        Self::Sha2_384,
        Self::Sha2_512,
        Self::Sha2_512_224,
        Self::Sha2_512_256,
        Self::Sha3_224,
        Self::Sha3_256,
        Self::Sha3_384,
        Self::Sha3_512,
        Self::Shake128,
        Self::Shake256,
    ];

    /// Length in bytes of PH(M).
    pub const fn digest_size(self) -> usize {
        match self {
            Self::Sha2_224 | Self::Sha2_512_224 | Self::Sha3_224 => 28,
            Self::Sha2_256 | Self::Sha2_512_256 | Self::Sha3_256 | Self::Shake128 => 32,
            Self::Sha2_384 | Self::Sha3_384 => 48,
            Self::Sha2_512 | Self::Sha3_512 | Self::Shake256 => 64,
        }
    }

    /// The DER encoding of the function's OID (NIST arc 2.16.840.1.101.3.4.2.x).
    pub const fn oid(self) -> [u8; 11] {
        let last = match self {
            Self::Sha2_256 => 0x01,
            Self::Sha2_384 => 0x02,
            Self::Sha2_512 => 0x03,
            Self::Sha2_224 => 0x04,
            Self::Sha2_512_224 => 0x05,
            Self::Sha2_512_256 => 0x06,
            Self::Sha3_224 => 0x07,
            Self::Sha3_256 => 0x08,
            Self::Sha3_384 => 0x09,
            Self::Sha3_512 => 0x0a,
            Self::Shake128 => 0x0b,
            Self::Shake256 => 0x0c,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
        ]
    }

    /// Computes PH(msg) into `out` and returns the digest (the first
    /// [`digest_size`](Self::digest_size) bytes of `out`).
    pub fn digest<'a>(self, msg: &[u8], out: &'a mut [u8; 64]) -> &'a [u8] {
        fn fixed<D: Digest>(msg: &[u8], out: &mut [u8]) {
            out.copy_from_slice(&D::digest(msg));
        }
        let n = self.digest_size();
        let o = &mut out[..n];
        match self {
            Self::Sha2_224 => fixed::<sha2::Sha224>(msg, o),
            Self::Sha2_256 => fixed::<sha2::Sha256>(msg, o),
            Self::Sha2_384 => fixed::<sha2::Sha384>(msg, o),
            Self::Sha2_512 => fixed::<sha2::Sha512>(msg, o),
            Self::Sha2_512_224 => fixed::<sha2::Sha512_224>(msg, o),
            Self::Sha2_512_256 => fixed::<sha2::Sha512_256>(msg, o),
            Self::Sha3_224 => fixed::<sha3::Sha3_224>(msg, o),
            Self::Sha3_256 => fixed::<sha3::Sha3_256>(msg, o),
            Self::Sha3_384 => fixed::<sha3::Sha3_384>(msg, o),
            Self::Sha3_512 => fixed::<sha3::Sha3_512>(msg, o),
            Self::Shake128 => {
                let mut x = shake::Shake128::default();
                x.update(msg);
                x.finalize_xof().read(o);
            }
            Self::Shake256 => {
                let mut x = shake::Shake256::default();
                x.update(msg);
                x.finalize_xof().read(o);
            }
        }
        &out[..n]
    }
}

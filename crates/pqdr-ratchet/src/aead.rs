//! ChaCha20-Poly1305 opening (RFC 8439 §2.8), composed here from the
//! `chacha20` and `poly1305` crates so that the only value that leaves the
//! constant-time domain is the verdict "authentic?".
//!
//! `chacha20poly1305`'s own `decrypt` branches on the tag comparison inside
//! the crate, where no declassification point can be placed: the valgrind
//! check then had to run `open` with the one-time message key declassified.
//! With this split, the key stays secret through the Poly1305 key
//! derivation, the MAC and the keystream; the verdict is declassified (it is
//! the function's public result), and so is the plaintext of an authentic
//! record (the message handed to the application, whose framing the ratchet
//! parses). Sealing still uses `chacha20poly1305`, which has no such branch;
//! `tests` checks both directions against it.

use chacha20::ChaCha20;
use chacha20::cipher::{KeyIvInit, StreamCipher};
use poly1305::Poly1305;
use poly1305::universal_hash::{KeyInit, UniversalHash};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::wire::TAG_LEN;

/// Authenticates `ad` and `input` under `key`/`nonce` against `tag`; if
/// authentic, writes the plaintext to `out` (same length as `input`) and
/// returns true. On a forgery `out` is left untouched and false is returned.
/// AEAD_CHACHA20_POLY1305 decryption (RFC 8439 §2.8).
pub(crate) fn open(
    key: &[u8; 32],
    nonce: &[u8; 12],
    ad: &[u8],
    input: &[u8],
    out: &mut [u8],
    tag: &[u8; TAG_LEN],
) -> bool {
    let mut cipher = ChaCha20::new(key.into(), nonce.into());
    // Block 0 of the keystream: its first 32 bytes are the Poly1305 key
    // (RFC 8439 §2.6); encryption continues at block 1.
    let mut block0 = [0u8; 64];
    cipher.apply_keystream(&mut block0);
    let mut otk = poly1305::Key::default();
    otk.copy_from_slice(&block0[..32]);
    block0.zeroize();
    let mut mac = Poly1305::new(&otk);
    otk.zeroize();
    // mac_data = AD ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(AD) ‖ len(C) (§2.8).
    mac.update_padded(ad);
    mac.update_padded(input);
    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(ad.len() as u64).to_le_bytes());
    lengths[8..].copy_from_slice(&(input.len() as u64).to_le_bytes());
    mac.update_padded(&lengths);
    let mut expected = mac.finalize();
    let mut verdict = [expected.as_slice().ct_eq(tag).unwrap_u8()];
    expected.zeroize();
    // Public by design: whether the record is authentic.
    pqdr_ctgrind::hook::declassify(&mut verdict);
    if verdict[0] != 1 {
        return false;
    }
    out.copy_from_slice(input);
    cipher.apply_keystream(out);
    // The plaintext of an authentic record goes to the application.
    pqdr_ctgrind::hook::declassify(out);
    true
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::indexing_slicing,
    reason = "tests"
)]
mod tests {
    use super::*;
    use chacha20poly1305::aead::AeadInOut;
    use chacha20poly1305::{ChaCha20Poly1305, Nonce};

    fn unhex<const N: usize>(s: &str) -> [u8; N] {
        let b = s.as_bytes();
        assert_eq!(b.len(), 2 * N);
        let nib = |c: u8| (c as char).to_digit(16).unwrap() as u8;
        core::array::from_fn(|i| (nib(b[2 * i]) << 4) | nib(b[2 * i + 1]))
    }

    /// RFC 8439 §2.8.2's test vector, opened here.
    #[test]
    fn rfc8439_vector() {
        let key: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
        let nonce = [
            0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
        ];
        let ad = [
            0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
        ];
        let pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let ct_hex = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116";
        let tag_hex = "1ae10b594f09e26a7e902ecbd0600691";
        let ct: [u8; 114] = unhex(ct_hex);
        let tag: [u8; 16] = unhex(tag_hex);
        let mut out = [0u8; 114];
        assert!(open(&key, &nonce, &ad, &ct, &mut out, &tag));
        assert_eq!(&out[..], &pt[..]);
        let mut bad = tag;
        bad[15] ^= 1;
        let mut out2 = [0xAAu8; 114];
        assert!(!open(&key, &nonce, &ad, &ct, &mut out2, &bad));
        assert_eq!(out2, [0xAAu8; 114], "a forgery leaves out untouched");
    }

    /// Differential: records sealed by `chacha20poly1305` open here for every
    /// length 0..=300 and AD length 0..=31, and any single bit flip in AD,
    /// ciphertext or tag is rejected.
    #[test]
    fn agrees_with_chacha20poly1305() {
        let mut s = 0x9E37_79B9_u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s as u8
        };
        for len in 0..=300usize {
            let key: [u8; 32] = core::array::from_fn(|_| next());
            let nonce: [u8; 12] = core::array::from_fn(|_| next());
            let ad_len = len & 31;
            let ad: [u8; 40] = core::array::from_fn(|_| next());
            let ad = &ad[..ad_len];
            let mut buf = [0u8; 300];
            let pt: [u8; 300] = core::array::from_fn(|_| next());
            buf[..len].copy_from_slice(&pt[..len]);
            let cipher = ChaCha20Poly1305::new((&key).into());
            let tag = cipher
                .encrypt_inout_detached(&Nonce::from(nonce), ad, (&mut buf[..len]).into())
                .unwrap();
            let tag: [u8; 16] = tag.into();
            let mut out = [0u8; 300];
            assert!(
                open(&key, &nonce, ad, &buf[..len], &mut out[..len], &tag),
                "len {len}"
            );
            assert_eq!(out[..len], pt[..len]);
            // Flip one bit of the tag, of the ciphertext, of the AD.
            let mut t2 = tag;
            t2[len & 15] ^= 1 << (len & 7);
            assert!(!open(&key, &nonce, ad, &buf[..len], &mut out[..len], &t2));
            if len > 0 {
                let mut c2 = buf;
                c2[len >> 1] ^= 0x80;
                assert!(!open(&key, &nonce, ad, &c2[..len], &mut out[..len], &tag));
            }
            if ad_len > 0 {
                let mut a2 = [0u8; 40];
                a2[..ad_len].copy_from_slice(ad);
                a2[0] ^= 4;
                assert!(!open(
                    &key,
                    &nonce,
                    &a2[..ad_len],
                    &buf[..len],
                    &mut out[..len],
                    &tag
                ));
            }
        }
    }
}

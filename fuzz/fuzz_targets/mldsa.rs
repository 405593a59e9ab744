//! ML-DSA (pqdr-mldsa, FIPS 204) on fuzzer input, every parameter set, and
//! differentially against RustCrypto `ml-dsa` and `libcrux-ml-dsa`. The
//! first byte picks the set (`byte % 3`: 44, 65, 87) and the operation
//! (`byte / 3 % 5`); reads past the end of the input give zeros, so every
//! operation reaches its exact-length paths. Signing is pure ML-DSA,
//! deterministic (rnd = 0). Patch positions are drawn near the boundaries
//! of the encoded parts most of the time (`pick_pos`). Checks:
//!
//! 0. `VerifyingKey::from_slice` (pkDecode, Algorithm 23): a wrong length is
//!    `Error::Length { expected, actual }`; every exact-length string is
//!    accepted, re-encodes to itself (also through `from_bytes`), and
//!    `ml-dsa`'s decode/encode gives the same bytes.
//! 1. `SigningKey::from_slice` (skDecode, Algorithm 25, with the range and
//!    consistency checks): a wrong length is `Error::Length`; raw exact bytes
//!    are `InvalidKey` or re-encode; a fixed key with a fuzz xor patch is
//!    accepted exactly when the patch touches only K (bytes 32..64, the one
//!    part the key's other parts do not determine), and an accepted key
//!    re-encodes, has the fixed verifying key, and signs a fuzz message to
//!    the same signature in ours (plain and expanded), `ml-dsa` (expanded key
//!    decoding) and libcrux, a signature the fixed key verifies.
//! 2. `Signature::from_slice` / `from_bytes` / `try_from`: a wrong length is
//!    `Error::Length`, the exact length is accepted and re-encodes; when
//!    `ml-dsa`'s sigDecode (Algorithm 27) accepts, it re-encodes to the same
//!    bytes.
//! 3. Verification under a fixed key per set of arbitrary signature bytes
//!    (hint decoding, Algorithm 21; the ‖z‖∞ bound) or of an honest signature
//!    of a fuzz message and context with a fuzz xor patch, a changed message
//!    or a changed context, and of contexts over 255 bytes: no panic; ours
//!    (plain, expanded, streaming) and both peers give the same accept/reject;
//!    the unchanged honest signature verifies, any change is rejected, an
//!    over-long context is `Error::ContextTooLong`.
//! 4. Key generation from a fuzz ξ: identical verifying and signing key bytes
//!    in all three, `seed()` = ξ, the signing key decodes back; deterministic
//!    signing of a fuzz message under a fuzz context (≤ 255 bytes): the same
//!    signature from ours (plain, expanded, streaming, `sign_with_rnd(0)`),
//!    `ml-dsa` and libcrux; it verifies in all three; a fuzz-patched copy gets
//!    the same accept/reject in all three, and a changed one is rejected.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pqdr_mldsa::Error;

/// The fuzz input, read front to back; reads past the end give zeros.
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let mut b = [0u8; 1];
        self.fill(&mut b);
        b[0]
    }

    fn u16(&mut self) -> u16 {
        let mut b = [0u8; 2];
        self.fill(&mut b);
        u16::from_le_bytes(b)
    }

    /// Copies the next bytes into `out`, zero-padded when the input ends.
    fn fill(&mut self, out: &mut [u8]) {
        let n = out.len().min(self.0.len());
        out[..n].copy_from_slice(&self.0[..n]);
        out[n..].fill(0);
        self.0 = &self.0[n..];
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }

    /// The next `n` bytes (fewer if the input ends).
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }

    fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// XORs `patch` into `bytes` from position `pos`, wrapping at the end.
fn xor_patch(bytes: &mut [u8], pos: usize, patch: &[u8]) {
    let n = bytes.len();
    for (j, p) in patch.iter().enumerate().take(n) {
        bytes[(pos + j) % n] ^= p;
    }
}

/// A patch position in a string of `len` bytes: for selector bytes below
/// 0x80, within ±128 bytes of one of the layout boundaries `bounds` (so the
/// edges of each encoded part are hit often), else anywhere.
fn pick_pos(inp: &mut Input<'_>, bounds: &[usize], len: usize) -> usize {
    let r = inp.byte();
    if r < 0x80 {
        let base = bounds[usize::from(r) % bounds.len()] as isize;
        let off = isize::from(inp.byte() as i8);
        (base + off).rem_euclid(len as isize) as usize
    } else {
        usize::from(inp.u16()) % len
    }
}

/// The bytes of K in skEncode (FIPS 204 Algorithm 24: ρ ‖ K ‖ tr ‖ …).
const K_RANGE: core::ops::Range<usize> = 32..64;

macro_rules! dsa_set {
    ($m:ident, $ours:ident, $rc:ident, $lx:ident) => {
        mod $m {
            use super::*;
            use libcrux_ml_dsa::$lx as lx;
            use pqdr_mldsa::ParameterSet as _;
            use pqdr_mldsa::$ours as o;

            type Rc = ml_dsa::$rc;
            const VK: usize = o::VERIFYING_KEY_SIZE;
            const SK: usize = o::SIGNING_KEY_SIZE;
            const SIG: usize = o::SIGNATURE_SIZE;
            type LxVk = libcrux_ml_dsa::MLDSAVerificationKey<VK>;
            type LxSk = libcrux_ml_dsa::MLDSASigningKey<SK>;
            type LxSig = libcrux_ml_dsa::MLDSASignature<SIG>;
            type P = o::Set;

            /// skEncode parts (Algorithm 24): ρ, K, tr, s1, s2, t0.
            const SK_BOUNDS: [usize; 7] = [
                0,
                32,
                64,
                128,
                128 + P::L * P::S_POLY_SIZE,
                128 + (P::K + P::L) * P::S_POLY_SIZE,
                SK,
            ];
            /// sigEncode parts (Algorithm 26): c̃, z, the ω hint indices,
            /// the k per-polynomial counts.
            const SIG_BOUNDS: [usize; 5] = [
                0,
                P::C_TILDE_SIZE,
                P::C_TILDE_SIZE + P::L * P::Z_POLY_SIZE,
                SIG - P::K,
                SIG,
            ];

            /// One key pair in the three implementations.
            struct Keys {
                sk: o::SigningKey,
                esk: o::ExpandedSigningKey,
                evk: o::ExpandedVerifyingKey,
                rc_sk: ml_dsa::ExpandedSigningKey<Rc>,
                rc_vk: ml_dsa::VerifyingKey<Rc>,
                lx_sk: LxSk,
                lx_vk: LxVk,
            }

            /// The fixed key of operations 1 and 3 (built once per process).
            fn fixed() -> &'static Keys {
                static K: OnceLock<Keys> = OnceLock::new();
                K.get_or_init(|| keygen(&[0x5a; 32]))
            }

            /// Key generation (Algorithm 6) in all three; the encodings agree.
            fn keygen(xi: &[u8; 32]) -> Keys {
                let (sk, vk) = o::generate_deterministic(xi);
                let rc = ml_dsa::SigningKey::<Rc>::from_seed(&(*xi).into());
                let rc_sk = rc.expanded_key().clone();
                let rc_vk = rc_sk.verifying_key();
                let lx_kp = lx::generate_key_pair(*xi);
                assert_eq!(
                    vk.as_bytes().as_slice(),
                    rc_vk.encode().as_slice(),
                    "vk vs ml-dsa"
                );
                assert_eq!(
                    vk.as_bytes(),
                    lx_kp.verification_key.as_ref(),
                    "vk vs libcrux"
                );
                #[allow(deprecated, reason = "the expanded form is what we compare")]
                let rc_sk_bytes = rc_sk.to_expanded();
                assert_eq!(
                    sk.as_bytes().as_slice(),
                    rc_sk_bytes.as_slice(),
                    "sk vs ml-dsa"
                );
                assert_eq!(sk.as_bytes(), lx_kp.signing_key.as_ref(), "sk vs libcrux");
                assert_eq!(sk.verifying_key(), &vk);
                assert_eq!(sk.seed(), Some(xi));
                let parsed = o::SigningKey::from_slice(sk.as_bytes()).expect("own sk");
                assert_eq!(parsed.as_bytes(), sk.as_bytes());
                assert_eq!(parsed.verifying_key(), &vk);
                assert!(parsed.seed().is_none());
                Keys {
                    esk: sk.expand(),
                    evk: vk.expand(),
                    sk,
                    rc_sk,
                    rc_vk,
                    lx_sk: lx_kp.signing_key,
                    lx_vk: lx_kp.verification_key,
                }
            }

            /// Deterministic pure signing (Algorithm 2, rnd = 0) in all three.
            /// `None` when a peer gives up (a bounded rejection loop; never
            /// seen in practice) so nothing is compared.
            fn sign(keys: &Keys, msg: &[u8], ctx: &[u8]) -> Option<[u8; SIG]> {
                let sig = keys.sk.sign_deterministic(msg, ctx).expect("ctx ≤ 255");
                let sig = *sig.as_bytes();
                let esig = keys.esk.sign_deterministic(msg, ctx).expect("ctx ≤ 255");
                assert_eq!(esig.as_bytes(), &sig, "expanded key signs differently");
                // libcrux stops after 814 attempts and ml-dsa has its own
                // bound; FIPS 204 §3.6.1 allows that. Ours has no bound.
                let Ok(rc_sig) = keys.rc_sk.sign_deterministic(msg, ctx) else {
                    return None;
                };
                let Ok(lx_sig) = lx::sign(&keys.lx_sk, msg, ctx, [0; 32]) else {
                    return None;
                };
                assert_eq!(&sig[..], rc_sig.encode().as_slice(), "signature vs ml-dsa");
                assert_eq!(&sig, lx_sig.as_ref(), "signature vs libcrux");
                Some(sig)
            }

            /// Verification (Algorithm 3) in ours (plain, expanded,
            /// streaming in two pieces) and both peers: one answer.
            fn verify(keys: &Keys, msg: &[u8], ctx: &[u8], sig: &[u8; SIG]) -> bool {
                let vk = keys.sk.verifying_key();
                let s = o::Signature::from_array(sig);
                let ours = vk.verify(msg, ctx, &s);
                assert_eq!(keys.evk.verify(msg, ctx, &s), ours, "expanded vk differs");
                let half = msg.len() / 2;
                let streamed = vk.verifier(ctx).and_then(|mut v| {
                    v.update(&msg[..half]).update(&msg[half..]);
                    v.verify(&s)
                });
                assert_eq!(streamed, ours, "streaming verifier differs");
                if ctx.len() > 255 {
                    assert_eq!(ours, Err(Error::ContextTooLong));
                } else {
                    assert!(
                        matches!(ours, Ok(()) | Err(Error::InvalidSignature)),
                        "{ours:?}"
                    );
                }
                let ok = ours.is_ok();
                let rc_ok = ml_dsa::Signature::<Rc>::decode(&(*sig).into())
                    .is_some_and(|rs| keys.rc_vk.verify_with_context(msg, ctx, &rs));
                assert_eq!(rc_ok, ok, "verify vs ml-dsa");
                let lx_ok = lx::verify(&keys.lx_vk, msg, ctx, &LxSig::new(*sig)).is_ok();
                assert_eq!(lx_ok, ok, "verify vs libcrux");
                ok
            }

            pub fn run(op: u8, inp: Input<'_>) {
                match op {
                    0 => decode_vk(inp),
                    1 => decode_sk(inp),
                    2 => decode_sig(inp.rest()),
                    3 => verify_fixed(inp),
                    _ => differential(inp),
                }
            }

            /// Operation 0: mode (any length / exact), key bytes.
            fn decode_vk(mut inp: Input<'_>) {
                let exact = inp.byte() % 2 == 1;
                let mut arr = [0u8; VK];
                let bytes = if exact {
                    inp.fill(&mut arr);
                    &arr[..]
                } else {
                    inp.rest()
                };
                let vk = match o::VerifyingKey::from_slice(bytes) {
                    Ok(vk) => vk,
                    Err(e) => {
                        assert_ne!(bytes.len(), VK, "rejected an exact-length vk");
                        assert_eq!(
                            e,
                            Error::Length {
                                what: pqdr_mldsa::Object::VerifyingKey,
                                expected: VK,
                                actual: bytes.len()
                            }
                        );
                        return;
                    }
                };
                assert_eq!(vk.as_bytes().as_slice(), bytes);
                let arr = *vk.as_bytes();
                assert_eq!(o::VerifyingKey::from_array(&arr), vk);
                let rc = ml_dsa::VerifyingKey::<Rc>::decode(&arr.into());
                assert_eq!(
                    rc.encode().as_slice(),
                    &arr,
                    "ml-dsa re-encodes differently"
                );
            }

            /// Operation 1: mode (any length / exact raw / fixed key with a
            /// patch), patch position, patch length, patch, message, or the
            /// raw key bytes.
            fn decode_sk(mut inp: Input<'_>) {
                let mode = inp.byte() % 3;
                let mut arr = [0u8; SK];
                match mode {
                    0 => return check_sk_raw(inp.rest()),
                    1 => {
                        inp.fill(&mut arr);
                        return check_sk_raw(&arr);
                    }
                    _ => {}
                }
                let keys = fixed();
                let pos = pick_pos(&mut inp, &SK_BOUNDS, SK);
                let n = usize::from(inp.byte() % 8) + 1;
                let patch = inp.take(n);
                let msg = inp.rest();
                arr = *keys.sk.as_bytes();
                xor_patch(&mut arr, pos, patch);
                let only_k = (0..SK)
                    .filter(|&i| arr[i] != keys.sk.as_bytes()[i])
                    .all(|i| K_RANGE.contains(&i));
                let sk = match o::SigningKey::from_slice(&arr) {
                    Ok(sk) => sk,
                    Err(e) => {
                        assert_eq!(e, Error::InvalidKey);
                        assert!(!only_k, "a key differing only in K rejected");
                        return;
                    }
                };
                assert!(only_k, "a key with changed ρ/tr/s1/s2/t0 accepted");
                assert_eq!(sk.as_bytes(), &arr);
                let vk = sk.verifying_key();
                assert_eq!(vk, keys.sk.verifying_key());
                // K only seeds the signing randomness: same key pair otherwise.
                #[allow(deprecated, reason = "peer decoding of a validated expanded key")]
                let rc_sk = ml_dsa::ExpandedSigningKey::<Rc>::from_expanded(&arr.into());
                let patched = Keys {
                    esk: sk.expand(),
                    evk: vk.expand(),
                    sk,
                    rc_sk,
                    rc_vk: keys.rc_vk.clone(),
                    lx_sk: LxSk::new(arr),
                    lx_vk: keys.lx_vk.clone(),
                };
                if let Some(sig) = sign(&patched, msg, b"") {
                    assert!(verify(keys, msg, b"", &sig), "patched-K signature rejected");
                }
            }

            fn check_sk_raw(bytes: &[u8]) {
                match o::SigningKey::from_slice(bytes) {
                    Ok(sk) => {
                        assert_eq!(sk.as_bytes().as_slice(), bytes);
                        let again = o::SigningKey::from_array(sk.as_bytes()).expect("re-decode");
                        assert_eq!(again.verifying_key(), sk.verifying_key());
                    }
                    Err(Error::Length {
                        what,
                        expected,
                        actual,
                    }) => {
                        assert_eq!(what, pqdr_mldsa::Object::SigningKey);
                        assert_eq!((expected, actual), (SK, bytes.len()));
                        assert_ne!(actual, SK);
                    }
                    Err(e) => {
                        assert_eq!(e, Error::InvalidKey);
                        assert_eq!(bytes.len(), SK);
                    }
                }
            }

            /// Operation 2: signature bytes of any length.
            fn decode_sig(bytes: &[u8]) {
                let tried = o::Signature::try_from(bytes);
                match o::Signature::from_slice(bytes) {
                    Ok(s) => {
                        assert_eq!(bytes.len(), SIG);
                        assert_eq!(s.as_bytes().as_slice(), bytes);
                        assert_eq!(s.as_ref(), bytes);
                        assert_eq!(o::Signature::from_array(s.as_bytes()), s);
                        assert_eq!(tried, Ok(s));
                    }
                    Err(e) => {
                        assert_ne!(bytes.len(), SIG, "rejected an exact-length signature");
                        assert_eq!(
                            e,
                            Error::Length {
                                what: pqdr_mldsa::Object::Signature,
                                expected: SIG,
                                actual: bytes.len()
                            }
                        );
                        assert_eq!(tried.err(), Some(e));
                    }
                }
                let mut arr = [0u8; SIG];
                Input(bytes).fill(&mut arr);
                if let Some(rs) = ml_dsa::Signature::<Rc>::decode(&arr.into()) {
                    assert_eq!(rs.encode().as_slice(), &arr, "sigDecode not canonical");
                }
            }

            /// Operation 3: mode, context length, then (arbitrary) the
            /// signature bytes or (honest) patch position, patch length,
            /// patch and the message/context changes; then the context and
            /// the message.
            fn verify_fixed(mut inp: Input<'_>) {
                let keys = fixed();
                let mode = inp.byte();
                let long_ctx = mode & 2 != 0;
                let ctx_len = usize::from(inp.byte()) + if long_ctx { 256 } else { 0 };
                if mode & 1 == 0 {
                    let sig: [u8; SIG] = inp.array();
                    let mut ctx = vec![0u8; ctx_len];
                    inp.fill(&mut ctx);
                    let _ = verify(keys, inp.rest(), &ctx, &sig);
                    return;
                }
                let pos = pick_pos(&mut inp, &SIG_BOUNDS, SIG);
                let n = usize::from(inp.byte() % 16);
                let patch = inp.take(n);
                let change = inp.byte();
                let mut ctx = vec![0u8; ctx_len];
                inp.fill(&mut ctx);
                let msg = inp.rest();
                if long_ctx {
                    let s = keys.sk.sign_deterministic(msg, &ctx);
                    assert_eq!(s.err(), Some(Error::ContextTooLong));
                    assert_eq!(keys.sk.signer(&ctx).err(), Some(Error::ContextTooLong));
                    let sig = *keys
                        .sk
                        .sign_deterministic(msg, b"")
                        .expect("sign")
                        .as_bytes();
                    assert!(!verify(keys, msg, &ctx, &sig));
                    return;
                }
                let Some(sig) = sign(keys, msg, &ctx) else {
                    return;
                };
                let mut bad = sig;
                xor_patch(&mut bad, pos, patch);
                let mut vmsg = msg.to_vec();
                if change & 1 != 0 {
                    vmsg.push(change);
                }
                let mut vctx = ctx.clone();
                if change & 2 != 0 {
                    match vctx.last_mut() {
                        Some(b) if ctx.len() == 255 => *b ^= 0x80,
                        _ => vctx.push(change),
                    }
                }
                let unchanged = bad == sig && vmsg == msg && vctx == ctx;
                assert_eq!(
                    verify(keys, &vmsg, &vctx, &bad),
                    unchanged,
                    "changed={}",
                    !unchanged
                );
            }

            /// Operation 4: ξ, context length, patch position, patch length,
            /// patch, context, message.
            fn differential(mut inp: Input<'_>) {
                let xi: [u8; 32] = inp.array();
                let ctx_len = usize::from(inp.byte());
                let pos = pick_pos(&mut inp, &SIG_BOUNDS, SIG);
                let n = usize::from(inp.byte() % 16);
                let patch = inp.take(n);
                let mut ctx = vec![0u8; ctx_len];
                inp.fill(&mut ctx);
                let msg = inp.rest();
                let keys = keygen(&xi);
                let Some(sig) = sign(&keys, msg, &ctx) else {
                    return;
                };
                let mut signer = keys.sk.signer(&ctx).expect("ctx ≤ 255");
                signer.update(msg);
                assert_eq!(
                    signer.finalize_deterministic().as_bytes(),
                    &sig,
                    "streaming signer"
                );
                let with_rnd = keys
                    .sk
                    .sign_with_rnd(msg, &ctx, &[0; 32])
                    .expect("ctx ≤ 255");
                assert_eq!(with_rnd.as_bytes(), &sig, "sign_with_rnd(0)");
                assert!(verify(&keys, msg, &ctx, &sig), "own signature rejected");
                let mut bad = sig;
                xor_patch(&mut bad, pos, patch);
                assert_eq!(verify(&keys, msg, &ctx, &bad), bad == sig);
            }
        }
    };
}

dsa_set!(d44, ml_dsa_44, MlDsa44, ml_dsa_44);
dsa_set!(d65, ml_dsa_65, MlDsa65, ml_dsa_65);
dsa_set!(d87, ml_dsa_87, MlDsa87, ml_dsa_87);

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let op = sel / 3 % 5;
    let inp = Input(rest);
    match sel % 3 {
        0 => d44::run(op, inp),
        1 => d65::run(op, inp),
        _ => d87::run(op, inp),
    }
});

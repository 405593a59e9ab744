//! Streamlined NTRU Prime, the KEM on byte strings (NTRU Prime spec §2.3.5
//! parameters: the hashes, confirmation and encodings; §2.3 key generation;
//! §2.3.7 `Encap`; §2.3.8 `Decap` with implicit rejection), in the reference
//! implementation's steps `KEM_KeyGen`, `ZKeyGen`, `Hide`, `ZEncrypt`,
//! `ZDecrypt`, `Hash_prefix`, `HashConfirm`, `HashSession`.
//!
//! Layouts (round 3): `pk = Rq_encode(h)`; `sk = Small_encode(f) ‖
//! Small_encode(1/g) ‖ pk ‖ rho ‖ Hash4(pk)`; `ct = Rounded_encode(c) ‖
//! HashConfirm(r, pk)`; the session key is `Hash1(Hash3(r_enc) ‖ ct)` or, for
//! a ciphertext that does not re-encrypt to itself, `Hash0(Hash3(rho) ‖ ct)`
//! (implicit rejection).

use crate::arch::RecipState;
use crate::arch::{self, Avx2};
use crate::arith::MAX_P;
use crate::ct::{self, ConditionallySelectable, ConstantTimeEq};
use crate::encode::{
    rounded_decode, rounded_encode, rq_bytes, rq_decode, rq_encode, small_bytes, small_decode,
    small_encode,
};
use crate::hash::Sha512;
use crate::mult::Scratch;
use crate::sample::{short_random, short_random_in, small_random, small_random_batched};
use crate::sntrup_core::{
    Hats, decrypt_f, decrypt_f_hat, decrypt_v, decrypt_v_hat, encrypt, encrypt_hat, is_short,
    keeps, public_key, recip3,
};
use crate::wipe::Wipe;
use rand_core::TryCryptoRng;
use zeroize::Zeroizing;

/// Hash and confirmation length (bytes).
pub(crate) const HASH_BYTES: usize = 32;

/// `Hash_prefix(b, in)`: the first 32 bytes of SHA-512(b ‖ in₁ ‖ in₂), the
/// spec's `Hash_b` (NTRU Prime spec §2.3.5 hash, SHA-512 in every parameter set),
/// written to `out`.
///
/// The input may be secret (`r_enc`, `rho`, `Hash3` of either). What is wiped:
/// the hasher's chaining state and block buffer (which holds input bytes),
/// when `finalize_into` consumes the hasher (our [`Sha512`] wipes itself on
/// drop; it writes only the digest's first 32 bytes, into `out`: the second
/// half never leaves its wiped chaining state). The caller owns `out` and
/// wipes it when it is secret. Not wiped: what the SHA-512 compression function leaves in its
/// own stack frames and registers (message schedule, working variables),
/// which no safe Rust code can reach.
fn hash_prefix(b: u8, in1: &[u8], in2: &[u8], out: &mut [u8; HASH_BYTES]) {
    // Compile-time check that the hasher wipes itself.
    const _: fn() = || {
        fn wipes_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        wipes_on_drop::<Sha512>();
    };
    let mut h = Sha512::new();
    h.update(&[b]);
    h.update(in1);
    h.update(in2);
    h.finalize_into(out);
}

/// `Hash3(y)` (the inner hash of `HashConfirm` and `HashSession`, NTRU Prime spec
/// §2.3.7, §2.3.8), a secret, wiped on drop.
fn hash3(y: &[u8]) -> Zeroizing<[u8; HASH_BYTES]> {
    let mut h3 = Zeroizing::new([0u8; HASH_BYTES]);
    hash_prefix(3, y, &[], &mut h3);
    h3
}

/// `Hash3(rho)` of the secret key `sk` (the implicit-rejection input of
/// `Decap`, NTRU Prime spec §2.3.8), a secret: computed once when the key is
/// made or parsed and kept in `DecapsulationKey` (and its prepared form),
/// so that no decapsulation hashes rho again. Not inlined: its hasher stays
/// out of the frame of key generation (which holds the new key pair).
#[inline(never)]
pub(crate) fn hash3_rho<const P: usize, const Q: i16>(sk: &[u8], out: &mut [u8; HASH_BYTES]) {
    let sb = small_bytes(P);
    let rho_at = 2 * sb + const { rq_bytes(P, Q) };
    hash_prefix(3, &sk[rho_at..rho_at + sb], &[], out);
}

/// `Hash4(pk)`, the public `cache` field of the secret key (kept beside the
/// public key in `EncapsulationKey`, so that `Encap` does not hash pk again).
pub(crate) fn hash_cache(pk: &[u8]) -> [u8; HASH_BYTES] {
    let mut out = [0u8; HASH_BYTES];
    hash_prefix(4, pk, &[], &mut out);
    out
}

/// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation) with randomness from
/// `rng` in the reference order: `Small_random(g)`
/// until g is invertible in R/3, `Short_random(f)`, then `randombytes(rho)`.
/// Each random word is its own 4-byte draw, or with `BATCHED` each polynomial's
/// words are one draw of 4p bytes (PQClean).
///
/// The polynomials are kept as their `Small_encode` strings in the output
/// buffers (f and 1/g in their places in `sk`; g in `pk`, which `Rq_encode(h)`
/// overwrites last), so no frame holds them for the rest of key generation.
pub(crate) fn keypair<const P: usize, const Q: i16, const W: usize, const BATCHED: bool, R>(
    rng: &mut R,
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let sb = small_bytes(P);
    loop {
        let ok = sample_g::<P, BATCHED, R>(rng, &mut sk[sb..2 * sb], &mut pk[..sb])?;
        let mut ok = ok.unwrap_u8();
        // Public by design: only whether this g is rejected leaks; a rejected
        // g is discarded (NTRU Prime spec §2.3, Core `KeyGen`; liboqs lists it as a pass).
        pqdr_ctgrind::hook::declassify(&mut ok);
        if ok == 1 {
            break;
        }
    }
    sample_f::<P, W, BATCHED, R>(rng, &mut sk[..sb])?;
    let rho_at = 2 * sb + pk.len();
    rng.try_fill_bytes(&mut sk[rho_at..rho_at + sb])?;
    keypair_finish::<P, Q>(pk, sk);
    Ok(())
}

/// `Small_random(g)` and `R3_recip(g)` (Core `KeyGen`, NTRU Prime spec §2.3):
/// `Small_encode(1/g)` into `ginv_enc`, `Small_encode(g)` into `g_enc`; the
/// flag says whether g is invertible in R/3.
#[inline(never)]
fn sample_g<const P: usize, const BATCHED: bool, R>(
    rng: &mut R,
    ginv_enc: &mut [u8],
    g_enc: &mut [u8],
) -> Result<ct::Choice, R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let mut g = [0i8; P];
    let mut g = Wipe::new(&mut g);
    if BATCHED {
        small_random_batched(&mut g, rng)?;
    } else {
        small_random(&mut g, rng)?;
    }
    let ok = recip3(ginv_enc, &g);
    small_encode(g_enc, &g);
    Ok(ok)
}

/// `Short_random(f)` (Core `KeyGen`, NTRU Prime spec §2.3), written out as `Small_encode(f)`.
#[inline(never)]
fn sample_f<const P: usize, const W: usize, const BATCHED: bool, R>(
    rng: &mut R,
    f_enc: &mut [u8],
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let mut f = [0i8; P];
    let mut f = Wipe::new(&mut f);
    short_random::<P, W, BATCHED, R>(&mut f, rng)?;
    small_encode(f_enc, &f);
    Ok(())
}

/// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation) from explicit `f`
/// (short), `g` and `rho`. `None` if `f` does not
/// have weight w or `g` is not invertible in R/3 (both public facts about the input).
pub(crate) fn keypair_deterministic<const P: usize, const Q: i16, const W: usize>(
    f: &[i8; P],
    g: &[i8; P],
    rho: &[u8],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Option<()> {
    let sb = small_bytes(P);
    let mut ok = (recip3(&mut sk[sb..2 * sb], g) & is_short::<P, W>(f)).unwrap_u8();
    // Public: whether the caller's input is a valid key seed.
    pqdr_ctgrind::hook::declassify(&mut ok);
    if ok != 1 {
        return None;
    }
    small_encode(&mut sk[..sb], f);
    small_encode(&mut pk[..sb], g);
    let rho_at = 2 * sb + pk.len();
    sk[rho_at..rho_at + sb].copy_from_slice(rho);
    keypair_finish::<P, Q>(pk, sk);
    Some(())
}

/// `ZKeyGen` (Core `KeyGen` plus the key encodings, NTRU Prime spec §2.3,
/// §3.1) from `Small_encode(f)` (in `sk`) and `Small_encode(g)` (in `pk`),
/// plus the rest of the secret key (`Small_encode(1/g)` is already in place).
#[inline(never)]
fn keypair_finish<const P: usize, const Q: i16>(pk: &mut [u8], sk: &mut [u8]) {
    let sb = small_bytes(P);
    // The reciprocal's state (secret), then h (public) in buf[0].
    let mut buf = RecipState::<P>::new();
    let mut buf = Wipe::new(&mut buf);
    public_key::<P, Q>(&mut buf, &sk[..sb], &pk[..sb]);
    // Overwrites Small_encode(g).
    rq_encode::<P, Q>(pk, &mut buf.c[0]);
    let pk_at = 2 * sb;
    sk[pk_at..pk_at + pk.len()].copy_from_slice(pk);
    let cache_at = pk_at + pk.len() + sb;
    sk[cache_at..].copy_from_slice(&hash_cache(pk));
}

/// `Rq_decode(pk)` into `h` when `h` has p entries (the encapsulation
/// key keeps it, so that `Encap` does not decode pk again); nothing for an
/// empty `h` (that set decodes pk at every encapsulation).
pub(crate) fn decode_key<const P: usize, const Q: i16>(pk: &[u8], h: &mut [i16]) {
    if let Ok(h) = <&mut [i16; P]>::try_from(h) {
        rq_decode::<P, Q>(h, pk);
    }
}

/// `Encap` (NTRU Prime spec §2.3.7) with randomness from `rng`: `Short_random(r)` (see [`keypair`] for
/// `BATCHED`), then [`encap_with`]; with AVX2 (p <= [`SHARED_MAX_P`]) [`encap_shared`].
pub(crate) fn encap<const P: usize, const Q: i16, const W: usize, const BATCHED: bool, R>(
    rng: &mut R,
    pk: (&[u8], &[i16], &[u8; HASH_BYTES]),
    ct: &mut [u8],
    ss: &mut [u8; HASH_BYTES],
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let mut r = [0i8; P];
    let mut r = Wipe::new(&mut r);
    if let Some(token) = arch::avx2().filter(|_| const { P <= SHARED_MAX_P }) {
        encap_shared::<P, Q, W, BATCHED, R>(token, (&mut r, rng), pk, (ct, ss))
    } else {
        short_random::<P, W, BATCHED, R>(&mut r, rng)?;
        encap_with::<P, Q>(&mut r, pk, ct, ss);
        Ok(())
    }
}

/// The largest p whose [`encap`] draws its words into the product's
/// scratch ([`encap_shared`]): not sntrup1277, where the scratch (7.5 KB)
/// beside the sort's 2048-entry network (8 KB of registers) would pass the
/// encapsulation's stack budget (`tests/stack.rs`, 18 KB).
const SHARED_MAX_P: usize = 1024;

/// [`encap`] with the random words drawn into the product's scratch
/// (`arch::ListScratch`), zero-filled once for both (twin: [`encap`]'s
/// portable path, a list and a scratch of their own).
#[inline(never)]
fn encap_shared<const P: usize, const Q: i16, const W: usize, const BATCHED: bool, R>(
    token: Avx2,
    (r, rng): (&mut [i8; P], &mut R),
    pk: (&[u8], &[i16], &[u8; HASH_BYTES]),
    (ct, ss): (&mut [u8], &mut [u8; HASH_BYTES]),
) -> Result<(), R::Error>
where
    R: TryCryptoRng + ?Sized,
{
    let mut acc = arch::ListScratch::<P>::new();
    let mut acc = Wipe::new(&mut acc);
    short_random_in::<P, W, BATCHED, R>(r, rng, arch::scratch_words(token, &mut acc))?;
    encap_in::<P, Q>(r, pk, ct, ss, &mut acc.s);
    Ok(())
}

/// `Encap` (NTRU Prime spec §2.3.7) for a given short `r`: [`encap_in`]
/// with a product scratch of its own.
#[inline(never)]
pub(crate) fn encap_with<const P: usize, const Q: i16>(
    r: &mut [i8; P],
    pk: (&[u8], &[i16], &[u8; HASH_BYTES]),
    ct: &mut [u8],
    ss: &mut [u8; HASH_BYTES],
) {
    let mut acc: Scratch<P> = [[0; P]; 3];
    encap_in::<P, Q>(r, pk, ct, ss, &mut Wipe::new(&mut acc));
}

/// `Encap` (NTRU Prime spec §2.3.7) for a given short `r`: `c = Hide(r, pk)`,
/// `k = HashSession(1, r_enc, c)` (`r` serves as scratch and is restored);
/// `h` is `Rq_decode(pk)` or empty (see [`decode_key`]), `cache` is `Hash4(pk)`;
/// the product in `acc` (any contents). Not inlined: the product's frame
/// must not share the caller's with `Short_random`'s (in [`encap`]).
#[inline(never)]
fn encap_in<const P: usize, const Q: i16>(
    r: &mut [i8; P],
    (pk, h, cache): (&[u8], &[i16], &[u8; HASH_BYTES]),
    ct: &mut [u8],
    ss: &mut [u8; HASH_BYTES],
    acc: &mut Scratch<P>,
) {
    let mut c = [0i16; P];
    let mut c = Wipe::new(&mut c);
    let h3 = hide::<P, Q>((r, &mut c), (pk, h), None, acc);
    seal::<P, Q>(ct, &mut c, &h3, cache);
    // HashSession(1, r_enc, c) = Hash1(Hash3(r_enc) ‖ c)
    hash_prefix(1, h3.as_ref(), ct, ss);
}

/// Decodes `Small_encode`d bytes as an `Inputs` value (NTRU Prime spec §2.3.5
/// `Inputs` = `Short`); `None` unless every
/// coefficient is in {-1, 0, 1}, unused bits are zero and the weight is w.
pub(crate) fn decode_short<const P: usize, const W: usize>(
    bytes: &[u8],
) -> Option<Zeroizing<[i8; P]>> {
    let mut r = Zeroizing::new([0i8; P]);
    small_decode(&mut r, bytes);
    let mut ok = (small_valid::<P>(bytes) & is_short::<P, W>(&r)).unwrap_u8();
    // Public: whether the caller's input is well formed.
    pqdr_ctgrind::hook::declassify(&mut ok);
    (ok == 1).then_some(r)
}

/// `Hide` (NTRU Prime spec §2.3.7 `Encap`, the ciphertext) up to its
/// encoding: `r_enc = Small_encode(r)`, `c = Encrypt(r, pk)` (see
/// [`zencrypt`]) into `c` (any contents on entry); returns `Hash3(r_enc)`,
/// all that `HashConfirm` and `HashSession` need of `r_enc`. [`seal`]
/// writes the ciphertext. `pk` is the encoding and, when kept, its
/// `Rq_decode`. With `hats` (a prepared key's, see [`decap_prepared`]) the
/// product uses h's transforms; it is made in `acc` (any contents), which
/// is free again on return.
fn hide<const P: usize, const Q: i16>(
    (r, c): (&mut [i8; P], &mut [i16; P]),
    pk: (&[u8], &[i16]),
    hats: Option<(Avx2, &Hats)>,
    acc: &mut Scratch<P>,
) -> Zeroizing<[u8; HASH_BYTES]> {
    let h3 = hash3_small::<P>(r);
    zencrypt::<P, Q>((r, c), pk, hats, acc);
    h3
}

/// The ciphertext of `Hide` (NTRU Prime spec §2.3.7): `ct =
/// Rounded_encode(c) ‖ HashConfirm(r_enc, cache)` from [`hide`]'s `c`
/// (consumed) and `Hash3(r_enc)`.
fn seal<const P: usize, const Q: i16>(
    ct: &mut [u8],
    c: &mut [i16; P],
    h3: &[u8; HASH_BYTES],
    cache: &[u8],
) {
    let rounded = ct.len() - HASH_BYTES;
    rounded_encode::<P, Q>(&mut ct[..rounded], c);
    // HashConfirm(r_enc, cache) = Hash2(Hash3(r_enc) ‖ cache)
    let mut confirm = [0u8; HASH_BYTES];
    hash_prefix(2, h3, cache, &mut confirm);
    ct[rounded..].copy_from_slice(&confirm);
}

/// `Hash3(Small_encode(r))`; the encoding lives only in this frame (not
/// during the product that follows).
#[inline(never)]
fn hash3_small<const P: usize>(r: &[i8; P]) -> Zeroizing<[u8; HASH_BYTES]> {
    let mut r_enc = [0u8; small_bytes(MAX_P)];
    let mut r_enc = Wipe::new(&mut r_enc);
    let r_enc = &mut r_enc[..small_bytes(P)];
    small_encode(r_enc, r);
    hash3(r_enc)
}

/// `ZEncrypt` (Core `Encrypt` plus encodings, NTRU Prime spec §2.3, §3.1)
/// but its last step (`Rounded_encode`, in [`seal`]): `Encrypt(r,
/// Rq_decode(pk))` into `c` (any contents on entry; the caller wipes it),
/// with `Rq_decode(pk)` taken from `h` when it has p entries (kept in the
/// encapsulation key); the product in `acc`.
#[inline(never)]
fn zencrypt<const P: usize, const Q: i16>(
    (r, c): (&mut [i8; P], &mut [i16; P]),
    (pk, h): (&[u8], &[i16]),
    hats: Option<(Avx2, &Hats)>,
    acc: &mut Scratch<P>,
) {
    if let Some((token, hats)) = hats {
        encrypt_hat::<P, Q>(token, c, r, hats, acc);
    } else {
        if let Ok(h) = <&[i16; P]>::try_from(h) {
            c.copy_from_slice(h);
        } else {
            rq_decode::<P, Q>(c, pk);
        }
        encrypt::<P, Q>(c, r, acc);
    }
}

/// `ZDecrypt` (Core `Decrypt` plus decodings, NTRU Prime spec §2.3.4, §3.1): f and
/// 1/g from the secret key (one after the other, in `r`, which then takes
/// the result), `Rounded_decode(ct)` into `c`, `Decrypt` (both products in
/// `acc`). `r` and `c` have any contents on entry; the caller wipes them.
#[inline(never)]
fn zdecrypt<const P: usize, const Q: i16, const W: usize>(
    (r, c): (&mut [i8; P], &mut [i16; P]),
    ct: &[u8],
    sk: &[u8],
    hats: Option<(Avx2, &Hats)>,
    acc: &mut Scratch<P>,
) {
    let sb = small_bytes(P);
    rounded_decode::<P, Q>(c, ct);
    if let Some((token, hats)) = hats {
        decrypt_f_hat::<P, Q>(token, c, hats, acc);
        decrypt_v_hat::<P, W>(token, r, c, hats, acc);
        return;
    }
    small_decode(r, &sk[..sb]);
    decrypt_f::<P, Q>(c, r, acc);
    small_decode(r, &sk[sb..2 * sb]);
    decrypt_v::<P, W>(r, c, acc);
}

/// Re-encryption for `Decap` (NTRU Prime spec §2.3.8): `Hide(r, pk)`,
/// compared with `ct` in constant time; returns the comparison and
/// `Hash3(r_enc)`; `c` is scratch (see [`zencrypt`]). With AVX2 the new
/// ciphertext is written into the bytes of `acc` (free after the product,
/// wiped by the caller: no buffer, zero fill or wipe of its own, and 1.8 KB
/// less stack for sntrup1277); twin: [`compare_own`].
#[inline(never)]
fn reencrypt<const P: usize, const Q: i16, const CT: usize>(
    (r, c): (&mut [i8; P], &mut [i16; P]),
    (pk, h, cache): (&[u8], &[i16], &[u8]),
    ct: &[u8],
    hats: Option<(Avx2, &Hats)>,
    acc: &mut Scratch<P>,
) -> (ct::Choice, Zeroizing<[u8; HASH_BYTES]>) {
    const { assert!(CT <= size_of::<Scratch<P>>()) };
    let h3 = hide::<P, Q>((r, c), (pk, h), hats, acc);
    let same = match arch::avx2() {
        Some(token) => {
            let cnew = &mut arch::scratch_bytes(token, acc)[..CT];
            seal::<P, Q>(cnew, c, &h3, cache);
            ct::bytes_eq(ct, cnew)
        }
        None => compare_own::<P, Q, CT>(ct, c, &h3, cache),
    };
    (same, h3)
}

/// [`reencrypt`]'s comparison with the new ciphertext in a buffer of its
/// own (wiped on return). Not inlined: the buffer stays out of
/// `reencrypt`'s frame on the AVX2 path.
#[inline(never)]
fn compare_own<const P: usize, const Q: i16, const CT: usize>(
    ct: &[u8],
    c: &mut [i16; P],
    h3: &[u8; HASH_BYTES],
    cache: &[u8],
) -> ct::Choice {
    let mut cnew = [0u8; CT];
    let mut cnew = Wipe::new(&mut cnew);
    seal::<P, Q>(&mut cnew[..], c, h3, cache);
    // A branch-free OR of the byte differences, tested once (subtle's
    // slice `ct_eq` passes every byte through a barrier: 10 instructions a byte).
    ct::bytes_eq(ct, &cnew[..])
}

/// `Decap` (NTRU Prime spec §2.3.8): decrypt, re-encrypt, compare the whole
/// ciphertext in constant time, and hash either `r_enc` (prefix 1) or `rho`
/// (prefix 0) with the ciphertext: `HashSession(b, y, c) = Hash_b(Hash3(y) ‖ c)`,
/// with `Hash3(r_enc)` from the re-encryption and the key's kept
/// `Hash3(rho)` (`h3_rho`, see [`hash3_rho`]), one selected by masks.
/// `CT` is the ciphertext length; `h` is the key's kept `Rq_decode(pk)` or
/// empty (see [`decode_key`]), so re-encryption skips the decoding.
pub(crate) fn decap<const P: usize, const Q: i16, const W: usize, const CT: usize>(
    ct: &[u8; CT],
    (sk, h, h3_rho): (&[u8], &[i16], &[u8; HASH_BYTES]),
    ss: &mut [u8; HASH_BYTES],
) {
    decap_with::<P, Q, W, CT>(ct, (sk, h), ss, None, h3_rho);
}

/// The precomputations of a prepared decapsulation key
/// (`PreparedDecapsulationKey`): f, 1/g and h of `sk` into `hats`
/// (`sntrup_core::Hats`). Returns false, leaving `hats` unused, without
/// AVX2 (a public fact).
pub(crate) fn prepare<const P: usize, const Q: i16>(sk: &[u8], hats: &mut Hats) -> bool {
    let sb = small_bytes(P);
    let pk_len = const { rq_bytes(P, Q) };
    let Some(token) = arch::avx2().filter(|_| keeps(P)) else {
        return false;
    };
    let (mut f, mut v, mut h) = ([0i8; P], [0i8; P], [0i16; P]);
    let (mut f, mut v, mut h) = (Wipe::new(&mut f), Wipe::new(&mut v), Wipe::new(&mut h));
    small_decode(&mut f, &sk[..sb]);
    small_decode(&mut v, &sk[sb..2 * sb]);
    rq_decode::<P, Q>(&mut h, &sk[2 * sb..2 * sb + pk_len]);
    crate::sntrup_core::prepare::<P>(token, hats, &f, &v, &h);
    true
}

/// [`decap`] with what [`prepare`] made from the same `sk`: the same shared
/// secret, given `hats` without the forward transforms of f, 1/g and h and
/// the `Decode` of pk. Without AVX2 `hats` is not used.
pub(crate) fn decap_prepared<const P: usize, const Q: i16, const W: usize, const CT: usize>(
    ct: &[u8; CT],
    sk: &[u8],
    hats: Option<&Hats>,
    h3_rho: &[u8; HASH_BYTES],
    ss: &mut [u8; HASH_BYTES],
) {
    let token = arch::avx2().filter(|_| keeps(P));
    let hats = token.zip(hats);
    decap_with::<P, Q, W, CT>(ct, (sk, &[]), ss, hats, h3_rho);
}

/// [`decap`], the product factors' transforms taken from `hats` when
/// given, `Rq_decode(pk)` from `h` when it has p entries.
fn decap_with<const P: usize, const Q: i16, const W: usize, const CT: usize>(
    ct: &[u8; CT],
    (sk, h): (&[u8], &[i16]),
    ss: &mut [u8; HASH_BYTES],
    hats: Option<(Avx2, &Hats)>,
    h3_rho: &[u8; HASH_BYTES],
) {
    let sb = small_bytes(P);
    let pk_len = const { rq_bytes(P, Q) };
    let pk = &sk[2 * sb..2 * sb + pk_len];
    let cache = &sk[3 * sb + pk_len..];

    let mut r = [0i8; P];
    let mut r = Wipe::new(&mut r);
    // One scratch for the three products and one c (`Decrypt`'s input,
    // then `Encrypt`'s), each zero-filled and wiped once.
    let mut acc: Scratch<P> = [[0; P]; 3];
    let mut acc = Wipe::new(&mut acc);
    let mut c = [0i16; P];
    let mut c = Wipe::new(&mut c);
    zdecrypt::<P, Q, W>((&mut r, &mut c), &ct[..CT - HASH_BYTES], sk, hats, &mut acc);
    let rc = (&mut *r, &mut *c);
    let (same, mut h3) = reencrypt::<P, Q, CT>(rc, (pk, h, cache), ct, hats, &mut acc);
    ct::cmov_bytes(h3.as_mut(), h3_rho, !same);
    let b = u8::conditional_select(&0, &1, same);
    hash_prefix(b, h3.as_ref(), ct, ss);
}

/// 1 if every 2-bit field of a `Small_encode` string is 0..=2 and the bits past
/// coefficient p are zero (the form `Small_encode` produces, NTRU Prime spec §3.1).
pub(crate) fn small_valid<const P: usize>(bytes: &[u8]) -> ct::Choice {
    let mut bad = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        // A field is 3 iff both of its bits are set.
        bad |= b & (b >> 1) & 0x55;
        let used = P - 4 * i; // coefficients in this byte (>= 1)
        if used < 4 {
            bad |= b >> (2 * used);
        }
    }
    bad.ct_eq(&0)
}

/// Checks a secret key's encodings and public parts: `f` and `1/g` are valid
/// `Small_encode` strings and `cache = Hash4(pk)` (`rho` is any bytes).
pub(crate) fn sk_valid<const P: usize, const Q: i16>(sk: &[u8]) -> bool {
    let sb = small_bytes(P);
    let pk_len = const { rq_bytes(P, Q) };
    let pk = &sk[2 * sb..2 * sb + pk_len];
    let cache = &sk[3 * sb + pk_len..];
    let enc_ok = small_valid::<P>(&sk[..sb]) & small_valid::<P>(&sk[sb..2 * sb]);
    let mut ok = enc_ok.unwrap_u8();
    // Public: whether the key is well formed (the caller learns it from the Err anyway).
    pqdr_ctgrind::hook::declassify(&mut ok);
    ok == 1 && hash_cache(pk).as_slice() == cache
}

/// `KEM_KeyGen` (NTRU Prime spec §2.3, key generation) from `Small_encode`d f
/// and g (validated) and rho.
pub(crate) fn keypair_from_encodings<const P: usize, const Q: i16, const W: usize>(
    f_enc: &[u8],
    g_enc: &[u8],
    rho: &[u8],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Option<()> {
    let f = decode_short::<P, W>(f_enc)?;
    let mut g = [0i8; P];
    let mut g = Wipe::new(&mut g);
    small_decode(&mut g, g_enc);
    let mut ok = small_valid::<P>(g_enc).unwrap_u8();
    // Public: whether the caller's input is well formed.
    pqdr_ctgrind::hook::declassify(&mut ok);
    if ok != 1 {
        return None;
    }
    keypair_deterministic::<P, Q, W>(&f, &g, rho, pk, sk)
}

#!/usr/bin/env python3
"""Independent reference for the pqdr-ratchet v2 test vectors (docs/protocol/ratchet.md §3.1).

Written from docs/protocol/ratchet.md alone (§1.3, §1.4, §1.5, §1.6, and the state
format 3 of §1.11.1-§1.11.2, which the vector file holds; its fields are described in
§3.1), not from the Rust code. It recomputes, from the inputs in
the JSON file:

  * root_0 and its four children: rk_0 = DK(root carry, root_0),
    xk_0 = DK(exporter, root_0), seg_0 i2r / r2i = DK(segment 0 dir, root_0);
  * the two-level skip chain with key groups of 8 (revision 2026-12-03): ck_{0,0},
    ck_{j,h+1} || gk_{j,h} = DK_64(group step, ck_{j,h} || be32(c0)),
    mk_c = DK(packet key, gk_{j,h} || be32(c) || 0^28), message keys at the vector counters;
  * the epoch-0 records (ChaCha20-Poly1305, nonce dir||0^3||be32(e)||be32(c),
    AD = header || aad, flags byte 0x40), byte for byte;
  * th_1 from the recorded ek/ct/rid/owner, root_1 = DK(root step,
    rk_0 || ss || th_1), the epoch-1 children and message keys, and opens the
    recorded epoch-1 records with them;
  * exporter outputs DK(exporter, xk_e || lp(label)) for epochs 0 and 1;
  * the Reed-Solomon symbols of a fixed blob;
  * the sealed state: XChaCha20-Poly1305 (HChaCha20 written here, checked
    against draft-irtf-cfrg-xchacha §2.2.1 and §A.3.1) under
    DK(state seal, storage_key), nonce = bytes 22..46, AD = bytes 0..46 (magic,
    version, session id, nonce); parses
    the plaintext state and checks every rk/xk, chain and stored key in it
    against the derivations above; tampered blobs and a wrong key must fail.

Prints every check; exit status 0 iff everything matches.

    python3 -m pip install blake3 cryptography
    python3 scripts/ratchet_vectors.py crates/pqdr-ratchet/vectors/v2.json
"""
import json
import struct
import sys

from blake3 import blake3
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

# docs/protocol/ratchet.md §1.4.1: "[application] [commit timestamp] [purpose]", v2 prefix.
P = "pqdr-ratchet v2 2026-11-25T20:00Z "
CTX_ROOT_INIT = P + "root init"
CTX_KEM_TRANSCRIPT = P + "kem transcript"
CTX_ROOT_STEP = P + "root step"
CTX_ROOT_CARRY = P + "root carry"
CTX_SEG0 = {0: P + "segment 0 i2r", 1: P + "segment 0 r2i"}
CTX_SEG_STEP = P + "segment step"
CTX_INNER0 = P + "inner 0"
CTX_GROUP = P + "group step"
CTX_PACKET_KEY = P + "packet key"
CTX_STATE_SEAL = P + "state seal"
CTX_EXPORTER = P + "exporter"
I2R, R2I = 0, 1
# docs/protocol/ratchet.md §1.5.1: bits 7..5 version = 010 (v2), kind 00, reserved 000.
FLAGS_V2 = 0b010 << 5
SEG_SHIFT = 8  # S = 256
GROUP = 8  # G = 8 records per group (32 groups per segment)


def dk(ctx, data, n=32):
    """BLAKE3 derive_key (XOF to n bytes)."""
    return blake3(data, derive_key_context=ctx).digest(length=n)


def lp(x):
    return len(x).to_bytes(2, "big") + x


def be(n, width):
    return n.to_bytes(width, "big")


# --- key schedule (docs/protocol/ratchet.md §1.3, §1.4) --------------------

def root0(secret, transcript, context, kem_id, aead_id, mode):
    m = lp(secret) + lp(transcript) + lp(context) + be(kem_id, 2) + be(aead_id, 2) + bytes([mode])
    return dk(CTX_ROOT_INIT, m)


def children(root):
    """Installing an epoch: the four children of root_e (root_e is then erased)."""
    return {
        "rk": dk(CTX_ROOT_CARRY, root),
        "xk": dk(CTX_EXPORTER, root),
        "seg0": {I2R: dk(CTX_SEG0[I2R], root), R2I: dk(CTX_SEG0[R2I], root)},
    }


def transcript_hash(next_epoch, kem_id, owner, rid, ek, ct):
    m = be(next_epoch, 8) + be(kem_id, 2) + bytes([owner]) + be(rid, 2) + lp(ek) + lp(ct)
    return dk(CTX_KEM_TRANSCRIPT, m)


def root_step(rk, ss, th):
    return dk(CTX_ROOT_STEP, rk + ss + th)


def exporter(xk, label, n):
    return dk(CTX_EXPORTER, xk + lp(label), n)


def group_step(ck, c0):
    """ck_{j,h+1} || gk_{j,h} = DK_64(group step, ck_{j,h} || be32(c0)), c0 = the group's first counter."""
    out = dk(CTX_GROUP, ck + be(c0, 4), 64)
    return out[:32], out[32:]


def group_keys(gk, c0):
    """mk_c = DK(packet key, gk || be32(c) || 0^28) for the 8 counters of the group."""
    return [dk(CTX_PACKET_KEY, gk + be(c, 4) + bytes(28)) for c in range(c0, c0 + GROUP)]


def chain_at(seg0, pos):
    """The chain state at position pos = 256*j + 8*h + i (docs/protocol/ratchet.md §1.4.4):
    (ck, seg_{j+1}, keys) with ck = ck_{j,h} and no keys if i = 0, else ck = ck_{j,h+1} and
    the unused keys mk_pos .. mk_{c0+7} of the current group."""
    seg = seg0
    for _ in range(pos >> SEG_SHIFT):
        seg = dk(CTX_SEG_STEP, seg)
    ck = dk(CTX_INNER0, seg)
    c0 = (pos >> SEG_SHIFT) << SEG_SHIFT
    while c0 + GROUP <= pos:
        ck, _ = group_step(ck, c0)
        c0 += GROUP
    keys = []
    if pos % GROUP:
        ck, gk = group_step(ck, c0)
        keys = group_keys(gk, c0)[pos - c0:]
    return ck, dk(CTX_SEG_STEP, seg), keys


def message_key(seg0, c):
    c0 = c - c % GROUP
    ck, _, _ = chain_at(seg0, c0)
    _, gk = group_step(ck, c0)
    return group_keys(gk, c0)[c - c0]


def nonce(d, epoch, c):
    return bytes([d, 0, 0, 0]) + be(epoch % 2**32, 4) + be(c, 4)


def header(epoch, c):
    return bytes([FLAGS_V2, epoch % 256]) + be(c, 4)


# --- XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha) ---------------------------

def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def _qr(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 7)


def hchacha20(key, nonce16):
    """draft-irtf-cfrg-xchacha §2.2: the ChaCha20 state with a 16-byte nonce in
    words 12..15, 20 rounds, no final addition; output words 0..3 and 12..15
    (little endian)."""
    s = list(struct.unpack("<4I", b"expand 32-byte k")) + list(struct.unpack("<8I", key))
    s += list(struct.unpack("<4I", nonce16))
    for _ in range(10):
        _qr(s, 0, 4, 8, 12)
        _qr(s, 1, 5, 9, 13)
        _qr(s, 2, 6, 10, 14)
        _qr(s, 3, 7, 11, 15)
        _qr(s, 0, 5, 10, 15)
        _qr(s, 1, 6, 11, 12)
        _qr(s, 2, 7, 8, 13)
        _qr(s, 3, 4, 9, 14)
    return struct.pack("<8I", *(s[0:4] + s[12:16]))


def _xaead(key, nonce24):
    return ChaCha20Poly1305(hchacha20(key, nonce24[:16])), bytes(4) + nonce24[16:24]


def xchacha_encrypt(key, nonce24, pt, ad):
    c, n = _xaead(key, nonce24)
    return c.encrypt(n, pt, ad)


def xchacha_decrypt(key, nonce24, ct, ad):
    """Plaintext, or None if the tag does not verify."""
    c, n = _xaead(key, nonce24)
    try:
        return c.decrypt(n, ct, ad)
    except InvalidTag:
        return None


# --- Reed-Solomon over GF(2^8) (docs/protocol/ratchet.md §1.6) --------------
# Polynomial 0x11d; data symbols at x < k, parity by Lagrange interpolation.
EXP, LOG = [0] * 512, [0] * 256
_x = 1
for _i in range(255):
    EXP[_i] = EXP[_i + 255] = _x
    LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D


def gmul(a, b):
    return 0 if a == 0 or b == 0 else EXP[LOG[a] + LOG[b]]


def ginv(a):
    return EXP[255 - LOG[a]]


def rs_symbol(blob, sym_len, idx):
    k = -(-len(blob) // sym_len)
    rows = [blob[i * sym_len:(i + 1) * sym_len].ljust(sym_len, b"\0") for i in range(k)]
    if idx < k:
        return rows[idx]
    out = bytearray(sym_len)
    for i in range(k):
        num = den = 1
        for j in range(k):
            if j != i:
                num = gmul(num, idx ^ j)
                den = gmul(den, i ^ j)
        c = gmul(num, ginv(den))
        for b in range(sym_len):
            out[b] ^= gmul(c, rows[i][b])
    return bytes(out)


# --- state format 3 (docs/protocol/ratchet.md §1.11.1, §1.11.2) --------------

class Reader:
    def __init__(self, b):
        self.b, self.pos = b, 0

    def take(self, n):
        if self.pos + n > len(self.b):
            raise ValueError(f"state truncated at {self.pos} (+{n})")
        v = self.b[self.pos:self.pos + n]
        self.pos += n
        return v

    def uint(self, n):
        return int.from_bytes(self.take(n), "big")

    def i64(self):
        return int.from_bytes(self.take(8), "big", signed=True)


class Checker:
    def __init__(self):
        self.ok = self.fail = 0

    def __call__(self, name, got, want):
        if got == want:
            self.ok += 1
            print(f"  ok   {name}")
        else:
            self.fail += 1
            print(f"  FAIL {name}: got {show(got)} want {show(want)}")

    def section(self, title):
        print(f"{title}:")


def show(x):
    if isinstance(x, (bytes, bytearray)):
        x = x.hex()
    s = repr(x)
    return s if len(s) < 90 else s[:87] + "..."


def self_test(check):
    check.section("XChaCha20-Poly1305 reference (draft-irtf-cfrg-xchacha)")
    hk = hchacha20(bytes(range(32)), bytes.fromhex("000000090000004a0000000031415927"))
    check("HChaCha20 §2.2.1 subkey", hk.hex(),
          "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc")
    pt = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
          b"for the future, sunscreen would be it.")
    ct = xchacha_encrypt(bytes(range(0x80, 0xA0)),
                         bytes.fromhex("404142434445464748494a4b4c4d4e4f5051525354555657"),
                         pt, bytes.fromhex("50515253c0c1c2c3c4c5c6c7"))
    check("XChaCha20-Poly1305 §A.3.1 ciphertext+tag", ct.hex(),
          "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
          "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
          "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
          "21f9664c97637da9768812f615c68b13b52e"
          "c0875924c1c7987947deafd8780acf49")


def check_state(check, v, epochs):
    """The sealed state blob and its plaintext, format 3 (docs/protocol/ratchet.md §1.11.1,
    §1.11.2)."""
    h = bytes.fromhex
    st = v["state"]
    blob, sk = h(st["sealed"]), h(st["storage_key"])
    check.section(f"sealed state ({len(blob)} bytes)")
    check("envelope magic 'PQDS'", blob[:4], b"PQDS")
    check("envelope format version", int.from_bytes(blob[4:6], "big"), 3)
    sid = blob[6:22]
    check("envelope session id (in clear)", sid.hex(), st["session_id"])
    key = dk(CTX_STATE_SEAL, sk)
    # "PQDS" || u16 version || session_id[16] || nonce[24]: the associated data.
    nonce24, ad, body = blob[22:46], blob[:46], blob[46:]
    plain = xchacha_decrypt(key, nonce24, body, ad)
    check("XChaCha20-Poly1305 opens under DK(state seal, storage_key)", plain is not None, True)
    for what, i in (("magic", 0), ("version", 5), ("session id", 6), ("session id end", 21),
                     ("nonce", 22), ("nonce end", 45),
                     ("ciphertext", 46 + (len(blob) - 62) // 2), ("tag", len(blob) - 1)):
        t = bytearray(blob)
        t[i] ^= 0x01
        t = bytes(t)
        check(f"tampered {what} byte {i} fails", xchacha_decrypt(key, t[22:46], t[46:], t[:46]), None)
    wrong = bytearray(sk)
    wrong[0] ^= 1
    check("wrong storage key fails", xchacha_decrypt(dk(CTX_STATE_SEAL, bytes(wrong)), nonce24, body, ad), None)
    check("raw storage key is not the seal key", xchacha_decrypt(sk, nonce24, body, ad), None)
    if plain is None:
        return
    r = Reader(plain)
    check("state magic 'PQDR'", r.take(4), b"PQDR")
    check("state format_version", r.uint(2), 3)
    check("state session id = the envelope's", r.take(16), sid)
    check("state kem_id", r.uint(2), v["kem_id"])
    check("state aead_id", r.uint(2), v["aead_id"])
    role = r.uint(1)
    check("state role (initiator = 0)", role, {"initiator": 0, "responder": 1}[st["role"]])
    check("state mode", r.uint(1), v["mode"])
    ww = r.uint(2)
    check("state WW", ww, st["ww"])
    check("state MS", r.uint(2), st["ms"])
    check("state generation", r.uint(8), st["generation"])
    epoch = r.uint(8)
    check("state epoch", epoch, 1)
    r.uint(1)  # flags
    r.uint(8)  # ratchets completed
    n = r.uint(1)
    check("state slot count in 1..3", 1 <= n <= 3, True)
    mine, theirs = (I2R, R2I) if role == 0 else (R2I, I2R)
    seen = []
    for i in range(n):
        e = r.uint(8)
        flags = r.uint(1)
        tag = f"slot {i} (epoch {e})"
        check(f"{tag}: epoch is 0 or 1", e in epochs, True)
        seen.append(e)
        ek = epochs.get(e)
        # rk_e/xk_e are erased once sending has moved to e+1 (§1.4.3, §1.7.5).
        check(f"{tag}: holds rk/xk iff it is the current epoch", bool(flags & 1), e == epoch)
        if flags & 1:  # rk || xk held
            rk, xk = r.take(32), r.take(32)
            check(f"{tag}: rk = DK(root carry, root_{e})", rk, ek["rk"])
            check(f"{tag}: xk = DK(exporter, root_{e})", xk, ek["xk"])
        if flags & 2:  # send chain live
            ck, seg, pos = r.take(32), r.take(32), r.uint(8)
            keys = [r.take(32) for _ in range(-pos % GROUP)]
            r.uint(8)  # packets
            r.uint(8)  # bytes
            check(f"{tag}: send position >= reserve ({pos})", pos >= st["reserve"], True)
            check(f"{tag}: send chain (ck, seg_j+1, {len(keys)} group keys) at {pos}", (ck, seg, keys),
                  chain_at(ek["seg0"][mine], pos))
        ck, seg, pos = r.take(32), r.take(32), r.uint(8)
        keys = [r.take(32) for _ in range(-pos % GROUP)]
        nxt = r.uint(8)
        check(f"{tag}: recv chain position = next ({pos})", pos, nxt)
        check(f"{tag}: recv chain (ck, seg_j+1, {len(keys)} group keys) at {pos}", (ck, seg, keys),
              chain_at(ek["seg0"][theirs], pos))
        r.take(8 * ww)  # bitmap
        stored = [(r.uint(4), r.take(32)) for _ in range(r.uint(2))]
        if stored:
            # Stored skipped keys of the peer's direction, below `next`.
            lo, hi = stored[0][0], stored[-1][0]
            seg0 = ek["seg0"][theirs]
            want, c0 = {}, lo - lo % GROUP
            ck, _, _ = chain_at(seg0, c0)
            while c0 <= hi:  # one chain walk instead of one per key
                if c0 & 0xFF == 0:
                    ck, _, _ = chain_at(seg0, c0)
                ck, gk = group_step(ck, c0)
                want.update(zip(range(c0, c0 + GROUP), group_keys(gk, c0)))
                c0 += GROUP
            bad = [c for c, k in stored if want.get(c) != k or c >= nxt]
            check(f"{tag}: {len(stored)} stored keys ({lo}..{hi}) = mk at their counters", bad, [])
        r.i64()  # started
        r.uint(8)  # rekey_at
        r.uint(1)  # has expiry
        r.i64()  # expiry
    check("state: current epoch has a slot", epoch in seen, True)
    phase = r.uint(1)
    check("state: KEM phase is not 'owner sent ek' (never exported)", phase in (0, 2, 3), True)
    r.uint(2)  # rid
    attempt_at = r.uint(4)
    check("state: attempt_at is zero unless the peer's ct is in flight", phase == 3 or attempt_at == 0, True)
    r.i64()  # started
    if phase == 3:
        r.take(len(h(v["ratchet"]["ct"])))
    r.take(1 + 1)  # blob_done, next_idx
    check("state: KEM flags use bits 0-1 only", r.uint(1) & ~3, 0)
    n_dead = r.uint(1)
    dead = [r.uint(2) for _ in range(4)]
    check("state: at most 4 dead attempt ids, unused entries zero",
          n_dead <= 4 and all(d == 0 for d in dead[n_dead:]), True)
    r.take(8 + 1 + 2 + 1 + 1 + 2 + 1)
    r.take(32)  # config digest
    check("state: parsed to the end", r.pos, len(plain))


def main(path):
    v = json.load(open(path))
    h = bytes.fromhex
    check = Checker()
    try:
        run(v, h, check)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        check.fail += 1
        print(f"  FAIL malformed vector file: {e!r}")
    print(f"{path}: {check.ok} passed, {check.fail} failed")
    return 0 if check.fail == 0 and check.ok > 0 else 1


def run(v, h, check):
    self_test(check)
    check.section("inputs and wire")
    check("version", v["version"], 2)
    check("flags byte 0x40 (version 010)", v["flags"], FLAGS_V2)
    r0 = root0(h(v["secret"]), h(v["transcript"]), h(v["context"]), v["kem_id"], v["aead_id"], v["mode"])
    c0 = children(r0)
    check.section("epoch 0")
    check("root0", r0.hex(), v["root0"])
    e0 = v["epoch0"]
    check("rk_0 = DK(root carry, root_0)", c0["rk"].hex(), e0["rk"])
    check("xk_0 = DK(exporter, root_0)", c0["xk"].hex(), e0["xk"])
    check("seg_0 i2r", c0["seg0"][I2R].hex(), e0["seg0_i2r"])
    check("seg_0 r2i", c0["seg0"][R2I].hex(), e0["seg0_r2i"])
    for name, d in (("i2r", I2R), ("r2i", R2I)):
        dv = v["directions"][name]
        seg0 = c0["seg0"][d]
        check(f"{name}.seg0", seg0.hex(), dv["seg0"])
        check(f"{name}.ck00", dk(CTX_INNER0, seg0).hex(), dv["ck00"])
        for e in dv["mk"]:
            check(f"{name}.mk[{e['counter']}]", message_key(seg0, e["counter"]).hex(), e["mk"])
    check.section("epoch-0 records (re-sealed)")
    for e in v["sealed"]:
        d = I2R if e["role"] == "initiator" else R2I
        c, ep = e["counter"], e["epoch"]
        hd = header(ep, c)
        pt = bytes([0x01]) + h(e["plaintext"])  # one DATA frame
        mk = message_key(c0["seg0"][d], c)
        sealed = ChaCha20Poly1305(mk).encrypt(nonce(d, ep, c), pt, hd + h(e["aad"]))
        check(f"record {e['role']} epoch {ep} counter {c}", (hd + sealed).hex(), e["record"])
    check.section("ratchet to epoch 1")
    rv = v["ratchet"]
    ek, ct, ss = h(rv["ek"]), h(rv["ct"]), h(rv["ss"])
    th1 = transcript_hash(1, v["kem_id"], rv["owner"], rv["rid"], ek, ct)
    check("th_1", th1.hex(), rv["th1"])
    r1 = root_step(c0["rk"], ss, th1)
    check("root_1 = DK(root step, rk_0 || ss || th_1)", r1.hex(), rv["root1"])
    check("root_1 is not v1's DK(root step, root_0 || ss || th_1)", r1 != root_step(r0, ss, th1), True)
    c1 = children(r1)
    e1 = rv["epoch1"]
    check("rk_1", c1["rk"].hex(), e1["rk"])
    check("xk_1", c1["xk"].hex(), e1["xk"])
    check("seg_0 i2r (epoch 1)", c1["seg0"][I2R].hex(), e1["seg0_i2r"])
    check("seg_0 r2i (epoch 1)", c1["seg0"][R2I].hex(), e1["seg0_r2i"])
    for name, d in (("i2r", I2R), ("r2i", R2I)):
        dv = rv["directions"][name]
        check(f"{name}.seg0 (epoch 1)", c1["seg0"][d].hex(), dv["seg0"])
        for e in dv["mk"]:
            check(f"{name}.mk[{e['counter']}] (epoch 1)", message_key(c1["seg0"][d], e["counter"]).hex(), e["mk"])
    check.section("epoch-1 records (opened with keys from root_1)")
    roles = set()
    for e in rv["records"]:
        rec = h(e["record"])
        d = I2R if e["role"] == "initiator" else R2I
        c = e["counter"]
        roles.add(e["role"])
        what = f"record {e['role']} epoch 1 counter {c}"
        check(f"{what}: header", rec[:6].hex(), header(1, c).hex())
        mk = message_key(c1["seg0"][d], c)
        try:
            pt = ChaCha20Poly1305(mk).decrypt(nonce(d, 1, c), rec[6:], rec[:6] + h(e["aad"]))
        except InvalidTag:
            pt = None
        check(f"{what}: opens", pt is not None, True)
        if pt is not None and e["plaintext"] is not None:
            check(f"{what}: ends with DATA frame", pt.endswith(b"\x01" + h(e["plaintext"])), True)
    check("epoch-1 records of both roles", roles, {"initiator", "responder"})
    check.section("exporter")
    xv = v["exporter"]
    label = h(xv["label"])
    check("epoch 0: DK(exporter, xk_0 || lp(label)), 32 bytes",
          exporter(c0["xk"], label, len(h(xv["epoch0"]))).hex(), xv["epoch0"])
    check("epoch 1: DK(exporter, xk_1 || lp(label)), 64 bytes",
          exporter(c1["xk"], label, len(h(xv["epoch1"]))).hex(), xv["epoch1"])
    check.section("Reed-Solomon symbols")
    rs = v["rs"]
    blob = h(rs["blob"])
    check("rs.k", -(-len(blob) // rs["sym_len"]), rs["k"])
    for s in rs["symbols"]:
        check(f"rs[{s['idx']}]", rs_symbol(blob, rs["sym_len"], s["idx"]).hex(), s["data"])
    check.section("flags byte of every record")
    recs = v["sealed"] + rv["records"]
    check(f"all {len(recs)} records start with 0x40", {h(e["record"])[0] for e in recs}, {FLAGS_V2})
    check_state(check, v, {0: c0, 1: c1})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "crates/pqdr-ratchet/vectors/v2.json"))

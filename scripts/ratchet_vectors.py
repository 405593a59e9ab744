#!/usr/bin/env python3
"""Independent reference for the pqdr-ratchet test vectors (RATCHET.md §3.1).

Written from RATCHET.md, not from the Rust code: recomputes root_0, the
two-level skip chain, message keys, the sealed records (ChaCha20-Poly1305),
th_1/root_1 from the recorded ek/ct/ss, the first epoch-1 records, the
Reed-Solomon symbols and the sealed state envelope, and compares them with
the JSON file. Exit status 0 iff everything matches.

    pip install blake3 cryptography
    python3 scripts/ratchet_vectors.py crates/pqdr-ratchet/vectors/v1.json
"""
import json
import sys

from blake3 import blake3
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

P = "pqdr-ratchet v1 2026-11-22T02:00Z "
CTX_ROOT_INIT = P + "root init"
CTX_KEM_TRANSCRIPT = P + "kem transcript"
CTX_ROOT_STEP = P + "root step"
CTX_SEG0 = {0: P + "segment 0 i2r", 1: P + "segment 0 r2i"}
CTX_SEG_STEP = P + "segment step"
CTX_INNER0 = P + "inner 0"
CTX_PACKET = P + "packet step"
CTX_STATE_SEAL = P + "state seal"
I2R, R2I = 0, 1
FLAGS_V1 = 0x20


def dk(ctx, data, n=32):
    return blake3(data, derive_key_context=ctx).digest(length=n)


def lp(x):
    return len(x).to_bytes(2, "big") + x


def root0(secret, transcript, context, kem_id, aead_id, mode):
    m = lp(secret) + lp(transcript) + lp(context)
    m += kem_id.to_bytes(2, "big") + aead_id.to_bytes(2, "big") + bytes([mode])
    return dk(CTX_ROOT_INIT, m)


def message_key(root, d, c):
    """Skip chain: c = j*256 + k; seg_{j+1} = DK(seg step, seg_j);
    ck_{j,0} = DK(inner 0, seg_j); ck' || mk = DK64(packet step, ck || be32(c))."""
    seg = dk(CTX_SEG0[d], root)
    for _ in range(c >> 8):
        seg = dk(CTX_SEG_STEP, seg)
    ck = dk(CTX_INNER0, seg)
    pos = (c >> 8) << 8
    while True:
        out = dk(CTX_PACKET, ck + pos.to_bytes(4, "big"), 64)
        ck, mk = out[:32], out[32:]
        if pos == c:
            return mk
        pos += 1


def nonce(d, epoch, c):
    return bytes([d, 0, 0, 0]) + (epoch % 2**32).to_bytes(4, "big") + c.to_bytes(4, "big")


def header(epoch, c):
    return bytes([FLAGS_V1, epoch % 256]) + c.to_bytes(4, "big")


# GF(2^8), polynomial 0x11d, Lagrange interpolation at points 0..k-1.
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


def main(path):
    v = json.load(open(path))
    h = bytes.fromhex
    ok = fail = 0

    def check(name, got, want):
        nonlocal ok, fail
        if got == want:
            ok += 1
        else:
            fail += 1
            print(f"MISMATCH {name}: got {got!r} want {want!r}")

    r0 = root0(h(v["secret"]), h(v["transcript"]), h(v["context"]), v["kem_id"], v["aead_id"], v["mode"])
    check("root0", r0.hex(), v["root0"])
    for name, d in (("i2r", I2R), ("r2i", R2I)):
        dv = v["directions"][name]
        seg0 = dk(CTX_SEG0[d], r0)
        check(f"{name}.seg0", seg0.hex(), dv["seg0"])
        check(f"{name}.ck00", dk(CTX_INNER0, seg0).hex(), dv["ck00"])
        for e in dv["mk"]:
            check(f"{name}.mk[{e['counter']}]", message_key(r0, d, e["counter"]).hex(), e["mk"])
    for e in v["sealed"]:
        d = I2R if e["role"] == "initiator" else R2I
        c, ep = e["counter"], e["epoch"]
        hd = header(ep, c)
        pt = bytes([0x01]) + h(e["plaintext"])  # one DATA frame
        sealed = ChaCha20Poly1305(message_key(r0, d, c)).encrypt(nonce(d, ep, c), pt, hd + h(e["aad"]))
        check(f"sealed {e['role']}@{c}", (hd + sealed).hex(), e["record"])
    rv = v["ratchet"]
    ek, ct, ss = h(rv["ek"]), h(rv["ct"]), h(rv["ss"])
    th_in = (1).to_bytes(8, "big") + v["kem_id"].to_bytes(2, "big") + bytes([rv["owner"]])
    th_in += rv["rid"].to_bytes(2, "big") + lp(ek) + lp(ct)
    th1 = dk(CTX_KEM_TRANSCRIPT, th_in)
    check("th1", th1.hex(), rv["th1"])
    r1 = dk(CTX_ROOT_STEP, r0 + ss + th1)
    check("root1", r1.hex(), rv["root1"])
    for e in rv["records"]:
        rec = h(e["record"])
        d = I2R if e["role"] == "initiator" else R2I
        c = e["counter"]
        check(f"epoch-1 header {e['role']}@{c}", rec[:6].hex(), header(1, c).hex())
        try:
            ChaCha20Poly1305(message_key(r1, d, c)).decrypt(nonce(d, 1, c), rec[6:], rec[:6] + h(e["aad"]))
            check(f"epoch-1 record {e['role']}@{c}", True, True)
        except Exception:  # InvalidTag
            check(f"epoch-1 record {e['role']}@{c}", False, True)
    rs = v["rs"]
    blob = h(rs["blob"])
    check("rs.k", -(-len(blob) // rs["sym_len"]), rs["k"])
    for s in rs["symbols"]:
        check(f"rs[{s['idx']}]", rs_symbol(blob, rs["sym_len"], s["idx"]).hex(), s["data"])
    st = v["state"]
    plain, sealed = h(st["plain"]), h(st["sealed"])
    check("state.magic", plain[:6], b"PQDR\x00\x01")
    check("state.kem_id", int.from_bytes(plain[6:8], "big"), v["kem_id"])
    check("sealed.magic", sealed[:6], b"PQDS\x00\x01")
    salt = sealed[6:22]
    key = dk(CTX_STATE_SEAL, lp(h(st["storage_key"])) + salt)
    body = ChaCha20Poly1305(key).decrypt(bytes(12), sealed[22:], sealed[:22])
    check("sealed.inner magic", body[:6], b"PQDR\x00\x01")
    gen_plain = int.from_bytes(plain[16:24], "big")
    gen_sealed = int.from_bytes(body[16:24], "big")
    check("sealed.generation", gen_sealed, gen_plain + 1)
    print(f"{ok} passed, {fail} failed")
    return 0 if fail == 0 and ok > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "crates/pqdr-ratchet/vectors/v1.json"))

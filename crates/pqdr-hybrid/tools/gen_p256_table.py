#!/usr/bin/env python3
"""Writes src/nistp256/base_table.bin, the fixed-base table of src/nistp256/base.rs.

Entry [j][m-1] (j = 0..25, m = 1..16) is the point m * 1024^j * G on P-256
(G and the curve of SP 800-186 section 3.2.1.3, y^2 = x^3 - 3x + b mod p) in
affine coordinates (x, y), each in Montgomery form (x * 2^256 mod p), as four
little-endian 64-bit limbs (8 limbs, 64 bytes per entry, 26,624 bytes).
Plain Python integers and the affine group law (SEC 1 v2 section 2.2.1).

    python3 crates/pqdr-hybrid/tools/gen_p256_table.py [--check]
"""
import pathlib
import sys

P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5
R = 2**256 % P
ROWS = 26
ENTRIES = 16


def inv(a):
    return pow(a, P - 2, P)


def add(p1, p2):
    """Affine addition of SEC 1 v2 section 2.2.1 (no identity: not needed here)."""
    (x1, y1), (x2, y2) = p1, p2
    if (x1, y1) == (x2, y2):
        lam = (3 * x1 * x1 - 3) * inv(2 * y1) % P
    else:
        assert x1 != x2
        lam = (y2 - y1) * inv(x2 - x1) % P
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def limbs(v):
    return (v * R % P).to_bytes(32, "little")


def table():
    assert (GY * GY - (GX**3 - 3 * GX + B)) % P == 0
    out = bytearray()
    base = (GX, GY)
    for _ in range(ROWS):
        q = base
        for m in range(1, ENTRIES + 1):
            out += limbs(q[0]) + limbs(q[1])
            if m < ENTRIES:
                q = add(q, base)
        for _ in range(10):  # base <- 1024 * base
            base = add(base, base)
    return bytes(out)


def main():
    path = pathlib.Path(__file__).resolve().parent.parent / "src" / "nistp256" / "base_table.bin"
    data = table()
    assert len(data) == ROWS * ENTRIES * 64
    if "--check" in sys.argv[1:]:
        if path.read_bytes() != data:
            sys.exit(f"{path}: differs from the generator's output")
        print(f"{path}: up to date")
    else:
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes src/x25519/base_table.bin, the fixed-base table of src/x25519/base.rs.

Entry [j][m-1] (j = 0..63, m = 1..8) is the point m * 16^j * B on edwards25519
(B: the base point of RFC 8032 section 5.1, birationally equivalent to u = 9 on
curve25519, RFC 7748 section 4.1) in affine form (y + x, y - x, 2*d*x*y) mod p,
each value canonical, as four little-endian 64-bit limbs (12 limbs, 96 bytes per
entry, 49,152 bytes). Plain Python integers, affine addition of RFC 8032
section 5.1.4's curve (a = -1): x3 = (x1*y2 + x2*y1) / (1 + d*x1*x2*y1*y2),
y3 = (y1*y2 + x1*x2) / (1 - d*x1*x2*y1*y2).

    python3 crates/pqdr-hybrid/tools/gen_base_table.py [--check]
"""
import pathlib
import sys

P = 2**255 - 19
D = (-121665 * pow(121666, P - 2, P)) % P  # RFC 7748 section 4.1 / RFC 8032 section 5.1
BX = 15112221349535400772501151409588531511454012693041857206046113283949847762202
BY = 46316835694926478169428394003475163141307993866256225615783033603165251855960


def inv(a):
    return pow(a, P - 2, P)


def add(p1, p2):
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * inv(1 + t) % P, (y1 * y2 + x1 * x2) * inv(1 - t) % P)


def limbs(v):
    return v.to_bytes(32, "little")


def table():
    # Self-checks: B is on the curve, and its Montgomery u = (1 + y) / (1 - y) is 9.
    assert (-BX * BX + BY * BY - 1 - D * BX * BX * BY * BY) % P == 0
    assert (1 + BY) * inv(1 - BY) % P == 9
    out = bytearray()
    base = (BX, BY)
    for _ in range(64):
        q = base
        for m in range(1, 9):
            x, y = q
            out += limbs((y + x) % P) + limbs((y - x) % P) + limbs(2 * D * x * y % P)
            q = add(q, base)
        for _ in range(4):  # base <- 16 * base
            base = add(base, base)
    return bytes(out)


def main():
    path = pathlib.Path(__file__).resolve().parent.parent / "src" / "x25519" / "base_table.bin"
    data = table()
    assert len(data) == 64 * 8 * 96
    if "--check" in sys.argv[1:]:
        if path.read_bytes() != data:
            sys.exit(f"{path}: differs from the generator's output")
        print(f"{path}: up to date")
    else:
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)")


if __name__ == "__main__":
    main()

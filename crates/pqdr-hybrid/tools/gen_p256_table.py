#!/usr/bin/env python3
"""Writes the fixed-base tables of our NIST curves: src/nistp256/base_table.bin
(src/nistp256/base.rs) and src/nistp384/base_table.bin (src/nistp384/base.rs).

P-256: entry [j][m-1] (j = 0..42, m = 1..32) is m * 64^j * G (G and the
curve of SP 800-186 section 3.2.1.3), 8 limbs, 64 bytes per entry, 88,064 bytes.
P-384: entry [j][m-1] (j = 0..19, m = 1..16) is m * 2^(20 j) * G (SP 800-186
section 3.2.1.4), 12 limbs, 96 bytes per entry, 30,720 bytes.
Each point in affine coordinates (x, y) on y^2 = x^3 - 3x + b mod p, each
coordinate in Montgomery form (x * 2^(64 L) mod p) as L little-endian 64-bit
limbs. Plain Python integers and the affine group law (SEC 1 v2 section 2.2.1).

    python3 crates/pqdr-hybrid/tools/gen_p256_table.py [--check]
"""
import pathlib
import sys

CURVES = {
    "nistp256": dict(
        p=2**256 - 2**224 + 2**192 + 2**96 - 1,
        b=0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
        gx=0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
        gy=0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
        bytes=32,
        rows=43,
        shift=6,
        entries=32,
    ),
    "nistp384": dict(
        p=2**384 - 2**128 - 2**96 + 2**32 - 1,
        b=0xB3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF,
        gx=0xAA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7,
        gy=0x3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F,
        bytes=48,
        rows=20,
        shift=20,
        entries=16,
    ),
}
def table(c):
    p, nbytes = c["p"], c["bytes"]
    r = 2 ** (8 * nbytes) % p

    def inv(a):
        return pow(a, p - 2, p)

    def add(p1, p2):
        """Affine addition of SEC 1 v2 section 2.2.1 (no identity: not needed here)."""
        (x1, y1), (x2, y2) = p1, p2
        if (x1, y1) == (x2, y2):
            lam = (3 * x1 * x1 - 3) * inv(2 * y1) % p
        else:
            assert x1 != x2
            lam = (y2 - y1) * inv(x2 - x1) % p
        x3 = (lam * lam - x1 - x2) % p
        return (x3, (lam * (x1 - x3) - y1) % p)

    def limbs(v):
        return (v * r % p).to_bytes(nbytes, "little")

    gx, gy = c["gx"], c["gy"]
    assert (gy * gy - (gx**3 - 3 * gx + c["b"])) % p == 0
    out = bytearray()
    entries = c["entries"]
    base = (gx, gy)
    for _ in range(c["rows"]):
        q = base
        for m in range(1, entries + 1):
            out += limbs(q[0]) + limbs(q[1])
            if m < entries:
                q = add(q, base)
        for _ in range(c["shift"]):  # base <- 2^shift * base
            base = add(base, base)
    assert len(out) == c["rows"] * entries * 2 * nbytes
    return bytes(out)


def main():
    root = pathlib.Path(__file__).resolve().parent.parent / "src"
    stale = False
    for name, c in CURVES.items():
        path = root / name / "base_table.bin"
        data = table(c)
        if "--check" in sys.argv[1:]:
            if not path.exists() or path.read_bytes() != data:
                print(f"{path}: differs from the generator's output", file=sys.stderr)
                stale = True
            else:
                print(f"{path}: up to date")
        else:
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    if stale:
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where the firmware uses 32x32->64 multiplies (issue #20): UMULL, SMULL,
UMLAL, SMLAL (and UMAAL, SMLALxy, SMLALD, SMLSLD). They take one cycle on the
Cortex-M4 and M7, but on the Cortex-M3 they terminate early depending on the
operands' values (3-5 cycles, 4-7 with accumulate), so a secret operand leaks
through timing there.

Reads `arm-none-eabi-objdump -d -l --inlines -C` of the ELF on stdin and prints
each such instruction's source line in our crates (the innermost frame of the
inline chain that lies in crates/), with the innermost frame when that is
elsewhere (e.g. core's `chunks_exact`, whose length arithmetic on public sizes
compiles to a multiply by a reciprocal). Exits 1 when a line of ours that
KNOWN does not describe appears: every new one must be reviewed and recorded in
README.md "Microcontrollers" (constant time on small cores).

Hardware divisions (UDIV/SDIV, or calls to __aeabi_*div) take 2-12 cycles
by operand values on the M3 and M4: each one must be public length
arithmetic inlined from core's slice iterators, or sit on a line marked
`// ct: public division` (as scripts/ct-check.sh admits on x86).

Usage: arm-none-eabi-objdump -d -l --inlines -C --no-show-raw-insn ELF | cortex-m-mull.py
"""
import re
import sys
from collections import defaultdict

DIV = re.compile(r"^\s+[0-9a-f]+:\t(udiv|sdiv)(\.w)?\t|\tbl\s.*<__aeabi_[lu]*i?div")
LONG = re.compile(r"^\s+[0-9a-f]+:\t(umull|smull|umlal|smlal|umaal|smlal[bt][bt]|smlald|smlsld)x?(\.w)?\t")
INSN = re.compile(r"^\s+[0-9a-f]+:\t")
LOC = re.compile(r"^(?:inlined by )?(/\S+):(\d+)")

# Reviewed: (file under crates/, regex on the source line's text, operands).
# Keyed by text, not line number, so that edits elsewhere do not matter.
KNOWN = [
    ("pqdr-mlkem/src/.*", r"COMPRESS_M|compress",
     "SECRET: Compress_d (FIPS 203 (4.7)) as a multiply-shift, on u, v and m'"),
    ("pqdr-mldsa/src/.*", r"wrapping_mul|mont\(|i64::from",
     "SECRET: Montgomery products (FIPS 204 Algorithm 49: NTT, pointwise products)"),
    ("pqdr-ntrup/src/.*", r"self\.m\)|\* m\)|quotient|divmod",
     "SECRET: reduction mod q / division by a constant as a multiply-shift"),
    ("pqdr-mceliece/src/pk_gen/t_stage.rs", r"ct: public division", "public: row sizes"),
    ("pqdr-mceliece/src/controlbits.rs", r"sort_records", "public: record index arithmetic"),
    # The same network's driver since it serves both paths (issue #31).
    ("pqdr-mceliece/src/sort/records.rs", r"sort_records_with\(Portable", "public: record index arithmetic"),
    # UMULL by 0xAAAAAAAB then a shift: a public length divided by 384 (the
    # bytes of one row of ek) for the k-row loop of key generation (which
    # starts at row 1 when ê[0] rode in a spare Keccak lane: `ride_e`, a
    # public function of k and the backend).
    ("pqdr-mlkem/src/kpke.rs", r"for i in (0|usize::from\(ride_e\))\.\.P::K \{", "public: rows of ek (a length / 384)"),
    (r"[\w-]+/src/.*", r"chunks_exact|\.zip\(|enumerate\(\)",
     "public: slice length arithmetic (inlined from core)"),
]


def review(path, line):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    rel = re.search(r"/crates/(.*)$", path).group(1)
    for file_re, text_re, note in KNOWN:
        if re.fullmatch(file_re, rel) and re.search(text_re, text):
            return note
    return None


def public_div(chain):
    """A division is admitted when its innermost frame is core's slice/iterator
    length arithmetic, or a line of ours (or the line above) says
    `// ct: public division`, as scripts/ct-check.sh admits on x86."""
    if chain and re.search(r"/library/core/src/(slice|iter)/", chain[0][0]):
        return True
    for path, line in chain:
        if "/crates/" not in path:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        if any("ct: public division" in t for t in lines[max(0, line - 2):line]):
            return True
    return False


def origin(chain):
    """(our innermost frame, innermost frame) of an inline chain."""
    ours = next((c for c in chain if "/crates/" in c[0]), None)
    inner = chain[0] if chain else ("?", 0)
    return ours, inner


def short(path):
    m = re.search(r"/crates/(.*)$", path) or re.search(r"/library/(.*)$", path) or re.search(r"/([^/]+/src/.*)$", path)
    return m.group(1) if m else path


def self_test() -> int:
    """The gate can fail: an unreviewed long multiply and an unmarked division
    in a file of ours must both be reported."""
    import io
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    kem = os.path.join(os.path.dirname(here), "crates/pqdr-mlkem/src/kem.rs")
    fake = (f"00000100 <f>:\n{kem}:1\n   100:\tumull\tr0, r1, r2, r3\n"
            f"{kem}:2\n   104:\tudiv\tr0, r1, r2\n")
    out = io.StringIO()
    sys.stdin, real = io.StringIO(fake), sys.stdin
    sys.stdout, real_out = out, sys.stdout
    try:
        rc = main()
    finally:
        sys.stdin, sys.stdout = real, real_out
    text = out.getvalue()
    ok = rc == 1 and "NOT REVIEWED" in text and "NOT ADMITTED" in text
    print("cortex-m-mull self-test: " + ("the gate fails on an unreviewed multiply and division (as it must)" if ok else "BROKEN\n" + text))
    return 0 if ok else 1


def main() -> int:
    chain, fresh = [], False
    rows = defaultdict(int)
    paths = {}
    divs = defaultdict(int)
    for line in sys.stdin:
        m = LOC.match(line)
        if m:
            if fresh:
                chain, fresh = [], False
            chain.append((m.group(1), int(m.group(2))))
            continue
        if INSN.match(line):
            fresh = True
            if DIV.search(line):
                ours, inner = origin(chain)
                where = f"{short(ours[0])}:{ours[1]}" if ours else "-"
                divs[(where, f"{short(inner[0])}:{inner[1]}", public_div(chain))] += 1
            if LONG.match(line):
                ours, inner = origin(chain)
                if ours:
                    paths[f"{short(ours[0])}:{ours[1]}"] = ours[0]
                key = (f"{short(ours[0])}:{ours[1]}" if ours else "-",
                       "" if ours else f"{short(inner[0])}:{inner[1]}")
                rows[key] += 1
        elif re.match(r"^[0-9a-f]+ <", line):
            chain, fresh = [], False
    print("32x32->64 multiplies per source line (one cycle on Cortex-M4/M7; early")
    print("termination on operand values on Cortex-M3)")
    unknown = 0
    notes = {}
    for (ours, inner), n in sorted(rows.items()):
        if ours == "-":
            note = "outside our crates: " + inner
        else:
            note = review(paths[ours], int(ours.rsplit(":", 1)[1])) or "NOT REVIEWED"
            unknown += note == "NOT REVIEWED"
        print(f"  {n:>4}  {ours:<36} {note}")
    print("hardware divisions (UDIV/SDIV: 2-12 cycles by operand values on M3 and M4)")
    for (where, inner, ok), n in sorted(divs.items()):
        print(f"  {n:>4}  {where:<36} {'public: ' + inner if ok else 'NOT ADMITTED: ' + inner}")
        unknown += not ok
    if unknown:
        print(f"cortex-m-mull: {unknown} unreviewed long multiply / division site(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main())

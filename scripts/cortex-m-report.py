#!/usr/bin/env python3
"""Table for scripts/cortex-m-check.sh (issue #20).

Usage: cortex-m-report.py QEMU_LOG NM_OUTPUT
QEMU_LOG: the firmware's semihosting output (STACK/CHECK/PASS lines).
NM_OUTPUT: `arm-none-eabi-nm -C -S` of the firmware ELF. Code is attributed to
the crate that names the function symbol (generic code instantiated by the
firmware still carries the primitive crate's path; inlined callees count for
their caller); per parameter set, symbols naming the set's type count for that
set, the rest of the crate is "shared" by every set.
Exit status 1 if the log has a FAIL/overflow/PANIC line or no PASS line.
"""
import collections
import re
import sys

CRATES = ["pqdr_mlkem", "pqdr_mldsa", "pqdr_ntrup", "pqdr_mceliece", "pqdr_keccak", "pqdr_ctgrind", "pqdr_common"]
SET_TYPE = re.compile(r"(MlKem\d+|MlDsa\d+|Sntrup\d+|Mceliece\w+?)\b")


def main() -> int:
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
    nm = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()

    # A stack overflow (the painted region exhausted) fails; an instruction
    # count beyond the counter's range is only reported.
    bad = [
        l
        for l in log
        if " FAIL" in l
        or l.startswith(("FAIL", "PANIC"))
        or (l.startswith("STACK") and l.split()[-2:-1] == ["overflow"])
    ]
    passed = "PASS" in log

    # CALIBRATION <instructions> <ticks>: a loop of known length, timed by SysTick.
    per_tick = None
    for l in log:
        p = l.split()
        if p and p[0] == "CALIBRATION" and len(p) == 3 and int(p[2]) > 0:
            per_tick = int(p[1]) / int(p[2])
    if per_tick is None or abs(per_tick - 1000) > 1:
        bad.append(f"instruction-count calibration: {per_tick} instructions per tick, want 1000")
    print(f"{'operation (Cortex-M4F, QEMU mps2-an386)':<44} {'stack (B)':>10} {'instructions':>14}")
    for l in log:
        p = l.split()
        if p and p[0] == "STACK":
            if p[-1] == "overflow":
                instr = ">16.7e9"
            else:
                instr = f"{int(p[-1]) * 1000:,}" if per_tick else "?"
            print(f"{p[1] + ' ' + ' '.join(p[2:-2]):<44} {p[-2]:>10} {instr:>14}")
    print("(instructions: SysTick at 1 MHz under -icount shift=0, 1000-instruction resolution;")
    print(" measured operations draw randomness from a fast test generator, not the KAT DRBG)")

    size = collections.Counter()
    per_set = collections.defaultdict(collections.Counter)
    text = 0
    for l in nm:
        p = l.split(" ", 3)
        if len(p) < 4 or p[2] not in ("t", "T"):
            continue
        n = int(p[1], 16)
        text += n
        m = re.match(r"[<\[&]*([A-Za-z_][A-Za-z0-9_]*)", p[3])
        crate = m.group(1) if m else "?"
        if crate in CRATES:
            size[crate] += n
            s = SET_TYPE.search(p[3])
            # sntrup's core is generic over p (and q) only: `recipq3::<761, 4591>`.
            c = re.search(r"::<(653|761|857|953|1013|1277)[,>]", p[3]) if crate == "pqdr_ntrup" else None
            key = s.group(1) if s else f"Sntrup{c.group(1)}" if c else "shared"
            per_set[crate][key] += n
    print()
    print(f"{'code (.text by symbol, opt-level s)':<44} {'bytes':>10}")
    for c in CRATES:
        if size[c]:
            print(f"{c:<44} {size[c]:>10}")
            for k, v in sorted(per_set[c].items(), key=lambda kv: (kv[0] != "shared", kv[0])):
                print(f"  {k:<42} {v:>10}")
    print(f"{'firmware total (all functions)':<44} {text:>10}")
    print()
    for l in log:
        if l.startswith("CHECK"):
            print(l)
    if bad or not passed:
        print("cortex-m-check: FAILED", *bad, sep="\n  ")
        return 1
    print("cortex-m-check: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

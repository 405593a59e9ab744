#!/usr/bin/env python3
"""Largest stack frames per primitive crate in the firmware (issue #20): where
the stack of an operation goes. Reads `arm-none-eabi-objdump -d -C` of the ELF
on stdin and sums each function's `sub sp, #N` (its fixed frame; pushed
registers not included).

Usage: arm-none-eabi-objdump -d -C --no-show-raw-insn ELF | cortex-m-frames.py [N]
"""
import re
import sys

CRATES = ["pqdr_mlkem", "pqdr_mldsa", "pqdr_ntrup", "pqdr_mceliece"]


def main() -> int:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    fn = None
    frames = {}
    for line in sys.stdin:
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            fn = m.group(1)
            continue
        m = re.search(r"\tsub(?:w|\.w)?\tsp, (?:sp, )?#(\d+)", line)
        if m and fn:
            frames[fn] = frames.get(fn, 0) + int(m.group(1))
    print(f"largest stack frames per crate (bytes, fixed frame of one function)")
    for crate in CRATES:
        rows = sorted(
            ((n, f) for f, n in frames.items() if re.match(rf"[<]*{crate}::", f)),
            reverse=True,
        )[:top]
        if not rows:
            continue
        print(crate)
        for n, f in rows:
            f = re.sub(r"pqdr_\w+::(params|types)::", "", f)
            print(f"  {n:>8}  {f[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

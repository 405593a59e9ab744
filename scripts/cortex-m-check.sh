#!/usr/bin/env bash
# Builds the Cortex-M4F sysroot (scripts/cortex-m-sysroot.sh, if missing), builds
# embedded/ (the firmware test, opt-level s) and runs it under QEMU mps2-an386
# with semihosting; prints stack per operation and code size per crate, and
# fails on any KAT/round-trip mismatch (issue #20).
#   --tamper      also build with `--features tamper` (first KAT seed altered)
#                 and require that run to FAIL: shows the checks can fail.
#   --mldsa-smallest-stack  also run ML-KEM and ML-DSA with ML-DSA's `smallest-stack`.
#   --mlkem-small-stack  also run them with ML-KEM's `small-stack`.
#   --small       one extra build with both (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TC=${CORTEX_M_TOOLCHAIN:-+nightly}
TARGET=thumbv7em-none-eabihf
OUT=${CARGO_TARGET_DIR:-$ROOT/target}/cortex-m
SYSROOT=$(scripts/cortex-m-sysroot.sh | tail -n 1)
LLD=$(rustc $TC --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld
export RUSTFLAGS="--sysroot $SYSROOT -C linker=$LLD -C link-arg=-Tlink.x"
# The firmware profile's `debug = true` (embedded/Cargo.toml): the multiply /
# division gate (cortex-m-mull.py) maps every instruction to its source line.
# .ci/run exports CARGO_PROFILE_RELEASE_DEBUG=false for its own builds, which
# would override the profile and leave every site at "?:0", unreviewable.
export CARGO_PROFILE_RELEASE_DEBUG=true
ELF=$OUT/build/$TARGET/release/pqdr-embedded
# -icount shift=0: the virtual clock advances 1 ns per instruction, which
# SysTick turns into instruction counts (embedded/src/ticks.rs).
QEMU=(qemu-system-arm -M mps2-an386 -nographic -monitor none
      -icount shift=0,align=off,sleep=off
      -semihosting-config enable=on,target=native -kernel)

build() {
  # From embedded/ so that its .cargo/config.toml (target, runner) applies.
  (cd embedded && cargo $TC build --release --target $TARGET --target-dir "$OUT/build" "$@")
}

TAMPER=0 VARIANTS=()
for a in "$@"; do
  case $a in
    --tamper) TAMPER=1 ;;
    --mldsa-smallest-stack) VARIANTS+=(mldsa-smallest-stack) ;;
    --mlkem-small-stack) VARIANTS+=(mlkem-small-stack) ;;
    # Both small-memory configurations in one build (what CI runs).
    --small) VARIANTS+=(mldsa-smallest-stack,mlkem-small-stack) ;;
    *) echo "usage: $0 [--tamper] [--mldsa-smallest-stack] [--mlkem-small-stack] [--small]" >&2; exit 2 ;;
  esac
done

if [ $TAMPER = 1 ]; then
  build --features tamper
  if timeout 600 "${QEMU[@]}" "$ELF" > "$OUT/tamper.log" 2>&1; then
    cat "$OUT/tamper.log"; echo "cortex-m-check: the tampered run passed" >&2; exit 1
  fi
  grep -q "kat-first-record-sha256 FAIL" "$OUT/tamper.log" ||
    { cat "$OUT/tamper.log"; echo "cortex-m-check: tampered run failed without a KAT mismatch" >&2; exit 1; }
  echo "cortex-m-check: tampered KAT seed detected ($(grep -c 'kat-first-record-sha256 FAIL' "$OUT/tamper.log") sets)"
fi

# A variant build (features of embedded/Cargo.toml): ML-KEM and ML-DSA run
# with the variant's small-memory options, with every KAT check.
for v in ${VARIANTS[@]+"${VARIANTS[@]}"}; do
  name=${v//,/+}
  build --features "$v"
  rc=0
  timeout 600 "${QEMU[@]}" "$ELF" > "$OUT/$name.log" 2>&1 || rc=$?
  arm-none-eabi-nm -C -S "$ELF" > "$OUT/nm-$name.txt"
  echo "=== features $v (mlkem-small-stack = ML-KEM small-stack; mldsa-smallest-stack = ML-DSA smallest-stack) ==="
  python3 scripts/cortex-m-report.py "$OUT/$name.log" "$OUT/nm-$name.txt" || rc=1
  [ "$rc" = 0 ] || { cat "$OUT/$name.log"; echo "cortex-m-check: run with $v FAILED" >&2; exit 1; }
  echo "=== default features ==="
done

build
rc=0
timeout 600 "${QEMU[@]}" "$ELF" > "$OUT/run.log" 2>&1 || rc=$?
arm-none-eabi-nm -C -S "$ELF" > "$OUT/nm.txt"
python3 scripts/cortex-m-report.py "$OUT/run.log" "$OUT/nm.txt" || rc=1
echo
arm-none-eabi-objdump -d -C --no-show-raw-insn "$ELF" | python3 scripts/cortex-m-frames.py 4
echo
# Long multiplies (UMULL/SMULL/...): constant time on the M4, not on the M3;
# every source line of ours that has one must be reviewed (README.md,
# "Microcontrollers").
python3 scripts/cortex-m-mull.py --self-test || rc=1
arm-none-eabi-objdump -d -l --inlines -C --no-show-raw-insn "$ELF" | python3 scripts/cortex-m-mull.py || rc=1
if [ "$rc" != 0 ]; then
  echo "--- firmware output ---"; cat "$OUT/run.log"
  echo "cortex-m-check: FAILED (exit $rc)" >&2
  exit 1
fi

#!/usr/bin/env bash
# Builds a Rust sysroot for thumbv7em-none-eabihf (Cortex-M4F) without
# `rustup target add` (issue #20). Idempotent; output under target/cortex-m/.
#
#  1. core's source is rebuilt from the rust-docs component's rustdoc source
#     pages (scripts/rustdoc-src-extract.py), plus stand-ins for what the x86-64
#     pages leave out (scripts/cortex-m/): empty .md stubs for include_str!,
#     core_arch's arm_shared/barrier/{common,not_mclass}.rs, core_simd's
#     vendor/arm.rs;
#  2. core is compiled for the target with the installed nightly;
#  3. compiler_builtins is replaced by scripts/cortex-m/compiler_builtins.rs
#     (mem* functions) with Debian's libgcc.a (gcc-arm-none-eabi) bundled in.
#
# Needs: the nightly toolchain with rust-docs, python3; installs
# gcc-arm-none-eabi and qemu-system-arm with apt-get when missing.
# Prints the sysroot path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=thumbv7em-none-eabihf
TC=${CORTEX_M_TOOLCHAIN:-+nightly}
OUT=${CARGO_TARGET_DIR:-$ROOT/target}/cortex-m
SYSROOT=$OUT/sysroot
LIB=$SYSROOT/lib/rustlib/$TARGET/lib

need=()
command -v arm-none-eabi-gcc >/dev/null || need+=(gcc-arm-none-eabi)
command -v qemu-system-arm >/dev/null || need+=(qemu-system-arm)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
  echo "cortex-m-sysroot: installing ${need[*]}" >&2
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get install -y --no-install-recommends "${need[@]}" >&2 ||
    { $SUDO apt-get update >&2 && $SUDO apt-get install -y --no-install-recommends "${need[@]}" >&2; }
fi

HOST_SYSROOT=$(rustc $TC --print sysroot)
VERSION=$(rustc $TC -vV | sed -n 's/^commit-hash: //p')
LIBGCC=$(arm-none-eabi-gcc -mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -print-libgcc-file-name)
STAMP="$VERSION $(sha256sum scripts/rustdoc-src-extract.py scripts/cortex-m/*.rs "$0" "$LIBGCC" | sha256sum | cut -c1-16)"
if [ -f "$OUT/stamp" ] && [ "$(cat "$OUT/stamp")" = "$STAMP" ] && [ -f "$LIB/libcompiler_builtins.rlib" ]; then
  echo "cortex-m-sysroot: up to date" >&2
  echo "$SYSROOT"
  exit 0
fi

DOCS=$HOST_SYSROOT/share/doc/rust/html/src/core
[ -f "$DOCS/lib.rs.html" ] || { echo "cortex-m-sysroot: no rustdoc source pages at $DOCS (rustup component add rust-docs --toolchain nightly)" >&2; exit 1; }

rm -rf "$OUT/src" "$SYSROOT" "$OUT/stamp"
mkdir -p "$OUT/src" "$LIB"
echo "cortex-m-sysroot: extracting core from $DOCS" >&2
python3 scripts/rustdoc-src-extract.py "$DOCS" "$OUT/src" >&2
L=$OUT/src/library
ARCH=$L/stdarch/crates/core_arch/src
for f in common not_mclass; do
  [ -f "$ARCH/arm_shared/barrier/$f.rs" ] || cp "scripts/cortex-m/barrier_$f.rs" "$ARCH/arm_shared/barrier/$f.rs"
done
VEND=$L/portable-simd/crates/core_simd/src/vendor
[ -f "$VEND/arm.rs" ] || cp scripts/cortex-m/core_simd_vendor_arm.rs "$VEND/arm.rs"
# include_str!("x.md") (also through macros: every "*.md" literal), relative
# to the including file: empty stubs.
find "$L" -name '*.rs' -print0 | while IFS= read -r -d '' rs; do
  { grep -oE '"[A-Za-z0-9_./-]+\.md"' "$rs" || true; } | tr -d '"' |
    while IFS= read -r md; do
      p=$(dirname "$rs")/$md
      [ -e "$p" ] || { mkdir -p "$(dirname "$p")"; : > "$p"; }
    done
done

FLAGS=(--target "$TARGET" -C opt-level=3 -C panic=abort -C debuginfo=0 -C embed-bitcode=yes
       -Z force-unstable-if-unmarked --cap-lints allow)
echo "cortex-m-sysroot: building core" >&2
rustc $TC --edition 2024 --crate-type lib --crate-name core "${FLAGS[@]}" \
  -C metadata=pqdr-cortex-m --out-dir "$LIB" "$L/core/src/lib.rs"

echo "cortex-m-sysroot: building compiler_builtins (+ $LIBGCC)" >&2
rustc $TC --edition 2024 --crate-type lib --crate-name compiler_builtins "${FLAGS[@]}" \
  --sysroot "$SYSROOT" -C metadata=pqdr-cortex-m -C codegen-units=1 \
  -L "native=$(dirname "$LIBGCC")" -l static=gcc \
  --out-dir "$LIB" scripts/cortex-m/compiler_builtins.rs

echo "$STAMP" > "$OUT/stamp"
echo "cortex-m-sysroot: done" >&2
echo "$SYSROOT"

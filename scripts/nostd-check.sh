#!/usr/bin/env bash
# Checks crates/pqdr-nostd-check: a #![no_std] staticlib with its own panic handler that
# calls every library crate built with default-features = false. Any use of
# `std` anywhere in that dependency graph fails this check: the second
# `panic_impl` lang item is an error of the analysis (E0152), which `cargo
# check` runs, so no code is generated (issue #37 item 7: the release build
# this used to be took about 2 minutes of CI). `-D warnings`: the crates'
# no-default-features configurations compile without warnings too (unused
# imports and functions that only one feature uses). The Cortex-M4F firmware
# (scripts/cortex-m-check.sh) links the primitive crates for a target that has
# no `std` at all.
#   --self-test   first build with the crate's feature `plant-std` (an
#                 `extern crate std;` in it) and require the check to fail
#                 with E0152: the check can fail.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${CARGO_TARGET_DIR:-target}/nostd"
check() {
  RUSTFLAGS="-D warnings" cargo check --release --manifest-path crates/pqdr-nostd-check/Cargo.toml \
    --target-dir "$out" "$@"
}
if [ "${1:-}" = --self-test ]; then
  mkdir -p "$out"
  if check --features plant-std 2>"$out/planted.log"; then
    echo "no_std check self-test: a planted \`extern crate std\` was NOT detected" >&2; exit 1
  fi
  grep -q "E0152" "$out/planted.log" || { cat "$out/planted.log"; echo "no_std check self-test: failed without E0152" >&2; exit 1; }
  echo "no_std check self-test: a planted \`extern crate std\` is detected (E0152)"
fi
check
echo "no_std check: ok"

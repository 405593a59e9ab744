#!/usr/bin/env bash
# Builds crates/pqdr-nostd-check: a #![no_std] staticlib with its own panic handler that
# calls every primitive crate built with default-features = false. Any use of
# `std` anywhere in that dependency graph fails this build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --manifest-path crates/pqdr-nostd-check/Cargo.toml \
  --target-dir "${CARGO_TARGET_DIR:-target}/nostd"
echo "no_std check: ok"

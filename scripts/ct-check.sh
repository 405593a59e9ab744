#!/usr/bin/env bash
# Constant-time check (CONSTANT-TIME.md recipes A and B).
#
# 1. Runs every crate's tests/ct_valgrind.rs under valgrind memcheck, with the
#    secret inputs marked undefined by pqdr-ct's client requests and the
#    in-crate declassification hooks enabled (--cfg pqct_valgrind). Any report
#    (a branch or memory index that depends on a secret) fails the run.
# 2. Proves the harness is live: the canary tests in crates/ct/tests/canary.rs
#    branch / index on a secret and MUST be reported.
# 3. Scans the compiled test binaries for hardware divisions in our sources.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }

export CARGO_TARGET_DIR="${CT_TARGET_DIR:-$PWD/target/ct}"
export RUSTFLAGS="--cfg pqct_valgrind"
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
VG="valgrind -q --error-exitcode=1 --track-origins=yes --max-stackframe=33554432 --main-stacksize=67108864"

# Packages that have a tests/ct_valgrind.rs.
pkgs=()
for d in crates/*/; do
  if [ -f "$d/tests/ct_valgrind.rs" ]; then
    pkgs+=(-p "$(sed -n 's/^name = "\(.*\)"/\1/p' "$d/Cargo.toml" | head -1)")
  fi
done
echo "constant-time check of: ${pkgs[*]}"
cargo test --release "${pkgs[@]}" --test ct_valgrind --no-run
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
  cargo test --release "${pkgs[@]}" --test ct_valgrind -- --test-threads=1
echo "constant-time check: clean"

# Negative control: each canary must make valgrind fail.
cargo test --release -p pqdr-ct --test canary --no-run
for t in canary_branch_is_detected canary_index_is_detected; do
  log=$(mktemp)
  if CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
       cargo test --release -p pqdr-ct --test canary -- --ignored --exact "$t" >"$log" 2>&1; then
    cat "$log"; echo "canary $t was NOT detected: the harness is broken"; exit 1
  fi
  grep -qE "depends on uninitialised value|Use of uninitialised value" "$log" \
    || { cat "$log"; echo "canary $t failed for another reason"; exit 1; }
  echo "canary $t: detected (as it must be)"
done

# Division scan of the ct_valgrind binaries (KyberSlash class; memcheck is blind to div).
found=0
for b in "$CARGO_TARGET_DIR"/release/deps/ct_valgrind-*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  if ! objdump -d -l --no-show-raw-insn -C "$b" | awk '
      /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
      /^\/.*:[0-9]+/      { src = $1; next }
      /\t(div|idiv)[a-z]*[ \t]/ {
        if (src ~ /\/crates\/(mlkem|mldsa|mceliece|ntrup|pqdr-ratchet)\/src\//) { print src "\t" fn; print "\t" $0; n++ }
      }
      END { if (n) { print n " divide(s) in our sources"; exit 1 } }'; then
    found=1
  fi
done
[ "$found" = 0 ] || { echo "division scan: FAILED"; exit 1; }
echo "division scan: clean"

# pqdr-handshake. Its tests/ct_valgrind.rs (whole handshakes of every suite
# with sigma, static keys, X25519 scalars, psk, biscuit/cookie secrets and the
# RNG's coin seeds classified) runs in the first step with the other crates.
# Here: its two canaries (a branch on the initiator's and on the responder's
# output) must be reported at the canary's own line, and no division may be
# compiled from the handshake's sources.
cargo test --release -p pqdr-handshake --test ct_valgrind --no-run
for t in canary_initiator_secret canary_responder_secret; do
  log=$(mktemp)
  if CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
       cargo test --release -p pqdr-handshake --test ct_valgrind -- --ignored --exact "$t" >"$log" 2>&1; then
    cat "$log"; echo "handshake canary $t was NOT detected: the harness is broken"; exit 1
  fi
  grep -qE "Conditional jump or move depends on uninitialised value" "$log" \
    && grep -qE "at 0x[0-9A-F]+: (ct_valgrind::)?$t \(ct_valgrind.rs:[0-9]+\)" "$log" \
    || { cat "$log"; echo "handshake canary $t failed for another reason"; exit 1; }
  echo "handshake canary $t: detected (as it must be)"
done
for b in "$CARGO_TARGET_DIR"/release/deps/ct_valgrind-*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  objdump -d -l --no-show-raw-insn -C "$b" | awk '
      /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
      /^\/.*:[0-9]+/      { src = $1; next }
      /\t(div|idiv)[a-z]*[ \t]/ {
        if (src ~ /\/crates\/pqdr-handshake\/src\//) { print src "\t" fn; print "\t" $0; n++ }
      }
      END { if (n) { print n " divide(s) in pqdr-handshake sources"; exit 1 } }' \
    || { echo "handshake division scan: FAILED"; exit 1; }
done
echo "handshake division scan: clean"

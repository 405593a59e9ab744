#!/usr/bin/env bash
# Interop with BouncyCastle 1.87 (interop/bouncycastle/README.md), both directions:
# each side writes keys, ciphertexts, signatures and key files for every shared
# parameter set into a temporary directory, then checks the other side's files.
# Every check prints `ok|FAIL <set> <direction> <what>`; the last line is
# `bc-interop: N passed, M failed` and the exit status is 1 if M > 0.
#
#   scripts/bc-interop.sh            one exchange (fresh random seeds)
#   scripts/bc-interop.sh --full     five exchanges, each with fresh seeds
#   scripts/bc-interop.sh --rounds N
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "--- [+$(( $(date +%s) - start ))s] $*" >&2; }

rounds=1
case "${1:-}" in
  --full) rounds=5 ;;
  --rounds) rounds="${2:?--rounds N}" ;;
  "") ;;
  *) echo "usage: $0 [--full | --rounds N]" >&2; exit 2 ;;
esac

# A fresh Debian machine lacks Java and Maven.
if ! command -v mvn >/dev/null || ! command -v javac >/dev/null; then
  apt-get update -qq && apt-get install -y -qq maven openjdk-17-jdk-headless >/dev/null
fi

step "build: BouncyCastle classpath (Maven), javac, cargo build --release --example bc_interop"
bc=interop/bouncycastle
mkdir -p "$bc/target/classes"
# The classpath (bcprov, bcpkix, bcutil 1.87): offline from the local repository
# once resolved, so Maven downloads only on the first run.
(cd "$bc" && { mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath >/dev/null 2>&1 ||
               mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/classpath; })
cp="$(cat "$bc/target/classpath")"
javac -nowarn -d "$bc/target/classes" -cp "$cp" "$bc"/src/main/java/pqdr/interop/*.java
cargo build --release --workspace --example bc_interop 2>&1 | grep -vE "^\s*(Compiling|Finished)" || true
pqdr="${CARGO_TARGET_DIR:-target}/release/examples/bc_interop"
test -x "$pqdr"
bcrun() { java -cp "$bc/target/classes:$cp" pqdr.interop.Main "$@"; }
echo "versions: $(java -version 2>&1 | head -1), $(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g'), BouncyCastle $(basename "$(dirname "${cp%%:*}")")"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for round in $(seq 1 "$rounds"); do
  dir="$tmp/$round"
  mkdir -p "$dir"
  step "round $round: gen (both sides at once)"
  # Both sides write at once (the machine has two cores), then check at once.
  "$pqdr" gen "$dir" & p=$!
  bcrun gen "$dir" || echo "FAIL bouncycastle gen" | tee -a "$tmp/all.log"
  wait "$p" || echo "FAIL pqdr gen" | tee -a "$tmp/all.log"
  step "round $round: check (both sides at once)"
  "$pqdr" check "$dir" >"$dir/pqdr.log" 2>&1 & p=$!
  bcrun check "$dir" >"$dir/bc.log" 2>&1 || true
  wait "$p" || true
  grep -hE "^(ok|FAIL) " "$dir/bc.log" "$dir/pqdr.log" | tee -a "$tmp/all.log"
  # Anything else (an exception, a panic) is shown and counted as a failure.
  if grep -hvE "^(ok|FAIL) |^(bc|pqdr): [0-9]+ passed" "$dir/bc.log" "$dir/pqdr.log"; then
    echo "FAIL unexpected output" | tee -a "$tmp/all.log"
  fi
done
step "done"
passed=$(grep -c "^ok " "$tmp/all.log" || true)
failed=$(grep -c "^FAIL " "$tmp/all.log" || true)
echo "bc-interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

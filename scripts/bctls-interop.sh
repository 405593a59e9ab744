#!/usr/bin/env bash
# Live TLS 1.3 on 127.0.0.1 between pqdr-rustls and BouncyCastle's JSSE
# provider (BCJSSE, bctls 1.84; interop/bctls/README.md): ML-DSA-44/65/87
# certificates with mutual authentication, over X25519MLKEM768,
# SecP256r1MLKEM768, SecP384r1MLKEM1024, MLKEM512, MLKEM768 and MLKEM1024,
# with both sides' default groups and through a HelloRetryRequest,
# rustls client -> BCJSSE server and BCJSSE
# client -> rustls server, plus a certificate from another CA refused by each
# side in each role. The Rust side
# (crates/pqdr-rustls/examples/bctls_peer.rs) drives one BCJSSE JVM over
# stdin/stdout and starts and stops every connection itself.
# Every check prints `ok|FAIL <set> <group> <direction> ...`; the last line is
# `bctls-interop: N passed, M failed` and the exit status is 1 if M > 0.
#
#   scripts/bctls-interop.sh                        the run
#   scripts/bctls-interop.sh --plant wrong-ca       the checks failing on purpose:
#   scripts/bctls-interop.sh --plant wrong-scheme   FAIL lines, non-zero exit
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "--- [+$(( $(date +%s) - start ))s] $*" >&2; }

case "${1:-}" in
  --plant) plant=(--plant "${2:?--plant wrong-ca|wrong-scheme}") ;;
  "") plant=() ;;
  *) echo "usage: $0 [--plant wrong-ca|wrong-scheme]" >&2; exit 2 ;;
esac

# A fresh Debian machine lacks Java and Maven.
if ! command -v mvn >/dev/null || ! command -v javac >/dev/null; then
  apt-get update -qq && apt-get install -y -qq maven openjdk-17-jdk-headless >/dev/null
fi

step "build: bctls 1.84 classpath (Maven), javac, cargo build --release --example bctls_peer"
bc=interop/bctls
mkdir -p "$bc/target/classes"
# The classpath (bcprov, bcutil, bcpkix, bctls 1.84): offline from the local
# repository once resolved, so Maven downloads only on the first run.
(cd "$bc" && { mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath >/dev/null 2>&1 ||
               mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/classpath; })
cp="$(cat "$bc/target/classpath")"
javac -nowarn -d "$bc/target/classes" -cp "$cp" "$bc"/src/main/java/pqdr/interop/bctls/*.java
# --workspace: the feature resolution of .ci/run's `cargo test --workspace
# --release`, which already built this example (no rebuild in CI).
cargo build --release --workspace --example bctls_peer 2>&1 | { grep -vE "^\s*(Compiling|Finished)" || true; }
peer="${CARGO_TARGET_DIR:-target}/release/examples/bctls_peer"
test -x "$peer"

step "run: 3 ML-DSA levels x (6 groups + defaults + HRR) x 2 directions, mutual authentication; 12 refusals"
"$peer" "${plant[@]}" -- java -cp "$bc/target/classes:$cp" pqdr.interop.bctls.Peer

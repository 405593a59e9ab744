#!/usr/bin/env bash
# Extra CI checks beyond the README test command: ACVP case counts, the
# ratchet's independent Python reference, the ratchet examples over real
# loopback sockets, and a fuzz smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
# Each step's start: wall seconds since the start, and the CPU seconds (user +
# system) of this script's finished child processes so far (`times`).
cpu_tmp=$(mktemp)
step() {
  times >"$cpu_tmp"
  echo
  echo "--- [+$(( $(date +%s) - start ))s, $(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } printf "%d", s }' "$cpu_tmp") CPU s] $*"
}
# run_example NAME ARGS...: builds example NAME with the workspace's feature
# resolution (a no-op after .ci/run's `cargo test --workspace --release`,
# which built it) and runs it. `cargo run --example` resolves the root
# package alone (no dev-dependency features of the other members) and so
# rebuilds every pqdr crate.
run_example() {
  local n=$1
  shift
  cargo build -q --release --workspace --example "$n"
  "${CARGO_TARGET_DIR:-target}/release/examples/$n" "$@"
}

# --workspace: the same feature resolution as .ci/run's `cargo test --workspace
# --release`, so these test binaries (the `all` binaries of crates/pqdr-mlkem
# and crates/pqdr-mldsa, whose module `acvp` is tests/acvp.rs) are reused, not
# rebuilt. (The other crates' `all` binaries have no `acvp::` test: 0 run.)
step "ACVP case counts per group"
cargo test --workspace --release --test all -- --nocapture --test-threads=1 acvp:: 2>&1 \
  | grep -vE "^\s*(Compiling|Finished|Running)|^running 0 tests|^test result: ok. 0 passed|^$"

step "PKCS#8 / SPKI without a heap (ML-KEM RFC 9935, ML-DSA RFC 9881, sntrup as BouncyCastle 1.87; the workspace tests run them with alloc)"
# One build of the three crates (they compile side by side), none with
# `alloc`: their dev-dependencies enable no feature of each other. `pkcs8` is
# each crate's tests/pkcs8.rs alone (`test = false`; the workspace tests run
# it as a module of the crate's `all` binary).
cargo test --release -p pqdr-mlkem -p pqdr-mldsa -p pqdr-ntrup --no-default-features \
  --features pqdr-mlkem/ml_kem_768,pqdr-mlkem/pkcs8,pqdr-mldsa/ml_dsa_44,pqdr-mldsa/pkcs8,pqdr-ntrup/sntrup653,pqdr-ntrup/sntrup761,pqdr-ntrup/sntrup857,pqdr-ntrup/sntrup953,pqdr-ntrup/sntrup1013,pqdr-ntrup/sntrup1277,pqdr-ntrup/pkcs8 \
  --test pkcs8 2>&1 | grep -E "^\s*Running|^test result|FAILED|panicked"

step "X25519MLKEM768 and SecP256r1MLKEM768 vectors regenerate from Go's standard library (interop/go), when Go >= 1.24 is installed"
if command -v go >/dev/null && go version | grep -qE 'go1\.(2[4-9]|[3-9][0-9])'; then
  (cd interop/go && go run ./x25519mlkem768) | diff - vectors/hybrid/x25519mlkem768-go.json && echo "Go vectors: identical"
  (cd interop/go && go run ./secp256r1mlkem768) | diff - vectors/hybrid/secp256r1mlkem768-go.json && echo "Go SecP256r1MLKEM768 vectors: identical"
else
  echo "no Go >= 1.24: regeneration check skipped (the committed vectors are still tested)"
fi

step "X25519Kyber768Draft00 (legacy, TLS 0x6399) vectors regenerate from Cloudflare CIRCL (interop/go-circl), when Go >= 1.24 and the Go module proxy are reachable"
if command -v go >/dev/null && go version | grep -qE 'go1\.(2[4-9]|[3-9][0-9])' \
    && (cd interop/go-circl && go mod download) >/dev/null 2>&1; then
  (cd interop/go-circl && go run ./x25519kyber768draft00) | diff - vectors/hybrid/x25519kyber768draft00-circl.json && echo "CIRCL vectors: identical"
else
  echo "no Go >= 1.24 or no CIRCL module: regeneration check skipped (the committed vectors are still tested)"
fi

step "BouncyCastle 1.87 interop (interop/bouncycastle): keys, ciphertexts, signatures and key files, both directions, every shared set"
scripts/bc-interop.sh | grep -v "^ok "

step "BouncyCastle JSSE (bctls 1.84, interop/bctls) live TLS 1.3 with pqdr-rustls: ML-DSA-44/65/87 mutual authentication x (6 PQ groups + both defaults + HelloRetryRequest) x both directions, certificates from another CA refused; 34-45 s once built (load ~30)"
scripts/bctls-interop.sh | grep -v "^ok "

step "small-memory configurations: ML-KEM small-stack, ML-DSA small-stack (the bare-metal default) and smallest-stack, with the crate tests and the KAT/ACVP suites"
# Each crate's tests/kat.rs and tests/acvp.rs run the official vectors, so the
# crate runs below are the KAT/ACVP runs of each configuration too (AVX2 paths:
# `simd` is a default feature); no root-package build is needed for them.
# The targets small-stack changes: the library's unit tests (the on-the-fly
# matrix and its twins), the vectors, the stack budgets and the property and
# implicit-rejection tests. They are modules of each crate's one `all` test
# binary (tests/all.rs), so the whole binary runs (its encoding and error
# tests too, which do not depend on it): one link per crate, not six.
# ML-KEM small-stack and ML-DSA small-stack in one build (the two crates do
# not depend on each other); ML-DSA smallest-stack in a second, whose `all`
# binary then runs again with PQDR_FORCE_PORTABLE=1 for its portable path
# (its known-answer modules `kat` and `acvp`; the Cortex-M4 and ct-check at
# s run the small-stack portable path).
cargo test --release -p pqdr-mlkem -p pqdr-mldsa --features pqdr-mlkem/small-stack,pqdr-mldsa/small-stack \
  --lib --test all --test stack 2>&1 \
  | grep -E "^\s*Running|^test result|FAILED|panicked"
cargo test --release -p pqdr-mldsa --features smallest-stack --test stack --test all 2>&1 \
  | grep -E "^test result|FAILED|panicked"
PQDR_FORCE_PORTABLE=1 cargo test --release -p pqdr-mldsa --features smallest-stack --test all -- kat:: acvp:: 2>&1 \
  | grep -E "^test result|FAILED|panicked"

step "KAT/ACVP suites on the portable paths (no AVX2; issue #17): ML-KEM, ML-DSA, sntrup, Classic McEliece, every parameter set"
# The README command's own test binaries again, with PQDR_FORCE_PORTABLE=1:
# in that build (`test-utils` of pqdr-common, a dev-dependency feature) the
# variable makes `Avx2::detect` answer `None` for the whole process, so every
# dispatch takes the portable path; pqdr-common's unit test
# `force_portable_env_turns_avx2_off` fails if it did not. Nothing is compiled
# (--workspace: the same feature resolution), where a second build of the four
# crates without `simd` cost about 150 s (issue #37 item 7). The crates'
# unit tests run too (McEliece's decoder against independent references,
# ...); the AVX2-against-twin tests that need an AVX2 CPU are skipped. The
# builds without `simd` are compiled by the no_std check, the Cortex-M
# firmware and ct-check's portable level, and linted just below.
# The suites: pqdr-mceliece's tests/kat.rs (its own binary `kat`) and the
# modules `kat` and `acvp` of the `all` binaries (ML-KEM, ML-DSA, sntrup:
# tests/kat.rs and tests/acvp.rs; a filter applies to every binary of its
# command, hence three commands).
PQDR_FORCE_PORTABLE=1 cargo test --workspace --release --lib -- --skip avx2_tests 2>&1 \
  | grep -E "^\s*Running|^test result|FAILED|panicked"
PQDR_FORCE_PORTABLE=1 cargo test --workspace --release --test kat -- --skip avx2_tests 2>&1 \
  | grep -E "^\s*Running|^test result|FAILED|panicked"
PQDR_FORCE_PORTABLE=1 cargo test --workspace --release --test all -- --skip avx2_tests kat:: acvp:: 2>&1 \
  | grep -E "^\s*Running|^test result|FAILED|panicked"
# On an AVX-512 machine ML-DSA's ExpandA runs pqdr-keccak's AVX-512 Keccak
# (public inputs only, issue #34): its suites once more on the AVX2 path,
# PQDR_FORCE_PORTABLE=avx2 turning only the AVX-512 token off (same binaries).
PQDR_FORCE_PORTABLE=avx2 cargo test --workspace --release --test all -- kat::kat_ml_dsa acvp::acvp_keygen acvp::acvp_sig 2>&1 \
  | grep -E "^test result|FAILED|panicked"
cargo clippy -p pqdr-mlkem --no-default-features --features ml_kem_512,ml_kem_768,ml_kem_1024 \
  --all-targets -- -D warnings

step "fixed-base tables of pqdr-hybrid regenerate from plain Python integers (X25519 / edwards25519, P-256)"
python3 crates/pqdr-hybrid/tools/gen_base_table.py --check
python3 crates/pqdr-hybrid/tools/gen_p256_table.py --check

step "ratchet vectors (independent Python reference: PyPI blake3 + cryptography)"
python3 -m pip install --quiet --disable-pip-version-check blake3==1.0.11 cryptography==48.0.0
python3 scripts/ratchet_vectors.py crates/pqdr-ratchet/vectors/v2.json

step "handshake vectors (independent Python reference: blake3, cryptography, kyber-py, dilithium-py)"
python3 -m pip install --quiet --disable-pip-version-check \
  blake3==1.0.11 cryptography==48.0.0 kyber-py==1.2.0 dilithium-py==1.5.1
python3 scripts/handshake_vectors.py crates/pqdr-handshake/vectors/v1.json | tail -3

step "ratchet FS/PCS leak table"
# --workspace: the test binary of the README command (`-p pqdr-ratchet` alone
# resolves other features and rebuilt the ratchet and its KEM crates).
cargo test --workspace --release --test ratchet -- --nocapture fs_pcs:: 2>&1 | grep -vE "^\s*(Compiling|Finished|Running)"

step "handshake over UDP (README snippet; lossy shim, cookie round, session, re-handshake)"
run_example two_peers
run_example handshake_udp
run_example handshake_udp --suite s65-x --loss 0.1

step "ratchet examples over loopback (each starts from a K768 handshake)"
run_example ratchet_udp --bytes 20000000 --ratchet-ms 200 --loss 0.02 --reorder 0.02 --baseline
run_example ratchet_udp --kem xwing --bytes 5000000 --ratchet-ms 200 --loss 0.02
run_example ratchet_udp --kem sntrup761 --bytes 5000000 --ratchet-ms 200 --loss 0.02
run_example ratchet_tcp --bytes 50000000 --ratchet-ms 200 --baseline

step "PQDR-QUIC over loopback (quinn 0.11; 64 MiB, a KEM ratchet at least every second; docs/protocol/quic.md)"
# About 1 s here (2-core machine, loaded); prints "integrity: ok" or fails.
run_example quic_transfer --bytes 67108864 --rekey-secs 1

step "fuzz smoke (cargo-fuzz, nightly, AddressSanitizer): every target built once, then run"
# Each `cargo fuzz run` below finds its target already built by the one
# `cargo fuzz build` (same flags), so the run costs only its fuzzing time.
# Under .ci/run that build already ran in the background (nice 19) and this
# one waits for it to finish, then has nothing left to build.
# Committed corpora are replayed in full before the time limit applies.
# FUZZ_SECONDS (default 2; 4-5 before issue #17's CI trim) per target.
fuzz_s=${FUZZ_SECONDS:-2}
# FUZZ_OPT_LEVEL (default 1): the smoke's build, the same as .ci/run's
# background build (which this one then finds done); the time goes to the
# build, not the few seconds of fuzzing. Campaigns by hand: opt-level 3 (-O).
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${FUZZ_OPT_LEVEL:-1}"
# The targets then run in two lanes side by side (each libFuzzer run is one
# process on one core; the constant-time check has finished by now, so the
# second core was idle), each into its own log, printed in order; a failing
# target fails its lane and the step.
fuzz_protocol() {
  local t fail=0
  for t in fuzz_open fuzz_frames fuzz_codec fuzz_import fuzz_interaction quic_control; do
    cargo +nightly fuzz run -O "$t" -- -max_total_time="$fuzz_s" -max_len=2048 2>&1 | tail -3 || fail=1
  done
  return $fail
}
fuzz_handshake() {
  local t fail=0
  for t in hs_msg1 hs_msg2 hs_msg3 hs_cookie_reply hs_biscuit hs_interaction hs_frag; do
    mkdir -p "target/hs-corpus/$t" "corpus/$t"
    cargo +nightly fuzz run -O "$t" "target/hs-corpus/$t" "corpus/$t" -- -max_total_time="$fuzz_s" -max_len=8192 2>&1 | tail -3 || fail=1
  done
  return $fail
}
# The primitive crates' targets (FUZZING.md): every committed corpus input
# is replayed, then FUZZ_SECONDS of fuzzing each, into a scratch corpus.
fuzz_primitives() {
  local t fail=0
  for t in mlkem mldsa ntrup mceliece kat_rsp hybrid mlkem_pkcs8 mldsa_pkcs8 pkcs8_diff ntrup_pkcs8 mceliece_pkcs8 ssh_kex; do
    mkdir -p "target/smoke-corpus/$t" "corpus/$t"
    cargo +nightly fuzz run -O "$t" "target/smoke-corpus/$t" "corpus/$t" -- -max_total_time="$fuzz_s" 2>&1 | tail -3 || fail=1
  done
  return $fail
}
if cargo +nightly --version >/dev/null 2>&1; then
  command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
  (cd fuzz && cargo +nightly fuzz build -O 2>&1 | { grep -vE "^\s*(Compiling|Finished)" || true; })
  logs=target/fuzz-smoke
  mkdir -p "$logs"
  # Two lanes of about the same length (70 s each on a quiet 2-core
  # machine, 140 s one after the other): the ratchet, QUIC and handshake
  # targets, and the primitives' targets.
  (cd fuzz && r=0 && { fuzz_protocol || r=1; } && { fuzz_handshake || r=1; } && exit $r) \
    >"$logs/protocol.log" 2>&1 &
  p1=$!
  rc=0
  (cd fuzz && fuzz_primitives) >"$logs/primitives.log" 2>&1 || rc=1
  wait "$p1" || rc=1
  cat "$logs/protocol.log" "$logs/primitives.log"
  [ "$rc" = 0 ] || { echo "fuzz smoke: a target FAILED (logs above)"; exit 1; }
else
  echo "no nightly toolchain: fuzz smoke skipped"
fi
step "extra checks done"

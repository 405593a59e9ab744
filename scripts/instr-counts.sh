#!/usr/bin/env bash
# Instructions per operation (valgrind callgrind, exact and repeatable) of the
# main operations of the four primitive crates, from their `<crate>_ops` examples (`mlkem_ops`, `mldsa_ops`, `ntrup_ops`, `mceliece_ops`):
# (count at N2 iterations - count at N1) / (N2 - N1), so set-up is excluded.
#   scripts/instr-counts.sh            # prints "crate set op instructions" lines
# Used to show a refactor changed no speed (run before and after, compare).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p pqdr-mlkem --example mlkem_ops
cp "${CARGO_TARGET_DIR:-target}"/release/examples/mlkem_ops /tmp/ops-mlkem.$$
cargo build -q --release -p pqdr-mldsa --example mldsa_ops
cp "${CARGO_TARGET_DIR:-target}"/release/examples/mldsa_ops /tmp/ops-mldsa.$$
cargo build -q --release -p pqdr-ntrup --example ntrup_ops
cp "${CARGO_TARGET_DIR:-target}"/release/examples/ntrup_ops /tmp/ops-ntrup.$$
cargo build -q --release -p pqdr-mceliece --example mceliece_ops
cp "${CARGO_TARGET_DIR:-target}"/release/examples/mceliece_ops /tmp/ops-mceliece.$$
trap 'rm -f /tmp/ops-*.$$' EXIT

count() { # binary args... -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_op() { # name bin n1 n2 args-before-n...
  local name=$1 bin=$2 n1=$3 n2=$4; shift 4
  local a b
  a=$(count "$bin" "$@" "$n1")
  b=$(count "$bin" "$@" "$n2")
  echo "$name $(( (b - a) / (n2 - n1) ))"
}
for op in keygen encaps decaps; do per_op "mlkem 768 $op" /tmp/ops-mlkem.$$ 20 120 768 $op; done
for op in keygen sign verify sign-expanded verify-expanded; do per_op "mldsa 65 $op" /tmp/ops-mldsa.$$ 1 21 $op 65; done
for op in keygen encaps decaps; do per_op "ntrup sntrup761 $op" /tmp/ops-ntrup.$$ 2 12 sntrup761 $op; done
per_op "mceliece 348864 keygen" /tmp/ops-mceliece.$$ 1 3 348864 keygen
for op in encaps decaps; do per_op "mceliece 348864 $op" /tmp/ops-mceliece.$$ 2 22 348864 $op; done
per_op "mceliece 6960119 decaps" /tmp/ops-mceliece.$$ 2 12 6960119 decaps

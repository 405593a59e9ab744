#!/usr/bin/env bash
# Constant-time check (docs/constant-time.md recipes A and B).
#
# 1. Runs every crate's tests/ct_valgrind.rs under valgrind memcheck, with the
#    secret inputs marked undefined by pqdr-ctgrind's client requests and the
#    in-crate declassification hooks enabled (--cfg pqct_valgrind). Any report
#    (a branch or memory index that depends on a secret) fails the run.
# 2. Proves the harness is live: the canary tests in crates/pqdr-ctgrind/tests/canary.rs
#    branch / index on a secret and MUST be reported.
# 3. Scans the compiled test binaries for divisions in our sources (hardware
#    div/idiv and calls to the compiler's division routines).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }

# CT_PORTABLE_LEVELS (default "s z") names the levels at which the PORTABLE
# code paths are checked: every package is built with --no-default-features
# and its default features except `simd` (issue #17). At the other levels the
# default features (with `simd`: the AVX2 paths on an AVX2 CPU; the crates'
# ct_valgrind tests assert that) are checked. So `CT_OPT_LEVELS="3 s z"`
# checks AVX2 as servers build it (3) and the portable code as
# microcontrollers build it (s, z); CT_PORTABLE_LEVELS="" checks AVX2 only.
#
# CT_OPT_LEVELS="3 s z" runs the whole check once per optimisation level
# (firmware ships s or z); the default is the release profile's 3. With
# CT_PARALLEL=1 the levels run at the same time (valgrind uses one core each),
# each into target/ct-logs/o<level>.log, printed when all are done.
if [ -z "${CT_OPT_LEVEL:-}" ]; then
  if [ "${CT_PARALLEL:-0}" = 1 ]; then
    mkdir -p target/ct-logs
    pids=()
    for level in ${CT_OPT_LEVELS:-3}; do
      CT_OPT_LEVEL=$level "$0" "$@" >"target/ct-logs/o$level.log" 2>&1 & pids+=($!)
    done
    failed=0
    for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed=1; done
    for level in ${CT_OPT_LEVELS:-3}; do
      echo "=== constant-time check at opt-level $level"
      grep -vE "^\s*(Compiling|Finished|Running|Executable)" "target/ct-logs/o$level.log"
    done
    exit $failed
  fi
  for level in ${CT_OPT_LEVELS:-3}; do
    echo "=== constant-time check at opt-level $level"
    CT_OPT_LEVEL=$level "$0" "$@"
  done
  exit 0
fi
export CARGO_PROFILE_RELEASE_OPT_LEVEL="$CT_OPT_LEVEL"
if [ "$CT_OPT_LEVEL" = 3 ]; then
  export CARGO_TARGET_DIR="${CT_TARGET_DIR:-$PWD/target/ct}"
else
  export CARGO_TARGET_DIR="${CT_TARGET_DIR:-$PWD/target/ct}-o$CT_OPT_LEVEL"
fi
export RUSTFLAGS="--cfg pqct_valgrind"
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
# --expensive-definedness-checks=yes: memcheck evaluates comparisons exactly.
# Its default approximation calls any compare with an undefined bit
# undefined; at opt-level z it so flagged curve25519-dalek's ladder, where
# `Option<bool>` from the scalar's bit iterator is tested against None (the
# byte 2: the secret bit can never decide that compare). Real secret
# branches (the canaries below) are still reported.
# --track-origins=yes (CT_TRACK_ORIGINS=1) names where a reported secret came
# from; it finds nothing more and costs about 30 % more time (McEliece key
# generation at 3: 14.8 s against 10.7 s), so CI runs without it and a
# failure is re-run with it to diagnose.
origins=no
[ "${CT_TRACK_ORIGINS:-0}" = 1 ] && origins=yes
VG="valgrind -q --error-exitcode=1 --expensive-definedness-checks=yes --track-origins=$origins --max-stackframe=33554432 --main-stacksize=67108864"

portable=0
for l in ${CT_PORTABLE_LEVELS-s z}; do [ "$l" = "$CT_OPT_LEVEL" ] && portable=1; done
# base_feats DIR NAME: the features a package is checked with besides the
# extra ones: none (its defaults) on the AVX2 levels; on the portable levels
# its default features except `simd`, as NAME/feature (--no-default-features
# is then passed).
base_feats() {
  [ "$portable" = 1 ] || return 0
  local line
  line=$(grep -E '^default *= *\[' "$1/Cargo.toml" || true)
  [ -z "$line" ] && return 0
  case "$line" in *]) ;; *) echo "ct-check: $1/Cargo.toml: default = [...] must be on one line" >&2; exit 1 ;; esac
  echo "$line" | sed 's/^[^[]*\[//; s/\].*$//' | tr ',' '\n' | tr -d ' "' \
    | grep -vE '^(simd)?$' | sed "s|^|$2/|" || true
}
# feature_args DIR NAME EXTRA...: the cargo arguments for NAME with EXTRA features.
feature_args() {
  local d=$1 n=$2 f=()
  shift 2
  mapfile -t f < <(base_feats "$d" "$n")
  for x in "$@"; do f+=("$n/$x"); done
  [ "$portable" = 1 ] && echo --no-default-features
  [ ${#f[@]} -gt 0 ] && echo --features && (IFS=,; echo "${f[*]}")
  return 0
}
nodef=()
[ "$portable" = 1 ] && nodef=(--no-default-features)

# Packages that have a tests/ct_valgrind.rs. Those with a `self-test`
# feature are checked with it on, so the pair-wise consistency test that then
# follows every key generation runs under valgrind too; those with a `pkcs8`
# feature with that on, so their private-key decoders are checked.
# A package whose tests depend on the package itself with its default
# features (pqdr-handshake: `pqdr-handshake = { path = ".", features = [...] }`
# in [dev-dependencies]) cannot be test-built without `simd`: at the portable
# levels it is checked in a second build with its default features (its own
# code has no SIMD path; the primitives' portable paths are checked by their
# own tests in the first build).
pkgs=()
feats=()
pkgs_default=()
feats_default=()
# Checked at the AVX2 levels only (CT_HOSTED_ONLY): pqdr-quic runs on quinn,
# tokio and ring, i.e. on hosted x86-64/ARM servers, never at the firmware's
# opt-levels, and has no portable/SIMD split of its own; its build (quinn,
# tokio, rustls, ring again with --cfg pqct_valgrind) is the largest of the
# check, so CI does it once.
hosted_only=" ${CT_HOSTED_ONLY-pqdr-quic} "
for d in crates/*/; do
  d=${d%/}
  if [ -f "$d/tests/ct_valgrind.rs" ]; then
    name=$(sed -n 's/^name = "\(.*\)"/\1/p' "$d/Cargo.toml" | head -1)
    if [ "$portable" = 1 ] && [[ "$hosted_only" == *" $name "* ]]; then
      echo "ct-check: $name is checked at the AVX2 levels only (CT_HOSTED_ONLY)"
      continue
    fi
    f=()
    own_default=0
    if [ "$portable" = 1 ] && grep -qE "^$name *= *\{ *path *= *\"\.\"" "$d/Cargo.toml" \
        && ! grep -E "^$name *= *\{ *path *= *\"\.\"" "$d/Cargo.toml" | grep -q 'default-features *= *false'; then
      pkgs_default+=(-p "$name")
      own_default=1
    else
      pkgs+=(-p "$name")
      mapfile -t f < <(base_feats "$d" "$name")
    fi
    if grep -q '^self-test *=' "$d/Cargo.toml"; then f+=("$name/self-test"); fi
    # PKCS#8 private-key decoding and encoding run under valgrind too.
    if grep -q '^pkcs8 *=' "$d/Cargo.toml"; then f+=("$name/pkcs8"); fi
    # The legacy round-3 schemes (issue #32) share the checked cores.
    for lf in kyber-r3 dilithium-r3 x25519-kyber768-draft00; do
      if grep -q "^$lf *=" "$d/Cargo.toml"; then f+=("$name/$lf"); fi
    done
    if [ "$own_default" = 1 ]; then feats_default+=("${f[@]}"); else feats+=("${f[@]}"); fi
  fi
done
pkgs+=("${nodef[@]}")
if [ ${#feats[@]} -gt 0 ]; then
  pkgs+=(--features "$(IFS=,; echo "${feats[*]}")")
fi
if [ ${#feats_default[@]} -gt 0 ]; then
  pkgs_default+=(--features "$(IFS=,; echo "${feats_default[*]}")")
fi
if [ "$portable" = 1 ]; then path="portable paths"; else path="default features (AVX2 paths)"; fi
echo "constant-time check at opt-level $CT_OPT_LEVEL, $path, of: ${pkgs[*]}"
[ ${#pkgs_default[@]} -eq 0 ] || echo "  and with default features: ${pkgs_default[*]}"
# The test executables by package (the canaries of pqdr-handshake and
# pqdr-ratchet below run from these same builds).
mkdir -p "$CARGO_TARGET_DIR"
: >"$CARGO_TARGET_DIR/ct_valgrind-executables.txt"
for set in pkgs pkgs_default; do
  declare -n args=$set
  [ ${#args[@]} -gt 0 ] || continue
  cargo test --release "${args[@]}" --test ct_valgrind --no-run --message-format=json-render-diagnostics \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "ct_valgrind":
        print(m["package_id"], m["executable"], m["manifest_path"])
' >>"$CARGO_TARGET_DIR/ct_valgrind-executables.txt"
  unset -n args
done
# ct_exe NAME: the ct_valgrind executable of package NAME from those builds.
ct_exe() {
  local f
  f=$(awk -v n="$1" '{ if (index($1, "#" n "@") || index($1, "/" n "#")) print $2 }' \
      "$CARGO_TARGET_DIR/ct_valgrind-executables.txt" | head -1)
  [ -n "$f" ] || { echo "ct-check: no ct_valgrind executable for $1" >&2; exit 1; }
  echo "$f"
}
# At s and z, McEliece key generation runs for 348864(f), 460896(f) and
# 348864 in the keygen-encaps-decaps test (m = 12 and m = 13, every code path
# of the generic key generation); the larger sets' key generation, the same
# code on bigger sizes, takes minutes each under valgrind and runs at 3 only.
# 460896f is left to 3 as well: its semi-systematic path (column moves) is the
# one 348864f checks at m = 12, and 460896 checks m = 13.
# Likewise the handshake's KMc/KMc-c suites (McEliece key generation inside a
# handshake) run at 3 only: their McEliece operations are checked at s and z
# by pqdr-mceliece's own tests, their handshake code by the other suites.
# At s (CI's portable level) keygen_460896 is left to 3 and z as well (about
# 150 s under valgrind at s): the m = 13 field arithmetic it adds is the one
# decaps_460896 checks at s, the rest of key generation is the m = 12 code of
# 348864(f) on larger sizes.
skip=()
if [ "$CT_OPT_LEVEL" != 3 ]; then
  for t in keygen_460896f keygen_6688128 keygen_6960119 keygen_8192128 kmc_and_kmc_c; do skip+=(--skip "$t"); done
fi
if [ "$CT_OPT_LEVEL" = s ]; then
  skip+=(--skip keygen_460896)
fi
# At z (the slowest level under valgrind: 414 s of McEliece in the CI run of
# 431475c), McEliece decapsulation is checked for the sets a microcontroller
# can hold, 348864 and 460896 with their f/pc variants (the firmware's sets,
# README "Microcontrollers"); the large sets' decapsulation, the same code on
# bigger sizes, is checked at 3 and s.
if [ "$CT_OPT_LEVEL" = z ]; then
  for t in decaps_6688128 decaps_6960119 decaps_8192128 prepared_6960119 prepared_8192128pcf; do skip+=(--skip "$t"); done
fi
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
  cargo test --release "${pkgs[@]}" --test ct_valgrind -- --test-threads=1 "${skip[@]}"
if [ ${#pkgs_default[@]} -gt 0 ]; then
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
    cargo test --release "${pkgs_default[@]}" --test ct_valgrind -- --test-threads=1 "${skip[@]}"
fi
# pqdr-mlkem's `small-stack` K-PKE: another code path on the same secrets.
# Its test binary is also in the division scan below (ct_valgrind-*).
mapfile -t fa < <(feature_args crates/pqdr-mlkem pqdr-mlkem self-test small-stack)
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
  cargo test --release -p pqdr-mlkem "${fa[@]}" --test ct_valgrind -- --test-threads=1
# pqdr-mldsa's other signing memory plans (crates/pqdr-mldsa/src/sign.rs): row by
# row (`small-stack`, the bare-metal default) and streaming (`smallest-stack`).
for f in small-stack smallest-stack; do
  mapfile -t fa < <(feature_args crates/pqdr-mldsa pqdr-mldsa self-test "$f")
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
    cargo test --release -p pqdr-mldsa "${fa[@]}" --test ct_valgrind -- --test-threads=1
done
echo "constant-time check at opt-level $CT_OPT_LEVEL: clean"

# Negative control: each canary must make valgrind fail.
cargo test --release -p pqdr-ctgrind --test canary --no-run
for t in canary_branch_is_detected canary_index_is_detected; do
  log=$(mktemp)
  if CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$VG" \
       cargo test --release -p pqdr-ctgrind --test canary -- --ignored --exact "$t" >"$log" 2>&1; then
    cat "$log"; echo "canary $t was NOT detected: the harness is broken"; exit 1
  fi
  grep -qE "depends on uninitialised value|Use of uninitialised value" "$log" \
    || { cat "$log"; echo "canary $t failed for another reason"; exit 1; }
  echo "canary $t: detected (as it must be)"
done

# Division scan of the ct_valgrind binaries (KyberSlash class; memcheck is
# blind to division timing). It finds hardware divisions (`div`, `idiv`) and
# calls to the compiler's division routines (`__udivti3`, `__umodti3`,
# `__divti3`, `__modti3`, `__udivmodti4`, their `di`/`si` forms, ARM's
# `__aeabi_uidiv`/`__aeabi_ldivmod`/…, and compiler_builtins' `*_div_rem`)
# whose source line lies in a file matching the regex $1, unless that line or
# the one above carries the comment `// ct: public division` (lengths and
# sizes only).
# Usage: scan_divisions SRC_REGEX BINARY... ; prints each hit, exit 1 if any.
scan_divisions() {
  local re=$1 hits=0 b tmp
  shift
  tmp=$(mktemp -d)
  for b in "$@"; do
    [ -x "$b" ] && [ -f "$b" ] || continue
    # Calls to the builtins usually go through the GOT (`call *…(%rip) # slot`):
    # resolve slot -> target address (objdump -R) -> symbol (nm).
    nm "$b" | awk '{ a = $1; sub(/^0+/, "", a); print a, $3 }' >"$tmp/syms"
    objdump -R "$b" | awk '$2 ~ /^R_X86_64_/ {
        s = $1; sub(/^0+/, "", s); t = $3
        if (t ~ /^\*ABS\*\+0x/) { sub(/^\*ABS\*\+0x0*/, "", t); print s, "@" t } else { sub(/@.*/, "", t); print s, t } }' >"$tmp/relocs"
    objdump -d -l --no-show-raw-insn -C "$b" >"$tmp/asm"
    awk -v re="$re" -v seenfile="${SCAN_SEEN:-/dev/null}" '
      # A division on public values is admitted only where the source says
      # so: a `// ct: public division` comment on its line or the line above
      # (reviewed in the source).
      function public(loc,   f, want, i, line, ok) {
        f = loc; sub(/:[0-9]+.*$/, "", f); want = loc; sub(/^.*:/, "", want); want += 0
        i = 0; ok = 0
        while ((getline line < f) > 0) {
          if (++i >= want - 1 && line ~ /ct: public division/) ok = 1
          if (i == want) break
        }
        close(f); return ok
      }
      FILENAME == ARGV[1] { sym[$1] = $2; next }
      FILENAME == ARGV[2] { slot[$1] = $2; next }
      /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
      /^\/.*:[0-9]+/      {
        src = $1
        if (src ~ re && match(src, /\/crates\/[^\/]+\/src\//)) seen[substr(src, RSTART, RLENGTH)] = 1
        next
      }
      /\t(div|idiv)[a-z]*[ \t]/ { hit = 1 }
      /\t(call|jmp)[a-z]*[ \t]/ {
        target = ""
        if (match($0, /<[^>+]*>$/)) target = substr($0, RSTART + 1, RLENGTH - 2)
        else if (match($0, /# [0-9a-f]+ /)) {
          g = substr($0, RSTART + 2, RLENGTH - 3); sub(/^0+/, "", g); t = slot[g]
          if (t ~ /^@/) { t = substr(t, 2); target = sym[t] } else target = t
        }
        if (target ~ /^(__u?(div|mod)[sdt]i3|__udivmod[sdt]i4|__aeabi_u?i?l?div(mod)?)$|_div_rem/) { hit = 1; $0 = $0 "  -> " target }
      }
      hit { hit = 0; if (src ~ re && !public(src)) { print src "\t" fn; print "\t" $0; n++ } }
      END { for (d in seen) print d >> seenfile; if (n) { print n " division(s)"; exit 1 } }' "$tmp/syms" "$tmp/relocs" "$tmp/asm" || hits=1
  done
  rm -rf "$tmp"
  return $hits
}

# Negative control: the scan must see both kinds of division in the canary.
canary_bin=$(ls -t "$CARGO_TARGET_DIR"/release/deps/canary-* | grep -v '\.d$' | head -1)
out=$(scan_divisions '/crates/pqdr-ctgrind/tests/canary\.rs' "$canary_bin" || true)
echo "$out" | grep -qE $'\t(div|idiv)' \
  && echo "$out" | grep -qE -- '-> (__umodti3|.*_div_rem)' \
  || { echo "$out"; echo "division scan is blind: the canary's divisions were not found"; exit 1; }
echo "division scan canary: both divisions found (as they must be)"

# The crates whose sources are scanned; each must appear in the binaries'
# line tables (a folder rename once left this regex matching one crate only:
# the check below fails if any listed crate is not seen).
scanned="mlkem mldsa mceliece ntrup common hybrid ratchet keccak hpke ssh-kex"
export SCAN_SEEN="$CARGO_TARGET_DIR/division-scan-seen.txt"
: >"$SCAN_SEEN"
if ! scan_divisions "/crates/pqdr-($(echo $scanned | tr ' ' '|'))/src/" \
       "$CARGO_TARGET_DIR"/release/deps/ct_valgrind-*; then
  echo "division scan: FAILED"; exit 1
fi
for c in $scanned; do
  grep -qx "/crates/pqdr-$c/src/" "$SCAN_SEEN" \
    || { echo "division scan: no source line of crates/pqdr-$c in the binaries (stale crate list?)"; exit 1; }
done
unset SCAN_SEEN
echo "division scan: clean ($(echo $scanned | wc -w) crates' sources seen in the line tables)"

# pqdr-handshake. Its tests/ct_valgrind.rs (whole handshakes of every suite
# with sigma, static keys, X25519 scalars, psk, biscuit/cookie secrets and the
# RNG's coin seeds classified) runs in the first step with the other crates.
# Here: its two canaries (a branch on the initiator's and on the responder's
# output) must be reported at the canary's own line, and no division may be
# compiled from the handshake's sources.
exe=$(ct_exe pqdr-handshake)
for t in canary_initiator_secret canary_responder_secret; do
  log=$(mktemp)
  if (cd crates/pqdr-handshake && CARGO_MANIFEST_DIR=$PWD $VG "$exe" --ignored --exact "$t") >"$log" 2>&1; then
    cat "$log"; echo "handshake canary $t was NOT detected: the harness is broken"; exit 1
  fi
  grep -qE "Conditional jump or move depends on uninitialised value" "$log" \
    && grep -qE "at 0x[0-9A-F]+: (ct_valgrind::)?$t \(ct_valgrind.rs:[0-9]+\)" "$log" \
    || { cat "$log"; echo "handshake canary $t failed for another reason"; exit 1; }
  echo "handshake canary $t: detected (as it must be)"
done
scan_divisions '/crates/pqdr-handshake/src/' "$CARGO_TARGET_DIR"/release/deps/ct_valgrind-* \
  || { echo "handshake division scan: FAILED"; exit 1; }
echo "handshake division scan: clean"

# pqdr-ratchet: its canaries must be reported. canary_branch_on_chain_key
# branches on a message key derived from a classified root;
# canary_branchy_aead_open opens a record with such a key through
# chacha20poly1305's own decrypt, whose tag check branches: the reason
# Session::open uses src/aead.rs, where the key stays classified.
exe=$(ct_exe pqdr-ratchet)
for t in canary_branch_on_chain_key canary_branchy_aead_open; do
  log=$(mktemp)
  if (cd crates/pqdr-ratchet && CARGO_MANIFEST_DIR=$PWD $VG "$exe" --ignored --exact "$t") >"$log" 2>&1; then
    cat "$log"; echo "ratchet canary $t was NOT detected: the harness is broken"; exit 1
  fi
  grep -qE "Conditional jump or move depends on uninitialised value" "$log" \
    || { cat "$log"; echo "ratchet canary $t failed for another reason"; exit 1; }
  echo "ratchet canary $t: detected (as it must be)"
done

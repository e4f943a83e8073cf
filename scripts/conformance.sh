#!/usr/bin/env bash
# Runs every StableHLO test program in DIR through aot-run and tallies them:
# the measurement of the StableHLO front end on suites nobody here wrote
# (openxla/stablehlo's stablehlo/testdata and stablehlo/tests/interpret, or
# any directory of programs in their forms: `@main` with `@inputs`/`@expected`
# and a `check.expect_*` custom call, or check ops inside functions). The
# suites are measured, never committed; the README gives the tallies.
#
#   scripts/conformance.sh DIR [--platform=interpreter|host] [--sample=N --seed=S]
#                              [--emission_flags=a,b] [--jobs=J] [--timeout=SEC]
#                              [--aot_run=PATH] [--quiet]
#
# One line per program: "PASS <file>", "FAIL <file>: <first error>",
# "CRASH <file>: signal N" or "HANG <file>: over SEC s", then a tally line:
#   tally: P/N passed (X%), F failed, C crashed, H hung [platform, sample, seed]
# A program passes when aot-run exits 0: it converted, compiled (host), ran
# and every check in it held (and, on the host, matched the interpreter).
# The sample is the first N files ordered by sha256("<seed>:<name>"): the
# same seed gives the same list on every machine. Exit status: 0 when the
# run completed (whatever the tally), 2 bad usage.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; }

dir="" platform=interpreter sample=0 seed=1 flags="" jobs=2 timeout_s=60 quiet=0
root="$(cd "$(dirname "$0")/.." && pwd)"
aot_run="${root}/build/compiler/tools/aot-run"
for arg in "$@"; do
  case "$arg" in
    --platform=*) platform="${arg#*=}" ;;
    --sample=*) sample="${arg#*=}" ;;
    --seed=*) seed="${arg#*=}" ;;
    --emission_flags=*) flags="${arg#*=}" ;;
    --jobs=*) jobs="${arg#*=}" ;;
    --timeout=*) timeout_s="${arg#*=}" ;;
    --aot_run=*) aot_run="${arg#*=}" ;;
    --quiet) quiet=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "conformance.sh: error: unknown flag '$arg' (see --help)" >&2; exit 2 ;;
    *)
      if [[ -n "$dir" ]]; then
        echo "conformance.sh: error: one DIR only (got '$dir' and '$arg')" >&2; exit 2
      fi
      dir="$arg" ;;
  esac
done
[[ -n "$dir" ]] || { echo "conformance.sh: error: no DIR given (see --help)" >&2; exit 2; }
[[ -d "$dir" ]] || { echo "conformance.sh: error: '$dir' is not a directory" >&2; exit 2; }
case "$platform" in interpreter | host) ;; *)
  echo "conformance.sh: error: --platform must be interpreter or host, not '$platform'" >&2; exit 2 ;;
esac
[[ "$sample" =~ ^[0-9]+$ ]] || { echo "conformance.sh: error: --sample must be a count" >&2; exit 2; }
if [[ ! -x "$aot_run" ]]; then
  bash "${root}/scripts/build.sh" aot-run >&2
fi

list="$(mktemp)"
results="$(mktemp -d)"
trap 'rm -rf "$list" "$results"' EXIT
# Every program, in a stable order, then the seeded sample of it.
find "$dir" -maxdepth 1 -name '*.mlir' -type f | LC_ALL=C sort > "$list"
total_in_dir=$(wc -l < "$list")
if (( sample > 0 && sample < total_in_dir )); then
  while read -r f; do
    printf '%s %s\n' "$(printf '%s:%s' "$seed" "$(basename "$f")" | sha256sum | cut -c1-16)" "$f"
  done < "$list" | LC_ALL=C sort | awk -v n="$sample" 'NR <= n { print $2 }' | LC_ALL=C sort > "$list.s"
  mv "$list.s" "$list"
fi

run_one() {
  local f="$1" out rc
  local -a args=(--platform="$platform")
  [[ -n "$flags" ]] && args+=(--emission_flags="$flags")
  out="$(timeout --kill-after=5 "$timeout_s" "$aot_run" "${args[@]}" "$f" 2>&1)" && rc=0 || rc=$?
  if (( rc == 0 )); then
    echo "PASS $f"
  elif (( rc == 124 || rc == 137 )); then
    echo "HANG $f: over ${timeout_s} s"
  elif (( rc > 128 )); then
    echo "CRASH $f: signal $((rc - 128))"
  else
    # The first line that says what went wrong: an error, else a failed check.
    local why
    why="$(grep -m1 -E 'error:|: FAILED|mismatch|failed' <<<"$out" || true)"
    [[ -n "$why" ]] || why="$(tail -n1 <<<"$out")"
    echo "FAIL $f: ${why}"
  fi
}
export -f run_one
export platform flags timeout_s aot_run

xargs -a "$list" -d '\n' -P "$jobs" -I{} bash -c 'run_one "$1"' _ {} | LC_ALL=C sort -k2 > "$results/lines"
if (( quiet == 0 )); then cat "$results/lines"; fi
n=$(wc -l < "$results/lines")
p=$(grep -c '^PASS ' "$results/lines" || true)
f=$(grep -c '^FAIL ' "$results/lines" || true)
c=$(grep -c '^CRASH ' "$results/lines" || true)
h=$(grep -c '^HANG ' "$results/lines" || true)
pct=$(awk -v p="$p" -v n="$n" 'BEGIN { if (n == 0) print "0.0"; else printf "%.1f", 100 * p / n }')
what="$platform"
[[ -n "$flags" ]] && what+=", flags $flags"
if (( sample > 0 && sample < total_in_dir )); then
  what+=", sample $sample of $total_in_dir, seed $seed"
fi
echo "tally: $p/$n passed (${pct}%), $f failed, $c crashed, $h hung [$what]"

#!/usr/bin/env bash
# Runs JAX's back-compat test data (jax/_src/internal_test_util/
# export_back_compat_test_data/*.py of jax-ml/jax: programs JAX exported
# over the years, with their inputs and expected outputs) through aot-run,
# which reads the data files directly, and tallies the data sets. The
# public data is measured, never committed; the README gives the tally.
#
#   scripts/jax_back_compat.sh DIR [--platform=host|interpreter|cuda]
#                              [--emission_flags=a,b] [--aot_run=PATH] [--quiet]
#
# One line per data set of the platform's ("cpu" data for host and
# interpreter, "cuda" for cuda): "PASS file:data_set", "FAIL file:data_set:
# <first error>", then a tally line. A data set passes when its module
# converts, runs on the platform, matches its expected outputs within
# JAX's tolerance for the dtype (and on the host the interpreter too).
# Exit status 0 when the run completed, 2 bad usage.
set -euo pipefail

dir="" platform=interpreter flags="" quiet=0
root="$(cd "$(dirname "$0")/.." && pwd)"
aot_run="${root}/build/compiler/tools/aot-run"
for arg in "$@"; do
  case "$arg" in
    --platform=*) platform="${arg#*=}" ;;
    --emission_flags=*) flags="${arg#*=}" ;;
    --aot_run=*) aot_run="${arg#*=}" ;;
    --quiet) quiet=1 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "jax_back_compat.sh: error: unknown flag '$arg' (see --help)" >&2; exit 2 ;;
    *) dir="$arg" ;;
  esac
done
[[ -d "$dir" ]] || { echo "jax_back_compat.sh: error: give the data directory (see --help)" >&2; exit 2; }
[[ -x "$aot_run" ]] || bash "${root}/scripts/build.sh" aot-run >&2
args=(--platform="$platform")
[[ -n "$flags" ]] && args+=(--emission_flags="$flags")

lines="$(mktemp)"
trap 'rm -f "$lines"' EXIT
for f in "$dir"/*.py; do
  grep -q mlir_module_text "$f" || continue
  out="$(timeout 300 "$aot_run" "${args[@]}" "$f" 2>&1)" || true
  # Each data set's label is "<file>:<data set>"; its verdict the
  # "expected_outputs:" line after it, or an error naming it.
  awk -v file="$f" '
    function flush() { if (label != "") { print (verdict == "" ? "FAIL " label ": no verdict" : verdict) } label = ""; verdict = "" }
    index($0, file ":data_") == 1 || index($0, "aot-run: error: " file ":data_") == 1 {
      s = $0; sub(/^aot-run: error: /, "", s); split(s, parts, ": ");
      l = parts[1]; sub(/:[0-9]+:[0-9]+$/, "", l)
      if (l != label) { flush(); label = l }
      if (index($0, "aot-run: error: ") == 1 && verdict == "") verdict = "FAIL " label ": " substr(s, length(parts[1]) + 3)
      next
    }
    /^  expected_outputs: match/ { if (verdict == "") verdict = "PASS " label; next }
    /^  expected_outputs: FAILED/ { sub(/^  expected_outputs: /, ""); verdict = "FAIL " label ": " $0; next }
    /^aot-run: error: / && label != "" && verdict ~ /^PASS/ { s = $0; sub(/^aot-run: error: /, "", s); verdict = "FAIL " label ": " s }
    END { flush() }' <<<"$out" | sed "s#$dir/##" >> "$lines"
done
(( quiet )) || cat "$lines"
n=$(wc -l < "$lines"); p=$(grep -c '^PASS ' "$lines" || true)
pct=$(awk -v p="$p" -v n="$n" 'BEGIN { printf "%.1f", n ? 100 * p / n : 0 }')
echo "tally: $p/$n data sets passed (${pct}%) [$platform${flags:+, flags $flags}]"

#!/usr/bin/env bash
# Pre-submit gate: build, every test, then the compatibility gate on every
# golden target (schema-check + backward window + forward window + staged-
# rollout ledger + fallback lint + golden verification) at today's date.
#   ci/presubmit.sh [--now=YYYY-MM-DD] [--out=DIR]
# Writes DIR/gate.json (default ci-out/). Exit non-zero when anything fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
now="$(date -u +%F)"
out="ci-out"
for arg in "$@"; do
  case "$arg" in
    --now=*) now="${arg#--now=}" ;;
    --out=*) out="${arg#--out=}" ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "presubmit.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
bash scripts/test.sh
bash scripts/run.sh --now="$now"
"${AOT_BUILD_DIR:-build}/harness/aot-compat" gate --now="$now" --json="$out/gate.json"

#!/usr/bin/env bash
# The project's main job: the compatibility gate on the bundled corpus for
# the host target(s) this machine can run. Builds what is needed, then runs
# `aot-compat gate` (schema-check against every snapshot, the backward window
# of goldens, runtime flag defaults and FFI names of the window's releases,
# the forward window of releases, the staged-rollout ledger, the fallback
# lint, golden verification) and prints a replay table per version.
#   scripts/run.sh [--now=YYYY-MM-DD] [--json=OUT.json] [aot-compat gate flags...]
# Exit status: 0 pass, 1 blocked, 2 bad input.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/build.sh aot-compat >/dev/null
BUILD_DIR="${AOT_BUILD_DIR:-build}"
COMPAT="$BUILD_DIR/harness/aot-compat"

"$COMPAT" version

# Host targets this CPU supports (v3 needs AVX2/FMA/BMI2).
targets=(host-x86-64-v2)
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
  targets=(host-x86-64-v3 host-x86-64-v2)
fi
target_flags=()
for t in "${targets[@]}"; do target_flags+=("--target=$t"); done

gate_json="$(mktemp)"
trap 'rm -f "$gate_json"' EXIT
args=()
for arg in "$@"; do
  case "$arg" in
    --json=*) user_json="${arg#--json=}" ;;
    *) args+=("$arg") ;;
  esac
done
status=0
"$COMPAT" gate --golden_dir=golden "${target_flags[@]}" --json="$gate_json" \
  ${args[@]+"${args[@]}"} || status=$?
[ -z "${user_json:-}" ] || cp "$gate_json" "$user_json"
[ -s "$gate_json" ] || exit "$status"

echo
printf '%-16s %-8s %-10s %6s %6s %7s %7s %10s %10s\n' \
  target version created passed failed skipped expired load_ms run_ms
python3 - "$gate_json" <<'PY'
import json, sys, collections
data = json.load(open(sys.argv[1]))
rows = collections.OrderedDict()
for r in data["backward"]["results"]:
    key = (r["target"], r["version"])
    row = rows.setdefault(key, {"pass": 0, "fail": 0, "skipped": 0, "expired": 0,
                                "load": 0.0, "run": 0.0, "date": r.get("version_date", "")})
    row[r["status"]] += 1
    row["load"] += r["load_ms"]
    row["run"] += r["run_ms"]
for (target, version), row in rows.items():
    print(f'{target:<16} v{version:<7} {row["date"]:<10} {row["pass"]:>6} {row["fail"]:>6} '
          f'{row["skipped"]:>7} {row["expired"]:>7} {row["load"]:>10.1f} {row["run"]:>10.1f}')
print(f'\nforward window from {data["forward_window_start"]}: releases '
      f'{", ".join(data["forward_releases"]) or "none"}')
print(f'gate: {data["verdict"].upper()}')
PY
exit "$status"

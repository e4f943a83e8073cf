#!/usr/bin/env bash
# The project's main job: the compatibility gate on the bundled corpus for
# the host target(s) this machine can run. Builds what is needed, then:
#   1. verify: the current compiler reproduces the newest golden version;
#   2. replay: the boundary golden versions (all with
#      XLA_AOT_TEST_ALL_VERSIONS=1) load and run on the current runtime and
#      reproduce their recorded outputs;
# and prints a summary table. Exit status non-zero when either fails.
#   scripts/run.sh [--json=OUT.json] [aot-compat replay flags...]
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

status=0
verify_out="$("$COMPAT" verify --golden_dir=golden "${target_flags[@]}" 2>&1)" || status=1
echo "$verify_out"
replay_json="$(mktemp)"
trap 'rm -f "$replay_json"' EXIT
"$COMPAT" replay --golden_dir=golden "${target_flags[@]}" --json="$replay_json" "$@" >/dev/null || status=1

echo
printf '%-16s %-8s %6s %6s %7s %10s %10s\n' target version passed failed skipped load_ms run_ms
python3 - "$replay_json" <<'PY' 2>/dev/null || cat "$replay_json"
import json, sys, collections
data = json.load(open(sys.argv[1]))
rows = collections.OrderedDict()
for r in data["results"]:
    key = (r["target"], r["version"])
    row = rows.setdefault(key, {"pass": 0, "fail": 0, "skipped": 0, "load": 0.0, "run": 0.0})
    row[r["status"]] += 1
    row["load"] += r["load_ms"]
    row["run"] += r["run_ms"]
for (target, version), row in rows.items():
    print(f'{target:<16} v{version:<7} {row["pass"]:>6} {row["fail"]:>6} {row["skipped"]:>7} '
          f'{row["load"]:>10.1f} {row["run"]:>10.1f}')
s = data["summary"]
print(f'\nreplay: {s["passed"]} passed, {s["failed"]} failed, {s["skipped"]} skipped')
for r in data["results"]:
    if r["status"] == "fail":
        print(f'FAIL {r["target"]} v{r["version"]} {r["test"]}: {r["reason"]}')
PY
if [ "$status" -eq 0 ]; then echo "gate: PASS"; else echo "gate: FAIL"; fi
exit "$status"

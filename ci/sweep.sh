#!/usr/bin/env bash
# All-versions sweep: every golden version of every target is loaded and run
# (BackwardsCompatibility/v<N>) and the newest is reproduced
# (GoldenFileVerification/v<N>), with XLA_AOT_TEST_ALL_VERSIONS=1.
#
#   ci/sweep.sh [--out=DIR]        run this shard, write DIR/shard-<index>.json
#   ci/sweep.sh merge DIR          merge DIR/shard-*.json into DIR/sweep.json
#
# Sharding follows GoogleTest: GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX
# (unset: one shard). Any CI matrix or distributed runner can split the sweep
# by setting them per job, collect the shard JSONs and run the merge step,
# which fails when any shard failed or a shard is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

merge() {
  python3 - "$1" <<'PY'
import glob, json, os, sys
out_dir = sys.argv[1]
paths = sorted(glob.glob(os.path.join(out_dir, "shard-*.json")))
if not paths:
    sys.exit(f"sweep merge: no shard-*.json in {out_dir}")
total = passed = failed = skipped = 0
failures, shards, expected = [], [], None
for path in paths:
    with open(path) as f:
        data = json.load(f)
    meta = data.get("aot_shard", {})
    shards.append(meta.get("index"))
    expected = meta.get("total", expected)
    for suite in data.get("testsuites", []):
        for case in suite.get("testsuite", []):
            if case.get("status") != "RUN" and case.get("result") != "COMPLETED":
                continue
            total += 1
            if case.get("failures"):
                failed += 1
                failures.append(f'{suite["name"]}.{case["name"]}: ' +
                                case["failures"][0].get("failure", "").splitlines()[0])
            elif case.get("result") == "SKIPPED":
                skipped += 1
            else:
                passed += 1
missing = []
if expected is not None:
    missing = sorted(set(range(int(expected))) - {int(s) for s in shards if s is not None})
merged = {"shards": len(paths), "expected_shards": expected, "missing_shards": missing,
          "tests": total, "passed": passed, "failed": failed, "skipped": skipped,
          "failures": failures}
with open(os.path.join(out_dir, "sweep.json"), "w") as f:
    json.dump(merged, f, indent=2)
print(f"sweep: {len(paths)} shard(s), {total} tests: {passed} passed, {failed} failed, "
      f"{skipped} skipped")
for line in failures:
    print("FAIL", line)
if missing:
    print("missing shard(s):", missing)
sys.exit(1 if failed or missing else 0)
PY
}

if [ "${1:-}" = merge ]; then
  [ $# -eq 2 ] || { echo "usage: ci/sweep.sh merge DIR" >&2; exit 2; }
  merge "$2"
  exit $?
fi

out="ci-out/sweep"
for arg in "$@"; do
  case "$arg" in
    --out=*) out="${arg#--out=}" ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sweep.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
bash scripts/build.sh golden_corpus_test >/dev/null
total="${GTEST_TOTAL_SHARDS:-1}"
index="${GTEST_SHARD_INDEX:-0}"
json="$out/shard-$index.json"
status=0
GTEST_TOTAL_SHARDS="$total" GTEST_SHARD_INDEX="$index" XLA_AOT_TEST_ALL_VERSIONS=1 \
  "${AOT_BUILD_DIR:-build}/harness/testing/golden_corpus_test" --gtest_brief=1 \
  --gtest_output="json:$json" || status=$?
# Record which shard this is, so the merge can tell a missing one.
python3 - "$json" "$index" "$total" <<'PY'
import json, sys
path, index, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path) as f:
    data = json.load(f)
data["aot_shard"] = {"index": index, "total": total}
with open(path, "w") as f:
    json.dump(data, f, indent=1)
PY
echo "sweep: shard $index of $total -> $json"
exit "$status"

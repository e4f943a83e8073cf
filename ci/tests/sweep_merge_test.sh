#!/usr/bin/env bash
# ci/sweep.sh merge on synthetic shard JSONs (GoogleTest's --gtest_output
# format): a clean pair passes, a failed test fails the merge and is named, a
# missing shard fails the merge.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

shard() {  # shard INDEX TOTAL RESULT(pass|fail|skip)
  local failures='[]' result=COMPLETED
  [ "$3" = fail ] && failures='[{"failure": "golden v1 differs\nmore", "type": ""}]'
  [ "$3" = skip ] && result=SKIPPED
  cat > "$dir/shard-$1.json" <<JSON
{"tests": 1, "testsuites": [{"name": "HostGoldenTest/BackwardsCompatibility", "testsuite": [
  {"name": "AddMul/v$1", "status": "RUN", "result": "$result", "failures": $failures}]}],
 "aot_shard": {"index": $1, "total": $2}}
JSON
}

shard 0 2 pass; shard 1 2 skip
out="$(bash "$ROOT/ci/sweep.sh" merge "$dir")" || { echo "clean merge failed: $out"; exit 1; }
grep -q "2 tests: 1 passed, 0 failed, 1 skipped" <<<"$out" || { echo "bad summary: $out"; exit 1; }
grep -q '"failed": 0' "$dir/sweep.json"

shard 1 2 fail
if out="$(bash "$ROOT/ci/sweep.sh" merge "$dir")"; then echo "a failed shard passed"; exit 1; fi
grep -q "FAIL HostGoldenTest/BackwardsCompatibility.AddMul/v1: golden v1 differs" <<<"$out" ||
  { echo "failure not named: $out"; exit 1; }

rm "$dir/shard-1.json"
if out="$(bash "$ROOT/ci/sweep.sh" merge "$dir")"; then echo "a missing shard passed"; exit 1; fi
grep -q "missing shard(s): \[1\]" <<<"$out" || { echo "missing shard not named: $out"; exit 1; }
echo "sweep merge: ok"

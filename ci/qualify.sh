#!/usr/bin/env bash
# Release qualification: cut a release of this runtime, run the cross-version
# checks with real old binaries, and write the qualification report.
#   ci/qualify.sh [--now=YYYY-MM-DD] [--out=DIR] [--old=GIT_REF]...
# Every release of the forward window at --now (and each --old ref) runs
# this compiler's artifacts with its own built aot-run, a verdict per
# artifact (forward-check --build_runtime=window); the releases' runs of the
# flag-on goldens are recorded (rollout-audit --build); for the newest older
# release's commit (or each --old ref) this runtime replays its compiler's
# artifacts (forward-check --build_compiler). Old builds are cached per
# commit under .aot-cache/worktrees. Then `aot-compat report` writes
# DIR/report.json, DIR/junit.xml and DIR/index.html (default ci-out/qualify),
# the old runtimes' verdicts among them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
now="$(date -u +%F)"
out="ci-out/qualify"
olds=()
for arg in "$@"; do
  case "$arg" in
    --now=*) now="${arg#--now=}" ;;
    --out=*) out="${arg#--out=}" ;;
    --old=*) olds+=("${arg#--old=}") ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "qualify.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done
bash scripts/build.sh aot-compat >/dev/null
COMPAT="${AOT_BUILD_DIR:-build}/harness/aot-compat"
mkdir -p "$out"

"$COMPAT" release --golden_dir=golden --date="$now"
if [ "${#olds[@]}" -eq 0 ]; then
  # The newest release's commit other than this build's.
  head_commit="$(git rev-parse HEAD)"
  prev="$(python3 - "$head_commit" <<'PY'
import glob, json, sys
head = sys.argv[1]
releases = sorted((json.load(open(p)) for p in glob.glob("golden/releases/*.json")),
                  key=lambda r: (r["date"], r["id"]))
commits = [r["git_commit"] for r in releases if r["git_commit"] not in (head, "unknown")]
print(commits[-1] if commits else "")
PY
)"
  if [ -n "$prev" ] && git cat-file -e "$prev^{commit}" 2>/dev/null; then olds=("$prev"); fi
fi

status=0
runtimes=(--build_runtime=window)
for ref in "${olds[@]}"; do runtimes+=(--build_runtime="$ref"); done
"$COMPAT" forward-check --now="$now" "${runtimes[@]}" --json="$out/old-runtimes.json" |
  tee "$out/old-runtimes.txt" || status=1
"$COMPAT" rollout-audit --build | tee "$out/rollout-audit.txt" || status=1
for ref in "${olds[@]}"; do
  "$COMPAT" forward-check --build_compiler="$ref" | tee "$out/old-compiler-${ref//\//_}.txt" || status=1
done
[ "${#olds[@]}" -gt 0 ] || echo "qualify: no older release commit to build; old-compiler check skipped"

"$COMPAT" report --now="$now" --out="$out" --old_runs="$out/old-runtimes.json" || status=1
exit "$status"

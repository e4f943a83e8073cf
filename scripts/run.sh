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

# The host targets this CPU can run (aot-compat detects its ISA level) and,
# after the summary, a replay table per target and version.
exec "$COMPAT" gate --golden_dir=golden --runnable_host_targets --replay_table "$@"

#!/usr/bin/env bash
# The project's main job: builds what is needed, then runs the compatibility
# harness on the bundled corpus for the host target. For now it prints the
# tool versions and the schema fingerprint.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/build.sh aot-compat >/dev/null
BUILD_DIR="${AOT_BUILD_DIR:-build}"
"$BUILD_DIR/harness/aot-compat" version "$@"

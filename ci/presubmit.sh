#!/usr/bin/env bash
# Pre-submit gate: build, every test, then the main job.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/test.sh
bash scripts/run.sh

#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what is missing,
# configures, builds and runs every test with CTest.
#   scripts/test.sh [--sanitize] [ctest args...]
# --sanitize builds and tests under AddressSanitizer + UBSan in build-asan/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

build_args=()
ctest_args=()
for arg in "$@"; do
  case "$arg" in
    --sanitize) build_args+=(--sanitize) ;;
    -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) ctest_args+=("$arg") ;;
  esac
done

bash scripts/build.sh "${build_args[@]}"
if [ "${#build_args[@]}" -gt 0 ]; then BUILD_DIR="${AOT_BUILD_DIR:-build-asan}"; else BUILD_DIR="${AOT_BUILD_DIR:-build}"; fi

cd "$BUILD_DIR"
ctest --output-on-failure -j "${AOT_JOBS:-$(nproc)}" "${ctest_args[@]}"

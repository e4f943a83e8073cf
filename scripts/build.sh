#!/usr/bin/env bash
# Configures (once) and builds the project with Ninja.
#   scripts/build.sh [--sanitize|--tsan] [TARGET...]
# Environment: AOT_BUILD_DIR (default build; build-asan with --sanitize, build-tsan
# with --tsan),
# AOT_JOBS (default: number of cores), AOT_CMAKE_ARGS (extra configure flags).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

sanitize=0
targets=()
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    --tsan) sanitize=thread ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) targets+=("$arg") ;;
  esac
done

AOT_SETUP_QUIET=1 bash scripts/setup.sh

if [ "$sanitize" = thread ]; then
  BUILD_DIR="${AOT_BUILD_DIR:-build-tsan}"
  extra=(-DAOT_SANITIZE=thread -DCMAKE_BUILD_TYPE=Release)
elif [ "$sanitize" = 1 ]; then
  BUILD_DIR="${AOT_BUILD_DIR:-build-asan}"
  extra=(-DAOT_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug)
else
  BUILD_DIR="${AOT_BUILD_DIR:-build}"
  # Release (no debug info) keeps the CI build short; pass
  # AOT_CMAKE_ARGS=-DCMAKE_BUILD_TYPE=RelWithDebInfo for debugging.
  extra=(-DCMAKE_BUILD_TYPE=Release)
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B "$BUILD_DIR" -G Ninja "${extra[@]}" ${AOT_CMAKE_ARGS:-}
fi
jobs="${AOT_JOBS:-$(nproc)}"
cmake --build "$BUILD_DIR" -j "$jobs" ${targets[@]:+--target "${targets[@]}"}

#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what is missing,
# configures, builds and runs every test with CTest.
#   scripts/test.sh [--sanitize|--tsan] [--timings] [ctest args...]
# The parser fuzz tests and the malformed-artifact tests also run under
# AddressSanitizer + UBSan first (in build-fuzz/, clang-19's ASan + UBSan
# build of the libFuzzer targets; build-asan/ with GCC where clang-19 is
# missing), the concurrency tests under ThreadSanitizer (build-tsan/), and
# before CTest each libFuzzer target runs 10 s on its seeds.
# AOT_SKIP_SANITIZER_TESTS=1, AOT_SKIP_TSAN=1 and AOT_SKIP_FUZZ=1 skip those
# steps. --sanitize runs the whole suite sanitized instead; --tsan runs the
# ThreadSanitizer step alone. Each step's time is printed as it ends;
# --timings also prints CTest's 20 longest tests after CTest (read from its
# JUnit report, <build dir>/Testing/timings.xml).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

build_args=()
ctest_args=()
tsan_only=0
timings=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) build_args+=(--sanitize) ;;
    --tsan) tsan_only=1 ;;
    --timings) timings=1 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) ctest_args+=("$arg") ;;
  esac
done

# CTest in build directory $1 with the ctest args; with --timings, then the
# 20 longest tests of its JUnit report, printed whatever CTest's result
# (which it returns).
run_ctest() {
  local dir junit status=0 extra=()
  dir="$(cd "$1" && pwd)"
  junit="$dir/Testing/timings.xml"
  if [ "$timings" = 1 ]; then
    rm -f "$junit"
    extra+=(--output-junit "$junit")
  fi
  (cd "$dir" && ctest --output-on-failure -j "${AOT_JOBS:-$(nproc)}" ${extra[@]+"${extra[@]}"} \
    ${ctest_args[@]+"${ctest_args[@]}"}) || status=$?
  if [ "$timings" = 1 ]; then
    if [ -f "$junit" ]; then
      python3 - "$junit" <<'PY'
import sys
import xml.etree.ElementTree as ET
cases = []
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    try:
        seconds = float(case.get("time") or 0)
    except ValueError:
        seconds = 0.0
    status = case.get("status") or ""
    if case.find("skipped") is not None:
        status = "skipped"
    cases.append((seconds, case.get("name") or "?", status))
cases.sort(key=lambda c: (-c[0], c[1]))
print(f"test.sh: the {min(20, len(cases))} longest of {len(cases)} CTest tests:")
for seconds, name, status in cases[:20]:
    note = "" if status in ("", "run") else f"  ({status})"
    print(f"  {seconds:9.2f} s  {name}{note}")
PY
    else
      echo "test.sh: note: no CTest JUnit report ($junit): no timings"
    fi
  fi
  return "$status"
}

# One executable from 8 threads, the thread pool shared by several callers,
# cancellation from another thread: under ThreadSanitizer, clean. With
# "full" (scripts/test.sh --tsan) also parallel golden replay, which builds
# the compiler under TSan: too long for every CI run.
tsan_step() {
  # Its own build directory even when AOT_BUILD_DIR names the main one.
  local dir="${AOT_TSAN_BUILD_DIR:-build-tsan}"
  local targets=(executable_test thunks_test host_platform_test)
  # The CUDA platform's stream pool and graphs, against the driver double.
  local cuda=0
  [ ! -f /usr/local/cuda/include/cuda.h ] || cuda=1
  [ "$cuda" = 0 ] || targets+=(cuda_stream_rules_test)
  [ "${1:-}" != full ] || targets+=(golden_test)
  AOT_BUILD_DIR="$dir" bash scripts/build.sh --tsan "${targets[@]}"
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
  "./$dir/runtime/executable/executable_test" --gtest_brief=1 --gtest_filter='*Concurrent*'
  "./$dir/runtime/thunks/thunks_test" --gtest_brief=1 --gtest_filter='*Endless*'
  "./$dir/runtime/platform/host/host_platform_test" --gtest_brief=1
  if [ "$cuda" = 1 ]; then
    "./$dir/runtime/platform/cuda/cuda_stream_rules_test" --gtest_brief=1 \
      --gtest_filter='*Concurrent*'
  fi
  if [ "${1:-}" = full ]; then
    "./$dir/harness/golden/golden_test" --gtest_brief=1 --gtest_filter='*ParallelReplay*'
  else
    echo "test.sh: note: parallel golden replay under TSan runs with scripts/test.sh --tsan" \
      "(it builds the compiler under TSan)"
  fi
  unset TSAN_OPTIONS
}

if [ "$tsan_only" = 1 ]; then
  tsan_step full
  exit 0
fi

if [ "${#build_args[@]}" -gt 0 ]; then
  # The whole suite under AddressSanitizer + UBSan.
  bash scripts/build.sh --sanitize
  run_ctest "${AOT_BUILD_DIR:-build-asan}"
  exit 0
fi

# Each step's wall time, printed when it ends (where CI time goes).
step_start=$SECONDS
step_done() {
  echo "test.sh: $1 took $((SECONDS - step_start)) s"
  step_start=$SECONDS
}

# Formatting first: a difference from clang-format fails the run at once.
AOT_SETUP_QUIET=1 bash scripts/setup.sh
bash scripts/format.sh --check
step_done "set-up and format check"

have_clang=0
! command -v clang++-19 >/dev/null 2>&1 || have_clang=1

# The fuzz-style tests (mutated HLO text, malformed artifacts) always run
# under AddressSanitizer + UBSan too. With clang-19 they build in the
# libFuzzer targets' build (ASan + UBSan, build-fuzz/), which the fuzz step
# below needs anyway: the parser and the runtime compile once for both.
if [ "${AOT_SKIP_SANITIZER_TESTS:-0}" != 1 ]; then
  if [ "$have_clang" = 1 ]; then
    bash scripts/fuzz.sh --build hlo_test executable_test
    asan_dir="${AOT_FUZZ_BUILD_DIR:-build-fuzz}"
  else
    AOT_BUILD_DIR=build-asan bash scripts/build.sh --sanitize hlo_test executable_test
    asan_dir=build-asan
  fi
  "./$asan_dir/compiler/hlo/hlo_test" --gtest_brief=1 \
      --gtest_filter='*Fuzz*:*Mutated*:*ErrorsNamePosition*'
  "./$asan_dir/runtime/executable/executable_test" --gtest_brief=1 \
      --gtest_filter='*Malformed*:*Truncated*:*System*:*WrongIsa*:*Concurrent*'
  step_done "ASan + UBSan build and tests ($asan_dir)"
fi

if [ "${AOT_SKIP_TSAN:-0}" != 1 ]; then
  tsan_step
  step_done "ThreadSanitizer build and tests"
else
  echo "test.sh: note: ThreadSanitizer step skipped (AOT_SKIP_TSAN=1)"
fi

bash scripts/build.sh
step_done "build"

# `buf breaking` (npm @bufbuild/buf) for the schema guard's cross-check;
# best effort: without npm or the registry the cross-check test skips.
BUF_DIR="${AOT_BUILD_DIR:-build}/tools/buf"
if ! command -v buf >/dev/null 2>&1 && [ ! -x "$BUF_DIR/node_modules/.bin/buf" ] &&
   command -v npm >/dev/null 2>&1; then
  timeout 300 npm install --silent --no-audit --no-fund --prefix "$BUF_DIR" @bufbuild/buf@1.75.0 \
    >/dev/null 2>&1 || echo "test.sh: note: could not install buf; its cross-check will skip"
fi
if [ -x "$BUF_DIR/node_modules/.bin/buf" ]; then
  case "$BUF_DIR" in
    /*) export PATH="$BUF_DIR/node_modules/.bin:$PATH" ;;
    *) export PATH="$ROOT/$BUF_DIR/node_modules/.bin:$PATH" ;;
  esac
fi

# Short libFuzzer runs on the seed corpora: a regression that crashes a
# parser or the loader on its own seeds (or close mutations) fails here.
if [ "${AOT_SKIP_FUZZ:-0}" = 1 ]; then
  echo "test.sh: note: fuzz step skipped (AOT_SKIP_FUZZ=1)"
elif [ "$have_clang" = 0 ]; then
  echo "test.sh: note: fuzz step skipped: clang++-19 is not installed (scripts/setup.sh installs it)"
else
  # One fuzzer per core at a time: each is single-threaded, and they share
  # nothing but the (already built) binaries. Each one's output is printed
  # whole when all are done; any finding fails the step.
  fuzz_out="${AOT_FUZZ_BUILD_DIR:-build-fuzz}/fuzz-step"
  rm -rf "$fuzz_out" && mkdir -p "$fuzz_out"
  fuzz_status=0
  fuzz_targets=($(bash scripts/fuzz.sh --list))
  for target in "${fuzz_targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "${AOT_JOBS:-$(nproc)}" ]; do wait -n || fuzz_status=1; done
    AOT_FUZZ_SEED="${AOT_FUZZ_SEED:-1}" bash scripts/fuzz.sh "$target" "${AOT_FUZZ_SECONDS:-10}" \
      > "$fuzz_out/$target.log" 2>&1 &
  done
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || fuzz_status=1; done
  wait || fuzz_status=1
  for target in "${fuzz_targets[@]}"; do cat "$fuzz_out/$target.log"; done
  if [ "$fuzz_status" != 0 ]; then
    echo "test.sh: a fuzz target failed (its output is above)" >&2
    exit 1
  fi
  step_done "fuzz targets"
fi

# CTest last: its summary (with --timings, its longest tests) closes the run.
ctest_status=0
run_ctest "${AOT_BUILD_DIR:-build}" || ctest_status=$?
step_done "CTest"
exit "$ctest_status"

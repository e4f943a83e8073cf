#!/usr/bin/env bash
# Proves the CUDA path on a machine with a GPU, in one prepared run:
# builds with CUDA, runs every CUDA test, replays every golden version of
# the CUDA target that matches the device with execution required (outputs
# compared with the recorded ones; a skip is a failure), runs the corpus
# with the flag-gated emission (cuDNN convolutions, f16/bf16 cuBLAS GEMMs)
# against the interpreter, runs the CUDA benchmarks, and writes one
# results file (Markdown).
#   scripts/gpu_check.sh [--dry_run] [--out=FILE] [--build_dir=DIR]
#                        [--prebuilt=BUNDLE] [--keep_logs=DIR]
# --dry_run: run every step without a GPU (tests skip execution, the replay
#   is device-less and not required to execute, benchmarks report why they
#   skip) to check the script itself; the results file says DRY RUN.
# --out: the results file (default gpu_check_results.md).
# --build_dir: build tree (default build-gpu; an existing tree is reused).
# --prebuilt: a bundle from scripts/gpu_bundle.sh (built elsewhere, for a
#   GPU machine without this project's toolchain): unpacked here instead of
#   the build step; its libraries and CUDA's (cuBLAS, cuDNN, NCCL, found
#   under /usr/local/cuda*, /usr/lib and Python's nvidia packages) go on
#   LD_LIBRARY_PATH. Use --build_dir to name the bundle's build tree.
# --keep_logs: copy every step's full log into DIR.
# Without a GPU and without --dry_run it says so in one line and exits 0.
# Budget: under 8 minutes on one H100-class GPU with 16 cores (each step
# has a timeout; the build dominates on a fresh tree).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

dry_run=0
out="gpu_check_results.md"
build_dir="build-gpu"
prebuilt=""
keep_logs=""
for arg in "$@"; do
  case "$arg" in
    --dry_run) dry_run=1 ;;
    --out=*) out="${arg#--out=}" ;;
    --build_dir=*) build_dir="${arg#--build_dir=}" ;;
    --prebuilt=*) prebuilt="${arg#--prebuilt=}" ;;
    --keep_logs=*) keep_logs="${arg#--keep_logs=}" ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_check: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

# The device: name and compute capability from nvidia-smi.
gpu_name=""
gpu_cc=""
if command -v nvidia-smi > /dev/null 2>&1; then
  gpu_name="$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n1)"
  gpu_cc="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -n1 |
    tr -d ' .')"
fi
if [ -z "$gpu_name" ] && [ "$dry_run" = 0 ]; then
  echo "gpu_check: no GPU on this machine (nvidia-smi lists no device); nothing to check (--dry_run runs the steps anyway)"
  exit 0
fi
mode="GPU"
[ "$dry_run" = 1 ] && mode="DRY RUN (no device required; nothing below executed on a GPU)"

start_all=$(date +%s)
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
status_lines=()
overall=0

# step NAME SECONDS COMMAND...: runs with a timeout, keeps its output.
step() {
  local name="$1" limit="$2"
  shift 2
  local t0 rc
  t0=$(date +%s)
  echo "gpu_check: $name ..." >&2
  if declare -F "$1" > /dev/null; then
    "$@" > "$results/$name.log" 2>&1 # a function of this script: no timeout
  else
    timeout "$limit" "$@" > "$results/$name.log" 2>&1
  fi
  rc=$?
  local dt=$(($(date +%s) - t0))
  local verdict="ok"
  if [ "$rc" = 124 ]; then
    verdict="TIMED OUT after ${limit} s"
    overall=1
  elif [ "$rc" != 0 ]; then
    verdict="FAILED (exit $rc)"
    overall=1
  fi
  status_lines+=("| $name | $verdict | ${dt} s |")
  echo "gpu_check: $name: $verdict (${dt} s)" >&2
}

# unpack_prebuilt: the bundle's files in place; the build tree's CTest
# files name the root it was built in, so that path leads here; libraries.
unpack_prebuilt() {
  tar -xJf "$prebuilt" -C "$ROOT" || return 1
  local built_root
  built_root="$(cat "$ROOT/.gpu/root")"
  if [ "$built_root" != "$ROOT" ]; then
    if [ -e "$built_root" ] && [ ! -L "$built_root" ]; then
      echo "the bundle was built in $built_root, which exists here and is not this tree"
      return 1
    fi
    mkdir -p "$(dirname "$built_root")" && ln -sfn "$ROOT" "$built_root" || return 1
  fi
  echo "unpacked $prebuilt (built in $built_root)"
}

if [ -n "$prebuilt" ]; then
  step unpack_prebuilt 120 unpack_prebuilt
  libs="$ROOT/.gpu/lib"
  while IFS= read -r dir; do libs="$libs:$dir"; done < <(
    find /usr/local/cuda*/ /usr/local/nvidia /usr/lib /usr/lib64 /opt -maxdepth 10 \
      \( -name 'libcuda.so.1' -o -name 'libcublas.so.*' -o -name 'libcudnn.so.*' \
      -o -name 'libnccl.so.*' \) -not -path '*/compat/*' -not -path '*/stubs/*' \
      -printf '%h\n' 2> /dev/null | sort -u)
  export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "gpu_check: LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >&2
else
  # Everything (the CUDA tests live in several test binaries) and the
  # benchmark binary (not part of "all").
  step build 300 env AOT_BUILD_DIR="$build_dir" bash -c \
    'bash scripts/build.sh && bash scripts/build.sh cuda_bench'
fi

# The golden target of this device (cuda-sm_<cc>), if the corpus has one
# (looked up after the unpacking, which may bring it).
target=""
if [ -n "$gpu_cc" ] && [ -d "golden/executables/cuda-sm_$gpu_cc" ]; then
  target="cuda-sm_$gpu_cc"
fi

# Every CUDA test (with a device the golden tests execute and compare).
# From a bundle, those that run a program this machine lacks (cmake -P
# checks of a tool's exit status, device-independent) are left out, named.
exclude=()
not_run=()
if [ -n "$prebuilt" ] && [ -f "$ROOT/.gpu/external_tests.tsv" ]; then
  while IFS=$'\t' read -r name program; do
    if [ ! -x "$program" ]; then
      not_run+=("$name (needs $program)")
      exclude+=("^$(printf '%s' "$name" | sed 's/[]*+?^$()|{}.\\[]/\\&/g')\$")
    fi
  done < "$ROOT/.gpu/external_tests.tsv"
fi
ctest_exclude=()
if [ "${#exclude[@]}" -gt 0 ]; then
  ctest_exclude=(-E "$(IFS='|'; echo "${exclude[*]}")")
fi
step cuda_tests 150 ctest --test-dir "$build_dir" -R '[Cc]uda' \
  ${ctest_exclude[@]+"${ctest_exclude[@]}"} --output-on-failure -j "$(nproc)"

# Every version of the device's target, execution required.
if [ "$dry_run" = 1 ]; then
  step replay 60 "$build_dir/harness/aot-compat" replay --target=cuda-sm_90 --all_versions
elif [ -n "$target" ]; then
  step replay 60 "$build_dir/harness/aot-compat" replay "--target=$target" --all_versions \
    --require_execution
else
  status_lines+=("| replay | FAILED: the corpus has no golden target for compute capability $gpu_cc | 0 s |")
  overall=1
fi
# The extended element types' flag-on targets (h100 spec, sm_90) on sm_90.
for kind in complex narrow; do
  if [ "$dry_run" = 1 ]; then
    step "replay_$kind" 60 "$build_dir/harness/aot-compat" replay "--target=${kind}_types_h100" \
      --all_versions
  elif [ "$gpu_cc" = 90 ]; then
    step "replay_$kind" 60 "$build_dir/harness/aot-compat" replay "--target=${kind}_types_h100" \
      --all_versions --require_execution
  fi
done

# The emission paths still behind their flags (cuDNN convolutions, f16/bf16
# cuBLAS GEMMs, complex and narrow element types, packed sub-byte entry
# values): every single-device
# suite of the corpus, and the row reductions below, compiled with them
# on, run on the device and compared with the interpreter (the collectives
# suite needs several devices: its goldens are replayed by the multi-GPU
# check).
flag_on=(--emission_flags=emit_cudnn_convolution,emit_low_precision_gemm,emit_extended_element_types,emit_packed_sub_byte_layouts)
suites=()
for dir in golden/modules/*/; do
  [ "$(basename "$dir")" = collectives ] || suites+=("${dir%/}")
done
# Row reductions whose rows leave the GPU kernel's threads uneven shares
# (the unrolled loop's tail), long and short rows, f32/s32/f64.
suites+=(compiler/tools/testdata/gpu_row_reductions)
if [ "$dry_run" = 1 ]; then
  step flag_on_paths 90 "$build_dir/compiler/tools/aot-run" --platform=cuda "${flag_on[@]}" \
    "${suites[@]}"
else
  step flag_on_paths 90 "$build_dir/compiler/tools/aot-run" --platform=cuda "${flag_on[@]}" \
    --require_execution "${suites[@]}"
fi

step benchmarks 60 "$build_dir/compiler/bench/cuda_bench" --benchmark_min_time=0.2 \
  --benchmark_format=console "--benchmark_out=$results/benchmarks.json" \
  --benchmark_out_format=json

# Ratios against the baselines of the same run.
ratios() {
  local json="$results/benchmarks.json"
  if [ ! -s "$json" ]; then
    echo "no benchmark output"
    return
  fi
  if ! command -v python3 > /dev/null 2>&1; then
    echo "python3 missing: ratios not computed (raw JSON numbers above)"
    return
  fi
  python3 - "$json" << 'PY'
import json, sys
runs = {b["name"].split("/")[0]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if not b.get("error_occurred")}
def ratio(name, base, key, what):
    if name in runs and base in runs and runs[base].get(key):
        print(f"{name}: {runs[name][key] / runs[base][key]:.2f}x of {base} ({what})")
    else:
        print(f"{name}: not measured")
ratio("BM_Elementwise", "BM_DeviceToDeviceCopy", "bytes_per_second", "bytes/s; target >= 0.70")
ratio("BM_RowReduction", "BM_DeviceToDeviceCopy", "bytes_per_second", "bytes/s")
ratio("BM_Softmax", "BM_DeviceToDeviceCopy", "bytes_per_second", "bytes/s; target >= 0.50")
ratio("BM_Gemm", "BM_GemmCublasDirect", "FLOPS", "FLOP/s; target >= 0.95")
PY
}

elapsed=$(($(date +%s) - start_all))
{
  echo "# gpu_check results"
  echo
  echo "- mode: $mode"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  commit="$(git describe --always --dirty 2> /dev/null)"
  if [ -n "$prebuilt" ] && [ -f "$ROOT/.gpu/commit" ]; then
    # What ran is what the bundle was built from; this tree may differ.
    commit="$(cat "$ROOT/.gpu/commit") (the bundle's build; this tree: ${commit:-not a git checkout})"
  fi
  echo "- commit: ${commit:-unknown}"
  echo "- device: ${gpu_name:-none} (compute capability ${gpu_cc:-n/a}; golden target ${target:-none})"
  echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2> /dev/null | head -n1 || true)"
  echo "- total: ${elapsed} s (budget 480 s)"
  echo "- verdict: $([ "$overall" = 0 ] && echo PASS || echo FAIL)"
  echo
  echo "| step | result | time |"
  echo "|---|---|---|"
  printf '%s\n' "${status_lines[@]}"
  echo
  echo "## cuda_tests"
  echo '```'
  for t in ${not_run[@]+"${not_run[@]}"}; do echo "not run here: $t"; done
  grep -E "tests passed|tests failed|Failed|\*\*\*Failed|Not Run" "$results/cuda_tests.log" 2> /dev/null |
    head -n 40
  echo '```'
  echo "## replay"
  echo '```'
  # Failures first (at most 30), then the summary line.
  grep -E "^(fail|FAIL)" "$results/replay.log" 2> /dev/null | head -n 30
  grep -E "^replay:" "$results/replay.log" 2> /dev/null
  echo '```'
  echo "## flag_on_paths"
  echo '```'
  # Lines that did not match or failed (at most 30), then the counts.
  grep -v -E "reference: match|execution skipped|^aot-run: note:" "$results/flag_on_paths.log" \
    2> /dev/null | head -n 30
  echo "$(grep -c -E "reference: match" "$results/flag_on_paths.log" 2> /dev/null) modules" \
    "matched the interpreter on the device;" \
    "$(grep -c -E "execution skipped" "$results/flag_on_paths.log" 2> /dev/null)" \
    "loaded and validated only (not executed)"
  echo '```'
  echo "## benchmarks"
  echo '```'
  grep -E "^(BM_|Benchmark|-)" "$results/benchmarks.log" 2> /dev/null | head -n 40
  echo '```'
  echo '```'
  ratios
  echo '```'
  if [ "$overall" != 0 ]; then
    for log in "$results"/*.log; do
      echo "## $(basename "$log" .log) (last 30 lines)"
      echo '```'
      tail -n 30 "$log"
      echo '```'
    done
  fi
} > "$out"
if [ -n "$keep_logs" ]; then
  mkdir -p "$keep_logs" && cp "$results"/* "$keep_logs"/
fi
echo "gpu_check: $([ "$overall" = 0 ] && echo PASS || echo FAIL) in ${elapsed} s; results in $out"
exit "$overall"

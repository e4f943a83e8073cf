#!/usr/bin/env bash
# Runs the benchmarks (Google Benchmark binaries under */bench) and prints
# each program's figure as a ratio against the baseline measured in the
# same run: memory-bound programs against multi-threaded memcpy (same
# thread count as the runtime's pool), the dot against cblas_sgemm, and,
# when python3 has numpy, numpy on the same shapes.
#   scripts/bench.sh [--filter=REGEX] [--min_time=SECONDS] [--json=OUT.json]
# Builds what is missing first (scripts/build.sh host_bench). CUDA
# benchmarks run in scripts/gpu_check.sh.
#   scripts/bench.sh --corpus [corpus_scale_bench flags...]
# The golden corpus at scale instead: writes a synthetic 6-month history (180
# daily versions, the 12 golden targets, 150 modules each, ~5% changing per
# version, a release every 2 weeks) from the real compiler, then times
# aot-compat fsck, gate, replay --all_versions and prune on it and prints the
# figures against the issue's targets (harness/bench/corpus_scale_bench.cc;
# `--corpus --help` lists its flags, e.g. --versions=N --modules=N --target=T
# for a smaller run). Builds corpus_scale_bench and aot-compat first; the
# full run takes about 11 minutes and 2 GB of disk on 2 cores.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [ "${1:-}" = "--corpus" ]; then
  shift
  bash scripts/build.sh corpus_scale_bench aot-compat > /dev/null
  exec "${AOT_BUILD_DIR:-build}/harness/bench/corpus_scale_bench" "$@"
fi

filter="."
min_time="0.5"
json=""
for arg in "$@"; do
  case "$arg" in
    --filter=*) filter="${arg#--filter=}" ;;
    --min_time=*) min_time="${arg#--min_time=}" ;;
    --json=*) json="${arg#--json=}" ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

bash scripts/build.sh host_bench > /dev/null
build_dir="${AOT_BUILD_DIR:-build}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"$build_dir/compiler/bench/host_bench" "--benchmark_filter=$filter" \
  "--benchmark_min_time=$min_time" --benchmark_out="$out" --benchmark_out_format=json
[ -n "$json" ] && cp "$out" "$json"

# numpy comes with Debian's /usr/bin/python3 (python3-numpy); another
# python3 earlier on PATH may lack it. The OpenBLAS environment is the
# one the runtime's GEMM and the cblas baselines ran under.
py=python3
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  py=/usr/bin/python3
fi
"$py" - "$out" << 'PY'
import json, sys, timeit
data = json.load(open(sys.argv[1]))
runs = {b["name"].split("/")[0]: b for b in data["benchmarks"] if not b.get("error_occurred")}
print()
print("| program | figure | baseline | ratio | target | met |")
print("|---|---|---|---|---|---|")
def row(name, base, key, unit, target=""):
    if name not in runs or base not in runs:
        return
    a, b = runs[name].get(key), runs[base].get(key)
    if not a or not b:
        return
    met = ("yes" if a / b >= float(target.split()[-1]) else "no") if target else ""
    print(f"| {name} | {a / 1e9:.2f} G{unit} | {base} {b / 1e9:.2f} G{unit} | {a / b:.2f} | {target} | {met} |")
for name, target in [("BM_Elementwise", ">= 0.70"), ("BM_Tanh", ">= 0.70"), ("BM_RowSum", ""), ("BM_ColumnSum", ""), ("BM_FullSum", ""),
                     ("BM_Softmax", ">= 0.50"), ("BM_Transpose", ">= 0.40"),
                     ("BM_ScatterAddRows", ""), ("BM_ElementwiseExecuteAllocating", ""),
                     ("BM_ElementwiseDonated", ""), ("BM_ElementwiseBuffers", "")]:
    row(name, "BM_MemcpyThreaded", "bytes_per_second", "B/s", target)
def seconds_row(name, base, target_s):
    if name not in runs or base not in runs:
        return
    a, b = runs[name]["real_time"] / 1e3, runs[base]["real_time"] / 1e3
    mb = runs[name].get("MB", 0)
    print(f"| {name} ({mb:.1f} MB) | {a:.3f} s | {base} {b:.3f} s | {a / b:.2f}x the time | <= {target_s} s | {'yes' if a <= target_s else 'no'} |")
seconds_row("BM_ConvertStableHlo10MB", "BM_ParseHloOfStableHlo10MB", 2.0)
seconds_row("BM_LoadStableHlo10MB", "BM_ParseHloOfStableHlo10MB", 2.0)
row("BM_SpmdMlp2Partitions", "BM_SpmdMlp1Partition", "FLOPS", "FLOP/s", ">= 1.60")
row("BM_Dot", "BM_CblasSgemm", "FLOPS", "FLOP/s", ">= 0.95")
row("BM_DotBf16", "BM_CblasSgemm", "FLOPS", "FLOP/s", ">= 0.50")
row("BM_Mlp", "BM_CblasMlp", "FLOPS", "FLOP/s", ">= 1.00")
row("BM_Conv3x3", "BM_CblasSgemmConvShape", "FLOPS", "FLOP/s", ">= 0.50")
row("BM_Sort", "BM_StdSort", "items_per_second", "elem/s")
if "BM_LoadExecutable" in runs and "BM_ParseExecutableProto" in runs:
    load, parse = runs["BM_LoadExecutable"]["real_time"], runs["BM_ParseExecutableProto"]["real_time"]
    unit = runs["BM_LoadExecutable"]["time_unit"]
    print(f"| BM_LoadExecutable | {load:.1f} {unit} | BM_ParseExecutableProto {parse:.1f} {unit} | "
          f"{load / parse:.2f}x the parse | <= 3x | {'yes' if load <= 3 * parse else 'no'} |")
if "BM_CompileLargeConstant" in runs:
    r = runs["BM_CompileLargeConstant"]
    seconds = r["real_time"] / {"ns": 1e9, "us": 1e6, "ms": 1e3, "s": 1}[r["time_unit"]]
    print(f"| BM_CompileLargeConstant (8.4M-element constant) | {seconds:.2f} s | | | <= 5 s | "
          f"{'yes' if seconds <= 5 else 'no'} |")
if "BM_DusLoop100" in runs and "BM_DusLoop1000" in runs:
    # Time per step (items: steps): 1000 steps against 100, linear when ~1.
    a, b = runs["BM_DusLoop1000"]["items_per_second"], runs["BM_DusLoop100"]["items_per_second"]
    print(f"| BM_DusLoop1000 (one row per step) | {1e6 / a:.3f} us per step | BM_DusLoop100 "
          f"{1e6 / b:.3f} us per step | {b / a:.2f}x the per-step time | <= 1.5x | "
          f"{'yes' if b / a <= 1.5 else 'no'} |")
if "BM_CorpusAotAdvantage" in runs:
    r = runs["BM_CorpusAotAdvantage"]
    print(f"| BM_CorpusAotAdvantage ({r['modules']:.0f} corpus modules) | (parse + compile + load + "
          f"first run) / (load + first run): median {r['median']:.1f}x, minimum {r['minimum']:.1f}x "
          f"| | | | |")
for name in ["BM_EmptyKernelExecution", "BM_CommandBuffer100Kernels"]:
    if name in runs:
        r = runs[name]
        print(f"| {name} | {r['real_time']:.2f} {r['time_unit']} per execution | | | | |")
try:
    import numpy as np
except ImportError:
    print("\n(numpy not installed: no numpy column)")
    sys.exit(0)
x = np.full((2048, 4096), 0.5, np.float32); y = np.full((2048, 4096), 0.25, np.float32)
def best(f):
    return min(timeit.repeat(f, number=1, repeat=10))
t = np.full((4096, 4096), 0.5, np.float32)
a = np.full((1024, 1024), 0.5, np.float32)
s = np.full((4096, 1024), 0.5, np.float32)
def softmax():
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
mx = np.full((256, 1024), 0.5, np.float32); w1 = np.full((1024, 4096), 0.25, np.float32)
w2 = np.full((4096, 1024), -0.25, np.float32); b1 = np.full(4096, 0.125, np.float32)
b2 = np.ones(1024, np.float32)
def ms(name):
    r = runs.get(name)
    if r is None:
        return None
    return r["real_time"] / {"ns": 1e6, "us": 1e3, "ms": 1, "s": 1e-3}[r["time_unit"]]
print(f"\n| program (numpy {np.__version__}) | this project | numpy | ratio (numpy time / ours) |")
print("|---|---|---|---|")
for label, name, f in [
        ("x*y+x [2048,4096]", "BM_Elementwise", lambda: x * y + x),
        ("tanh [2048,4096]", "BM_Tanh", lambda: np.tanh(x)),
        ("row sum [2048,4096]", "BM_RowSum", lambda: x.sum(axis=1)),
        ("softmax rows of [4096,1024]", "BM_Softmax", softmax),
        ("transpose [4096,4096]", "BM_Transpose", lambda: np.ascontiguousarray(t.T)),
        ("dot [1024,1024]^2", "BM_Dot", lambda: a @ a),
        ("MLP block 256x1024x4096x1024", "BM_Mlp",
         lambda: np.maximum(mx @ w1 + b1, 0) @ w2 + b2)]:
    theirs, ours = best(f) * 1e3, ms(name)
    if ours is None:
        print(f"| {label} | (not run) | {theirs:.2f} ms | |")
    else:
        print(f"| {label} | {ours:.2f} ms | {theirs:.2f} ms | {theirs / ours:.2f} |")
PY

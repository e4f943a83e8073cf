#!/usr/bin/env bash
# Packs a prebuilt tree for scripts/gpu_check.sh --prebuilt: for a GPU
# machine that has the NVIDIA driver and CUDA's libraries but not this
# project's toolchain or dependencies (LLVM 19, Abseil, protobuf), and that
# takes only a small working tree (the golden executables are too large to
# travel whole; they compress well because versions share most bytes).
#   scripts/gpu_bundle.sh [--build_dir=DIR] [--out=FILE]
# Builds (scripts/build.sh, then cuda_bench) and writes one .tar.xz holding,
# under their paths relative to the repository root: every executable that
# a CTest test matching 'Cuda' runs, aot-compat, aot-run and cuda_bench;
# the CTest files of the build tree; the shared libraries those executables
# load, other than the C runtime, libstdc++ and the driver, under .gpu/lib;
# every CUDA golden target under golden/executables, with the blobs of
# golden/store its manifests name (golden/README.md); .gpu/root, the
# repository root the build tree's CTest files name; .gpu/commit; and
# .gpu/external_tests.tsv, the CUDA tests that run a program from outside
# the build tree (name, program).
# --build_dir: build tree (default build). --out: default .gpu/bundle.tar.xz
# (.gpu/ is ignored by git).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

build_dir="build"
out=".gpu/bundle.tar.xz"
for arg in "$@"; do
  case "$arg" in
    --build_dir=*) build_dir="${arg#--build_dir=}" ;;
    --out=*) out="${arg#--out=}" ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_bundle: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
for tool in jq xz ldd; do
  command -v "$tool" > /dev/null || { echo "gpu_bundle: $tool is required" >&2; exit 1; }
done

AOT_BUILD_DIR="$build_dir" bash scripts/build.sh
AOT_BUILD_DIR="$build_dir" bash scripts/build.sh cuda_bench

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The CUDA tests, listed once.
ctest --test-dir "$build_dir" -N -R '[Cc]uda' --show-only=json-v1 > "$stage/tests.json"

# The executables: this build's of the CUDA tests (a test may run one
# through cmake -P, which the GPU machine has), and the tools gpu_check runs.
exes=()
while IFS= read -r arg; do
  if [ -f "$arg" ] && [ -x "$arg" ]; then exes+=("$arg"); fi
done < <(jq -r '.tests[].command[] // empty' "$stage/tests.json" |
  grep -F "$ROOT/$build_dir/" | sort -u)
if [ "${#exes[@]}" = 0 ]; then
  echo "gpu_bundle: CTest lists no test matching 'Cuda' in $build_dir" >&2
  exit 1
fi
exes+=("$ROOT/$build_dir/harness/aot-compat" "$ROOT/$build_dir/compiler/tools/aot-run"
  "$ROOT/$build_dir/compiler/bench/cuda_bench")

files=()
for exe in "${exes[@]}"; do
  [ -x "$exe" ] || { echo "gpu_bundle: $exe was not built" >&2; exit 1; }
  files+=("$(realpath --relative-to="$ROOT" "$exe")")
done
while IFS= read -r f; do files+=("$f"); done < <(
  find "$build_dir" -path '*/CMakeFiles' -prune -o \
    \( -name CTestTestfile.cmake -o -name '*_tests.cmake' -o -name '*_include.cmake' \) \
    -print)
targets=()
while IFS= read -r t; do targets+=("$t"); done < <(
  find golden/executables -mindepth 1 -maxdepth 1 -type d \( -name 'cuda-*' -o -name '*_h100' \))
files+=(${targets[@]+"${targets[@]}"})
# The blobs their format 2 manifests name (a per-file version, format 1,
# holds its files itself), each once.
while IFS=$'\t' read -r blob manifest; do
  [ -f "$blob" ] || { echo "gpu_bundle: $blob (named by $manifest) is missing" >&2; exit 1; }
  files+=("$blob")
done < <([ "${#targets[@]}" = 0 ] || find "${targets[@]}" -name MANIFEST.json -exec jq -r '
    select(.format == 2) | input_filename as $manifest | .tests[] | ["artifacts", .artifact], ["io", .io] |
    "golden/store/\(.[0])/\(.[1][0:2])/\(.[1]).pb\t\($manifest)"' {} + | sort -t$'\t' -u -k1,1)

# The shared libraries, except those every Linux machine with a GPU driver
# has in a compatible version (glibc's, the C++ runtime's, the driver's).
mkdir -p "$stage/.gpu/lib"
ldd "${exes[@]}" 2> /dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libnvidia[^/]*)\.so' |
  while IFS= read -r lib; do cp -L "$lib" "$stage/.gpu/lib/$(basename "$lib")"; done
# The CUDA tests that run a program of this machine's (cmake -P checks of
# a tool's exit): gpu_check leaves out those whose program is missing there.
jq -r --arg b "$ROOT/$build_dir/" \
  '.tests[] | select(.command[0] != null and (.command[0] | startswith($b) | not)) |
   .name + "\t" + .command[0]' "$stage/tests.json" > "$stage/.gpu/external_tests.tsv"
echo "$ROOT" > "$stage/.gpu/root"
git describe --always --dirty > "$stage/.gpu/commit" 2> /dev/null || echo unknown > "$stage/.gpu/commit"

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
tar -cf - -C "$ROOT" "${files[@]}" -C "$stage" .gpu | xz -T0 -9 > "$tmp"
mv "$tmp" "$out"
echo "gpu_bundle: ${#exes[@]} executables, $(ls "$stage/.gpu/lib" | wc -l) libraries," \
  "$(du -h "$out" | cut -f1) in $out"

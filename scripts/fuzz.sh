#!/usr/bin/env bash
# Runs a libFuzzer target on its seed corpus.
#   scripts/fuzz.sh TARGET [SECONDS]   run for SECONDS (default 60)
#   scripts/fuzz.sh --list             the targets
#   scripts/fuzz.sh --build [TARGET...] build every fuzz target and the given
#                                      other targets (ASan + UBSan tests) only
# Builds build-fuzz/ with clang-19 (-DAOT_FUZZ=ON: libFuzzer + ASan + UBSan)
# on first use. The working corpus grows in build-fuzz/corpus/TARGET; seeds
# come from golden/. Findings (crash-*, leak-*, timeout-*, oom-*) are written
# to build-fuzz/findings/TARGET/ and fail the run (exit 1).
# Environment: AOT_FUZZ_RUNS=N stops after N executions instead of a time;
# AOT_FUZZ_SEED=N fixes libFuzzer's random seed (scripts/test.sh uses 1, so a
# CI run explores the same inputs every time; by default each run differs);
# AOT_FUZZ_ALL_VERSIONS=1 seeds the artifact fuzzers from every golden
# version (by default each target's oldest and newest).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TARGETS=(hlo_parser_fuzzer stablehlo_parser_fuzzer artifact_loader_fuzzer text_artifact_fuzzer
         schema_check_fuzzer literal_json_fuzzer golden_metadata_fuzzer)
case "${1:-}" in
  ""|-h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit $? ;;
  --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
esac

# The build directory, configured on first use.
configure() {
  AOT_SETUP_QUIET=1 bash scripts/setup.sh
  BUILD_DIR="${AOT_FUZZ_BUILD_DIR:-build-fuzz}"
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    CC=clang-19 CXX=clang++-19 cmake -S . -B "$BUILD_DIR" -G Ninja -DAOT_FUZZ=ON \
      -DCMAKE_BUILD_TYPE=Release -DAOT_BUILD_BENCHMARKS=OFF >/dev/null
  fi
}

if [ "$1" = --build ]; then
  # One Ninja run for all of them: the libraries they share build once, in
  # parallel (scripts/test.sh runs its ASan + UBSan tests from this build).
  shift
  configure
  cmake --build "$BUILD_DIR" --target "${TARGETS[@]}" "$@" -j "${AOT_JOBS:-$(nproc)}"
  exit 0
fi

target="$1"
seconds="${2:-60}"
# A loop, not `printf | grep -q`: under pipefail grep's early exit can
# SIGPIPE printf and make a known target look unknown.
known=0
for t in "${TARGETS[@]}"; do if [ "$t" = "$target" ]; then known=1; fi; done
if [ "$known" = 0 ]; then
  echo "fuzz.sh: error: unknown target '$target' (scripts/fuzz.sh --list)" >&2
  exit 2
fi
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: error: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac

configure
cmake --build "$BUILD_DIR" --target "$target" -j "${AOT_JOBS:-$(nproc)}" >/dev/null
binary="$(find "$BUILD_DIR" -type f -name "$target" -perm -u+x | head -1)"

# Seeds: what the project itself reads.
seeds="$BUILD_DIR/seeds/$target"
rm -rf "$seeds"
mkdir -p "$seeds" "$BUILD_DIR/corpus/$target" "$BUILD_DIR/findings/$target"
extra=()
case "$target" in
  hlo_parser_fuzzer)
    find golden/modules compiler/tools/testdata -name '*.hlo' -exec cp {} "$seeds"/ \;
    extra+=(-dict=compiler/hlo/hlo_parser_fuzzer.dict) ;;
  stablehlo_parser_fuzzer)
    # Each test program's pieces ("// -----") as seeds of their own.
    while IFS= read -r f; do
      awk -v out="$seeds/$(basename "$f" .mlir)" '
        /^\/\/ -----$/ { k++; next } { print > (out "." k+0 ".mlir") }' "$f"
    done < <(find compiler/stablehlo/testdata golden/modules/stablehlo -name '*.mlir' | sort)
    extra+=(-dict=compiler/stablehlo/stablehlo_parser_fuzzer.dict) ;;
  artifact_loader_fuzzer|text_artifact_fuzzer)
    # Each target's oldest and newest version: the forms the loader reads
    # span them and the versions between repeat them (CTest's golden replay
    # loads every version); AOT_FUZZ_ALL_VERSIONS=1 seeds from all of them.
    n=0
    for t in golden/executables/*/; do
      if [ "${AOT_FUZZ_ALL_VERSIONS:-0}" = 1 ]; then
        ls -d "$t"v*/
      else
        ls -d "$t"v*/ | sort -V | sed -n '1p;$p' | uniq
      fi
    done > "$BUILD_DIR/seeds/$target.versions"
    # Their artifacts: the blobs each MANIFEST.json names (format 2: binary,
    # a blob that versions share once) or the version's *.pbtxt (format 1).
    python3 - "$BUILD_DIR/seeds/$target.versions" > "$BUILD_DIR/seeds/$target.artifacts" << 'PY'
import glob, json, os, sys
seen = set()
for version_dir in open(sys.argv[1]).read().split():
    manifest_path = os.path.join(version_dir, "MANIFEST.json")
    if not os.path.isfile(manifest_path):
        sys.exit(f"fuzz.sh: error: {manifest_path} does not exist")
    with open(manifest_path) as f:
        manifest = json.load(f)
    if manifest.get("format", 1) == 1:
        files = sorted(glob.glob(os.path.join(version_dir, "*.pbtxt")))
    else:
        digests = [entry["artifact"] for _, entry in sorted(manifest["tests"].items())]
        files = [os.path.join("golden/store/artifacts", d[:2], d + ".pb") for d in digests]
    for path in files:
        if not os.path.isfile(path):
            sys.exit(f"fuzz.sh: error: {path} (named by {manifest_path}) does not exist")
        if path not in seen:
            seen.add(path)
            print(path)
PY
    # Each artifact as a text seed and, for the loader, a binary one (what
    # aotc writes by default).
    while IFS= read -r f; do
      n=$((n + 1))
      case "$f" in
        *.pbtxt) cp "$f" "$seeds/$n.pbtxt" ;;
        *) protoc -I. --decode=aot.ExecutableProto proto/executable.proto < "$f" > "$seeds/$n.pbtxt" ;;
      esac
      if [ "$target" = artifact_loader_fuzzer ]; then
        case "$f" in
          *.pbtxt) protoc -I. --encode=aot.ExecutableProto proto/executable.proto < "$f" > "$seeds/$n.pb" ;;
          *) cp "$f" "$seeds/$n.pb" ;;
        esac
      fi
    done < "$BUILD_DIR/seeds/$target.artifacts"
    # Earlier findings, kept as regressions (runtime/executable/testdata/fuzz).
    cp runtime/executable/testdata/fuzz/* "$seeds"/ ;;
  schema_check_fuzzer)
    cp golden/schema/*.binpb "$seeds"/
    protoc -I harness/schema/testdata/foreign --include_imports \
      --descriptor_set_out="$seeds/foreign.binpb" acme/model/v1/artifact.proto
    # Earlier findings, kept as regressions (harness/schema/testdata/fuzz).
    cp harness/schema/testdata/fuzz/* "$seeds"/ ;;
  literal_json_fuzzer)
    # The recorded inputs and outputs of the corpus, as aot-run writes them.
    n=0
    for f in compiler/tools/testdata/*.json compiler/tooling/testdata/literal_json_seeds/*.json; do
      [ -f "$f" ] || continue
      n=$((n + 1))
      cp "$f" "$seeds/$n.json"
    done
    extra+=(-dict=compiler/tooling/literal_json_fuzzer.dict) ;;
  golden_metadata_fuzzer)
    n=0
    for f in golden/executables/*/v*/MANIFEST.json golden/releases/*.json; do
      n=$((n + 1))
      cp "$f" "$seeds/$n.json"
    done ;;
esac

runs=()
[ -z "${AOT_FUZZ_RUNS:-}" ] || runs=(-runs="$AOT_FUZZ_RUNS")
[ -z "${AOT_FUZZ_SEED:-}" ] || runs+=(-seed="$AOT_FUZZ_SEED")
echo "fuzz.sh: $target for ${AOT_FUZZ_RUNS:+$AOT_FUZZ_RUNS runs, at most }${seconds} s on $(ls "$seeds" | wc -l) seeds"
log="$BUILD_DIR/findings/$target.log"
set +e
"$binary" -max_total_time="$seconds" ${runs[@]+"${runs[@]}"} -timeout=25 -rss_limit_mb=4096 \
  -max_len=1048576 -print_final_stats=1 -artifact_prefix="$BUILD_DIR/findings/$target/" \
  ${extra[@]+"${extra[@]}"} "$BUILD_DIR/corpus/$target" "$seeds" >"$log" 2>&1
status=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|SUMMARY)|ERROR:|Test unit written" "$log" || true
if [ "$status" != 0 ] || [ -n "$(ls -A "$BUILD_DIR/findings/$target")" ]; then
  echo "fuzz.sh: $target: FINDING (exit $status); see $BUILD_DIR/findings/$target/" >&2
  exit 1
fi
echo "fuzz.sh: $target: no findings"

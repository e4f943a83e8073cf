#!/usr/bin/env bash
# scripts/gpu_check.sh on a machine without a GPU: one line, exit 0, no
# results file; bad arguments exit 2. nvidia-smi is shadowed by a stub that
# finds no device, so this holds on GPU machines too.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' > "$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
fail() { echo "gpu_check test: FAIL: $*"; exit 1; }

out="$(cd "$tmp" && PATH="$tmp/bin:$PATH" bash "$ROOT/scripts/gpu_check.sh" --out="$tmp/r.md" 2>&1)"
rc=$?
[ "$rc" = 0 ] || fail "exit $rc without a GPU (want 0): $out"
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
case "$out" in *"no GPU on this machine"*) ;; *) fail "unexpected message: $out" ;; esac
[ ! -e "$tmp/r.md" ] || fail "wrote a results file without a GPU"

PATH="$tmp/bin:$PATH" bash "$ROOT/scripts/gpu_check.sh" --bogus > /dev/null 2>&1
[ "$?" = 2 ] || fail "an unknown argument did not exit 2"
bash "$ROOT/scripts/gpu_check.sh" --help | grep -q -- "--dry_run" || fail "--help lacks --dry_run"
echo "gpu_check no-device: ok"

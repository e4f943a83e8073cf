#!/usr/bin/env bash
# Formats the project's C++ sources with clang-format (the root .clang-format),
# or checks them.
#   scripts/format.sh           reformat every tracked .h/.cc in place
#   scripts/format.sh --check   exit 1 (listing the files) when any differs
# golden/ holds data, not sources, and is left alone.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

check=0
case "${1:-}" in
  --check) check=1 ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "format.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# The version the tree is formatted with (Debian 12's); others may differ in
# details, so the check names the one it ran.
FORMAT="${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}"
if [ -z "$FORMAT" ]; then
  echo "format.sh: error: clang-format not found (scripts/setup.sh installs it)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files -- '*.h' '*.cc' ':!:golden/**')
if [ "$check" = 0 ]; then
  "$FORMAT" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  if ! "$FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "format.sh: ${#bad[@]} file(s) differ from $("$FORMAT" --version | head -1) formatting:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "format.sh: run scripts/format.sh to fix" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted"

#!/usr/bin/env bash
# clang-format (style: .clang-format) over the C++ of lib/ tools/ tests/ bench/.
#   bash scripts/format.sh           formats the files in place
#   bash scripts/format.sh --check   changes nothing; lists the files that are not formatted and
#                                    exits 1 if there is any (CI runs this first)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == "--check" ]]; then
  check=1
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--check]" >&2
  exit 2
fi
format=${CLANG_FORMAT:-clang-format}
command -v "$format" >/dev/null || { echo "format.sh: $format not found (scripts/deps.sh)" >&2; exit 2; }
mapfile -t files < <(find lib tools tests bench -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)
if [[ $check == 0 ]]; then
  printf '%s\0' "${files[@]}" | xargs -0 -P "$(nproc)" -n 16 "$format" -i --style=file
  exit 0
fi
# each worker prints the files that formatting would change
mapfile -t unformatted < <(printf '%s\0' "${files[@]}" | xargs -0 -P "$(nproc)" -n 8 sh -c '
  for f; do "$0" --style=file "$f" | cmp -s - "$f" || echo "$f"; done' "$format" | sort)
if [[ ${#unformatted[@]} -gt 0 ]]; then
  echo "not formatted (bash scripts/format.sh formats them):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi

#!/usr/bin/env bash
# Checks that every ```cpp block in the given Markdown files is taken from a program under
# examples/, which CMake builds with -Werror, so a snippet cannot drift from the real API.
#
#   tests/docs/check_snippets.sh <repository root> [file.md ...]   (default: docs/*.md README.md)
#
# The rule (docs/README.md states it for writers): the last non-blank line before the fence names
# the program as `examples/<name>.cpp`. Each non-blank line of the block must then appear in that
# program, in the same order, compared without leading and trailing blanks and with each run of
# blanks inside a line taken as one (clang-format aligns trailing comments); a line that is just
# `// ...` (or `...`) stands for elided lines and is skipped. A failure prints `file:line: why`
# and the script exits 1.
set -euo pipefail

root=${1:?usage: check_snippets.sh <repository root> [file.md ...]}
shift
if [[ $# -eq 0 ]]; then
  set -- "$root"/docs/*.md
  [[ -f "$root/README.md" ]] && set -- "$@" "$root/README.md"
fi

status=0
for markdown in "$@"; do
  awk -v root="$root" '
    function trim(s) { gsub(/[ \t\r]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
    function fail(line, why) { printf "%s:%d: %s\n", FILENAME, line, why; failed = 1 }
    function check(   example, path, n, text, line, i, k, found) {
      if (named == "") { fail(fence_line, "```cpp block names no examples/<name>.cpp on the line before it"); return }
      if (named == "ambiguous") { fail(fence_line, "the line before this ```cpp block names more than one example"); return }
      path = root "/" named
      n = 0
      while ((getline text < path) > 0) example[++n] = trim(text)
      close(path)
      if (n == 0) { fail(fence_line, named " does not exist (or is empty)"); return }
      k = 1
      for (i = 1; i <= count; ++i) {
        line = trim(block[i])
        if (line == "" || line == "// ..." || line == "...") continue
        found = 0
        for (; k <= n; ++k) if (example[k] == line) { found = 1; ++k; break }
        if (!found) {
          fail(fence_line + i, "not in " named " (after the lines matched so far): " line)
          return
        }
      }
    }
    in_block && /^[ \t]*```/ { check(); in_block = 0; next }
    in_block { block[++count] = $0; next }
    /^[ \t]*```cpp[ \t]*$/ {
      in_block = 1; count = 0; fence_line = FNR; named = ""
      rest = previous
      while (match(rest, /examples\/[A-Za-z0-9_]+\.cpp/)) {
        name = substr(rest, RSTART, RLENGTH)
        named = (named == "" || named == name) ? name : "ambiguous"
        rest = substr(rest, RSTART + RLENGTH)
      }
      next
    }
    /^[ \t]*```/ { in_other = !in_other }
    trim($0) != "" { previous = $0 }
    END {
      if (in_block) fail(fence_line, "```cpp block is never closed")
      exit failed
    }
  ' "$markdown" || status=1
done
exit $status

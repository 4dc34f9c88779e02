#!/usr/bin/env bash
# Shows that tests/docs/check_snippets.sh can fail: each bad snippet below must be refused with
# its file:line, and a good one accepted.
#
#   tests/docs/check_snippets_fails.sh <path to check_snippets.sh>
set -uo pipefail

checker=${1:?usage: check_snippets_fails.sh <path to check_snippets.sh>}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/examples"
printf 'int main() {\n  int first = 1;\n  int second = 2;\n  return first + second;\n}\n' \
  >"$root/examples/tiny.cpp"

failures=0
# expect <pass|fail> <what> <expected output fragment> <markdown text>
expect() {
  local want=$1 what=$2 fragment=$3 markdown=$4
  printf '%s' "$markdown" >"$root/doc.md"
  local output status
  output=$("$checker" "$root" "$root/doc.md" 2>&1)
  status=$?
  if [[ $want == pass && $status -ne 0 ]] || [[ $want == fail && $status -eq 0 ]] ||
    [[ $output != *"$fragment"* ]]; then
    echo "FAILED: $what (exit $status, wanted $want with '$fragment'): $output"
    failures=$((failures + 1))
  fi
}

expect pass "an excerpt in order, with an elision" "" \
  $'From examples/tiny.cpp:\n\n```cpp\nint first = 1;\n// ...\nreturn first + second;\n```\n'
expect fail "no example named" "doc.md:3: " \
  $'Some prose.\n\n```cpp\nint first = 1;\n```\n'
expect fail "a missing example" "examples/gone.cpp does not exist" \
  $'From examples/gone.cpp:\n```cpp\nint first = 1;\n```\n'
expect fail "a line the example lacks" "doc.md:4: not in examples/tiny.cpp" \
  $'From examples/tiny.cpp:\n```cpp\nint first = 1;\nint third = 3;\n```\n'
expect fail "lines out of order" "doc.md:4: not in examples/tiny.cpp" \
  $'From examples/tiny.cpp:\n```cpp\nint second = 2;\nint first = 1;\n```\n'
expect fail "two examples named" "more than one example" \
  $'From examples/tiny.cpp or examples/other.cpp:\n```cpp\nint first = 1;\n```\n'

if ((failures > 0)); then
  echo "$failures case(s) went the wrong way"
  exit 1
fi
echo "check_snippets.sh refused every bad snippet and accepted the good one"

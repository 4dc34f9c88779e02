#!/usr/bin/env bash
# Shows that tests/docs/check_porting_guide.py can fail: each change below, to a copy of the guide
# or of a header, must be refused with its reason, and the untouched copy accepted.
#
#   tests/docs/check_porting_guide_fails.sh <repo root>
set -uo pipefail

repo=${1:?usage: check_porting_guide_fails.sh <repo root>}
checker=$repo/tests/docs/check_porting_guide.py
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

failures=0
# expect <pass|fail> <what> <expected output fragment> <shell command changing the copy in $root>
expect() {
  local want=$1 what=$2 fragment=$3 change=$4
  rm -rf "$root/repo" && mkdir -p "$root/repo/tests/fixtures" "$root/repo/docs"
  cp -r "$repo/include" "$root/repo/"
  cp "$repo/docs/porting-from-java.md" "$root/repo/docs/"
  cp "$repo/tests/fixtures/API-COVERAGE.md" "$root/repo/tests/fixtures/"
  (cd "$root/repo" && eval "$change")
  local output status
  output=$(python3 "$checker" "$root/repo" 2>&1)
  status=$?
  if [[ $want == pass && $status -ne 0 ]] || [[ $want == fail && $status -eq 0 ]] ||
    [[ $output != *"$fragment"* ]]; then
    echo "FAILED: $what (exit $status, wanted $want with '$fragment'): $output"
    failures=$((failures + 1))
  fi
}

guide=docs/porting-from-java.md
expect pass "the guide as it is" "types checked" ":"
expect fail "a Redisson operation without a row" "RMap.putIfAbsent: no row" \
  "sed -i '/^| \`putIfAbsent\` | \`put_if_absent\` |\$/d' $guide"
expect fail "a row naming an operation the header lacks" "Map has no public put_if_absnt" \
  "sed -i 's/^| \`putIfAbsent\` | \`put_if_absent\` |\$/| \`putIfAbsent\` | \`put_if_absnt\` |/' $guide"
expect fail "a row for a name Redisson does not have" "RMap.putIfMissing is not in" \
  "sed -i 's/^| \`putIfAbsent\` | \`put_if_absent\` |\$/&\n| \`putIfMissing\` | \`put_if_absent\` |/' $guide"
expect fail "a reason that says nothing" "needs the reason" \
  "sed -i 's/^| \`putIfAbsent\` | \`put_if_absent\` |\$/| \`putIfAbsent\` | — |/' $guide"
expect fail "a header gaining an operation the guide does not name" \
  "Map::brand_new_operation (Map) is public but the guide does not name it" \
  "sed -i 's/^  std::optional<V> get(const K& key) const {/  void brand_new_operation();\n&/' include/redisson/objects/map.hpp"
expect fail "a type without a section" "no section for RMap" \
  "sed -i 's/^## RMap — /## RMapped — /' $guide"

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "check_porting_guide.py refuses every bad guide and header it was shown"

#!/usr/bin/env bash
# Runs redisson-bench against a throwaway redis-server on loopback, keeps the results under
# build/bench/ and prints a table.
#
# Usage: scripts/run-bench.sh [extra redisson-bench args, e.g. --duration 1s]
#
# Environment:
#   BUILD_DIR       build tree holding bench/redisson-bench    (default: build)
#   BENCH_SCENARIO  --scenario value                            (default: all)
#   REDISSON_URL    benchmark this server instead of starting one
#
# redisson-bench prints one JSON object per scenario per line on stdout (progress on stderr).
# Kept as:  build/bench/results.jsonl  (as printed)
#           build/bench/results.json   ({"url": ..., "results": [ ...one object per scenario... ]})
# The exit status is redisson-bench's (non-zero when a scenario failed).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
bench=$build/bench/redisson-bench
out_dir=$build/bench
lines=$out_dir/results.jsonl
results=$out_dir/results.json

if [[ ! -x $bench ]]; then
  echo "bench: $bench does not exist yet (bench/ is not written or not built; run: make build)" >&2
  exit 1
fi
mkdir -p "$out_dir"

url=${REDISSON_URL:-}
if [[ -z $url ]]; then
  out=$(scripts/redis-start.sh)
  read -r port pid dir <<<"$out"
  trap 'scripts/redis-stop.sh "$dir"' EXIT
  trap 'exit 130' INT TERM
  url=redis://127.0.0.1:$port
  echo "bench: throwaway redis-server pid $pid on 127.0.0.1:$port" >&2
fi

status=0
"$bench" --scenario "${BENCH_SCENARIO:-all}" --url "$url" "$@" >"$lines" || status=$?

if command -v python3 >/dev/null 2>&1; then
  python3 - "$lines" "$results" "$url" <<'PY'
import json, sys

lines_path, json_path, url = sys.argv[1:4]
rows = []
with open(lines_path) as f:
    for line in f:
        line = line.strip()
        if line:
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                rows.append({"error": "not JSON: " + line[:80]})
with open(json_path, "w") as f:
    json.dump({"url": url, "results": rows}, f, indent=2)
    f.write("\n")
if not rows:
    print("(no results)")
    sys.exit(0)

def scalar(v):
    return not isinstance(v, (dict, list))

preferred = ["scenario", "ops_per_s", "p50_us", "p99_us", "p999_us", "max_us", "meets_target",
             "error"]
columns = [k for k in preferred if any(k in r for r in rows)]
columns += sorted({k for r in rows for k, v in r.items()
                   if scalar(v) and k not in columns and k != "target"})

def cell(v):
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:,.1f}"
    if isinstance(v, int):
        return f"{v:,}"
    return "" if v is None else str(v)[:60]

table = [columns] + [[cell(r.get(c)) for c in columns] for r in rows]
widths = [max(len(row[i]) for row in table) for i in range(len(columns))]
for n, row in enumerate(table):
    print("  ".join(v.ljust(w) if i == 0 or not v[:1].isdigit() else v.rjust(w)
                    for i, (v, w) in enumerate(zip(row, widths))).rstrip())
    if n == 0:
        print("  ".join("-" * w for w in widths))
for r in rows:
    if "target" in r:
        print(f"target ({r.get('scenario', '?')}): {r['target']}: "
              f"{'met' if r.get('meets_target') else 'NOT met'}")
PY
else
  # No python3: a rough table from the flat fields of each line, and the lines kept as-is.
  cp "$lines" "$results"
  awk '
    function field(name,   m) {
      if (match($0, "\"" name "\":(\"[^\"]*\"|[-0-9.eE+]+|true|false)")) {
        m = substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
        gsub(/"/, "", m)
        return m
      }
      return ""
    }
    BEGIN { printf "%-14s %14s %10s %10s  %s\n", "scenario", "ops_per_s", "p50_us", "p99_us", "error" }
    NF { printf "%-14s %14s %10s %10s  %s\n", field("scenario"), field("ops_per_s"),
         field("p50_us"), field("p99_us"), field("error") }
  ' "$lines"
fi
echo "bench: results in $results (raw lines: $lines)" >&2
exit "$status"

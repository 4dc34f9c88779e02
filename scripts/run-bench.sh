#!/usr/bin/env bash
# Runs redisson-bench against a throwaway redis-server on loopback (or REDISSON_URL), keeps the
# JSON lines in build/bench/results.json and prints a table. Builds nothing: `make bench`
# builds first.
#
# Usage: scripts/run-bench.sh [extra redisson-bench args...]
#
# Environment:
#   SCENARIO        --scenario value: raw, bucket, atomic-long, rate-limiter, codec, uncontended,
#                   parallel, parallel-cluster, handoff, contention, fair-contention, rw,
#                   semaphore, all (all and parallel-cluster start a throwaway 3-master cluster
#                   as well)
#                   (default: all; BENCH_SCENARIO is accepted too)
#   BENCH_DURATION  --duration value per scenario (default: 5s)
#   BUILD_DIR       build tree holding bench/redisson-bench (default: build)
#   REDISSON_URL    benchmark this server instead of starting one
#   BENCH_TIMEOUT   seconds before the whole run is stopped (default: 1800)
#
# The throwaway server binds 127.0.0.1, has a lifetime guard, and is stopped by PID on every
# exit path (success, failure, Ctrl-C).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
bench=$build/bench/redisson-bench
out_dir=$build/bench
results=$out_dir/results.json
scenario=${SCENARIO:-${BENCH_SCENARIO:-all}}
duration=${BENCH_DURATION:-5s}
bench_timeout=${BENCH_TIMEOUT:-1800}

if [[ ! -x $bench ]]; then
  echo "bench: $bench does not exist (run: make build, or make bench)" >&2
  exit 1
fi
mkdir -p "$out_dir"

url=${REDISSON_URL:-}
if [[ -z $url ]]; then
  # The guard stops the server even if this script is killed before its trap runs.
  out=$(scripts/redis-start.sh --lifetime "$((bench_timeout + 120))")
  read -r port pid dir <<<"$out"
  trap 'scripts/redis-stop.sh "$dir" || true' EXIT
  trap 'exit 130' INT TERM
  url=redis://127.0.0.1:$port
  echo "bench: throwaway redis-server pid $pid on 127.0.0.1:$port" >&2
fi

# parallel-cluster (in `all` too) compares against a throwaway 3-master cluster.
cluster_args=()
if [[ ,$scenario, == *,all,* || ,$scenario, == *,parallel-cluster,* ]]; then
  cluster_env=$(scripts/redis-cluster-start.sh --env --replicas 0 --lifetime "$((bench_timeout + 120))")
  eval "$cluster_env"
  trap 'scripts/redis-cluster-stop.sh "$REDIS_CLUSTER_DIR" || true; [[ -n ${dir:-} ]] && scripts/redis-stop.sh "$dir" || true' EXIT
  cluster_args=(--cluster-urls "$REDIS_CLUSTER_URLS")
  echo "bench: throwaway cluster, masters on ports $REDIS_CLUSTER_MASTER_PORTS" >&2
fi

status=0
timeout --kill-after=10 "$bench_timeout" \
  "$bench" --scenario "$scenario" --url "$url" --duration "$duration" "${cluster_args[@]}" "$@" |
  tee "$results" || status=$?
echo "bench: JSON lines in $results" >&2

if command -v python3 >/dev/null 2>&1; then
  python3 - "$results" <<'PY'
import json, sys

rows = []
with open(sys.argv[1]) as f:
    for line in f:
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
if not rows:
    print("(no results)")
    sys.exit(0)

def num(v, digits=1):
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, (int, float)):
        return f"{v:,.{digits}f}" if isinstance(v, float) else f"{v:,}"
    return "" if v is None else str(v)

def extra(r):
    s = r.get("scenario")
    if "error" in r:
        return "error: " + r["error"]
    if s == "uncontended":
        return f"ping p50 {num(r.get('ping_p50_us'))} us, script pair p50 {num(r.get('script_pair_p50_us'))} us"
    if s == "parallel":
        sp = r.get("script_pairs", {})
        return f"plain-EVALSHA pairs {num(sp.get('ops_per_s'), 0)}/s (locks at {num(sp.get('lock_over_script_pairs'), 2)}x)"
    if s == "parallel-cluster":
        shares = ", ".join(f"{m.get('share')}/{m.get('names_share')}" for m in r.get("spread", []))
        return (f"one master {num(r.get('single_master_ops_per_s'), 0)}/s; script share per master "
                f"(actual/names): {shares}")
    if s == "handoff":
        return f"from unlock() call: p50 {num(r.get('from_unlock_start_p50_us'))} us, p99 {num(r.get('from_unlock_start_p99_us'))} us"
    if s == "contention":
        return (f"busy {num(r.get('busy'), 2)}, {num(r.get('commands_per_acquisition'), 1)} cmds/acq, "
                f"per process {r.get('per_process_min')}..{r.get('per_process_max')}, "
                f"idle gap p50 {num(r.get('idle_gap_p50_us'))} us")
    if s == "fair-contention":
        return (f"busy {num(r.get('busy'), 2)}, order violations {r.get('order_violations')}, "
                f"{num(r.get('commands_per_acquisition'), 1)} cmds/acq, Jain {r.get('jain_index')}")
    if s == "rw":
        w, rd = r.get("writer", {}), r.get("readers", {})
        return (f"readers {num(rd.get('ops_per_s'), 0)}/s, writer {num(w.get('ops_per_s'), 1)}/s "
                f"(wait p50 {num(w.get('wait_p50_us'))} us), violations {r.get('violations')}")
    if s == "rate-limiter":
        ref = r.get("reference", {})
        return (f"client CPU {num(r.get('client_cpu_us_per_call'), 2)} us/call vs raw "
                f"{num(ref.get('client_cpu_us_per_call'), 2)} us")
    if s == "codec":
        parts = []
        for codec in ("kryo5", "json"):
            for name, m in r.get(codec, {}).items():
                parts.append(f"{codec} {name} {num(m.get('encode_ns'), 0)}/{num(m.get('decode_ns'), 0)}")
        return "ns encode/decode: " + ", ".join(parts)
    if s == "many-locks":
        m, w = r.get("memory", {}), r.get("renewal", {})
        return (f"{num(m.get('bytes_per_lock'), 0)} B/lock, renewal {num(w.get('script_calls_per_s'), 1)} "
                f"calls/s (Redisson {num(w.get('redisson_script_calls_per_s'), 1)}), keys "
                f"{num(w.get('keys_renewed_per_s'), 0)}/s of {num(w.get('expected_keys_per_s'), 0)}, "
                f"lost {r.get('lost')}, missing {r.get('missing_at_end')}, handler errors "
                f"{r.get('error_handler_calls')}")
    if s == "near-cache":
        h, i, u = r.get("hits", {}), r.get("invalidate", {}), r.get("update", {})
        return (f"hits {num(h.get('ratio'), 0)}x Map::get ({num(h.get('plain_map_ops_per_s'), 0)}/s); "
                f"invalidate p50 {num(i.get('p50_us'))} us = {num(i.get('ratio'), 2)}x PING; "
                f"update p50 {num(u.get('p50_us'))} us = {num(u.get('ratio'), 2)}x PING")
    if s == "executor":
        t, l = r.get("throughput", {}), r.get("latency", {})
        return (f"{num(t.get('tasks_per_s'), 0)} tasks/s = {num(t.get('ratio_to_list_handover'), 2)}x "
                f"list hand-overs; submit->start p50 {num(l.get('submit_to_start_p50_us'))} us, "
                f"p99 {num(l.get('submit_to_start_p99_us'))} us")
    if s == "semaphore":
        return (f"busy {num(r.get('busy'), 2)} of {r.get('permits')} permits, "
                f"{num(r.get('commands_per_acquisition'), 1)} cmds/acq, Jain {r.get('jain_index')}, "
                f"violations {r.get('violations')}")
    return ""

header = ["scenario", "ops/s", "p50 us", "p99 us", "reference ops/s", "ratio", "target", "met", "notes"]
table = [header]
for r in rows:
    ref = r.get("reference", {})
    table.append([
        str(r.get("scenario", "?")), num(r.get("ops_per_s"), 0), num(r.get("p50_us")),
        num(r.get("p99_us")), num(ref.get("ops_per_s"), 0) if ref else "",
        num(r.get("ratio"), 2) if "ratio" in r else "", str(r.get("target", "")),
        num(r.get("meets_target")) if "meets_target" in r else "", extra(r)])
widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
for n, row in enumerate(table):
    cells = [v.ljust(w) if i in (0, 6) else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))]
    print("  ".join(cells + [row[-1]]))
    if n == 0:
        print("  ".join("-" * w for w in widths) + "  -----")
PY
else
  cat "$results"
fi
exit "$status"

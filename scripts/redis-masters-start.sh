#!/usr/bin/env bash
# Starts N independent throwaway redis-server masters on free 127.0.0.1 ports (for RedLock and
# other multi-master tests and demos), each exactly as redis-start.sh starts one.
#
# Usage: scripts/redis-masters-start.sh [--count N] [--lifetime SECONDS] [--env] [--]
#                                       [redis-server args...]
#
#   --count N        masters (default 3)
#   --lifetime S     stop every server after S seconds even if nobody calls the stop script
#                    (default: $REDIS_MAX_LIFETIME, else 3600)
#   --env            print shell assignments instead of the plain lines below
#   anything else    passed to every redis-server unchanged
#
# Plain output: the setup's dir on the first line, then one line per server, "PORT PID master":
#   { read -r dir; while read -r port pid role; do ...; done; } < <(scripts/redis-masters-start.sh)
# --env output: REDIS_MASTERS_DIR, REDIS_MASTERS_PORTS and REDIS_MASTERS_PIDS (space separated),
#   REDIS_MASTERS_URLS (comma separated redis:// addresses):
#   eval "$(scripts/redis-masters-start.sh --env)"; ...; scripts/redis-masters-stop.sh "$REDIS_MASTERS_DIR"
#
# Each server's dir (redis.log, its lifetime guard) is a sub-dir of the setup's dir.
set -euo pipefail
export RC_PROG=redis-masters-start # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

count=3
lifetime=${REDIS_MAX_LIFETIME:-3600}
format=plain
extra=()
while (($#)); do
  case $1 in
    --count | --lifetime)
      (($# >= 2)) || rc_die "$1 needs a value"
      if [[ $1 == --count ]]; then count=$2; else lifetime=$2; fi
      shift 2
      ;;
    --count=*) count=${1#*=}; shift ;;
    --lifetime=*) lifetime=${1#*=}; shift ;;
    --env) format='env'; shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    --) shift; extra+=("$@"); break ;;
    *) extra+=("$1"); shift ;;
  esac
done
[[ $count =~ ^[0-9]+$ && $count -ge 1 ]] || rc_die "bad --count: $count"
[[ $lifetime =~ ^[0-9]+$ && $lifetime -gt 0 ]] || rc_die "bad lifetime: $lifetime"

topdir=$(rc_make_dir redisson-masters)
done_ok=no
# On any failure (or Ctrl-C) stop whatever was started, by PID, and remove the dirs.
cleanup() {
  [[ $done_ok == yes ]] || "$RC_SCRIPTS_DIR/redis-cluster-stop.sh" "$topdir" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ports=()
pids=()
for ((n = 0; n < count; n++)); do
  # TMPDIR puts the server's dir inside ours, so one stop call finds every server.
  line=$(TMPDIR=$topdir "$RC_SCRIPTS_DIR/redis-start.sh" --lifetime "$lifetime" -- "${extra[@]}") ||
    rc_die "could not start master $((n + 1)) of $count"
  read -r port pid _ <<<"$line"
  ports+=("$port")
  pids+=("$pid")
done

for i in "${!ports[@]}"; do printf '%s %s master\n' "${ports[i]}" "${pids[i]}"; done >"$topdir/nodes"
done_ok=yes

if [[ $format == env ]]; then
  urls=$(printf 'redis://127.0.0.1:%s,' "${ports[@]}")
  printf 'REDIS_MASTERS_DIR=%q\nREDIS_MASTERS_PORTS=%q\nREDIS_MASTERS_PIDS=%q\nREDIS_MASTERS_URLS=%q\n' \
    "$topdir" "${ports[*]}" "${pids[*]}" "${urls%,}"
else
  printf '%s\n' "$topdir"
  cat "$topdir/nodes"
fi

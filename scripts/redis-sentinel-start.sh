#!/usr/bin/env bash
# Starts a throwaway Sentinel setup on free 127.0.0.1 ports, for tests and demos: one master, one
# replica (replicaof) and three sentinels monitoring the master as "mymaster" with quorum 2. When
# this returns, every sentinel knows the master, the replica (linked and healthy) and the other
# sentinels, so a failover can start at once.
#
# Usage: scripts/redis-sentinel-start.sh [--name NAME] [--sentinels N] [--quorum Q]
#                                        [--lifetime SECONDS] [--env] [--] [redis-server args...]
#
#   --name NAME      the monitored master's name (default mymaster)
#   --sentinels N    sentinels (default 3); --quorum Q: votes to agree the master is down
#                    (default 2)
#   --lifetime S     stop every process after S seconds even if nobody calls the stop script
#                    (default: $REDIS_MAX_LIFETIME, else 3600)
#   --env            print shell assignments instead of the plain lines below
#   anything else    passed to the master's and the replica's redis-server unchanged
#
# Sentinels use down-after-milliseconds 1000 and failover-timeout 5000, so failovers are quick.
#
# Plain output: the setup's dir on the first line, then one line per process, "PORT PID ROLE"
# (ROLE is master, replica or sentinel):
#   { read -r dir; while read -r port pid role; do ...; done; } < <(scripts/redis-sentinel-start.sh)
# --env output: REDIS_SENTINEL_DIR, REDIS_SENTINEL_MASTER_NAME, REDIS_SENTINEL_MASTER_PORT,
#   REDIS_SENTINEL_REPLICA_PORT, REDIS_SENTINEL_PORTS and REDIS_SENTINEL_PIDS (space separated,
#   sentinels only), REDIS_SENTINEL_URLS (comma separated redis:// addresses of the sentinels):
#   eval "$(scripts/redis-sentinel-start.sh --env)"; ...; scripts/redis-sentinel-stop.sh "$REDIS_SENTINEL_DIR"
#
# Every process binds 127.0.0.1 only, keeps nothing on disk (a sentinel rewrites its own
# sentinel.conf), has its own dir (with a lifetime guard) inside the setup's dir, and is stopped by
# PID. $REDIS_SENTINEL_TIMEOUT (default 30) bounds the wait for the sentinels to be ready.
set -euo pipefail
export RC_PROG=redis-sentinel-start # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

name=mymaster
sentinels=3
quorum=2
lifetime=${REDIS_MAX_LIFETIME:-3600}
ready_timeout=${REDIS_SENTINEL_TIMEOUT:-30}
format=plain
extra=()
while (($#)); do
  case $1 in
    --name | --sentinels | --quorum | --lifetime)
      (($# >= 2)) || rc_die "$1 needs a value"
      case $1 in
        --name) name=$2 ;;
        --sentinels) sentinels=$2 ;;
        --quorum) quorum=$2 ;;
        --lifetime) lifetime=$2 ;;
      esac
      shift 2
      ;;
    --name=*) name=${1#*=}; shift ;;
    --sentinels=*) sentinels=${1#*=}; shift ;;
    --quorum=*) quorum=${1#*=}; shift ;;
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
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || rc_die "bad --name: $name"
[[ $sentinels =~ ^[0-9]+$ && $sentinels -ge 1 ]] || rc_die "bad --sentinels: $sentinels"
[[ $quorum =~ ^[0-9]+$ && $quorum -ge 1 && $quorum -le $sentinels ]] || rc_die "bad --quorum: $quorum"
[[ $lifetime =~ ^[0-9]+$ && $lifetime -gt 0 ]] || rc_die "bad lifetime: $lifetime"
[[ $ready_timeout =~ ^[0-9]+$ && $ready_timeout -gt 0 ]] || rc_die "bad REDIS_SENTINEL_TIMEOUT"
command -v "$(rc_server_bin)" >/dev/null || rc_die "$(rc_server_bin) not found (run: make deps)"
command -v "$(rc_cli_bin)" >/dev/null || rc_die "$(rc_cli_bin) not found (run: make deps)"

topdir=$(rc_make_dir redisson-sentinel)
done_ok=no
# On any failure (or Ctrl-C) stop whatever was started, by PID, and remove the dirs.
cleanup() {
  [[ $done_ok == yes ]] || "$RC_SCRIPTS_DIR/redis-cluster-stop.sh" "$topdir" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cli() { timeout 5 "$(rc_cli_bin)" -h 127.0.0.1 -p "$@" 2>/dev/null; }

# start_node KIND [redis-server args...]: starts one process in a fresh sub-dir, retrying on
# another port when its port is taken; sets $port and $pid.
start_node() {
  local kind=$1 nodedir attempt rc
  shift
  nodedir=$(TMPDIR=$topdir rc_make_dir "$kind")
  pid=''
  for ((attempt = 1; attempt <= 5; attempt++)); do
    port=$(rc_pick_port plain)
    if [[ $kind == sentinel ]]; then
      write_sentinel_conf "$nodedir"
      # rc_start_redis puts its own options first, but a sentinel's config file must be the
      # first argument: run the server through a two-line wrapper that puts it there.
      printf '#!/bin/sh\nexec %q %q --sentinel "$@"\n' "$(command -v "$(rc_server_bin)")" \
        "$nodedir/sentinel.conf" >"$nodedir/redis-sentinel-exec"
      chmod +x "$nodedir/redis-sentinel-exec"
    fi
    rc=0
    if [[ $kind == sentinel ]]; then
      pid=$(REDIS_SERVER_BIN=$nodedir/redis-sentinel-exec rc_start_redis "$nodedir" "$port") || rc=$?
    else
      pid=$(rc_start_redis "$nodedir" "$port" "$@") || rc=$?
    fi
    ((rc == 0)) && break
    pid=''
    ((rc == 2)) || break
    rc_log "port $port is taken; trying another"
  done
  [[ -n $pid ]] || rc_die "could not start the $kind"
  rc_start_guard "$nodedir" "$lifetime"
}

write_sentinel_conf() {
  cat >"$1/sentinel.conf" <<EOF
bind 127.0.0.1
sentinel resolve-hostnames no
sentinel monitor $name 127.0.0.1 $master_port $quorum
sentinel down-after-milliseconds $name 1000
sentinel failover-timeout $name 5000
EOF
}

# A replica's first sync would otherwise wait repl-diskless-sync-delay (5 s) for more replicas,
# and write the received RDB to disk.
fast_sync=(--repl-diskless-sync-delay 0 --repl-diskless-load on-empty-db)
start_node master "${fast_sync[@]}" "${extra[@]}"
master_port=$port
master_pid=$pid
start_node replica --replicaof 127.0.0.1 "$master_port" "${fast_sync[@]}" "${extra[@]}"
replica_port=$port
replica_pid=$pid

deadline=$((SECONDS + ready_timeout))
# Start the sentinels only once the replica is linked: the master's INFO then lists it, and each
# sentinel learns about it with its first INFO instead of 10 s later.
until [[ $(cli "$replica_port" info replication | tr -d '\r') == *master_link_status:up* ]]; do
  ((SECONDS < deadline)) || rc_die "the replica did not link to its master in ${ready_timeout}s"
  sleep 0.05
done

sentinel_ports=()
sentinel_pids=()
for ((n = 0; n < sentinels; n++)); do
  start_node sentinel
  sentinel_ports+=("$port")
  sentinel_pids+=("$pid")
done

# field NAME: the value after NAME in the key/value lines on stdin (redis-cli prints one per line).
field() { awk -v key="$1" 'NR % 2 == 1 && $0 == key { getline; print; exit }'; }
# A sentinel is ready when it sees the master up, the replica linked and healthy, and every other
# sentinel (sentinels discover each other through hello messages, every 2 s).
sentinel_ready() {
  local sport=$1 master replicas
  master=$(cli "$sport" sentinel master "$name") || return 1
  [[ $(field flags <<<"$master") == master &&
    $(field num-slaves <<<"$master") == 1 &&
    $(field num-other-sentinels <<<"$master") == $((sentinels - 1)) ]] || return 1
  replicas=$(cli "$sport" sentinel replicas "$name") || return 1
  [[ $(field flags <<<"$replicas") == slave && $(field master-link-status <<<"$replicas") == ok ]]
}
pending=("${sentinel_ports[@]}")
while ((${#pending[@]})); do
  still=()
  for sport in "${pending[@]}"; do sentinel_ready "$sport" || still+=("$sport"); done
  pending=("${still[@]}")
  ((${#pending[@]})) || break
  if ((SECONDS >= deadline)); then
    rc_log "sentinel(s) on port(s) ${pending[*]} not ready after ${ready_timeout}s:"
    cli "${pending[0]}" sentinel master "$name" | paste - - >&2 || true
    exit 1
  fi
  sleep 0.1
done

{
  printf '%s %s master\n' "$master_port" "$master_pid"
  printf '%s %s replica\n' "$replica_port" "$replica_pid"
  for i in "${!sentinel_ports[@]}"; do
    printf '%s %s sentinel\n' "${sentinel_ports[i]}" "${sentinel_pids[i]}"
  done
} >"$topdir/nodes"
done_ok=yes

if [[ $format == env ]]; then
  urls=$(printf 'redis://127.0.0.1:%s,' "${sentinel_ports[@]}")
  printf 'REDIS_SENTINEL_DIR=%q\nREDIS_SENTINEL_MASTER_NAME=%q\n' "$topdir" "$name"
  printf 'REDIS_SENTINEL_MASTER_PORT=%s\nREDIS_SENTINEL_REPLICA_PORT=%s\n' \
    "$master_port" "$replica_port"
  printf 'REDIS_SENTINEL_PORTS=%q\nREDIS_SENTINEL_PIDS=%q\nREDIS_SENTINEL_URLS=%q\n' \
    "${sentinel_ports[*]}" "${sentinel_pids[*]}" "${urls%,}"
else
  printf '%s\n' "$topdir"
  cat "$topdir/nodes"
fi

#!/usr/bin/env bash
# Starts a throwaway Redis Cluster on free 127.0.0.1 ports, for tests and demos: by default
# 3 masters + 3 replicas, created with `redis-cli --cluster create` and ready (cluster_state:ok on
# every node, every node knows every other, every replica linked to its master) when this returns.
#
# Usage: scripts/redis-cluster-start.sh [--masters N] [--replicas R] [--node-timeout MS]
#                                       [--lifetime SECONDS] [--env] [--] [redis-server args...]
#
#   --masters N        masters (default 3, at least 3: redis-cli refuses fewer)
#   --replicas R       replicas per master (default 1)
#   --node-timeout MS  cluster-node-timeout (default 2000, so failover tests are quick)
#   --lifetime S       stop every node after S seconds even if nobody calls the stop script
#                      (default: $REDIS_MAX_LIFETIME, else 3600)
#   --env              print shell assignments instead of the plain lines below
#   anything else      passed to every redis-server unchanged
#
# Plain output: the cluster's dir on the first line, then one line per node, "PORT PID ROLE"
# (ROLE is master or replica):
#   { read -r dir; while read -r port pid role; do ...; done; } < <(scripts/redis-cluster-start.sh)
# --env output: REDIS_CLUSTER_DIR, REDIS_CLUSTER_PORTS, REDIS_CLUSTER_PIDS,
#   REDIS_CLUSTER_MASTER_PORTS, REDIS_CLUSTER_REPLICA_PORTS (space separated) and
#   REDIS_CLUSTER_URLS (comma separated redis:// seeds):
#   eval "$(scripts/redis-cluster-start.sh --env)"; ...; scripts/redis-cluster-stop.sh "$REDIS_CLUSTER_DIR"
#
# Every node binds 127.0.0.1 only, keeps nothing on disk but its nodes-PORT.conf, allows DEBUG
# from loopback, has its own dir (with a lifetime guard) inside the cluster's dir, and is stopped
# by PID. Bus ports are PORT+10000, so ports are drawn from $REDIS_PORT_MIN..$REDIS_PORT_MAX
# (default 20000..55000). $REDIS_CLUSTER_TIMEOUT (default 30) bounds the wait for cluster_state:ok.
set -euo pipefail
export RC_PROG=redis-cluster-start # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

masters=3
replicas=1
node_timeout=2000
lifetime=${REDIS_MAX_LIFETIME:-3600}
ready_timeout=${REDIS_CLUSTER_TIMEOUT:-30}
format=plain
extra=()
while (($#)); do
  case $1 in
    --masters | --replicas | --node-timeout | --lifetime)
      (($# >= 2)) || rc_die "$1 needs a value"
      case $1 in
        --masters) masters=$2 ;;
        --replicas) replicas=$2 ;;
        --node-timeout) node_timeout=$2 ;;
        --lifetime) lifetime=$2 ;;
      esac
      shift 2
      ;;
    --masters=*) masters=${1#*=}; shift ;;
    --replicas=*) replicas=${1#*=}; shift ;;
    --node-timeout=*) node_timeout=${1#*=}; shift ;;
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
[[ $masters =~ ^[0-9]+$ && $masters -ge 3 ]] || rc_die "bad --masters: $masters (at least 3)"
[[ $replicas =~ ^[0-9]+$ ]] || rc_die "bad --replicas: $replicas"
[[ $node_timeout =~ ^[0-9]+$ && $node_timeout -gt 0 ]] || rc_die "bad --node-timeout: $node_timeout"
[[ $lifetime =~ ^[0-9]+$ && $lifetime -gt 0 ]] || rc_die "bad lifetime: $lifetime"
[[ $ready_timeout =~ ^[0-9]+$ && $ready_timeout -gt 0 ]] || rc_die "bad REDIS_CLUSTER_TIMEOUT"
command -v "$(rc_server_bin)" >/dev/null || rc_die "$(rc_server_bin) not found (run: make deps)"
command -v "$(rc_cli_bin)" >/dev/null || rc_die "$(rc_cli_bin) not found (run: make deps)"
((${REDIS_PORT_MAX:-55000} + 10000 <= 65535)) || rc_die "REDIS_PORT_MAX must leave room for PORT+10000"

# Without an explicit range, draw ports (and bus ports) from below the kernel's ephemeral range,
# where no outgoing connection (such as the nodes' own bus links) can be holding one.
if [[ -z ${REDIS_PORT_MIN:-}${REDIS_PORT_MAX:-} && -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
  read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range
  if ((ephemeral_low - 10001 - 20000 >= 1000)); then
    export REDIS_PORT_MIN=20000 REDIS_PORT_MAX=$((ephemeral_low - 10001))
  fi
fi

total=$((masters * (1 + replicas)))
topdir=$(rc_make_dir redisson-cluster)
done_ok=no
# On any failure (or Ctrl-C) stop whatever was started, by PID, and remove the dirs.
cleanup() {
  [[ $done_ok == yes ]] || "$RC_SCRIPTS_DIR/redis-cluster-stop.sh" "$topdir" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cli() { timeout 5 "$(rc_cli_bin)" -h 127.0.0.1 -p "$@" 2>/dev/null; }

# A replica's first sync would otherwise wait repl-diskless-sync-delay (5 s) for more replicas,
# and write the received RDB to disk.
fast_sync=(--repl-diskless-sync-delay 0 --repl-diskless-load on-empty-db)
ports=()
pids=()
for ((n = 0; n < total; n++)); do
  nodedir=$(TMPDIR=$topdir rc_make_dir node)
  pid=''
  for ((attempt = 1; attempt <= 5; attempt++)); do
    port=$(rc_pick_port bus)
    rc=0
    pid=$(rc_start_redis "$nodedir" "$port" --cluster-enabled yes \
      --cluster-config-file "$nodedir/nodes-$port.conf" --cluster-node-timeout "$node_timeout" \
      "${fast_sync[@]}" "${extra[@]}") || rc=$?
    ((rc == 0)) && break
    pid=''
    ((rc == 2)) || break
    rm -f "$nodedir/nodes-$port.conf"
    rc_log "port $port (or its bus port) is taken; trying another"
  done
  [[ -n $pid ]] || rc_die "could not start cluster node $((n + 1)) of $total"
  rc_start_guard "$nodedir" "$lifetime"
  ports+=("$port")
  pids+=("$pid")
done

addrs=()
for port in "${ports[@]}"; do addrs+=("127.0.0.1:$port"); done
if ! timeout 60 "$(rc_cli_bin)" --cluster create "${addrs[@]}" --cluster-replicas "$replicas" \
  --cluster-yes </dev/null >"$topdir/create.log" 2>&1; then
  rc_log "redis-cli --cluster create failed:"
  tail -n 20 "$topdir/create.log" >&2
  exit 1
fi

# Ready when every node says cluster_state:ok, knows every node and sees every slot served, every
# replica's link to its master is up, and every node's CLUSTER NODES gives every node the role
# that node itself reports (replicas are announced by gossip, a moment after the slots).
roles_now() { # "PORT ROLE" per node, sorted, as each node itself says (ROLE)
  local port role
  for port in "${ports[@]}"; do
    role=$(cli "$port" role | head -n 4 | tr '\n' ' ') || return 1
    case $role in
      master*) printf '%s master\n' "$port" ;;
      slave*connected*) printf '%s slave\n' "$port" ;;
      *) return 1 ;; # a replica not linked yet
    esac
  done | sort
}
node_view() { # "PORT ROLE" per node, sorted, as node $1 sees them (CLUSTER NODES)
  cli "$1" cluster nodes | awk '{
    split($2, addr, "[:@]")
    role = $3 ~ /master/ ? "master" : ($3 ~ /slave/ ? "slave" : "unknown")
    if ($3 ~ /fail|handshake|noaddr/) role = "unhealthy"
    print addr[2], role
  }' | sort
}
why=''
cluster_ready() {
  local port info truth
  for port in "${ports[@]}"; do
    info=$(cli "$port" cluster info | tr -d '\r') || { why="$port does not answer"; return 1; }
    [[ $info == *cluster_state:ok* && $info == *"cluster_known_nodes:$total"* &&
      $info == *cluster_slots_ok:16384* ]] || { why="$port: not ok yet"; return 1; }
  done
  truth=$(roles_now) || { why="a replica is not linked yet"; return 1; }
  for port in "${ports[@]}"; do
    [[ $(node_view "$port") == "$truth" ]] || { why="$port has an outdated view"; return 1; }
  done
}
deadline=$((SECONDS + ready_timeout))
until cluster_ready; do
  if ((SECONDS >= deadline)); then
    rc_log "cluster not ready after ${ready_timeout}s: $why"
    cli "${ports[0]}" cluster nodes >&2 || true
    exit 1
  fi
  sleep 0.05
done

roles=()
master_ports=()
replica_ports=()
for port in "${ports[@]}"; do
  if [[ $(cli "$port" role | head -n 1) == master ]]; then
    roles+=(master)
    master_ports+=("$port")
  else
    roles+=(replica)
    replica_ports+=("$port")
  fi
done
for i in "${!ports[@]}"; do
  printf '%s %s %s\n' "${ports[i]}" "${pids[i]}" "${roles[i]}"
done >"$topdir/nodes"
done_ok=yes

if [[ $format == env ]]; then
  urls=$(printf 'redis://127.0.0.1:%s,' "${ports[@]}")
  printf 'REDIS_CLUSTER_DIR=%q\nREDIS_CLUSTER_PORTS=%q\nREDIS_CLUSTER_PIDS=%q\n' \
    "$topdir" "${ports[*]}" "${pids[*]}"
  printf 'REDIS_CLUSTER_MASTER_PORTS=%q\nREDIS_CLUSTER_REPLICA_PORTS=%q\nREDIS_CLUSTER_URLS=%q\n' \
    "${master_ports[*]}" "${replica_ports[*]}" "${urls%,}"
else
  printf '%s\n' "$topdir"
  cat "$topdir/nodes"
fi

#!/usr/bin/env bash
# Starts a throwaway redis-server on a free 127.0.0.1 port, for tests and demos.
#
# Usage: scripts/redis-start.sh [--port N] [--lifetime SECONDS] [--tls CERTDIR] [--env] [--]
#                               [redis-server args...]
#
#   --port N          use this port (default: a random free one; retried if another process wins it)
#   --lifetime S      stop the server after S seconds even if nobody calls redis-stop.sh
#                     (default: $REDIS_MAX_LIFETIME, else 3600)
#   --tls CERTDIR     also listen for TLS on a second free port, with the files made by
#                     scripts/tls-make-certs.sh CERTDIR (server.pem, server.key, ca.pem; client
#                     certificates are checked when sent); the plain port stays open
#   --env             print shell assignments (REDIS_PORT=, REDIS_PID=, REDIS_DIR=, REDIS_URL=,
#                     and with --tls REDIS_TLS_PORT=, REDIS_TLS_URL=) instead of the single line
#                     "PORT PID DIR" (with --tls: "PORT PID DIR TLS_PORT")
#   anything else     passed to redis-server unchanged, e.g. --requirepass secret
#
# The server binds 127.0.0.1 only, keeps nothing on disk, allows DEBUG from loopback, runs
# daemonized in a fresh temp dir (redis.log and redis.pid live there) and is bounded in time.
# Stop it with: scripts/redis-stop.sh DIR   (or PID).
#
# Examples:
#   read -r port pid dir < <(scripts/redis-start.sh)
#   eval "$(scripts/redis-start.sh --env --requirepass secret)"; ...; scripts/redis-stop.sh "$REDIS_DIR"
#   certs=$(mktemp -d); scripts/tls-make-certs.sh "$certs"
#   eval "$(scripts/redis-start.sh --env --tls "$certs")"   # then: $REDIS_TLS_URL, $certs/ca.pem
set -euo pipefail
export RC_PROG=redis-start # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

port=''
lifetime=${REDIS_MAX_LIFETIME:-3600}
format=plain
tls_dir=''
extra=()
while (($#)); do
  case $1 in
    --port)
      (($# >= 2)) || rc_die "--port needs a value"
      port=$2
      shift 2
      ;;
    --port=*) port=${1#--port=}; shift ;;
    --lifetime)
      (($# >= 2)) || rc_die "--lifetime needs a value"
      lifetime=$2
      shift 2
      ;;
    --lifetime=*) lifetime=${1#--lifetime=}; shift ;;
    --tls)
      (($# >= 2)) || rc_die "--tls needs a directory"
      tls_dir=$2
      shift 2
      ;;
    --tls=*) tls_dir=${1#--tls=}; shift ;;
    --env) format='env'; shift ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    --) shift; extra+=("$@"); break ;;
    *) extra+=("$1"); shift ;;
  esac
done
[[ -z $port || $port =~ ^[0-9]+$ ]] || rc_die "bad port: $port"
[[ $lifetime =~ ^[0-9]+$ && $lifetime -gt 0 ]] || rc_die "bad lifetime: $lifetime"
if [[ -n $tls_dir ]]; then
  for f in server.pem server.key ca.pem; do
    [[ -r $tls_dir/$f ]] || rc_die "--tls: $tls_dir/$f is missing (make it with scripts/tls-make-certs.sh)"
  done
  tls_dir=$(cd "$tls_dir" && pwd)
fi
command -v "$(rc_server_bin)" >/dev/null || rc_die "$(rc_server_bin) not found (run: make deps)"
command -v "$(rc_cli_bin)" >/dev/null || rc_die "$(rc_cli_bin) not found (run: make deps)"

dir=$(rc_make_dir redisson-redis)
pid=''
attempts=5
[[ -n $port ]] && attempts=1
for ((attempt = 1; attempt <= attempts; attempt++)); do
  try_port=${port:-$(rc_pick_port plain)}
  tls_args=()
  if [[ -n $tls_dir ]]; then
    tls_port=$(rc_pick_port plain)
    tls_args=(--tls-port "$tls_port" --tls-cert-file "$tls_dir/server.pem"
      --tls-key-file "$tls_dir/server.key" --tls-ca-cert-file "$tls_dir/ca.pem"
      --tls-auth-clients optional)
  fi
  rc=0
  pid=$(rc_start_redis "$dir" "$try_port" "${tls_args[@]}" "${extra[@]}") || rc=$?
  if ((rc == 0)); then
    port=$try_port
    break
  fi
  pid=''
  if ((rc == 2)); then
    rc_log "port $try_port is taken${port:+ (asked for with --port)}"
    continue
  fi
  break
done
if [[ -z $pid ]]; then
  rm -rf "$dir"
  rc_die "could not start redis-server"
fi

rc_start_guard "$dir" "$lifetime"

if [[ $format == env ]]; then
  printf 'REDIS_PORT=%s\nREDIS_PID=%s\nREDIS_DIR=%q\nREDIS_URL=redis://127.0.0.1:%s\n' \
    "$port" "$pid" "$dir" "$port"
  [[ -z $tls_dir ]] ||
    printf 'REDIS_TLS_PORT=%s\nREDIS_TLS_URL=rediss://127.0.0.1:%s\n' "$tls_port" "$tls_port"
elif [[ -n $tls_dir ]]; then
  printf '%s %s %s %s\n' "$port" "$pid" "$dir" "$tls_port"
else
  printf '%s %s %s\n' "$port" "$pid" "$dir"
fi

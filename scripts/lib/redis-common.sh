# shellcheck shell=bash
# Shared helpers for the scripts that start and stop throwaway Redis processes on loopback
# (redis-start.sh, redis-stop.sh, and later the cluster/sentinel scripts). Source it; it defines
# functions only and changes no shell options.
#
# Every process started through these helpers:
#   - binds 127.0.0.1 only and keeps no data on disk (save "" / appendonly no);
#   - lives in its own temp dir, which holds a marker file, redis.pid, redis.log, port and guard.pid;
#   - has a lifetime guard: a detached `sleep N` that stops it by PID when N seconds have passed;
#   - is stopped by PID (SIGTERM, then SIGKILL after a bounded wait), never by name.
#
# Environment (all optional):
#   REDIS_SERVER_BIN     redis-server binary (default: redis-server on PATH)
#   REDIS_CLI_BIN        redis-cli binary (default: redis-cli on PATH)
#   REDIS_MAX_LIFETIME   seconds before the guard stops a server (default 3600)
#   REDIS_START_TIMEOUT  seconds to wait for PONG after starting (default 10)
#   REDIS_STOP_TIMEOUT   seconds to wait after SIGTERM before SIGKILL (default 10)
#   REDIS_PORT_MIN / REDIS_PORT_MAX  range random ports are drawn from (default 20000..55000,
#                        so that port+10000, the cluster bus port, stays valid)

RC_MARKER=.redisson-throwaway-redis
RC_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RC_SCRIPTS_DIR=$(dirname "$RC_LIB_DIR")

rc_log() { printf '%s: %s\n' "${RC_PROG:-redis}" "$*" >&2; }
rc_die() {
  rc_log "$*"
  exit 1
}

rc_server_bin() { printf '%s\n' "${REDIS_SERVER_BIN:-redis-server}"; }
rc_cli_bin() { printf '%s\n' "${REDIS_CLI_BIN:-redis-cli}"; }

# True when PID names a live process (a zombie counts as dead: it is only waiting to be reaped).
rc_pid_alive() {
  local pid=$1 state
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r /proc/$pid/stat ]]; then
    # Field 3 of /proc/PID/stat, after the parenthesised command name (which may hold spaces).
    state=$(sed -E 's/^.*\) ([A-Za-z]).*$/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
    [[ $state != Z && $state != X ]] || return 1
  fi
  return 0
}

# True when PID is a redis-server/redis-sentinel process (guards against PID reuse).
rc_pid_is_redis() {
  local pid=$1 cmd
  rc_pid_alive "$pid" || return 1
  [[ -r /proc/$pid/cmdline ]] || return 0 # no /proc: trust the pidfile
  cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
  [[ $cmd == *redis* ]]
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
rc_port_in_use() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    [[ -n $(ss -Htln "sport = :$port" 2>/dev/null) ]] && return 0
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# Prints a port on which nothing listens. With "bus" as $1, port+10000 must be free as well.
# The check is only a hint (another process may take the port before we bind it); callers retry
# on "Address already in use".
rc_pick_port() {
  local need_bus=${1:-} min=${REDIS_PORT_MIN:-20000} max=${REDIS_PORT_MAX:-55000} port i
  for ((i = 0; i < 200; i++)); do
    port=$((min + (RANDOM * 32768 + RANDOM) % (max - min + 1)))
    rc_port_in_use "$port" && continue
    if [[ $need_bus == bus ]] && rc_port_in_use $((port + 10000)); then continue; fi
    printf '%s\n' "$port"
    return 0
  done
  rc_die "no free port found in $min..$max"
}

# Makes a fresh temp dir for one server and prints its path.
rc_make_dir() {
  local prefix=${1:-redisson-redis} dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/$prefix.XXXXXX") || rc_die "mktemp failed"
  : >"$dir/$RC_MARKER"
  printf '%s\n' "$dir"
}

# rc_ping PORT [PASSWORD] -> prints the reply of PING (bounded by a 2 s timeout).
rc_ping() {
  local port=$1 pass=${2:-}
  if [[ -n $pass ]]; then
    REDISCLI_AUTH=$pass timeout 2 "$(rc_cli_bin)" -h 127.0.0.1 -p "$port" ping 2>/dev/null
  else
    timeout 2 "$(rc_cli_bin)" -h 127.0.0.1 -p "$port" ping 2>/dev/null
  fi
}

# Starts a detached guard that stops the server in DIR after SECONDS. The guard runs in its own
# session (so Ctrl-C in the caller's terminal does not end it) with stdio on /dev/null (so callers
# reading our stdout through a pipe are not kept waiting), and records its PID in DIR/guard.pid.
rc_start_guard() {
  local dir=$1 seconds=$2 i
  # shellcheck disable=SC2016 # expanded by the guard's shell, not this one
  setsid bash -c 'echo $$ >"$1/guard.pid"; sleep "$2"; exec "$3/redis-stop.sh" --no-guard "$1"' \
    redis-guard "$dir" "$seconds" "$RC_SCRIPTS_DIR" </dev/null >/dev/null 2>&1 &
  for ((i = 0; i < 100; i++)); do
    [[ -s $dir/guard.pid ]] && return 0
    sleep 0.02
  done
  rc_log "warning: lifetime guard did not report its PID"
}

# Stops the guard of DIR (the guard is a session/process-group leader: kill its group by PID so
# its `sleep` goes too).
rc_stop_guard() {
  local dir=$1 gpid
  [[ -s $dir/guard.pid ]] || return 0
  gpid=$(<"$dir/guard.pid")
  [[ $gpid =~ ^[0-9]+$ ]] || return 0
  kill -TERM -- "-$gpid" 2>/dev/null || kill -TERM "$gpid" 2>/dev/null || true
  rm -f "$dir/guard.pid"
}

# rc_stop_pid PID: SIGTERM, wait up to REDIS_STOP_TIMEOUT seconds, then SIGKILL. Returns 0 once the
# process is gone.
rc_stop_pid() {
  local pid=$1 timeout_s=${REDIS_STOP_TIMEOUT:-10} i
  rc_pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  kill -CONT "$pid" 2>/dev/null || true # a paused (SIGSTOPped) server cannot act on SIGTERM
  for ((i = 0; i < timeout_s * 20; i++)); do
    rc_pid_alive "$pid" || return 0
    sleep 0.05
  done
  rc_log "pid $pid ignored SIGTERM for ${timeout_s}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    rc_pid_alive "$pid" || return 0
    sleep 0.05
  done
  rc_log "pid $pid is still alive after SIGKILL"
  return 1
}

# rc_start_redis DIR PORT [redis-server args...]
# Starts a daemonized redis-server in DIR on 127.0.0.1:PORT and waits (bounded) for PING.
# Returns 0 and prints the PID when it answers; returns 2 when the port was taken (caller may
# retry on another port); returns 1 on any other failure (the log tail goes to stderr).
rc_start_redis() {
  local dir=$1 port=$2
  shift 2
  local pass='' prev='' a pid='' i reply timeout_s=${REDIS_START_TIMEOUT:-10}
  for a in "$@"; do
    [[ $prev == --requirepass ]] && pass=$a
    prev=$a
  done
  rm -f "$dir/redis.pid"
  : >"$dir/redis.log"
  "$(rc_server_bin)" --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
    --daemonize yes --pidfile "$dir/redis.pid" --dir "$dir" --logfile "$dir/redis.log" \
    --enable-debug-command local "$@" </dev/null >"$dir/redis.stderr" 2>&1 ||
    { rc_log "redis-server refused to start:"; tail -n 20 "$dir/redis.stderr" >&2; return 1; }
  for ((i = 0; i < timeout_s * 20; i++)); do
    [[ -z $pid && -s $dir/redis.pid ]] && pid=$(<"$dir/redis.pid")
    if grep -q -e 'Address already in use' "$dir/redis.log" 2>/dev/null; then
      [[ -n $pid ]] && rc_stop_pid "$pid" >/dev/null 2>&1
      return 2
    fi
    if [[ -n $pid ]]; then
      reply=$(rc_ping "$port" "$pass" || true)
      if [[ $reply == PONG ]]; then
        printf '%s\n' "$pid" >"$dir/redis.pid.saved"
        printf '%s\n' "$port" >"$dir/port"
        printf '%s\n' "$pid"
        return 0
      fi
      if ! rc_pid_alive "$pid"; then
        break
      fi
    fi
    sleep 0.05
  done
  rc_log "redis-server on port $port did not answer PING within ${timeout_s}s; log tail:"
  tail -n 20 "$dir/redis.log" >&2
  [[ -n $pid ]] && rc_stop_pid "$pid" >/dev/null 2>&1
  return 1
}

# Prints the PID recorded for the server in DIR (empty when none).
rc_dir_pid() {
  local dir=$1
  if [[ -s $dir/redis.pid.saved ]]; then
    cat "$dir/redis.pid.saved"
  elif [[ -s $dir/redis.pid ]]; then
    cat "$dir/redis.pid"
  fi
}

# True when DIR was made by rc_make_dir (so removing it is safe).
rc_is_our_dir() { [[ -d $1 && -e $1/$RC_MARKER ]]; }

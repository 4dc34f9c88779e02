#!/usr/bin/env bash
# Stops a server started by redis-start.sh (or a cluster/sentinel script) by PID and removes its
# temp dir.
#
# Usage: scripts/redis-stop.sh DIR|PID...
#
#   DIR   the dir printed by redis-start.sh: its PID is read from the dir, its lifetime guard is
#         stopped too, then the dir is removed
#   PID   a redis-server PID: its dir is found through /proc/PID/cwd (redis-server chdirs into
#         its --dir); the PID is stopped only when that dir is one of ours (so a system redis is
#         never touched), then the dir is removed
#
# The process gets SIGTERM (and SIGCONT, in case it is paused), then SIGKILL after
# $REDIS_STOP_TIMEOUT seconds (default 10). A PID that is not a redis process is left alone.
# Exit status is non-zero only when a process could not be stopped.
set -euo pipefail
export RC_PROG=redis-stop # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

stop_guard=yes
targets=()
for a in "$@"; do
  case $a in
    --no-guard) stop_guard=no ;; # used by the guard itself
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    *) targets+=("$a") ;;
  esac
done
((${#targets[@]})) || rc_die "usage: redis-stop.sh DIR|PID..."

status=0
for target in "${targets[@]}"; do
  dir=''
  pid=''
  stopped=yes
  if [[ $target =~ ^[0-9]+$ ]]; then
    pid=$target
    if ! rc_pid_alive "$pid"; then
      rc_log "pid $pid: no such process (already stopped?)"
      continue
    fi
    dir=$(readlink "/proc/$pid/cwd" 2>/dev/null || true)
    if [[ -z $dir ]] || ! rc_is_our_dir "$dir"; then
      rc_log "pid $pid was not started by redis-start.sh (cwd ${dir:-unknown}); leaving it alone"
      status=1
      continue
    fi
  elif [[ -d $target ]]; then
    dir=$(cd "$target" && pwd)
    pid=$(rc_dir_pid "$dir")
  else
    rc_log "$target: no such dir (already stopped?)"
    continue
  fi

  if [[ -n $dir ]] && rc_is_our_dir "$dir" && [[ $stop_guard == yes ]]; then
    rc_stop_guard "$dir"
  fi
  if [[ -n $pid ]]; then
    if rc_pid_is_redis "$pid"; then
      rc_stop_pid "$pid" || { stopped=no; status=1; }
    elif rc_pid_alive "$pid"; then
      rc_log "pid $pid is not a redis process; leaving it alone"
    fi
  fi
  if [[ -n $dir ]] && rc_is_our_dir "$dir"; then
    if [[ $stopped == yes ]]; then rm -rf "$dir"; fi
  elif [[ -n $dir ]]; then
    rc_log "$dir does not look like a throwaway redis dir; not removing it"
  fi
done
exit "$status"

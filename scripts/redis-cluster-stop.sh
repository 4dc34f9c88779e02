#!/usr/bin/env bash
# Stops a topology started by redis-cluster-start.sh (also redis-sentinel-start.sh and
# redis-masters-start.sh, whose stop scripts run this one) and removes its dir.
#
# Usage: scripts/redis-cluster-stop.sh DIR...
#
#   DIR   the dir printed on the first line (or as REDIS_*_DIR=) by the start script. Every node
#         lives in a sub-dir of it; each is stopped by PID exactly as redis-stop.sh does (lifetime
#         guard first, then SIGTERM, SIGKILL after $REDIS_STOP_TIMEOUT seconds), all in parallel.
#
# Only dirs holding the throwaway marker are touched, so a mistyped path removes nothing.
# Exit status is non-zero only when a process could not be stopped.
set -euo pipefail
export RC_PROG=${RC_PROG:-redis-cluster-stop} # names this script in messages
# shellcheck source-path=SCRIPTDIR source=lib/redis-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/redis-common.sh"

targets=()
for a in "$@"; do
  case $a in
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    *) targets+=("$a") ;;
  esac
done
((${#targets[@]})) || rc_die "usage: $(basename "$0") DIR..."

status=0
for target in "${targets[@]}"; do
  if [[ ! -d $target ]]; then
    rc_log "$target: no such dir (already stopped?)"
    continue
  fi
  topdir=$(cd "$target" && pwd)
  if ! rc_is_our_dir "$topdir"; then
    rc_log "$topdir does not look like a throwaway topology dir; leaving it alone"
    status=1
    continue
  fi
  jobs_pids=()
  for nodedir in "$topdir"/*/; do
    nodedir=${nodedir%/}
    rc_is_our_dir "$nodedir" || continue
    "$RC_SCRIPTS_DIR/redis-stop.sh" "$nodedir" &
    jobs_pids+=("$!")
  done
  stopped=yes
  for job in "${jobs_pids[@]}"; do
    wait "$job" || { stopped=no; status=1; }
  done
  if [[ $stopped == yes ]]; then
    rm -rf "$topdir"
  else
    rc_log "some node in $topdir could not be stopped; keeping the dir"
  fi
done
exit "$status"

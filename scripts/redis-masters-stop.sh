#!/usr/bin/env bash
# Stops a setup started by redis-masters-start.sh, by PID, and removes its dir.
#
# Usage: scripts/redis-masters-stop.sh DIR...
#
#   DIR   the dir printed on the first line (or as REDIS_MASTERS_DIR=) by redis-masters-start.sh
#
# Same as redis-cluster-stop.sh, which does the work: every process in DIR is stopped in
# parallel exactly as redis-stop.sh does (lifetime guard, SIGTERM, SIGKILL after a bounded wait).
set -euo pipefail
export RC_PROG=redis-masters-stop # names this script in messages
exec "$(dirname "${BASH_SOURCE[0]}")/redis-cluster-stop.sh" "$@"

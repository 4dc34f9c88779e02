#!/usr/bin/env bash
# Installs the Debian packages redisson-cpp needs to build, test, lint, fuzz and run its demo.
# Packages already installed are left alone; when nothing is missing this does nothing at all
# (no apt-get update, no sudo).
#
# Usage: scripts/install-deps.sh [--check]
#   --check   only report what is missing (exit 1 if anything is)
#
# Runs apt-get through sudo when not root (sudo -n when there is no terminal, e.g. in CI, so it
# fails instead of waiting for a password).
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libasio-dev libssl-dev libhighwayhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev
  redis-server redis-tools redis-sentinel openssl
  python3
  clang clang-format clang-tidy
)

check_only=no
case ${1:-} in
  --check) check_only=yes ;;
  '') ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if ! command -v dpkg >/dev/null 2>&1; then
  echo "deps: dpkg not found: this script supports Debian/Ubuntu only. Install by hand:" >&2
  echo "  ${packages[*]}" >&2
  exit 1
fi

installed() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'; }

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "deps: all ${#packages[@]} packages are installed"
  exit 0
fi
echo "deps: missing: ${missing[*]}"
[[ $check_only == yes ]] && exit 1

sudo=()
if ((EUID != 0)); then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "deps: not root and sudo is not installed; as root run: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  if [[ -t 0 ]]; then sudo=(sudo); else sudo=(sudo -n); fi
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"

still=()
for p in "${missing[@]}"; do installed "$p" || still+=("$p"); done
if ((${#still[@]})); then
  echo "deps: still missing after apt-get: ${still[*]}" >&2
  exit 1
fi
echo "deps: installed ${missing[*]}"

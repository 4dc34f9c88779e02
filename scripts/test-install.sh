#!/usr/bin/env bash
# Install test: installs a built tree into a temp prefix and builds a stand-alone consumer
# (tests/install) against it with find_package(redisson CONFIG REQUIRED): examples/quickstart.cpp,
# a program including every installed public header, and a smoke program, which is also run; then
# builds examples/quickstart.cpp with a plain compiler line from pkg-config, and checks the
# examples are installed. (Every example is compiled by the main build, warnings as errors.)
#
# Usage: scripts/test-install.sh [BUILD_DIR]      (default: build)
#
# Prints "install-test: N passed, M failed" last; exits non-zero when anything failed.
# Set REDISSON_INSTALL_TEST_KEEP=1 to keep the temp dir (prefix and consumer build) for debugging.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build}
jobs=$(nproc 2>/dev/null || echo 2)

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'install-test: ok     %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'install-test: FAILED %s\n' "$1"; }
finish() {
  printf 'install-test: %d passed, %d failed\n' "$passed" "$failed"
  if ((failed > 0)); then exit 1; fi
  exit 0
}

if [[ ! -f $build/CMakeCache.txt ]]; then
  echo "install-test: $build is not a configured build dir (run: make build)" >&2
  fail "configured build dir"
  finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/redisson-install-test.XXXXXX")
if [[ ${REDISSON_INSTALL_TEST_KEEP:-0} == 1 ]]; then
  echo "install-test: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi
prefix=$tmp/prefix
consumer=$tmp/consumer

# The consumer is built with the compiler and flags of the tree under test (ABI, sanitizers).
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -n 1; }
cxx=$(cache_value CMAKE_CXX_COMPILER)
cxx_flags=$(cache_value CMAKE_CXX_FLAGS)
build_type=$(cache_value CMAKE_BUILD_TYPE)

# 1. Install.
if cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  pass "cmake --install $build"
else
  cat "$tmp/install.log"
  fail "cmake --install $build"
  finish
fi

# 2. The installed layout: public headers only, and the package files.
layout_ok=yes
[[ -f $prefix/include/redisson/error.hpp ]] || { echo "install-test: missing error.hpp"; layout_ok=no; }
config=$(find "$prefix" -path '*/cmake/redisson/redissonConfig.cmake' | head -n 1)
for f in redissonConfig.cmake redissonConfigVersion.cmake redissonTargets.cmake; do
  [[ -n $config && -f $(dirname "$config")/$f ]] || { echo "install-test: missing $f"; layout_ok=no; }
done
if [[ -z $(find "$prefix" -name 'libredisson.*' -print -quit) ]]; then
  echo "install-test: missing libredisson"
  layout_ok=no
fi
stray=$(find "$prefix/include" -mindepth 1 -maxdepth 1 ! -name redisson 2>/dev/null || true)
if [[ -n $stray ]]; then
  echo "install-test: unexpected entries in include/: $stray"
  layout_ok=no
fi
if [[ $layout_ok == yes ]]; then pass "installed layout"; else fail "installed layout"; fi

# 3. Configure the consumer against the prefix only.
configure_args=(-S tests/install -B "$consumer" -DCMAKE_PREFIX_PATH="$prefix"
  -DCMAKE_BUILD_TYPE="${build_type:-RelWithDebInfo}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
[[ -n $cxx ]] && configure_args+=(-DCMAKE_CXX_COMPILER="$cxx")
[[ -n $cxx_flags ]] && configure_args+=(-DCMAKE_CXX_FLAGS="$cxx_flags")
if cmake "${configure_args[@]}" >"$tmp/configure.log" 2>&1; then
  found=$(sed -n 's/^redisson_DIR:[A-Z]*=//p' "$consumer/CMakeCache.txt")
  if [[ $found == "$prefix"/* ]]; then
    pass "find_package(redisson) -> ${found#"$tmp"/}"
  else
    fail "find_package(redisson) found $found, not the temp prefix"
  fi
else
  cat "$tmp/configure.log"
  fail "configure tests/install"
  finish
fi

# 4. Build every program (all at once; one by one only to find out which failed).
mapfile -t targets <"$consumer/install_test_targets.txt"
if cmake --build "$consumer" -j "$jobs" >"$tmp/build.log" 2>&1; then
  for t in "${targets[@]}"; do pass "build $t"; done
else
  for t in "${targets[@]}"; do
    if cmake --build "$consumer" --target "$t" >"$tmp/build-$t.log" 2>&1; then
      pass "build $t"
    else
      tail -n 40 "$tmp/build-$t.log"
      fail "build $t"
    fi
  done
fi

# 5. Without CMake: pkg-config's flags and a plain compiler line build the quickstart, as
#    docs/getting-started.md shows; and the examples are installed for reading.
pcdir=$(dirname "$(find "$prefix" -name redisson.pc | head -n 1)")
if flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs redisson 2>"$tmp/pkg-config.log"); then
  pass "pkg-config --cflags --libs redisson"
  # shellcheck disable=SC2086 # the flags are words
  if "${cxx:-g++}" $cxx_flags examples/quickstart.cpp $flags -o "$tmp/quickstart" \
    >"$tmp/plain-build.log" 2>&1; then
    pass "${cxx##*/} examples/quickstart.cpp \$(pkg-config --cflags --libs redisson)"
  else
    tail -n 40 "$tmp/plain-build.log"
    fail "plain compiler line for examples/quickstart.cpp"
  fi
else
  cat "$tmp/pkg-config.log"
  fail "pkg-config --cflags --libs redisson"
fi
examples=$(find "$prefix" -path '*/share/redisson/examples' -type d | head -n 1)
if [[ -n $examples && -f $examples/quickstart.cpp && -f $examples/redisson.yml ]]; then
  pass "examples installed in ${examples#"$prefix"/}"
else
  fail "examples and redisson.yml installed under share/redisson/examples"
fi

# 6. Run the smoke program (examples need a server, so they are only built).
smoke=$consumer/install_smoke
if [[ -x $smoke ]]; then
  if out=$("$smoke" 2>&1); then pass "run install_smoke: $out"; else fail "run install_smoke: $out"; fi
fi

finish

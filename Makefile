# redisson-cpp front door. `make help` lists the targets.
#
# Every target that needs packages runs `deps` first (a no-op when everything is installed).
# Targets that need Redis start throwaway redis-servers on 127.0.0.1 and stop them by PID.
#
# Variables (override on the command line or in the environment):
#   JOBS          parallel compile jobs            (default: number of cores)
#   CTEST_JOBS    parallel test processes          (default: 4; test-tsan: TSAN_CTEST_JOBS, 2)
#   TEST_TIMEOUT  per-test timeout in seconds      (default: 300)
#   TSAN_TESTS    ctest -R regex for test-tsan     (default: every test of redisson_tsan_tests)
#   FUZZ_SECONDS  how long `make fuzz` runs, split over its 3 targets (default: 300; fuzz-ci: 60)
#   CHAOS_SECONDS how long `make chaos` runs       (default: 600, split over its configurations)
#   REDISSON_URL  `make demo` uses this server instead of starting one
#   CMAKE_ARGS    extra arguments for the `build` configure step

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build
# The steps of a target depend on each other (deps, then build, then test); parallelism lives
# inside cmake --build and ctest instead.
.NOTPARALLEL:

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Twice the cores of a small machine: a test mostly waits on its redis-servers (the suite's
# processes used about half a core at -j2). Measured on 2026-11-30, 2 cores: the suite took 267 s
# at -j2, 130 s at -j4, 105 s at -j6. ThreadSanitizer's processes compute much more than they
# wait, so test-tsan keeps 2.
CTEST_JOBS ?= 4
TSAN_CTEST_JOBS ?= 2
TEST_TIMEOUT ?= 300
TSAN_TESTS ?= .
FUZZ_SECONDS ?= 300
CHAOS_SECONDS ?= 600
CMAKE_ARGS ?=

BUILD_DIR := build
CTEST_FLAGS = --output-on-failure -j$(CTEST_JOBS) --timeout $(TEST_TIMEOUT)
TSAN_CTEST_FLAGS = --output-on-failure -j$(TSAN_CTEST_JOBS) --timeout $(TEST_TIMEOUT)
SOURCE_DIRS := include src tests tools bench examples
REDISSON_BIN := $(BUILD_DIR)/tools/redisson/redisson

.PHONY: help deps configure build build-asan build-tsan build-fuzz test test-asan test-tsan test-install \
        demo bench fuzz fuzz-ci chaos \
        format format-check lint clean

help:
	@echo 'make deps          install missing Debian packages (apt-get, through sudo when not root)'
	@echo 'make build         configure and build in build/ (-O2 -g1, warnings are errors)'
	@echo 'make test          deps + build + every test against throwaway redis-servers + install test'
	@echo 'make test-asan     the same tests with AddressSanitizer + UBSan (build-asan/)'
	@echo 'make test-tsan     the thread tests (redisson_tsan_tests) with ThreadSanitizer (build-tsan/)'
	@echo 'make build-asan, build-tsan, build-fuzz   build those without running anything'
	@echo 'make demo          run `redisson demo` against REDISSON_URL or a throwaway redis-server'
	@echo 'make bench         run the benchmarks; table on stdout, JSON in build/bench/results.json'
	@echo 'make chaos         8 workers, random faults, a checker; CHAOS_SECONDS (default 600), build/chaos/'
	@echo 'make fuzz          fuzz the RESP parser and the kryo5/JSON decoders for FUZZ_SECONDS in all'
	@echo '                   (default 300; fuzz-ci: 60 s)'
	@echo 'make format        clang-format -i;  make format-check: check only'
	@echo 'make lint          clang-tidy with .clang-tidy over src/ (as the build batches it)'
	@echo 'make clean         remove all build dirs'

deps:
	@scripts/install-deps.sh

# -g1 (line tables: backtraces and sanitizer reports keep file and line, gdb shows no locals) builds
# a third faster than -g at -O2 (src/net/connection.cpp: 15.5 s -> 10.3 s of CPU). For full debug
# information: CMAKE_ARGS=-DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g -DNDEBUG', or a Debug build.
# CI (CI=true) builds the library once, from scratch, in batches of 40 files instead of 8 (measured
# on 2026-12-06, -O2 -g1, one job: 152 -> 110 s of CPU); the default's small batches are for
# rebuilding little after an edit.
CI_CMAKE_ARGS := $(if $(filter true,$(CI)),-DREDISSON_UNITY_BATCH=40)
configure:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g1 -DNDEBUG' -DREDISSON_WERROR=ON $(CI_CMAKE_ARGS) \
	  $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: deps build
	ctest --test-dir $(BUILD_DIR) $(CTEST_FLAGS)
	scripts/test-install.sh $(BUILD_DIR)

test-install:
	scripts/test-install.sh $(BUILD_DIR)

# The test binaries and the `redisson` tool their CLI tests run: the benchmarks, examples and
# chaos driver are built (and warnings checked) by `make test`; under ASan they would add a
# third of the build to CI for nothing the tests run.
# build-asan, build-tsan and build-fuzz build without testing: .ci/run builds each while the step
# before it runs its tests, which leave a core idle (they wait on their redis-servers).
test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --test-dir build-asan $(CTEST_FLAGS)

# One binary, redisson_tsan_tests (tests/CMakeLists.txt lists its files): TSan is for the threads of
# the library (client, connections, pub/sub, locks and their waiting loop, topologies); the tools,
# benchmarks, examples and the other tests would double the build time of CI for nothing.
test-tsan: build-tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp \
	  ctest --test-dir build-tsan $(TSAN_CTEST_FLAGS) -R '$(TSAN_TESTS)'

build-asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS) --target redisson_unit_tests redisson_integration_tests \
	  redisson_cli

build-tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS) --target redisson_tsan_tests

# Builds only what the demo runs (the library and the `redisson` tool), not the tests.
# The throwaway server is stopped by PID on every exit path (success, failure, Ctrl-C).
demo: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target redisson_cli
	@bin='$(REDISSON_BIN)'; \
	if [[ ! -x $$bin ]]; then echo "demo: $$bin was not built (tools/redisson missing?)" >&2; exit 1; fi; \
	if [[ -n "$${REDISSON_URL:-}" ]]; then \
	  echo "demo: using $$REDISSON_URL"; \
	  exec "$$bin" demo --url "$$REDISSON_URL"; \
	fi; \
	out=$$(scripts/redis-start.sh); read -r port pid dir <<<"$$out"; \
	trap 'scripts/redis-stop.sh "$$dir"' EXIT; trap 'exit 130' INT TERM; \
	echo "demo: throwaway redis-server pid $$pid on 127.0.0.1:$$port"; \
	"$$bin" demo --url "redis://127.0.0.1:$$port"

bench: deps build
	scripts/run-bench.sh

# libFuzzer needs clang. Three targets (the RESP parser, the kryo5 and JSON decoders) share
# FUZZ_SECONDS equally. New inputs go to build-fuzz/corpus/<target>; tests/fuzz/corpus/<target> is
# the read-only seed corpus; crashing inputs land in build-fuzz/artifacts/.
FUZZ_TARGETS := resp_parser_fuzz kryo5_decode_fuzz json_decode_fuzz
fuzz: build-fuzz
	@seconds=$$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) )); \
	if (( seconds < 1 )); then seconds=1; fi; \
	mkdir -p build-fuzz/artifacts; \
	for target in $(FUZZ_TARGETS); do \
	  fuzzer=$$(find build-fuzz -type f -name $$target -perm -u+x | head -n 1); \
	  if [[ -z $$fuzzer ]]; then echo "fuzz: $$target was not built" >&2; exit 1; fi; \
	  mkdir -p build-fuzz/corpus/$$target; \
	  seeds=(); if [[ -d tests/fuzz/corpus/$$target ]]; then seeds=(tests/fuzz/corpus/$$target); fi; \
	  echo "fuzz: $$fuzzer for $$seconds s"; \
	  "$$fuzzer" -max_total_time=$$seconds -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=build-fuzz/artifacts/$$target- build-fuzz/corpus/$$target "$${seeds[@]}"; \
	done

build-fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDISSON_FUZZ=ON \
	  -DREDISSON_BUILD_TOOLS=OFF -DREDISSON_BUILD_BENCH=OFF -DREDISSON_BUILD_EXAMPLES=OFF
	cmake --build build-fuzz -j $(JOBS) --target $(FUZZ_TARGETS)

# Workers are re-exec'ed copies of redisson-chaos; every redis-server is a throwaway on loopback.
chaos: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target redisson-chaos
	$(BUILD_DIR)/tests/chaos/redisson-chaos run --seconds $(CHAOS_SECONDS) --out $(BUILD_DIR)/chaos

fuzz-ci:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60

format:
	@find $(SOURCE_DIRS) -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 2>/dev/null \
	  | xargs -0 -r clang-format -i

format-check: deps
	@find $(SOURCE_DIRS) -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 2>/dev/null \
	  | xargs -0 -r clang-format --dry-run --Werror
	@echo 'format-check: clean'

# clang-tidy checks the library's sources in unity batches, as many as JOBS, each several src/
# files in one translation unit: its checks walk every header (the standard library, Asio) once
# per translation unit, so fewer, larger units cost less (measured on 2026-11-30: 20 batches of 8
# files took 354 s of CPU, 2 batches of 80 took 121 s), and a check sees the bodies of the batch's
# other files too. The batches come from their own configuration, build-lint/ (configured, never
# compiled: only the generated lua_scripts.hpp the sources include is made), so the build's own
# batch size (REDISSON_UNITY_BATCH) stays small for fast rebuilds. A batch needs the library's
# file-local names distinct, as any unity build does. GCC-only warning flags are not clang-tidy's
# business; bugprone-suspicious-include is for the src/ files: a batch includes .cpp files.
LINT_DIR := build-lint
lint: deps
	@sources=$$(find src -type f -name '*.cpp' | wc -l); \
	if (( sources == 0 )); then echo 'lint: no sources under src/'; exit 0; fi; \
	batch=$$(( (sources + $(JOBS) - 1) / $(JOBS) )); \
	cmake -S . -B $(LINT_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g1 -DNDEBUG' -DREDISSON_UNITY_BATCH=$$batch \
	  -DREDISSON_BUILD_TESTS=OFF -DREDISSON_BUILD_TOOLS=OFF -DREDISSON_BUILD_BENCH=OFF \
	  -DREDISSON_BUILD_EXAMPLES=OFF > /dev/null; \
	cmake --build $(LINT_DIR) --target redisson_embedded_lua > /dev/null; \
	find $(LINT_DIR)/CMakeFiles/redisson.dir/Unity -name 'unity_*_cxx.cxx' | sort \
	  | xargs -r -P $(JOBS) -n 1 clang-tidy -p $(LINT_DIR) --quiet \
	      --warnings-as-errors='*' --extra-arg=-Wno-unknown-warning-option \
	      --checks=-bugprone-suspicious-include; \
	echo "lint: clean ($$sources files in batches of $$batch)"

clean:
	rm -rf build build-asan build-tsan build-fuzz build-lint

// Test code that runs in another process: the test binary executed again, not forked.
//
// A forked child of a multi-threaded process inherits locks other threads held at fork time;
// the ASan and TSan runtimes take such locks, so forked workers could deadlock under a
// sanitizer and those tests were skipped there. A child started here is a fresh exec of the
// same binary (/proc/self/exe) that runs one registered function instead of the tests, so the
// sanitizers see it like any other process.
//
//   REDISSON_TEST_CHILD(count_under_lock) {           // int count_under_lock(args)
//     Client client(Config::from_url(args.at(0)));
//     ...
//     return 0;                                        // the child's exit status
//   }
//   const pid_t pid = spawn_child("count_under_lock", {server.url()});
//   EXPECT_EQ(wait_exit(pid), 0);
//
// The child dies with the thread that spawned it (PR_SET_PDEATHSIG), so a failed test leaves
// no worker behind; spawn children from the test's main thread. File descriptors without
// O_CLOEXEC (e.g. from pipe()) are inherited: pass their numbers as arguments.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace redisson::test {

using ChildArgs = std::vector<std::string>;
using ChildMain = int (*)(const ChildArgs& args);

/// Registers `main` as the child called `name`; use REDISSON_TEST_CHILD instead.
bool register_child(const char* name, ChildMain main);

/// Starts the child `name` with `args`; returns its pid. Throws std::runtime_error when it
/// cannot be started (an unknown name makes the child exit with status 127).
pid_t spawn_child(const std::string& name, const ChildArgs& args = {});

/// Starts `count` children `name`, each with `args`; returns their pids in start order.
std::vector<pid_t> spawn_children(const std::string& name, int count, const ChildArgs& args = {});

/// Waits for `pid` to end: its exit status, or 128 + the signal that killed it.
int wait_exit(pid_t pid);

/// For the test binary's main(), before anything else: when this process was started by
/// spawn_child, runs that child and returns its exit status; otherwise nullopt.
std::optional<int> run_child_if_asked(int argc, char** argv);

}  // namespace redisson::test

#define REDISSON_TEST_CHILD(name)                           \
  static int name(const ::redisson::test::ChildArgs& args); \
  [[maybe_unused]] static const bool name##_registered =    \
      ::redisson::test::register_child(#name, &name);       \
  static int name([[maybe_unused]] const ::redisson::test::ChildArgs& args)

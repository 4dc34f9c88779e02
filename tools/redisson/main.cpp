// redisson: Redisson-compatible distributed locks and objects from the shell (docs/cli.md).
//
// This file only wires the subcommands; each lives in its own <name>_command.cpp.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "bucket_command.hpp"
#include "demo_command.hpp"
#include "exit_status.hpp"
#include "global_options.hpp"
#include "inspect_command.hpp"
#include "latch_command.hpp"
#include "lock_command.hpp"
#include "map_command.hpp"
#include "queue_command.hpp"
#include "rate_limit_command.hpp"
#include "redisson/error.hpp"
#include "semaphore_command.hpp"
#include "topic_command.hpp"

#ifndef REDISSON_VERSION
#define REDISSON_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  using namespace redisson::cli;

  CLI::App app{"redisson: Redisson-compatible distributed locks from the shell", "redisson"};
  app.fallthrough();  // global options may follow the subcommand: `redisson lock --url ... NAME`
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("redisson ") + REDISSON_VERSION);
  app.footer(
      "Durations: 500ms, 10s, 2m, 1h, 1m30s, 1.5s. Run `redisson SUBCOMMAND --help` for "
      "details and exit statuses.");

  GlobalOptions global;
  add_global_options(app, global);
  LockOptions lock_options;
  auto* lock = add_lock_command(app, lock_options);
  SemaphoreOptions semaphore_options;
  auto* semaphore = add_semaphore_command(app, semaphore_options);
  RateLimitOptions rate_limit_options;
  auto* rate_limit = add_rate_limit_command(app, rate_limit_options);
  LatchOptions latch_options;
  auto* latch = add_latch_command(app, latch_options);
  BucketOptions bucket_options;
  auto* bucket = add_bucket_command(app, bucket_options);
  MapOptions map_options;
  auto* map = add_map_command(app, map_options);
  QueueOptions queue_options;
  auto* queue = add_queue_command(app, queue_options);
  PublishOptions publish_options;
  auto* publish = add_publish_command(app, publish_options);
  SubscribeOptions subscribe_options;
  auto* subscribe = add_subscribe_command(app, subscribe_options);
  InspectOptions inspect_options;
  auto* inspect = add_inspect_command(app, inspect_options);
  DemoOptions demo_options;
  auto* demo = add_demo_command(app, demo_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help, the version, or the error
    return status == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (lock->parsed()) return run_lock(global, lock_options);
    if (semaphore->parsed()) return run_semaphore(global, semaphore_options);
    if (rate_limit->parsed()) return run_rate_limit(global, rate_limit_options);
    if (latch->parsed()) return run_latch(global, latch_options);
    if (bucket->parsed()) return run_bucket(global, bucket_options);
    if (map->parsed()) return run_map(global, map_options);
    if (queue->parsed()) return run_queue(global, queue_options);
    if (publish->parsed()) return run_publish(global, publish_options);
    if (subscribe->parsed()) return run_subscribe(global, subscribe_options);
    if (inspect->parsed()) return run_inspect(global, inspect_options);
    if (demo->parsed()) return run_demo(global, demo_options);
  } catch (const ToolError& e) {
    std::cerr << "redisson: " << e.what() << "\n";
    return e.status();
  } catch (const redisson::error& e) {
    std::cerr << "redisson: " << e.what() << "\n";
    return exit_status_of(e);
  } catch (const std::exception& e) {
    std::cerr << "redisson: " << e.what() << "\n";
    return kExitFailure;
  }
  return kExitUsage;
}

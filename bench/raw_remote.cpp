#include "raw_remote.hpp"

#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "clock.hpp"
#include "histogram.hpp"
#include "lua_scripts.hpp"
#include "raw_socket.hpp"

namespace redisson_bench {

namespace {

namespace lua = redisson::detail::lua;

// The keys of one floor run, named as the remote service names its own.
struct FloorKeys {
  explicit FloorKeys(const std::string& base)
      : queue("{" + base + ":bench.Floor}"),
        tasks(queue + ":tasks"),
        ack_prefix("{" + base + ":remote}:"),
        responses("{remote_response}:" + base) {}
  std::string queue;
  std::string tasks;
  std::string ack_prefix;
  std::string responses;
};

constexpr std::string_view kStop = "stop";

// The worker: pops an id, takes its request, acks it when it asks for one ('A' first), responds.
void serve(const Options& options, const FloorKeys& keys, std::string& failure) {
  try {
    RawConnection pop(options);
    RawConnection commands(options);
    for (;;) {
      const auto id = pop.command({"BLPOP", keys.queue, "10"});
      if (id == kStop) return;
      if (id.empty()) throw std::runtime_error("the worker waited 10 s for a call");
      const auto request =
          commands.command({"EVALSHA", lua::remote_take_task.sha1, "1", keys.tasks, id});
      if (request.starts_with('A')) {
        commands.command({"EVALSHA", lua::remote_ack.sha1, "2", keys.ack_prefix + id + ":ack",
                          keys.responses, "1000", "ack:" + id});
      }
      commands.command(
          {"EVALSHA", lua::remote_respond.sha1, "1", keys.responses, "res:" + id, "30000"});
    }
  } catch (const std::exception& e) {
    failure = std::string("floor worker: ") + e.what();
  }
}

// One call at a time for `duration`, as RemoteResponses waits: the pop on a connection of its
// own, sent beside the add.
LatencyHistogram call(const Options& options, const FloorKeys& keys, bool acked,
                      std::chrono::nanoseconds duration) {
  RawConnection commands(options);
  RawConnection pop(options);
  LatencyHistogram latency;
  const auto end = monotonic_ns() + duration.count();
  for (std::int64_t i = 0; monotonic_ns() < end; ++i) {
    const auto id = std::to_string(i) + (acked ? "a" : "n");
    const auto start = monotonic_ns();
    pop.send({"BLPOP", keys.responses, "10"});
    commands.command({"EVALSHA", lua::remote_add.sha1, "2", keys.queue, keys.tasks, id,
                      (acked ? "A" : "N") + id});
    if (acked) {
      if (pop.next_reply() != "ack:" + id) throw std::runtime_error("another ack came");
      pop.send({"BLPOP", keys.responses, "10"});
    }
    if (pop.next_reply() != "res:" + id) throw std::runtime_error("another response came");
    latency.record(monotonic_ns() - start);
  }
  return latency;
}

nlohmann::json measure(const Options& options, std::chrono::nanoseconds duration,
                       RemoteFloor& floor) {
  const FloorKeys keys(bench_key(options, "remote-floor"));
  {
    RawConnection setup(options);
    for (const auto* script :
         {&lua::remote_add, &lua::remote_take_task, &lua::remote_ack, &lua::remote_respond}) {
      setup.command({"SCRIPT", "LOAD", script->source});
    }
  }
  std::string failure;
  std::thread worker([&] { serve(options, keys, failure); });
  nlohmann::json out{{"what",
                      "the same scripts in the same order on blocking sockets: caller and "
                      "worker threads, no client library"}};
  try {
    const auto acked = call(options, keys, true, duration);
    const auto direct = call(options, keys, false, duration);
    nlohmann::json defaults;
    acked.add_to(defaults);
    nlohmann::json without_ack;
    direct.add_to(without_ack);
    out["defaults"] = defaults;
    out["no_ack"] = without_ack;
    floor = {acked.percentile_us(50), direct.percentile_us(50)};
  } catch (const std::exception& e) {
    out["error"] = e.what();
  }
  RawConnection stop(options);
  stop.command({"RPUSH", keys.queue, kStop});
  worker.join();
  stop.command({"DEL", keys.queue, keys.tasks, keys.responses});
  if (!failure.empty()) out["error"] = failure;
  return out;
}

}  // namespace

RemoteFloor raw_remote_floor(const Options& options, std::chrono::nanoseconds duration,
                             nlohmann::json& out) {
  // A reference: when it cannot be measured, the scenario's own figures still stand, with the
  // reason beside them.
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  RemoteFloor floor{kUnknown, kUnknown};
  try {
    out["protocol_floor"] = measure(options, duration, floor);
  } catch (const std::exception& e) {
    out["protocol_floor"] = {{"error", e.what()}};
  }
  return floor;
}

}  // namespace redisson_bench

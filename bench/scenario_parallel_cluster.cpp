// parallel-cluster: the `parallel` load (64 async owners, 64 lock names, one client) on a Redis
// Cluster vs on one master, in alternating slices of equal length, same machine, same run.
// Reports pairs/s on each and their ratio, and how the cluster's lock scripts spread over its
// masters (EVALSHA calls per master, from INFO commandstats, beside the share of the 64 names
// each master serves: the client can spread no better than the names' slots do).
//
// On a 2-core machine every redis-server shares the same two cores with the client, so more
// masters cannot add throughput: the ratio shows the cost of routing, not scaling.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "parallel_load.hpp"
#include "redisson/redisson.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {

constexpr int kClusterOwners = 64;
constexpr int kRounds = 4;  // slices per side: drift of the machine's load hits both alike

// "cmdstat_evalsha:calls=N,..." in INFO commandstats; 0 when absent.
std::uint64_t evalsha_calls(redisson::Client& node) {
  const auto info = node.execute({"INFO", "commandstats"}).str;
  const std::string marker = "cmdstat_evalsha:calls=";
  const auto at = info.find(marker);
  return at == std::string::npos ? 0 : std::stoull(info.substr(at + marker.size()));
}

// The master (as "host:port") serving each slot, from CLUSTER SLOTS.
std::map<int, std::string> slot_owners(redisson::Client& node) {
  std::map<int, std::string> owners;  // first slot of a range -> master; end kept below
  std::map<int, int> ends;
  const auto reply = node.execute({"CLUSTER", "SLOTS"});
  for (const auto& range : reply.elements) {
    if (range.elements.size() < 3) continue;
    const auto first = static_cast<int>(range.elements[0].integer);
    const auto& master = range.elements[2];
    owners[first] = master.elements.at(0).str + ":" + std::to_string(master.elements.at(1).integer);
    ends[first] = static_cast<int>(range.elements[1].integer);
  }
  std::map<int, std::string> by_slot;
  for (const auto& [first, master] : owners) {
    for (int slot = first; slot <= ends[first]; ++slot) by_slot[slot] = master;
  }
  return by_slot;
}

struct ClusterSide {
  double pairs = 0;
  double seconds = 0;
  std::uint64_t errors = 0;
  std::string first_error;
  double rate() const { return seconds > 0 ? pairs / seconds : 0; }
};

void run_slice(redisson::Client& client, std::vector<redisson::Lock>& locks,
               std::chrono::nanoseconds duration, LatencyHistogram& latency, ClusterSide& side) {
  ParallelLoad load(client, locks, latency);
  const auto started = monotonic_ns();
  load.start();
  sleep_until_ns(started + duration.count());
  load.stop();
  if (!load.drain(std::chrono::milliseconds(30'000))) {
    throw std::runtime_error("parallel-cluster: " + std::to_string(load.running()) +
                             " loops still running 30 s after the end");
  }
  side.pairs += static_cast<double>(load.pairs());
  side.seconds += static_cast<double>(load.last_completion_ns() - started) / 1e9;
  if (load.errors() != 0 && side.errors == 0) side.first_error = load.first_error();
  side.errors += load.errors();
}

}  // namespace

nlohmann::json run_parallel_cluster(const Options& options) {
  if (options.cluster_urls.empty()) {
    throw std::runtime_error(
        "parallel-cluster needs --cluster-urls (scripts/run-bench.sh starts "
        "a cluster for it)");
  }
  redisson::Config cluster_config;
  cluster_config.cluster.emplace();
  for (const auto& url : options.cluster_urls) {
    cluster_config.cluster->node_addresses.push_back(redisson::ServerAddress::from_url(url));
  }
  redisson::Client cluster(cluster_config);
  redisson::Client single(options.url);
  std::vector<redisson::Lock> cluster_locks, single_locks;
  std::vector<std::string> names;
  for (int i = 0; i < kClusterOwners; ++i) {
    names.push_back(bench_key(options, "parallel-cluster:" + std::to_string(i)));
    cluster_locks.push_back(redisson::Lock(cluster, names.back()));
    single_locks.push_back(redisson::Lock(single, names.back()));
  }

  // Which master serves each name, and a direct connection to every master for its counters.
  redisson::Client seed(options.cluster_urls.front());
  const auto owners = slot_owners(seed);
  std::map<std::string, int> names_per_master;
  for (const auto& name : names) {
    const auto slot = static_cast<int>(seed.execute({"CLUSTER", "KEYSLOT", name}).integer);
    ++names_per_master[owners.at(slot)];
  }
  // Every master, including one that serves none of the names (its share should be 0).
  std::map<std::string, std::unique_ptr<redisson::Client>> masters;
  for (const auto& [slot, address] : owners) {
    (void)slot;
    if (!masters.contains(address)) {
      masters[address] = std::make_unique<redisson::Client>("redis://" + address);
    }
  }
  std::map<std::string, std::uint64_t> calls_before;
  LatencyHistogram cluster_latency, single_latency, discarded;
  ClusterSide cluster_side, single_side, warm_up;
  run_slice(cluster, cluster_locks, options.duration / 10, discarded, warm_up);
  run_slice(single, single_locks, options.duration / 10, discarded, warm_up);
  for (const auto& [address, client] : masters) calls_before[address] = evalsha_calls(*client);
  const auto slice = options.duration / kRounds;
  for (int round = 0; round < kRounds; ++round) {
    run_slice(cluster, cluster_locks, slice / 2, cluster_latency, cluster_side);
    run_slice(single, single_locks, slice / 2, single_latency, single_side);
  }

  nlohmann::json spread = nlohmann::json::array();
  std::uint64_t total_calls = 0;
  std::map<std::string, std::uint64_t> calls;
  for (auto& [address, client] : masters) {
    calls[address] = evalsha_calls(*client) - calls_before[address];
    total_calls += calls[address];
  }
  double worst_deviation = 0;
  for (const auto& [address, count] : calls) {
    const double share = total_calls > 0 ? static_cast<double>(count) / total_calls : 0;
    const double expected = static_cast<double>(names_per_master[address]) / kClusterOwners;
    worst_deviation = std::max(worst_deviation, std::abs(share - expected));
    spread.push_back({{"master", address},
                      {"evalsha_calls", count},
                      {"share", round2(share)},
                      {"names", names_per_master[address]},
                      {"names_share", round2(expected)}});
  }

  const double ratio = single_side.rate() > 0 ? cluster_side.rate() / single_side.rate() : 0;
  nlohmann::json out{{"scenario", "parallel-cluster"},
                     {"owners", kClusterOwners},
                     {"masters", masters.size()},
                     {"ops_per_s", round2(cluster_side.rate())},
                     {"unit", "lock+unlock pairs"},
                     {"single_master_ops_per_s", round2(single_side.rate())},
                     {"ratio", round2(ratio)},
                     {"ratio_meaning", "cluster pairs/s / one master's pairs/s"},
                     {"cluster_p50_us", round2(cluster_latency.percentile_us(50))},
                     {"single_p50_us", round2(single_latency.percentile_us(50))},
                     {"spread", spread},
                     {"worst_share_deviation", round2(worst_deviation)},
                     {"errors", cluster_side.errors + single_side.errors}};
  if (!cluster_side.first_error.empty()) out["first_error"] = cluster_side.first_error;
  if (!single_side.first_error.empty()) out["single_first_error"] = single_side.first_error;
  // No pass/fail: the owners run closed loops, so a master serving more names answers each a
  // little later and its share of the calls lands between its share of the names and an
  // equal split. The figures are for the note.
  return out;
}

}  // namespace redisson_bench

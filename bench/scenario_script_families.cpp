// script-families: one generic scenario for the operations that are one embedded script each,
// every family measured as the object operation against the very same script sent raw (EVALSHA
// through Client::async_execute, the keys and arguments the object sends), alternating slice by
// slice in the same run (versus_script.hpp). A family is a script; each row names it. ratio =
// the lowest of the families' (our calls/s / raw EVALSHA/s); target: every family >= 0.9.
//
// The families are read-only on the data they set up (so every call costs the same): a
// DelayedQueue's contains (50 waiting elements), a SetMultimap's read_all_entries (10 keys of
// 3 values), a ScoredSortedSet's rank_entry (100 members), a BoundedBlockingQueue's remove of a
// value it does not hold (100 elements: the script's checks and one LREM), a SetMultimapCache's
// get_all (one key of 10 values with an expiry).
#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "lua_scripts.hpp"
#include "objects/delay_transfer.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/bounded_blocking_queue.hpp"
#include "redisson/objects/delayed_queue.hpp"
#include "redisson/objects/multimap_cache.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/set_multimap.hpp"
#include "report.hpp"
#include "script/script_def.hpp"
#include "versus_script.hpp"

namespace redisson_bench {
namespace {

using Strings = std::vector<std::string>;

// Loads `script` so the raw side's first EVALSHA finds it, as the object's does after its first.
void load(redisson::Client& client, const redisson::detail::ScriptDef& script) {
  if (client.execute(redisson::Command{"SCRIPT", "LOAD", script.source}).str != script.sha1) {
    throw std::runtime_error("SCRIPT LOAD answered another SHA-1");
  }
}

Issue raw_call(redisson::Client& client, redisson::Command command) {
  return [&client, command = std::move(command)](std::function<void(bool)> done) {
    send_raw(
        client, command, [](const redisson::Reply& reply) { return !reply.is_error(); },
        std::move(done));
  };
}

}  // namespace

nlohmann::json run_script_families(const Options& options) {
  namespace codecs = redisson::codecs;
  namespace lua = redisson::detail::lua;
  redisson::Client client(options.url);
  nlohmann::json families = nlohmann::json::array();
  double lowest = 0;
  const auto measure = [&](const std::string& family, const std::string& unit, const Issue& ours,
                           const Issue& raw) {
    auto out = run_versus_script(
        options, client,
        {"script-families/" + family, unit, "the " + family + " script, same keys and arguments",
         "calls/s / raw EVALSHA/s of the same script"},
        ours, raw);
    out["family"] = family;
    const double ratio = out["ratio"].get<double>();
    lowest = families.empty() ? ratio : std::min(lowest, ratio);
    families.push_back(std::move(out));
  };

  // DelayedQueue::contains: delayed_queue_contains_all over 50 waiting elements.
  const auto destination = bench_key(options, "families-delayed");
  {
    redisson::DelayedQueue<std::string> delayed(client, destination, codecs::string());
    for (int i = 0; i < 50; ++i) delayed.offer("v" + std::to_string(i), std::chrono::hours(1));
    load(client, lua::delayed_queue_contains_all);
    const auto raw = raw_call(
        client, lua::delayed_queue_contains_all(
                    Strings{redisson::detail::delay_queue_list(destination)}, Strings{"v25"})
                    .command);
    measure(
        "delayed_queue_contains_all", "contains(value) calls",
        [&](std::function<void(bool)> done) {
          delayed.async_contains("v25",
                                 [done = std::move(done)](std::error_code ec, bool) { done(!ec); });
        },
        raw);
    delayed.delete_object();
  }

  // SetMultimap::read_all_entries: multimap_entries over 10 keys of 3 values.
  {
    const auto name = bench_key(options, "families-multimap");
    redisson::SetMultimap<std::string, std::string> multimap(client, name, codecs::string());
    for (int k = 0; k < 10; ++k) {
      multimap.put_all("k" + std::to_string(k), {"a", "b", "c"});
    }
    load(client, lua::multimap_entries);
    const auto raw =
        raw_call(client, lua::multimap_entries(
                             Strings{name}, Strings{"set", redisson::detail::suffix_name(name, "")})
                             .command);
    measure(
        "multimap_entries", "read_all_entries() calls",
        [&](std::function<void(bool)> done) {
          multimap.async_read_all_entries(
              [done = std::move(done)](std::error_code ec, const auto&) { done(!ec); });
        },
        raw);
    multimap.delete_object();
  }

  // ScoredSortedSet::rank_entry: scored_sorted_set_rank_entry in a set of 100 members.
  {
    const auto name = bench_key(options, "families-zset");
    redisson::ScoredSortedSet<std::string> set(client, name, codecs::string());
    for (int i = 0; i < 100; ++i) set.add(i, "m" + std::to_string(i));
    load(client, lua::scored_sorted_set_rank_entry);
    const auto raw = raw_call(
        client, lua::scored_sorted_set_rank_entry(Strings{name}, Strings{"m50", "0"}).command);
    measure(
        "scored_sorted_set_rank_entry", "rank_entry(value) calls",
        [&](std::function<void(bool)> done) {
          set.async_rank_entry(
              "m50", [done = std::move(done)](std::error_code ec, const auto&) { done(!ec); });
        },
        raw);
    set.delete_object();
  }

  // BoundedBlockingQueue::remove of a value it does not hold: bounded_queue_remove, nothing
  // removed, so every call costs the same.
  {
    const auto name = bench_key(options, "families-bounded");
    redisson::BoundedBlockingQueue<std::string> queue(client, name, codecs::string());
    queue.try_set_capacity(1000);
    for (int i = 0; i < 100; ++i) queue.offer("e" + std::to_string(i));
    load(client, lua::bounded_queue_remove);
    const auto raw = raw_call(
        client, lua::bounded_queue_remove(Strings{name, "redisson_bqs:{" + name + "}",
                                                  "redisson_sc:redisson_bqs:{" + name + "}"},
                                          Strings{"publish", "first", "absent"})
                    .command);
    measure(
        "bounded_queue_remove", "remove(absent value) calls",
        [&](std::function<void(bool)> done) {
          queue.async_remove("absent",
                             [done = std::move(done)](std::error_code ec, bool) { done(!ec); });
        },
        raw);
    queue.delete_object();
  }

  // SetMultimapCache::get_all: multimap_cache_read of one key of 10 values with an expiry.
  {
    const auto name = bench_key(options, "families-multimap-cache");
    redisson::SetMultimapCache<std::string, std::string> cache(client, name, codecs::string());
    Strings values;
    for (int i = 0; i < 10; ++i) values.push_back("v" + std::to_string(i));
    cache.put_all("k", values);
    cache.expire_key("k", std::chrono::hours(1));
    load(client, lua::multimap_cache_read);
    const auto ttl_key = redisson::detail::suffix_name(name, "redisson_set_multimap_ttl");
    const auto now = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
    const auto raw =
        raw_call(client, lua::multimap_cache_read(Strings{name, ttl_key, cache.values_key("k")},
                                                  Strings{now, "k", "set", "get_all", ""})
                             .command);
    measure(
        "multimap_cache_read", "get_all(key) calls",
        [&](std::function<void(bool)> done) {
          cache.async_get_all(
              "k", [done = std::move(done)](std::error_code ec, const auto&) { done(!ec); });
        },
        raw);
    cache.delete_object();
  }

  nlohmann::json out;
  out["scenario"] = "script-families";
  out["ratio"] = lowest;
  out["families"] = std::move(families);
  add_target(out, "every family's ratio >= 0.9", lowest >= 0.9);
  return out;
}

}  // namespace redisson_bench

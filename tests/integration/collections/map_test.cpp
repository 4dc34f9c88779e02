// Map<K, V> against a real redis-server: every operation, the hash it writes (the codec's bytes
// as fields and values), paged iteration, and errors that change nothing.
#include "redisson/objects/map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <atomic>
#include <cstdint>
#include <future>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "redisson/lock.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_map_test {

using redisson::errc;
using redisson::Map;
using redisson::test::expect_error;
using redisson::test::java_case;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class MapTest : public redisson::test::ServerTest {};

using StringMap = Map<std::string, std::string>;

TEST_F(MapTest, PutAnswersTheReplacedValueAndStoresTheCodecBytes) {
  StringMap map(client, "m", codecs::string());
  EXPECT_EQ(map.put("k", "v1"), std::nullopt);
  EXPECT_EQ(map.put("k", "v2"), "v1");
  EXPECT_EQ(map.get("k"), "v2");
  EXPECT_EQ(map.get("absent"), std::nullopt);
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "v2");

  Map<std::string, std::string> kryo(client, "kryo");  // the client's default: kryo5
  kryo.put("k1", "v1");
  EXPECT_EQ(to_hex(server.command({"HGET", "kryo", "\x03k\xb1"})), "0376b1");
}

TEST_F(MapTest, ConditionalPutsChangeOnlyWhatTheyPromise) {
  StringMap map(client, "m", codecs::string());
  EXPECT_EQ(map.put_if_absent("k", "a"), std::nullopt);
  EXPECT_EQ(map.put_if_absent("k", "b"), "a");
  EXPECT_EQ(map.get("k"), "a");

  EXPECT_EQ(map.put_if_exists("other", "x"), std::nullopt);
  EXPECT_FALSE(map.contains_key("other"));
  EXPECT_EQ(map.put_if_exists("k", "c"), "a");
  EXPECT_EQ(map.replace("k", "d"), "c");
  EXPECT_EQ(map.replace("other", "d"), std::nullopt);

  EXPECT_TRUE(map.fast_put("f", "1"));
  EXPECT_FALSE(map.fast_put("f", "2"));
  EXPECT_EQ(map.get("f"), "2");
  EXPECT_FALSE(map.fast_put_if_absent("f", "3"));
  EXPECT_TRUE(map.fast_put_if_absent("g", "3"));
  EXPECT_TRUE(map.fast_put_if_exists("g", "4"));
  EXPECT_FALSE(map.fast_put_if_exists("h", "4"));
  EXPECT_FALSE(map.contains_key("h"));

  EXPECT_FALSE(map.replace("k", "wrong", "e"));
  EXPECT_EQ(map.get("k"), "d");
  EXPECT_TRUE(map.replace("k", "d", "e"));
  EXPECT_EQ(map.get("k"), "e");
  EXPECT_EQ(map.size(), 3);
}

TEST_F(MapTest, RemovesReportWhatWasThere) {
  StringMap map(client, "m", codecs::string());
  map.put_all({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}});
  EXPECT_EQ(map.remove("a"), "1");
  EXPECT_EQ(map.remove("a"), std::nullopt);
  EXPECT_FALSE(map.remove("b", "9"));
  EXPECT_TRUE(map.remove("b", "2"));
  EXPECT_EQ(map.fast_remove({"c", "x"}), 1);
  EXPECT_EQ(map.fast_remove({}), 0);
  EXPECT_EQ(map.size(), 1);
  EXPECT_TRUE(map.contains_value("4"));
  EXPECT_FALSE(map.contains_value("1"));
}

TEST_F(MapTest, GetAllAndPutAllCoverManyEntries) {
  Map<std::string, std::int64_t> map(client, "m",
                                     codecs::composite(codecs::string(), codecs::long_text()));
  std::map<std::string, std::int64_t> entries;
  for (std::int64_t i = 0; i < 2500; ++i) entries["k" + std::to_string(i)] = i;
  map.put_all(entries);  // three HSETs of at most 1,000 entries
  EXPECT_EQ(map.size(), 2500);
  EXPECT_EQ(server.command({"HGET", "m", "k2499"}), "2499");
  const auto some = map.get_all({"k1", "k2000", "absent"});
  EXPECT_EQ(some, (std::map<std::string, std::int64_t>{{"k1", 1}, {"k2000", 2000}}));
  EXPECT_TRUE(map.get_all({}).empty());
  map.put_all({});  // nothing sent
  EXPECT_EQ(map.size(), 2500);
}

TEST_F(MapTest, EntriesAreReadInPagesAndCoverTheMap) {
  Map<std::string, std::int64_t> map(client, "m",
                                     codecs::composite(codecs::string(), codecs::long_text()));
  std::map<std::string, std::int64_t> written;
  for (std::int64_t i = 0; i < 1000; ++i) written["k" + std::to_string(i)] = i * 7;
  map.put_all(written);

  std::map<std::string, std::int64_t> read;
  auto scan = map.entries(50);
  for (const auto& [key, value] : scan) read[key] = value;  // HSCAN may repeat; a map absorbs it
  EXPECT_EQ(read, written);

  auto pages = map.entries(50);
  const auto first = pages.next_batch();
  EXPECT_FALSE(first.empty());
  EXPECT_LT(first.size(), 1000u) << "one page, not the whole hash";

  StringMap empty(client, "nothing", codecs::string());
  auto none = empty.entries();
  EXPECT_EQ(none.begin(), none.end());
  expect_error(
      errc::invalid_argument, [&] { (void)empty.entries(0); }, "entries(0)");
}

TEST_F(MapTest, ReadAllReturnsTheWholeMapAtOnce) {
  StringMap map(client, "m", codecs::string());
  EXPECT_TRUE(map.empty());
  EXPECT_TRUE(map.read_all_map().empty());
  EXPECT_TRUE(map.read_all_key_set().empty());
  EXPECT_TRUE(map.read_all_values().empty());
  EXPECT_EQ(server.command({"EXISTS", "m"}), "0") << "reading created nothing";

  map.put_all({{"a", "1"}, {"b", "2"}, {"c", "2"}});
  EXPECT_FALSE(map.empty());
  EXPECT_EQ(map.read_all_map(),
            (std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}, {"c", "2"}}));
  EXPECT_EQ(map.read_all_key_set(), (std::set<std::string>{"a", "b", "c"}));
  auto values = map.read_all_values();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{"1", "2", "2"})) << "a value per entry";

  // Kryo keys and values: decoded with the map's codec.
  Map<std::string, std::int64_t> kryo(client, "kryo");
  kryo.put("x", 7);
  EXPECT_EQ(kryo.read_all_map(), (std::map<std::string, std::int64_t>{{"x", 7}}));
  EXPECT_EQ(kryo.read_all_key_set(), (std::set<std::string>{"x"}));
  EXPECT_EQ(kryo.read_all_values(), (std::vector<std::int64_t>{7}));
}

TEST_F(MapTest, ValueSizeAndFastReplace) {
  StringMap map(client, "m", codecs::string());
  map.put("k", "four");
  EXPECT_EQ(map.value_size("k"), 4);
  EXPECT_EQ(map.value_size("absent"), 0);
  Map<std::string, std::string> kryo(client, "kryo");
  kryo.put("k", "v");
  EXPECT_EQ(kryo.value_size("k"), 3) << "the encoded bytes: Kryo's 03 76 b1";

  EXPECT_TRUE(map.fast_replace("k", "five"));
  EXPECT_EQ(map.get("k"), "five");
  EXPECT_FALSE(map.fast_replace("absent", "x"));
  EXPECT_FALSE(map.contains_key("absent")) << "nothing stored for an absent key";
}

TEST_F(MapTest, RandomKeysAndEntriesAreDistinctEntriesOfTheMap) {
  StringMap map(client, "m", codecs::string());
  EXPECT_TRUE(map.random_keys(3).empty());
  EXPECT_TRUE(map.random_entries(3).empty());
  std::map<std::string, std::string> all;
  for (int i = 0; i < 10; ++i) all["k" + std::to_string(i)] = "v" + std::to_string(i);
  map.put_all(all);

  const auto keys = map.random_keys(4);
  EXPECT_EQ(keys.size(), 4u);
  for (const auto& key : keys) EXPECT_TRUE(all.contains(key)) << key;
  const auto entries = map.random_entries(4);  // RESP3: [key, value] pairs
  EXPECT_EQ(entries.size(), 4u);
  for (const auto& [key, value] : entries) EXPECT_EQ(all.at(key), value) << key;
  EXPECT_EQ(map.random_entries(50), all) << "more than there are: every entry once";
  EXPECT_EQ(map.random_keys(50).size(), 10u);
  EXPECT_TRUE(map.random_keys(0).empty());
  expect_error(
      errc::invalid_argument, [&] { (void)map.random_keys(-1); }, "negative count");
  expect_error(
      errc::invalid_argument, [&] { (void)map.random_entries(-1); }, "negative count");

  auto config = config_for(server);
  config.resp3 = false;
  redisson::Client resp2(config);
  StringMap flat(resp2, "m", codecs::string());
  EXPECT_EQ(flat.random_entries(50), all) << "RESP2: key, value, ... flat";
}

TEST_F(MapTest, AddAndGetWorksOnDecimalTextValues) {
  Map<std::string, std::int64_t> counters(client, "c",
                                          codecs::composite(codecs::string(), codecs::long_text()));
  EXPECT_EQ(counters.add_and_get("n", std::int64_t{5}), 5);
  EXPECT_EQ(counters.add_and_get("n", std::int64_t{-2}), 3);
  EXPECT_EQ(counters.get("n"), 3);
  Map<std::string, double> amounts(client, "d",
                                   codecs::composite(codecs::string(), codecs::double_text()));
  EXPECT_DOUBLE_EQ(amounts.add_and_get("x", 0.5), 0.5);
  EXPECT_DOUBLE_EQ(amounts.add_and_get("x", 1.25), 1.75);
  EXPECT_EQ(server.command({"HGET", "d", "x"}), "1.75");

  // A Kryo value is not a number to the server: refused, and left as it was.
  Map<std::string, std::string> kryo(client, "k");
  kryo.put("n", "text");
  expect_error(
      errc::server_error, [&] { (void)kryo.add_and_get("n", std::int64_t{1}); },
      "HINCRBYFLOAT on a kryo value");
  EXPECT_EQ(kryo.get("n"), "text");
  expect_error(
      errc::invalid_argument,
      [&] { (void)amounts.add_and_get("x", std::numeric_limits<double>::quiet_NaN()); },
      "NaN delta");
}

TEST_F(MapTest, WrongTypeAndUnreadableBytesChangeNothing) {
  server.command({"SET", "m", "a string"});
  StringMap map(client, "m", codecs::string());
  expect_error(
      errc::wrong_type, [&] { (void)map.get("k"); }, "get on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)map.put("k", "v"); }, "put on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)map.size(); }, "size on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)map.empty(); }, "empty");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_map(); }, "read_all_map");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_key_set(); }, "read_all_key_set");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_values(); }, "read_all_values");
  expect_error(
      errc::wrong_type, [&] { (void)map.value_size("k"); }, "value_size");
  expect_error(
      errc::wrong_type, [&] { (void)map.fast_replace("k", "v"); }, "fast_replace");
  expect_error(
      errc::wrong_type, [&] { (void)map.random_keys(1); }, "random_keys");
  expect_error(
      errc::wrong_type, [&] { (void)map.random_entries(1); }, "random_entries");
  EXPECT_EQ(server.command({"GET", "m"}), "a string");

  server.command({"HSET", "h", "k", "not a number"});
  Map<std::string, std::int64_t> numbers(client, "h",
                                         codecs::composite(codecs::string(), codecs::long_text()));
  expect_error(
      errc::codec_error, [&] { (void)numbers.get("k"); }, "unreadable value");
}

TEST_F(MapTest, ConcurrentPutIfAbsentHasOneWinner) {
  StringMap map(client, "m", codecs::string());
  std::atomic<int> winners{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      if (map.fast_put_if_absent("k", std::to_string(t))) ++winners;
      if (!map.put_if_absent("j", std::to_string(t)).has_value()) ++winners;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(winners.load(), 2) << "one winner per key";
}

TEST_F(MapTest, AsyncFormsCompleteThroughAnyToken) {
  StringMap map(client, "m", codecs::string());
  EXPECT_EQ(map.async_put("k", "v", asio::use_future).get(), std::nullopt);
  EXPECT_EQ(map.async_get("k", asio::use_future).get(), "v");
  EXPECT_EQ(map.async_remove("k", asio::use_future).get(), "v");
  auto scan = map.entries();
  EXPECT_TRUE(scan.async_next_batch(asio::use_future).get().empty());
  EXPECT_TRUE(map.async_empty(asio::use_future).get());
  map.put("k", "v");
  EXPECT_FALSE(map.async_fast_replace("absent", "w", asio::use_future).get());
  EXPECT_EQ(map.async_value_size("k", asio::use_future).get(), 1);
  EXPECT_EQ(map.async_read_all_map(asio::use_future).get().size(), 1u);
  EXPECT_EQ(map.async_read_all_key_set(asio::use_future).get().size(), 1u);
  EXPECT_EQ(map.async_read_all_values(asio::use_future).get().size(), 1u);
  EXPECT_EQ(map.async_random_keys(1, asio::use_future).get().size(), 1u);
  EXPECT_EQ(map.async_random_entries(1, asio::use_future).get().size(), 1u);
}

TEST_F(MapTest, LockNamesAreRedissons) {
  // Redisson's getLock(key): suffixName(name, hash128toBase64(key bytes) + ":lock"); the hash of
  // Kryo's "k1" is in the fixtures (the multimap case names its values' key with it).
  const auto& java = java_case("setmultimap_kryo");
  const auto b64 = java.at("hash128toBase64_of_key").at("k1").get<std::string>();
  Map<std::string, std::string> map(client, "m");
  EXPECT_EQ(map.lock_name("k1"), "{m}:" + b64 + ":lock");
  Map<std::string, std::string> tagged(client, "{tag}m");
  EXPECT_EQ(tagged.lock_name("k1"), "{tag}m:" + b64 + ":lock");
  // getFairLock, getReadWriteLock, getSemaphore, getCountDownLatch, getPermitExpirableSemaphore:
  // getLockByMapKey(key, suffix) with Redisson's suffixes.
  EXPECT_EQ(map.fair_lock_name("k1"), "{m}:" + b64 + ":fairlock");
  EXPECT_EQ(map.read_write_lock_name("k1"), "{m}:" + b64 + ":rw_lock");
  EXPECT_EQ(map.semaphore_name("k1"), "{m}:" + b64 + ":semaphore");
  EXPECT_EQ(map.count_down_latch_name("k1"), "{m}:" + b64 + ":countdownlatch");
  EXPECT_EQ(map.permit_expirable_semaphore_name("k1"), "{m}:" + b64 + ":permitexpirablesemaphore");
  EXPECT_EQ(tagged.semaphore_name("k1"), "{tag}m:" + b64 + ":semaphore");
  // StringCodec "k1" (fixtures: transaction_commit_string map_key_hash128toBase64).
  StringMap strings(client, "m", codecs::string());
  EXPECT_EQ(strings.fair_lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:fairlock");
}

TEST_F(MapTest, GetOrDefaultAnswersTheFallbackOnlyForAnAbsentKey) {
  StringMap map(client, "m", codecs::string());
  map.put("k", "v");
  EXPECT_EQ(map.get_or_default("k", "fallback"), "v");
  EXPECT_EQ(map.get_or_default("absent", "fallback"), "fallback");
  EXPECT_EQ(map.async_get_or_default("absent", "f", asio::use_future).get(), "f");
  EXPECT_FALSE(map.contains_key("absent"));
  server.command({"SET", "s", "x"});
  StringMap wrong(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { (void)wrong.get_or_default("k", "f"); }, "get_or_default");
}

TEST_F(MapTest, ComputeFamilyStoresRemovesOrLeavesAsJavasMapDoes) {
  StringMap map(client, "m", codecs::string());
  using Old = std::optional<std::string>;
  // compute: absent -> stored; present -> replaced; nullopt -> removed (absent: nothing).
  EXPECT_EQ(map.compute("k",
                        [](const std::string& key, const Old& old) -> Old {
                          EXPECT_EQ(old, std::nullopt);
                          return key + "=1";
                        }),
            "k=1");
  EXPECT_EQ(map.compute("k", [](const std::string&, const Old& old) -> Old { return *old + "+"; }),
            "k=1+");
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "k=1+");
  EXPECT_EQ(map.compute("k", [](const std::string&, const Old&) -> Old { return std::nullopt; }),
            std::nullopt);
  EXPECT_FALSE(map.contains_key("k"));
  EXPECT_EQ(map.compute("k", [](const std::string&, const Old&) -> Old { return std::nullopt; }),
            std::nullopt);
  EXPECT_EQ(map.size(), 0);

  // compute_if_absent: a present key answers its value without calling the function.
  int calls = 0;
  const auto make = [&](const std::string& key) -> Old {
    ++calls;
    return key + "!";
  };
  EXPECT_EQ(map.compute_if_absent("a", make), "a!");
  EXPECT_EQ(map.compute_if_absent("a", make), "a!");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(map.compute_if_absent("none", [](const std::string&) -> Old { return std::nullopt; }),
            std::nullopt);
  EXPECT_FALSE(map.contains_key("none"));

  // compute_if_present: an absent key is left absent without calling the function.
  const auto twice = [&](const std::string&, const std::string& value) -> Old {
    ++calls;
    return value + value;
  };
  EXPECT_EQ(map.compute_if_present("absent", twice), std::nullopt);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(map.contains_key("absent"));
  EXPECT_EQ(map.compute_if_present("a", twice), "a!a!");
  EXPECT_EQ(map.get("a"), "a!a!");
  EXPECT_EQ(map.compute_if_present(
                "a", [](const std::string&, const std::string&) -> Old { return std::nullopt; }),
            std::nullopt);
  EXPECT_FALSE(map.contains_key("a"));

  // merge: absent -> the value; present -> the function's; nullopt -> removed.
  const auto concat = [](const std::string& old, const std::string& value) -> Old {
    return old + value;
  };
  EXPECT_EQ(map.merge("m", "x", concat), "x");
  EXPECT_EQ(map.merge("m", "y", concat), "xy");
  EXPECT_EQ(map.get("m"), "xy");
  EXPECT_EQ(map.merge("m", "z",
                      [](const std::string&, const std::string&) -> Old { return std::nullopt; }),
            std::nullopt);
  EXPECT_FALSE(map.contains_key("m"));
  // Every lock was released: no lock key is left.
  for (const auto* key : {"k", "a", "absent", "m"}) {
    EXPECT_EQ(server.command({"EXISTS", map.lock_name(key)}), "0") << key;
  }
}

TEST_F(MapTest, ComputeHoldsJavasEntryLockWhileTheFunctionRuns) {
  StringMap map(client, "m", codecs::string());
  const auto others_can_lock = [&](const std::string& key) {
    // Another thread is another owner: it must not get the lock while compute holds it.
    return std::async(std::launch::async,
                      [&] {
                        redisson::Lock lock(client, map.lock_name(key));
                        const bool got = lock.try_lock();
                        if (got) lock.unlock();
                        return got;
                      })
        .get();
  };
  map.compute("k", [&](const std::string& key, const std::optional<std::string>&) {
    EXPECT_EQ(server.command({"EXISTS", map.lock_name(key)}), "1");
    EXPECT_FALSE(others_can_lock(key));
    return std::optional<std::string>("v");
  });
  map.merge("k", "w", [&](const std::string&, const std::string&) {
    EXPECT_FALSE(others_can_lock("k"));
    return std::optional<std::string>("vw");
  });
  EXPECT_TRUE(others_can_lock("k"));

  // Many threads adding one each under the lock lose no update.
  Map<std::string, std::int64_t> counters(client, "counters",
                                          codecs::composite(codecs::string(), codecs::long_text()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        counters.merge("n", 1, [](std::int64_t old, std::int64_t one) {
          return std::optional<std::int64_t>(old + one);
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(counters.get("n"), 40);
}

TEST_F(MapTest, AThrowingFunctionWritesNothingAndReleasesTheLock) {
  StringMap map(client, "m", codecs::string());
  map.put("k", "v");
  const auto fail = [](auto&&...) -> std::optional<std::string> {
    throw std::runtime_error("user function failed");
  };
  EXPECT_THROW(map.compute("k", fail), std::runtime_error);
  EXPECT_THROW(map.compute_if_absent("new", fail), std::runtime_error);
  EXPECT_THROW(map.compute_if_present("k", fail), std::runtime_error);
  EXPECT_THROW(map.merge("k", "w", fail), std::runtime_error);
  EXPECT_THROW(map.replace_all([](const std::string&, const std::string&) -> std::string {
    throw std::runtime_error("user function failed");
  }),
               std::runtime_error);
  EXPECT_EQ(map.read_all_map(), (std::map<std::string, std::string>{{"k", "v"}}));
  EXPECT_EQ(server.command({"EXISTS", map.lock_name("k"), map.lock_name("new")}), "0");

  server.command({"SET", "s", "x"});
  StringMap wrong(client, "s", codecs::string());
  const auto keep = [](const std::string&, const std::optional<std::string>& old) { return old; };
  expect_error(
      errc::wrong_type, [&] { (void)wrong.compute("k", keep); }, "compute on a string key");
  expect_error(
      errc::wrong_type,
      [&] {
        (void)wrong.merge("k", "v", [](auto&, auto&) { return std::optional<std::string>(); });
      },
      "merge on a string key");
  expect_error(
      errc::wrong_type,
      [&] { wrong.replace_all([](const std::string&, const std::string& v) { return v; }); },
      "replace_all on a string key");
  EXPECT_EQ(server.command({"GET", "s"}), "x");
  EXPECT_EQ(server.command({"EXISTS", wrong.lock_name("k")}), "0");
}

TEST_F(MapTest, AsyncComputeFamilyHoldsTheLockAndReportsAThrowingFunction) {
  StringMap map(client, "m", codecs::string());
  using Old = std::optional<std::string>;
  const auto lock_key = map.lock_name("k");
  EXPECT_EQ(map.async_compute(
                   "k",
                   [&](const std::string& key, const Old& old) -> Old {
                     // On the I/O thread: the test's own connection, not the client, looks.
                     EXPECT_EQ(server.command({"EXISTS", lock_key}), "1");
                     EXPECT_EQ(old, std::nullopt);
                     return key + "v";
                   },
                   asio::use_future)
                .get(),
            "kv");
  EXPECT_EQ(
      map.async_merge(
             "k", "w", [](const std::string& old, const std::string& v) -> Old { return old + v; },
             asio::use_future)
          .get(),
      "kvw");
  EXPECT_EQ(map.async_compute_if_absent(
                   "k", [](const std::string&) -> Old { return "unused"; }, asio::use_future)
                .get(),
            "kvw");
  EXPECT_EQ(map.async_compute_if_absent(
                   "n", [](const std::string& key) -> Old { return key + "!"; }, asio::use_future)
                .get(),
            "n!");
  EXPECT_EQ(map.async_compute_if_present(
                   "k", [](const std::string&, const std::string&) -> Old { return std::nullopt; },
                   asio::use_future)
                .get(),
            std::nullopt);
  EXPECT_FALSE(map.contains_key("k"));
  EXPECT_EQ(map.async_compute_if_present(
                   "absent", [](const std::string&, const std::string& v) -> Old { return v; },
                   asio::use_future)
                .get(),
            std::nullopt);

  // A throwing function: function_failed, nothing written, the lock released.
  expect_error(
      errc::function_failed,
      [&] {
        (void)map
            .async_compute(
                "n",
                [](const std::string&, const Old&) -> Old {
                  throw std::runtime_error("no value today");
                },
                asio::use_future)
            .get();
      },
      "a throwing async_compute function");
  EXPECT_EQ(map.get("n"), "n!");
  EXPECT_EQ(server.command({"EXISTS", map.lock_name("n"), lock_key}), "0");

  // Concurrent async merges lose no update.
  Map<std::string, std::int64_t> counters(client, "counters",
                                          codecs::composite(codecs::string(), codecs::long_text()));
  std::vector<std::future<std::optional<std::int64_t>>> pending;
  for (int i = 0; i < 20; ++i) {
    pending.push_back(counters.async_merge(
        "n", 1,
        [](std::int64_t old, std::int64_t one) { return std::optional<std::int64_t>(old + one); },
        asio::use_future));
  }
  for (auto& result : pending) result.get();
  EXPECT_EQ(counters.get("n"), 20);

  server.command({"SET", "s", "x"});
  StringMap wrong(client, "s", codecs::string());
  expect_error(
      errc::wrong_type,
      [&] {
        (void)wrong
            .async_compute(
                "k", [](const std::string&, const Old& old) { return old; }, asio::use_future)
            .get();
      },
      "async_compute on a string key");
  EXPECT_EQ(server.command({"EXISTS", wrong.lock_name("k")}), "0");
}

TEST_F(MapTest, ReplaceAllRewritesEveryEntry) {
  StringMap map(client, "m", codecs::string());
  std::map<std::string, std::string> entries;
  for (int i = 0; i < 250; ++i) entries["k" + std::to_string(i)] = std::to_string(i);
  map.put_all(entries);
  map.replace_all(
      [](const std::string& key, const std::string& value) { return key + ":" + value; });
  const auto all = map.read_all_map();
  ASSERT_EQ(all.size(), 250u);
  for (const auto& [key, value] : all) EXPECT_EQ(value, key + ":" + entries.at(key));
  StringMap empty(client, "none", codecs::string());
  empty.replace_all([](const std::string&, const std::string& v) { return v; });
  EXPECT_EQ(server.command({"EXISTS", "none"}), "0");
}

TEST_F(MapTest, KeysAndValuesAreScannedLikeEntries) {
  StringMap map(client, "m", codecs::string());
  std::map<std::string, std::string> entries;
  for (int i = 0; i < 250; ++i) entries["k" + std::to_string(i)] = "v" + std::to_string(i);
  map.put_all(entries);
  std::set<std::string> keys;
  for (const auto& key : map.keys(50)) keys.insert(key);
  std::set<std::string> values;
  for (const auto& value : map.values(50)) values.insert(value);
  EXPECT_EQ(keys, map.read_all_key_set());
  const auto all_values = map.read_all_values();
  EXPECT_EQ(values, std::set<std::string>(all_values.begin(), all_values.end()));
  EXPECT_EQ(keys.size(), 250u);
  expect_error(
      errc::invalid_argument, [&] { (void)map.keys(0); }, "page size 0");
}

}  // namespace

}  // namespace collections_map_test

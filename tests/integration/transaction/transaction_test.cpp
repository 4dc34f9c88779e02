// Transaction on a real redis-server: Java Redisson's transaction cases replayed (same names,
// values and codecs; the lock keys and owner fields, the stored bytes and the commands MONITOR saw
// compared with Java's), reads of the transaction's own writes, commit and rollback leaving no
// lock behind, conflicts with another transaction and with a Java-shaped lock hash, and the
// refusals (use after commit, a timeout that is not positive).
#include "redisson/transaction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/codec.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/map_cache.hpp"
#include "redisson/objects/set.hpp"
#include "redisson/objects/set_cache.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/monitor.hpp"
#include "support/server_test.hpp"

namespace transaction_transaction_test {
namespace {

using namespace std::chrono_literals;
using redisson::Bucket;
using redisson::CodecPtr;
using redisson::errc;
using redisson::Map;
using redisson::Transaction;
using redisson::TransactionalBucket;
using redisson::TransactionalBuckets;
using redisson::TransactionalMap;
using redisson::TransactionalMapCache;
using redisson::TransactionalSet;
using redisson::TransactionalSetCache;
using redisson::TransactionOptions;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::java_sent_commands;
using redisson::test::java_service_case;
using redisson::test::Monitor;
using redisson::test::sent_by_clients;
using redisson::test::SentCommands;
using redisson::test::to_hex;
using redisson::test::without_script_cache_retries;
namespace codecs = redisson::codecs;

using StringMap = TransactionalMap<std::string, std::string>;
using StringBucket = TransactionalBucket<std::string>;

// A lock owner field as Java writes it: <client UUID>:<thread id>:<transaction id, 32 hex>.
const std::regex kFieldShape(
    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9]+:"
    "[0-9a-f]{32}");
const std::regex kFieldAnywhere(
    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9]+:[0-9a-f]{32}");
const std::regex kLatchId("(redisson_unlock_latch:.*):[0-9a-f]{32}$");

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class TransactionTest : public redisson::test::ServerTest {
 protected:
  // Every key but the unlock latches (which expire by themselves, in Java's run too).
  std::set<std::string> keys() {
    std::set<std::string> found;
    for (auto& key : lines(server.command({"KEYS", "*"}))) {
      if (key.rfind("redisson_unlock_latch:", 0) != 0 && key != "(empty array)") {
        found.insert(key);
      }
    }
    return found;
  }
  std::set<std::string> lock_keys() {
    std::set<std::string> found;
    for (const auto& key : keys()) {
      if (key.ends_with(":lock") || key.ends_with(":transaction_lock")) found.insert(key);
    }
    return found;
  }

  // `commands` comparable with Java's: SHAs masked, owner fields and latch ids masked, and
  // the unlock script's arguments reduced to its keys and owner field (ours carries a retry
  // flag and the library's latch lifetime; Java's the watchdog lease).
  static SentCommands comparable(const SentCommands& commands) {
    SentCommands out;
    for (auto command : without_script_cache_retries(commands)) {
      if (command.at(0) == "SCRIPT") continue;  // loads: when depends on the server's cache
      if (command.at(0) == "CLIENT") continue;  // Java's connections naming themselves
      if (command.at(0) == "DEL" && command.at(1).rfind("redisson_unlock_latch:", 0) == 0) {
        continue;  // Java's latch DEL with the wrong suffix (fixtures README: unlock quirk)
      }
      for (auto& arg : command) {
        arg = std::regex_replace(arg, kFieldAnywhere, "<field>");
        arg = std::regex_replace(arg, kLatchId, "$1:<id>");
      }
      if (command.at(0) == "EVALSHA") {
        command.at(1) = "<sha>";
        if (command.at(2) == "3") command.resize(6);  // the unlock: keys only
      }
      out.push_back(std::move(command));
    }
    return out;
  }

  // Java's case `name`: outside the transaction map put k0 v0; in it map put k1 v1, k2 v2,
  // bucket set b1, map get k0 (Redis) and k1 (its own write); then commit or rollback.
  void replay_java_case(const std::string& name, const CodecPtr& codec, bool commit) {
    const auto& java = java_service_case(name);
    const std::string key = java.at("key").get<std::string>();
    const std::string map_name = key + ":map";
    const std::string bucket_name = key + ":bucket";
    Map<std::string, std::string>(client, map_name, codec).put("k0", "v0");

    Monitor monitor(server);
    Transaction tx(client);
    auto map = tx.get<StringMap>(map_name, codec);
    auto bucket = tx.get<StringBucket>(bucket_name, codec);
    EXPECT_EQ(map.put("k1", "v1"), std::nullopt);
    EXPECT_EQ(map.put("k2", "v2"), std::nullopt);
    bucket.set("b1");
    EXPECT_EQ(map.get("k0"), std::optional<std::string>("v0"));
    EXPECT_EQ(map.get("k1"), std::optional<std::string>("v1"));  // its own write, not sent
    // What the transaction sent so far (before this test's own inspection commands).
    SentCommands ours = sent_by_clients(monitor.take(server));

    // Before commit: the same lock keys as Java's (Redisson's key hashes), each one hash field
    // of Java's shape (this client's id first), count 1, PEXPIRE'd to the timeout.
    const auto& before = java.at(commit ? "state_before_commit" : "state_before_rollback");
    std::set<std::string> java_keys;
    for (const auto& entry : before) java_keys.insert(entry.at("key").get<std::string>());
    EXPECT_EQ(keys(), java_keys);
    for (const auto& lock : lock_keys()) {
      const auto hash = lines(server.command({"HGETALL", lock}));
      ASSERT_EQ(hash.size(), 2U) << lock;
      EXPECT_TRUE(std::regex_match(hash[0], kFieldShape)) << hash[0];
      EXPECT_EQ(hash[0], client.id() + ":" + hash[0].substr(client.id().size() + 1)) << hash[0];
      EXPECT_TRUE(hash[0].ends_with(":" + tx.id())) << hash[0];
      EXPECT_EQ(hash[1], "1");
      const auto pttl = std::stoll(server.command({"PTTL", lock}));
      EXPECT_GT(pttl, 0);
      EXPECT_LE(pttl, 5000);
    }
    // Nothing written yet.
    EXPECT_EQ(server.command({"EXISTS", bucket_name}), "0");
    EXPECT_EQ(server.command({"HLEN", map_name}), "1");

    monitor.take(server);  // this test's inspection commands, left out

    if (commit) {
      tx.commit();
    } else {
      tx.rollback();
    }
    for (auto& command : sent_by_clients(monitor.take(server))) ours.push_back(std::move(command));
    ours = comparable(ours);

    // After: no lock left; the data (and its bytes) as Java's.
    EXPECT_TRUE(lock_keys().empty());
    std::set<std::string> java_after;
    for (const auto& entry : java.at("state_after")) {
      const auto name_after = entry.at("key").get<std::string>();
      if (name_after.rfind("redisson_unlock_latch:", 0) != 0) java_after.insert(name_after);
    }
    EXPECT_EQ(keys(), java_after);
    for (const auto& entry : java.at("state_after")) {
      const auto stored = entry.at("key").get<std::string>();
      if (stored == bucket_name) {
        EXPECT_EQ(to_hex(server.command({"GET", stored})),
                  entry.at("content").at("hex").get<std::string>());
      }
      if (stored == map_name) {
        EXPECT_EQ(server.command({"HLEN", stored}), std::to_string(entry.at("content").size()));
        for (const auto& pair : entry.at("content")) {
          const auto field = pair.at(0).at("hex").get<std::string>();
          bool found = false;
          const auto all = lines(server.command({"HGETALL", stored}));
          for (std::size_t i = 0; i + 1 < all.size(); i += 2) {
            if (to_hex(all[i]) == field) {
              found = true;
              EXPECT_EQ(to_hex(all[i + 1]), pair.at(1).at("hex").get<std::string>());
            }
          }
          EXPECT_TRUE(found) << field;
        }
      }
    }

    // The commands, in Java's order: per write lock (EVALSHA) then read (HGET; the bucket set
    // reads nothing), the read of k0, and then commit = MULTI [write, unlock]... EXEC, or
    // rollback = the unlocks alone.
    SentCommands java_sent = comparable(java_sent_commands(name));
    // Java's list starts with the setup's map put (ours ran before MONITOR).
    while (!java_sent.empty() &&
           !(java_sent.front().size() > 3 && java_sent.front()[3].ends_with(":lock"))) {
      java_sent.erase(java_sent.begin());
    }
    EXPECT_EQ(ours, java_sent);
  }
};

TEST_F(TransactionTest, CommitKryoLocksSendsAndStoresAsJava) {
  replay_java_case("transaction_commit_kryo", codecs::kryo5(), true);
}

TEST_F(TransactionTest, CommitStringLocksSendsAndStoresAsJava) {
  replay_java_case("transaction_commit_string", codecs::string(), true);
}

TEST_F(TransactionTest, RollbackKryoOnlyUnlocksAsJava) {
  replay_java_case("transaction_rollback_kryo", codecs::kryo5(), false);
}

TEST_F(TransactionTest, RollbackStringOnlyUnlocksAsJava) {
  replay_java_case("transaction_rollback_string", codecs::string(), false);
}

TEST_F(TransactionTest, ReadsSeeOwnWritesAndOthersSeeNothingBeforeCommit) {
  Map<std::string, std::string> plain_map(client, "m", codecs::string());
  plain_map.put("a", "1");
  plain_map.put("b", "2");
  redisson::Set<std::string> plain_set(client, "s", codecs::string());
  plain_set.add("x");
  plain_set.add("y");

  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  auto set = tx.get<TransactionalSet<std::string>>("s", codecs::string());

  EXPECT_EQ(map.put("c", "3"), std::nullopt);
  EXPECT_EQ(map.remove("a"), std::optional<std::string>("1"));
  EXPECT_TRUE(map.fast_put("d", "4"));
  EXPECT_FALSE(map.fast_put_if_absent("b", "x"));
  EXPECT_EQ(map.put_if_absent("c", "other"), std::optional<std::string>("3"));
  map.put_all({{"e", "5"}, {"b", "22"}});
  EXPECT_EQ(map.get("a"), std::nullopt);
  EXPECT_EQ(map.get("c"), std::optional<std::string>("3"));
  EXPECT_FALSE(map.contains_key("a"));
  EXPECT_TRUE(map.contains_key("d"));
  EXPECT_EQ(map.size(), 4);  // b, c, d, e
  EXPECT_EQ(map.get_all({"a", "b", "c", "zz"}),
            (std::map<std::string, std::string>{{"b", "22"}, {"c", "3"}}));
  EXPECT_EQ(map.fast_remove({"d", "zz", "e"}), 2);
  EXPECT_EQ(map.size(), 2);  // b, c

  EXPECT_FALSE(bucket.is_exists());
  EXPECT_TRUE(bucket.try_set("v1"));
  EXPECT_FALSE(bucket.try_set("v2"));
  EXPECT_EQ(bucket.get(), std::optional<std::string>("v1"));
  EXPECT_TRUE(bucket.compare_and_set(std::string("v1"), std::string("v2")));
  EXPECT_FALSE(bucket.compare_and_set(std::string("v1"), std::string("v3")));
  EXPECT_EQ(bucket.get_and_set("v4"), std::optional<std::string>("v2"));
  EXPECT_TRUE(bucket.is_exists());

  EXPECT_TRUE(set.add("z"));
  EXPECT_FALSE(set.add("x"));
  EXPECT_TRUE(set.remove("y"));
  EXPECT_FALSE(set.remove("nope"));
  EXPECT_TRUE(set.contains("z"));
  EXPECT_FALSE(set.contains("y"));
  EXPECT_EQ(set.size(), 2);
  auto members = set.read_all();
  EXPECT_EQ(std::set<std::string>(members.begin(), members.end()),
            (std::set<std::string>{"x", "z"}));

  // Nothing written yet: other clients see the old data.
  EXPECT_EQ(server.command({"HGET", "m", "a"}), "1");
  EXPECT_EQ(server.command({"HLEN", "m"}), "2");
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
  EXPECT_EQ(server.command({"SCARD", "s"}), "2");

  tx.commit();
  EXPECT_EQ(server.command({"HLEN", "m"}), "2");
  EXPECT_EQ(plain_map.get("b"), std::optional<std::string>("22"));
  EXPECT_EQ(plain_map.get("c"), std::optional<std::string>("3"));
  EXPECT_EQ(server.command({"GET", "b"}), "v4");
  EXPECT_EQ(server.command({"SCARD", "s"}), "2");
  EXPECT_EQ(server.command({"SISMEMBER", "s", "z"}), "1");
  EXPECT_EQ(server.command({"SISMEMBER", "s", "y"}), "0");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, BucketsShareTheBucketsLocksAndOwnWritesAndCommitOneSetEach) {
  Bucket<std::string>(client, "a", codecs::string()).set("1");
  Bucket<std::string>(client, "b", codecs::string()).set("2");
  Transaction tx(client);
  auto buckets = tx.get<TransactionalBuckets>(codecs::string());
  auto c = tx.get<StringBucket>("c", codecs::string());
  c.set("3");
  using Values = std::map<std::string, std::string>;
  // Own writes (c) and MGET of the rest; a name that does not exist is left out.
  EXPECT_EQ(buckets.get<std::string>({"a", "b", "c", "zz"}),
            (Values{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_TRUE(buckets.get<std::string>({}).empty());

  buckets.set<std::string>({{"a", "10"}, {"d", "4"}});
  EXPECT_EQ(lock_keys(), (std::set<std::string>{"a:transaction_lock", "c:transaction_lock",
                                                "d:transaction_lock"}));
  // One view with TransactionalBucket, both ways.
  EXPECT_EQ(tx.get<StringBucket>("d", codecs::string()).get(), std::optional<std::string>("4"));
  EXPECT_TRUE(tx.get<StringBucket>("b", codecs::string()).delete_object());
  EXPECT_EQ(buckets.get<std::string>({"a", "b", "d"}), (Values{{"a", "10"}, {"d", "4"}}));
  // Nothing written before commit.
  EXPECT_EQ(server.command({"GET", "a"}), "1");
  EXPECT_EQ(server.command({"EXISTS", "d"}), "0");

  Monitor monitor(server);
  tx.commit();
  SentCommands sent;
  for (auto& command : sent_by_clients(monitor.take(server))) {
    if (command.at(0) == "SET" || command.at(0) == "DEL") sent.push_back(std::move(command));
  }
  EXPECT_EQ(sent,
            (SentCommands{{"SET", "c", "3"}, {"SET", "a", "10"}, {"SET", "d", "4"}, {"DEL", "b"}}));
  EXPECT_EQ(server.command({"GET", "a"}), "10");
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
  EXPECT_EQ(server.command({"GET", "c"}), "3");
  EXPECT_EQ(server.command({"GET", "d"}), "4");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, BucketsTrySetDecidesOnTheTransactionsViewAndRecordsOneMsetnx) {
  Bucket<std::string>(client, "x", codecs::string()).set("1");
  Transaction tx(client);
  auto buckets = tx.get<TransactionalBuckets>(codecs::string());
  // x exists in Redis: refused, nothing recorded, the holds given back.
  EXPECT_FALSE(buckets.try_set<std::string>({{"x", "new"}, {"y", "y1"}}));
  EXPECT_TRUE(eventually([&] { return lock_keys().empty(); }));
  EXPECT_FALSE(buckets.try_set<std::string>({}));
  EXPECT_TRUE(buckets.try_set<std::string>({{"y", "y1"}, {"z", "z1"}}));
  // y is now the transaction's own value: refused without asking Redis.
  EXPECT_FALSE(buckets.try_set<std::string>({{"y", "again"}}));
  // x deleted in the transaction: free for it.
  EXPECT_TRUE(tx.get<StringBucket>("x", codecs::string()).delete_object());
  EXPECT_TRUE(buckets.try_set<std::string>({{"x", "new"}}));
  EXPECT_EQ(buckets.get<std::string>({"x", "y", "z"}),
            (std::map<std::string, std::string>{{"x", "new"}, {"y", "y1"}, {"z", "z1"}}));
  EXPECT_EQ(server.command({"GET", "x"}), "1");
  EXPECT_EQ(server.command({"EXISTS", "y"}), "0");

  Monitor monitor(server);
  tx.commit();
  SentCommands sent;
  for (auto& command : sent_by_clients(monitor.take(server))) {
    if (command.at(0) == "MSETNX" || command.at(0) == "DEL") sent.push_back(std::move(command));
  }
  EXPECT_EQ(sent,
            (SentCommands{{"MSETNX", "y", "y1", "z", "z1"}, {"DEL", "x"}, {"MSETNX", "x", "new"}}));
  EXPECT_EQ(server.command({"GET", "x"}), "new");
  EXPECT_EQ(server.command({"GET", "y"}), "y1");
  EXPECT_EQ(server.command({"GET", "z"}), "z1");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, BucketsWaitForAnotherTransactionsLockAndKeepNoHoldWhenTheyFail) {
  Transaction first(client);
  first.get<StringBucket>("b", codecs::string()).set("first");

  Transaction second(client, TransactionOptions{}.timeout_after(300ms));
  auto buckets = second.get<TransactionalBuckets>(codecs::string());
  // a is free (taken in the first pipelined try), b is the first transaction's: a times out
  // too, and neither a's hold nor anything else of the second transaction is left.
  expect_error(
      errc::timeout,
      [&] {
        buckets.set<std::string>({{"a", "second"}, {"b", "second"}});
      },
      "set under another transaction's lock");
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "a:transaction_lock"}) == "0"; }));
  std::promise<std::error_code> conflict;
  buckets.async_try_set<std::string>({{"b", "x"}},
                                     [&](std::error_code ec, bool) { conflict.set_value(ec); });
  EXPECT_EQ(conflict.get_future().get(), errc::timeout);

  // A lock key of another type: a clear error, the other name's hold given back.
  server.command({"SET", "w:transaction_lock", "not a lock"});
  Transaction third(client);
  auto others = third.get<TransactionalBuckets>(codecs::string());
  expect_error(
      errc::wrong_type,
      [&] {
        others.set<std::string>({{"c", "v"}, {"w", "v"}});
      },
      "a lock key that is a string");
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "c:transaction_lock"}) == "0"; }));
  expect_error(
      errc::invalid_argument,
      [&] {
        others.set<std::string>({{"", "v"}});
      },
      "an empty name");
  expect_error(
      errc::invalid_argument,
      [&] {
        others.get<std::string>({"ok", ""});
      },
      "an empty name");
  third.commit();
  second.rollback();
  first.commit();
  EXPECT_EQ(server.command({"GET", "b"}), "first");
  EXPECT_EQ(server.command({"EXISTS", "a"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");
  EXPECT_EQ(lock_keys(), std::set<std::string>{"w:transaction_lock"});
}

TEST_F(TransactionTest, SetCacheCountsOnlyLiveMembersAndCommitsItsScripts) {
  // Written as SetCache writes them (no SetCache handle yet: its sweeper would remove "gone").
  server.command({"ZADD", "sc", "92233720368547758", "live"});
  // An element whose expiry has passed: absent for every reader, still in the zset.
  server.command({"ZADD", "sc", "1000", "gone"});
  Transaction tx(client);
  auto cache = tx.get<TransactionalSetCache<std::string>>("sc", codecs::string());
  EXPECT_TRUE(cache.contains("live"));
  EXPECT_FALSE(cache.contains("gone"));
  EXPECT_TRUE(cache.add("gone"));  // an expired member counts as absent
  EXPECT_FALSE(cache.add("live"));
  EXPECT_TRUE(cache.add("new", 60s));
  EXPECT_TRUE(cache.remove("live"));
  EXPECT_FALSE(cache.remove("nope"));
  EXPECT_TRUE(cache.contains("gone"));
  EXPECT_FALSE(cache.contains("live"));
  EXPECT_EQ(cache.size(), 2);  // gone, new
  auto members = cache.read_all();
  EXPECT_EQ(std::set<std::string>(members.begin(), members.end()),
            (std::set<std::string>{"gone", "new"}));
  EXPECT_EQ(cache.lock_name("new"),
            tx.get<TransactionalSet<std::string>>("sc", codecs::string()).lock_name("new"));
  expect_error(
      errc::invalid_argument, [&] { cache.add("bad", -1ms); }, "negative ttl");
  // Nothing written yet.
  EXPECT_EQ(server.command({"ZCARD", "sc"}), "2");
  EXPECT_EQ(server.command({"ZSCORE", "sc", "new"}), "(nil)");

  const auto before_ms = redisson::detail::set_cache_now_ms();
  tx.commit();
  const redisson::SetCache<std::string> plain(client, "sc", codecs::string());
  EXPECT_FALSE(plain.contains("live"));
  EXPECT_TRUE(plain.contains("gone"));
  EXPECT_TRUE(plain.contains("new"));
  EXPECT_EQ(plain.size(), 2);
  // "new" expires 60 s after the commit; "gone" now never expires (Redisson's far score).
  const auto new_expiry = std::stod(server.command({"ZSCORE", "sc", "new"}));
  EXPECT_GE(new_expiry, static_cast<double>(before_ms + 60000));
  EXPECT_LE(new_expiry, static_cast<double>(redisson::detail::set_cache_now_ms() + 60000));
  EXPECT_GT(std::stod(server.command({"ZSCORE", "sc", "gone"})), 9.2e16);
  EXPECT_TRUE(lock_keys().empty());

  // A key of another type: a clear error, no hold kept.
  server.command({"SET", "str", "x"});
  Transaction wrong(client);
  auto on_string = wrong.get<TransactionalSetCache<std::string>>("str", codecs::string());
  expect_error(
      errc::wrong_type, [&] { on_string.contains("a"); }, "contains on a string");
  expect_error(
      errc::wrong_type, [&] { on_string.add("a"); }, "add on a string");
  EXPECT_TRUE(eventually([&] { return lock_keys().empty(); }));
  wrong.commit();
  EXPECT_EQ(server.command({"GET", "str"}), "x");
}

TEST_F(TransactionTest, MapConditionalWritesDecideOnTheTransactionsView) {
  Map<std::string, std::string> plain(client, "m", codecs::string());
  plain.put("a", "1");
  plain.put("b", "2");
  redisson::MapCache<std::string, std::string> plain_cache(client, "mc", codecs::string());
  plain_cache.put("k", "old");
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  EXPECT_EQ(map.put_if_exists("a", "10"), std::optional<std::string>("1"));
  EXPECT_EQ(map.put_if_exists("zz", "x"), std::nullopt);
  EXPECT_EQ(map.get("zz"), std::nullopt);
  EXPECT_TRUE(map.fast_put_if_exists("b", "20"));
  EXPECT_FALSE(map.fast_put_if_exists("yy", "x"));
  EXPECT_TRUE(map.replace("a", "10", "11"));
  EXPECT_FALSE(map.replace("a", "10", "12"));
  EXPECT_EQ(map.get("a"), std::optional<std::string>("11"));
  EXPECT_EQ(map.replace("c", "x"), std::nullopt);
  EXPECT_FALSE(map.remove("b", "nope"));
  EXPECT_TRUE(map.remove("b", "20"));
  EXPECT_FALSE(map.contains_key("b"));
  EXPECT_EQ(map.size(), 1);
  auto cache = tx.get<TransactionalMapCache<std::string, std::string>>("mc", codecs::string());
  EXPECT_EQ(cache.replace("k", "new"), std::optional<std::string>("old"));
  EXPECT_FALSE(cache.replace("k", "old", "newer"));
  EXPECT_TRUE(cache.replace("k", "new", "newest"));
  // Nothing written yet.
  EXPECT_EQ(server.command({"HGET", "m", "a"}), "1");
  EXPECT_EQ(plain_cache.get("k"), std::optional<std::string>("old"));

  tx.commit();
  EXPECT_EQ(plain.get("a"), std::optional<std::string>("11"));
  EXPECT_EQ(plain.get("b"), std::nullopt);
  EXPECT_EQ(server.command({"HLEN", "m"}), "1");
  EXPECT_EQ(plain_cache.get("k"), std::optional<std::string>("newest"));
  EXPECT_TRUE(lock_keys().empty());
}

// Redisson's transactional map reads the whole map, a value's size and adds to a number with
// the transaction's own writes counted; add_and_get locks its key and commits Map's
// add_and_get, whose result the transaction already answered.
TEST_F(TransactionTest, MapWholeReadsValueSizeAndAddAndGetSeeTheTransactionsWrites) {
  using Strings = std::vector<std::string>;
  Map<std::string, std::string> plain(client, "m", codecs::string());
  plain.put_all({{"a", "1"}, {"b", "2"}, {"c", "hello"}});
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  map.put("d", "4");
  map.remove("b");
  map.put("a", "10");
  const std::map<std::string, std::string> seen{{"a", "10"}, {"c", "hello"}, {"d", "4"}};
  EXPECT_EQ(map.read_all_map(), seen);
  EXPECT_EQ(map.read_all_key_set(), (std::set<std::string>{"a", "c", "d"}));
  auto values = map.read_all_values();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (Strings{"10", "4", "hello"}));
  EXPECT_TRUE(map.contains_value("4"));
  EXPECT_TRUE(map.contains_value("hello"));
  EXPECT_FALSE(map.contains_value("2"));  // b's value: removed by the transaction
  EXPECT_FALSE(map.contains_value("1"));  // a's value before the transaction's put
  EXPECT_EQ(map.value_size("c"), 5);      // HSTRLEN
  EXPECT_EQ(map.value_size("a"), 2);      // the transaction's own "10"
  EXPECT_EQ(map.value_size("b"), 0);
  EXPECT_EQ(map.value_size("none"), 0);

  EXPECT_EQ(map.add_and_get("a", std::int64_t{5}), 15);
  EXPECT_EQ(map.add_and_get("n", 2.5), 2.5);  // absent: counted from 0
  EXPECT_DOUBLE_EQ(map.add_and_get("n", 0.1), 2.6);
  EXPECT_EQ(map.get("n"), std::optional<std::string>("2.6"));  // as HINCRBYFLOAT writes it
  expect_error(
      errc::server_error, [&] { map.add_and_get("c", 1); }, "add_and_get on a word");
  EXPECT_EQ(map.get("c"), std::optional<std::string>("hello"));
  // Nothing recorded, so its hold is given back at once (sent, not waited for).
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", map.lock_name("c")}) == "0"; }));
  EXPECT_EQ(server.command({"HGET", "m", "a"}), "1");  // nothing written yet

  // A transaction that deleted the map reads only what it wrote since.
  Transaction other(client);
  auto emptied = other.get<StringMap>("m2", codecs::string());
  Map<std::string, std::string>(client, "m2", codecs::string()).put("old", "x");
  emptied.delete_object();
  emptied.put("new", "y");
  EXPECT_EQ(emptied.read_all_map(), (std::map<std::string, std::string>{{"new", "y"}}));
  EXPECT_FALSE(emptied.contains_value("x"));
  EXPECT_EQ(emptied.value_size("old"), 0);
  other.rollback();

  tx.commit();
  EXPECT_EQ(plain.read_all_map(), (std::map<std::string, std::string>{
                                      {"a", "15"}, {"c", "hello"}, {"d", "4"}, {"n", "2.6"}}));
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, SetBulkWritesLockEveryMemberAndCountOnTheTransactionsView) {
  redisson::Set<std::string> plain(client, "s", codecs::string());
  plain.add("a");
  plain.add("b");
  server.command({"ZADD", "sc", "92233720368547758", "live"});
  server.command({"ZADD", "sc", "1000", "gone"});
  Transaction tx(client);
  auto set = tx.get<TransactionalSet<std::string>>("s", codecs::string());
  EXPECT_TRUE(set.remove("b"));
  EXPECT_FALSE(set.contains_all({"a", "b"}));  // b removed by the transaction
  EXPECT_TRUE(set.contains_all({"a"}));
  EXPECT_TRUE(set.contains_all({}));
  EXPECT_EQ(set.add_all({"a", "b", "c", "c"}), 2);  // b and c; a was there
  EXPECT_EQ(lock_keys().size(), 3U);
  EXPECT_TRUE(set.contains_all({"a", "b", "c"}));
  EXPECT_EQ(set.remove_all({"a", "zz"}), 1);
  EXPECT_EQ(set.add_all({}), 0);
  EXPECT_EQ(set.size(), 2);  // b, c
  auto cache = tx.get<TransactionalSetCache<std::string>>("sc", codecs::string());
  EXPECT_FALSE(cache.contains_all({"live", "gone"}));
  EXPECT_EQ(cache.add_all({"live", "gone", "new"}), 2);
  EXPECT_EQ(cache.remove_all({"live"}), 1);
  EXPECT_EQ(cache.size(), 2);  // gone, new
  EXPECT_EQ(server.command({"SCARD", "s"}), "2");

  tx.commit();
  EXPECT_EQ(server.command({"SCARD", "s"}), "2");
  EXPECT_TRUE(plain.contains("b"));
  EXPECT_TRUE(plain.contains("c"));
  const redisson::SetCache<std::string> plain_cache(client, "sc", codecs::string());
  EXPECT_FALSE(plain_cache.contains("live"));
  EXPECT_TRUE(plain_cache.contains("gone"));
  EXPECT_TRUE(plain_cache.contains("new"));
  EXPECT_TRUE(lock_keys().empty());

  // A conflicting member: the bulk write waits, then fails, keeping no hold.
  Transaction first(client);
  first.get<TransactionalSet<std::string>>("s", codecs::string()).add("held");
  Transaction second(client, TransactionOptions{}.timeout_after(300ms));
  auto other = second.get<TransactionalSet<std::string>>("s", codecs::string());
  expect_error(
      errc::timeout,
      [&] {
        other.add_all({"free", "held"});
      },
      "add_all under another's lock");
  const auto free_lock = other.lock_name("free");
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", free_lock}) == "0"; }));
  second.rollback();
  first.commit();
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, MapDeleteTakesTheWriteLockAndHidesWhatRedisHeld) {
  Map<std::string, std::string> plain(client, "m", codecs::string());
  plain.put("a", "1");
  plain.put("b", "2");
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  EXPECT_TRUE(map.is_exists());
  map.put("c", "3");
  EXPECT_TRUE(map.delete_object());
  // Java's RedissonTransactionalWriteLock: a read-write lock hash in write mode.
  const auto lock = lines(server.command({"HGETALL", "m:transaction_lock"}));
  ASSERT_EQ(lock.size(), 4U);
  std::map<std::string, std::string> fields{{lock[0], lock[1]}, {lock[2], lock[3]}};
  EXPECT_EQ(fields["mode"], "write");
  const std::string write_field =
      client.id() + ":" +
      std::regex_replace(lock[0] == "mode" ? lock[2] : lock[0], std::regex("^[^:]*-[^:]*:"), "");
  EXPECT_TRUE(fields.count(write_field) == 1 &&
              std::regex_match(write_field, std::regex(".*:[0-9]+:write:" + tx.id())))
      << write_field;
  EXPECT_EQ(map.get("a"), std::nullopt);
  EXPECT_EQ(map.size(), 0);
  EXPECT_FALSE(map.is_exists());
  EXPECT_EQ(map.put("d", "4"), std::nullopt);
  EXPECT_EQ(map.size(), 1);
  EXPECT_EQ(map.get_all({"a", "d"}), (std::map<std::string, std::string>{{"d", "4"}}));
  EXPECT_TRUE(map.is_exists());
  EXPECT_EQ(server.command({"HLEN", "m"}), "2");  // nothing written yet

  // Another transaction (ours or Java's) deleting the map waits for this one.
  Transaction other(client, TransactionOptions{}.timeout_after(300ms));
  expect_error(
      errc::timeout, [&] { other.get<StringMap>("m", codecs::string()).delete_object(); },
      "a second delete");
  other.rollback();

  tx.commit();
  EXPECT_EQ(lines(server.command({"HGETALL", "m"})), (std::vector<std::string>{"d", "4"}));
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, SetUnlinkAndTouchAreRecordedAndCacheKeysAllGo) {
  redisson::Set<std::string> plain(client, "s", codecs::string());
  plain.add("x");
  redisson::MapCache<std::string, std::string> cache_plain(client, "mc", codecs::string());
  cache_plain.put("k", "v", 60s);
  ASSERT_EQ(server.command({"EXISTS", "redisson__timeout__set:{mc}"}), "1");

  Monitor monitor(server);
  Transaction tx(client);
  auto set = tx.get<TransactionalSet<std::string>>("s", codecs::string());
  EXPECT_TRUE(set.touch());
  EXPECT_TRUE(set.unlink());
  EXPECT_FALSE(set.contains("x"));
  EXPECT_TRUE(set.read_all().empty());
  EXPECT_TRUE(set.add("y"));
  EXPECT_EQ(set.size(), 1);
  auto cache = tx.get<TransactionalMapCache<std::string, std::string>>("mc", codecs::string());
  EXPECT_TRUE(cache.delete_object());
  EXPECT_FALSE(cache.delete_object());  // gone as the transaction sees it
  EXPECT_EQ(cache.get("k"), std::nullopt);
  EXPECT_FALSE(tx.get<StringMap>("never", codecs::string()).touch());
  tx.commit();

  SentCommands sent;
  for (auto& command : sent_by_clients(monitor.take(server))) {
    const auto& verb = command.at(0);
    if (verb == "TOUCH" || verb == "UNLINK" || verb == "DEL" || verb == "SADD") {
      sent.push_back(std::move(command));
    }
  }
  // MapCache's every key (its expiry sets and options too).
  const std::vector<std::string> cache_delete{"DEL",
                                              "mc",
                                              "redisson__timeout__set:{mc}",
                                              "redisson__idle__set:{mc}",
                                              "redisson__map_cache__last_access__set:{mc}",
                                              "{mc}:redisson_options"};
  EXPECT_EQ(sent, (SentCommands{{"TOUCH", "s"},
                                {"UNLINK", "s"},
                                {"SADD", "s", "y"},
                                cache_delete,
                                cache_delete,
                                {"TOUCH", "never"}}));
  EXPECT_EQ(lines(server.command({"SMEMBERS", "s"})), (std::vector<std::string>{"y"}));
  EXPECT_EQ(server.command({"EXISTS", "mc"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "redisson__timeout__set:{mc}"}), "0");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, ExpireAndClearExpireAreRecordedUnderTheWriteLock) {
  Map<std::string, std::string>(client, "m", codecs::string()).put("a", "1");
  redisson::Set<std::string>(client, "s", codecs::string()).add("x");
  server.command({"PEXPIRE", "s", "50000"});
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  auto set = tx.get<TransactionalSet<std::string>>("s", codecs::string());
  EXPECT_FALSE(map.clear_expire());  // no time to live yet
  EXPECT_TRUE(map.expire(60s));
  EXPECT_TRUE(map.clear_expire());  // the expire it recorded
  EXPECT_TRUE(map.expire(30s));
  EXPECT_TRUE(set.clear_expire());  // PTTL > 0
  EXPECT_FALSE(tx.get<StringMap>("none", codecs::string()).expire(10s));
  expect_error(
      errc::invalid_argument, [&] { map.expire(-1s); }, "negative ttl");
  EXPECT_EQ(server.command({"PTTL", "m"}), "-1");  // nothing written yet
  EXPECT_EQ(server.command({"HGET", "m:transaction_lock", "mode"}), "write");
  tx.commit();
  const auto ttl = std::stoll(server.command({"PTTL", "m"}));
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 30000);
  EXPECT_EQ(server.command({"PTTL", "s"}), "-1");
  EXPECT_EQ(server.command({"EXISTS", "none"}), "0");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, BucketUnlinkTouchAndExpiresTakeTheBucketsLock) {
  Bucket<std::string>(client, "b", codecs::string()).set("1");
  server.command({"PEXPIRE", "b", "50000"});
  Monitor monitor(server);
  Transaction tx(client);
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  EXPECT_TRUE(bucket.clear_expire());  // PTTL > 0
  EXPECT_TRUE(bucket.touch());
  // The bucket's plain transaction lock (not a read-write lock), as Java's.
  const auto lock = lines(server.command({"HGETALL", "b:transaction_lock"}));
  ASSERT_EQ(lock.size(), 2U);
  EXPECT_TRUE(std::regex_match(lock[0], kFieldShape)) << lock[0];
  EXPECT_EQ(lock[1], "2");
  EXPECT_TRUE(bucket.expire(30s));
  EXPECT_TRUE(bucket.unlink());
  EXPECT_EQ(bucket.get(), std::nullopt);
  EXPECT_FALSE(bucket.is_exists());
  EXPECT_FALSE(bucket.touch());
  expect_error(
      errc::invalid_argument, [&] { bucket.expire(0s); }, "zero ttl");
  bucket.set("2");
  EXPECT_EQ(server.command({"GET", "b"}), "1");
  tx.commit();
  SentCommands sent;
  for (auto& command : sent_by_clients(monitor.take(server))) {
    const auto& verb = command.at(0);
    if (verb == "PERSIST" || verb == "TOUCH" || verb == "PEXPIRE" || verb == "UNLINK" ||
        verb == "SET") {
      if (verb == "PEXPIRE" && command.at(1) != "b") continue;  // the locks' own leases
      sent.push_back(std::move(command));
    }
  }
  EXPECT_EQ(sent, (SentCommands{{"PERSIST", "b"},
                                {"TOUCH", "b"},
                                {"PEXPIRE", "b", "30000"},
                                {"UNLINK", "b"},
                                {"TOUCH", "b"},
                                {"SET", "b", "2"}}));
  EXPECT_EQ(server.command({"GET", "b"}), "2");
  EXPECT_EQ(server.command({"PTTL", "b"}), "-1");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, BucketDeleteAndGetAndDeleteAreCommitted) {
  Bucket<std::string>(client, "one", codecs::string()).set("1");
  Bucket<std::string>(client, "two", codecs::string()).set("2");
  Transaction tx(client);
  auto one = tx.get<StringBucket>("one", codecs::string());
  auto two = tx.get<StringBucket>("two", codecs::string());
  EXPECT_TRUE(one.delete_object());
  EXPECT_FALSE(one.is_exists());
  EXPECT_EQ(two.get_and_delete(), std::optional<std::string>("2"));
  EXPECT_EQ(two.get(), std::nullopt);
  two.set("ttl", 60s);
  EXPECT_EQ(server.command({"GET", "one"}), "1");
  tx.commit();
  EXPECT_EQ(server.command({"EXISTS", "one"}), "0");
  EXPECT_EQ(server.command({"GET", "two"}), "ttl");
  EXPECT_GT(std::stoll(server.command({"PTTL", "two"})), 0);
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, MapCachePutWithTtlIsCommittedAsMapCachesPut) {
  redisson::MapCache<std::string, std::string> plain(client, "mc", codecs::string());
  plain.put("old", "1");
  Transaction tx(client);
  auto cache = tx.get<TransactionalMapCache<std::string, std::string>>("mc", codecs::string());
  EXPECT_EQ(cache.put("k", "v", 60s), std::nullopt);
  EXPECT_EQ(cache.put("old", "2"), std::optional<std::string>("1"));  // read through its script
  EXPECT_EQ(cache.get("k"), std::optional<std::string>("v"));
  EXPECT_EQ(cache.size(), 2);
  const redisson::Map<std::string, std::string> as_map(client, "mc", codecs::string());
  EXPECT_EQ(cache.lock_name("k"), as_map.lock_name("k"));  // Redisson's per-key lock
  EXPECT_EQ(plain.get("k"), std::nullopt);
  tx.commit();
  EXPECT_EQ(plain.get("k"), std::optional<std::string>("v"));
  EXPECT_EQ(plain.get("old"), std::optional<std::string>("2"));
  const auto ttl = plain.remaining_time_to_live("k");
  EXPECT_GT(ttl.count(), 0);
  EXPECT_LE(ttl.count(), 60000);
  EXPECT_TRUE(lock_keys().empty());
  Transaction bad(client);
  auto other = bad.get<TransactionalMapCache<std::string, std::string>>("mc", codecs::string());
  expect_error(
      errc::invalid_argument, [&] { other.put("k", "w", -1ms); }, "negative ttl");
  bad.rollback();
  EXPECT_EQ(plain.get("k"), std::optional<std::string>("v"));
}

// Redisson's transactional map cache has the ttl forms of putIfAbsent, fastPut and
// fastPutIfAbsent too: each answers from the transaction's view and commits MapCache's put
// script in its mode, the entry expiring ttl after the commit.
TEST_F(TransactionTest, MapCacheConditionalAndFastWritesWithTtlAreCommittedInTheirModes) {
  redisson::MapCache<std::string, std::string> plain(client, "mc", codecs::string());
  plain.put("present", "1");
  Transaction tx(client);
  auto cache = tx.get<TransactionalMapCache<std::string, std::string>>("mc", codecs::string());
  EXPECT_EQ(cache.put_if_absent("present", "x", 60s), std::optional<std::string>("1"));
  EXPECT_EQ(cache.put_if_absent("a", "A", 60s), std::nullopt);
  EXPECT_EQ(cache.put_if_absent("a", "again", 60s), std::optional<std::string>("A"));
  EXPECT_TRUE(cache.fast_put("b", "B", 60s, 30s));
  EXPECT_FALSE(cache.fast_put("b", "B2", 60s));
  EXPECT_FALSE(cache.fast_put_if_absent("present", "y", 60s));
  EXPECT_TRUE(cache.fast_put_if_absent("c", "C", 60s));
  // add_and_get answers what MapCache's script will store (doubles, 17 significant digits),
  // not what HINCRBYFLOAT would ("2.6").
  EXPECT_EQ(cache.add_and_get("n", 2.5), 2.5);
  EXPECT_DOUBLE_EQ(cache.add_and_get("n", 0.1), 2.6);
  const std::string n_text = "2.6000000000000001";
  EXPECT_EQ(cache.get("n"), n_text);
  const std::map<std::string, std::string> seen{
      {"present", "1"}, {"a", "A"}, {"b", "B2"}, {"c", "C"}, {"n", n_text}};
  EXPECT_EQ(cache.read_all_map(), seen);
  EXPECT_EQ(plain.size(), 1);  // nothing written yet
  tx.commit();
  EXPECT_EQ(plain.read_all_map(), seen);
  for (const char* key : {"a", "b", "c"}) {
    const auto ttl = plain.remaining_time_to_live(key);
    EXPECT_GT(ttl.count(), 0) << key;
    EXPECT_LE(ttl.count(), 60000) << key;
  }
  EXPECT_LT(plain.remaining_time_to_live("present").count(), 0);  // untouched: no expiry
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, RollbackLeavesNothingBehind) {
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  auto set = tx.get<TransactionalSet<std::string>>("s", codecs::string());
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  map.put("k", "v");
  map.put("k", "again");  // a second hold of the same lock
  set.add("x");
  bucket.set("v");
  EXPECT_EQ(lock_keys().size(), 3U);
  tx.rollback();
  EXPECT_TRUE(keys().empty());
}

TEST_F(TransactionTest, AsyncCommitCompletesAfterTheWritesAreVisible) {
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  auto put = map.async_put("k", "v", asio::use_future);
  EXPECT_EQ(put.get(), std::nullopt);
  auto committed = tx.async_commit(asio::use_future);
  committed.get();
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "v");
}

// sync_slaves asks for replicas this server does not have: the commit ran (its writes are there,
// its locks are gone) and commit() says so instead of passing it off as acknowledged.
TEST_F(TransactionTest, CommitThatTooFewReplicasAcknowledgedIsReportedAsCommittedButNotReplicated) {
  Transaction tx(client, TransactionOptions{}.sync(1, 20ms));
  auto map = tx.get<StringMap>("m", codecs::string());
  map.put("k", "v");
  expect_error(
      errc::not_replicated, [&] { tx.commit(); }, "commit with 0 of 1 replicas");
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "v");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, SecondTransactionOnTheSameKeyFailsWithTimeout) {
  Transaction first(client);
  auto map = first.get<StringMap>("m", codecs::string());
  map.put("k", "first");

  Transaction second(client, TransactionOptions{}.timeout_after(300ms));
  auto other = second.get<StringMap>("m", codecs::string());
  expect_error(
      errc::timeout, [&] { other.put("k", "second"); }, "conflicting put");
  std::promise<std::error_code> conflict;
  other.async_remove(
      "k", [&](std::error_code ec, const std::optional<std::string>&) { conflict.set_value(ec); });
  EXPECT_EQ(conflict.get_future().get(), errc::timeout);
  // Another key is free; a bucket the first one did not touch too.
  EXPECT_EQ(other.put("j", "second"), std::nullopt);
  second.rollback();

  first.commit();
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "first");
  EXPECT_EQ(server.command({"HEXISTS", "m", "j"}), "0");
  EXPECT_TRUE(lock_keys().empty());
}

TEST_F(TransactionTest, ConflictsWithAJavaShapedLockHash) {
  // What a Java RTransaction holding the key and the bucket leaves in Redis.
  const std::string java_field =
      "7045f921-41de-4b24-9fb4-79c3457a5bb5:1:9bd3b0c000f46985ab3d10a18aa5c4d9";
  Transaction tx(client, TransactionOptions{}.timeout_after(300ms));
  auto map = tx.get<StringMap>("m", codecs::string());
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  const auto key_lock = map.lock_name("k");
  server.command({"HSET", key_lock, java_field, "1"});
  server.command({"PEXPIRE", key_lock, "60000"});
  server.command({"HSET", "b:transaction_lock", java_field, "1"});
  server.command({"PEXPIRE", "b:transaction_lock", "60000"});

  expect_error(
      errc::timeout, [&] { map.put("k", "v"); }, "put under Java's lock");
  expect_error(
      errc::timeout, [&] { bucket.set("v"); }, "set under Java's lock");
  // Java deleting the map holds its RedissonTransactionalWriteLock: our delete waits for it.
  const std::string java_write_field =
      "7045f921-41de-4b24-9fb4-79c3457a5bb5:1:write:9bd3b0c000f46985ab3d10a18aa5c4d9";
  server.command({"HSET", "m:transaction_lock", "mode", "write", java_write_field, "1"});
  server.command({"PEXPIRE", "m:transaction_lock", "60000"});
  expect_error(
      errc::timeout, [&] { map.delete_object(); }, "delete under Java's write lock");
  tx.rollback();
  EXPECT_EQ(server.command({"HGET", "m:transaction_lock", java_write_field}), "1");
  // Java's holds untouched, nothing written.
  EXPECT_EQ(server.command({"HGET", key_lock, java_field}), "1");
  EXPECT_EQ(server.command({"HGET", "b:transaction_lock", java_field}), "1");
  EXPECT_EQ(server.command({"EXISTS", "m"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
}

TEST_F(TransactionTest, MapKeyLockNameIsRedissons) {
  // fixtures: transaction_commit_string map_key_hash128toBase64 (StringCodec "k1").
  Transaction tx(client);
  auto map = tx.get<StringMap>("fx2:transaction_commit_string:map", codecs::string());
  EXPECT_EQ(map.lock_name("k1"), "{fx2:transaction_commit_string:map}:9sC8KpMg8F8KBbxgHnpp1w:lock");
  tx.rollback();
}

TEST_F(TransactionTest, UseAfterCommitOrRollbackIsInvalidArgumentAndChangesNothing) {
  Transaction tx(client);
  auto map = tx.get<StringMap>("m", codecs::string());
  map.put("k", "v");
  tx.commit();
  expect_error(
      errc::invalid_argument, [&] { map.put("k", "w"); }, "put after commit");
  expect_error(
      errc::invalid_argument, [&] { map.get("k"); }, "get after commit");
  // The async forms complete with the error code.
  std::promise<std::error_code> refused;
  map.async_fast_put("k", "w", [&](std::error_code ec, bool) { refused.set_value(ec); });
  EXPECT_EQ(refused.get_future().get(), errc::invalid_argument);
  expect_error(
      errc::invalid_argument, [&] { tx.commit(); }, "second commit");
  expect_error(
      errc::invalid_argument, [&] { tx.rollback(); }, "rollback after commit");
  EXPECT_EQ(server.command({"HGET", "m", "k"}), "v");
  EXPECT_TRUE(lock_keys().empty());

  Transaction rolled(client);
  auto bucket = rolled.get<StringBucket>("b", codecs::string());
  bucket.set("x");
  rolled.rollback();
  expect_error(
      errc::invalid_argument, [&] { bucket.set("y"); }, "set after rollback");
  expect_error(
      errc::invalid_argument, [&] { rolled.commit(); }, "commit after rollback");
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
}

TEST_F(TransactionTest, BadOptionsAreInvalidArgument) {
  expect_error(
      errc::invalid_argument,
      [&] { Transaction tx(client, TransactionOptions{}.timeout_after(-1ms)); }, "timeout -1");
  expect_error(
      errc::invalid_argument,
      [&] { Transaction tx(client, TransactionOptions{}.timeout_after(0ms)); }, "timeout 0");
  expect_error(
      errc::invalid_argument, [&] { Transaction tx(client, TransactionOptions{}.response(-5ms)); },
      "response -5");
  Transaction tx(client);
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  expect_error(
      errc::invalid_argument, [&] { bucket.set("v", -1s); }, "negative ttl");
  tx.commit();
  EXPECT_TRUE(keys().empty());
}

TEST_F(TransactionTest, ExpiredTransactionIsRolledBackByCommit) {
  Transaction tx(client, TransactionOptions{}.timeout_after(100ms));
  auto bucket = tx.get<StringBucket>("b", codecs::string());
  bucket.set("v");
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "b:transaction_lock"}) == "0"; }));
  expect_error(
      errc::timeout, [&] { tx.commit(); }, "commit after the timeout");
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
  expect_error(
      errc::invalid_argument, [&] { tx.rollback(); }, "rollback after");
}

TEST_F(TransactionTest, DroppedTransactionRollsBack) {
  {
    Transaction tx(client);
    auto map = tx.get<StringMap>("m", codecs::string());
    map.put("k", "v");
    EXPECT_EQ(lock_keys().size(), 1U);
  }
  EXPECT_TRUE(eventually([&] { return lock_keys().empty(); }));
  EXPECT_EQ(server.command({"EXISTS", "m"}), "0");
}

}  // namespace
}  // namespace transaction_transaction_test

// SetMultimapCache<K, V> and ListMultimapCache<K, V> against a real redis-server: Java Redisson's
// expiry zset beside the multimap, the reads that see an expiry before any sweep, the sweeper
// removing expired keys with their values, a key put again starting without an expiry, the
// object operations reaching the zset, and keys of another type changing nothing.
#include "redisson/objects/multimap_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "redisson/batch.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace collections_multimap_cache_test {

using namespace std::chrono_literals;
using redisson::errc;
using redisson::ListMultimapCache;
using redisson::SetMultimapCache;
using redisson::test::eventually;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;
using Strings = std::vector<std::string>;

namespace {

Strings sorted(Strings values) {
  std::sort(values.begin(), values.end());
  return values;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class MultimapCacheTest : public redisson::test::ServerTest {};

TEST_F(MultimapCacheTest, AnExpiredKeyReadsAsAbsentBeforeAnySweep) {
  auto config = redisson::test::config_for(server);
  config.eviction.enabled = false;  // only the reads are looked at here
  redisson::Client lazy(config);
  SetMultimapCache<std::string, std::string> tags(lazy, "tags", codecs::string());
  ASSERT_TRUE(tags.put_all("a", {"x", "y"}));
  ASSERT_TRUE(tags.put("b", "z"));
  EXPECT_FALSE(tags.expire_key("missing", 1h));
  EXPECT_EQ(server.command({"EXISTS", "{tags}:redisson_set_multimap_ttl"}), "0");
  const auto before = now_ms();
  EXPECT_TRUE(tags.expire_key("a", 1h));
  // Java's layout: the key's bytes scored with when it expires, ms since the epoch.
  const auto score =
      std::stoll(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "a"}));
  EXPECT_GE(score, before + 3'600'000);
  EXPECT_LE(score, now_ms() + 3'600'000);
  EXPECT_TRUE(tags.contains_key("a"));
  EXPECT_EQ(sorted(tags.get_all("a")), (Strings{"x", "y"}));
  // Expired (as a Java client's clock would have it): absent to every expiry-aware read, while
  // the keys stay until a sweep.
  server.command({"ZADD", "{tags}:redisson_set_multimap_ttl", "1", "a"});
  EXPECT_FALSE(tags.contains_key("a"));
  EXPECT_FALSE(tags.contains_entry("a", "x"));
  EXPECT_FALSE(tags.contains_value("x"));
  EXPECT_EQ(tags.get_all("a"), Strings{});
  EXPECT_TRUE(tags.contains_key("b"));
  EXPECT_TRUE(tags.contains_entry("b", "z"));
  EXPECT_TRUE(tags.contains_value("z"));
  EXPECT_EQ(tags.key_size(), 2);
  // An expiry cleared: the key is back.
  EXPECT_TRUE(tags.expire_key("a", 0s));
  EXPECT_EQ(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "a"}), "(nil)");
  EXPECT_TRUE(tags.contains_entry("a", "y"));
}

TEST_F(MultimapCacheTest, TheSweeperRemovesExpiredKeysWithTheirValues) {
  auto config = redisson::test::config_for(server);
  config.eviction.min_delay = 100ms;
  redisson::Client swept(config);
  ListMultimapCache<std::string, std::string> queue(swept, "{mc}lists", codecs::string());
  ASSERT_TRUE(queue.put_all("a", {"1", "2", "1"}));
  ASSERT_TRUE(queue.put("b", "3"));
  const auto a_values = queue.values_key("a");
  ASSERT_EQ(server.command({"TYPE", a_values}), "list");
  EXPECT_TRUE(queue.expire_key("a", 1h));
  server.command({"ZADD", "{mc}lists:redisson_list_multimap_ttl", "1", "a"});
  ASSERT_TRUE(eventually([&] { return server.command({"HLEN", "{mc}lists"}) == "1"; }));
  EXPECT_EQ(server.command({"EXISTS", a_values}), "0");
  EXPECT_EQ(server.command({"ZCARD", "{mc}lists:redisson_list_multimap_ttl"}), "0");
  EXPECT_EQ(queue.get_all("b"), (Strings{"3"}));
}

TEST_F(MultimapCacheTest, AKeyPutAgainStartsWithoutAnExpiry) {
  SetMultimapCache<std::string, std::string> tags(client, "tags", codecs::string());
  ASSERT_TRUE(tags.put("a", "x"));
  ASSERT_TRUE(tags.expire_key("a", 1h));
  EXPECT_EQ(tags.remove_all("a"), (Strings{"x"}));
  ASSERT_TRUE(tags.put("a", "y"));
  EXPECT_EQ(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "a"}), "(nil)");
  // ...whereas a key still in the multimap keeps its expiry when more values come.
  ASSERT_TRUE(tags.expire_key("a", 1h));
  ASSERT_TRUE(tags.put("a", "z"));
  EXPECT_NE(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "a"}), "(nil)");
}

TEST_F(MultimapCacheTest, ObjectOperationsReachTheExpiryZset) {
  SetMultimapCache<std::string, std::string> tags(client, "tags", codecs::string());
  ASSERT_TRUE(tags.put("a", "x"));
  ASSERT_TRUE(tags.expire_key("a", 1h));
  EXPECT_TRUE(tags.expire(10min));
  const auto ttl = std::stoll(server.command({"PTTL", "{tags}:redisson_set_multimap_ttl"}));
  EXPECT_GT(ttl, 0);
  // Redisson's tag, never due, keeps the zset there to carry the expiry.
  EXPECT_GT(std::stod(server.command(
                {"ZSCORE", "{tags}:redisson_set_multimap_ttl", "redisson__expiretag"})),
            9e16);
  EXPECT_TRUE(tags.clear_expire());
  EXPECT_EQ(server.command({"PTTL", "{tags}:redisson_set_multimap_ttl"}), "-1");
  EXPECT_EQ(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "redisson__expiretag"}),
            "(nil)");
  tags.rename("tags2");
  EXPECT_EQ(server.command({"EXISTS", "{tags2}:redisson_set_multimap_ttl"}), "1");
  EXPECT_TRUE(tags.contains_key("a"));
  EXPECT_TRUE(tags.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "tags2", "{tags2}:redisson_set_multimap_ttl"}), "0");
}

TEST_F(MultimapCacheTest, WorksInsideABatch) {
  redisson::Batch batch(client);
  auto tags = batch.get<SetMultimapCache<std::string, std::string>>("tags", codecs::string());
  auto put = tags.async_put("a", "x", asio::use_future);
  auto expired = tags.async_expire_key("a", 1h, asio::use_future);
  auto read = tags.async_get_all("a", asio::use_future);
  batch.execute();
  EXPECT_TRUE(put.get());
  EXPECT_TRUE(expired.get());
  EXPECT_EQ(read.get(), (Strings{"x"}));
  EXPECT_NE(server.command({"ZSCORE", "{tags}:redisson_set_multimap_ttl", "a"}), "(nil)");
}

TEST_F(MultimapCacheTest, KeysOfAnotherTypeChangeNothing) {
  SetMultimapCache<std::string, std::string> tags(client, "tags", codecs::string());
  ASSERT_TRUE(tags.put("a", "x"));
  server.command({"SET", "{tags}:redisson_set_multimap_ttl", "text"});
  expect_error(errc::wrong_type, [&] { tags.expire_key("a", 1h); });
  expect_error(errc::wrong_type, [&] { tags.put("b", "y"); });
  expect_error(errc::wrong_type, [&] { tags.expire(1h); });
  EXPECT_EQ(server.command({"HLEN", "tags"}), "1");
  EXPECT_EQ(server.command({"PTTL", "tags"}), "-1");
  server.command({"DEL", "{tags}:redisson_set_multimap_ttl", "tags"});
  server.command({"SET", "tags", "text"});
  expect_error(errc::wrong_type, [&] { tags.expire_key("a", 1h); });
  expect_error(errc::wrong_type, [&] { tags.contains_value("x"); });
  EXPECT_EQ(server.command({"GET", "tags"}), "text");
}

}  // namespace

}  // namespace collections_multimap_cache_test

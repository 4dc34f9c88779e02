// ClientSideCaching against a real redis-server: reads answered from memory (the server's
// command counters prove it), invalidated by writes from any client through RESP3 CLIENT
// TRACKING, read-your-writes through the cache's own objects, a lost tracked connection
// dropping what it read, and the size limit.
#include "redisson/services/client_side_caching.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/set.hpp"
#include "support/eventually.hpp"
#include "support/server_test.hpp"

namespace services_client_side_caching_test {

using redisson::Bucket;
using redisson::ClientSideCaching;
using redisson::ClientSideCachingOptions;
using redisson::Map;
using redisson::Set;
using redisson::test::eventually;
namespace codecs = redisson::codecs;

namespace {

class ClientSideCachingTest : public redisson::test::ServerTest {
 protected:
  // How often the server ran `command`, all clients together.
  std::int64_t calls(const std::string& command) {
    return redisson::test::command_calls(server, command);
  }

  // The id of the connection the cache tracks on (named <client name>:tracking).
  std::string tracking_connection_id() {
    std::istringstream list(server.command({"CLIENT", "LIST"}));
    for (std::string line; std::getline(list, line);) {
      if (line.find(":tracking ") == std::string::npos) continue;
      const auto id = line.substr(3, line.find(' ') - 3);  // "id=<n> ..."
      return id;
    }
    return "";
  }
};

}  // namespace

TEST_F(ClientSideCachingTest, ReadsComeFromMemoryUntilAnyClientWritesTheKey) {
  ClientSideCaching caching(client);
  auto banner = caching.get<Bucket<std::string>>("banner", codecs::string());
  Bucket<std::string>(client, "banner", codecs::string()).set("hello");

  EXPECT_EQ(banner.get(), "hello");  // a miss: read (on the tracked connection) and kept
  const auto gets = calls("get");
  EXPECT_EQ(banner.get(), "hello");
  EXPECT_EQ(banner.get(), "hello");
  EXPECT_EQ(calls("get"), gets) << "answered from memory";
  EXPECT_EQ(caching.stats().hits, 2);
  EXPECT_EQ(caching.stats().entries, 1U);

  // Another client (here the server's own command line) writes: the server tells the cache.
  server.command({"SET", "banner", "bye"});
  EXPECT_TRUE(eventually([&] { return banner.get() == "bye"; }));
  EXPECT_GE(caching.stats().invalidations, 1);

  // A map: each read by its own arguments; a write of the hash drops them all.
  auto prices = caching.get<Map<std::string, std::string>>("prices", codecs::string());
  Map<std::string, std::string>(client, "prices", codecs::string()).put("tea", "3");
  EXPECT_EQ(prices.get("tea"), "3");
  EXPECT_EQ(prices.read_all_map(), (std::map<std::string, std::string>{{"tea", "3"}}));
  const auto hgets = calls("hget");
  EXPECT_EQ(prices.get("tea"), "3");
  EXPECT_EQ(calls("hget"), hgets);
  server.command({"HSET", "prices", "coffee", "4"});
  EXPECT_TRUE(eventually([&] { return prices.read_all_map().size() == 2; }));
  EXPECT_EQ(prices.get("tea"), "3");
}

TEST_F(ClientSideCachingTest, ACachesOwnWritesAreReadBackAtOnce) {
  ClientSideCaching caching(client);
  auto counter = caching.get<Bucket<std::string>>("counter", codecs::string());
  auto members = caching.get<Set<std::string>>("members", codecs::string());
  for (int i = 0; i < 20; ++i) {
    counter.set(std::to_string(i));
    EXPECT_EQ(counter.get(), std::to_string(i)) << "no wait for the server's push";
    members.add("m" + std::to_string(i));
    EXPECT_TRUE(members.contains("m" + std::to_string(i)));
    EXPECT_EQ(members.size(), i + 1);
  }
}

TEST_F(ClientSideCachingTest, ALostTrackedConnectionDropsWhatItRead) {
  ClientSideCaching caching(client);
  auto banner = caching.get<Bucket<std::string>>("banner", codecs::string());
  server.command({"SET", "banner", "before"});
  EXPECT_EQ(banner.get(), "before");
  EXPECT_EQ(banner.get(), "before");
  ASSERT_EQ(caching.stats().entries, 1U);

  // The server forgets what it tracked for a connection it closed: so does the cache.
  const auto id = tracking_connection_id();
  ASSERT_FALSE(id.empty());
  server.command({"CLIENT", "KILL", "ID", id});
  server.command({"SET", "banner", "while away"});
  EXPECT_TRUE(eventually([&] { return caching.stats().entries == 0; }));
  EXPECT_EQ(banner.get(), "while away");
  // Tracking again once reconnected: cached, and invalidated as before.
  EXPECT_TRUE(eventually([&] {
    (void)banner.get();
    return caching.stats().entries == 1;
  }));
  server.command({"SET", "banner", "after"});
  EXPECT_TRUE(eventually([&] { return banner.get() == "after"; }));
}

TEST_F(ClientSideCachingTest, AnLruCacheKeepsAtMostItsSize) {
  ClientSideCachingOptions options;
  options.eviction_policy = ClientSideCachingOptions::EvictionPolicy::lru;
  options.size = 2;
  ClientSideCaching caching(client, options);
  for (const char* name : {"a", "b", "c"}) {
    server.command({"SET", name, name});
    EXPECT_EQ(caching.get<Bucket<std::string>>(name, codecs::string()).get(), name);
  }
  EXPECT_EQ(caching.stats().entries, 2U);
  const auto gets = calls("get");
  EXPECT_EQ(caching.get<Bucket<std::string>>("c", codecs::string()).get(), "c");
  EXPECT_EQ(calls("get"), gets) << "the most recent stays";
  EXPECT_EQ(caching.get<Bucket<std::string>>("a", codecs::string()).get(), "a");
  EXPECT_EQ(calls("get"), gets + 1) << "the least recently used went";

  caching.clear();
  EXPECT_EQ(caching.stats().entries, 0U);
  options.size = 0;
  EXPECT_THROW(ClientSideCaching(client, options), redisson::error) << "lru needs a size";
}

}  // namespace services_client_side_caching_test

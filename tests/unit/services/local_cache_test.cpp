// A LocalCachedMap's parts that need no server: the topic messages against the bytes Java
// Redisson 3.52 published (tests/fixtures/redisson-3.52/services, the lcmap2 cases), and the
// cache's limits with the time handed in (no sleeping).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "../codec/codec_test_util.hpp"
#include "hash/highway_hash.hpp"
#include "redisson/error.hpp"
#include "services/local_cache_messages.hpp"
#include "services/local_cache_store.hpp"

namespace unit_services_local_cache_test {

namespace {

using codec_test::hex;
using codec_test::unhex;
using namespace redisson::detail;
using namespace std::chrono_literals;

LocalCacheInstanceId java_id() {
  LocalCacheInstanceId id{};
  const auto bytes = unhex("d9a1bb2807033a5a4953fd92202935ef");
  std::copy(bytes.begin(), bytes.end(), id.begin());
  return id;
}

LocalCacheKeyHash hash_of(const std::string& key) { return highway_hash128_array(key); }

TEST(LocalCacheMessages, WritesJavasBytes) {
  // lcmap2_update_load_string: putAll({k2:v2,k3:v3}) under UPDATE, fastRemove(k1) under LOAD.
  EXPECT_EQ(hex(encode_local_cache_update(java_id(), {{"k2", "v2"}, {"k3", "v3"}})),
            "02d9a1bb2807033a5a4953fd92202935ef000000026b32000000027632000000026b33000000027633");
  EXPECT_EQ(hex(encode_local_cache_invalidate(java_id(), {hash_of("k1")})),
            "01d9a1bb2807033a5a4953fd92202935ef00000001f6c0bc2a9320f05f0a05bc601e7a69d7");
  std::array<char, 16> request{};
  const auto bytes = unhex("553e3ad10c7c6014cf2b2596a00df74d");
  std::copy(bytes.begin(), bytes.end(), request.begin());
  EXPECT_EQ(hex(encode_local_cache_clear(java_id(), request, false)),
            "00d9a1bb2807033a5a4953fd92202935ef553e3ad10c7c6014cf2b2596a00df74d00");
  EXPECT_EQ(hex(encode_local_cache_disable_ack()), "04");
}

TEST(LocalCacheMessages, ReadsJavasBytes) {
  // lcmap2_invalidate_clear_string: putAll({k2:v2,k3:v3}) under INVALIDATE.
  const auto invalidate = decode_local_cache_message(
      unhex("01f0712cef21a07bd86c43ece9916c718f00000002539a1c25a6302fe7ef4916394bd9932bf6c6dbe1abee"
            "9e99f6db081889979159"));
  EXPECT_EQ(invalidate.type, LocalCacheMessageType::invalidate);
  EXPECT_EQ(invalidate.hashes, (std::vector<LocalCacheKeyHash>{hash_of("k2"), hash_of("k3")}));
  const auto update = decode_local_cache_message(
      unhex("02d9a1bb2807033a5a4953fd92202935ef000000026b32000000027632000000026b33000000027633"));
  EXPECT_EQ(update.excluded, java_id());
  ASSERT_EQ(update.entries.size(), 2U);
  EXPECT_EQ(update.entries[1], (std::pair<std::string, std::string>{"k3", "v3"}));
  const auto clear = decode_local_cache_message(
      unhex("00d9a1bb2807033a5a4953fd92202935ef553e3ad10c7c6014cf2b2596a00df74d01"));
  EXPECT_EQ(clear.type, LocalCacheMessageType::clear);
  EXPECT_TRUE(clear.flag) << "release the clearing instance's semaphore";
  // A transaction's disable: id length, id, timeout, whole-cache flag, hashes (OBJECTS.md's table
  // leaves the flag out; Redisson's codec writes it).
  const auto disable = decode_local_cache_message(unhex(
      "0302" + hex("ab") + "0000000000001388" + "00" + "00000001" + hex(std::string(16, 'h'))));
  EXPECT_EQ(disable.type, LocalCacheMessageType::disable);
  EXPECT_EQ(disable.request_id, "ab");
  EXPECT_EQ(disable.timeout_ms, 5000);
  EXPECT_EQ(disable.hashes.size(), 1U);
}

TEST(LocalCacheMessages, DamagedBytesAreCodecErrors) {
  const std::string id(32, '0');  // 16 bytes in hex
  for (const std::string& bad : {std::string(), std::string("01"), std::string("0100112233"),
                                 std::string("09"), "02" + id + "0000", "02" + id + "0000000563"}) {
    try {
      decode_local_cache_message(unhex(bad));
      ADD_FAILURE() << "read: " << bad;
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), redisson::errc::codec_error) << bad;
    }
  }
  // A huge count that the bytes cannot hold is refused before anything is allocated.
  EXPECT_THROW(decode_local_cache_message(unhex("01" + std::string(32, '0') + "7fffffff")),
               redisson::error);
}

LocalCacheStore store_of(LocalCacheStore::Eviction eviction, std::size_t size,
                         std::chrono::milliseconds ttl = 0ms,
                         std::chrono::milliseconds idle = 0ms) {
  LocalCacheStore::Limits limits;
  limits.eviction = eviction;
  limits.max_size = size;
  limits.time_to_live = ttl;
  limits.max_idle = idle;
  return LocalCacheStore(limits);
}

TEST(LocalCacheStore, LruDropsTheLeastRecentlyUsed) {
  auto store = store_of(LocalCacheStore::Eviction::lru, 2);
  const auto t = LocalCacheStore::Clock::time_point{} + 1h;
  store.put(hash_of("a"), "a", "1", t);
  store.put(hash_of("b"), "b", "2", t);
  ASSERT_NE(store.find("a", t), nullptr);  // a used: b is the least recent
  store.put(hash_of("c"), "c", "3", t);
  EXPECT_EQ(store.find("b", t), nullptr);
  EXPECT_NE(store.find("a", t), nullptr);
  EXPECT_EQ(store.size(), 2U);
  EXPECT_EQ(store.evictions(), 1);
}

TEST(LocalCacheStore, LfuDropsTheLeastFrequentlyUsed) {
  auto store = store_of(LocalCacheStore::Eviction::lfu, 2);
  const auto t = LocalCacheStore::Clock::time_point{} + 1h;
  store.put(hash_of("a"), "a", "1", t);
  store.put(hash_of("b"), "b", "2", t);
  for (int i = 0; i < 3; ++i) store.find("a", t);
  store.find("b", t);
  store.put(hash_of("c"), "c", "3", t);
  EXPECT_NE(store.find("a", t), nullptr);
  EXPECT_EQ(store.find("b", t), nullptr);
}

TEST(LocalCacheStore, WithoutAPolicyTheOldestGoes) {
  auto store = store_of(LocalCacheStore::Eviction::oldest, 2);
  const auto t = LocalCacheStore::Clock::time_point{} + 1h;
  store.put(hash_of("a"), "a", "1", t);
  store.put(hash_of("b"), "b", "2", t);
  store.find("a", t);  // use does not matter
  store.put(hash_of("c"), "c", "3", t);
  EXPECT_EQ(store.find("a", t), nullptr);
}

TEST(LocalCacheStore, TimeToLiveAndMaxIdle) {
  const auto t = LocalCacheStore::Clock::time_point{} + 1h;
  auto lived = store_of(LocalCacheStore::Eviction::oldest, 0, 100ms);
  lived.put(hash_of("a"), "a", "1", t);
  EXPECT_NE(lived.find("a", t + 99ms), nullptr);
  EXPECT_EQ(lived.find("a", t + 100ms), nullptr);
  EXPECT_EQ(lived.evictions(), 1);

  auto idle = store_of(LocalCacheStore::Eviction::oldest, 0, 0ms, 100ms);
  idle.put(hash_of("a"), "a", "1", t);
  EXPECT_NE(idle.find("a", t + 90ms), nullptr);
  EXPECT_NE(idle.find("a", t + 180ms), nullptr) << "each read restarts the idle time";
  EXPECT_EQ(idle.find("a", t + 280ms), nullptr);
}

TEST(LocalCacheStore, MessagesFindEntriesByTheirHash) {
  auto store = store_of(LocalCacheStore::Eviction::lru, 0);
  const LocalCacheStore::Clock::time_point untimed{};
  store.put(hash_of("a"), "a", "1", untimed);
  store.put(hash_of("b"), "b", std::nullopt, untimed);  // a cached miss
  EXPECT_FALSE(store.find("b", untimed)->value.has_value());
  EXPECT_TRUE(store.erase(hash_of("a")));
  EXPECT_FALSE(store.erase(hash_of("a")));
  EXPECT_EQ(store.find("a", untimed), nullptr);
  EXPECT_EQ(store.size(), 1U);
  EXPECT_FALSE(store.timed()) << "no time limit: callers need not read the clock";
}

TEST(LocalCacheStore, DecodedValuesBelongToOneVersion) {
  auto store = store_of(LocalCacheStore::Eviction::oldest, 0);
  const auto t = LocalCacheStore::Clock::time_point{} + 1h;
  store.put(hash_of("a"), "a", "1", t);
  const auto stamp = store.find("a", t)->stamp;
  store.put(hash_of("a"), "a", "2", t);  // stored again meanwhile
  store.set_decoded("a", stamp, std::make_shared<const int>(1));
  EXPECT_EQ(store.find("a", t)->decoded, nullptr) << "the old decoding is not kept";
  const auto fresh = store.find("a", t)->stamp;
  store.set_decoded("a", fresh, std::make_shared<const int>(2));
  EXPECT_NE(store.find("a", t)->decoded, nullptr);
}

}  // namespace

}  // namespace unit_services_local_cache_test

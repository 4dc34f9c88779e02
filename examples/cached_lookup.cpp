// LocalCachedMap: a lookup table read far more often than written, cached in each process and
// kept coherent through Redis, in the layout of Java Redisson's RLocalCachedMap (a Java service
// with getLocalCachedMap("example:prices") shares the map and its cache messages).
//
//   cached_lookup [redis://127.0.0.1:6379]
//
// One process plays two services here; in real use each runs on its own machine.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/local_cached_map.hpp>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client pricing_client(url);
    redisson::Client shop_client(url);

    // The shop's near cache: at most 10,000 entries, the least recently used make room, and an
    // entry is read again from Redis after 10 minutes at the latest.
    redisson::LocalCachedMapOptions options;
    options.eviction = redisson::LocalCacheEviction::lru;
    options.cache_size = 10'000;
    options.time_to_live = 10min;
    options.reconnection = redisson::LocalCacheReconnection::clear;
    redisson::LocalCachedMap<std::string, double> shop(shop_client, "example:prices", options);
    redisson::LocalCachedMap<std::string, double> pricing(pricing_client, "example:prices",
                                                          options);

    pricing.put("apple", 0.5);
    shop.preload_cache();  // subscribes, then reads the whole map into the cache

    // Reads from the cache: no round trip.
    for (int i = 0; i < 1000; ++i) shop.get("apple");
    const auto stats = shop.local_cache_stats();
    std::printf("apple: %.2f (%lld hits, %lld misses)\n", *shop.get("apple"),
                static_cast<long long>(stats.hits), static_cast<long long>(stats.misses));

    // A write in another process invalidates the shop's entry; its next get reads Redis.
    pricing.put("apple", 0.6);
    // (The message takes about a round trip; this demo waits for it to show the effect.)
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!shop.cached_key_set().empty() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);
    }
    std::printf("apple after the price change: %.2f\n", *shop.get("apple"));

    pricing.delete_object();  // Java's clear(): every instance's cache is cleared too
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "cached_lookup: %s\n", failure.what());
    return 1;
  }
}

// ClientSideCaching: Redis server-assisted client caching (RESP3 CLIENT TRACKING), Java
// Redisson's RClientSideCaching. Ordinary objects read through the cache; the server tells the
// process when a key it read changes, whoever wrote it.
//
//   client_side_caching [redis://127.0.0.1:6379]
//
// One process plays two services here; in real use each runs on its own machine.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/bucket.hpp>
#include <redisson/objects/map.hpp>
#include <redisson/services/client_side_caching.hpp>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client admin_client(url);
    redisson::Client web_client(url);
    redisson::Bucket<std::string>(admin_client, "example:banner").set("Welcome!");
    redisson::Map<std::string, std::string>(admin_client, "example:settings").put("theme", "dark");

    // The web service's cache: at most 1,000 replies, the least recently used make room.
    redisson::ClientSideCachingOptions options;
    options.eviction_policy = redisson::ClientSideCachingOptions::EvictionPolicy::lru;
    options.size = 1000;
    redisson::ClientSideCaching caching(web_client, options);
    auto banner = caching.get<redisson::Bucket<std::string>>("example:banner");
    auto settings = caching.get<redisson::Map<std::string, std::string>>("example:settings");

    // The first reads go to Redis; the next ones are answered from memory.
    for (int i = 0; i < 1000; ++i) {
      banner.get();
      settings.get("theme");
    }
    const auto stats = caching.stats();
    std::printf("%s / %s (%lld hits, %lld misses)\n", banner.get()->c_str(),
                settings.get("theme")->c_str(), static_cast<long long>(stats.hits),
                static_cast<long long>(stats.misses));

    // Another client changes the banner: the server tells the web service's cache.
    redisson::Bucket<std::string>(admin_client, "example:banner").set("Closed for maintenance");
    // (The server's message takes about a round trip; this demo waits for it to show it.)
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (caching.stats().invalidations == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);
    }
    std::printf("banner after the change: %s\n", banner.get()->c_str());

    banner.delete_object();
    settings.delete_object();
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "client_side_caching: %s\n", failure.what());
    return 1;
  }
}

// Cache and CacheManager: named caches with a time to live and a size, and a loader that runs
// once per key across processes, as Redisson serves Spring's @Cacheable (a Java service with
// RedissonSpringCacheManager and a cache "example:users" shares these entries).
//
//   cache_facade [redis://127.0.0.1:6379]
#include <chrono>
#include <cstdio>
#include <map>
#include <redisson/client.hpp>
#include <redisson/services/cache.hpp>
#include <string>

namespace {

/// The slow source the cache stands in front of (a database, another service).
std::string load_user(const std::string& id) { return "user #" + id; }

}  // namespace

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // Users live 10 minutes in Redis, at most 1,000 of them; sessions get a near cache.
    redisson::CacheConfig users;
    users.time_to_live = 10min;
    users.max_size = 1000;
    redisson::CacheConfig sessions;
    sessions.backend = redisson::CacheBackend::local_cached_map;
    sessions.max_idle = 1min;
    redisson::CacheManager caches(client,
                                  {{"example:users", users}, {"example:sessions", sessions}});

    auto cache = caches.cache<std::string, std::string>("example:users");
    // The first call loads (holding the key's lock, so other processes wait for this value);
    // the second is a hit.
    std::printf("%s\n", cache.get_or_compute("42", load_user).c_str());
    std::printf("%s\n", cache.get_or_compute("42", load_user).c_str());
    const auto stats = cache.stats();
    std::printf("hits %lld, misses %lld, puts %lld\n", static_cast<long long>(stats.hits),
                static_cast<long long>(stats.misses), static_cast<long long>(stats.puts));

    cache.evict("42");
    cache.clear();
    caches.cache<std::string, std::string>("example:sessions").clear();
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "cache_facade: %s\n", failure.what());
    return 1;
  }
}

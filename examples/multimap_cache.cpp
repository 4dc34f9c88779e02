// SetMultimapCache: each user's open tabs, a key that expires 30 minutes after its last
// expire_key, in the Redis layout of Java Redisson's RSetMultimapCache.
//
//   multimap_cache [redis://127.0.0.1:6379]
//
// Adds a tab, gives the user an expiry, and prints whether the user is there and their tabs.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/multimap_cache.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::SetMultimapCache<std::string, std::string> sessions(client, "sessions");
    sessions.put("user:1", "tab-a");
    sessions.expire_key("user:1", std::chrono::minutes(30));  // false: no such key
    sessions.contains_key("user:1");                          // false once it expired
    for (const auto& tab : sessions.get_all("user:1")) std::printf("user:1 has %s\n", tab.c_str());

    sessions.delete_object();  // the index, the values and the expiry set
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "multimap_cache: %s\n", failure.what());
    return 1;
  }
}

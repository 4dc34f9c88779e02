// SetCache: a set of session ids that expire one by one, the Redis layout of Java Redisson's
// RSetCache (a Java service doing redisson.getSetCache("example:sessions").contains("s1") sees
// the same sessions).
//
//   set_cache [redis://127.0.0.1:6379]
//
// Adds a session that lasts and one that expires after 200 ms, waits for the short one to
// expire, lists the live sessions page by page, then removes the expired one from Redis.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/set_cache.hpp>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::SetCache<std::string> sessions(client, "example:sessions");
    sessions.add("s1");         // never expires
    sessions.add("s2", 200ms);  // expires 200 ms from now
    std::printf("s2 has %lld ms left\n",
                static_cast<long long>(sessions.remaining_time_to_live("s2").count()));
    std::this_thread::sleep_for(300ms);
    std::printf("s2 live: %s, %lld live session(s)\n", sessions.contains("s2") ? "yes" : "no",
                static_cast<long long>(sessions.size()));
    for (const auto& id : sessions.values(100)) std::printf("live: %s\n", id.c_str());  // ZSCAN
    std::printf("evicted %lld\n", static_cast<long long>(sessions.evict_expired(1000)));

    sessions.delete_object();
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "set_cache: %s\n", failure.what());
    return 1;
  }
  return 0;
}

// A Bucket: one value under one key, stored with a codec Java Redisson reads too.
//
//   bucket [redis://127.0.0.1:6379]
//
// Stores a session in a Bucket with the default codec (kryo5, Redisson's default: a Java service
// doing redisson.getBucket("example:session").get() reads the same java.util.HashMap), updates
// it only if nobody changed it meanwhile (compare_and_set), and keeps a counter as text with
// the string codec, readable by any Redis client.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <redisson/client.hpp>
#include <redisson/codec.hpp>
#include <redisson/objects/bucket.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // A HashMap<String, String> in Java; it expires in 30 minutes.
    using Session = std::map<std::string, std::string>;
    redisson::Bucket<Session> session(client, "example:session");
    session.set({{"user", "ada"}, {"theme", "dark"}}, 30min);

    // Read, change, write back only if unchanged: compare_and_set compares the stored bytes.
    auto current = session.get().value_or(Session{});
    auto updated = current;
    updated["theme"] = "light";
    if (session.compare_and_set(current, updated)) std::printf("theme switched\n");
    std::printf("user %s, expires in %lld s\n", session.get()->at("user").c_str(),
                static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(
                                           session.remaining_time_to_live())
                                           .count()));

    // Plain text, as redis-cli shows it: "GET example:visits" prints "1".
    redisson::Bucket<std::string> visits(client, "example:visits", redisson::codecs::string());
    visits.set_if_absent("1");
    std::printf("visits: %s\n", visits.get()->c_str());

    session.delete_object();
    visits.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "bucket: %s\n", e.what());
    return 1;
  }
  return 0;
}

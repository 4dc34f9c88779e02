// A stream with a consumer group: a producer appends entries, two consumers of one group share
// them, each acknowledging what it processed; a consumer that stopped has its entries claimed.
//
//   stream [redis://127.0.0.1:6379]
//
// The stream is Java Redisson's RStream layout (the Redis stream "example:events", kryo5 field
// names and values), so a Java service doing redisson.getStream("example:events")
// .readGroup("workers", ...) shares the same entries. Waiting reads hold one of the client's
// dedicated blocking connections; the shared connection stays free.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/stream.hpp>
#include <string>

using namespace std::chrono_literals;
using redisson::StreamMessageId;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::Stream<std::string, std::string> events(client, "example:events");
    events.delete_object();

    events.create_group("workers", StreamMessageId::newest(), true);  // XGROUP CREATE MKSTREAM
    for (int n = 1; n <= 4; ++n) {
      events.add({{"kind", "order"}, {"number", std::to_string(n)}});  // XADD *
    }

    // Each consumer gets entries no other consumer of the group got (XREADGROUP >), waiting up
    // to a second for some, and acknowledges them (XACK).
    for (const char* consumer : {"alice", "bob"}) {
      const auto batch =
          events.read_group("workers", consumer, StreamMessageId::never_delivered(), 2, 1s);
      for (const auto& entry : batch) {
        std::printf("%s: %s %s=%s\n", consumer, entry.id.to_string().c_str(),
                    entry.fields[1].first.c_str(), entry.fields[1].second.c_str());
        if (consumer == std::string("alice")) events.ack("workers", {entry.id});
      }
    }
    // Bob never acknowledged: his entries stay pending, and Alice claims them (XAUTOCLAIM).
    std::printf("pending: %lld\n", static_cast<long long>(events.pending("workers").total));
    const auto claimed = events.auto_claim("workers", "alice", 0ms, StreamMessageId{}, 10);
    for (const auto& entry : claimed.entries) events.ack("workers", {entry.id});
    std::printf("claimed %zu, pending now: %lld\n", claimed.entries.size(),
                static_cast<long long>(events.pending("workers").total));
    events.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "stream: %s\n", e.what());
    return 1;
  }
  return 0;
}

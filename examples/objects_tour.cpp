// A bitmap, a distinct-value counter and many buckets at once, in Java Redisson's layouts.
// Usage: example_objects_tour [redis://127.0.0.1:6379]
#include <iostream>
#include <map>
#include <redisson/redisson.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // A bitmap like Java's BitSet: which of 10 000 users were active today.
    redisson::BitSet active(client, "tour:active");
    active.set(42);
    active.set_range(100, 200);  // one script, however long the range
    std::cout << "active: " << active.cardinality() << ", highest + 1: " << active.length() << "\n";

    // Distinct visitors, approximately, in at most 12 KB. Use the codec the Java side uses.
    redisson::HyperLogLog<std::string> visitors(client, "tour:visitors",
                                                redisson::codecs::string());
    visitors.add_all({"ann", "bob", "ann", "cid"});
    std::cout << "distinct visitors: " << visitors.count() << "\n";  // 3

    // Many buckets with one MGET / MSET (one per hash slot on a Cluster).
    redisson::Buckets buckets(client, redisson::codecs::string());
    buckets.set(std::map<std::string, std::string>{{"tour:a", "1"}, {"tour:b", "2"}});
    for (const auto& [name, value] : buckets.get<std::string>({"tour:a", "tour:b", "tour:c"})) {
      std::cout << name << " = " << value << "\n";  // tour:c does not exist: left out
    }

    redisson::Keys(client).delete_by_pattern("tour:*");
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

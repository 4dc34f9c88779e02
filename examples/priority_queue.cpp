// Priority queues and sorted sets on one Redis list kept sorted, in Java Redisson's layout
// (RPriorityQueue, RPriorityBlockingQueue, RSortedSet): a Java process on the same names sees
// the same order when its comparator orders as the C++ Compare does.
//
//   priority_queue [redis://127.0.0.1:6379]
//
// Every write holds Redisson's lock `redisson_sortedset_lock:{name}`, so Java and C++ writers
// take turns; a waiting take() wakes on that lock's release message (each offer unlocks).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <future>
#include <redisson/client.hpp>
#include <redisson/objects/priority_queue.hpp>
#include <redisson/objects/sorted_set.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // Least first, as Java's natural order: a Java RPriorityQueue<Integer> shares it.
    redisson::PriorityQueue<std::int32_t> tasks(client, "example:tasks");
    tasks.delete_object();
    for (std::int32_t priority : {5, 1, 3}) tasks.offer(priority);
    while (const auto next = tasks.poll()) std::printf("task %d\n", *next);

    // A custom order: greatest first. Name it so that every handle agrees on it.
    redisson::PriorityQueue<std::int32_t, std::greater<>> scores(client, "example:scores", nullptr,
                                                                 {}, "example.Descending:1");
    scores.delete_object();
    scores.try_set_comparator("example.Descending:1");
    scores.add_all({10, 30, 20});
    std::printf("best score: %d\n", *scores.peek());

    // A consumer that waits: woken when another client (or Java) offers.
    redisson::PriorityBlockingQueue<std::string> jobs(client, "example:jobs");
    auto taken = std::async(std::launch::async, [&jobs] { return jobs.take(); });
    jobs.put("urgent");
    std::printf("taken: %s\n", taken.get().c_str());
    if (!jobs.poll(100ms)) std::printf("no more jobs\n");

    // A sorted set: one of each, in order.
    redisson::SortedSet<std::string> names(client, "example:names");
    names.delete_object();
    for (const char* name : {"carol", "alice", "bob", "alice"}) names.add(name);
    std::printf("first %s, last %s, size %lld\n", names.first()->c_str(), names.last()->c_str(),
                static_cast<long long>(names.size()));
    scores.delete_object();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

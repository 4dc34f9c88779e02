// BoundedBlockingQueue: a work queue that holds at most 100 jobs, in the Redis layout of Java
// Redisson's RBoundedBlockingQueue, so Java and C++ producers and consumers share it.
//
//   bounded_blocking_queue [redis://127.0.0.1:6379]
//
// Sets the capacity (once), queues three jobs (a put waits for room, an offer does not), takes
// one, and prints how many places are left.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/bounded_blocking_queue.hpp>
#include <string>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::BoundedBlockingQueue<std::string> jobs(client, "jobs");
    jobs.try_set_capacity(100);                    // once; false when it was set already
    jobs.put("job-1");                             // waits while 100 are queued
    const bool queued = jobs.offer("job-2");       // false when full: nothing was added
    const bool in_time = jobs.offer("job-3", 2s);  // waits up to 2 s for room
    auto job = jobs.take();  // waits for an element, then gives its place back
    std::printf("job-2 %s, job-3 %s\n", queued ? "queued" : "refused",
                in_time ? "queued" : "refused");
    std::printf("took %s; %lld places left\n", job.c_str(),
                static_cast<long long>(jobs.remaining_capacity()));

    jobs.delete_object();  // the list and its capacity
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "bounded_blocking_queue: %s\n", failure.what());
    return 1;
  }
}

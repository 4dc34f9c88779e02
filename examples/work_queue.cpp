// A blocking work queue: producers offer jobs, consumers wait for them with take()/poll(wait),
// each job handed to exactly one consumer, whichever process or machine it runs in.
//
//   work_queue [redis://127.0.0.1:6379]
//
// The queue is Java Redisson's RBlockingQueue layout (the list "example:jobs", kryo5 values), so
// a Java service doing redisson.getBlockingQueue("example:jobs").take() competes for the same
// jobs. Each waiting consumer holds one of the client's dedicated blocking connections
// (Config::blocking_connections, 16 by default); the shared connection stays free for
// everything else, and a wait survives a reconnect or a failover. Last, a DelayedQueue hands a
// job to the same queue once its delay has passed.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/blocking_queue.hpp>
#include <redisson/objects/delayed_queue.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::BlockingQueue<std::string> jobs(client, "example:jobs");

    // Three consumers: each waits up to a second for a job, and stops when none came.
    std::vector<std::thread> consumers;
    for (int id = 1; id <= 3; ++id) {
      consumers.emplace_back([&jobs, id] {
        while (const auto job = jobs.poll(1s)) {
          std::printf("consumer %d: %s\n", id, job->c_str());
        }
      });
    }
    for (int n = 1; n <= 9; ++n) jobs.offer("job " + std::to_string(n));
    for (auto& consumer : consumers) consumer.join();

    // take() waits as long as it takes; its async form composes with a timer or a
    // cancellation (co_await (jobs.async_take(use_awaitable) || timer.async_wait(...))).
    jobs.offer("last job");
    std::printf("taken: %s\n", jobs.take().c_str());

    // Later: the element waits in the delayed queue's keys, then this client's transfer (or
    // any other client's, Java's included) moves it to the queue once it is due.
    redisson::DelayedQueue<std::string> later(client, "example:jobs");  // starts the transfer
    later.offer("reminder", std::chrono::seconds(1));  // script: ZADD + RPUSH (+ PUBLISH)
    std::printf("taken: %s\n", jobs.take().c_str());   // "reminder", a second later
    later.delete_object();
    jobs.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "work_queue: %s\n", e.what());
    return 1;
  }
  return 0;
}

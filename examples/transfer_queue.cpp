// TransferQueue: a producer that waits until a consumer took its element, in the Redis layout of
// Java Redisson's RTransferQueue (a RemoteService's queued calls), so Java and C++ producers and
// consumers share it.
//
//   transfer_queue [redis://127.0.0.1:6379]
//
// Hands one element over (transfer returns once the consumer's poll took it), tries one with no
// consumer (taken back: false), and queues one that stays until polled.
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/transfer_queue.hpp>
#include <string>

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    redisson::TransferQueue<std::string> handoff(client, "handoff");
    auto transferred = handoff.async_transfer("job-1", asio::use_future);  // waits for a taker
    auto job = handoff.poll(5s);                 // a consumer (here the same client) takes it
    transferred.get();                           // the transfer has returned: job-1 was taken
    bool taken = handoff.try_transfer("job-2");  // no consumer waits: taken back, false
    handoff.add("job-3");                        // queued; no wait for a consumer
    std::printf("took %s; job-2 %s; %lld queued\n", job.value_or("nothing").c_str(),
                taken ? "handed over" : "taken back", static_cast<long long>(handoff.size()));

    handoff.delete_object();  // the request list and the tasks hash
    return 0;
  } catch (const redisson::error& failure) {
    std::fprintf(stderr, "transfer_queue: %s\n", failure.what());
    return 1;
  }
}

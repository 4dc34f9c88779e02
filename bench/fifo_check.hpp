// Checks a fair lock's first-come-first-served order from the server's own record of it: the
// commands its scripts ran, as `redis-cli monitor` prints them. Client-side clocks cannot tell
// when a waiter's first attempt reached the server; the server's log can.
#pragma once

#include <cstdint>
#include <string>

namespace redisson_bench {

struct FifoCheck {
  std::int64_t grants = 0;      ///< acquisitions seen (hold count set to 1)
  std::int64_t from_queue = 0;  ///< of them, by the waiter just taken off the queue's head
  std::int64_t violations = 0;  ///< by anyone else while the queue was not empty
  std::int64_t enqueued = 0;    ///< RPUSHes onto the queue
};

/// Replays MONITOR lines for the fair lock `name` (its hash `name`, its queue
/// `redisson_lock_queue:{name}`): RPUSH / LPOP / LREM keep a copy of the queue; each HINCBRY of
/// a field to 1 on the hash is a grant, which FIFO allows only to the head just popped in the
/// same script, or to anyone while the queue is empty.
FifoCheck check_fifo(const std::string& monitor_output, const std::string& name);

}  // namespace redisson_bench

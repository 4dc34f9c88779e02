// Joining a component's own threads when it stops, from any thread, its own included.
#pragma once

#include <thread>
#include <vector>

namespace redisson::detail {

/// Joins every thread of `threads` and empties it. The calling thread, when it is one of them
/// (a handler or a listener that stopped its own client), cannot join itself: it is detached and
/// ends when what it runs returns.
inline void join_threads(std::vector<std::thread>& threads) noexcept {
  for (auto& thread : threads) {
    if (thread.get_id() == std::this_thread::get_id()) {
      thread.detach();
    } else if (thread.joinable()) {
      thread.join();  // never throws here: joinable, and not this thread
    }
  }
  threads.clear();
}

}  // namespace redisson::detail

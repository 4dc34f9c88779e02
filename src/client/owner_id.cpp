#include "redisson/owner_id.hpp"

#include <atomic>

#include "client/live_cores.hpp"

namespace redisson {
namespace {

// Threads and explicit owners draw from one sequence, so an async owner can never be mistaken
// for a thread's (a hold taken with one would otherwise be re-entered or released by the other).
std::atomic<std::uint64_t> next_owner{1};

// A thread's owner, which tells the clients when the thread exits: nobody can unlock that
// thread's holds any more, so they must not be renewed for ever (watchdog/watchdog.hpp).
struct ThreadOwner {
  OwnerId id{next_owner.fetch_add(1, std::memory_order_relaxed)};

  ThreadOwner() noexcept = default;
  ThreadOwner(const ThreadOwner&) = delete;
  ThreadOwner& operator=(const ThreadOwner&) = delete;
  ~ThreadOwner() { detail::thread_exited(id); }
};

}  // namespace

OwnerId OwnerId::current_thread() noexcept {
  thread_local const ThreadOwner owner;
  return owner.id;
}

OwnerId OwnerId::next() noexcept {
  return OwnerId{next_owner.fetch_add(1, std::memory_order_relaxed)};
}

}  // namespace redisson

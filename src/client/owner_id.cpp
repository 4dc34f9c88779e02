#include "redisson/owner_id.hpp"

#include <atomic>

namespace redisson {
namespace {

// Threads and explicit owners draw from one sequence, so an async owner can never be mistaken
// for a thread's (a hold taken with one would otherwise be re-entered or released by the other).
std::atomic<std::uint64_t> next_owner{1};

}  // namespace

OwnerId OwnerId::current_thread() noexcept {
  thread_local const OwnerId owner{next_owner.fetch_add(1, std::memory_order_relaxed)};
  return owner;
}

OwnerId OwnerId::next() noexcept {
  return OwnerId{next_owner.fetch_add(1, std::memory_order_relaxed)};
}

}  // namespace redisson

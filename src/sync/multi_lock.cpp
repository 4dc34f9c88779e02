#include "redisson/multi_lock.hpp"

#include <random>

#include "redisson/error.hpp"

namespace redisson {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// How long a member may be waited on while others are already held: a random slice, so two
// MultiLocks that block each other (opposite member orders) do not retry in lockstep.
milliseconds held_member_wait() {
  thread_local std::minstd_rand random{std::random_device{}()};
  return milliseconds(std::uniform_int_distribution<int>(50, 250)(random));
}

}  // namespace

MultiLock::MultiLock(std::vector<Lock> locks) : locks_(std::move(locks)) {
  if (locks_.empty()) throw error(errc::invalid_argument, "a MultiLock needs at least one lock");
}

void MultiLock::lock() { acquire(std::nullopt, std::nullopt); }

void MultiLock::lock(milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  acquire(std::nullopt, lease);
}

bool MultiLock::try_lock() { return try_lock_ms(milliseconds{0}, std::nullopt); }

bool MultiLock::try_lock_ms(milliseconds wait, std::optional<milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  return acquire(wait, lease);
}

bool MultiLock::acquire(std::optional<milliseconds> wait, std::optional<milliseconds> lease) {
  const auto deadline = wait ? std::optional(Clock::now() + *wait) : std::nullopt;
  for (;;) {
    std::size_t taken = 0;
    try {
      for (; taken < locks_.size(); ++taken) {
        // What this member may be waited on: everything left while nothing is held (no one can
        // be blocked by us), only a short slice once we hold others.
        std::optional<milliseconds> member_wait;
        if (deadline) {
          member_wait =
              std::max(std::chrono::ceil<milliseconds>(*deadline - Clock::now()), milliseconds{0});
        }
        if (taken > 0) {
          member_wait =
              member_wait ? std::min(*member_wait, held_member_wait()) : held_member_wait();
        }
        auto& member = locks_[taken];
        bool acquired = false;
        if (!member_wait) {
          if (lease) {
            member.lock(*lease);
          } else {
            member.lock();
          }
          acquired = true;
        } else if (lease) {
          acquired = member.try_lock_for(*member_wait, *lease);
        } else {
          acquired = member.try_lock_for(*member_wait);
        }
        if (!acquired) break;
      }
    } catch (...) {
      release_first(taken);
      throw;
    }
    if (taken == locks_.size()) return true;
    release_first(taken);
    if (deadline && Clock::now() >= *deadline) return false;
  }
}

void MultiLock::release_first(std::size_t count) noexcept {
  for (std::size_t i = count; i-- > 0;) {
    try {
      locks_[i].unlock();
    } catch (...) {
      // Not reachable or no longer ours: the member's lease ends the hold.
    }
  }
}

void MultiLock::unlock(std::error_code& ec) noexcept {
  ec.clear();
  for (auto it = locks_.rbegin(); it != locks_.rend(); ++it) {
    try {
      it->unlock();
    } catch (const std::system_error& e) {
      if (!ec) ec = e.code();
    } catch (...) {
      if (!ec) ec = make_error_code(errc::invalid_argument);
    }
  }
}

void MultiLock::unlock() {
  std::error_code first;
  std::string message;
  for (auto it = locks_.rbegin(); it != locks_.rend(); ++it) {
    try {
      it->unlock();
    } catch (const std::system_error& e) {
      if (!first) {
        first = e.code();
        message = e.what();
      }
    }
  }
  if (first) throw error(first, "MultiLock unlock: " + message);
}

}  // namespace redisson

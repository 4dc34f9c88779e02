#include "redisson/red_lock.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "client/client_core.hpp"
#include "redisson/error.hpp"
#include "sync/lock_state.hpp"

namespace redisson {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// One parallel request to every master; outlives the call when a master answers late.
struct Fanout {
  explicit Fanout(std::size_t n) : outcome(n, Outcome::pending) {}

  enum class Outcome { pending, ok, refused, failed };

  void record(std::size_t i, Outcome result) {
    {
      std::lock_guard guard(mutex);
      outcome[i] = result;
      ++answered;
    }
    changed.notify_all();
  }
  // Waits until every master answered or `until`; a snapshot of the outcomes.
  std::vector<Outcome> wait(Clock::time_point until) {
    std::unique_lock guard(mutex);
    changed.wait_until(guard, until, [&] { return answered == outcome.size(); });
    return outcome;
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<Outcome> outcome;
  std::size_t answered = 0;
};

milliseconds retry_delay() {
  thread_local std::minstd_rand random{std::random_device{}()};
  return milliseconds(std::uniform_int_distribution<int>(5, 50)(random));
}

}  // namespace

RedLock::RedLock(std::vector<Lock> locks, RedLockOptions options)
    : locks_(std::move(locks)), options_(options) {
  if (locks_.empty()) throw error(errc::invalid_argument, "a RedLock needs at least one lock");
  if (options_.master_timeout.count() <= 0) {
    throw error(errc::invalid_argument, "RedLock master_timeout must be positive");
  }
}

std::optional<milliseconds> RedLock::try_lock(milliseconds lease) {
  return acquire(milliseconds{0}, lease);
}

std::optional<milliseconds> RedLock::try_lock_for(milliseconds wait, milliseconds lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  return acquire(wait, lease);
}

milliseconds RedLock::lock(milliseconds lease) { return *acquire(std::nullopt, lease); }

std::optional<milliseconds> RedLock::acquire(std::optional<milliseconds> wait, milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "RedLock lease must be positive");
  for (const auto& lock : locks_) {
    // Waiting here on the I/O thread would stop the thread that must deliver the answers.
    if (lock.state()->core->on_io_thread()) {
      throw error(errc::would_deadlock, "RedLock acquire on a client's I/O thread");
    }
  }
  const auto owner = detail::current_thread_owner_id();
  const auto deadline = wait ? std::optional(Clock::now() + *wait) : std::nullopt;
  for (;;) {
    if (auto validity = round(owner, lease)) return validity;
    if (deadline) {
      const auto left = *deadline - Clock::now();
      if (left <= Clock::duration::zero()) return std::nullopt;
      std::this_thread::sleep_for(std::min<Clock::duration>(left, retry_delay()));
    } else {
      std::this_thread::sleep_for(retry_delay());
    }
  }
}

std::optional<milliseconds> RedLock::round(std::uint64_t owner, milliseconds lease) {
  const auto start = Clock::now();
  auto fanout = std::make_shared<Fanout>(locks_.size());
  for (std::size_t i = 0; i < locks_.size(); ++i) {
    // A late answer only updates the shared state: a hold it took is released by this round's
    // release_all (sent after the acquire on the same connection) or by unlock().
    locks_[i].async_try_lock(owner, milliseconds{0}, lease,
                             [fanout, i](std::error_code ec, bool acquired) {
                               fanout->record(i, ec         ? Fanout::Outcome::failed
                                                 : acquired ? Fanout::Outcome::ok
                                                            : Fanout::Outcome::refused);
                             });
  }
  const auto outcome = fanout->wait(start + options_.master_timeout);
  std::size_t taken = 0;
  for (auto result : outcome) taken += result == Fanout::Outcome::ok ? 1 : 0;

  const auto elapsed = std::chrono::ceil<milliseconds>(Clock::now() - start);
  const auto drift = milliseconds(static_cast<milliseconds::rep>(
                         static_cast<double>(lease.count()) * options_.drift_factor)) +
                     options_.drift_base;
  const auto validity = lease - elapsed - drift;
  if (taken >= quorum() && validity.count() > 0) return validity;
  release_all(owner);
  return std::nullopt;
}

std::pair<std::size_t, std::size_t> RedLock::release_all(std::uint64_t owner) {
  const auto start = Clock::now();
  auto fanout = std::make_shared<Fanout>(locks_.size());
  for (std::size_t i = 0; i < locks_.size(); ++i) {
    locks_[i].async_unlock(owner, [fanout, i](std::error_code ec) {
      fanout->record(i, !ec                     ? Fanout::Outcome::ok
                        : ec == errc::not_owner ? Fanout::Outcome::refused
                                                : Fanout::Outcome::failed);
    });
  }
  const auto outcome = fanout->wait(start + options_.master_timeout);
  std::size_t released = 0;
  std::size_t refused = 0;
  for (auto result : outcome) {
    released += result == Fanout::Outcome::ok ? 1 : 0;
    refused += result == Fanout::Outcome::refused ? 1 : 0;
  }
  return {released, refused};
}

void RedLock::unlock() {
  for (const auto& lock : locks_) {
    if (lock.state()->core->on_io_thread()) {
      throw error(errc::would_deadlock, "RedLock unlock on a client's I/O thread");
    }
  }
  const auto [released, refused] = release_all(detail::current_thread_owner_id());
  if (released == 0 && refused > 0) {
    throw error(errc::not_owner, "RedLock unlock: the calling thread holds it on no master");
  }
}

}  // namespace redisson

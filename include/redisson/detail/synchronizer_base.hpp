// What the synchronizers that wait on pub/sub (Semaphore, PermitExpirableSemaphore,
// CountDownLatch) share on top of redisson::Object: the re-check interval of their waiters, and
// the permit count both semaphores keep under their name (the same key, script and channel).
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

#include "redisson/objects/object.hpp"

namespace redisson::detail {

/// An Object whose waiters sleep on pub/sub.
class Synchronizer : public Object {
 public:
  /// How often a waiter re-checks when no message came (default 1 s; shared by copies of this
  /// handle, kept by rename). Longer: less load from many waiters, more delay after a lost
  /// message or a writer that does not publish. Must be positive (invalid_argument otherwise).
  void set_recheck_interval(std::chrono::milliseconds interval);
  std::chrono::milliseconds recheck_interval() const noexcept;

 protected:
  explicit Synchronizer(ObjectPtr object) : Object(std::move(object)) {}
};

/// A synchronizer with an available permit count under its name (absent means 0), whose
/// changes are published on `redisson_sc:{name}` when the count is positive.
class PermitCount : public Synchronizer {
 public:
  /// Sets the permit count if the semaphore has none yet (the key is absent); true if set.
  bool try_set_permits(std::int64_t permits);
  /// Adds `delta` permits (negative: removes them; the count may go below zero).
  void add_permits(std::int64_t delta);

  /// Completes with (error_code, was_set).
  template <class CompletionToken>
  auto async_try_set_permits(std::int64_t permits, CompletionToken&& token) const {
    return run<bool>(token, &start_try_set_permits, permits);
  }
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_add_permits(std::int64_t delta, CompletionToken&& token) const {
    return run<void>(token, &start_add_permits, delta);
  }

 protected:
  explicit PermitCount(ObjectPtr object) : Synchronizer(std::move(object)) {}

 private:
  static void start_try_set_permits(const ObjectPtr& object, std::int64_t permits, Done<bool> done);
  static void start_add_permits(const ObjectPtr& object, std::int64_t delta, Done<void> done);
};

}  // namespace redisson::detail

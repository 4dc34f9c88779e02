// redisson::OwnerId: who holds a lock or a permit, within one Client.
#pragma once

#include <compare>
#include <cstdint>

namespace redisson {

/// The owner of a lock hold: the number after the client id in the owner field Redisson writes
/// ("<client-id>:<owner>", Java's "<UUID>:<threadId>").
///
/// The blocking API uses OwnerId::current_thread(), so a thread re-enters its own holds like a
/// std::recursive_mutex. The async API takes an explicit owner, because a coroutine may resume on
/// another thread: get one from Client::new_owner_id() (or OwnerId::next()), which never hands out
/// a number any thread or earlier call of this process has. OwnerId{n} names a given number, for
/// example the thread id of a Java process whose hold this process must release.
class OwnerId {
 public:
  constexpr OwnerId() noexcept = default;
  constexpr explicit OwnerId(std::uint64_t value) noexcept : value_(value) {}

  constexpr std::uint64_t value() const noexcept { return value_; }

  /// The calling thread's owner: fixed for the thread's life, never reused in this process.
  static OwnerId current_thread() noexcept;
  /// A fresh owner, from the same sequence as the threads' (so never equal to one of them).
  static OwnerId next() noexcept;

  friend constexpr auto operator<=>(OwnerId, OwnerId) noexcept = default;

 private:
  std::uint64_t value_ = 0;
};

}  // namespace redisson

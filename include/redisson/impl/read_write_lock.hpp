// The bodies of ReadWriteLock's timed forms (read_write_lock.hpp): each side's own.
#pragma once

#include "redisson/read_write_lock.hpp"

namespace redisson {

template <class Rep, class Period>
bool ReadWriteLock::try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
  return write_.try_lock_for(wait);
}

template <class Clock, class Duration>
bool ReadWriteLock::try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
  return write_.try_lock_until(deadline);
}

template <class Rep, class Period>
bool ReadWriteLock::try_lock_shared_for(const std::chrono::duration<Rep, Period>& wait) {
  return read_.try_lock_for(wait);
}

template <class Clock, class Duration>
bool ReadWriteLock::try_lock_shared_until(
    const std::chrono::time_point<Clock, Duration>& deadline) {
  return read_.try_lock_until(deadline);
}

}  // namespace redisson

// Converting a caller's duration to the milliseconds the wire needs, without overflow.
#pragma once

#include <chrono>

namespace redisson::detail {

/// The longest wait or lease the library passes on: 100 years. Longer ones (hours::max(), say)
/// mean "as long as possible", and converting them naively overflows into nonsense (a negative
/// wait, a lease Redis refuses); this cap keeps `now + d` and Redis' expiry arithmetic in range.
inline constexpr std::chrono::milliseconds kMaxDuration{100LL * 365 * 24 * 3600 * 1000};

/// `d` rounded up to milliseconds, clamped to [-kMaxDuration, kMaxDuration].
template <class Rep, class Period>
constexpr std::chrono::milliseconds saturating_ms(const std::chrono::duration<Rep, Period>& d) {
  // Compare in floating point, which cannot overflow for any integer duration.
  const std::chrono::duration<long double, std::milli> wide = d;
  if (wide >= std::chrono::duration<long double, std::milli>(kMaxDuration)) return kMaxDuration;
  if (wide <= -std::chrono::duration<long double, std::milli>(kMaxDuration)) return -kMaxDuration;
  return std::chrono::ceil<std::chrono::milliseconds>(d);
}

}  // namespace redisson::detail

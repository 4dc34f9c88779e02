// How an operation ended, as the library's internals pass it along: an error code and, when
// there is more to say, the words that say it (what the server answered, or why the library
// refused).
#pragma once

#include <string>
#include <system_error>
#include <utility>

#include "redisson/detail/unique_function.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

/// An error code plus a detail ("server: OOM command not allowed ...", or the library's reason;
/// empty when the code says it all). The public async API completes with the code alone (Asio's
/// convention); the blocking API puts the detail in the exception. Success costs nothing: an
/// empty string does not allocate.
struct Status {
  std::error_code code;
  std::string detail;

  Status() = default;
  Status(std::error_code ec) noexcept : code(ec) {}      // NOLINT(google-explicit-constructor)
  Status(errc e) noexcept : code(make_error_code(e)) {}  // NOLINT(google-explicit-constructor)
  Status(std::error_code ec, std::string text) : code(ec), detail(std::move(text)) {}

  explicit operator bool() const noexcept { return static_cast<bool>(code); }
  /// Lets a Status go where an error_code is expected (the text is then dropped).
  operator const std::error_code&() const noexcept { return code; }  // NOLINT

  friend bool operator==(const Status& status, const std::error_code& ec) noexcept {
    return status.code == ec;
  }
  friend bool operator==(const Status& status, errc e) noexcept {
    return status.code == make_error_code(e);
  }
};

/// The internal completion of an operation that yields a T (or nothing, for void).
template <class T>
struct DoneOf {
  using type = UniqueFunction<void(Status, T)>;
};
template <>
struct DoneOf<void> {
  using type = UniqueFunction<void(Status)>;
};
template <class T>
using Done = typename DoneOf<T>::type;

}  // namespace redisson::detail

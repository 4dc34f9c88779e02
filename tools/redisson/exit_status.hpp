// The tool's exit statuses (sysexits.h values where one fits) and the exception that carries one
// up to main().
#pragma once

#include <stdexcept>
#include <string>

namespace redisson::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;          ///< inspect: no such key; demo: count not exact
inline constexpr int kExitUsage = 64;           ///< EX_USAGE: bad option, duration or URL
inline constexpr int kExitDataError = 65;       ///< EX_DATAERR: bytes the codec cannot read
inline constexpr int kExitUnavailable = 69;     ///< EX_UNAVAILABLE: cannot reach or use Redis
inline constexpr int kExitNotAcquired = 75;     ///< EX_TEMPFAIL: not acquired/popped within --wait
inline constexpr int kExitLockLost = 76;        ///< the lock was lost while CMD ran
inline constexpr int kExitCannotExecute = 126;  ///< CMD found but not executable (as a shell)
inline constexpr int kExitNotFound = 127;       ///< CMD not found (as a shell)
inline constexpr int kExitSignalBase = 128;     ///< 128 + signal number, as a shell

/// Thrown to end the program: main() prints "redisson: <what()>" on stderr and exits `status`.
class ToolError : public std::runtime_error {
 public:
  ToolError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

}  // namespace redisson::cli

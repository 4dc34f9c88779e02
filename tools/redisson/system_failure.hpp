// The tool's one way to report a failed system call (pipe, fork, poll, waitpid...).
#pragma once

#include <cerrno>
#include <system_error>

namespace redisson::cli {

/// Throws std::system_error for the current errno, naming the call that failed.
[[noreturn]] inline void throw_errno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace redisson::cli

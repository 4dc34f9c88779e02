// Checking that a call fails with a given error code, for tests.
//
//   expect_error(errc::invalid_argument, [&] { semaphore.acquire(-1); }, "acquire(-1)");
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <system_error>

#include "redisson/error.hpp"

namespace redisson::test {

/// Expects `fn` to throw a std::system_error (redisson::error or from a future) with `code`;
/// `what` names the call in the failure message.
template <class Fn>
void expect_error(errc code, Fn fn, const std::string& what = "the call") {
  try {
    fn();
    ADD_FAILURE() << what << ": no error";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), code) << what << ": " << e.what();
  }
}

}  // namespace redisson::test

// The integration tests' main: GoogleTest's, except in a process spawn_child started, which
// runs its registered child function instead (support/child_process.hpp).
#include <gtest/gtest.h>

#include "support/child_process.hpp"

int main(int argc, char** argv) {
  if (const auto status = redisson::test::run_child_if_asked(argc, argv)) return *status;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

// Which sanitizer a test binary was built with, for the few tests a sanitizer cannot run.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define REDISSON_TEST_UNDER_SANITIZER 1
#else
#define REDISSON_TEST_UNDER_SANITIZER 0
#endif

// A forked child of a multi-threaded process that starts threads itself can deadlock inside
// the ASan/TSan runtime (its locks were held by another thread at fork time). Tests whose
// children are forked (not exec'd) workers run in the plain build; under a sanitizer they are
// skipped rather than left to hang until the ctest timeout.
#define REDISSON_SKIP_FORK_UNDER_SANITIZER()                                                 \
  do {                                                                                       \
    if (REDISSON_TEST_UNDER_SANITIZER) {                                                     \
      GTEST_SKIP() << "forked worker processes: run in the plain build (sanitizer runtimes " \
                      "deadlock after a multi-threaded fork)";                               \
    }                                                                                        \
  } while (0)

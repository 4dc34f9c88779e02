// Waiting on a condition with a deadline, for tests. Tests never sleep for a fixed time and hope:
// they state what they wait for and how long at most.
//
//   using redisson::test::eventually;
//   ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "key"}) == "0"; }));
#pragma once

#include <chrono>
#include <thread>

namespace redisson::test {

/// Polls `pred` every `step` until it returns true (-> true) or `deadline` has passed (-> false).
/// `pred` is always called at least once, and once more after the deadline, so a condition that
/// became true during the last step is not missed.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds deadline = std::chrono::seconds(10),
                std::chrono::milliseconds step = std::chrono::milliseconds(5)) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  for (;;) {
    if (pred()) return true;
    if (std::chrono::steady_clock::now() >= until) return static_cast<bool>(pred());
    std::this_thread::sleep_for(step);
  }
}

}  // namespace redisson::test

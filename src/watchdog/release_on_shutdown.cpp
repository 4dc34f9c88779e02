#include "watchdog/release_on_shutdown.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "client/failure_report.hpp"

namespace redisson::detail {
namespace {

// The answers, shared with completions that may come after the shutdown stopped waiting.
struct Answers {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<bool> answered;
  std::size_t left = 0;
  bool gave_up = false;  // completions after it report nothing: the waiter reported them
  std::vector<error> failures;
};

std::string describe(const HoldRegistry::Held& hold) {
  return "lock '" + hold.name + "' held by " + hold.field;
}

}  // namespace

void release_renewed_holds(const HoldRegistry& registry, const Config& config,
                           std::chrono::milliseconds deadline) noexcept {
  try {
    const auto holds = registry.renewed_holds();
    if (holds.empty()) return;
    auto answers = std::make_shared<Answers>();
    answers->answered.assign(holds.size(), false);
    answers->left = holds.size();
    for (std::size_t i = 0; i < holds.size(); ++i) {
      holds[i].release_all([answers, i, what = describe(holds[i])](const Status& status) {
        std::lock_guard lock(answers->mutex);
        if (answers->gave_up) return;
        answers->answered[i] = true;
        --answers->left;
        if (status) {
          answers->failures.emplace_back(
              status.code, what + ": not released at shutdown" +
                               (status.detail.empty() ? "" : " (" + status.detail + ")") +
                               "; its lease ends it");
        }
        answers->changed.notify_all();
      });
    }
    std::vector<error> failures;
    {
      std::unique_lock lock(answers->mutex);
      answers->changed.wait_for(lock, deadline, [&] { return answers->left == 0; });
      answers->gave_up = true;
      failures = std::move(answers->failures);
      for (std::size_t i = 0; i < holds.size(); ++i) {
        if (answers->answered[i]) continue;
        failures.emplace_back(errc::timeout, describe(holds[i]) +
                                                 ": not released within the shutdown deadline; "
                                                 "its lease ends it");
      }
    }
    for (const auto& failure : failures) report_failure(config, failure);
  } catch (const std::exception&) {
    // No memory: the holds end with their leases, as with release_locks_on_shutdown off.
  }
}

}  // namespace redisson::detail

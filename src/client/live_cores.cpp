#include "client/live_cores.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "client/client_core.hpp"

namespace redisson::detail {
namespace {

struct LiveCores {
  std::mutex mutex;
  std::vector<std::weak_ptr<ClientCore>> cores;
};

// Never destroyed: threads (the main thread's thread_locals included) may exit during or after
// the destruction of statics, and must still find it.
LiveCores& live_cores() {
  static auto* const cores = new LiveCores;
  return *cores;
}

}  // namespace

void add_live_core(const std::shared_ptr<ClientCore>& core) {
  auto& live = live_cores();
  std::lock_guard lock(live.mutex);
  std::erase_if(live.cores, [](const auto& weak) { return weak.expired(); });
  live.cores.push_back(core);
}

void thread_exited(OwnerId owner) noexcept {
  try {
    std::vector<std::shared_ptr<ClientCore>> cores;
    {
      auto& live = live_cores();
      std::lock_guard lock(live.mutex);
      for (const auto& weak : live.cores) {
        if (auto core = weak.lock()) cores.push_back(std::move(core));
      }
    }
    for (const auto& core : cores) core->owner_exited(owner);
  } catch (...) {
    // Out of memory while a thread exits: its holds stay renewed until the client shuts down.
  }
}

}  // namespace redisson::detail

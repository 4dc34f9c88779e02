#include "chaos/semaphore_watch.hpp"

#include <fstream>
#include <iterator>
#include <string_view>
#include <utility>

namespace redisson::chaos {

SemaphoreWatch::SemaphoreWatch(std::string dir, std::size_t workers) {
  for (std::size_t i = 0; i < workers; ++i) {
    Follower follower;
    follower.path = dir + "/worker-" + std::to_string(i) + ".log";
    followers_.push_back(std::move(follower));
  }
}

void SemaphoreWatch::read_logs() {
  for (auto& follower : followers_) {
    std::ifstream in(follower.path, std::ios::binary);
    if (!in) continue;
    in.seekg(follower.offset);
    std::string appended((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    follower.offset += static_cast<std::int64_t>(appended.size());
    follower.partial += appended;
    std::size_t begin = 0;
    for (auto end = follower.partial.find('\n'); end != std::string::npos;
         end = follower.partial.find('\n', begin)) {
      const std::string_view line(follower.partial.data() + begin, end - begin);
      begin = end + 1;
      if (line.rfind("A sem ", 0) == 0) {
        follower.holds = true;
        ++acquisitions_;
      } else if (line.rfind("E ", 0) == 0 || line.rfind("R ", 0) == 0) {
        // A worker holds one lock at a time: its "E" ends whatever it held; "R": the
        // incarnation died (the driver never kills a semaphore holder on purpose).
        follower.holds = false;
      }
    }
    follower.partial.erase(0, begin);
  }
}

bool SemaphoreWatch::dead(std::int64_t permits, Clock::time_point now) {
  read_logs();
  bool held = false;
  for (const auto& follower : followers_) held = held || follower.holds;
  if (permits > 0 || held) {
    idle_since_.reset();
    return false;
  }
  if (!idle_since_ || acquisitions_ != acquisitions_when_idle_) {
    // Seen idle for the first time, or someone took the permit since: the clock starts again.
    idle_since_ = now;
    acquisitions_when_idle_ = acquisitions_;
    return false;
  }
  return now - *idle_since_ >= kSteadyFor;
}

}  // namespace redisson::chaos

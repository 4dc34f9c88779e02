#include "sync/own_releases.hpp"

namespace redisson::detail {
namespace {

// Below this many entries nothing is pruned: a client that releases many semaphores at once
// keeps those of the last kRemembered, plus these.
constexpr std::size_t kReleasesPruneAbove = 16;

}  // namespace

void OwnReleases::published(const std::string& channel, std::int64_t count, Clock::time_point sent,
                            Clock::time_point replied, const Received& received) {
  if (received.messages != 0 && received.last >= sent) {
    latest_.erase(channel);
    return;
  }
  if (latest_.size() > kReleasesPruneAbove) {
    std::erase_if(latest_, [this, replied](const auto& entry) {
      return replied - entry.second.at > remembered_;
    });
  }
  latest_[channel] = Release{count, replied, received.messages};
}

std::optional<OwnReleases::Pending> OwnReleases::pending(const std::string& channel,
                                                         Clock::time_point since,
                                                         Clock::time_point now,
                                                         const Received& received) const {
  const auto found = latest_.find(channel);
  if (found == latest_.end()) return std::nullopt;
  const auto& release = found->second;
  const auto until = release.at + remembered_;
  if (release.at > since || now > until || received.messages != release.messages) {
    return std::nullopt;
  }
  return Pending{release.count, until};
}

}  // namespace redisson::detail

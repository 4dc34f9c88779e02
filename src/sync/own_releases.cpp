#include "sync/own_releases.hpp"

namespace redisson::detail {
namespace {

// Below this many entries nothing is pruned: a client that releases many semaphores at once
// keeps those of the last kRemembered, plus these.
constexpr std::size_t kPruneAbove = 16;

}  // namespace

void OwnReleases::published(const std::string& channel, std::int64_t count, Clock::time_point at,
                            std::uint64_t received) {
  if (latest_.size() > kPruneAbove) {
    std::erase_if(latest_,
                  [this, at](const auto& entry) { return at - entry.second.at > remembered_; });
  }
  latest_[channel] = Release{count, at, received};
}

std::optional<OwnReleases::Pending> OwnReleases::pending(const std::string& channel,
                                                         Clock::time_point since,
                                                         Clock::time_point now,
                                                         std::uint64_t received) const {
  const auto found = latest_.find(channel);
  if (found == latest_.end()) return std::nullopt;
  const auto& release = found->second;
  const auto until = release.at + remembered_;
  if (release.at > since || now > until || received != release.received) return std::nullopt;
  return Pending{release.count, until};
}

}  // namespace redisson::detail

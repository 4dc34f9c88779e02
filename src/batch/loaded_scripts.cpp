#include "batch/loaded_scripts.hpp"

#include "net/connection.hpp"

namespace redisson::detail {

bool LoadedScripts::known(const std::shared_ptr<Connection>& connection,
                          const std::string& sha1) const {
  std::lock_guard lock(mutex_);
  const auto it = known_.find(connection);
  return it != known_.end() && it->second.contains(sha1);
}

void LoadedScripts::learn(const std::shared_ptr<Connection>& connection, const std::string& sha1) {
  std::lock_guard lock(mutex_);
  std::erase_if(known_, [](const auto& entry) { return entry.first.expired(); });
  known_[connection].insert(sha1);
}

void LoadedScripts::forget(const std::shared_ptr<Connection>& connection) {
  std::lock_guard lock(mutex_);
  known_.erase(connection);
}

}  // namespace redisson::detail

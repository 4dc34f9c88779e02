// Which scripts each master connection is known to have (a batch's SCRIPT LOAD succeeded on it),
// so that a batch loads a script before its commands only the first time, as Redisson does. One
// per client: ClientCore::service<LoadedScripts>().
//
// Threading: any thread. Cost: a map lookup under a mutex per script of a batch.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "client/client_services.hpp"

namespace redisson::detail {

class Connection;

class LoadedScripts : public ClientService {
 public:
  LoadedScripts() = default;

  /// True when a SCRIPT LOAD of `sha1` succeeded on `connection`.
  bool known(const std::shared_ptr<Connection>& connection, const std::string& sha1) const;
  void learn(const std::shared_ptr<Connection>& connection, const std::string& sha1);
  /// The server said NOSCRIPT (SCRIPT FLUSH, a restart): load everything again next time.
  void forget(const std::shared_ptr<Connection>& connection);

 private:
  mutable std::mutex mutex_;
  // Keyed by the connection's identity; a closed connection's entry is dropped on the next
  // learn().
  std::map<std::weak_ptr<Connection>, std::set<std::string>, std::owner_less<>> known_;
};

}  // namespace redisson::detail

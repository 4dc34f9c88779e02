// How a node is known as a map key: "host:port". Routers key their connections by it, and the
// pub/sub that follows them keys its subscribers by it.
#pragma once

#include <string>

#include "redisson/config.hpp"

namespace redisson::detail {

/// "host:port", the key nodes are known by.
inline std::string node_key(const ServerAddress& address) {
  return address.host + ":" + std::to_string(address.port);
}

}  // namespace redisson::detail

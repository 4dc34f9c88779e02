// The library's way to the ClientCore behind a public Client (objects take a `const Client&`).
#pragma once

#include <memory>

#include "redisson/client.hpp"

namespace redisson::detail {

struct ClientAccess {
  static const std::shared_ptr<ClientCore>& core(const Client& client) noexcept {
    return client.core_;
  }
};

}  // namespace redisson::detail

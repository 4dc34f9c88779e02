#include "redisson/detail/read_slot.hpp"

#include <utility>

#include "net/connection.hpp"

namespace redisson::detail {

ReadSlot::~ReadSlot() {
  if (connection_) connection_->release_caller_read(token_);
}

void ReadSlot::hold(std::shared_ptr<Connection> connection, std::uint64_t token) noexcept {
  connection_ = std::move(connection);
  token_ = token;
}

void ReadSlot::read_held() {
  if (!connection_ || reading_) return;
  // Held until the read is over (open() stays false for the callbacks it runs); should it
  // throw, the destructor gives the reading back.
  reading_ = true;
  connection_->read_own_reply(token_);
  connection_.reset();
  reading_ = false;
}

}  // namespace redisson::detail

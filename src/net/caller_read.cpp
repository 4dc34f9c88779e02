#include "redisson/detail/caller_read.hpp"

#include <utility>

#include "net/connection.hpp"

namespace redisson::detail {
namespace {

thread_local CallerRead* current_call = nullptr;

}  // namespace

CallerRead::CallerRead() noexcept : previous_(current_call) { current_call = this; }

CallerRead::~CallerRead() {
  // A reading taken and never used (the call threw after its command went out) goes back, or
  // the I/O thread would never read that connection again.
  if (connection_) connection_->release_caller_read(token_);
  current_call = previous_;
}

bool CallerRead::wanted() noexcept { return current_call != nullptr && !current_call->connection_; }

void CallerRead::hold(std::shared_ptr<Connection> connection, std::uint64_t token) noexcept {
  if (current_call == nullptr) return;
  current_call->connection_ = std::move(connection);
  current_call->token_ = token;
}

void CallerRead::read_held() {
  auto* const call = current_call;
  if (call == nullptr || !call->connection_ || call->reading_) return;
  // Held until the read is over (wanted() stays false for the callbacks it runs); should it
  // throw, the destructor gives the reading back.
  call->reading_ = true;
  call->connection_->read_own_reply(call->token_);
  call->connection_.reset();
  call->reading_ = false;
}

}  // namespace redisson::detail

// The out-of-line parts of the operation path (redisson/detail/operation.hpp).
#include "redisson/detail/operation.hpp"

#include "client/client_core.hpp"

namespace redisson::detail {

asio::any_io_executor core_executor(ClientCore& core) { return core.executor(); }

bool core_on_io_thread(const ClientCore& core) noexcept { return core.on_io_thread(); }

void Blocking::fail(const Status& status) const {
  if (ec_ != nullptr) {
    *ec_ = status.code;
    return;
  }
  // "<operation> '<name>'", then what the server said; std::system_error appends ": <meaning>".
  std::string what(operation_);
  if (!name_.empty()) what.append(" '").append(name_).append("'");
  if (!status.server_text.empty()) what.append(" (server: ").append(status.server_text).append(")");
  throw error(status.code, what);
}

}  // namespace redisson::detail

// The out-of-line parts of the operation path (redisson/detail/operation.hpp).
#include "redisson/detail/operation.hpp"

#include "client/client_core.hpp"

namespace redisson::detail {

asio::any_io_executor core_executor(ClientCore& core) { return core.executor(); }

asio::io_context::executor_type core_io_executor(ClientCore& core) { return core.io_executor(); }

bool core_on_io_thread(const ClientCore& core) noexcept { return core.on_io_thread(); }

error Blocking::to_error(const Status& status) const {
  // std::system_error appends ": <what the code means>".
  std::string what(operation_);
  if (!name_.empty()) what.append(" '").append(name_).append("'");
  if (!status.detail.empty()) what.append(" (").append(status.detail).append(")");
  return error(status.code, what);
}

void Blocking::fail(const Status& status) const {
  if (ec_ != nullptr) {
    *ec_ = status.code;
  } else if (status_ != nullptr) {
    *status_ = status;
  } else {
    throw to_error(status);
  }
}

}  // namespace redisson::detail

// RemoteService's handle (redisson/services/remote_service.hpp) and the entry points its
// templates call: the worker registry (remote_workers.hpp) and the pending count.
#include "redisson/services/remote_service.hpp"

#include "client/client_core.hpp"
#include "objects/send.hpp"
#include "services/remote_names.hpp"
#include "services/remote_wire.hpp"
#include "services/remote_workers.hpp"

namespace redisson {

RemoteService::RemoteService(const Client& client, std::string name, CodecPtr codec)
    : name_(std::move(name)) {
  if (name_.empty())
    throw error(errc::invalid_argument, "RemoteService: the name must not be empty");
  state_ = detail::make_keyless(client, std::move(codec));
  core_ = state_->core;
  codec_ = state_->codec;
  (void)detail::remote_wire_of(*codec_);  // kryo5 or json, refused here rather than per call
  executor_id_ = detail::remote_executor_id(*core_, codec_, name_);
}

bool RemoteService::register_service(RemoteInterface interface, int workers) const {
  return core_->service<detail::RemoteWorkers>().add(name_, codec_, interface.name_,
                                                     std::move(interface.methods_), workers);
}

bool RemoteService::deregister(const std::string& interface_name) const {
  return core_->service<detail::RemoteWorkers>().remove(name_, interface_name);
}

int RemoteService::free_workers(const std::string& interface_name) const {
  return core_->service<detail::RemoteWorkers>().free_workers(name_, interface_name);
}

std::int64_t RemoteService::pending_invocations(const std::string& interface_name) const {
  return detail::async_command<std::int64_t>(
      state_, detail::blocking("pending_invocations", name_),
      [&] {
        return Command{"LLEN", detail::remote_request_queue(name_, interface_name)};
      },
      &detail::reply_integer);
}

}  // namespace redisson

namespace redisson::detail {

void start_remote_try_execute(const std::shared_ptr<ClientCore>& core, const std::string& service,
                              CodecPtr codec, const std::string& interface_name,
                              std::vector<RemoteMethodEntry> methods,
                              std::optional<std::chrono::milliseconds> wait,
                              const CancellationPtr& cancel, Done<bool> done) {
  core->service<RemoteWorkers>().try_execute(service, std::move(codec), interface_name,
                                             std::move(methods), wait, cancel, std::move(done));
}

}  // namespace redisson::detail

#include "services/remote_names.hpp"

#include "client/client_core.hpp"

namespace redisson::detail {

std::string remote_request_queue(const std::string& service, const std::string& interface_name) {
  std::string name;
  name.reserve(service.size() + interface_name.size() + 3);
  return name.append("{").append(service).append(":").append(interface_name).append("}");
}

std::string remote_tasks_hash(std::string_view request_queue) {
  return std::string(request_queue).append(":tasks");
}

std::string remote_ack_key(std::string_view service, std::string_view request_id) {
  std::string name;
  name.reserve(service.size() + request_id.size() + 16);
  return name.append("{").append(service).append(":remote}:").append(request_id).append(":ack");
}

std::string remote_executor_id(const ClientCore& core, const CodecPtr& codec,
                               std::string_view service) {
  if (codec == core.config().codec) return core.id();
  return core.id() + ":" + std::string(service);
}

std::string remote_response_queue(std::string_view executor_id) {
  return std::string("{remote_response}:").append(executor_id);
}

}  // namespace redisson::detail

// Redisson's key names of a remote service (OBJECTS.md §6, the services fixtures): where a call
// is queued, where its ack is claimed, and where its caller reads acks and results.
#pragma once

#include <string>
#include <string_view>

#include "redisson/codec.hpp"

namespace redisson::detail {

class ClientCore;

/// The list of request ids of an interface: {<service>:<interface>}.
std::string remote_request_queue(const std::string& service, const std::string& interface_name);
/// The hash of request bytes by id beside it: {<service>:<interface>}:tasks.
std::string remote_tasks_hash(std::string_view request_queue);
/// The key a request's ack is claimed with: {<service>:remote}:<request id>:ack.
std::string remote_ack_key(std::string_view service, std::string_view request_id);
/// Redisson's executor id of a caller of the remote service `service` in `codec`: the client's
/// id, with ":<service>" appended when `codec` is not the client's own (Config::codec, kryo5
/// unless set), so services in different codecs never read each other's answers.
std::string remote_executor_id(const ClientCore& core, const CodecPtr& codec,
                               std::string_view service);
/// The list a caller reads its acks and results from: {remote_response}:<executor id>.
std::string remote_response_queue(std::string_view executor_id);

}  // namespace redisson::detail

// The two wires of remote_wire.hpp, each in its own file: remote_wire_kryo.cpp (Kryo5Codec's
// FieldSerializer layout) and remote_wire_json.cpp (JsonJacksonCodec's properties).
#pragma once

#include <string>
#include <string_view>

#include "services/remote_wire.hpp"

namespace redisson::detail {

// Java's class names of the messages.
inline constexpr std::string_view kRemoteRequestClass = "org.redisson.remote.RemoteServiceRequest";
inline constexpr std::string_view kRemoteAckClass = "org.redisson.remote.RemoteServiceAck";
inline constexpr std::string_view kRemoteResponseClass =
    "org.redisson.remote.RemoteServiceResponse";
inline constexpr std::string_view kRemoteCancelResponseClass =
    "org.redisson.remote.RemoteServiceCancelResponse";
inline constexpr std::string_view kJavaObjectArrayClass = "[Ljava.lang.Object;";

/// The error text of a Java Throwable that C++ cannot rebuild.
std::string java_exception_text(std::string_view java_class, std::string_view message);

namespace remote_kryo {
std::string encode_request(const RemoteRequest& request);
RemoteRequest decode_request(std::string_view bytes);
std::string encode_ack(const RemoteAck& ack);
std::string encode_response(const RemoteResponse& response, RemoteErrorForm error_form);
std::string encode_cancel_response(const RemoteCancelResponse& response);
RemoteReplyMessage decode_reply(std::string_view bytes);
}  // namespace remote_kryo

namespace remote_json {
std::string encode_request(const RemoteRequest& request);
RemoteRequest decode_request(std::string_view bytes);
std::string encode_ack(const RemoteAck& ack);
std::string encode_response(const RemoteResponse& response);
std::string encode_cancel_response(const RemoteCancelResponse& response);
RemoteReplyMessage decode_reply(std::string_view bytes);
}  // namespace remote_json

}  // namespace redisson::detail

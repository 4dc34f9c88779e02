// The remote service's messages: the wire a codec gives, and each message sent to its wire
// (remote_wire_kryo.cpp, remote_wire_json.cpp).
#include "services/remote_wire.hpp"

#include <string>

#include "hash/highway_hash.hpp"
#include "redisson/codec.hpp"
#include "redisson/error.hpp"
#include "services/remote_wire_formats.hpp"

namespace redisson::detail {

RemoteWire remote_wire_of(const Codec& codec) {
  const std::string_view name = codec.name();
  if (name == "kryo5") return RemoteWire::kryo5;
  if (name == "json") return RemoteWire::json;
  // Other codecs cannot hold the Java classes of the messages (Java's TypedJsonJacksonCodec,
  // StringCodec, ... fail on them too).
  throw error(errc::invalid_argument,
              "the remote service needs the kryo5 or json codec, not " + std::string(name) +
                  " (its messages are Java objects that codec cannot hold)");
}

std::string java_exception_text(std::string_view java_class, std::string_view message) {
  std::string text = "a Java exception";
  if (!java_class.empty()) text += " (" + std::string(java_class) + ")";
  if (!message.empty()) text += ": " + std::string(message);
  return text;
}

std::string encode_remote_request(RemoteWire wire, const RemoteRequest& request) {
  return wire == RemoteWire::kryo5 ? remote_kryo::encode_request(request)
                                   : remote_json::encode_request(request);
}

RemoteRequest decode_remote_request(RemoteWire wire, std::string_view bytes) {
  return wire == RemoteWire::kryo5 ? remote_kryo::decode_request(bytes)
                                   : remote_json::decode_request(bytes);
}

std::string encode_remote_ack(RemoteWire wire, const RemoteAck& ack) {
  return wire == RemoteWire::kryo5 ? remote_kryo::encode_ack(ack) : remote_json::encode_ack(ack);
}

std::string encode_remote_response(RemoteWire wire, const RemoteResponse& response,
                                   RemoteErrorForm error_form) {
  return wire == RemoteWire::kryo5 ? remote_kryo::encode_response(response, error_form)
                                   : remote_json::encode_response(response);
}

std::string encode_remote_cancel_response(RemoteWire wire, const RemoteCancelResponse& response) {
  return wire == RemoteWire::kryo5 ? remote_kryo::encode_cancel_response(response)
                                   : remote_json::encode_cancel_response(response);
}

RemoteReplyMessage decode_remote_reply(RemoteWire wire, std::string_view bytes) {
  return wire == RemoteWire::kryo5 ? remote_kryo::decode_reply(bytes)
                                   : remote_json::decode_reply(bytes);
}

std::array<std::int64_t, 2> remote_method_signature(std::string_view concatenated_type_names) {
  // Hash.hash128 returns the two 64-bit halves as Java longs: the same bits, signed.
  const auto hash = highway_hash128(concatenated_type_names);
  return {static_cast<std::int64_t>(hash.h0), static_cast<std::int64_t>(hash.h1)};
}

}  // namespace redisson::detail

// The messages of Java Redisson's RRemoteService as its codec stores them (OBJECTS.md §6): the
// request a caller puts in `{<name>:<interface>}:tasks`, and the ack, response and cancel response
// a worker pushes to `{remote_response}:<executorId>`. Byte-exact with Redisson 3.52's Kryo5Codec
// (FieldSerializer: fields in name order) and JsonJacksonCodec (properties in name order, nulls
// left out), so C++ and Java callers and workers serve each other. Pure encode/decode, no I/O.
//
// Arguments and results travel as the bytes the service's codec writes for the value on its own;
// this module splices them into the message and cuts them out again (for Kryo renumbering the
// class names, which Kryo numbers per message).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace redisson {
class Codec;
}  // namespace redisson

namespace redisson::detail {

/// Java's RemoteInvocationOptions: nullopt = not expected (noAck / noResult).
struct RemoteOptions {
  std::optional<std::int64_t> ack_timeout_ms = 1000;
  std::optional<std::int64_t> execution_timeout_ms = 30000;

  friend bool operator==(const RemoteOptions&, const RemoteOptions&) = default;
};

/// org.redisson.remote.RemoteServiceRequest. `args`: each argument's bytes exactly as the
/// service's codec encodes that value on its own (Kryo: writeClassAndObject bytes, e.g. 02 04 for
/// Integer 2, 03 68 e9 for "hi"; JSON: the JSON text, e.g. `2`, `"hi"`), spliced into / cut out
/// of Object[]. No arguments are written as Java's null array, as a Java proxy does.
struct RemoteRequest {
  std::string id;  // 32 lowercase hex
  std::string
      executor_id;  // where the caller reads acks/responses: {remote_response}:<executor_id>
  std::string method_name;
  std::vector<std::string> args;
  std::array<std::int64_t, 2> signature{};
  RemoteOptions options;
  std::int64_t date_ms = 0;  // caller's epoch ms

  friend bool operator==(const RemoteRequest&, const RemoteRequest&) = default;
};

/// org.redisson.remote.RemoteServiceAck.
struct RemoteAck {
  std::string id;

  friend bool operator==(const RemoteAck&, const RemoteAck&) = default;
};

/// org.redisson.remote.RemoteServiceResponse. `result`: the codec's bytes of the result value
/// (nullopt: Java null). `error`: a failure message; nullopt: none. Java has a Throwable there:
/// C++ writes the message as RemoteErrorForm says, and a Java Throwable reads as
/// "a Java exception (<class>): <message>" (its stack trace and cause are not kept).
struct RemoteResponse {
  std::string id;
  std::optional<std::string> result;
  std::optional<std::string> error;

  friend bool operator==(const RemoteResponse&, const RemoteResponse&) = default;
};

/// org.redisson.remote.RemoteServiceCancelResponse: what a worker answers to a cancel request.
struct RemoteCancelResponse {
  std::string id;
  bool canceled = false;

  friend bool operator==(const RemoteCancelResponse&, const RemoteCancelResponse&) = default;
};

enum class RemoteWire { kryo5, json };

/// The wire of a codec: kryo5() -> kryo5, json() -> json; any other codec: throws
/// redisson::error(errc::invalid_argument).
RemoteWire remote_wire_of(const Codec& codec);

/// The request as the codec stores it in the tasks hash.
std::string encode_remote_request(RemoteWire wire, const RemoteRequest& request);
/// codec_error on damaged or foreign bytes (another class, an argument the codec cannot read).
RemoteRequest decode_remote_request(RemoteWire wire, std::string_view bytes);

std::string encode_remote_ack(RemoteWire wire, const RemoteAck& ack);
/// How encode_remote_response writes RemoteResponse::error.
enum class RemoteErrorForm {
  /// A String: a C++ caller reads it back as it is. A Java caller cannot read the response
  /// (Kryo and Jackson cannot put a String in the Throwable field): its decode fails, Redisson
  /// logs "Can't get response from ..." and stops polling that response list until the calls
  /// waiting on it time out (RemoteServiceTimeoutException).
  string,
  /// Kryo: a Java-serialized java.lang.RuntimeException(error), which a Java caller throws as the
  /// call's failure; a C++ caller reads "a Java exception (java.lang.RuntimeException): <error>".
  /// The response must have no result. JSON: written as `string`.
  java_exception,
};

std::string encode_remote_response(RemoteWire wire, const RemoteResponse& response,
                                   RemoteErrorForm error_form = RemoteErrorForm::string);
std::string encode_remote_cancel_response(RemoteWire wire, const RemoteCancelResponse& response);

/// What arrives on a caller's response list.
using RemoteReplyMessage = std::variant<RemoteAck, RemoteResponse, RemoteCancelResponse>;
/// codec_error on damaged bytes or another class.
RemoteReplyMessage decode_remote_reply(RemoteWire wire, std::string_view bytes);

/// Redisson's method signature: HighwayHash128 of the concatenated Java parameter type names
/// ("intint", "java.lang.String", "" for none) as Java's two longs.
std::array<std::int64_t, 2> remote_method_signature(std::string_view concatenated_type_names);

}  // namespace redisson::detail

// The remote service's messages as Kryo5Codec writes them: the class by name, then the fields in
// name order as FieldSerializer writes them (OBJECTS.md §6; fixtures remote_kryo).
//   RemoteServiceRequest  args (Object[] with its class, each element with its class), date
//                         (zigzag varlong), executorId, id, methodName (Strings), options (01,
//                         then two nullable Longs: 00, or 01 + zigzag varlong), signature (long[]:
//                         count + 1, zigzag varlongs)
//   RemoteServiceAck      id
//   RemoteServiceResponse error (Throwable, with its class), id, result (with its class)
//   RemoteServiceCancelResponse  canceled (one byte), id
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "codec/java_serialization.hpp"
#include "codec/kryo5.hpp"
#include "codec/kryo5_input.hpp"
#include "redisson/error.hpp"
#include "services/remote_wire_formats.hpp"

namespace redisson::detail::remote_kryo {
namespace {

using kryo5::ClassNames;
using kryo5::Input;

constexpr std::string_view kJavaRuntimeExceptionClass = "java.lang.RuntimeException";

// Kryo's writeObjectOrNull markers (a field whose class is final: no class header).
constexpr char kNullMarker = 0;
constexpr char kNotNullMarker = 1;

[[noreturn]] void fail_encode(const std::string& what) {
  throw error(errc::codec_error, "kryo5 remote message: " + what);
}

// A value's own bytes, spliced into the message with its class names renumbered.
void splice_value(std::string_view value_bytes, ClassNames& names, std::string& out,
                  const char* what) {
  ClassNames own;
  const auto value = kryo5::read_value_at(value_bytes, 0, own);
  if (value.size != value_bytes.size()) {
    fail_encode(std::string(what) + " holds bytes after its value");
  }
  kryo5::append_renamed(value_bytes, value.classes, names, out);
}

// The value at the input's position, cut out as the bytes the codec writes for it on its own.
std::string cut_value(Input& in, ClassNames& names) {
  const std::size_t start = in.pos();
  const auto value = kryo5::read_value_at(in.bytes(), start, names);
  ClassNames own;
  std::string bytes;
  kryo5::append_renamed(in.bytes().substr(start, value.size), value.classes, own, bytes);
  in.seek(start + value.size);
  return bytes;
}

void put_long(std::string& out, std::int64_t v) { kryo5::put_varlong(out, kryo5::zigzag(v)); }

void put_nullable_long(std::string& out, const std::optional<std::int64_t>& v) {
  out += v ? kNotNullMarker : kNullMarker;
  if (v) put_long(out, *v);
}

// DefaultClassResolver.readName (the header must be a class by name); its name.
std::string read_class_name(Input& in, ClassNames& names, std::string_view what) {
  const std::size_t at = in.pos();
  if (in.byte(what) != kryo5::kNamed) in.fail("expected " + std::string(what) + " by name", at);
  const std::uint32_t id = in.varint("class name id");
  if (id < names.size()) return names[id];
  if (id > names.size()) in.fail("class name id " + std::to_string(id) + " out of sequence", at);
  const std::size_t name_at = in.pos();
  auto name = in.string();
  if (!name) in.fail("a null class name", name_at);
  names.push_back(*name);
  return std::move(*name);
}

std::string required_string(Input& in, const char* field) {
  const std::size_t at = in.pos();
  auto s = in.string();
  if (!s) in.fail(std::string("a null ") + field, at);
  return std::move(*s);
}

std::optional<std::int64_t> nullable_long(Input& in, const char* field) {
  const std::size_t at = in.pos();
  switch (in.byte(field)) {
    case kNullMarker:
      return std::nullopt;
    case kNotNullMarker:
      return in.zigzag_varlong(field);
    default:
      in.fail(std::string("a bad null marker for ") + field, at);
  }
}

void expect_end(const Input& in, std::string_view what) {
  if (!in.at_end()) {
    in.fail(std::to_string(in.bytes().size() - in.pos()) + " bytes after the " + std::string(what),
            in.pos());
  }
}

std::vector<std::string> read_args(Input& in, ClassNames& names) {
  const std::size_t at = in.pos();
  if (in.peek("args") == kNullMarker) {  // a method without parameters: Java's null array
    in.byte("args");
    return {};
  }
  const std::string array_class = read_class_name(in, names, "the args' class");
  if (array_class != kJavaObjectArrayClass) in.fail("args of class " + array_class, at);
  const std::size_t length = in.size_at_most_int(in.varint("args length"), at);
  if (length == 0) return {};
  std::vector<std::string> args;
  args.reserve(std::min(length - 1, in.bytes().size() - in.pos()));
  for (std::size_t i = 0; i + 1 < length; ++i) args.push_back(cut_value(in, names));
  return args;
}

// A Java Throwable in RemoteServiceResponse.error: Kryo5Codec writes it with Java serialization,
// whose end only a full Java deserializer finds. Java sends an error without a result, so the
// message ends with the id (a 32-character hex String, Kryo's ASCII form) and a null result.
RemoteResponse java_error_response(Input& in, const std::string& java_class) {
  const std::string_view bytes = in.bytes();
  constexpr std::size_t kIdSize = 32;
  const std::size_t start = in.pos();
  const auto is_hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  bool found = bytes.size() >= start + kIdSize + 1 && bytes.back() == kNullMarker;
  const std::size_t id_at = found ? bytes.size() - 1 - kIdSize : 0;
  for (std::size_t i = 0; found && i < kIdSize; ++i) {
    char c = bytes[id_at + i];
    if (i + 1 == kIdSize) c = static_cast<char>(static_cast<unsigned char>(c) ^ 0x80);
    found = is_hex(c);
  }
  if (!found) {
    in.fail("a Java " + java_class + " in the error field and no request id after it", start);
  }
  RemoteResponse response;
  response.id = bytes.substr(id_at, kIdSize);
  response.id.back() = static_cast<char>(response.id.back() & 0x7F);
  const auto message = java_throwable_message(bytes.substr(start, id_at - start));
  response.error = java_exception_text(java_class, message.value_or(""));
  in.seek(bytes.size());
  return response;
}

RemoteResponse read_response(Input& in, ClassNames& names) {
  RemoteResponse response;
  const std::size_t at = in.pos();
  switch (in.peek("error")) {
    case kryo5::kNull:
      in.byte("error");
      break;
    case kryo5::kNamed:
      return java_error_response(in, read_class_name(in, names, "the error's class"));
    default: {
      // A registered class: C++ writes the message as a String.
      const auto value = kryo5::read_value_at(in.bytes(), at, names);
      in.seek(at + value.size);
      response.error = value.value.kind() == ValueKind::string
                           ? value.value.text()
                           : "a Java value that is not an exception in the error field";
    }
  }
  response.id = required_string(in, "id");
  if (in.peek("result") == kryo5::kNull) {
    in.byte("result");
  } else {
    response.result = cut_value(in, names);
  }
  return response;
}

}  // namespace

std::string encode_request(const RemoteRequest& request) {
  std::string out;
  ClassNames names;
  kryo5::put_class_header(names, kRemoteRequestClass, out);
  if (request.args.empty()) {
    out += kNullMarker;
  } else {
    kryo5::put_class_header(names, kJavaObjectArrayClass, out);
    kryo5::put_varint(out, static_cast<std::uint32_t>(request.args.size() + 1));
    for (const auto& arg : request.args) splice_value(arg, names, out, "an argument");
  }
  put_long(out, request.date_ms);
  kryo5::put_string(request.executor_id, out);
  kryo5::put_string(request.id, out);
  kryo5::put_string(request.method_name, out);
  out += kNotNullMarker;
  put_nullable_long(out, request.options.ack_timeout_ms);
  put_nullable_long(out, request.options.execution_timeout_ms);
  kryo5::put_varint(out, static_cast<std::uint32_t>(request.signature.size() + 1));
  for (const auto part : request.signature) put_long(out, part);
  return out;
}

RemoteRequest decode_request(std::string_view bytes) {
  Input in(bytes);
  ClassNames names;
  const std::string java_class = read_class_name(in, names, "the message's class");
  if (java_class != kRemoteRequestClass) in.fail("not a RemoteServiceRequest: " + java_class, 0);
  RemoteRequest request;
  request.args = read_args(in, names);
  request.date_ms = in.zigzag_varlong("date");
  request.executor_id = required_string(in, "executorId");
  request.id = required_string(in, "id");
  request.method_name = required_string(in, "methodName");
  const std::size_t options_at = in.pos();
  if (in.byte("options") != kNotNullMarker) in.fail("a request without options", options_at);
  request.options.ack_timeout_ms = nullable_long(in, "ackTimeoutInMillis");
  request.options.execution_timeout_ms = nullable_long(in, "executionTimeoutInMillis");
  const std::size_t signature_at = in.pos();
  if (in.varint("signature length") != request.signature.size() + 1) {
    in.fail("a signature that is not two longs", signature_at);
  }
  for (auto& part : request.signature) part = in.zigzag_varlong("signature");
  expect_end(in, "request");
  return request;
}

std::string encode_ack(const RemoteAck& ack) {
  std::string out;
  ClassNames names;
  kryo5::put_class_header(names, kRemoteAckClass, out);
  kryo5::put_string(ack.id, out);
  return out;
}

std::string encode_response(const RemoteResponse& response, RemoteErrorForm error_form) {
  std::string out;
  ClassNames names;
  kryo5::put_class_header(names, kRemoteResponseClass, out);
  if (response.error && error_form == RemoteErrorForm::java_exception) {
    // What Kryo's JavaSerializer writes after the class; read back by java_error_response.
    if (response.result) fail_encode("a Java exception cannot travel with a result");
    kryo5::put_class_header(names, kJavaRuntimeExceptionClass, out);
    out += java_runtime_exception(*response.error);
  } else if (response.error) {
    out += static_cast<char>(kryo5::kString);
    kryo5::put_string(*response.error, out);
  } else {
    out += static_cast<char>(kryo5::kNull);
  }
  kryo5::put_string(response.id, out);
  if (response.result) {
    splice_value(*response.result, names, out, "the result");
  } else {
    out += static_cast<char>(kryo5::kNull);
  }
  return out;
}

std::string encode_cancel_response(const RemoteCancelResponse& response) {
  std::string out;
  ClassNames names;
  kryo5::put_class_header(names, kRemoteCancelResponseClass, out);
  out += static_cast<char>(response.canceled ? 1 : 0);
  kryo5::put_string(response.id, out);
  return out;
}

RemoteReplyMessage decode_reply(std::string_view bytes) {
  Input in(bytes);
  ClassNames names;
  const std::string java_class = read_class_name(in, names, "the message's class");
  RemoteReplyMessage reply;
  if (java_class == kRemoteAckClass) {
    reply = RemoteAck{required_string(in, "id")};
  } else if (java_class == kRemoteResponseClass) {
    reply = read_response(in, names);
  } else if (java_class == kRemoteCancelResponseClass) {
    RemoteCancelResponse cancel;
    cancel.canceled = in.byte("canceled") == 1;  // Input.readBoolean: only 1 is true
    cancel.id = required_string(in, "id");
    reply = std::move(cancel);
  } else {
    in.fail("not a remote service reply: " + java_class, 0);
  }
  expect_end(in, "reply");
  return reply;
}

}  // namespace redisson::detail::remote_kryo

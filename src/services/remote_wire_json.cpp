// The remote service's messages as JsonJacksonCodec writes them (fixtures remote_json): "@class"
// first, then the properties in name order (SORT_PROPERTIES_ALPHABETICALLY), nulls left out;
// Long fields as ["java.lang.Long",n], args as ["[Ljava.lang.Object;",[...]], the signature as a
// plain array. RemoteInvocationOptions adds its getters ackExpected and resultExpected. Reading
// accepts the members in any order and skips unknown ones, as Jackson does here.
#include <optional>
#include <string>
#include <vector>

#include "codec/json_lexer.hpp"
#include "codec/json_text.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"
#include "services/remote_wire_formats.hpp"

namespace redisson::detail::remote_json {
namespace {

using json::JsonLexer;

constexpr std::string_view kJavaLongClass = "java.lang.Long";

[[noreturn]] void fail_encode(const std::string& what) {
  throw error(errc::codec_error, "json remote message: " + what);
}

void open_message(std::string_view java_class, std::string& out) {
  out += R"({"@class":")";
  out += java_class;
  out += '"';
}

void put_member(std::string_view name, std::string& out) {
  out += ",\"";
  out += name;
  out += "\":";
}

void put_string(std::string_view utf8, std::string& out, const char* field) {
  if (utf::invalid_at(utf8) != std::string_view::npos) {
    fail_encode(std::string(field) + " is not UTF-8");
  }
  append_json_string(utf8, out);
}

void put_long_member(std::string_view name, const std::optional<std::int64_t>& v,
                     std::string& out) {
  if (!v) return;
  put_member(name, out);
  out += "[\"";
  out += kJavaLongClass;
  out += "\",";
  out += std::to_string(*v);
  out += ']';
}

// A value's own JSON text, which must be one value.
void splice_value(std::string_view text, std::string& out, const char* what) {
  JsonLexer lexer(text);
  lexer.skip_value(0);
  lexer.skip_space();
  if (!lexer.at_end()) fail_encode(std::string(what) + " holds more than one JSON value");
  out += text;
}

// Calls on_member(name) with the lexer at each member's value, which it must consume.
template <class OnMember>
void members(JsonLexer& lexer, OnMember&& on_member) {
  lexer.expect('{', "'{'");
  lexer.skip_space();
  if (lexer.peek() == '}') {
    lexer.advance();
    return;
  }
  for (;;) {
    lexer.skip_space();
    if (lexer.peek() != '"') lexer.fail("expected a member name in an object");
    const std::string name = lexer.string();
    lexer.expect(':', "':' after a member name");
    on_member(name);
    lexer.skip_space();
    if (lexer.peek() == '}') break;
    if (lexer.peek() != ',') lexer.fail("expected ',' or '}' in an object");
    lexer.advance();
  }
  lexer.advance();
}

// Consumes a JSON null if one is next.
bool null_next(JsonLexer& lexer) {
  lexer.skip_space();
  if (lexer.peek() != 'n') return false;
  lexer.scalar();
  return true;
}

std::optional<std::string> string_or_null(JsonLexer& lexer, const char* field) {
  lexer.skip_space();
  if (lexer.peek() == '"') return lexer.string();
  if (!null_next(lexer)) lexer.fail(std::string("expected a string for ") + field);
  return std::nullopt;
}

std::string required_string(JsonLexer& lexer, const char* field) {
  auto s = string_or_null(lexer, field);
  if (!s) lexer.fail(std::string("a null ") + field);
  return std::move(*s);
}

std::int64_t integral(JsonLexer& lexer, const char* field) {
  lexer.skip_space();
  const std::size_t at = lexer.pos();
  const Value v = lexer.scalar();
  if (v.kind() != ValueKind::integer && v.kind() != ValueKind::long_int) {
    lexer.fail_at(std::string("expected an integer for ") + field, at);
  }
  return v.int_value();
}

void expect_class(JsonLexer& lexer, std::string_view java_class, const char* what) {
  lexer.skip_space();
  const std::size_t at = lexer.pos();
  const std::string found = required_string(lexer, "@class");
  if (found != java_class) lexer.fail_at(std::string(what) + " of class " + found, at);
}

// A Long property: ["java.lang.Long",n] as written, a plain number or null.
std::optional<std::int64_t> nullable_long(JsonLexer& lexer, const char* field) {
  if (null_next(lexer)) return std::nullopt;
  if (lexer.peek() != '[') return integral(lexer, field);
  lexer.advance();
  expect_class(lexer, kJavaLongClass, field);
  lexer.expect(',', "',' in a typed Long");
  const std::int64_t v = integral(lexer, field);
  lexer.expect(']', "']' after a typed Long");
  return v;
}

std::vector<std::string> read_args(JsonLexer& lexer, std::string_view text) {
  if (null_next(lexer)) return {};  // a method without parameters: Java's null array
  lexer.expect('[', "'[' of args");
  expect_class(lexer, kJavaObjectArrayClass, "args");
  lexer.expect(',', "',' in args");
  lexer.expect('[', "'[' of the args' elements");
  std::vector<std::string> args;
  lexer.skip_space();
  if (lexer.peek() == ']') {
    lexer.advance();
  } else {
    for (;;) {
      lexer.skip_space();
      const std::size_t start = lexer.pos();
      lexer.skip_value(2);
      args.emplace_back(text.substr(start, lexer.pos() - start));
      lexer.skip_space();
      if (lexer.peek() == ']') break;
      if (lexer.peek() != ',') lexer.fail("expected ',' or ']' in args");
      lexer.advance();
    }
    lexer.advance();
  }
  lexer.expect(']', "']' of args");
  return args;
}

RemoteOptions read_options(JsonLexer& lexer) {
  RemoteOptions options{std::nullopt, std::nullopt};
  members(lexer, [&](const std::string& name) {
    if (name == "ackTimeoutInMillis") {
      options.ack_timeout_ms = nullable_long(lexer, "ackTimeoutInMillis");
    } else if (name == "executionTimeoutInMillis") {
      options.execution_timeout_ms = nullable_long(lexer, "executionTimeoutInMillis");
    } else {
      lexer.skip_value(2);  // ackExpected, resultExpected: what the timeouts say
    }
  });
  return options;
}

// Jackson writes a Throwable with Redisson's ThrowableMixIn: its public getters ("@class",
// "message", "cause", "stackTrace", ...). C++ writes the message as a string.
std::optional<std::string> read_error(JsonLexer& lexer) {
  if (null_next(lexer)) return std::nullopt;
  if (lexer.peek() == '"') return lexer.string();
  if (lexer.peek() != '{') {
    lexer.skip_value(1);
    return java_exception_text("", "");
  }
  std::string java_class;
  std::string message;
  members(lexer, [&](const std::string& name) {
    if (name == "@class") {
      java_class = required_string(lexer, "@class");
    } else if (name == "message") {
      message = string_or_null(lexer, "message").value_or("");
    } else {
      lexer.skip_value(2);
    }
  });
  return java_exception_text(java_class, message);
}

void expect_end(JsonLexer& lexer, std::string_view what) {
  lexer.skip_space();
  if (!lexer.at_end()) lexer.fail("bytes after the " + std::string(what));
}

}  // namespace

std::string encode_request(const RemoteRequest& request) {
  std::string out;
  open_message(kRemoteRequestClass, out);
  if (!request.args.empty()) {
    put_member("args", out);
    out += "[\"";
    out += kJavaObjectArrayClass;
    out += "\",[";
    for (std::size_t i = 0; i < request.args.size(); ++i) {
      if (i > 0) out += ',';
      splice_value(request.args[i], out, "an argument");
    }
    out += "]]";
  }
  put_member("date", out);
  out += std::to_string(request.date_ms);
  put_member("executorId", out);
  put_string(request.executor_id, out, "executorId");
  put_member("id", out);
  put_string(request.id, out, "id");
  put_member("methodName", out);
  put_string(request.method_name, out, "methodName");
  const auto& options = request.options;
  put_member("options", out);
  out += "{\"ackExpected\":";
  out += options.ack_timeout_ms ? "true" : "false";
  put_long_member("ackTimeoutInMillis", options.ack_timeout_ms, out);
  put_long_member("executionTimeoutInMillis", options.execution_timeout_ms, out);
  put_member("resultExpected", out);
  out += options.execution_timeout_ms ? "true" : "false";
  out += '}';
  put_member("signature", out);
  out += '[' + std::to_string(request.signature[0]) + ',' + std::to_string(request.signature[1]) +
         "]}";
  return out;
}

RemoteRequest decode_request(std::string_view text) {
  JsonLexer lexer(text);
  RemoteRequest request;
  bool has_class = false;
  bool has_id = false;
  bool has_options = false;
  bool has_signature = false;
  members(lexer, [&](const std::string& name) {
    if (name == "@class") {
      expect_class(lexer, kRemoteRequestClass, "a message");
      has_class = true;
    } else if (name == "args") {
      request.args = read_args(lexer, text);
    } else if (name == "date") {
      request.date_ms = integral(lexer, "date");
    } else if (name == "executorId") {
      request.executor_id = required_string(lexer, "executorId");
    } else if (name == "id") {
      request.id = required_string(lexer, "id");
      has_id = true;
    } else if (name == "methodName") {
      request.method_name = required_string(lexer, "methodName");
    } else if (name == "options") {
      request.options = read_options(lexer);
      has_options = true;
    } else if (name == "signature") {
      lexer.expect('[', "'[' of the signature");
      request.signature[0] = integral(lexer, "signature");
      lexer.expect(',', "two longs in the signature");
      request.signature[1] = integral(lexer, "signature");
      lexer.expect(']', "two longs in the signature");
      has_signature = true;
    } else {
      lexer.skip_value(1);
    }
  });
  expect_end(lexer, "request");
  if (!has_class || !has_id || !has_options || !has_signature) {
    lexer.fail_at("not a RemoteServiceRequest (@class, id, options or signature missing)", 0);
  }
  return request;
}

std::string encode_ack(const RemoteAck& ack) {
  std::string out;
  open_message(kRemoteAckClass, out);
  put_member("id", out);
  put_string(ack.id, out, "id");
  out += '}';
  return out;
}

std::string encode_response(const RemoteResponse& response) {
  std::string out;
  open_message(kRemoteResponseClass, out);
  if (response.error) {
    put_member("error", out);
    put_string(*response.error, out, "error");
  }
  put_member("id", out);
  put_string(response.id, out, "id");
  if (response.result) {
    put_member("result", out);
    splice_value(*response.result, out, "the result");
  }
  out += '}';
  return out;
}

std::string encode_cancel_response(const RemoteCancelResponse& response) {
  std::string out;
  open_message(kRemoteCancelResponseClass, out);
  put_member("canceled", out);
  out += response.canceled ? "true" : "false";
  put_member("id", out);
  put_string(response.id, out, "id");
  out += '}';
  return out;
}

RemoteReplyMessage decode_reply(std::string_view text) {
  JsonLexer lexer(text);
  std::string java_class;
  std::optional<std::string> id;
  std::optional<std::string> result;
  std::optional<std::string> error;
  bool canceled = false;
  members(lexer, [&](const std::string& name) {
    if (name == "@class") {
      java_class = required_string(lexer, "@class");
    } else if (name == "id") {
      id = required_string(lexer, "id");
    } else if (name == "result") {
      if (null_next(lexer)) return;
      const std::size_t start = lexer.pos();
      lexer.skip_value(1);
      result.emplace(text.substr(start, lexer.pos() - start));
    } else if (name == "error") {
      error = read_error(lexer);
    } else if (name == "canceled") {
      lexer.skip_space();
      const std::size_t at = lexer.pos();
      const Value v = lexer.scalar();
      if (v.kind() != ValueKind::boolean) lexer.fail_at("expected a boolean for canceled", at);
      canceled = v.bool_value();
    } else {
      lexer.skip_value(1);
    }
  });
  expect_end(lexer, "reply");
  if (!id) lexer.fail_at("a remote service reply without id", 0);
  if (java_class == kRemoteAckClass) return RemoteAck{std::move(*id)};
  if (java_class == kRemoteResponseClass) {
    return RemoteResponse{std::move(*id), std::move(result), std::move(error)};
  }
  if (java_class == kRemoteCancelResponseClass)
    return RemoteCancelResponse{std::move(*id), canceled};
  lexer.fail_at("not a remote service reply: " + (java_class.empty() ? "no @class" : java_class),
                0);
}

}  // namespace redisson::detail::remote_json

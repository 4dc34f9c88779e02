// The remote service's messages against the bytes Java Redisson 3.52 wrote
// (tests/fixtures/redisson-3.52/services/cases.jsonl, cases remote_kryo and remote_json): every
// encoding sample byte-exact both ways, the method signatures, a request as Java stored it, and
// damaged bytes.
#include "services/remote_wire.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../codec/codec_test_util.hpp"
#include "codec/java_serialization.hpp"
#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace unit_services_remote_wire_test {

using codec_test::expect_codec_error;
using codec_test::hex;
using codec_test::unhex;
using redisson::Value;
using namespace redisson::detail;
namespace codecs = redisson::codecs;

const std::string kCases = REDISSON_SOURCE_DIR "/tests/fixtures/redisson-3.52/services/cases.jsonl";
constexpr std::string_view kSampleId = "0123456789abcdef0123456789abcdef";
constexpr std::int64_t kSampleDate = 1700000000000;

nlohmann::json fixture_case(const std::string& name) {
  std::ifstream in(kCases);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto row = nlohmann::json::parse(line);
    if (row.value("case", "") == name) return row;
  }
  ADD_FAILURE() << "no case " << name << " in " << kCases;
  return {};
}

struct WireCase {
  const char* fixture;
  RemoteWire wire;
  redisson::CodecPtr codec;
};

std::vector<WireCase> wire_cases() {
  return {{"remote_kryo", RemoteWire::kryo5, codecs::kryo5()},
          {"remote_json", RemoteWire::json, codecs::json()}};
}

std::array<std::int64_t, 2> signature_of(const nlohmann::json& row, const std::string& method) {
  const auto& s = row.at("method_signatures").at(method);
  return {s.at(0).get<std::int64_t>(), s.at(1).get<std::int64_t>()};
}

std::string sample(const nlohmann::json& row, const std::string& key) {
  return unhex(row.at("encoding_samples").at(key).get<std::string>());
}

RemoteRequest sample_request(const redisson::Codec& codec, std::string method,
                             std::array<std::int64_t, 2> signature, std::vector<Value> args,
                             RemoteOptions options) {
  RemoteRequest request;
  request.id = kSampleId;
  request.executor_id = "E";
  request.method_name = std::move(method);
  for (const auto& arg : args) request.args.push_back(codec.encode(arg));
  request.signature = signature;
  request.options = options;
  request.date_ms = kSampleDate;
  return request;
}

RemoteResponse response_of(RemoteReplyMessage reply) {
  auto* response = std::get_if<RemoteResponse>(&reply);
  EXPECT_NE(response, nullptr) << "not a RemoteResponse";
  return response ? *response : RemoteResponse{};
}

}  // namespace unit_services_remote_wire_test

namespace redisson::detail {
// Readable failures.
void PrintTo(const RemoteResponse& r, std::ostream* os) {
  *os << "{id " << r.id << ", result " << (r.result ? codec_test::hex(*r.result) : "null")
      << ", error " << r.error.value_or("null") << "}";
}
}  // namespace redisson::detail

namespace unit_services_remote_wire_test {

TEST(RemoteWire, EveryJavaRequestSampleEncodesByteExactAndDecodesBack) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const auto row = fixture_case(fixture);
    const RemoteOptions no_ack{std::nullopt, 30000};
    const RemoteOptions no_ack_no_result{std::nullopt, std::nullopt};
    const std::vector<std::pair<std::string, RemoteRequest>> expected = {
        {R"(RemoteServiceRequest(executorId="E", id=sid, "add", sig(int,int), [2, 3], defaults(), 1700000000000L))",
         sample_request(*codec, "add", signature_of(row, "add(int,int)"),
                        {Value::integer(2), Value::integer(3)}, RemoteOptions{})},
        {R"(RemoteServiceRequest(executorId="E", id=sid, "echo", sig(String), ["hi"], defaults().noAck(), 1700000000000L))",
         sample_request(*codec, "echo", signature_of(row, "echo(String)"), {Value::string("hi")},
                        no_ack)},
        {R"(RemoteServiceRequest(executorId="E", id=sid, "fire", sig(String), ["ff2"], defaults().noAck().noResult(), 1700000000000L))",
         sample_request(*codec, "fire", signature_of(row, "fire(String)"), {Value::string("ff2")},
                        no_ack_no_result)},
    };
    for (const auto& [key, request] : expected) {
      SCOPED_TRACE(key);
      const std::string bytes = sample(row, key);
      EXPECT_EQ(hex(encode_remote_request(wire, request)), hex(bytes));
      EXPECT_EQ(decode_remote_request(wire, bytes), request);
    }
  }
}

TEST(RemoteWire, EveryJavaAckAndResponseSampleEncodesByteExactAndDecodesBack) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const auto row = fixture_case(fixture);
    const std::string id(kSampleId);
    const std::string ack = sample(row, "RemoteServiceAck(sid)");
    EXPECT_EQ(hex(encode_remote_ack(wire, RemoteAck{id})), hex(ack));
    EXPECT_EQ(std::get<RemoteAck>(decode_remote_reply(wire, ack)), RemoteAck{id});

    const std::vector<std::pair<std::string, RemoteResponse>> expected = {
        {"RemoteServiceResponse(sid, 5)", {id, codec->encode(Value::integer(5)), std::nullopt}},
        {R"(RemoteServiceResponse(sid, "hi"))",
         {id, codec->encode(Value::string("hi")), std::nullopt}},
        {"RemoteServiceResponse(sid, null)", {id, std::nullopt, std::nullopt}},
    };
    for (const auto& [key, response] : expected) {
      SCOPED_TRACE(key);
      const std::string bytes = sample(row, key);
      EXPECT_EQ(hex(encode_remote_response(wire, response)), hex(bytes));
      EXPECT_EQ(response_of(decode_remote_reply(wire, bytes)), response);
    }
  }
}

TEST(RemoteWire, MethodSignaturesAreJavasHighwayHashOfTheParameterTypes) {
  const auto row = fixture_case("remote_kryo");
  EXPECT_EQ(remote_method_signature("intint"), signature_of(row, "add(int,int)"));
  EXPECT_EQ(remote_method_signature("java.lang.String"), signature_of(row, "echo(String)"));
}

TEST(RemoteWire, RequestJavaQueuedForAWorkerDecodesAndEncodesToTheSameBytes) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const auto row = fixture_case(fixture);
    const auto& tasks = row.at("state_queued_no_worker").at(1);
    ASSERT_EQ(tasks.at("type"), "hash");
    const auto& entry = tasks.at("content").at(0);
    const std::string bytes = unhex(entry.at(1).at("hex").get<std::string>());

    const RemoteRequest request = decode_remote_request(wire, bytes);
    EXPECT_EQ(request.id, entry.at(0).at("text").get<std::string>());
    EXPECT_EQ(request.executor_id, row.at("executor_id").get<std::string>());
    EXPECT_EQ(request.method_name, "fire");
    ASSERT_EQ(request.args.size(), 1U);
    EXPECT_EQ(hex(request.args[0]), row.at("encoded_hex").at("queued").get<std::string>());
    EXPECT_EQ(codec->decode(request.args[0]), Value::string("queued"));
    EXPECT_EQ(request.signature, signature_of(row, "fire(String)"));
    EXPECT_EQ(request.options, (RemoteOptions{std::nullopt, std::nullopt}));
    EXPECT_GT(request.date_ms, 1700000000000);
    EXPECT_EQ(hex(encode_remote_request(wire, request)), hex(bytes));
  }
}

TEST(RemoteWire, ArgumentsAndResultsWithJavaClassNamesAreRenumberedInTheMessage) {
  const auto& kryo = *codecs::kryo5();
  const Value list = Value::list({Value::integer(1), Value::integer(2)});
  const Value bytes = Value::bytes_from("\x01\x02");
  RemoteRequest request = sample_request(kryo, "put", {1, -1}, {list, bytes, list}, {});
  const std::string message = encode_remote_request(RemoteWire::kryo5, request);
  // Names 0 and 1 are the request and Object[]: the list is 2, byte[] 3, the second list refers
  // back to 2 without its name.
  const std::string list_body = kryo.encode(list).substr(2 + 19);
  EXPECT_NE(hex(message).find(hex(std::string("\x01\x02java.util.ArrayLis\xf4", 21) + list_body +
                                  "\x01\x03[\xc2" + kryo.encode(bytes).substr(4) + "\x01\x02" +
                                  list_body)),
            std::string::npos)
      << hex(message);
  EXPECT_EQ(decode_remote_request(RemoteWire::kryo5, message), request);

  const RemoteResponse response{std::string(kSampleId), kryo.encode(list), std::nullopt};
  const std::string reply = encode_remote_response(RemoteWire::kryo5, response);
  EXPECT_NE(hex(reply).find(hex(std::string("\x01\x01java.util.ArrayLis\xf4", 21))),
            std::string::npos);
  EXPECT_EQ(response_of(decode_remote_reply(RemoteWire::kryo5, reply)), response);
}

TEST(RemoteWire, NoArgumentsTravelAsJavasNullArray) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const RemoteRequest request =
        sample_request(*codec, "ping", remote_method_signature(""), {}, {});
    const std::string message = encode_remote_request(wire, request);
    if (wire == RemoteWire::kryo5) {
      EXPECT_EQ(message.at(42), '\0');  // after 01 00 and the 40-character class name
    } else {
      EXPECT_EQ(message.find("\"args\""), std::string::npos);
    }
    EXPECT_EQ(decode_remote_request(wire, message), request);
  }
}

TEST(RemoteWire, ResponseWithAStringErrorRoundTrips) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const RemoteResponse failed{std::string(kSampleId), std::nullopt, "division by zero: \"é\""};
    EXPECT_EQ(response_of(decode_remote_reply(wire, encode_remote_response(wire, failed))), failed);
    const RemoteResponse both{std::string(kSampleId), codec->encode(Value::long_int(1)), "late"};
    EXPECT_EQ(response_of(decode_remote_reply(wire, encode_remote_response(wire, both))), both);
  }
  EXPECT_EQ(hex(encode_remote_response(RemoteWire::kryo5, {std::string(kSampleId), {}, "no"})),
            "01006f72672e7265646973736f6e2e72656d6f74652e52656d6f746553657276696365526573706f6e73"
            "e5"
            "036eef"
            "30313233343536373839616263646566303132333435363738396162636465e6"
            "00");
}

TEST(RemoteWire, JavaExceptionInAResponseReadsAsItsClassAndMessage) {
  // As Java's Kryo writes RemoteServiceResponse(sid, new RuntimeException("boom é")): the class
  // by name, then Java serialization (java_serialization_test: byte-exact with the JDK).
  std::string id_ascii(kSampleId);  // Kryo's ASCII String: the last byte flagged
  id_ascii.back() = static_cast<char>(id_ascii.back() | 0x80);
  const std::string kryo_reply =
      unhex(
          "01006f72672e7265646973736f6e2e72656d6f74652e52656d6f746553657276696365526573706f6e73e5"
          "0101") +
      "java.lang.RuntimeExceptio\xee" + java_runtime_exception("boom é") + id_ascii + '\0';
  const RemoteResponse expected{std::string(kSampleId), std::nullopt,
                                "a Java exception (java.lang.RuntimeException): boom é"};
  EXPECT_EQ(response_of(decode_remote_reply(RemoteWire::kryo5, kryo_reply)), expected);

  // Jackson with Redisson's ThrowableMixIn: the public getters.
  const std::string json_reply =
      R"({"@class":"org.redisson.remote.RemoteServiceResponse","error":{"@class":"java.lang.RuntimeException","@id":1,"cause":null,"localizedMessage":"boom é","message":"boom é","stackTrace":["[Ljava.lang.StackTraceElement;",[]],"suppressed":["[Ljava.lang.Throwable;",[]]},"id":"0123456789abcdef0123456789abcdef"})";
  EXPECT_EQ(response_of(decode_remote_reply(RemoteWire::json, json_reply)), expected);
}

TEST(RemoteWire, ErrorAsAJavaExceptionIsWhatJavasKryoWrites) {
  const RemoteResponse failed{std::string(kSampleId), std::nullopt, "boom é"};
  const std::string bytes =
      encode_remote_response(RemoteWire::kryo5, failed, RemoteErrorForm::java_exception);
  std::string id_ascii(kSampleId);
  id_ascii.back() = static_cast<char>(id_ascii.back() | 0x80);
  EXPECT_EQ(
      hex(bytes),
      hex(unhex("01006f72672e7265646973736f6e2e72656d6f74652e52656d6f7465536572766963655265"
                "73706f6e73e50101") +
          "java.lang.RuntimeExceptio\xee" + java_runtime_exception("boom é") + id_ascii + '\0'));
  EXPECT_EQ(response_of(decode_remote_reply(RemoteWire::kryo5, bytes)).error,
            "a Java exception (java.lang.RuntimeException): boom é");
  // JSON keeps the string.
  EXPECT_EQ(encode_remote_response(RemoteWire::json, failed, RemoteErrorForm::java_exception),
            encode_remote_response(RemoteWire::json, failed));
  const RemoteResponse both{std::string(kSampleId), codecs::kryo5()->encode(Value::integer(1)),
                            "x"};
  expect_codec_error(
      [&] { encode_remote_response(RemoteWire::kryo5, both, RemoteErrorForm::java_exception); },
      "with a result");
}

TEST(RemoteWire, CancelResponseRoundTrips) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    for (const bool canceled : {true, false}) {
      const RemoteCancelResponse cancel{std::string(kSampleId), canceled};
      const auto reply = decode_remote_reply(wire, encode_remote_cancel_response(wire, cancel));
      EXPECT_EQ(std::get<RemoteCancelResponse>(reply), cancel);
    }
  }
}

TEST(RemoteWire, DamagedBytesAreACodecErrorNeverACrash) {
  for (const auto& [fixture, wire, codec] : wire_cases()) {
    SCOPED_TRACE(fixture);
    const auto row = fixture_case(fixture);
    for (const auto& [key, value] : row.at("encoding_samples").items()) {
      SCOPED_TRACE(key);
      const std::string bytes = unhex(value.get<std::string>());
      const bool is_request = key.starts_with("RemoteServiceRequest");
      const auto decode = [&](std::string_view b) {
        if (is_request) {
          decode_remote_request(wire, b);
        } else {
          decode_remote_reply(wire, b);
        }
      };
      for (std::size_t size = 0; size < bytes.size(); ++size) {
        expect_codec_error([&] { decode(std::string_view(bytes).substr(0, size)); }, "");
      }
      // A flipped byte either still reads or is a codec_error.
      for (std::size_t at = 0; at < bytes.size(); ++at) {
        std::string flipped = bytes;
        flipped[at] = static_cast<char>(flipped[at] ^ 0x5A);
        try {
          decode(flipped);
        } catch (const redisson::error& e) {
          EXPECT_EQ(e.code(), redisson::errc::codec_error) << e.what();
        }
      }
      // A request is not a reply and a reply is not a request.
      expect_codec_error(
          [&] {
            if (is_request) {
              decode_remote_reply(wire, bytes);
            } else {
              decode_remote_request(wire, bytes);
            }
          },
          "");
    }
  }
  std::string renamed = unhex(fixture_case("remote_kryo")
                                  .at("encoding_samples")
                                  .at("RemoteServiceAck(sid)")
                                  .get<std::string>());
  renamed[22] = 'X';  // org.redisson.remote.XemoteServiceAck
  expect_codec_error([&] { decode_remote_reply(RemoteWire::kryo5, renamed); },
                     "not a remote service reply: org.redisson.remote.XemoteServiceAck");
  expect_codec_error(
      [] {
        decode_remote_reply(RemoteWire::json, R"({"@class":"org.redisson.remote.Other","id":"x"})");
      },
      "not a remote service reply");
}

TEST(RemoteWire, ArgumentThatIsNotOneValueIsRefused) {
  RemoteRequest request = sample_request(*codecs::kryo5(), "add", {}, {}, {});
  request.args = {std::string("\x02\x04\x02", 3)};
  expect_codec_error([&] { encode_remote_request(RemoteWire::kryo5, request); },
                     "bytes after its value");
  request.args = {"2 3"};
  expect_codec_error([&] { encode_remote_request(RemoteWire::json, request); },
                     "more than one JSON value");
}

TEST(RemoteWire, OnlyTheKryo5AndJsonCodecsCarryRemoteMessages) {
  EXPECT_EQ(remote_wire_of(*codecs::kryo5()), RemoteWire::kryo5);
  EXPECT_EQ(remote_wire_of(*codecs::json()), RemoteWire::json);
  try {
    remote_wire_of(*codecs::string());
    ADD_FAILURE() << "no error for the string codec";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("kryo5 or json codec"), std::string::npos) << e.what();
  }
}

}  // namespace unit_services_remote_wire_test

// Every codec vector Java Redisson 3.52 produced (tests/fixtures/redisson-3.52): cases.jsonl
// lines with `encoded_hex`, and the topic payloads in messages.jsonl. Each value is encoded with
// the case's codec (byte-exact) and the bytes decoded back.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "codec_test_util.hpp"
#include "redisson/codec.hpp"

namespace unit_codec_fixture_cases_test {

namespace {

using codec_test::hex;
using codec_test::unhex;
using redisson::CodecPtr;
using redisson::Value;
using redisson::ValueKind;
namespace codecs = redisson::codecs;

const std::string kFixtures = REDISSON_SOURCE_DIR "/tests/fixtures/redisson-3.52/";

std::vector<nlohmann::json> read_lines(const std::string& file) {
  std::ifstream in(kFixtures + file);
  std::vector<nlohmann::json> lines;
  if (!in) return lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

CodecPtr codec_for(const std::string& java_codec) {
  if (java_codec.starts_with("Kryo5Codec")) return codecs::kryo5();
  if (java_codec.starts_with("JsonJacksonCodec")) return codecs::json();
  if (java_codec.starts_with("TypedJsonJacksonCodec")) return codecs::typed_json();
  if (java_codec.starts_with("StringCodec")) return codecs::string();
  if (java_codec.starts_with("LongCodec")) return codecs::long_text();
  if (java_codec.starts_with("IntegerCodec")) return codecs::integer_text();
  if (java_codec.starts_with("DoubleCodec")) return codecs::double_text();
  if (java_codec.starts_with("ByteArrayCodec")) return codecs::bytes();
  return nullptr;
}

// A scalar of Java type `java_type` from its fixture JSON.
Value scalar(const nlohmann::json& v, const std::string& java_type) {
  if (java_type == "[B") return Value::bytes_from(unhex(v.at("bytes_hex").get<std::string>()));
  if (java_type == "java.lang.String") return Value::string(v.get<std::string>());
  if (java_type == "java.lang.Integer") return Value::integer(v.get<std::int32_t>());
  if (java_type == "java.lang.Long") return Value::long_int(v.get<std::int64_t>());
  if (java_type == "java.lang.Double") return Value::double_num(v.get<double>());
  if (java_type == "java.lang.Boolean") return Value::boolean(v.get<bool>());
  ADD_FAILURE() << "fixture type not handled: " << java_type;
  return {};
}

std::vector<std::string> split_types(const std::string& inner, char separator) {
  std::vector<std::string> parts;
  std::string part;
  for (const char c : inner) {
    if (c == separator) {
      parts.push_back(part);
      part.clear();
    } else if (c != ' ') {
      part += c;
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// value_java: "java.lang.Long", "java.util.ArrayList[java.lang.String, java.lang.Long]",
// "java.util.HashMap{java.lang.String=java.lang.Long}".
Value from_fixture(const nlohmann::json& v, const std::string& value_java) {
  const auto bracket = value_java.find_first_of("[{", 1);
  if (bracket == std::string::npos) return scalar(v, value_java);
  const std::string java_class = value_java.substr(0, bracket);
  const std::string inner = value_java.substr(bracket + 1, value_java.size() - bracket - 2);
  if (value_java[bracket] == '[') {
    const auto types = split_types(inner, ',');
    Value::List elements;
    for (std::size_t i = 0; i < v.size(); ++i) elements.push_back(scalar(v[i], types.at(i)));
    return Value::list(std::move(elements), java_class);
  }
  Value::Entries entries;
  std::size_t i = 0;
  for (const auto& [key, entry] : v.items()) {
    const auto pair = split_types(split_types(inner, ',').at(i++), '=');
    entries.emplace_back(scalar(key, pair.at(0)), scalar(entry, pair.at(1)));
  }
  return Value::map(std::move(entries), java_class);
}

// What decoding gives back: the value, except where Java reads it as something else (readback):
// JsonJacksonCodec reads byte[] as its Base64 String, StringCodec reads a String.
Value expected_decoded(const nlohmann::json& c, const Value& written) {
  const auto& readback = c.at("readback");
  if (readback.is_string() && written.kind() != ValueKind::string) {
    return Value::string(readback.get<std::string>());
  }
  return written;
}

TEST(FixtureCodecCases, EveryJavaCodecVectorEncodesByteExactAndDecodesBack) {
  const auto cases = read_lines("cases.jsonl");
  ASSERT_FALSE(cases.empty()) << "cannot read " << kFixtures << "cases.jsonl";
  int checked = 0;
  for (const auto& c : cases) {
    if (!c.contains("encoded_hex") || !c.at("encoded_hex").is_string()) continue;
    const std::string name = c.at("case").get<std::string>();
    SCOPED_TRACE(name);
    const CodecPtr codec = codec_for(c.at("codec").get<std::string>());
    ASSERT_TRUE(codec) << "no codec for " << c.at("codec");
    const Value value = from_fixture(c.at("value"), c.at("value_java").get<std::string>());
    const std::string bytes = unhex(c.at("encoded_hex").get<std::string>());

    EXPECT_EQ(hex(codec->encode(value)), hex(bytes)) << "encode";
    const Value decoded = codec->decode(bytes);
    const Value expected = expected_decoded(c, value);
    if (codec->name() == "typed_json") {
      // Plain JSON carries no Java type: a Long comes back as an Integer, a HashMap as a
      // LinkedHashMap. The JSON shape is what must match.
      EXPECT_EQ(decoded.to_display_json(), expected.to_display_json()) << "decode";
    } else {
      EXPECT_EQ(decoded, expected) << "decode: " << decoded.to_display_json();
    }
    ++checked;
  }
  EXPECT_GE(checked, 50) << "fewer codec vectors than the fixtures hold";
}

TEST(FixtureCodecCases, TopicPayloadsAreTheCodecBytesOfEachMessage) {
  const auto messages = read_lines("messages.jsonl");
  ASSERT_FALSE(messages.empty()) << "cannot read " << kFixtures << "messages.jsonl";
  // The topic cases published "hello" and 7L, with Kryo5Codec and StringCodec.
  const std::vector<Value> published{Value::string("hello"), Value::long_int(7)};
  int checked = 0;
  for (const auto& m : messages) {
    const std::string name = m.at("case").get<std::string>();
    if (name != "topic_kryo" && name != "topic_string") continue;
    SCOPED_TRACE(name + ": " + m.at("step").get<std::string>());
    const CodecPtr codec = name == "topic_kryo" ? codecs::kryo5() : codecs::string();
    const Value& value = published.at(static_cast<std::size_t>(checked % 2));
    const std::string bytes = unhex(m.at("hex").get<std::string>());
    EXPECT_EQ(hex(codec->encode(value)), hex(bytes));
    if (name == "topic_kryo") {
      EXPECT_EQ(codec->decode(bytes), value);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

}  // namespace

}  // namespace unit_codec_fixture_cases_test

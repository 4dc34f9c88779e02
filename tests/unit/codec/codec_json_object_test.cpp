// codec_json_object.hpp: a struct with nlohmann to_json/from_json and a Java class name stored
// through the json and typed_json codecs, like OBJECTS.md's Jackson POJO example.
#include "redisson/codec_json_object.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec_test_util.hpp"
#include "redisson/codec.hpp"

namespace example {

// The Java side: class Person { String name; int age; long id; Long boxed; Object any;
// List<String> tags; }
struct Person {
  std::string name;
  int age = 0;
  std::int64_t id = 0;
  std::int64_t boxed = 0;
  std::int64_t any = 0;
  std::vector<std::string> tags;
  bool operator==(const Person&) const = default;
};

void to_json(nlohmann::json& j, const Person& p) {
  j = {{"name", p.name},
       {"age", p.age},
       {"id", p.id},
       {"boxed", redisson::java_long(p.boxed)},
       {"any", redisson::java_long(p.any)},
       {"tags", p.tags}};
}

void from_json(const nlohmann::json& j, Person& p) {
  j.at("name").get_to(p.name);
  j.at("age").get_to(p.age);
  j.at("id").get_to(p.id);
  j.at("boxed").get_to(p.boxed);
  j.at("any").get_to(p.any);
  p.tags = j.value("tags", std::vector<std::string>{});
}

struct Address {
  std::string city;
  bool operator==(const Address&) const = default;
};
void to_json(nlohmann::json& j, const Address& a) { j = {{"city", a.city}}; }
void from_json(const nlohmann::json& j, Address& a) { j.at("city").get_to(a.city); }

struct Customer {
  std::string name;
  Address home;  // a final class field: no "@class"
  Address work;  // a non-final field: with "@class"
  bool operator==(const Customer&) const = default;
};
void to_json(nlohmann::json& j, const Customer& c) {
  j = {{"name", c.name}, {"home", c.home}, {"work", redisson::with_java_class(c.work)}};
}
void from_json(const nlohmann::json& j, Customer& c) {
  j.at("name").get_to(c.name);
  j.at("home").get_to(c.home);
  j.at("work").get_to(c.work);
}

}  // namespace example

template <>
struct redisson::JavaClass<example::Person> {
  static constexpr std::string_view name = "pkg.Person";
};
template <>
struct redisson::JavaClass<example::Address> {
  static constexpr std::string_view name = "pkg.Address";
};
template <>
struct redisson::JavaClass<example::Customer> {
  static constexpr std::string_view name = "pkg.Customer";
};

namespace unit_codec_codec_json_object_test {

using codec_test::expect_codec_error;
using example::Person;

static_assert(redisson::JavaValue<Person>);

const Person kBob{"Bob", 42, 7, 5, 9, {"x"}};

TEST(CodecJsonObject, WritesTheJacksonPojoBytesOfObjectsMd) {
  const auto codec = redisson::codecs::json();
  const std::string text = codec->encode(redisson::to_value(kBob));
  EXPECT_EQ(
      text,
      R"({"@class":"pkg.Person","age":42,"any":["java.lang.Long",9],"boxed":["java.lang.Long",5],)"
      R"("id":7,"name":"Bob","tags":["java.util.ArrayList",["x"]]})");
  EXPECT_EQ(redisson::from_value<Person>(codec->decode(text)), kBob);
}

TEST(CodecJsonObject, TypedJsonWritesPlainJsonAndReadsItBack) {
  const auto codec = redisson::codecs::typed_json();
  const std::string text = codec->encode(redisson::to_value(kBob));
  EXPECT_EQ(text, R"({"age":42,"any":9,"boxed":5,"id":7,"name":"Bob","tags":["x"]})");
  EXPECT_EQ(redisson::from_value<Person>(codec->decode(text)), kBob);
}

TEST(CodecJsonObject, NestedStructsWithAndWithoutTheirClass) {
  const example::Customer customer{"Ann", {"Oslo"}, {"Bergen"}};
  const auto codec = redisson::codecs::json();
  const std::string text = codec->encode(redisson::to_value(customer));
  EXPECT_EQ(text, R"({"@class":"pkg.Customer","home":{"city":"Oslo"},"name":"Ann",)"
                  R"("work":{"@class":"pkg.Address","city":"Bergen"}})");
  EXPECT_EQ(redisson::from_value<example::Customer>(codec->decode(text)), customer);
}

TEST(CodecJsonObject, Kryo5CannotStoreIt) {
  expect_codec_error([] { redisson::codecs::kryo5()->encode(redisson::to_value(kBob)); },
                     "cannot write pkg.Person: use the json codec");
}

TEST(CodecJsonObject, ReadingAnotherClassOrAMissingFieldIsACodecError) {
  const auto codec = redisson::codecs::json();
  expect_codec_error(
      [&] { redisson::from_value<Person>(codec->decode(R"({"@class":"pkg.Other","name":"x"})")); },
      "expected pkg.Person, found pkg.Other");
  expect_codec_error(
      [&] { redisson::from_value<Person>(codec->decode(R"({"@class":"pkg.Person","name":"x"})")); },
      "pkg.Person: from_json failed");
  expect_codec_error([&] { redisson::from_value<Person>(redisson::Value::string("x")); },
                     "expected pkg.Person, found String");
}

}  // namespace unit_codec_codec_json_object_test

// json (JsonJacksonCodec) and typed_json (TypedJsonJacksonCodec): the examples of OBJECTS.md
// §1.2 both ways, Jackson's reading rules, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "codec_test_util.hpp"
#include "redisson/codec.hpp"

namespace unit_codec_json_codec_test {

namespace {

using codec_test::expect_codec_error;
using redisson::Value;

const redisson::Codec& json() {
  static const auto codec = redisson::codecs::json();
  return *codec;
}
const redisson::Codec& typed() {
  static const auto codec = redisson::codecs::typed_json();
  return *codec;
}

void expect_both_ways(const redisson::Codec& codec, const Value& value, std::string_view text) {
  SCOPED_TRACE(std::string(text));
  EXPECT_EQ(codec.encode(value), text);
  EXPECT_EQ(codec.decode(text), value) << codec.decode(text).to_display_json();
}

Value person() {
  return Value::object("pkg.Person", {{Value::string("name"), Value::string("Bob")},
                                      {Value::string("id"), Value::integer(7)},
                                      {Value::string("tags"), Value::list({Value::string("x")})},
                                      {Value::string("boxed"), Value::long_int(5)},
                                      {Value::string("age"), Value::integer(42)},
                                      {Value::string("any"), Value::long_int(9)}});
}

TEST(JsonCodec, ObjectsMdEncodeExamples) {
  expect_both_ways(json(), Value::string("hello"), R"("hello")");
  expect_both_ways(json(), Value::integer(1), "1");
  expect_both_ways(json(), Value::boolean(true), "true");
  expect_both_ways(json(), Value::long_int(1), R"(["java.lang.Long",1])");
  expect_both_ways(json(), Value::double_num(1.5), "1.5");
  expect_both_ways(json(), Value::double_num(1.0), "1.0");
  EXPECT_EQ(json().encode(Value::bytes_from("\x01\x02\x03")), R"("AQID")");
  EXPECT_EQ(json().decode(R"("AQID")"), Value::string("AQID"));  // Java reads a String
  expect_both_ways(json(), Value::list({Value::string("a"), Value::long_int(1), Value::integer(2)}),
                   R"(["java.util.ArrayList",["a",["java.lang.Long",1],2]])");
  expect_both_ways(json(), Value::map({{Value::string("k"), Value::string("v")}}),
                   R"({"@class":"java.util.HashMap","k":"v"})");
}

TEST(JsonCodec, ObjectsMdPojoExampleHasSortedFieldsAndTypedLongs) {
  const std::string text =
      R"({"@class":"pkg.Person","age":42,"any":["java.lang.Long",9],"boxed":["java.lang.Long",5],)"
      R"("id":7,"name":"Bob","tags":["java.util.ArrayList",["x"]]})";
  EXPECT_EQ(json().encode(person()), text);
  const Value read = json().decode(text);
  EXPECT_EQ(read.java_class(), "pkg.Person");
  EXPECT_EQ(json().encode(read), text);
  ASSERT_EQ(read.entries().size(), 6U);
  EXPECT_EQ(read.entries()[1].second, Value::long_int(9));
}

TEST(JsonCodec, ObjectsMdDecodingWithTargetObject) {
  EXPECT_EQ(json().decode("5"), Value::integer(5));
  EXPECT_EQ(json().decode("5000000000"), Value::long_int(5000000000));
  EXPECT_EQ(json().decode("-2147483648"), Value::integer(INT32_MIN));
  EXPECT_EQ(json().decode("1.5"), Value::double_num(1.5));
  EXPECT_EQ(json().decode("1e2"), Value::double_num(100.0));
  EXPECT_EQ(json().decode(R"("s")"), Value::string("s"));
  EXPECT_EQ(json().decode(R"(["java.lang.Integer",5])"), Value::integer(5));
  EXPECT_EQ(json().decode("null"), Value{});
  expect_codec_error([] { json().decode(R"(["a","b"])"); }, "cannot read Java class a");
  expect_codec_error([] { json().decode("[1,2]"); }, "an array without a type");
  expect_codec_error([] { json().decode(R"({"k":"v"})"); }, "an object without \"@class\"");
  // Map keys come back as String.
  EXPECT_EQ(json().decode(R"({"@class":"java.util.HashMap","1":["java.lang.Long",2]})"),
            Value::map({{Value::string("1"), Value::long_int(2)}}));
}

TEST(JsonCodec, EveryTypeWrapperJacksonReads) {
  EXPECT_EQ(json().decode(R"(["java.lang.Short",-3])"), Value::short_int(-3));
  EXPECT_EQ(json().decode(R"(["java.lang.Byte",7])"), Value::byte(7));
  EXPECT_EQ(json().decode(R"(["java.lang.Double",2])"), Value::double_num(2.0));
  EXPECT_EQ(json().decode(R"(["java.lang.Float",0.5])"), Value::float_num(0.5F));
  EXPECT_EQ(json().decode(R"(["java.lang.Boolean",false])"), Value::boolean(false));
  EXPECT_EQ(json().decode(R"(["java.lang.String","s"])"), Value::string("s"));
  EXPECT_EQ(json().decode(R"(["java.lang.Character","c"])"), Value::character(u'c'));
  EXPECT_EQ(json().decode(R"(["[B","AQID"])"), Value::bytes_from("\x01\x02\x03"));
  EXPECT_EQ(json().decode(R"(["java.util.HashSet",["a"]])"), Value::set({Value::string("a")}));
  EXPECT_EQ(json().decode(R"(["java.util.LinkedList",[]])"),
            Value::list({}, "java.util.LinkedList"));
  expect_codec_error([] { json().decode(R"(["java.lang.Byte",300])"); },
                     "does not fit java.lang.Byte");
  expect_codec_error([] { json().decode(R"(["java.lang.Long",1.5])"); },
                     "does not fit java.lang.Long");
  expect_codec_error([] { json().decode(R"(["java.lang.Long",1,2])"); },
                     "closing the type wrapper");
  expect_codec_error([] { json().decode(R"(["java.util.Date",1])"); },
                     "cannot read Java class java.util.Date");
}

TEST(JsonCodec, ClassAnywhereInTheObject) {
  EXPECT_EQ(json().decode(R"({ "k" : "v" , "@class" : "java.util.HashMap" })"),
            Value::map({{Value::string("k"), Value::string("v")}}));
  const Value pojo = json().decode(R"({"name":"Bob","@class":"pkg.Person"})");
  EXPECT_EQ(pojo, Value::object("pkg.Person", {{Value::string("name"), Value::string("Bob")}}));
}

TEST(JsonCodec, FieldsOfAnObjectAreReadByTheirDeclaredClasses) {
  // String[] / int[] fields are bare arrays; a final class field has no "@class".
  const std::string text =
      R"({"@class":"pkg.A","arr":["x","y"],"home":{"city":"Oslo"},"ints":[1,2],)"
      R"("notype":["java.lang.Long","z"],"wrapped":["java.lang.Long",3]})";
  const Value v = json().decode(text);
  ASSERT_EQ(v.entries().size(), 5U);
  EXPECT_EQ(v.entries()[0].second, Value::list({Value::string("x"), Value::string("y")}, ""));
  EXPECT_EQ(v.entries()[1].second,
            Value::object("", {{Value::string("city"), Value::string("Oslo")}}));
  EXPECT_EQ(v.entries()[2].second, Value::list({Value::integer(1), Value::integer(2)}, ""));
  EXPECT_EQ(v.entries()[3].second,
            Value::list({Value::string("java.lang.Long"), Value::string("z")}, ""));
  EXPECT_EQ(v.entries()[4].second, Value::long_int(3));
  EXPECT_EQ(json().encode(v), text);
}

TEST(JsonCodec, StringsAreEscapedAsJacksonDoes) {
  expect_both_ways(json(), Value::string("\xF0\x9F\x98\x80"), R"("\uD83D\uDE00")");
  expect_both_ways(json(), Value::string("h\xC3\xA9llo"), "\"h\xC3\xA9llo\"");
  expect_both_ways(json(), Value::string("q\"b\\n\n\t\r\b\f\x01\x1f/"),
                   R"("q\"b\\n\n\t\r\b\f\u0001\u001F/")");
  EXPECT_EQ(json().decode(R"("\u00e9\/\uD83D\ude00")"), Value::string("\xC3\xA9/\xF0\x9F\x98\x80"));
}

TEST(JsonCodec, NumbersAsJacksonWritesThem) {
  expect_both_ways(json(), Value::double_num(1.0E10), "1.0E10");
  expect_both_ways(json(), Value::double_num(-0.0), "-0.0");
  expect_both_ways(json(), Value::double_num(4.9E-324), "4.9E-324");
  EXPECT_EQ(json().encode(Value::double_num(std::nan(""))), R"("NaN")");
  EXPECT_EQ(json().encode(Value::double_num(-HUGE_VAL)), R"("-Infinity")");
  EXPECT_EQ(json().encode(Value::float_num(0.1F)), "0.1");
  EXPECT_EQ(json().encode(Value::short_int(-5)), "-5");
  EXPECT_EQ(json().encode(Value::byte(5)), "5");
  EXPECT_EQ(json().encode(Value::character(u'\xE9')), "\"\xC3\xA9\"");
  EXPECT_EQ(json().decode("1e-400"), Value::double_num(0.0));
  expect_codec_error([] { json().decode("1e400"); }, "out of the range of Double");
  // Without an exponent, inside an array: too many digits before or after the point.
  expect_codec_error(
      [] { json().decode(R"(["java.util.ArrayList",[1)" + std::string(400, '0') + ".5]]"); },
      "out of the range of Double at offset 24");
  EXPECT_EQ(json().decode(R"(["java.util.ArrayList",[0.)" + std::string(400, '0') + "1]]"),
            Value::list({Value::double_num(0.0)}));
  expect_codec_error([] { json().decode("12345678901234567890"); }, "BigInteger");
  expect_codec_error([] { json().decode("01"); }, "bytes after the JSON value");
  expect_codec_error([] { json().decode("1."); }, "without digits after '.'");
}

TEST(JsonCodec, MapsInHashMapOrderWithTextKeysAndNoNullValues) {
  const Value map = Value::map({{Value::string("b"), Value::integer(2)},
                                {Value::string("gone"), Value{}},
                                {Value::string("a"), Value::integer(1)}});
  EXPECT_EQ(json().encode(map), R"({"@class":"java.util.HashMap","a":1,"b":2})");
  EXPECT_EQ(typed().encode(map), R"({"a":1,"b":2})");
  const Value long_keys = Value::map(
      {{Value::long_int(17), Value::boolean(true)}, {Value::long_int(1), Value::boolean(false)}});
  // 17 and 1 share bucket 1: insertion order.
  EXPECT_EQ(json().encode(long_keys), R"({"@class":"java.util.HashMap","17":true,"1":false})");
  EXPECT_EQ(json().encode(Value::set({Value::string("b"), Value::string("a")})),
            R"(["java.util.HashSet",["a","b"]])");
  EXPECT_EQ(json().encode(Value::map({{Value::double_num(1.5), Value::integer(1)}},
                                     "java.util.LinkedHashMap")),
            R"({"@class":"java.util.LinkedHashMap","1.5":1})");
}

TEST(JsonCodec, ValuesItCannotWriteAreErrors) {
  expect_codec_error(
      [] {
        json().encode(Value::map({{Value{}, Value::integer(1)}}));
      },
      "a null map key");
  expect_codec_error(
      [] {
        json().encode(Value::map({{Value::list({}), Value::integer(1)}}));
      },
      "a List as a map key");
  expect_codec_error([] { json().encode(Value::string("\xc3")); }, "not UTF-8");
  expect_codec_error([] { json().encode(Value::list({}, "com.acme.MyList")); },
                     "class 'com.acme.MyList'");
  expect_codec_error([] { json().encode(Value::object("", {})); }, "without a Java class");
  expect_codec_error([] { json().encode(Value::list({}, "")); }, "class ''");
  expect_codec_error([] { json().encode(Value::character(0xD800)); }, "surrogate");
  std::string out = "x";
  EXPECT_THROW(json().encode(Value::list({Value::string("\xff")}), out), redisson::error);
  EXPECT_EQ(out, "x");
}

TEST(JsonCodec, DamagedJsonIsAnErrorWithTheOffset) {
  expect_codec_error([] { json().decode(""); }, "no JSON value (empty input)");
  expect_codec_error([] { json().decode(R"("abc)"); }, "an unterminated string at offset 4");
  expect_codec_error([] { json().decode("\"a\x01\""); }, "a control character");
  expect_codec_error([] { json().decode("\"\xc3\x28\""); }, "not UTF-8");
  expect_codec_error([] { json().decode(R"("\uD83D")"); }, "unpaired UTF-16 surrogate");
  expect_codec_error([] { json().decode(R"("\uDE00x")"); }, "unpaired UTF-16 surrogate");
  expect_codec_error([] { json().decode(R"("\x")"); }, "unknown escape");
  expect_codec_error([] { json().decode("tru"); }, "not a JSON value");
  expect_codec_error([] { json().decode(R"(1 2)"); }, "bytes after the JSON value at offset 2");
  expect_codec_error([] { json().decode(R"({"@class":"java.util.HashMap","k" 1})"); },
                     "':' after a member name");
  expect_codec_error([] { json().decode(R"({"@class":"java.util.ArrayList"})"); },
                     "java.util.ArrayList written as an object");
  expect_codec_error([] { json().decode(R"({ "k" : "v" , "@class" : "" })"); },
                     "an empty \"@class\"");
  std::string deep;
  for (int i = 0; i < 1000; ++i) deep += R"(["java.util.ArrayList",[)";
  expect_codec_error([&] { json().decode(deep); }, "nested deeper than 512");
}

TEST(TypedJsonCodec, PlainJsonBothWays) {
  EXPECT_EQ(typed().encode(Value::long_int(1)), "1");
  EXPECT_EQ(typed().encode(Value::list({Value::string("a"), Value::string("b")})), R"(["a","b"])");
  EXPECT_EQ(typed().encode(Value::map({{Value::string("n"), Value::long_int(7)}})), R"({"n":7})");
  EXPECT_EQ(typed().encode(person()),
            R"({"age":42,"any":9,"boxed":5,"id":7,"name":"Bob","tags":["x"]})");
  EXPECT_EQ(
      typed().decode(R"(["a",{"k":[1,2.5,null,true]}])"),
      Value::list(
          {Value::string("a"),
           Value::map({{Value::string("k"), Value::list({Value::integer(1), Value::double_num(2.5),
                                                         Value{}, Value::boolean(true)})}},
                      "java.util.LinkedHashMap")}));
  // No type wrappers in plain JSON: an array is a list.
  EXPECT_EQ(typed().decode(R"(["java.lang.Long",1])"),
            Value::list({Value::string("java.lang.Long"), Value::integer(1)}));
  expect_codec_error([] { typed().decode("[1,"); }, "at offset");
}

}  // namespace

}  // namespace unit_codec_json_codec_test

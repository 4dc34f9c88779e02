// kryo5 codec: the byte examples of OBJECTS.md §1.3 both ways, vectors derived by hand from
// Kryo 5's serializers, the classes only Java writes, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "codec_test_util.hpp"
#include "redisson/codec.hpp"
#include "redisson/value_traits.hpp"

namespace unit_codec_kryo5_test {

namespace {

using codec_test::expect_codec_error;
using codec_test::hex;
using codec_test::unhex;
using redisson::Value;

const redisson::Codec& kryo() {
  static const auto codec = redisson::codecs::kryo5();
  return *codec;
}

// ASCII class name as Kryo writes it: the last character with bit 7 set.
std::string ascii_name(std::string_view name) {
  std::string out = hex(name.substr(0, name.size() - 1));
  out += hex(std::string(1, static_cast<char>(name.back() | 0x80)));
  return out;
}

const std::string kArrayList = ascii_name("java.util.ArrayList");
const std::string kHashMap = ascii_name("java.util.HashMap");
const std::string kHashSet = ascii_name("java.util.HashSet");

// Encodes `value` to `expected_hex` and decodes that back to `value`.
void expect_both_ways(const Value& value, const std::string& expected_hex) {
  SCOPED_TRACE(value.to_display_json());
  std::string wanted;
  for (const char c : expected_hex) {
    if (c != ' ') wanted += c;
  }
  EXPECT_EQ(hex(kryo().encode(value)), wanted);
  EXPECT_EQ(kryo().decode(unhex(wanted)), value);
}

Value strings(std::initializer_list<const char*> items,
              std::string java_class = "java.util.ArrayList") {
  Value::List elements;
  for (const char* s : items) elements.push_back(Value::string(s));
  return Value::list(std::move(elements), std::move(java_class));
}

Value string_set(std::initializer_list<const char*> items, std::string java_class) {
  Value::List elements;
  for (const char* s : items) elements.push_back(Value::string(s));
  return Value::set(std::move(elements), std::move(java_class));
}

TEST(Kryo5, ObjectsMdStringExamples) {
  expect_both_ways(Value::string("hello"), "03 68656c6cef");
  expect_both_ways(Value::string("a"), "03 8261");
  expect_both_ways(Value::string(""), "03 81");
  expect_both_ways(Value::string("h\xC3\xA9llo"), "03 86 68c3a96c6c6f");
  expect_both_ways(Value::string(std::string(33, 'A')), "03 a2" + hex(std::string(33, 'A')));
  expect_both_ways(Value::string("\xF0\x9F\x98\x80"), "03 83 eda0bd edb880");
}

TEST(Kryo5, ObjectsMdScalarExamples) {
  expect_both_ways(Value::integer(1), "02 02");
  expect_both_ways(Value::integer(-1), "02 01");
  expect_both_ways(Value::integer(300), "02 d804");
  expect_both_ways(Value::long_int(1), "09 02");
  expect_both_ways(Value::long_int(1700000000000), "09 80a0abfef962");
  expect_both_ways(Value::double_num(1.5), "0a 000000000000f83f");
  expect_both_ways(Value::boolean(true), "05 01");
  expect_both_ways(Value::bytes_from("\x01\x02\x03"), "01 00 5bc2 04 010203");
}

TEST(Kryo5, ObjectsMdCollectionExamples) {
  expect_both_ways(strings({"a", "b"}), "01 00" + kArrayList + "83 03 00 8261 8262");
  expect_both_ways(Value::list({Value::string("a"), Value::long_int(1)}),
                   "01 00" + kArrayList + "03 03 8261 09 02");
  expect_both_ways(Value::list({Value::string("a"), Value{}}),
                   "01 00" + kArrayList + "83 03 01 8261 80");
  expect_both_ways(Value::map({{Value::string("k"), Value::string("v")}}),
                   "01 00" + kHashMap + "02 03 826b 03 8276");
  expect_both_ways(Value::list({Value::list({}), Value::list({}), Value::map({})}),
                   "01 00" + kArrayList + "04 0100 01 0100 01 0101" + kHashMap + "01");
}

TEST(Kryo5, FixtureStringsOfOtherObjects) {
  // From dump.json / messages.jsonl: hash fields, a time-series label, map-cache values.
  expect_both_ways(Value::string("k1"), "03 6bb1");
  expect_both_ways(Value::string("lbl"), "03 6c62ec");
  expect_both_ways(Value::string("v2"), "03 76b2");
}

TEST(Kryo5, AsciiFormIsForTwoToThirtyTwoCharacters) {
  expect_both_ways(Value::string(std::string(32, 'x')), "03" + hex(std::string(31, 'x')) + "f8");
  // A NUL is ASCII too (and one byte in the long form).
  expect_both_ways(Value::string(std::string("a\0b", 3)), "03 6100e2");
  expect_both_ways(Value::string(std::string(1, '\0')), "03 82 00");
  // 64 characters: the length 65 needs a second varint byte.
  expect_both_ways(Value::string(std::string(64, 'z')), "03 c101" + hex(std::string(64, 'z')));
}

TEST(Kryo5, EveryScalarKindAndItsLimits) {
  expect_both_ways(Value{}, "00");
  expect_both_ways(Value::boolean(false), "05 00");
  expect_both_ways(Value::byte(-1), "06 ff");
  expect_both_ways(Value::short_int(-2), "08 feff");
  expect_both_ways(Value::character(u'A'), "07 4100");
  expect_both_ways(Value::character(u'\xE9'), "07 e900");
  expect_both_ways(Value::float_num(1.5F), "04 0000c03f");
  expect_both_ways(Value::integer(std::numeric_limits<std::int32_t>::max()), "02 feffffff0f");
  expect_both_ways(Value::integer(std::numeric_limits<std::int32_t>::min()), "02 ffffffff0f");
  // Zigzag 2^64 - 2 and 2^64 - 1: eight 7-bit bytes and a 9th of 8 bits.
  expect_both_ways(Value::long_int(std::numeric_limits<std::int64_t>::max()),
                   "09 feffffffffffffffff");
  expect_both_ways(Value::long_int(std::numeric_limits<std::int64_t>::min()),
                   "09 ffffffffffffffffff");
  expect_both_ways(Value::long_int(-5), "09 09");
  expect_both_ways(Value::double_num(-0.0), "0a 0000000000000080");
  expect_both_ways(Value::bytes_from(""), "01 00 5bc2 01");
}

TEST(Kryo5, NaNIsWrittenWithJavasCanonicalBits) {
  EXPECT_EQ(hex(kryo().encode(Value::double_num(-std::nan("5")))), "0a000000000000f87f");
  EXPECT_EQ(hex(kryo().encode(Value::float_num(std::nanf("")))), "040000c07f");
  EXPECT_TRUE(std::isnan(kryo().decode(unhex("0a010000000000f07f")).double_value()));
}

TEST(Kryo5, SupplementaryCharactersAreSurrogatePairsOfThreeBytes) {
  // "a😀é": 4 UTF-16 units.
  expect_both_ways(Value::string("a\xF0\x9F\x98\x80\xC3\xA9"), "03 85 61 eda0bd edb880 c3a9");
}

TEST(Kryo5, SameClassElementsWithNullsMarkEachNonStringElement) {
  // Integer's serializer does not write null: each element gets 00 (null) or 01.
  expect_both_ways(Value::list({Value::integer(1), Value{}}),
                   "01 00" + kArrayList + "83 02 01 01 02 00");
  // byte[] writes null itself as size 0.
  expect_both_ways(Value::list({Value::bytes_from("\x01"), Value{}}),
                   "01 00" + kArrayList + "83 01 01 5bc2 01 02 01 00");
  // All null: the element class is null, nothing follows.
  expect_both_ways(Value::list({Value{}, Value{}}), "01 00" + kArrayList + "83 00");
}

TEST(Kryo5, NestedCollectionsReuseTheirClassNameIds) {
  // [["x"]]: the inner ArrayList is name id 0 again.
  expect_both_ways(Value::list({strings({"x"})}),
                   "01 00" + kArrayList + "82 0100 00 82 03 00 8278");
  // Name ids in the order classes first appear.
  expect_both_ways(
      Value::list({Value::map({}), Value::set({}), Value::map({})}),
      "01 00" + kArrayList + "04 0101" + kHashMap + "01 0102" + kHashSet + "01 0101 01");
}

TEST(Kryo5, HashSetAndHashMapAreWrittenInJavaIterationOrder) {
  // "a" (hash 97) is in bucket 1, "b" in bucket 2, whatever order they are given in.
  EXPECT_EQ(hex(kryo().encode(string_set({"b", "a"}, "java.util.HashSet"))), "0100" + kHashSet +
                                                                                 "8303008261"
                                                                                 "8262");
  EXPECT_EQ(hex(kryo().encode(Value::map({{Value::string("b"), Value::integer(2)},
                                          {Value::string("a"), Value::integer(1)}}))),
            "0100" + kHashMap +
                "03038261020203826202"
                "04");
  // Other classes keep the given order.
  EXPECT_EQ(hex(kryo().encode(string_set({"b", "a"}, "java.util.LinkedHashSet"))),
            "0100" + ascii_name("java.util.LinkedHashSet") +
                "8303008262"
                "8261");
}

TEST(Kryo5, OtherCollectionClassesJavaWrites) {
  expect_both_ways(strings({"a"}, "java.util.LinkedList"),
                   "0100" + ascii_name("java.util.LinkedList") + "82 03 00 8261");
  expect_both_ways(strings({"a", "b"}, "java.util.Arrays$ArrayList"),
                   "0100" + ascii_name("java.util.Arrays$ArrayList") + "83 03 00 8261 8262");
  expect_both_ways(strings({"a"}, "java.util.Collections$SingletonList"),
                   "0100" + ascii_name("java.util.Collections$SingletonList") + "03 8261");
  expect_both_ways(Value::list({}, "java.util.Collections$EmptyList"),
                   "0100" + ascii_name("java.util.Collections$EmptyList"));
  expect_both_ways(Value::map({}, "java.util.Collections$EmptyMap"),
                   "0100" + ascii_name("java.util.Collections$EmptyMap"));
  expect_both_ways(
      Value::map({{Value::string("k"), Value::long_int(1)}}, "java.util.Collections$SingletonMap"),
      "0100" + ascii_name("java.util.Collections$SingletonMap") + "03826b 0902");
  expect_both_ways(string_set({"a"}, "java.util.Collections$SingletonSet"),
                   "0100" + ascii_name("java.util.Collections$SingletonSet") + "03 8261");
  // List.of / Set.of: no hasNull byte.
  expect_both_ways(
      strings({"a", "b", "c"}, "java.util.ImmutableCollections$ListN"),
      "0100" + ascii_name("java.util.ImmutableCollections$ListN") + "84 03 8261 8262 8263");
  expect_both_ways(string_set({"a"}, "java.util.ImmutableCollections$Set12"),
                   "0100" + ascii_name("java.util.ImmutableCollections$Set12") + "82 03 8261");
  expect_both_ways(
      Value::map({{Value::string("k"), Value::string("v")}}, "java.util.ImmutableCollections$Map1"),
      "0100" + ascii_name("java.util.ImmutableCollections$Map1") + "02 03826b 038276");
  // TreeMap/TreeSet: the comparator (null) after the size, also when empty.
  expect_both_ways(Value::map({}, "java.util.TreeMap"),
                   "0100" + ascii_name("java.util.TreeMap") + "01 00");
  expect_both_ways(Value::map({{Value::string("a"), Value::integer(1)}}, "java.util.TreeMap"),
                   "0100" + ascii_name("java.util.TreeMap") + "02 00 038261 0202");
  expect_both_ways(string_set({"a", "b"}, "java.util.TreeSet"),
                   "0100" + ascii_name("java.util.TreeSet") + "83 00 03 00 8261 8262");
  expect_both_ways(Value::map({{Value::string("a"), Value{}}}, "java.util.LinkedHashMap"),
                   "0100" + ascii_name("java.util.LinkedHashMap") + "02 038261 00");
}

TEST(Kryo5, DecodesJavasNullCollectionsAndNullStrings) {
  EXPECT_TRUE(kryo().decode(unhex("03 80")).is_null());
  // A list whose element class is ArrayList and whose second element is a null list.
  const Value v = kryo().decode(unhex("0100" + kArrayList + "83 0100 01 82 03 00 8261 00"));
  EXPECT_EQ(v, Value::list({strings({"a"}), Value{}}));
}

TEST(Kryo5, UnknownJavaClassIsAnErrorNamingIt) {
  expect_codec_error([] { kryo().decode(unhex("0100" + ascii_name("com.acme.Person") + "00")); },
                     "kryo5: cannot read Java class com.acme.Person");
  expect_codec_error([] { kryo().decode(unhex("0100" + ascii_name("java.util.UUID") + "00")); },
                     "cannot read Java class java.util.UUID");
  expect_codec_error([] { kryo().decode(unhex("0b 00")); }, "class id 9 is not registered");
  // A TreeSet with a comparator (here a String standing in for one).
  expect_codec_error(
      [] {
        kryo().decode(unhex("0100" + ascii_name("java.util.TreeSet") + "82 038261 03 00 8261"));
      },
      "with a comparator");
}

TEST(Kryo5, TruncatedBytesAreAnErrorWithTheOffset) {
  const std::string complete =
      unhex("01 00" + kArrayList + "04 0100 01 0100 01 0101" + kHashMap + "01");
  for (std::size_t n = 0; n < complete.size(); ++n) {
    SCOPED_TRACE(n);
    expect_codec_error([&] { kryo().decode(complete.substr(0, n)); }, "at offset");
  }
  expect_codec_error([] { kryo().decode(unhex("09 80a0")); }, "kryo5: truncated Long at offset 3");
  expect_codec_error([] { kryo().decode(unhex("03 86 68")); }, "truncated String");
  expect_codec_error([] { kryo().decode(""); }, "truncated class at offset 0");
}

TEST(Kryo5, DamagedBytesAreErrors) {
  expect_codec_error([] { kryo().decode(unhex("02 02 00")); },
                     "1 bytes after the value at offset 2");
  expect_codec_error([] { kryo().decode(unhex("03 82 eda0bd")); }, "unpaired UTF-16 surrogate");
  expect_codec_error([] { kryo().decode(unhex("03 82 f09f")); }, "cannot start a String character");
  // Immutable collections cannot hold null.
  expect_codec_error(
      [] {
        kryo().decode(
            unhex("0100" + ascii_name("java.util.ImmutableCollections$ListN") + "03 00 00"));
      },
      "holding null");
  // A size of 2^31: negative in Java.
  expect_codec_error([] { kryo().decode(unhex("0100" + kArrayList + "c0 ffffff1f")); },
                     "negative size");
}

TEST(Kryo5, ZeroByteElementsCannotClaimBillionsOfValues) {
  // 2^30 - 2 null elements in a few bytes.
  expect_codec_error([] { kryo().decode(unhex("0100" + kArrayList + "ff ffffff07 00")); },
                     "values (a damaged size?)");
}

TEST(Kryo5, DeepNestingIsAnErrorNotAStackOverflow) {
  std::string bytes;
  for (int i = 0; i < 100000; ++i) bytes += unhex(i == 0 ? "0100" + kArrayList + "02" : "0100 02");
  expect_codec_error([&] { kryo().decode(bytes); }, "nested deeper than 512");
  Value deep = Value::list({});
  for (int i = 0; i < 600; ++i) deep = Value::list({deep});
  expect_codec_error([&] { kryo().encode(deep); }, "nested deeper than 512");
}

TEST(Kryo5, ValuesItCannotWriteAreErrors) {
  expect_codec_error([] { kryo().encode(Value::object("com.x.Y", {})); },
                     "cannot write com.x.Y: use the json codec");
  expect_codec_error([] { kryo().encode(Value::string("\xff")); }, "not UTF-8 (byte 0)");
  expect_codec_error([] { kryo().encode(Value::string("ab\xED\xA0\x80")); }, "not UTF-8 (byte 2)");
  expect_codec_error([] { kryo().encode(Value::list({}, "com.acme.MyList")); },
                     "cannot write a List of class 'com.acme.MyList'");
  expect_codec_error([] { kryo().encode(Value::list({}, "java.util.HashMap")); },
                     "java.util.HashMap is a Map, not a List");
  expect_codec_error(
      [] {
        kryo().encode(strings({"a", "b"}, "java.util.Collections$SingletonList"));
      },
      "holds 1 elements, not 2");
  expect_codec_error(
      [] { kryo().encode(Value::list({Value{}}, "java.util.ImmutableCollections$ListN")); },
      "cannot hold null");
}

TEST(Kryo5, ReadingAsAnotherTypeIsACodecError) {
  const Value read = kryo().decode(unhex("03 68656c6cef"));
  expect_codec_error([&] { redisson::from_value<std::int64_t>(read); },
                     "expected Long, found String");
  expect_codec_error([] { redisson::from_value<std::string>(kryo().decode(unhex("00"))); },
                     "expected String, found null");
  // An Integer reads into a Long, a Long into an int when it fits.
  EXPECT_EQ(redisson::from_value<std::int64_t>(kryo().decode(unhex("02 d804"))), 300);
  EXPECT_EQ(redisson::from_value<std::int32_t>(kryo().decode(unhex("09 02"))), 1);
}

TEST(Kryo5, FailedEncodeLeavesTheOutputAsItWas) {
  std::string out = "prefix";
  EXPECT_THROW(kryo().encode(Value::list({Value::string("a"), Value::object("x.Y", {})}), out),
               redisson::error);
  EXPECT_EQ(out, "prefix");
}

TEST(Kryo5, BigNestedValueRoundTrips) {
  Value::Entries entries;
  for (int i = 0; i < 40; ++i) {
    entries.emplace_back(Value::string("key" + std::to_string(i)),
                         Value::list({Value::long_int(i), Value::double_num(i / 3.0),
                                      Value::string(std::string(static_cast<std::size_t>(i), 'q')),
                                      Value::set({Value::integer(i)})}));
  }
  const Value map = Value::map(std::move(entries), "java.util.LinkedHashMap");
  EXPECT_EQ(kryo().decode(kryo().encode(map)), map);
}

}  // namespace

}  // namespace unit_codec_kryo5_test

// utf: UTF-8 checks, Java's String.hashCode() and compareTo() over UTF-16 units, and UTF-16 ->
// UTF-8 with surrogate pairs.
#include "codec/utf.hpp"

#include <gtest/gtest.h>

#include <string>

namespace unit_codec_utf_test {

namespace {

namespace utf = redisson::detail::utf;

TEST(Utf, InvalidAtFindsTheFirstByteThatIsNotUtf8) {
  EXPECT_EQ(utf::invalid_at("plain h\xC3\xA9 \xF0\x9F\x98\x80"), std::string_view::npos);
  EXPECT_EQ(utf::invalid_at("ab\xff"), 2U);
  EXPECT_EQ(utf::invalid_at("a\xC3"), 1U);             // truncated
  EXPECT_EQ(utf::invalid_at("\xC0\x80"), 0U);          // overlong NUL
  EXPECT_EQ(utf::invalid_at("x\xED\xA0\x80"), 1U);     // a surrogate (CESU-8)
  EXPECT_EQ(utf::invalid_at("\xF4\x90\x80\x80"), 0U);  // above U+10FFFF
  EXPECT_EQ(utf::invalid_at("\xE2\x82"), 0U);
}

TEST(Utf, CompareFollowsJavasUtf16Order) {
  EXPECT_LT(utf::compare_utf16("a", "b"), 0);
  EXPECT_LT(utf::compare_utf16("a", "ab"), 0);
  EXPECT_EQ(utf::compare_utf16("same", "same"), 0);
  // U+FFFF is one unit above the surrogates; U+10000 starts with D800: Java sorts it first,
  // although its code point (and UTF-8) is larger.
  EXPECT_GT(utf::compare_utf16("\xEF\xBF\xBF", "\xF0\x90\x80\x80"), 0);
  EXPECT_LT(utf::compare_utf16("\xED\x9F\xBF", "\xF0\x90\x80\x80"), 0);  // U+D7FF
}

TEST(Utf, Utf16UnitsBecomeUtf8WithPairsJoined) {
  std::string out;
  utf::Utf16ToUtf8 convert(out);
  for (const char16_t unit : {u'a', char16_t{0xE9}, char16_t{0xD83D}, char16_t{0xDE00}}) {
    EXPECT_TRUE(convert.add(unit));
  }
  EXPECT_TRUE(convert.finish());
  EXPECT_EQ(out, "a\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(convert.add(0xD83D));
  EXPECT_FALSE(convert.finish());
  EXPECT_FALSE(convert.add(u'x'));  // a high surrogate must be followed by a low one
  utf::Utf16ToUtf8 lone(out);
  EXPECT_FALSE(lone.add(0xDE00));
}

}  // namespace

}  // namespace unit_codec_utf_test

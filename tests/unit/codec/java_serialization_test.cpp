// Java serialization of a Throwable: the message read out of JDK 17's bytes, and the bytes of a
// RuntimeException written as JDK 17 writes them.
#include "codec/java_serialization.hpp"

#include <gtest/gtest.h>

#include <string>

#include "codec_test_util.hpp"

namespace unit_codec_java_serialization_test {

namespace {

using codec_test::hex;
using codec_test::unhex;
using redisson::detail::java_runtime_exception;
using redisson::detail::java_throwable_message;

// new RuntimeException("boom \u00e9") with setStackTrace(new StackTraceElement[0]), written by
// JDK 17.0.15's ObjectOutputStream.
constexpr std::string_view kJdkRuntimeException =
    "aced00057372001a6a6176612e6c616e672e52756e74696d65457863657074696f6e9e5f06470a3483e50200007872"
    "00136a6176612e6c616e672e457863657074696f6ed0fd1f3e1a3b1cc4020000787200136a6176612e6c616e672e54"
    "68726f7761626c65d5c635273977b8cb0300044c000563617573657400154c6a6176612f6c616e672f5468726f7761"
    "626c653b4c000d64657461696c4d6573736167657400124c6a6176612f6c616e672f537472696e673b5b000a737461"
    "636b547261636574001e5b4c6a6176612f6c616e672f537461636b5472616365456c656d656e743b4c001473757070"
    "726573736564457863657074696f6e737400104c6a6176612f7574696c2f4c6973743b787071007e0007740007626f"
    "6f6d20c3a97572001e5b4c6a6176612e6c616e672e537461636b5472616365456c656d656e743b02462a3c3cfd2239"
    "0200007870000000007372001f6a6176612e7574696c2e436f6c6c656374696f6e7324456d7074794c6973747ab817"
    "b43ca79ede020000787078";

TEST(JavaSerialization, RuntimeExceptionIsWhatTheJdkWrites) {
  EXPECT_EQ(hex(java_runtime_exception("boom \u00e9")), kJdkRuntimeException);
  // JDK 17: "nul\u0000 \ud83d\ude00" as modified UTF-8 (NUL as C0 80, the emoji as surrogates).
  EXPECT_NE(hex(java_runtime_exception(std::string("nul\0 \xF0\x9F\x98\x80", 9)))
                .find("74000c6e756cc08020eda0bdedb880"),
            std::string::npos);
}

TEST(JavaSerialization, ThrowableMessageReadsBack) {
  EXPECT_EQ(java_throwable_message(unhex(kJdkRuntimeException)), "boom \u00e9");
  const std::string odd("nul\0 \xF0\x9F\x98\x80", 9);
  EXPECT_EQ(java_throwable_message(java_runtime_exception(odd)), odd);
  const std::string long_message(70000, 'x');  // past 65535 bytes: TC_LONGSTRING
  EXPECT_EQ(java_throwable_message(java_runtime_exception(long_message)), long_message);
}

TEST(JavaSerialization, DamagedOrUnknownStreamsGiveNoMessage) {
  const std::string bytes = unhex(kJdkRuntimeException);
  const std::size_t message_end = bytes.find("boom") + 7;
  for (std::size_t size = 0; size < message_end; ++size) {
    EXPECT_EQ(java_throwable_message(bytes.substr(0, size)), std::nullopt) << size;
  }
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5A);
    (void)java_throwable_message(flipped);  // any answer, no crash
  }
  EXPECT_THROW(java_runtime_exception("\xFF"), redisson::error);
}

}  // namespace

}  // namespace unit_codec_java_serialization_test

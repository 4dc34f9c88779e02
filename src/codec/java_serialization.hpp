// Java serialization (java.io.ObjectOutputStream), only as far as a remote service needs:
// Kryo5Codec writes a Throwable that way (Redisson registers Kryo's JavaSerializer for it), so a
// Java worker's failure arrives as one, and a Java caller reads only a Throwable there.
// Rebuilding Java objects is out of reach: the message is what crosses.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail {

/// The detail message (as UTF-8) of the Throwable a Java serialization stream holds; nullopt
/// when it has none or the stream is beyond this small reader (a cause other than the
/// Throwable itself, class annotations, proxies). Never throws for damaged bytes.
std::optional<std::string> java_throwable_message(std::string_view stream);

/// The stream of `new java.lang.RuntimeException(message)` with an empty stack trace, as JDK 17's
/// ObjectOutputStream writes it (`message`: UTF-8; codec_error when it is not).
std::string java_runtime_exception(std::string_view message);

}  // namespace redisson::detail

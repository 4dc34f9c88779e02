// Java serialization (java.io.ObjectOutputStream), read only as far as a remote service needs:
// Kryo5Codec writes a Throwable that way (Redisson registers Kryo's JavaSerializer for it), and a
// Java worker's failure arrives as one. Rebuilding Java objects is out of reach; the message is
// what a C++ caller can show.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail {

/// The detail message (as UTF-8) of the Throwable a Java serialization stream holds; nullopt
/// when it has none or the stream is beyond this small reader (a cause other than the
/// Throwable itself, class annotations, proxies). Never throws for damaged bytes.
std::optional<std::string> java_throwable_message(std::string_view stream);

}  // namespace redisson::detail

// Standard Base64 (RFC 4648, with '+', '/' and '=' padding): how JSON codecs carry byte[], and
// the alphabet of Redisson's hash128toBase64.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail {

std::string base64_encode(std::string_view bytes);
/// The bytes `text` encodes; nullopt when it is not Base64 (padding optional).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace redisson::detail

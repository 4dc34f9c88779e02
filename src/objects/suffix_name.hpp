// Redisson's suffixName(name, suffix): how it names the keys an object keeps next to its own so
// that they share its hash slot (a multimap's `{n}:<base64>` values, a map key's
// `{n}:<base64>:lock`).
#pragma once

#include <string>
#include <string_view>

namespace redisson::detail {

/// `{name}:suffix`, or `name:suffix` when the name already has a hash tag (contains '{').
inline std::string suffix_name(const std::string& name, std::string_view suffix) {
  std::string out;
  const bool tagged = name.find('{') != std::string::npos;
  out.reserve(name.size() + suffix.size() + 3);
  if (!tagged) out += '{';
  out += name;
  if (!tagged) out += '}';
  out += ':';
  out += suffix;
  return out;
}

}  // namespace redisson::detail

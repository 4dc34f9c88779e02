// Redisson's key naming rules (docs/interop-java.md, "Names"), as `inspect` looks for an object's
// companion keys.
#pragma once

#include <string>

namespace redisson::cli {

/// P(prefix, n): "prefix:{n}", or "prefix:n" when n already has a '{'.
inline std::string prefix_name(const std::string& prefix, const std::string& name) {
  return name.find('{') != std::string::npos ? prefix + ":" + name : prefix + ":{" + name + "}";
}

/// S(n, suffix): "{n}:suffix", or "n:suffix" when n already has a '{'.
inline std::string suffix_name(const std::string& name, const std::string& suffix) {
  return name.find('{') != std::string::npos ? name + ":" + suffix : "{" + name + "}:" + suffix;
}

}  // namespace redisson::cli

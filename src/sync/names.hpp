// Redisson's key and channel naming rules (docs/interop-java.md, "Names"). They keep every
// key of one object in the object's Redis Cluster hash slot; keep them exact, or Java Redisson
// and this library name different keys.
#pragma once

#include <string>
#include <string_view>

namespace redisson::detail {

/// Appends P(prefix, n) to `out` (to build a longer name in one allocation).
inline std::string& append_prefixed_name(std::string& out, std::string_view prefix,
                                         std::string_view name) {
  out.append(prefix);
  if (name.find('{') != std::string_view::npos) {
    out.append(":").append(name);
  } else {
    out.append(":{").append(name).append("}");
  }
  return out;
}

/// P(prefix, n): "prefix:{n}", or "prefix:n" when n already has a '{'.
inline std::string prefix_name(std::string_view prefix, std::string_view name) {
  std::string out;
  return append_prefixed_name(out, prefix, name);
}

/// S(n, suffix): "{n}:suffix", or "n:suffix" when n already has a '{'.
inline std::string suffix_name(std::string_view name, std::string_view suffix) {
  std::string out;
  if (name.find('{') != std::string_view::npos) {
    out.append(name);
  } else {
    out.append("{").append(name).append("}");
  }
  return out.append(":").append(suffix);
}

/// "{n}", or n when it has a '{' already: the read-write lock scripts' base for S(n, x).
inline std::string hash_tagged_name(std::string_view name) {
  if (name.find('{') != std::string_view::npos) return std::string(name);
  std::string out;
  return out.append("{").append(name).append("}");
}

}  // namespace redisson::detail

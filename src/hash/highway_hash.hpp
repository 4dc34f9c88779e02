// HighwayHash with Redisson's key (Java Redisson's org.redisson.misc.Hash): how Redisson turns
// codec-encoded bytes into bloom filter indexes, multimap sub-keys (`{name}:<base64>`), per-key
// lock names and local-cache keys. Same bytes in, same hash out as Java, so a C++ object lands on
// the keys and bits a Java one uses. Private: the public API never shows a hash.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace redisson::detail {

/// HighwayHash-128 of some bytes, as Redisson's Hash.hash128 returns it: {h0, h1}.
struct HighwayHash128 {
  std::uint64_t h0 = 0;
  std::uint64_t h1 = 0;

  friend bool operator==(const HighwayHash128&, const HighwayHash128&) = default;
};

/// HighwayHash-128 of `bytes` with Redisson's key.
HighwayHash128 highway_hash128(std::string_view bytes) noexcept;

/// HighwayHash-64 of `bytes` with Redisson's key (Hash.hash64).
std::uint64_t highway_hash64(std::string_view bytes) noexcept;

/// The 16 bytes of Redisson's Hash.hash128toArray: h0 then h1, each big-endian.
std::array<char, 16> highway_hash128_array(std::string_view bytes) noexcept;

/// Redisson's Hash.hash128toBase64: standard Base64 ('+', '/') of hash128toArray without its
/// "==" padding, 22 characters (for example the `<b64>` of a multimap's `{name}:<b64>` key).
std::string highway_hash128_base64(std::string_view bytes);

}  // namespace redisson::detail

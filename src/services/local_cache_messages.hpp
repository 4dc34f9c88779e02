// The messages local cached maps send each other on `{name}:topic`: the bytes of Redisson's
// LocalCachedMessageCodec (a type byte, then big-endian ints and longs), so Java's near caches
// and ours read each other.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redisson::detail {

/// Redisson's CacheKey: hash128toArray of the map-key codec's bytes of a key.
using LocalCacheKeyHash = std::array<char, 16>;
/// The 16 random bytes naming one cache instance (a message's excludedId).
using LocalCacheInstanceId = std::array<char, 16>;

enum class LocalCacheMessageType : std::uint8_t {
  clear = 0,        ///< drop every entry (excludedId, requestId[16], release the semaphore?)
  invalidate = 1,   ///< drop these keys (excludedId, count, hashes)
  update = 2,       ///< store these entries (excludedId, {key length, key, value length, value}...)
  disable = 3,      ///< a Java transaction: stop caching these keys for a while, and ack
  disable_ack = 4,  ///< the answer to `disable`
  enable = 5,       ///< the transaction ended: cache these keys again
  disabled_key = 6,  ///< a disabled-keys record (stored, not published)
};

struct LocalCacheMessage {
  LocalCacheMessageType type = LocalCacheMessageType::invalidate;
  LocalCacheInstanceId excluded{};  // clear, invalidate, update: the sender
  std::string request_id;           // clear: 16 raw bytes; disable, enable: ASCII text
  bool flag = false;                // clear: release the semaphore; disable/enable: whole cache
  std::int64_t timeout_ms = 0;      // disable
  std::vector<LocalCacheKeyHash> hashes;                     // invalidate, disable, enable
  std::vector<std::pair<std::string, std::string>> entries;  // update: key bytes, value bytes
};

std::string encode_local_cache_invalidate(const LocalCacheInstanceId& sender,
                                          const std::vector<LocalCacheKeyHash>& hashes);
std::string encode_local_cache_update(
    const LocalCacheInstanceId& sender,
    const std::vector<std::pair<std::string_view, std::string_view>>& entries);
std::string encode_local_cache_clear(const LocalCacheInstanceId& sender,
                                     const std::array<char, 16>& request, bool release);
std::string encode_local_cache_disable_ack();
/// Reads a message; bytes of no known shape are errc::codec_error.
LocalCacheMessage decode_local_cache_message(std::string_view bytes);

}  // namespace redisson::detail

// redisson::ClientSideCaching: Java Redisson's RClientSideCaching, Redis server-assisted client
// caching (RESP3 CLIENT TRACKING). Objects taken from it answer their read commands from a
// local cache; the server tells this client when a key it read changes (by any client, Java or
// C++), and that key's cached replies go. Writes go to Redis as usual.
//
//   redisson::ClientSideCaching caching(client);
//   auto bucket = caching.get<redisson::Bucket<std::string>>("config:banner");
//   bucket.get();   // from Redis, remembered
//   bucket.get();   // from memory, until some client changes config:banner
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "redisson/codec.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

class Client;

/// How the cache is bounded (Java's ClientSideCachingOptions).
struct ClientSideCachingOptions {
  enum class EvictionPolicy {
    none,  ///< no size limit (size is ignored)
    lru,   ///< past `size` entries, the least recently used goes
    lfu,   ///< past `size` entries, the least often used goes
  };
  EvictionPolicy eviction_policy = EvictionPolicy::none;
  /// The most cached replies kept under lru/lfu (>= 1 for those).
  std::size_t size = 0;
  /// A cached reply older than this is read again (zero: no limit).
  std::chrono::milliseconds time_to_live{0};
  /// A cached reply not read for this long is read again (zero: no limit).
  std::chrono::milliseconds max_idle{0};
};

namespace detail {
class ReadTracker;
}  // namespace detail

/// What a ClientSideCaching has done so far.
struct ClientSideCacheStats {
  std::int64_t hits = 0;
  std::int64_t misses = 0;
  /// Replies dropped because the server said their key changed (or all of them, after the
  /// tracked connection was lost).
  std::int64_t invalidations = 0;
  std::size_t entries = 0;
};

/// A client-side cache on a Client. Its objects (get<T>) cache the replies of their read
/// commands (GET, HGET, HGETALL, SMEMBERS, LRANGE, ZRANGE, XRANGE, ... each by its exact
/// arguments), read on connections of their own with CLIENT TRACKING on; a server push naming a
/// key drops that key's replies. Everything else (writes, scripts, blocking commands) goes as
/// it would from the client.
///
/// Promises: a cached reply is never kept past the server's invalidation of its key, which
/// comes on the same connection as the reply (so a write after the read always wins). When a
/// tracked connection is lost, nothing it read stays cached (the server forgot what it
/// tracked), and reads go to Redis until it is back and tracking again. Needs RESP3 (Redis 6+;
/// Config::resp3): without it nothing is cached.
///
/// A handle: copies share the cache, which lives while a copy or an object from it does.
class ClientSideCaching {
 public:
  explicit ClientSideCaching(const Client& client, ClientSideCachingOptions options = {});

  /// An object of type T (Bucket<V>, Map<K, V>, Set<V>, List<V>, Queue<V>, Deque<V>,
  /// ScoredSortedSet<V>, Geo<V>, Stream<K, V>, ...) named `name` whose reads are cached here.
  /// `codec` null: the client's default; a type that takes no codec refuses one
  /// (errc::invalid_argument).
  template <class T>
  T get(std::string name, CodecPtr codec = nullptr) const {
    static_assert(std::is_base_of_v<Object, T>, "ClientSideCaching::get<T>: T must be an object");
    auto object =
        detail::construct_object<T>(*client_, std::move(name), std::move(codec), &refuse_codec);
    bind(object);
    return object;
  }

  /// Hits, misses, invalidations and the entries cached now.
  ClientSideCacheStats stats() const;
  /// Drops every cached reply (the next reads go to Redis).
  void clear() const;

 private:
  void bind(Object& object) const;
  [[noreturn]] static void refuse_codec();

  const Client* client_;
  std::shared_ptr<detail::ReadTracker> tracker_;
};

}  // namespace redisson

// SetMultimapCache / ListMultimapCache (objects/multimap_cache.hpp): the scripts that see a key's
// expiry, and the sweeper that removes expired keys with their values.
#include "redisson/objects/multimap_cache.hpp"

#include "client/client_core.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "objects/sweeper.hpp"

namespace redisson::detail {

namespace {

const char* multimap_cache_read_op(MultimapCacheRead read) {
  switch (read) {
    case MultimapCacheRead::contains_key:
      return "contains_key";
    case MultimapCacheRead::contains_entry:
      return "contains_entry";
    case MultimapCacheRead::get_all:
      return "get_all";
  }
  return "";
}

}  // namespace

void start_multimap_cache_expire_key(const ObjectPtr& object, MultimapKind kind,
                                     const std::string& key_bytes, std::chrono::milliseconds ttl,
                                     Done<Reply>& done) {
  const std::int64_t deadline = ttl.count() > 0 ? unix_time_ms() + ttl.count() : 0;
  eval_reply(*object,
             lua::multimap_cache_expire_key({object->name, multimap_ttl_key(object->name, kind)},
                                            {std::to_string(deadline), key_bytes}),
             std::move(done));
}

void start_multimap_cache_read(const ObjectPtr& object, MultimapKind kind, MultimapCacheRead read,
                               const std::string& key_bytes, const std::string& value,
                               Done<Reply>& done) {
  eval_reply(
      *object,
      lua::multimap_cache_read({object->name, multimap_ttl_key(object->name, kind),
                                multimap_values_key(object->name, key_bytes)},
                               {std::to_string(unix_time_ms()), key_bytes, multimap_kind_arg(kind),
                                multimap_cache_read_op(read), value}),
      std::move(done));
}

void start_multimap_cache_contains_value(const ObjectPtr& object, MultimapKind kind,
                                         const std::string& value, Done<Reply>& done) {
  eval_reply(
      *object,
      lua::multimap_cache_contains_value({object->name, multimap_ttl_key(object->name, kind)},
                                         {multimap_kind_arg(kind), suffix_name(object->name, ""),
                                          value, std::to_string(unix_time_ms())}),
      std::move(done));
}

std::shared_ptr<void> multimap_cache_sweeper(const ObjectPtr& object) {
  return sweeper_of(
      object, object->kind,
      [object](std::int64_t limit, std::int64_t /*latch_seconds*/, Done<Reply> done) {
        // Redisson's multimap eviction task takes no once-per-interval latch: each client sweeps.
        const auto kind = multimap_kind_of(*object);
        eval_reply(*object,
                   lua::multimap_cache_sweep({object->name, multimap_ttl_key(object->name, kind)},
                                             {std::to_string(unix_time_ms()), std::to_string(limit),
                                              suffix_name(object->name, "")}),
                   std::move(done));
      });
}

}  // namespace redisson::detail

// The bodies of MapCache's own operations (objects/map_cache.hpp): the forms with a time to
// live, the max size, the listeners; its Map operations are Map's, over detail::map_cache_layout.
#pragma once

#include "redisson/objects/map_cache.hpp"

namespace redisson {

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                               CompletionToken&& token) {
  return put_script<std::optional<V>>(token, this->template map_value_reader<V>(), "put", key,
                                      value, ttl, {});
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                               std::chrono::milliseconds max_idle, CompletionToken&& token) {
  return put_script<std::optional<V>>(token, this->template map_value_reader<V>(), "put", key,
                                      value, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_fast_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                                    std::chrono::milliseconds max_idle, CompletionToken&& token) {
  return put_script<bool>(token, &detail::reply_flag, "fast", key, value, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_put_if_absent(const K& key, const V& value,
                                         std::chrono::milliseconds ttl,
                                         std::chrono::milliseconds max_idle,
                                         CompletionToken&& token) {
  return put_script<std::optional<V>>(token, this->template map_value_reader<V>(), "if_absent", key,
                                      value, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_remaining_time_to_live(const K& key, CompletionToken&& token) const {
  return script<std::chrono::milliseconds>(
      token, &detail::reply_ms, detail::MapCacheScript::remaining_ttl, [key](const Codec& codec) {
        return std::vector<std::string>{detail::map_key_bytes(codec, key)};
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_set_max_size(std::int64_t max_size, EvictionMode mode,
                                        CompletionToken&& token) {
  return max_size_script(token, max_size, mode, "set");
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_try_set_max_size(std::int64_t max_size, EvictionMode mode,
                                            CompletionToken&& token) {
  return max_size_script(token, max_size, mode, "try");
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_evict_expired(std::int64_t limit, CompletionToken&& token) {
  return script<std::int64_t>(
      token, &detail::reply_integer, detail::MapCacheScript::sweep, [limit](const Codec&) {
        if (limit <= 0 || limit > 5000)
          detail::throw_invalid_argument("MapCache: evict_expired takes 1..5000 entries");
        return std::vector<std::string>{std::to_string(limit), "0"};
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_add_listener(MapCacheEventKind kind,
                                        std::function<void(const MapCacheEvent<K, V>&)> listener,
                                        CompletionToken&& token) {
  auto on_parts = [codec = this->codec_ptr(), kind,
                   listener = std::move(listener)](const std::vector<std::string>& parts) {
    const Codec& keys = codec->map_key_codec();
    const Codec& values = codec->map_value_codec();
    MapCacheEvent<K, V> event{kind, from_value<K>(keys.decode(parts.at(0))),
                              from_value<V>(values.decode(parts.at(1))), std::nullopt};
    if (kind == MapCacheEventKind::updated) {
      event.old_value = from_value<V>(values.decode(parts.at(2)));
    }
    listener(event);
  };
  return this->template run<ListenerId>(token, &detail::start_map_cache_listen, kind,
                                        std::move(on_parts));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_expire_entry(const K& key, std::chrono::milliseconds ttl,
                                        std::chrono::milliseconds max_idle,
                                        CompletionToken&& token) {
  return expire_script<bool>(token, &detail::reply_flag, "always", {key}, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_expire_entries(const std::vector<K>& keys, std::chrono::milliseconds ttl,
                                          std::chrono::milliseconds max_idle,
                                          CompletionToken&& token) {
  return expire_script<std::int64_t>(token, &detail::reply_integer, "always", keys, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_expire_entry_if_not_set(const K& key, std::chrono::milliseconds ttl,
                                                   std::chrono::milliseconds max_idle,
                                                   CompletionToken&& token) {
  return expire_script<bool>(token, &detail::reply_flag, "if_not_set", {key}, ttl, max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_expire_entries_if_not_set(const std::vector<K>& keys,
                                                     std::chrono::milliseconds ttl,
                                                     std::chrono::milliseconds max_idle,
                                                     CompletionToken&& token) {
  return expire_script<std::int64_t>(token, &detail::reply_integer, "if_not_set", keys, ttl,
                                     max_idle);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_get_with_ttl_only(const K& key, CompletionToken&& token) const {
  return script<std::optional<V>>(
      token,
      [read = this->template map_value_reader<V>()](const Reply& reply) {
        if (!reply.is_aggregate() || reply.elements.empty()) return std::optional<V>{};
        return read(reply.elements.front());
      },
      detail::MapCacheScript::get_ttl_only,
      [key](const Codec& codec) {
        return std::vector<std::string>{detail::map_key_bytes(codec, key)};
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::async_get_all_with_ttl_only(const std::vector<K>& keys,
                                                 CompletionToken&& token) const {
  return script<std::map<K, V>>(token, detail::map_values_by_key<K, V>(keys, this->codec_ptr()),
                                detail::MapCacheScript::get_ttl_only, [keys](const Codec& codec) {
                                  std::vector<std::string> fields;
                                  fields.reserve(keys.size());
                                  for (const auto& key : keys) {
                                    fields.push_back(detail::map_key_bytes(codec, key));
                                  }
                                  return fields;
                                });
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto MapCache<K, V>::expire_script(CompletionToken&& token, Convert convert, const char* mode,
                                   std::vector<K> keys, std::chrono::milliseconds ttl,
                                   std::chrono::milliseconds max_idle) {
  return script<R>(token, convert, detail::MapCacheScript::expire_entries,
                   [keys = std::move(keys), ttl, max_idle, mode](const Codec& codec) {
                     std::vector<std::string> args{
                         std::to_string(detail::map_cache_ms(ttl, "ttl")),
                         std::to_string(detail::map_cache_ms(max_idle, "max_idle")), mode};
                     for (const auto& key : keys) args.push_back(detail::map_key_bytes(codec, key));
                     return args;
                   });
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert, class Encode>
auto MapCache<K, V>::script(CompletionToken&& token, Convert convert, detail::MapCacheScript which,
                            Encode encode) const {
  return detail::async_started<R>(
      this->object_, token,
      [which, encode = std::move(encode)](const detail::ObjectPtr& object,
                                          detail::Done<Reply>& done) {
        detail::start_map_cache_script(object, which, encode(*object->codec), done);
      },
      convert);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto MapCache<K, V>::max_size_script(CompletionToken&& token, std::int64_t max_size,
                                     EvictionMode mode, const char* how) {
  return script<bool>(token, &detail::reply_flag, detail::MapCacheScript::set_max_size,
                      [max_size, mode, how](const Codec&) {
                        if (max_size < 0) {
                          detail::throw_invalid_argument("MapCache: max_size must not be negative");
                        }
                        return std::vector<std::string>{std::to_string(max_size),
                                                        mode == EvictionMode::lfu ? "LFU" : "LRU",
                                                        how};
                      });
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto MapCache<K, V>::put_script(CompletionToken&& token, Convert convert, const char* mode,
                                const K& key, const V& value, std::chrono::milliseconds ttl,
                                std::chrono::milliseconds max_idle) {
  return script<R>(token, convert, detail::MapCacheScript::put,
                   [key, value, ttl, max_idle, mode](const Codec& codec) {
                     const auto ttl_ms = detail::map_cache_ms(ttl, "ttl");
                     const auto idle_ms = detail::map_cache_ms(max_idle, "max_idle");
                     return std::vector<std::string>{std::to_string(ttl_ms),
                                                     std::to_string(idle_ms),
                                                     detail::map_key_bytes(codec, key),
                                                     detail::map_value_bytes(codec, value), mode};
                   });
}

}  // namespace redisson

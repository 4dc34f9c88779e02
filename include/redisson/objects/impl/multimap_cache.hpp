// The bodies of MultimapCacheBase's templates (objects/multimap_cache.hpp).
#pragma once

#include "redisson/objects/multimap_cache.hpp"

namespace redisson {

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class Rep, class Period, class CompletionToken>
auto MultimapCacheBase<K, V, Kind>::async_expire_key(const K& key,
                                                     std::chrono::duration<Rep, Period> ttl,
                                                     CompletionToken&& token) {
  return this->template keyed<bool>(
      token, &detail::reply_positive,
      [key, ttl = detail::saturating_ms(ttl)](const detail::ObjectPtr& object,
                                              detail::Done<Reply>& done) {
        detail::start_multimap_cache_expire_key(object, Kind, Base::key_bytes(*object, key), ttl,
                                                done);
      });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapCacheBase<K, V, Kind>::async_contains_key(const K& key,
                                                       CompletionToken&& token) const {
  return read<bool>(token, &detail::reply_positive, detail::MultimapCacheRead::contains_key, key,
                    std::nullopt);
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapCacheBase<K, V, Kind>::async_contains_entry(const K& key, const V& value,
                                                         CompletionToken&& token) const {
  return read<bool>(token, &detail::reply_positive, detail::MultimapCacheRead::contains_entry, key,
                    value);
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapCacheBase<K, V, Kind>::async_get_all(const K& key, CompletionToken&& token) const {
  return read<std::vector<V>>(token, this->values_reader(), detail::MultimapCacheRead::get_all, key,
                              std::nullopt);
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapCacheBase<K, V, Kind>::async_contains_value(const V& value,
                                                         CompletionToken&& token) const {
  return this->template keyed<bool>(
      token, &detail::reply_positive,
      [value](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_multimap_cache_contains_value(
            object, Kind, detail::map_value_bytes(*object->codec, value), done);
      });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class R, class CompletionToken, class Convert>
auto MultimapCacheBase<K, V, Kind>::read(CompletionToken&& token, Convert convert,
                                         detail::MultimapCacheRead what, const K& key,
                                         std::optional<V> value) const {
  return this->template keyed<R>(
      token, std::move(convert),
      [what, key, value = std::move(value)](const detail::ObjectPtr& object,
                                            detail::Done<Reply>& done) {
        detail::start_multimap_cache_read(
            object, Kind, what, Base::key_bytes(*object, key),
            value ? detail::map_value_bytes(*object->codec, *value) : std::string(), done);
      });
}

}  // namespace redisson

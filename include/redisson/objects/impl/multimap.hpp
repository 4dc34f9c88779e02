// The bodies of MultimapBase's templates (objects/multimap.hpp).
#pragma once

#include "redisson/objects/multimap.hpp"

namespace redisson {

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_put(const K& key, const V& value, CompletionToken&& token) {
  return async_put_all(key, std::vector<V>{value}, std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_put_all(const K& key, std::vector<V> values,
                                             CompletionToken&& token) {
  return keyed<bool>(token, &detail::reply_positive,
                     [key, values = std::move(values)](const detail::ObjectPtr& object,
                                                       detail::Done<Reply>& done) {
                       detail::start_multimap_put(object, Kind, key_bytes(*object, key),
                                                  value_bytes(*object, values), done);
                     });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_remove(const K& key, const V& value, CompletionToken&& token) {
  return keyed<bool>(token, &detail::reply_positive,
                     [key, value](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
                       detail::start_multimap_remove(object, Kind, key_bytes(*object, key),
                                                     detail::map_value_bytes(*object->codec, value),
                                                     done);
                     });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_remove_all(const K& key, CompletionToken&& token) {
  return async_replace_values(key, {}, std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_replace_values(const K& key, std::vector<V> values,
                                                    CompletionToken&& token) {
  return keyed<std::vector<V>>(token, values_reader(),
                               [key, values = std::move(values)](const detail::ObjectPtr& object,
                                                                 detail::Done<Reply>& done) {
                                 detail::start_multimap_replace(object, Kind,
                                                                key_bytes(*object, key),
                                                                value_bytes(*object, values), done);
                               });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_fast_remove(std::vector<K> keys, CompletionToken&& token) {
  return keyed<std::int64_t>(
      token, &detail::reply_integer,
      [keys = std::move(keys)](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> fields;
        fields.reserve(keys.size());
        for (const auto& key : keys) fields.push_back(key_bytes(*object, key));
        detail::start_multimap_fast_remove(object, fields, done);
      });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_contains_key(const K& key, CompletionToken&& token) const {
  return keyed<bool>(token, &detail::reply_positive,
                     [key](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
                       detail::start_multimap_count(object, Kind, key_bytes(*object, key), done);
                     });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_contains_value(const V& value, CompletionToken&& token) const {
  return keyed<bool>(token, &detail::reply_positive,
                     [value](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
                       detail::start_multimap_scan_values(
                           object, Kind, {detail::map_value_bytes(*object->codec, value)}, done);
                     });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_contains_entry(const K& key, const V& value,
                                                    CompletionToken&& token) const {
  return keyed<bool>(token, &detail::reply_positive,
                     [key, value](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
                       detail::start_multimap_contains_entry(
                           object, Kind, key_bytes(*object, key),
                           detail::map_value_bytes(*object->codec, value), done);
                     });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_size(CompletionToken&& token) const {
  return keyed<std::int64_t>(token, &detail::reply_integer,
                             [](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
                               detail::start_multimap_scan_values(object, Kind, {}, done);
                             });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_key_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "HLEN");
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_read_all_key_set(CompletionToken&& token) const {
  return on_key<std::vector<K>>(
      token,
      [codec = object_->codec](const Reply& reply) {
        return detail::decode_elements<K>(codec->map_key_codec(), reply);
      },
      "HKEYS");
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_read_all_entries(CompletionToken&& token) const {
  return keyed<std::vector<std::pair<K, V>>>(
      token, [codec = object_->codec](const Reply& reply) { return decode_entries(*codec, reply); },
      &start_entries);
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_read_all_values(CompletionToken&& token) const {
  return keyed<std::vector<V>>(
      token,
      [codec = object_->codec](const Reply& reply) {
        std::vector<V> values;
        for (auto& entry : decode_entries(*codec, reply)) values.push_back(std::move(entry.second));
        return values;
      },
      &start_entries);
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class CompletionToken>
auto MultimapBase<K, V, Kind>::async_fast_remove_value(std::vector<V> values,
                                                       CompletionToken&& token) {
  return keyed<std::int64_t>(
      token, &detail::reply_integer,
      [values = std::move(values)](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_multimap_fast_remove_value(object, Kind, value_bytes(*object, values), done);
      });
}

template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
template <class R, class CompletionToken, class Convert, class Start>
auto MultimapBase<K, V, Kind>::keyed(CompletionToken&& token, Convert convert, Start start) const {
  return detail::async_started<R>(object_, token, std::move(start), std::move(convert));
}

}  // namespace redisson

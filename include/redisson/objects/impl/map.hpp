// The bodies of Map's asynchronous forms (objects/map.hpp): each names its MapOp, how its
// arguments are encoded and how its reply is read; the map's layout does the rest.
#pragma once

#include "redisson/objects/map.hpp"

namespace redisson {

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_get(const K& key, CompletionToken&& token) const {
  return keyed<std::optional<V>>(token, map_value_reader<V>(), detail::MapOp::get, key);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_put(const K& key, const V& value, CompletionToken&& token) {
  return keyed<std::optional<V>>(token, map_value_reader<V>(), detail::MapOp::put, key, value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
  return keyed<std::optional<V>>(token, map_value_reader<V>(), detail::MapOp::put_if_absent, key,
                                 value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
  return keyed<std::optional<V>>(token, map_value_reader<V>(), detail::MapOp::put_if_exists, key,
                                 value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_replace(const K& key, const V& value, CompletionToken&& token) {
  return async_put_if_exists(key, value, std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_fast_put(const K& key, const V& value, CompletionToken&& token) {
  return keyed<bool>(token, &detail::reply_flag, detail::MapOp::fast_put, key, value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_fast_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
  return keyed<bool>(token, &detail::reply_flag, detail::MapOp::fast_put_if_absent, key, value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_fast_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
  return keyed<bool>(token, &detail::reply_flag, detail::MapOp::fast_put_if_exists, key, value);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_replace(const K& key, const V& expected, const V& update,
                              CompletionToken&& token) {
  return compare(token, key, expected, update);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_remove(const K& key, CompletionToken&& token) {
  return keyed<std::optional<V>>(token, map_value_reader<V>(), detail::MapOp::remove, key);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_remove(const K& key, const V& expected, CompletionToken&& token) {
  return compare(token, key, expected, std::nullopt);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_fast_remove(const std::vector<K>& keys, CompletionToken&& token) {
  return with_keys<std::int64_t>(token, &detail::reply_integer, detail::MapOp::fast_remove, keys);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_contains_key(const K& key, CompletionToken&& token) const {
  return keyed<bool>(token, &detail::reply_flag, detail::MapOp::contains_key, key);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_contains_value(const V& value, CompletionToken&& token) const {
  return run_on_layout<bool>(
      token, &detail::reply_flag, detail::MapOp::contains_value, [value](const Codec& codec) {
        return std::vector<std::string>{detail::map_value_bytes(codec, value)};
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_size(CompletionToken&& token) const {
  return run_on_layout<std::int64_t>(token, &detail::reply_integer, detail::MapOp::size,
                                     [](const Codec&) { return std::vector<std::string>{}; });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_get_all(const std::vector<K>& keys, CompletionToken&& token) const {
  return with_keys<std::map<K, V>>(token, detail::map_values_by_key<K, V>(keys, object_->codec),
                                   detail::MapOp::get_all, keys);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_put_all(const std::map<K, V>& entries, CompletionToken&& token) {
  return run_on_layout<void>(
      token, &detail::reply_ignore, detail::MapOp::put_all,
      [entries](const Codec& codec) { return detail::map_entries_bytes(codec, entries); });
}

template <JavaValue K, JavaValue V>
template <class N, class CompletionToken>
requires std::is_arithmetic_v<N>
auto Map<K, V>::async_add_and_get(const K& key, N delta, CompletionToken&& token) {
  return run_on_layout<N>(
      token,
      [](const Reply& reply) -> N {
        if constexpr (std::is_floating_point_v<N>) {
          return static_cast<N>(detail::reply_double(reply));
        } else {
          return static_cast<N>(detail::reply_counter(reply));
        }
      },
      detail::MapOp::add_and_get,
      [key, delta](const Codec& codec) {
        std::string text;
        if constexpr (std::is_floating_point_v<N>) {
          text = detail::plain_decimal_argument(static_cast<double>(delta));
        } else {
          text = std::to_string(static_cast<std::int64_t>(delta));
        }
        return std::vector<std::string>{detail::map_key_bytes(codec, key), std::move(text)};
      });
}

template <JavaValue K, JavaValue V>
std::vector<std::pair<K, V>> Map<K, V>::decode_entries(const Codec& codec, const Reply& page) {
  std::vector<std::pair<K, V>> entries;
  entries.reserve(page.elements.size() / 2);
  for (std::size_t i = 0; i + 1 < page.elements.size(); i += 2) {
    auto key = detail::decode_reply<K>(codec.map_key_codec(), page.elements[i]);
    auto value = detail::decode_reply<V>(codec.map_value_codec(), page.elements[i + 1]);
    if (key && value) entries.emplace_back(std::move(*key), std::move(*value));
  }
  return entries;
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert, class Encode>
auto Map<K, V>::run_on_layout(CompletionToken&& token, Convert convert, detail::MapOp op,
                              Encode encode) const {
  return detail::async_started<R>(
      object_, token,
      [layout = layout_, op, encode = std::move(encode)](const detail::ObjectPtr& object,
                                                         detail::Done<Reply>& done) {
        layout->start(object, op, encode(*object->codec), done);
      },
      std::move(convert));
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto Map<K, V>::keyed(CompletionToken&& token, Convert convert, detail::MapOp op, const K& key,
                      std::optional<V> value) const {
  return run_on_layout<R>(token, std::move(convert), op,
                          [key, value = std::move(value)](const Codec& codec) {
                            std::vector<std::string> args{detail::map_key_bytes(codec, key)};
                            if (value) args.push_back(detail::map_value_bytes(codec, *value));
                            return args;
                          });
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto Map<K, V>::with_keys(CompletionToken&& token, Convert convert, detail::MapOp op,
                          const std::vector<K>& keys) const {
  return run_on_layout<R>(token, std::move(convert), op, [keys](const Codec& codec) {
    std::vector<std::string> fields;
    fields.reserve(keys.size());
    for (const auto& key : keys) fields.push_back(detail::map_key_bytes(codec, key));
    return fields;
  });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::compare(CompletionToken&& token, const K& key, const V& expected,
                        std::optional<V> update) const {
  return run_on_layout<bool>(token, &detail::reply_flag, detail::MapOp::replace_if_equal,
                             [key, expected, update = std::move(update)](const Codec& codec) {
                               return std::vector<std::string>{
                                   detail::map_key_bytes(codec, key),
                                   detail::map_value_bytes(codec, expected), update ? "1" : "0",
                                   update ? detail::map_value_bytes(codec, *update) : ""};
                             });
}

}  // namespace redisson

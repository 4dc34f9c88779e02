// The bodies of Map's asynchronous forms (objects/map.hpp): each names its MapOp, how its
// arguments are encoded and how its reply is read; the map's layout does the rest.
#pragma once

#include "redisson/objects/map.hpp"

namespace redisson {

namespace detail {

template <JavaValue K, JavaValue V>
std::vector<std::pair<K, V>> decode_map_entries(const Codec& codec, const Reply& page) {
  std::vector<std::pair<K, V>> entries;
  if (page.is_null()) return entries;
  if (!page.is_aggregate()) throw_unexpected_reply("an array of entries", page);
  entries.reserve(page.elements.size() / 2);
  const auto add = [&](const Reply& key_bytes, const Reply& value_bytes) {
    auto key = decode_reply<K>(codec.map_key_codec(), key_bytes);
    auto value = decode_reply<V>(codec.map_value_codec(), value_bytes);
    if (key && value) entries.emplace_back(std::move(*key), std::move(*value));
  };
  const auto& elements = page.elements;
  for (std::size_t i = 0; i < elements.size();) {
    // Key, value, ... flat (HSCAN, HGETALL, scripts), or [key, value] pairs: RESP3's HRANDFIELD
    // WITHVALUES.
    if (elements[i].is_aggregate()) {
      if (elements[i].elements.size() == 2) add(elements[i].elements[0], elements[i].elements[1]);
      i += 1;
    } else {
      if (i + 1 < elements.size()) add(elements[i], elements[i + 1]);
      i += 2;
    }
  }
  return entries;
}

template <class N>
std::string decimal_delta(N delta) {
  if constexpr (std::is_floating_point_v<N>) {
    return plain_decimal_argument(static_cast<double>(delta));
  } else {
    return std::to_string(static_cast<std::int64_t>(delta));
  }
}

template <class N>
N reply_number(const Reply& reply) {
  if constexpr (std::is_floating_point_v<N>) {
    return static_cast<N>(reply_double(reply));
  } else {
    return static_cast<N>(reply_counter(reply));
  }
}

}  // namespace detail

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
  return whole<std::int64_t>(token, &detail::reply_integer, detail::MapOp::size);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_empty(CompletionToken&& token) const {
  return whole<bool>(
      token, [](const Reply& reply) { return detail::reply_integer(reply) == 0; },
      detail::MapOp::size);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_fast_replace(const K& key, const V& value, CompletionToken&& token) {
  return async_fast_put_if_exists(key, value, std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_value_size(const K& key, CompletionToken&& token) const {
  return keyed<std::int64_t>(token, &detail::reply_integer, detail::MapOp::value_size, key);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_read_all_map(CompletionToken&& token) const {
  return whole<std::map<K, V>>(token, map_reader(), detail::MapOp::read_all_entries);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_read_all_key_set(CompletionToken&& token) const {
  return whole<std::set<K>>(token, key_set_reader(), detail::MapOp::read_all_keys);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_read_all_values(CompletionToken&& token) const {
  return whole<std::vector<V>>(
      token,
      [codec = object_->codec](const Reply& reply) {
        return detail::decode_elements<V>(codec->map_value_codec(), reply);
      },
      detail::MapOp::read_all_values);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_random_keys(std::int64_t count, CompletionToken&& token) const {
  return random_pick<std::set<K>>(token, key_set_reader(), detail::MapOp::random_keys, count);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_random_entries(std::int64_t count, CompletionToken&& token) const {
  return random_pick<std::map<K, V>>(token, map_reader(), detail::MapOp::random_entries, count);
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
  return run_on_layout<N>(token, &detail::reply_number<N>, detail::MapOp::add_and_get,
                          [key, delta](const Codec& codec) {
                            return std::vector<std::string>{detail::map_key_bytes(codec, key),
                                                            detail::decimal_delta(delta)};
                          });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_get_or_default(const K& key, const V& fallback,
                                     CompletionToken&& token) const {
  return keyed<V>(
      token,
      [read = map_value_reader<V>(), fallback](const Reply& reply) -> V {
        auto value = read(reply);
        return value ? std::move(*value) : fallback;
      },
      detail::MapOp::get, key);
}

// ---- read-modify-write under the entry's lock (Redisson's RedissonMap steps) ----------------

template <JavaValue K, JavaValue V>
template <class Store>
std::optional<V> Map<K, V>::compute_storing(const K& key, const Remapping& remap, Store store) {
  std::optional<V> result;
  under_entry_lock(key, [&] {
    const std::optional<V> old = get(key);
    result = remap(key, old);
    if (result) {
      store(key, *result);
    } else if (old) {
      this->fast_remove({key});
    }
  });
  return result;
}

template <JavaValue K, JavaValue V>
template <class StoreIfAbsent>
std::optional<V> Map<K, V>::compute_if_absent_storing(
    const K& key, const std::function<std::optional<V>(const K& key)>& make,
    StoreIfAbsent store_if_absent) {
  // Redisson reads first and takes the lock only for an absent key.
  if (auto present = get(key)) return present;
  std::optional<V> result;
  under_entry_lock(key, [&] {
    result = get(key);
    if (result) return;
    result = make(key);
    if (!result) return;
    // Someone not taking the lock may have stored meanwhile: their value wins, as in Redisson.
    if (auto raced = store_if_absent(key, *result)) result = std::move(raced);
  });
  return result;
}

template <JavaValue K, JavaValue V>
std::optional<V> Map<K, V>::compute_if_present(
    const K& key, const std::function<std::optional<V>(const K& key, const V& value)>& remap) {
  std::optional<V> result;
  under_entry_lock(key, [&] {
    const std::optional<V> old = get(key);
    if (!old) return;
    result = remap(key, *old);
    if (!result) {
      remove(key, *old);
    } else if (!fast_put_if_exists(key, *result)) {
      result.reset();  // removed meanwhile by someone not taking the lock
    }
  });
  return result;
}

template <JavaValue K, JavaValue V>
std::optional<V> Map<K, V>::merge(
    const K& key, const V& value,
    const std::function<std::optional<V>(const V& old_value, const V& value)>& remap) {
  std::optional<V> result;
  under_entry_lock(key, [&] {
    const std::optional<V> old = get(key);
    result = old ? remap(*old, value) : std::optional<V>(value);
    if (result) {
      fast_put(key, *result);
    } else {
      this->fast_remove({key});
    }
  });
  return result;
}

namespace detail {
/// Calls the caller's `function`; true if it returned, else `finished` got function_failed.
template <class Function>
bool call_caller_function(const std::function<void(Status)>& finished, Function&& function) {
  try {
    function();
    return true;
  } catch (const std::exception& e) {
    finished(Status{make_error_code(errc::function_failed), e.what()});
  } catch (...) {
    finished(Status{make_error_code(errc::function_failed), "a non-exception was thrown"});
  }
  return false;
}
/// A completion handler for a write inside an entry-locked step: hands its error to `finished`.
inline auto finish_with(std::function<void(Status)> finished) {
  return [finished = std::move(finished)](std::error_code ec, auto&&...) { finished(Status{ec}); };
}
}  // namespace detail

template <JavaValue K, JavaValue V>
template <class Step, class CompletionToken>
auto Map<K, V>::async_under_entry_lock(const K& key, Step step, CompletionToken&& token) {
  return detail::async_op<std::optional<V>>(
      object_->core, token,
      [self = *this, key, step = std::move(step)](detail::Done<std::optional<V>> done) mutable {
        std::string lock;
        try {
          lock = self.lock_name(key);  // encodes the key: a codec_error is the completion's
        } catch (const error& e) {
          return done(detail::Status{e.code(), e.what()}, std::nullopt);
        }
        auto result = std::make_shared<std::optional<V>>();
        detail::start_under_entry_lock(
            self.object_, std::move(lock),
            [self, result, step = std::move(step)](
                detail::UniqueFunction<void(detail::Status)> finished) mutable {
              // The map's async forms take copyable handlers: the steps pass this one along.
              auto shared = std::make_shared<detail::UniqueFunction<void(detail::Status)>>(
                  std::move(finished));
              step(self, result,
                   std::function<void(detail::Status)>(
                       [shared](detail::Status status) { (*shared)(std::move(status)); }));
            },
            [result, done = std::move(done)](detail::Status status) mutable {
              if (status) return done(std::move(status), std::nullopt);
              done(detail::Status{}, std::move(*result));
            });
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_compute(
    const K& key,
    std::function<std::optional<V>(const K& key, const std::optional<V>& value)> remap,
    CompletionToken&& token) {
  return async_under_entry_lock(
      key,
      [key, remap = std::move(remap)](Map self, std::shared_ptr<std::optional<V>> result,
                                      std::function<void(detail::Status)> finished) {
        self.async_get(key, [self, key, remap, result, finished = std::move(finished)](
                                std::error_code ec, std::optional<V> old) mutable {
          if (ec) return finished(detail::Status{ec});
          if (!detail::call_caller_function(finished, [&] { *result = remap(key, old); })) return;
          if (*result)
            return self.async_fast_put(key, **result, detail::finish_with(std::move(finished)));
          if (old) return self.async_fast_remove({key}, detail::finish_with(std::move(finished)));
          finished(detail::Status{});
        });
      },
      std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_compute_if_absent(const K& key,
                                        std::function<std::optional<V>(const K& key)> make,
                                        CompletionToken&& token) {
  // Redisson's async form takes the lock first (its blocking form reads first).
  return async_under_entry_lock(
      key,
      [key, make = std::move(make)](Map self, std::shared_ptr<std::optional<V>> result,
                                    std::function<void(detail::Status)> finished) {
        self.async_get(key, [self, key, make, result, finished = std::move(finished)](
                                std::error_code ec, std::optional<V> present) mutable {
          if (ec) return finished(detail::Status{ec});
          if (present) {
            *result = std::move(present);
            return finished(detail::Status{});
          }
          if (!detail::call_caller_function(finished, [&] { *result = make(key); })) return;
          if (!*result) return finished(detail::Status{});
          self.async_put_if_absent(key, **result,
                                   [result, finished = std::move(finished)](
                                       std::error_code ec, std::optional<V> raced) mutable {
                                     if (raced) *result = std::move(raced);
                                     finished(detail::Status{ec});
                                   });
        });
      },
      std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_compute_if_present(
    const K& key, std::function<std::optional<V>(const K& key, const V& value)> remap,
    CompletionToken&& token) {
  return async_under_entry_lock(
      key,
      [key, remap = std::move(remap)](Map self, std::shared_ptr<std::optional<V>> result,
                                      std::function<void(detail::Status)> finished) {
        self.async_get(key, [self, key, remap, result, finished = std::move(finished)](
                                std::error_code ec, std::optional<V> old) mutable {
          if (ec || !old) return finished(detail::Status{ec});
          if (!detail::call_caller_function(finished, [&] { *result = remap(key, *old); })) {
            return;
          }
          if (!*result) {
            return self.async_remove(key, *old, detail::finish_with(std::move(finished)));
          }
          self.async_fast_put_if_exists(
              key, **result,
              [result, finished = std::move(finished)](std::error_code ec, bool stored) mutable {
                if (!stored) result->reset();  // removed meanwhile by someone not locking
                finished(detail::Status{ec});
              });
        });
      },
      std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Map<K, V>::async_merge(
    const K& key, const V& value,
    std::function<std::optional<V>(const V& old_value, const V& value)> remap,
    CompletionToken&& token) {
  return async_under_entry_lock(
      key,
      [key, value, remap = std::move(remap)](Map self, std::shared_ptr<std::optional<V>> result,
                                             std::function<void(detail::Status)> finished) {
        self.async_get(key, [self, key, value, remap, result, finished = std::move(finished)](
                                std::error_code ec, std::optional<V> old) mutable {
          if (ec) return finished(detail::Status{ec});
          if (!old) {
            *result = value;
          } else if (!detail::call_caller_function(finished,
                                                   [&] { *result = remap(*old, value); })) {
            return;
          }
          if (*result)
            return self.async_fast_put(key, **result, detail::finish_with(std::move(finished)));
          self.async_fast_remove({key}, detail::finish_with(std::move(finished)));
        });
      },
      std::forward<CompletionToken>(token));
}

template <JavaValue K, JavaValue V>
void Map<K, V>::replace_all(const std::function<V(const K& key, const V& value)>& remap) {
  for (auto& [key, value] : entries()) {
    std::optional<V> current = std::move(value);
    // ConcurrentMap.replaceAll: retry with the newer value until the replace lands or the key
    // is gone.
    while (current && !replace(key, *current, remap(key, *current))) current = get(key);
  }
}

template <JavaValue K, JavaValue V>
std::vector<K> Map<K, V>::decode_keys(const Codec& codec, const Reply& page) {
  std::vector<K> keys;
  for (auto& entry : decode_entries(codec, page)) keys.push_back(std::move(entry.first));
  return keys;
}

template <JavaValue K, JavaValue V>
std::vector<V> Map<K, V>::decode_values(const Codec& codec, const Reply& page) {
  std::vector<V> values;
  for (auto& entry : decode_entries(codec, page)) values.push_back(std::move(entry.second));
  return values;
}

template <JavaValue K, JavaValue V>
std::vector<std::pair<K, V>> Map<K, V>::decode_entries(const Codec& codec, const Reply& page) {
  return detail::decode_map_entries<K, V>(codec, page);
}

template <JavaValue K, JavaValue V>
auto Map<K, V>::key_set_reader() const {
  return [codec = object_->codec](const Reply& reply) {
    auto keys = detail::decode_elements<K>(codec->map_key_codec(), reply);
    return std::set<K>(std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  };
}

template <JavaValue K, JavaValue V>
auto Map<K, V>::map_reader() const {
  return [codec = object_->codec](const Reply& reply) {
    auto entries = decode_entries(*codec, reply);
    return std::map<K, V>(std::make_move_iterator(entries.begin()),
                          std::make_move_iterator(entries.end()));
  };
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto Map<K, V>::whole(CompletionToken&& token, Convert convert, detail::MapOp op) const {
  return run_on_layout<R>(token, std::move(convert), op,
                          [](const Codec&) { return std::vector<std::string>{}; });
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto Map<K, V>::random_pick(CompletionToken&& token, Convert convert, detail::MapOp op,
                            std::int64_t count) const {
  return run_on_layout<R>(token, std::move(convert), op, [count](const Codec&) {
    // HRANDFIELD's negative count picks with repeats, which a set or map cannot answer.
    if (count < 0) detail::throw_invalid_argument("Map: random count must not be negative");
    return std::vector<std::string>{std::to_string(count)};
  });
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
  if (layout_ == &detail::plain_map_layout) {
    if (const char* verb = detail::plain_map_verb(op)) {
      return detail::async_command<R>(
          object_, token,
          [&] {
            Command command{verb, name(), detail::map_key_bytes(codec(), key)};
            if (value) command.arg(detail::map_value_bytes(codec(), *value));
            return command;
          },
          std::move(convert));
    }
  }
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

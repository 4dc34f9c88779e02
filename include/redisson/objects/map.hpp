// redisson::Map<K, V>: a map shared through one Redis hash, Java Redisson's RMap.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// The map scripts (src/objects/lua/map_*.lua), run on the map's hash with `args` as ARGV.
enum class MapScript {
  put,
  put_if_absent,
  put_if_exists,
  fast_put_if_exists,
  replace_if_equal,
  remove,
  contains_value
};
void start_map_script(const ObjectPtr& object, MapScript script,
                      const std::vector<std::string>& args, Done<Reply>& done);
/// put_all: HSET of field/value bytes (flat), in commands of at most 1,000 entries, pipelined.
/// Completes with an integer reply: the number of new fields.
void start_map_put_all(const ObjectPtr& object, std::vector<std::string> fields_and_values,
                       Done<Reply>& done);
/// Redisson's per-key lock name: `{n}:<hash128toBase64(key bytes)>:lock` (suffixName rules).
std::string map_lock_name(const std::string& name, std::string_view key_bytes);
}  // namespace detail

/// A map of K to V stored in the hash `name`: each key is a field holding the map-key codec's
/// bytes, each value the map-value codec's (a composite codec gives them different codecs;
/// others use the same one for both). The layout of Java Redisson's RMap, so a Java service and
/// a C++ service share one map when they use the same codec.
///
/// Cost: each operation is one round trip: one command (HGET, HSET, HSETNX, HDEL, HEXISTS,
/// HLEN, HMGET, HINCRBYFLOAT) or one script for the operations that answer the value they
/// replace or compare values (put, put_if_absent, put_if_exists, replace, remove). put_all sends
/// one HSET per 1,000 entries, pipelined. entries() reads the map in pages of HSCAN, never one
/// HGETALL. contains_value() compares on the server, O(size).
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as K or V are errc::codec_error. Values are compared as encoded bytes (replace(k, expected,
/// update), remove(k, expected), contains_value): with Kryo or JSON a HashMap/HashSet value
/// compares equal only with the same iteration order, which the codecs reproduce.
///
/// A handle: cheap to copy, sends nothing until an operation is called, thread-safe.
template <JavaValue K, JavaValue V>
class Map : public Object {
 public:
  /// A handle on the map `name`; sends nothing. `codec` null: the client's default codec.
  Map(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "Map") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(const K& key, CompletionToken&& token) const {
    return field_command<std::optional<V>>(token, map_value_reader<V>(), "HGET", key);
  }
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, CompletionToken&& token) {
    return entry_script<std::optional<V>>(token, map_value_reader<V>(), detail::MapScript::put, key,
                                          value);
  }
  template <class CompletionToken>
  auto async_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
    return entry_script<std::optional<V>>(token, map_value_reader<V>(),
                                          detail::MapScript::put_if_absent, key, value);
  }
  template <class CompletionToken>
  auto async_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
    return entry_script<std::optional<V>>(token, map_value_reader<V>(),
                                          detail::MapScript::put_if_exists, key, value);
  }
  template <class CompletionToken>
  auto async_replace(const K& key, const V& value, CompletionToken&& token) {
    return async_put_if_exists(key, value, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_fast_put(const K& key, const V& value, CompletionToken&& token) {
    return field_command<bool>(token, &detail::reply_flag, "HSET", key, value);
  }
  template <class CompletionToken>
  auto async_fast_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
    return field_command<bool>(token, &detail::reply_flag, "HSETNX", key, value);
  }
  template <class CompletionToken>
  auto async_fast_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
    return entry_script<bool>(token, &detail::reply_flag, detail::MapScript::fast_put_if_exists,
                              key, value);
  }
  template <class CompletionToken>
  auto async_replace(const K& key, const V& expected, const V& update, CompletionToken&& token) {
    return compare_script(token, key, expected, update);
  }
  template <class CompletionToken>
  auto async_remove(const K& key, CompletionToken&& token) {
    return script<std::optional<V>>(
        token, map_value_reader<V>(), detail::MapScript::remove, [key](const Codec& codec) {
          return std::vector<std::string>{detail::map_key_bytes(codec, key)};
        });
  }
  template <class CompletionToken>
  auto async_remove(const K& key, const V& expected, CompletionToken&& token) {
    return compare_script(token, key, expected, std::nullopt);
  }
  template <class CompletionToken>
  auto async_fast_remove(const std::vector<K>& keys, CompletionToken&& token) {
    return keys_command<std::int64_t>(token, &detail::reply_integer, "HDEL", keys);
  }
  template <class CompletionToken>
  auto async_contains_key(const K& key, CompletionToken&& token) const {
    return field_command<bool>(token, &detail::reply_flag, "HEXISTS", key);
  }
  template <class CompletionToken>
  auto async_contains_value(const V& value, CompletionToken&& token) const {
    return script<bool>(token, &detail::reply_flag, detail::MapScript::contains_value,
                        [value](const Codec& codec) {
                          return std::vector<std::string>{detail::map_value_bytes(codec, value)};
                        });
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "HLEN");
  }
  template <class CompletionToken>
  auto async_get_all(const std::vector<K>& keys, CompletionToken&& token) const {
    return keys_command<std::map<K, V>>(
        token,
        [keys, codec = object_->codec](const Reply& reply) {
          std::map<K, V> found;
          for (std::size_t i = 0; i < keys.size() && i < reply.elements.size(); ++i) {
            auto value = detail::decode_reply<V>(codec->map_value_codec(), reply.elements[i]);
            if (value) found.insert_or_assign(keys[i], std::move(*value));
          }
          return found;
        },
        "HMGET", keys);
  }
  template <class CompletionToken>
  auto async_put_all(const std::map<K, V>& entries, CompletionToken&& token) {
    return detail::async_started<void>(
        object_, token,
        [entries](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          std::vector<std::string> flat;
          flat.reserve(entries.size() * 2);
          for (const auto& [key, value] : entries) {
            flat.push_back(detail::map_key_bytes(*object->codec, key));
            flat.push_back(detail::map_value_bytes(*object->codec, value));
          }
          detail::start_map_put_all(object, std::move(flat), done);
        },
        &detail::reply_ignore);
  }
  /// HINCRBYFLOAT: the value must be stored as decimal text (a LongCodec/DoubleCodec/
  /// StringCodec value codec, as in Redisson); otherwise the server refuses (server_error).
  template <class N, class CompletionToken>
  requires std::is_arithmetic_v<N>
  auto async_add_and_get(const K& key, N delta, CompletionToken&& token) {
    return detail::async_command<N>(
        object_, token,
        [&] {
          Command command{"HINCRBYFLOAT", name(), detail::map_key_bytes(codec(), key)};
          if constexpr (std::is_floating_point_v<N>) {
            command.arg(detail::plain_decimal_argument(static_cast<double>(delta)));
          } else {
            command.arg(static_cast<std::int64_t>(delta));
          }
          return command;
        },
        [](const Reply& reply) -> N {
          if constexpr (std::is_floating_point_v<N>) {
            return static_cast<N>(detail::reply_double(reply));
          } else {
            return static_cast<N>(detail::reply_counter(reply));
          }
        });
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The value of `key`, or nullopt when absent.
  std::optional<V> get(const K& key) const { return async_get(key, blocking("get")); }
  /// Stores `value` under `key`; returns the value it replaced.
  std::optional<V> put(const K& key, const V& value) {
    return async_put(key, value, blocking("put"));
  }
  /// Stores `value` only if `key` is absent; returns nullopt if stored, else the present value.
  std::optional<V> put_if_absent(const K& key, const V& value) {
    return async_put_if_absent(key, value, blocking("put_if_absent"));
  }
  /// Stores `value` only if `key` is present; returns the value it replaced (nullopt: absent,
  /// nothing stored).
  std::optional<V> put_if_exists(const K& key, const V& value) {
    return async_put_if_exists(key, value, blocking("put_if_exists"));
  }
  /// Java's Map.replace(key, value): put_if_exists.
  std::optional<V> replace(const K& key, const V& value) {
    return async_replace(key, value, blocking("replace"));
  }
  /// Stores `value` without reading the old one; true if `key` was new.
  bool fast_put(const K& key, const V& value) {
    return async_fast_put(key, value, blocking("fast_put"));
  }
  /// Stores `value` only if `key` is absent (HSETNX); true if stored.
  bool fast_put_if_absent(const K& key, const V& value) {
    return async_fast_put_if_absent(key, value, blocking("fast_put_if_absent"));
  }
  /// Stores `value` only if `key` is present; true if stored.
  bool fast_put_if_exists(const K& key, const V& value) {
    return async_fast_put_if_exists(key, value, blocking("fast_put_if_exists"));
  }
  /// Stores `update` only if `key` holds `expected` (compared as encoded bytes); true if it did.
  bool replace(const K& key, const V& expected, const V& update) {
    return async_replace(key, expected, update, blocking("replace"));
  }
  /// Removes `key`; returns the value it had.
  std::optional<V> remove(const K& key) { return async_remove(key, blocking("remove")); }
  /// Removes `key` only if it holds `expected`; true if it did.
  bool remove(const K& key, const V& expected) {
    return async_remove(key, expected, blocking("remove"));
  }
  /// Removes the keys (HDEL) without reading their values; returns how many were there.
  std::int64_t fast_remove(const std::vector<K>& keys) {
    return async_fast_remove(keys, blocking("fast_remove"));
  }
  /// True if `key` is present (HEXISTS).
  bool contains_key(const K& key) const {
    return async_contains_key(key, blocking("contains_key"));
  }
  /// True if some entry holds `value` (compared on the server, O(size)).
  bool contains_value(const V& value) const {
    return async_contains_value(value, blocking("contains_value"));
  }
  /// The number of entries (HLEN).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// The values of those `keys` that are present (HMGET), by key.
  std::map<K, V> get_all(const std::vector<K>& keys) const {
    return async_get_all(keys, blocking("get_all"));
  }
  /// Stores every entry (HSET, 1,000 entries per command, pipelined): not atomic as a whole.
  void put_all(const std::map<K, V>& entries) { async_put_all(entries, blocking("put_all")); }
  /// Adds `delta` to the number stored under `key` (absent: 0); returns the new value.
  template <class N>
  requires std::is_arithmetic_v<N> N add_and_get(const K& key, N delta) {
    return async_add_and_get(key, delta, blocking("add_and_get"));
  }

  /// The entries, read in pages of about `page_size` with HSCAN as they are iterated (see
  /// CollectionScan for what a scan guarantees). Sends nothing until the first page is asked.
  CollectionScan<std::pair<K, V>> entries(std::int64_t page_size = 100) const {
    return CollectionScan<std::pair<K, V>>(object_, "HSCAN", page_size, &decode_entries);
  }
  /// Redisson's name for the lock of `key` (`{name}:<hash of the key's bytes>:lock`): a
  /// `redisson::Lock(client, map.lock_name(key))` is the lock Java's map.getLock(key) returns.
  std::string lock_name(const K& key) const {
    return detail::map_lock_name(name(), detail::map_key_bytes(codec(), key));
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  static std::vector<std::pair<K, V>> decode_entries(const Codec& codec, const Reply& page) {
    std::vector<std::pair<K, V>> entries;
    entries.reserve(page.elements.size() / 2);
    for (std::size_t i = 0; i + 1 < page.elements.size(); i += 2) {
      auto key = detail::decode_reply<K>(codec.map_key_codec(), page.elements[i]);
      auto value = detail::decode_reply<V>(codec.map_value_codec(), page.elements[i + 1]);
      if (key && value) entries.emplace_back(std::move(*key), std::move(*value));
    }
    return entries;
  }

  /// `verb name <key bytes> [<value bytes>]`, encoded as the command is built (a codec_error is
  /// the completion's).
  template <class R, class CompletionToken, class Convert, class... Value>
  auto field_command(CompletionToken&& token, Convert convert, const char* verb, const K& key,
                     const Value&... value) const {
    return detail::async_command<R>(
        object_, token,
        [&] {
          Command command{verb, name(), detail::map_key_bytes(codec(), key)};
          (command.arg(detail::map_value_bytes(codec(), value)), ...);
          return command;
        },
        convert);
  }
  /// `verb name <key bytes>...` (HDEL, HMGET); none sent for no keys.
  template <class R, class CompletionToken, class Convert>
  auto keys_command(CompletionToken&& token, Convert convert, const char* verb,
                    const std::vector<K>& keys) const {
    return detail::async_started<R>(
        object_, token,
        [verb, keys](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          std::vector<std::string> fields;
          fields.reserve(keys.size());
          for (const auto& key : keys) fields.push_back(detail::map_key_bytes(*object->codec, key));
          detail::start_with_arguments(object, verb, fields, done);
        },
        convert);
  }
  /// A map script; `encode(codec)` makes its ARGV when the operation starts.
  template <class R, class CompletionToken, class Convert, class Encode>
  auto script(CompletionToken&& token, Convert convert, detail::MapScript which,
              Encode encode) const {
    return detail::async_started<R>(
        object_, token,
        [which, encode = std::move(encode)](const detail::ObjectPtr& object,
                                            detail::Done<Reply>& done) {
          detail::start_map_script(object, which, encode(*object->codec), done);
        },
        convert);
  }
  /// A map script with ARGV = key bytes, value bytes.
  template <class R, class CompletionToken, class Convert>
  auto entry_script(CompletionToken&& token, Convert convert, detail::MapScript which, const K& key,
                    const V& value) {
    return script<R>(token, convert, which, [key, value](const Codec& codec) {
      return std::vector<std::string>{detail::map_key_bytes(codec, key),
                                      detail::map_value_bytes(codec, value)};
    });
  }
  template <class CompletionToken>
  auto compare_script(CompletionToken&& token, const K& key, const V& expected,
                      std::optional<V> update) {
    return script<bool>(token, &detail::reply_flag, detail::MapScript::replace_if_equal,
                        [key, expected, update = std::move(update)](const Codec& codec) {
                          return std::vector<std::string>{
                              detail::map_key_bytes(codec, key),
                              detail::map_value_bytes(codec, expected), update ? "1" : "0",
                              update ? detail::map_value_bytes(codec, *update) : ""};
                        });
  }
};

}  // namespace redisson

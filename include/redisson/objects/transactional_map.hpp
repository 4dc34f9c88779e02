// redisson::TransactionalMap<K, V>: a Map inside a Transaction (Java Redisson's
// RedissonTransactionalMap).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/detail/transactional_object.hpp"
#include "redisson/objects/map.hpp"

namespace redisson {

/// The map `name` (Map<K, V>'s hash layout) seen through a Transaction. Reads answer the
/// transaction's own writes for the keys it wrote, else read Redis (HGET, HEXISTS, HMGET,
/// HSTRLEN; size: HLEN, then an HMGET of the written keys, so that it counts the transaction's
/// writes; read_all_map, its keys and values, contains_value: HGETALL with the transaction's own
/// entries laid over it, the whole map in memory at once, as in Redisson). A write
/// takes the key's lock `{name}:<hash of the key's bytes>:lock` (Map::lock_name), reads the
/// key's value (HGET; put_all reads nothing) and records what commit() sends: Map's put script
/// or command for the same operation (put: map_put script, fast_put: HSET, put_if_absent:
/// its script, fast_put_if_absent: HSETNX, put_if_exists / replace / fast_put_if_exists /
/// replace(key, expected, update) / remove(key, expected): their scripts, remove: its script,
/// fast_remove: HDEL, add_and_get: HINCRBYFLOAT).
///
/// A handle on the transaction: cheap to copy; after commit() or rollback() every operation
/// fails with errc::invalid_argument.
template <JavaValue K, JavaValue V>
class TransactionalMap : public detail::TransactionalCollection {
 public:
  TransactionalMap(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : TransactionalMap(transaction, std::move(name), std::move(codec), "TransactionalMap",
                         nullptr, detail::plain_map_layout) {}

  // ---- asynchronous forms -----------------------------------------------------------------
  template <class CompletionToken>
  auto async_get(const K& key, CompletionToken&& token) const {
    return call<std::optional<V>>(token, detail::TxOp::map_get, reader(), keyed(key));
  }
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, CompletionToken&& token) {
    return call<std::optional<V>>(token, detail::TxOp::map_put, reader(), keyed(key, value));
  }
  template <class CompletionToken>
  auto async_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
    return call<std::optional<V>>(token, detail::TxOp::map_put_if_absent, reader(),
                                  keyed(key, value));
  }
  template <class CompletionToken>
  auto async_fast_put(const K& key, const V& value, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::map_fast_put, &detail::reply_flag, keyed(key, value));
  }
  template <class CompletionToken>
  auto async_fast_put_if_absent(const K& key, const V& value, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::map_fast_put_if_absent, &detail::reply_flag,
                      keyed(key, value));
  }
  template <class CompletionToken>
  auto async_remove(const K& key, CompletionToken&& token) {
    return call<std::optional<V>>(token, detail::TxOp::map_remove, reader(), keyed(key));
  }
  template <class CompletionToken>
  auto async_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
    return call<std::optional<V>>(token, detail::TxOp::map_put_if_exists, reader(),
                                  keyed(key, value));
  }
  template <class CompletionToken>
  auto async_replace(const K& key, const V& value, CompletionToken&& token) {
    return async_put_if_exists(key, value, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_fast_put_if_exists(const K& key, const V& value, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::map_fast_put_if_exists, &detail::reply_flag,
                      keyed(key, value));
  }
  template <class CompletionToken>
  auto async_replace(const K& key, const V& expected, const V& update, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::map_replace_if_equal, &detail::reply_flag,
                      compared(key, expected, update));
  }
  template <class CompletionToken>
  auto async_remove(const K& key, const V& expected, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::map_replace_if_equal, &detail::reply_flag,
                      compared(key, expected, std::nullopt));
  }
  template <class CompletionToken>
  auto async_fast_remove(const std::vector<K>& keys, CompletionToken&& token) {
    return call<std::int64_t>(token, detail::TxOp::map_fast_remove, &detail::reply_integer,
                              all_keys(keys));
  }
  template <class CompletionToken>
  auto async_contains_key(const K& key, CompletionToken&& token) const {
    return call<bool>(token, detail::TxOp::map_contains_key, &detail::reply_flag, keyed(key));
  }
  template <class CompletionToken>
  auto async_get_all(const std::vector<K>& keys, CompletionToken&& token) const {
    return call<std::map<K, V>>(token, detail::TxOp::map_get_all,
                                detail::map_values_by_key<K, V>(keys, object_->codec),
                                all_keys(keys));
  }
  template <class CompletionToken>
  auto async_put_all(const std::map<K, V>& entries, CompletionToken&& token) {
    return call<void>(
        token, detail::TxOp::map_put_all, &detail::reply_ignore,
        [entries](const Codec& codec) { return detail::map_entries_bytes(codec, entries); });
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return call<std::int64_t>(token, detail::TxOp::map_size, &detail::reply_integer, nothing());
  }
  template <class CompletionToken>
  auto async_read_all_map(CompletionToken&& token) const {
    return read_all_into<std::map<K, V>>(
        token, [](std::map<K, V>& entries, Entry&& entry) { entries.insert(std::move(entry)); });
  }
  template <class CompletionToken>
  auto async_read_all_key_set(CompletionToken&& token) const {
    return read_all_into<std::set<K>>(
        token, [](std::set<K>& keys, Entry&& entry) { keys.insert(std::move(entry.first)); });
  }
  template <class CompletionToken>
  auto async_read_all_values(CompletionToken&& token) const {
    return read_all_into<std::vector<V>>(token, [](std::vector<V>& values, Entry&& entry) {
      values.push_back(std::move(entry.second));
    });
  }
  template <class CompletionToken>
  auto async_contains_value(const V& value, CompletionToken&& token) const {
    return call<bool>(token, detail::TxOp::map_contains_value, &detail::reply_flag,
                      [value](const Codec& codec) {
                        return std::vector<std::string>{detail::map_value_bytes(codec, value)};
                      });
  }
  template <class CompletionToken>
  auto async_value_size(const K& key, CompletionToken&& token) const {
    return call<std::int64_t>(token, detail::TxOp::map_value_size, &detail::reply_integer,
                              keyed(key));
  }
  /// The value must be stored as decimal text (a LongCodec/DoubleCodec/StringCodec value codec),
  /// as Map::add_and_get requires.
  template <class N, class CompletionToken>
  requires std::is_arithmetic_v<N>
  auto async_add_and_get(const K& key, N delta, CompletionToken&& token) {
    return call<N>(token, detail::TxOp::map_add_and_get, &detail::reply_number<N>,
                   [key, delta](const Codec& codec) {
                     return std::vector<std::string>{detail::map_key_bytes(codec, key),
                                                     detail::decimal_delta(delta)};
                   });
  }

  // ---- blocking forms: throw redisson::error ------------------------------------------------
  /// The transaction's own value for `key` if it wrote one, else the map's (HGET).
  std::optional<V> get(const K& key) const { return async_get(key, blocking("get")); }
  /// Records a put; returns the value it replaces (as the transaction sees it).
  std::optional<V> put(const K& key, const V& value) {
    return async_put(key, value, blocking("put"));
  }
  /// Records a put-if-absent; returns nullopt if `key` is absent (as the transaction sees it),
  /// else the present value.
  std::optional<V> put_if_absent(const K& key, const V& value) {
    return async_put_if_absent(key, value, blocking("put_if_absent"));
  }
  /// Records Map's put-if-exists; returns the value it replaces, nullopt (nothing stored) if
  /// `key` is absent (as the transaction sees it).
  std::optional<V> put_if_exists(const K& key, const V& value) {
    return async_put_if_exists(key, value, blocking("put_if_exists"));
  }
  /// put_if_exists under Java's name.
  std::optional<V> replace(const K& key, const V& value) {
    return async_replace(key, value, blocking("replace"));
  }
  /// Records Map's fast-put-if-exists; true if `key` is present (as the transaction sees it).
  bool fast_put_if_exists(const K& key, const V& value) {
    return async_fast_put_if_exists(key, value, blocking("fast_put_if_exists"));
  }
  /// Records Map's replace of `expected` by `update`; true if `key` holds `expected` (as the
  /// transaction sees it).
  bool replace(const K& key, const V& expected, const V& update) {
    return async_replace(key, expected, update, blocking("replace"));
  }
  /// Records Map's remove of `key` if it holds `expected`; true if it does (as the transaction
  /// sees it).
  bool remove(const K& key, const V& expected) {
    return async_remove(key, expected, blocking("remove"));
  }
  /// Records an HSET; true if `key` is new.
  bool fast_put(const K& key, const V& value) {
    return async_fast_put(key, value, blocking("fast_put"));
  }
  /// Records an HSETNX; true if `key` is absent.
  bool fast_put_if_absent(const K& key, const V& value) {
    return async_fast_put_if_absent(key, value, blocking("fast_put_if_absent"));
  }
  /// Records a remove; returns the value removed.
  std::optional<V> remove(const K& key) { return async_remove(key, blocking("remove")); }
  /// Records an HDEL of each present key (the locks of absent ones are released at once);
  /// returns how many were present.
  std::int64_t fast_remove(const std::vector<K>& keys) {
    return async_fast_remove(keys, blocking("fast_remove"));
  }
  bool contains_key(const K& key) const {
    return async_contains_key(key, blocking("contains_key"));
  }
  /// The values of those `keys` that are present, the transaction's writes counted.
  std::map<K, V> get_all(const std::vector<K>& keys) const {
    return async_get_all(keys, blocking("get_all"));
  }
  /// Locks every key, then records a put of each (no reads).
  void put_all(const std::map<K, V>& entries) { async_put_all(entries, blocking("put_all")); }
  /// The number of entries, the transaction's writes counted.
  std::int64_t size() const { return async_size(blocking("size")); }
  /// Every entry, the transaction's writes counted (HGETALL, or a MapCache's live entries,
  /// with the transaction's own entries laid over them).
  std::map<K, V> read_all_map() const { return async_read_all_map(blocking("read_all_map")); }
  /// The keys of read_all_map().
  std::set<K> read_all_key_set() const {
    return async_read_all_key_set(blocking("read_all_key_set"));
  }
  /// The values of read_all_map().
  std::vector<V> read_all_values() const {
    return async_read_all_values(blocking("read_all_values"));
  }
  /// Whether an entry holds `value` (its bytes compared), the transaction's writes counted:
  /// reads every entry, as Redisson's transactional containsValue does.
  bool contains_value(const V& value) const {
    return async_contains_value(value, blocking("contains_value"));
  }
  /// The length of `key`'s value bytes, 0 when absent: the transaction's own value if it wrote
  /// one, else HSTRLEN (a MapCache: its script).
  std::int64_t value_size(const K& key) const {
    return async_value_size(key, blocking("value_size"));
  }
  /// Locks `key`, adds `delta` to its value (absent: 0) and records Map's add_and_get of `delta`
  /// for commit(); returns the new value as the transaction sees it, held as the text the commit
  /// will store (HINCRBYFLOAT's; a TransactionalMapCache's: MapCache's script's). A value that is
  /// not a number fails with errc::server_error and records nothing.
  template <class N>
  requires std::is_arithmetic_v<N> N add_and_get(const K& key, N delta) {
    return async_add_and_get(key, delta, blocking("add_and_get"));
  }

  /// The lock a write of `key` takes (Map::lock_name).
  std::string lock_name(const K& key) const {
    return detail::map_lock_name(name(), detail::map_key_bytes(*object_->codec, key));
  }

 protected:
  /// For TransactionalMapCache: its kind, hooks and layout (reads and commit go through it).
  TransactionalMap(const Transaction& transaction, std::string name, CodecPtr codec,
                   const char* kind, const detail::ObjectHooks* hooks,
                   const detail::MapLayout& layout)
      : TransactionalCollection(transaction, std::move(name), std::move(codec), kind, hooks,
                                &layout) {}

  using Entry = std::pair<K, V>;
  /// Every entry as the transaction sees it, each given to `add(result, entry)`.
  template <class R, class Token, class Add>
  auto read_all_into(Token&& token, Add add) const {
    return call<R>(
        token, detail::TxOp::map_read_all,
        [codec = object_->codec, add](const Reply& reply) {
          R result;
          for (auto& entry : detail::decode_map_entries<K, V>(*codec, reply)) {
            add(result, std::move(entry));
          }
          return result;
        },
        nothing());
  }
  auto reader() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::decode_reply<V>(codec->map_value_codec(), reply);
    };
  }
  static auto keyed(const K& key, std::optional<V> value = std::nullopt) {
    return [key, value = std::move(value)](const Codec& codec) {
      std::vector<std::string> args{detail::map_key_bytes(codec, key)};
      if (value) args.push_back(detail::map_value_bytes(codec, *value));
      return args;
    };
  }
  static auto compared(const K& key, const V& expected, std::optional<V> update) {
    return [key, expected, update = std::move(update)](const Codec& codec) {
      return std::vector<std::string>{detail::map_key_bytes(codec, key),
                                      detail::map_value_bytes(codec, expected), update ? "1" : "0",
                                      update ? detail::map_value_bytes(codec, *update) : ""};
    };
  }
  static auto all_keys(const std::vector<K>& keys) {
    return [keys](const Codec& codec) {
      std::vector<std::string> args;
      args.reserve(keys.size());
      for (const auto& key : keys) args.push_back(detail::map_key_bytes(codec, key));
      return args;
    };
  }
};

}  // namespace redisson

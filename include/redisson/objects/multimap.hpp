// redisson::MultimapBase<K, V, Kind>: what SetMultimap and ListMultimap share (Java Redisson's
// RedissonMultimap): the index hash, the values collection of each key, and the object
// operations that reach the values collections through the index.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/keyed_synchronizers.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/map_keys.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// Where a multimap keeps the values of one key: a Redis set or a Redis list.
enum class MultimapKind { set, list };

/// The kind's word in the multimap scripts' ARGV: "set" or "list".
const char* multimap_kind_arg(MultimapKind kind);
/// A multimap object's kind, from its type's name ("SetMultimap", "ListMultimapCache", ...).
MultimapKind multimap_kind_of(const ObjectState& object);
/// S(name, "redisson_set_multimap_ttl") / S(name, "redisson_list_multimap_ttl"): a multimap
/// cache's expiry zset (member: a key's bytes; score: when that key expires, ms since the epoch).
std::string multimap_ttl_key(const std::string& name, MultimapKind kind);
/// `{name}:<hash128toBase64(key bytes)>`: the set or list holding the values of that key.
std::string multimap_values_key(const std::string& name, std::string_view key_bytes);
/// The values of one key as an object of their own (its name is the values key), for scans.
ObjectPtr multimap_values_object(const ObjectPtr& object, std::string_view key_bytes);

/// put / put_all (multimap_put.lua): an integer reply, how many values were added.
void start_multimap_put(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                        const std::vector<std::string>& values, Done<Reply>& done);
/// remove(key, value) (multimap_remove.lua): 1 if the value was there.
void start_multimap_remove(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                           const std::string& value, Done<Reply>& done);
/// replace_values (multimap_replace.lua); no values: remove_all. The previous values (array).
void start_multimap_replace(const ObjectPtr& object, MultimapKind kind,
                            const std::string& key_bytes, const std::vector<std::string>& values,
                            Done<Reply>& done);
/// fast_remove (multimap_fast_remove.lua): how many keys were there; none sent for no keys.
void start_multimap_fast_remove(const ObjectPtr& object, const std::vector<std::string>& keys,
                                Done<Reply>& done);
/// size (no value) or contains_value (multimap_size.lua): an integer reply.
void start_multimap_scan_values(const ObjectPtr& object, MultimapKind kind,
                                const std::vector<std::string>& value, Done<Reply>& done);
/// Every key with each value (multimap_entries.lua): a flat array of key, value bytes.
void start_multimap_entries(const ObjectPtr& object, MultimapKind kind, Done<Reply>& done);
/// fast_remove_value (multimap_fast_remove_value.lua): how many values were removed; none sent
/// (0) for no values.
void start_multimap_fast_remove_value(const ObjectPtr& object, MultimapKind kind,
                                      const std::vector<std::string>& values, Done<Reply>& done);
/// SCARD / LLEN of one key's values: an integer reply.
void start_multimap_count(const ObjectPtr& object, MultimapKind kind, const std::string& key_bytes,
                          Done<Reply>& done);
/// SISMEMBER / LPOS of one value in one key's values: an integer reply, 1 or 0.
void start_multimap_contains_entry(const ObjectPtr& object, MultimapKind kind,
                                   const std::string& key_bytes, const std::string& value,
                                   Done<Reply>& done);
/// `op` ("del", "unlink", "pexpire", "pexpireat", "persist", "touch", "memory", "move") on the
/// index and every values key it lists (multimap_keys.lua), with `ms` (or move's database) and
/// `condition` ("" or NX/XX/GT/LT): an integer reply.
void start_multimap_keys(const ObjectPtr& object, const char* op, std::int64_t ms,
                         const char* condition, Done<Reply>& done);
/// Renames the index and its values keys (multimap_rename.lua).
void start_multimap_rename(const ObjectPtr& object, const std::string& new_name, Done<Reply>& done);
/// The object operations of a multimap (start_multimap_keys, start_multimap_rename): Object's
/// delete_object(), expire(), rename(), ... act on the index and every values key through them.
extern const ObjectHooks multimap_hooks;
/// An integer reply > 0.
bool reply_positive(const Reply& reply);
}  // namespace detail

/// SetMultimap<K, V> (Kind = set) and ListMultimap<K, V> (Kind = list), one class for both: a
/// map of K to several V. Java Redisson's layout: the index hash `name` maps each key's bytes
/// (map-key codec) to hash128toBase64 of them, and the key's values (map-value codec bytes) live
/// in the set or list `{name}:<base64>`, in the name's hash slot (a name with a hash tag keeps
/// it: `a{t}b:<base64>`). A key is in the index exactly while it has values.
///
/// Cost: put, put_all, remove, remove_all, replace_values, fast_remove are one script each
/// (atomic); contains_key, contains_entry, key_size one command. size() and contains_value()
/// are one script that walks the whole index (HSCAN pages inside the script, O(keys), and
/// O(values) for a list's contains_value). delete_object(), expire(), expire_at(),
/// clear_expire(), touch(), size_in_memory() and rename() (Object's) act on the index and on
/// every values key it lists, in one script (O(keys)), as Redisson does, also when called
/// through an `Object&`; a rename on a Cluster stays in the name's hash slot (else
/// errc::invalid_argument). keys() and values(key) read in
/// pages (HSCAN; SSCAN or LRANGE windows), never all at once.
///
/// A key of another type (the index or a values key) is errc::wrong_type and nothing is
/// written; bytes the codec cannot read are errc::codec_error. A handle: cheap to copy, sends
/// nothing until an operation is called, thread-safe.
template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
class MultimapBase : public Object,
                     public MapKeys<MultimapBase<K, V, Kind>, K, V>,
                     public KeyedSynchronizers<MultimapBase<K, V, Kind>, K> {
 public:
  /// A handle on the multimap `name`; sends nothing. `codec` null: the client's default codec.
  MultimapBase(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec),
               Kind == detail::MultimapKind::set ? "SetMultimap" : "ListMultimap",
               &detail::multimap_hooks) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_put_all(const K& key, std::vector<V> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const K& key, CompletionToken&& token);
  template <class CompletionToken>
  auto async_replace_values(const K& key, std::vector<V> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_remove(std::vector<K> keys, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains_key(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_value(const V& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_entry(const K& key, const V& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_key_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_key_set(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_entries(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_values(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_fast_remove_value(std::vector<V> values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // fast_remove, contains_key and contains_value (walks every key) are MapKeys'.
  /// Adds `value` under `key`; true if it was added (a set holds each value once; a list
  /// appends always).
  bool put(const K& key, const V& value) { return async_put(key, value, blocking("put")); }
  /// Adds the values under `key` in order (one script); true if any was added. No values: false,
  /// and nothing sent.
  bool put_all(const K& key, const std::vector<V>& values) {
    return async_put_all(key, values, blocking("put_all"));
  }
  /// Removes one `value` of `key` (a list: its first equal one); true if it was there. The key
  /// leaves the index with its last value.
  bool remove(const K& key, const V& value) { return async_remove(key, value, blocking("remove")); }
  /// Removes `key` and returns the values it had (a list's in order).
  std::vector<V> remove_all(const K& key) { return async_remove_all(key, blocking("remove_all")); }
  /// Replaces the values of `key` with `values` (no values: removes the key); returns the old.
  std::vector<V> replace_values(const K& key, const std::vector<V>& values) {
    return async_replace_values(key, values, blocking("replace_values"));
  }
  /// True if `key` has `value`.
  bool contains_entry(const K& key, const V& value) const {
    return async_contains_entry(key, value, blocking("contains_entry"));
  }
  /// The number of values of all keys (walks every key on the server).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// True when there is no value.
  bool empty() const { return key_size() == 0; }
  /// The number of keys (HLEN of the index).
  std::int64_t key_size() const { return async_key_size(blocking("key_size")); }
  /// The values of `key`, read in pages of about `page_size` (SSCAN, or LRANGE windows for a
  /// list) as they are iterated; see CollectionScan. The key is encoded here (codec_error).
  CollectionScan<V> values(const K& key, std::int64_t page_size = 100) const {
    return CollectionScan<V>(detail::multimap_values_object(object_, key_bytes(*object_, key)),
                             Kind == detail::MultimapKind::set ? "SSCAN" : "LRANGE", page_size,
                             &decode_values);
  }
  /// All values of `key` (a list's in order), read page by page through values(key).
  std::vector<V> get_all(const K& key) const {
    std::vector<V> all;
    auto scan = values(key);
    for (auto batch = scan.next_batch(); !batch.empty(); batch = scan.next_batch()) {
      for (auto& value : batch) all.push_back(std::move(value));
    }
    return all;
  }
  /// The keys, read from the index in pages of about `page_size` with HSCAN as they are
  /// iterated (see CollectionScan).
  CollectionScan<K> keys(std::int64_t page_size = 100) const {
    return CollectionScan<K>(object_, "HSCAN", page_size, &decode_keys);
  }
  /// Every key, in one HKEYS of the index (keys() reads a large multimap in pages).
  std::vector<K> read_all_key_set() const {
    return async_read_all_key_set(blocking("read_all_key_set"));
  }
  /// Every key with each of its values (a list's in order), in one script that walks the index
  /// (O(values)); Java's entries() view, read whole.
  std::vector<std::pair<K, V>> read_all_entries() const {
    return async_read_all_entries(blocking("read_all_entries"));
  }
  /// Every key's values, one after another (the same script); Java's values() view, read whole.
  std::vector<V> read_all_values() const {
    return async_read_all_values(blocking("read_all_values"));
  }
  /// Removes each of `values` from every key (a list loses the first occurrence per key, as
  /// Redisson); a key left without values leaves the index. One script, O(keys); returns how
  /// many values were removed.
  std::int64_t fast_remove_value(const std::vector<V>& values) {
    return async_fast_remove_value(values, blocking("fast_remove_value"));
  }
  /// The name of the set or list holding the values of `key` (`{name}:<base64>`).
  std::string values_key(const K& key) const {
    return detail::multimap_values_key(name(), key_bytes(*object_, key));
  }
  // lock_name(key), semaphore_name(key), ...: KeyedSynchronizers' (Java's multimap.getLock(key),
  // ...).

 protected:
  /// For the multimap caches: `kind` names the type ("SetMultimapCache").
  MultimapBase(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : Object(client, std::move(name), std::move(codec), kind, &detail::multimap_hooks) {}

  friend class KeyedSynchronizers<MultimapBase<K, V, Kind>, K>;
  /// The bytes Redisson hashes into a key's synchronizer names: the map-key codec's.
  std::string synchronizer_bytes(const K& key) const { return key_bytes(*object_, key); }

  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  static std::string key_bytes(const detail::ObjectState& object, const K& key) {
    return detail::map_key_bytes(*object.codec, key);
  }
  static std::vector<std::string> value_bytes(const detail::ObjectState& object,
                                              const std::vector<V>& values) {
    std::vector<std::string> bytes;
    bytes.reserve(values.size());
    for (const auto& value : values) bytes.push_back(detail::map_value_bytes(*object.codec, value));
    return bytes;
  }
  auto values_reader() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::decode_elements<V>(codec->map_value_codec(), reply);
    };
  }
  static std::vector<V> decode_values(const Codec& codec, const Reply& page) {
    return detail::decode_elements<V>(codec.map_value_codec(), page);
  }
  /// multimap_entries.lua: what read_all_entries and read_all_values read.
  static void start_entries(const detail::ObjectPtr& object, detail::Done<Reply>& done) {
    detail::start_multimap_entries(object, Kind, done);
  }
  static std::vector<std::pair<K, V>> decode_entries(const Codec& codec, const Reply& reply) {
    if (!reply.is_aggregate() || reply.elements.size() % 2 != 0) {
      detail::throw_unexpected_reply("an array of keys and values", reply);
    }
    std::vector<std::pair<K, V>> entries;
    entries.reserve(reply.elements.size() / 2);
    for (std::size_t i = 0; i < reply.elements.size(); i += 2) {
      auto key = detail::decode_reply<K>(codec.map_key_codec(), reply.elements[i]);
      auto value = detail::decode_reply<V>(codec.map_value_codec(), reply.elements[i + 1]);
      if (!key || !value) detail::throw_unexpected_reply("a key and a value", reply);
      entries.emplace_back(std::move(*key), std::move(*value));
    }
    return entries;
  }
  static std::vector<K> decode_keys(const Codec& codec, const Reply& page) {
    std::vector<K> keys;
    keys.reserve(page.elements.size() / 2);
    for (std::size_t i = 0; i < page.elements.size(); i += 2) {
      if (auto key = detail::decode_reply<K>(codec.map_key_codec(), page.elements[i])) {
        keys.push_back(std::move(*key));
      }
    }
    return keys;
  }
  /// An operation started as `start(object, done)` when it runs (encoding there: a codec_error
  /// is the completion's).
  template <class R, class CompletionToken, class Convert, class Start>
  auto keyed(CompletionToken&& token, Convert convert, Start start) const;
};

}  // namespace redisson

#include "redisson/objects/impl/multimap.hpp"

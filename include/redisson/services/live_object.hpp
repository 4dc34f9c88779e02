// redisson::LiveObjectService: C++ structs persisted as Java Redisson's live objects
// (RLiveObjectService,
// @REntity / @RId / @RIndex): one Redis hash per object, fields read and written in Redis, and
// indexes for lookups by field value, in Redisson's layout so a Java service with the same entity
// class and codec shares them.
#pragma once

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/reply.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

/// One field of a live object: its Java field name, the member holding it, and whether it is
/// indexed (Java's @RIndex).
template <class T, class M>
struct LiveField {
  using member_type = M;
  std::string_view name;
  M T::*member;
  bool indexed = false;
};
/// A field of a live object's description (LiveObjectTraits<T>::fields).
template <class T, class M>
constexpr LiveField<T, M> live_field(std::string_view name, M T::*member, bool indexed = false) {
  return LiveField<T, M>{name, member, indexed};
}
/// Marks a field as indexed: live_field("name", &Person::name, live_indexed).
inline constexpr bool live_indexed = true;

/// How a struct T is a live object: specialise it once per type, as
///
///     template <> struct redisson::LiveObjectTraits<Person> {
///       static constexpr std::string_view class_name = "com.example.Person";  // @REntity's class
///       static constexpr auto id = redisson::live_field("id", &Person::id);    // @RId
///       static constexpr auto fields = std::make_tuple(
///           redisson::live_field("name", &Person::name, redisson::live_indexed),
///           redisson::live_field("age", &Person::age));
///     };
///
/// Every member type is one a codec carries (JavaValue). The id is not stored as a field (as in
/// Redisson): it names the hash.
template <class T>
struct LiveObjectTraits;

namespace detail {
std::string live_object_key(std::string_view id_bytes, std::string_view class_name);
std::string live_object_index(std::string_view class_name, std::string_view field);
std::string live_object_index_set(const std::string& index, std::string_view value_bytes);
/// Moves `id` in `index` from `old_value`'s set to `new_value`'s (none: out of the index).
void live_object_reindex(const Client& client, const std::string& index, const std::string& id,
                         const std::optional<std::string>& old_value,
                         const std::optional<std::string>& new_value);
}  // namespace detail

/// Persists, reads, finds and deletes live objects (Java Redisson's RLiveObjectService) with one
/// codec (null: the client's default; use the codec of the Java entity's @REntity(codec = ...):
/// a JSON or String codec is what a flat C++ struct and a Java class share).
///
/// Layout (Redisson's): the object with id `i` of class `C` is the hash
/// `redisson_live_object:{<hex of the codec's bytes of i>}:C`, one field per member (the field
/// name and the value both encoded with the codec) and the marker field `redisson_live_object`
/// = "1". An indexed field `f` is the hash `redisson_live_object_index:{C}:f` (value bytes ->
/// their base64 HighwayHash) and the sets `redisson_live_object_index:{C}:f:<base64>` of ids.
///
/// It keeps a pointer to `client`, which must outlive it. Each operation waits for its replies
/// (blocking; throws redisson::error). A write of an
/// indexed field is three steps, as in Redisson: the old value is read, the index script moves
/// the id, and the field is written; a reader may see the index ahead of the field meanwhile.
/// Expiry: expire() sets a time to live on the object's hash; the index entries of an expired
/// object stay (Redisson cleans them from keyspace events) and find() skips ids whose object is
/// gone.
class LiveObjectService {
 public:
  explicit LiveObjectService(const Client& client, CodecPtr codec = nullptr)
      : client_(&client), codec_(std::move(codec)) {
    if (!codec_) codec_ = client.config().codec;
  }

  /// Stores a new live object: every field, its indexes, and the marker. False, changing
  /// nothing, when an object with that id exists (Java's persist throws then).
  template <class T>
  bool persist(const T& object) {
    const auto key = key_of<T>(id_bytes<T>(object.*(LiveObjectTraits<T>::id.member)));
    if (exists_key(key)) return false;
    write_all(object, key);
    return true;
  }
  /// Stores every field of `object`, creating it or overwriting the one with its id (Java's
  /// merge).
  template <class T>
  void merge(const T& object) {
    write_all(object, key_of<T>(id_bytes<T>(object.*(LiveObjectTraits<T>::id.member))));
  }
  /// The object with id `id`, read field by field (one HMGET); nullopt when there is none. A
  /// field absent from the hash keeps its default value.
  template <class T, class Id>
  std::optional<T> get(const Id& id) const {
    return object_from<T>(id, execute(read_command<T>(id), "get"));
  }
  /// One field of the object `id` (one HGET; Java's getter on an attached object); nullopt when
  /// the object or the field is absent.
  template <class T, class Id, class M>
  std::optional<M> get_field(const Id& id, M T::*member) const {
    const auto& field = field_of<T>(member);
    const auto reply =
        execute(Command{"HGET", key_of<T>(id_bytes<T>(id))}.arg(encode(std::string(field.name))),
                "get_field");
    if (reply.is_null()) return std::nullopt;
    return from_value<M>(codec_->decode(reply.str));
  }
  /// Writes one field of the object `id` (HSET, and its index first when it is indexed; Java's
  /// setter on an attached object). The object must exist (errc::invalid_argument otherwise,
  /// nothing written).
  template <class T, class Id, class M>
  void set_field(const Id& id, M T::*member, const M& value) {
    const auto key = key_of<T>(id_bytes<T>(id));
    if (!exists_key(key)) {
      throw error(errc::invalid_argument,
                  std::string(LiveObjectTraits<T>::class_name) + ": no live object with that id");
    }
    write_field<T>(key, id_bytes<T>(id), field_of<T>(member), value);
  }
  /// True if the object `id` exists (Java's isExists).
  template <class T, class Id>
  bool is_exists(const Id& id) const {
    return exists_key(key_of<T>(id_bytes<T>(id)));
  }
  /// Deletes the object `id` and takes it out of its indexes; true if it existed.
  template <class T, class Id>
  bool delete_object(const Id& id) {
    const auto ident = id_bytes<T>(id);
    const auto key = key_of<T>(ident);
    Command hmget{"HMGET", key};
    std::vector<std::string> indexed;
    for_each_field<T>([&](const auto& field) {
      if (!field.indexed) return;
      indexed.emplace_back(field.name);
      hmget.arg(encode(std::string(field.name)));
    });
    if (!indexed.empty()) {
      const auto values = execute(hmget, "delete_object");
      for (std::size_t i = 0; i < indexed.size() && i < values.elements.size(); ++i) {
        if (values.elements[i].is_null()) continue;
        detail::live_object_reindex(*client_, index_of<T>(indexed[i]), ident,
                                    values.elements[i].str, std::nullopt);
      }
    }
    return execute(Command{"DEL", key}, "delete_object").integer > 0;
  }
  /// The ids of the objects whose indexed field `member` holds `value` (SMEMBERS of its set;
  /// Java's findIds(Conditions.eq(field, value))); ids of objects gone meanwhile are left out.
  template <class T, class M>
  std::vector<typename std::remove_cvref_t<decltype(LiveObjectTraits<T>::id)>::member_type>
  find_ids(M T::*member, const M& value) const {
    using Id = typename std::remove_cvref_t<decltype(LiveObjectTraits<T>::id)>::member_type;
    const auto& field = field_of<T>(member);
    if (!field.indexed) {
      throw error(errc::invalid_argument, std::string(LiveObjectTraits<T>::class_name) + "." +
                                              std::string(field.name) + " is not indexed");
    }
    const auto set = detail::live_object_index_set(index_of<T>(field.name), encode(value));
    const auto members = execute(Command{"SMEMBERS", set}, "find").elements;
    std::vector<Command> checks;
    checks.reserve(members.size());
    for (const auto& element : members) checks.push_back(Command{"EXISTS", key_of<T>(element.str)});
    const auto exist = execute_all(std::move(checks), "find");
    std::vector<Id> ids;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (exist[i].integer == 1) ids.push_back(from_value<Id>(codec_->decode(members[i].str)));
    }
    return ids;
  }
  /// The objects whose indexed field `member` holds `value` (Java's find). Two round trips
  /// after the index's: the checks of the ids, then the objects, each batch sent at once.
  template <class T, class M>
  std::vector<T> find(M T::*member, const M& value) const {
    const auto ids = find_ids(member, value);
    std::vector<Command> reads;
    reads.reserve(ids.size());
    for (const auto& id : ids) reads.push_back(read_command<T>(id));
    const auto replies = execute_all(std::move(reads), "find");
    std::vector<T> found;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (auto object = object_from<T>(ids[i], replies[i])) found.push_back(std::move(*object));
    }
    return found;
  }
  /// How many objects find() would return (Java's count).
  template <class T, class M>
  std::int64_t count(M T::*member, const M& value) const {
    return static_cast<std::int64_t>(find_ids(member, value).size());
  }
  /// Sets a time to live on the object `id` (PEXPIRE of its hash); true if it exists.
  template <class T, class Id>
  bool expire(const Id& id, std::chrono::milliseconds ttl) {
    return execute(Command{"PEXPIRE", key_of<T>(id_bytes<T>(id))}.arg(ttl.count()), "expire")
               .integer == 1;
  }

  /// The hash key of the object `id` (for a Map handle on it, or redis-cli).
  template <class T, class Id>
  std::string key(const Id& id) const {
    return key_of<T>(id_bytes<T>(id));
  }

 private:
  static constexpr std::string_view kMarker = "redisson_live_object";

  template <class V>
  std::string encode(const V& value) const {
    return detail::encode_value(*codec_, value);
  }
  template <class T, class Id>
  std::string id_bytes(const Id& id) const {
    return encode(id);
  }
  template <class T>
  std::string key_of(std::string_view id) const {
    return detail::live_object_key(id, LiveObjectTraits<T>::class_name);
  }
  template <class T>
  static std::string index_of(std::string_view field) {
    return detail::live_object_index(LiveObjectTraits<T>::class_name, field);
  }
  template <class T, class F>
  static void for_each_field(F&& visit) {
    std::apply([&](const auto&... field) { (visit(field), ...); }, LiveObjectTraits<T>::fields);
  }
  template <class T, class M>
  static LiveField<T, M> field_of(M T::*member) {
    std::optional<LiveField<T, M>> found;
    for_each_field<T>([&](const auto& field) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(field)>, LiveField<T, M>>) {
        if (field.member == member) found = field;
      }
    });
    if (!found) {
      throw error(errc::invalid_argument, std::string(LiveObjectTraits<T>::class_name) +
                                              ": that member is not one of its fields");
    }
    return *found;
  }
  Reply execute(Command command, const char* what) const {
    return client_->async_execute(std::move(command), detail::blocking(what, "LiveObjectService"));
  }
  // The commands sent together (pipelined: one round trip per node), their replies in order.
  std::vector<Reply> execute_all(std::vector<Command> commands, const char* what) const {
    std::vector<std::future<Reply>> pending;
    pending.reserve(commands.size());
    for (auto& command : commands) {
      pending.push_back(client_->async_execute(std::move(command), asio::use_future));
    }
    std::vector<Reply> replies;
    replies.reserve(pending.size());
    std::optional<error> failed;  // every reply is waited for, the first failure thrown after
    for (auto& reply : pending) {
      try {
        replies.push_back(reply.get());
      } catch (const std::system_error& failure) {
        if (!failed) {
          failed.emplace(failure.code(), std::string("LiveObjectService ") + what);
        }
        replies.emplace_back();
      }
    }
    if (failed) throw *failed;
    return replies;
  }
  // HMGET of the marker and every field of the object `id`.
  template <class T, class Id>
  Command read_command(const Id& id) const {
    Command hmget{"HMGET", key_of<T>(id_bytes<T>(id))};
    hmget.arg(encode(std::string(kMarker)));
    for_each_field<T>([&](const auto& field) { hmget.arg(encode(std::string(field.name))); });
    return hmget;
  }
  // The object read_command's reply holds; nullopt when its marker is absent (no such object).
  template <class T, class Id>
  std::optional<T> object_from(const Id& id, const Reply& reply) const {
    if (reply.elements.empty() || reply.elements[0].is_null()) return std::nullopt;
    T object{};
    object.*(LiveObjectTraits<T>::id.member) = id;
    std::size_t at = 1;
    for_each_field<T>([&](const auto& field) {
      const auto& element = reply.elements.at(at++);
      if (element.is_null()) return;
      using M = std::remove_cvref_t<decltype(object.*(field.member))>;
      object.*(field.member) = from_value<M>(codec_->decode(element.str));
    });
    return object;
  }
  bool exists_key(const std::string& key) const {
    return execute(Command{"EXISTS", key}, "is_exists").integer == 1;
  }
  template <class T, class M>
  void write_field(const std::string& key, const std::string& ident, const LiveField<T, M>& field,
                   const M& value) {
    const auto name = encode(std::string(field.name));
    const auto bytes = encode(value);
    if (field.indexed) {
      const auto old = execute(Command{"HGET", key}.arg(name), "set_field");
      detail::live_object_reindex(
          *client_, index_of<T>(field.name), ident,
          old.is_null() ? std::nullopt : std::optional<std::string>(old.str), bytes);
    }
    execute(Command{"HSET", key}.arg(name).arg(bytes), "set_field");
  }
  template <class T>
  void write_all(const T& object, const std::string& key) {
    const auto ident = id_bytes<T>(object.*(LiveObjectTraits<T>::id.member));
    execute(Command{"HSET", key}.arg(encode(std::string(kMarker))).arg(encode(std::string("1"))),
            "persist");
    for_each_field<T>(
        [&](const auto& field) { write_field<T>(key, ident, field, object.*(field.member)); });
  }

  const Client* client_;
  CodecPtr codec_;
};

}  // namespace redisson

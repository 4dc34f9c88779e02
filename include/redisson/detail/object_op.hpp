// The operation path of the objects (Bucket, AtomicLong, Map, ...): what an object is inside
// (ObjectState: client, name, codec, keys) and the one template every operation goes through,
//
//   async_command<R>(object, token, build, convert)
//
// `build` makes the command (encoding values with the object's codec; it may throw a
// redisson::error, which becomes the completion's error), `convert` turns the reply into the
// result (it may throw too: a value the codec cannot read). So an object's method is a line that
// names its command and its reply conversion, and its blocking twin is the same call with the
// blocking token (operation.hpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/command.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/error.hpp"
#include "redisson/reply.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {
class Client;
}

namespace redisson::detail {

/// The keys an object of some type keeps besides its name, from its name (for example
/// `{name}:config`): delete_object(), expire() and rename() act on all of them.
using ExtraKeys = std::vector<std::string> (*)(const std::string& name);
/// Keys an object keeps per client, from its name and the client's id (a per-client
/// RateLimiter's `{name}:value:<client id>`): delete_object(), expire() and rename() act on the
/// keys of the handle's own client too.
using ClientKeys = std::vector<std::string> (*)(const std::string& name,
                                                const std::string& client_id);

struct ObjectState;
class BatchState;
class ReadTracker;
using ObjectPtr = std::shared_ptr<const ObjectState>;

/// How a type of object differs from one key under its name: one static table per type (a
/// type without one keeps just that key). The object operations (delete_object, expire,
/// rename, touch, size_in_memory, ...) consult it whatever the type of the handle they are
/// called through (an Object& too). Every entry may be null.
struct ObjectHooks {
  /// The keys besides the name, from the name (a MapCache's `redisson__idle__set:{name}`, ...).
  ExtraKeys extra_keys = nullptr;
  /// The keys this client keeps for the object (a per-client RateLimiter's value key).
  ClientKeys client_keys = nullptr;

  // Keys not all known from the name but listed in Redis (a multimap's values keys, listed in
  // its index hash): the object operations run these instead of acting on keys().
  /// `op` ("del", "unlink", "pexpire", "pexpireat", "persist", "touch", "memory", "move") on
  /// every key of the object, `argument` the milliseconds of pexpire/pexpireat or move's
  /// database, `condition` "" or pexpire's NX/XX/GT/LT: an integer reply.
  void (*apply_listed)(const ObjectPtr& object, const char* op, std::int64_t argument,
                       const char* condition, Done<Reply>& done) = nullptr;
  /// Renames every key of the object to the same key of `new_name`.
  void (*rename_listed)(const ObjectPtr& object, const std::string& new_name,
                        Done<Reply>& done) = nullptr;

  // A synchronizer's (Semaphore, PermitExpirableSemaphore, CountDownLatch) own state (channel,
  // re-check interval) kept beside the object's, and its own delete.
  /// Makes the state for `object`; on rename again for the new name, from the `previous` state
  /// (null at first), whose settings it keeps.
  std::shared_ptr<void> (*make_attached)(const ObjectState& object,
                                         const std::shared_ptr<void>& previous) = nullptr;
  /// delete_object(): deletes every key (refusing a key of another type, publishing what
  /// waiters need to hear); a 1/0 integer reply.
  void (*delete_keys)(const ObjectPtr& object, Done<Reply>& done) = nullptr;
};

/// What an object is: shared by its copies and its operations in flight; immutable.
struct ObjectState {
  std::shared_ptr<ClientCore> core;
  std::string name;
  const char* kind = "";  // the type's name ("Bucket"), a string literal: errors, listener events
  CodecPtr codec;
  const ObjectHooks* hooks = nullptr;  // its type's table, or null
  std::shared_ptr<void> attached;      // hooks->make_attached's state, shared by the copies
  /// The batch the object is bound to (Batch::get): its commands are queued there until
  /// Batch::execute() instead of being sent; null for an object of the client.
  std::shared_ptr<BatchState> batch;
  /// The client-side cache the object reads through (ClientSideCaching::get); null: none.
  std::shared_ptr<ReadTracker> tracking;

  /// The name, the extra keys and this client's keys (not the listed keys).
  std::vector<std::string> keys() const;
  /// The type's hooks apply_listed and rename_listed, when its keys are listed in Redis.
  const ObjectHooks* listed() const noexcept {
    return hooks != nullptr && hooks->apply_listed != nullptr ? hooks : nullptr;
  }
};

/// A new object `name` on `client`, of the type `hooks` describes (null: one key). `codec`
/// null: the client's default (Config::codec, kryo5 unless set). An empty name is
/// errc::invalid_argument ("<kind>: the name must not be empty").
ObjectPtr make_object(const Client& client, std::string name, CodecPtr codec, const char* kind,
                      const ObjectHooks* hooks = nullptr);

/// The state behind operations on keys named per call (Buckets, Keys): the client and a codec,
/// no name. `codec` null: the client's default.
ObjectPtr make_keyless(const Client& client, CodecPtr codec);

/// What a reply callback of the client's core receives.
using ReplyHandler = UniqueFunction<void(std::error_code, Reply)>;
/// Why an operation of a batch-bound object cannot run: it waits, or sends a command only after
/// an earlier reply, or its blocking form was called (its result exists only after execute()).
Status batch_refusal(std::string_view what);

/// Sends `command` through the client's topology (or queues it in the object's batch);
/// `handler` runs with the error (a server error
/// reply: its code) and the reply, on the I/O thread, or on the caller's when `read` (a blocking
/// call's slot, read_slot.hpp) took the reading and the caller then calls read_own_reply(read).
void submit_reply(const ObjectState& object, const Command& command, ReplyHandler handler,
                  ReadSlot* read = nullptr);
/// How a command ended as a Status: `ec`, with "server: <text>" for an error reply.
Status reply_status(std::error_code ec, const Reply& reply);
/// A command built before its operation starts, or why it could not be built.
struct PreparedCommand {
  Command command;
  Status failure;
};

/// `verb name args...` for a command that needs at least one argument (HDEL, HMGET, SADD, SREM,
/// SMISMEMBER): none is sent for no arguments, and `done` gets an integer reply 0 at once
/// instead, which the readers of those replies take as "nothing".
void start_with_arguments(const ObjectPtr& object, const char* verb,
                          const std::vector<std::string>& args, Done<Reply>& done);

/// Sends `command` through the client's topology; completes on the I/O thread with the reply (a
/// server error reply: its error code and "server: <text>").
void submit_command(const ObjectPtr& object, const Command& command, Done<Reply> done);

/// The Status a thrown redisson::error stands for: its code, and its own words (without the
/// code's meaning, which std::system_error appends to what(), and the blocking form adds again).
Status status_of_error(const error& failure);

/// Throws redisson::error(invalid_argument, reason): a bad argument, found before sending.
[[noreturn]] void throw_invalid_argument(const std::string& reason);

/// Reply conversions shared by the objects. Each throws errc::wrong_type (with the reply shown)
/// for a reply of another shape, which means the key holds something else.
[[noreturn]] void throw_unexpected_reply(std::string_view expected, const Reply& reply);
/// 1 / "OK" / any non-null bulk string: true; 0 / nil: false.
bool reply_flag(const Reply& reply);
/// MIGRATE's reply: OK (moved or copied): true; NOKEY (none of the keys exists): false.
bool reply_migrated(const Reply& reply);
std::int64_t reply_integer(const Reply& reply);
/// An array reply of strings (key names, channel names) as strings; anything else is
/// errc::wrong_type.
std::vector<std::string> reply_strings(const Reply& reply);
/// An integer as milliseconds (PTTL: -1 never expires, -2 absent).
inline std::chrono::milliseconds reply_ms(const Reply& reply) {
  return std::chrono::milliseconds{reply_integer(reply)};
}
/// An integer, or the decimal text of one (GET of a counter); nil is 0.
std::int64_t reply_counter(const Reply& reply);
/// A double (RESP3) or its text (RESP2, INCRBYFLOAT); nil is 0.
double reply_double(const Reply& reply);
/// An integer, or nullopt for nil (OBJECT REFCOUNT of a missing key).
std::optional<std::int64_t> reply_optional_integer(const Reply& reply);
/// A bulk string, or nullopt for nil (OBJECT ENCODING of a missing key).
std::optional<std::string> reply_optional_string(const Reply& reply);
/// A bulk string's bytes, or nullopt for nil (DUMP of a missing key).
std::optional<Bytes> reply_optional_bytes(const Reply& reply);
/// PEXPIRETIME's epoch milliseconds; nullopt for -1 (no expiry) and -2 (no key).
std::optional<std::chrono::system_clock::time_point> reply_expire_time(const Reply& reply);
/// Nothing to convert (operations that complete with no value).
inline void reply_ignore(const Reply&) {}

/// Java's BigDecimal.valueOf(x).toPlainString() ("2.5", "1.0", "10000000000"): the text
/// Redisson writes for a double. NaN and the infinities are errc::invalid_argument.
std::string plain_decimal_argument(double x);

/// `value` encoded with `codec` (throws codec_error).
template <class T>
std::string encode_value(const Codec& codec, const T& value) {
  return codec.encode(to_value(value));
}

/// A map's key and value as stored: the map-key and map-value codecs' bytes (Map, MapCache).
template <class K>
std::string map_key_bytes(const Codec& codec, const K& key) {
  return encode_value(codec.map_key_codec(), key);
}
template <class V>
std::string map_value_bytes(const Codec& codec, const V& value) {
  return encode_value(codec.map_value_codec(), value);
}
/// Entries as key bytes, value bytes, key bytes, ... (HSET's and put_all's arguments).
template <class Entries>
std::vector<std::string> map_entries_bytes(const Codec& codec, const Entries& entries) {
  std::vector<std::string> flat;
  flat.reserve(entries.size() * 2);
  for (const auto& [key, value] : entries) {
    flat.push_back(map_key_bytes(codec, key));
    flat.push_back(map_value_bytes(codec, value));
  }
  return flat;
}

/// A bulk string reply decoded with `codec` as a T; nil is std::nullopt. Anything else is
/// errc::wrong_type.
template <class T>
std::optional<T> decode_reply(const Codec& codec, const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  if (!reply.is_string()) throw_unexpected_reply("a value", reply);
  return from_value<T>(codec.decode(reply.str));
}

/// The reply conversion of a map's get_all (Map, TransactionalMap): the array of values in the
/// order of `keys`, decoded with the map's value codec, as key -> value (nil values left out).
template <class K, class V>
auto map_values_by_key(std::vector<K> keys, CodecPtr codec) {
  return [keys = std::move(keys), codec = std::move(codec)](const Reply& reply) {
    std::map<K, V> found;
    for (std::size_t i = 0; i < keys.size() && i < reply.elements.size(); ++i) {
      auto value = decode_reply<V>(codec->map_value_codec(), reply.elements[i]);
      if (value) found.insert_or_assign(keys[i], std::move(*value));
    }
    return found;
  };
}

/// The reply conversion of an MGET-shaped read of buckets: name -> value for each of `names`
/// whose element is not nil (Buckets and TransactionalBuckets get).
template <class T>
auto bucket_values_by_name(std::vector<std::string> names, CodecPtr codec) {
  return [names = std::move(names), codec = std::move(codec)](const Reply& reply) {
    std::map<std::string, T> values;
    for (std::size_t i = 0; i < names.size() && i < reply.elements.size(); ++i) {
      auto value = decode_reply<T>(*codec, reply.elements[i]);
      if (value) values.insert_or_assign(names[i], std::move(*value));
    }
    return values;
  };
}

/// An array reply's elements decoded with `codec` as T (nil elements skipped); nil or an empty
/// array is no elements. Anything else is errc::wrong_type.
template <class T>
std::vector<T> decode_elements(const Codec& codec, const Reply& reply) {
  std::vector<T> values;
  if (reply.is_null()) return values;
  if (!reply.is_aggregate()) throw_unexpected_reply("an array of values", reply);
  values.reserve(reply.elements.size());
  for (const auto& element : reply.elements) {
    if (auto value = decode_reply<T>(codec, element)) values.push_back(std::move(*value));
  }
  return values;
}

/// Completes `done` with the failure `status` (and no value).
template <class R, class DoneFn>
void fail(DoneFn& done, Status status) {
  if constexpr (std::is_void_v<R>) {
    done(std::move(status));
  } else {
    done(std::move(status), R{});
  }
}

/// Completes `done` with `status` when it is a failure, else with convert(reply) (for R = void:
/// convert(reply) only checks the reply), or with the error convert() threw.
template <class R, class DoneFn, class Convert>
void complete_converted(DoneFn& done, Status status, const Reply& reply, Convert& convert) {
  if constexpr (std::is_void_v<R>) {
    if (!status) {
      try {
        convert(reply);
      } catch (const error& failure) {
        status = status_of_error(failure);
      }
    }
    done(std::move(status));
  } else {
    if (status) return done(std::move(status), R{});
    R result{};
    try {
      result = convert(reply);
    } catch (const error& failure) {
      return done(status_of_error(failure), R{});
    }
    done(Status{}, std::move(result));
  }
}

/// Starts an operation written as `start(object, done)`: it sends what it needs (a command, a
/// script, several of them) and completes `done` with the reply that carries the result; it moves
/// from `done` only once nothing can throw any more, so that a redisson::error it throws before
/// (a value the codec cannot encode) becomes the completion's error. `convert` turns the reply
/// into the result on the I/O thread (a throw there is the completion's error too). Completes
/// through `token` with (error_code, R).
template <class R, class Token, class Start, class Convert>
auto async_started(const ObjectPtr& object, Token&& token, Start&& start, Convert&& convert) {
  return async_op<R>(
      object->core, token,
      [object, start = std::forward<Start>(start),
       convert = std::forward<Convert>(convert)](auto done) mutable {
        Done<Reply> on_reply = [done = std::move(done), convert = std::move(convert)](
                                   Status status, const Reply& reply) mutable {
          complete_converted<R>(done, std::move(status), reply, convert);
        };
        try {
          start(object, on_reply);
        } catch (const error& failure) {
          if (on_reply) on_reply(status_of_error(failure), Reply{});
        }
      },
      object->batch != nullptr);
}

/// async_started over `values` encoded with the object's codec as the operation starts (a
/// value the codec cannot encode is the completion's codec_error): `start(object, encoded,
/// done)` sends a command or a script over them.
template <class R, class T, class Token, class Start, class Convert>
auto async_with_encoded(const ObjectPtr& object, Token&& token, std::vector<T> values, Start start,
                        Convert&& convert) {
  return async_started<R>(
      object, token,
      [start = std::move(start), values = std::move(values)](const ObjectPtr& target,
                                                             Done<Reply>& done) {
        std::vector<std::string> encoded;
        encoded.reserve(values.size());
        for (const auto& value : values) encoded.push_back(encode_value(*target->codec, value));
        start(target, encoded, done);
      },
      std::forward<Convert>(convert));
}

/// `build()`'s command, or the error it threw (for async_command, below).
template <class Build>
PreparedCommand prepare_command(Build& build) {
  try {
    return PreparedCommand{build(), Status{}};  // built in place: a Command is ~200 bytes
  } catch (const error& failure) {
    return PreparedCommand{Command{}, status_of_error(failure)};
  }
}

/// The common case: one command made by `build()`, called at once on the caller's thread (so
/// it may capture the caller's arguments by reference; a redisson::error it throws becomes the
/// completion's error), sent with one reply callback that converts and completes: the path
/// every simple operation takes, so it allocates no more than a raw Client::async_execute.
/// `convert` must only read the reply (and the codec): in a blocking call that wrote its command
/// on an idle connection, the caller reads the reply and runs it on its own thread, as
/// Client::execute does (read_slot.hpp).
template <class R, class Token, class Build, class Convert>
auto async_command(const ObjectPtr& object, Token&& token, Build&& build, Convert&& convert) {
  return async_op<R>(
      object->core, token,
      [object, prepared = prepare_command(build), convert = std::forward<Convert>(convert)](
          auto done, ReadSlot* read) mutable {
        if (prepared.failure) return fail<R>(done, std::move(prepared.failure));
        submit_reply(
            *object, prepared.command,
            [done = std::move(done), convert = std::move(convert)](std::error_code ec,
                                                                   const Reply& reply) mutable {
              complete_converted<R>(done, reply_status(ec, reply), reply, convert);
            },
            read);
        read_own_reply(read);
      },
      object->batch != nullptr);
}

}  // namespace redisson::detail

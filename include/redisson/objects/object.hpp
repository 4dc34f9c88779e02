// redisson::Object: what every distributed object has (Java Redisson's RObject and RExpirable):
// a name, a codec, the client, and the operations on its keys.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "redisson/codec.hpp"
#include "redisson/detail/duration.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/listener.hpp"

namespace redisson {

class Client;
class Batch;
template <class Derived, class Value>
class Sortable;

/// When a conditional expire() / expire_at() applies (PEXPIRE's NX, XX, GT and LT; Redisson's
/// expireIfNotSet, expireIfSet, expireIfGreater, expireIfLess). A key without a time to live
/// counts as an infinite one: `greater` never applies to it, `less` always does.
enum class ExpireIf {
  not_set,  ///< only when the key has no time to live (NX)
  set,      ///< only when it has one (XX)
  greater,  ///< only when the new expiry is later than the current one (GT)
  less,     ///< only when the new expiry is sooner than the current one (LT)
};

/// Another server's database to migrate() or copy_to() an object's keys (MIGRATE's target).
struct MigrateTarget {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::int64_t database = 0;
  /// How long the source server waits for the target (MIGRATE's timeout).
  std::chrono::milliseconds timeout{1000};
  std::string username = {};  ///< the target's login (AUTH2 when set, else AUTH with password)
  std::string password = {};  ///< empty: the target needs none
};

/// The base of every object: a name + a codec + the client. A handle: cheap to copy, sends
/// nothing until an operation is called, thread-safe. An object whose layout has several keys
/// (an IdGenerator's `{name}:allocation`, a BloomFilter's `{name}:config`, a multimap's values
/// keys) deletes, expires, touches and renames them all together, also when called through an
/// `Object&`; they share the name's hash slot on a Cluster. The synchronizers (Semaphore,
/// PermitExpirableSemaphore, CountDownLatch) are Objects too.
///
/// Every operation has a blocking form (throws redisson::error) and an async form taking any
/// Asio completion token (callbacks, futures, coroutines), completing with
/// (std::error_code[, result]).
class Object {
 protected:
  // The forms the operations of every object take (their bodies: impl/object.hpp).

  /// One command on the object's key, `verb name args...` (arguments: text or integers), whose
  /// reply `convert` reads on the I/O thread.
  template <class R, class CompletionToken, class Convert, class... Args>
  auto on_key(CompletionToken&& token, Convert&& convert, std::string_view verb,
              const Args&... args) const;
  /// An operation written in the .cpp as `start(object, args..., done)` (a script, several
  /// commands); `args` are copied into the operation, which may start later (deferred tokens).
  template <class R, class CompletionToken, class Convert, class Start, class... Args>
  auto started(CompletionToken&& token, Convert&& convert, Start start, Args... args) const;
  /// An operation written in the .cpp as `start(object, args..., done)` completing a Done<R>
  /// itself (a synchronizer's: its own scripts, retries and waits).
  template <class R, class CompletionToken, class Start, class... Args>
  auto run(CompletionToken&& token, Start start, Args... args) const;
  /// As run(), for a waiting operation that honours Asio per-operation cancellation:
  /// `start(object, args..., cancel, done)`, `cancel` null when the caller cannot cancel.
  template <class R, class CompletionToken, class Start, class... Args>
  auto run_cancellable(CompletionToken&& token, Start start, Args... args) const;
  /// A reply conversion reading one value as a T with the object's codec (nil: nullopt).
  template <class T>
  auto value_reader() const;
  /// A reply conversion reading one map value as a V with the codec's map-value codec.
  template <class V>
  auto map_value_reader() const;
  /// A reply conversion reading an array of values as Ts with the object's codec.
  template <class T>
  auto values_reader() const;

 public:
  /// The object's name: its (main) key in Redis.
  const std::string& name() const noexcept { return object_->name; }
  /// The codec its values are stored with.
  const Codec& codec() const noexcept { return *object_->codec; }
  const CodecPtr& codec_ptr() const noexcept { return object_->codec; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_delete_object(CompletionToken&& token);
  template <class CompletionToken>
  auto async_exists(CompletionToken&& token) const;
  template <class Rep, class Period, class CompletionToken>
  auto async_expire(std::chrono::duration<Rep, Period> ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_at(std::chrono::system_clock::time_point when, CompletionToken&& token);
  template <class CompletionToken>
  auto async_clear_expire(CompletionToken&& token);
  template <class CompletionToken>
  auto async_remaining_time_to_live(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_touch(CompletionToken&& token);
  template <class CompletionToken>
  auto async_size_in_memory(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_unlink(CompletionToken&& token);
  template <class Rep, class Period, class CompletionToken>
  auto async_expire(std::chrono::duration<Rep, Period> ttl, ExpireIf condition,
                    CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_at(std::chrono::system_clock::time_point when, ExpireIf condition,
                       CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_time(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_idle_time(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_reference_count(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_access_frequency(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_internal_encoding(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_dump(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_restore(Bytes state, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_restore_and_replace(Bytes state, std::chrono::milliseconds ttl,
                                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_copy(std::string destination, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_copy_and_replace(std::string destination, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_move_to_database(std::int64_t database, CompletionToken&& token);
  template <class CompletionToken>
  auto async_migrate(MigrateTarget target, CompletionToken&& token);
  template <class CompletionToken>
  auto async_copy_to(MigrateTarget target, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_add_listener(ObjectEvent event, KeyListener listener, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_listener(ListenerId id, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Deletes every key of the object; true if something was deleted.
  bool delete_object();
  /// True if the object's key exists.
  bool exists() const;
  /// Sets a time to live on every key of the object (PEXPIRE); true if the object exists.
  template <class Rep, class Period>
  bool expire(std::chrono::duration<Rep, Period> ttl) {
    return async_expire(ttl, detail::blocking("expire", name()));
  }
  /// Makes every key of the object expire at `when` (PEXPIREAT); true if the object exists.
  bool expire_at(std::chrono::system_clock::time_point when);
  /// Removes the time to live (PERSIST); true if there was one.
  bool clear_expire();
  /// The time to live left (PTTL): -1 ms when the object never expires, -2 ms when it does not
  /// exist (as Redisson's remainTimeToLive).
  std::chrono::milliseconds remaining_time_to_live() const;
  /// Renames every key of the object (RENAME; on a Cluster, to a name in another slot by
  /// DUMP/RESTORE/DEL, as Redisson does). This handle then refers to `new_name`; other copies
  /// keep the old name. The object must exist (server_error otherwise).
  void rename(std::string new_name);
  /// Updates the last access time of the object's keys (TOUCH); true if the object exists.
  bool touch();
  /// The bytes the object takes in Redis (MEMORY USAGE, summed over its keys); 0 if absent.
  std::int64_t size_in_memory() const;

  /// Deletes every key of the object like delete_object(), but the server frees the memory in
  /// the background (UNLINK); true if something was deleted.
  bool unlink();
  /// expire(ttl) only when `condition` holds for the object's key; true if it was set. On an
  /// object of several keys, each key is tested and set on its own (as Redisson does).
  template <class Rep, class Period>
  bool expire(std::chrono::duration<Rep, Period> ttl, ExpireIf condition) {
    return async_expire(ttl, condition, detail::blocking("expire", name()));
  }
  /// expire_at(when) only when `condition` holds; true if it was set.
  bool expire_at(std::chrono::system_clock::time_point when, ExpireIf condition);
  /// When the object's key expires (PEXPIRETIME); nullopt when it never does or does not exist
  /// (exists() tells which).
  std::optional<std::chrono::system_clock::time_point> expire_time() const;
  /// How long the object's key has not been read or written (OBJECT IDLETIME, whole seconds);
  /// nullopt when it does not exist.
  std::optional<std::chrono::seconds> idle_time() const;
  /// OBJECT REFCOUNT of the object's key; nullopt when it does not exist.
  std::optional<std::int64_t> reference_count() const;
  /// OBJECT FREQ of the object's key (the server must run an LFU maxmemory-policy, otherwise it
  /// refuses: server_error); nullopt when it does not exist.
  std::optional<std::int64_t> access_frequency() const;
  /// How the server stores the object's key (OBJECT ENCODING: "listpack", "hashtable", "int",
  /// ...); nullopt when it does not exist.
  std::optional<std::string> internal_encoding() const;
  /// The object's key serialized by the server (DUMP), for restore(); nullopt when it does not
  /// exist. Like Redisson's dump, only the key named `name()`.
  std::optional<Bytes> dump() const;
  /// Creates the object's key from a dump() (RESTORE) with a time to live (0: none). An
  /// existing key is left alone and the call fails (server_error, BUSYKEY).
  void restore(const Bytes& state, std::chrono::milliseconds ttl = std::chrono::milliseconds{0});
  /// restore(), replacing the key if it exists (RESTORE ... REPLACE).
  void restore_and_replace(const Bytes& state,
                           std::chrono::milliseconds ttl = std::chrono::milliseconds{0});
  /// Copies every key of the object to the same keys of the object `destination` (COPY; on a
  /// Cluster, to a name in another slot, DUMP + RESTORE, as Redisson does); true if something
  /// was copied. Keys that exist at the destination are left alone (false if none was copied).
  bool copy(std::string destination) const;
  /// copy(), replacing what exists at the destination (COPY ... REPLACE).
  bool copy_and_replace(std::string destination) const;
  /// Renames like rename(), but only if no key of `new_name`'s object exists (RENAMENX); true if
  /// renamed, and this handle then refers to `new_name`. Within one hash slot on a Cluster.
  bool renamenx(std::string new_name);
  /// Moves every key of the object to logical database `database` of the same server (MOVE;
  /// Redisson's move(database)); true if the object's key moved (false: absent here, or present
  /// there). Not on a Cluster, which has one database.
  bool move_to_database(std::int64_t database);
  /// Moves every key of the object to another server (MIGRATE ... KEYS, one command from the
  /// server holding them: Redisson's migrate, which moves only the key `name()`); true if
  /// something moved, false when none of them exists here. A key that exists at the target
  /// fails the call (server_error, BUSYKEY) and nothing moves. Not for the multimaps, whose
  /// values keys are listed in Redis (errc::not_supported).
  bool migrate(const MigrateTarget& target);
  /// migrate() that leaves the keys here too (MIGRATE ... COPY; Redisson's copy(host, port,
  /// database, timeout)).
  bool copy_to(const MigrateTarget& target) const;

  /// Calls `listener` with the object's key each time `event` happens to it (Redisson's
  /// addListener with an ObjectListener: DeletedObjectListener is ObjectEvent::deleted, ...),
  /// from any client, Java's too, until remove_listener(). Which events a type hears:
  /// ObjectEvent's table; another is errc::invalid_argument. Returns once the server confirmed
  /// the subscription. The server announces events only with its notify-keyspace-events
  /// letters on: by default the missing ones are turned on (Config::keyspace_notifications).
  /// Delivery is at most once, as a topic's: an event while the client is disconnected is lost.
  /// The listener runs on the client's listener threads (Config::listener_threads).
  ListenerId add_listener(ObjectEvent event, KeyListener listener) const;
  /// Removes a listener of this client (an object's or a topic's); false when `id` is not
  /// registered. No call of it starts after this returns.
  bool remove_listener(ListenerId id) const;

 protected:
  /// For the derived objects: `kind` names the object type in errors ("Bucket"); `hooks` (a
  /// static table, null for a one-key object) says what else the type keeps, so the object
  /// operations above act on all of it.
  Object(const Client& client, std::string name, CodecPtr codec, const char* kind,
         const detail::ObjectHooks* hooks = nullptr)
      : object_(detail::make_object(client, std::move(name), std::move(codec), kind, hooks)) {}

  /// For the synchronizers: an object made by detail::make_object with their hooks.
  explicit Object(detail::ObjectPtr object) : object_(std::move(object)) {}

  /// What this client runs for the object in the background while a handle on it exists (an
  /// expiring collection's sweeper), made from the object's state; null when there is none.
  using BackgroundTask = std::shared_ptr<void> (*)(const detail::ObjectPtr& object);
  /// Starts (or joins) the object's background task; rename() starts it again on the new name.
  void keep_background_task(BackgroundTask make) {
    make_background_ = make;
    background_ = make(object_);
  }

  detail::ObjectPtr object_;

 private:
  friend class Batch;              // binds an object to itself (Batch::get)
  friend class ClientSideCaching;  // binds an object to its cache (ClientSideCaching::get)
  template <class Derived, class Value>
  friend class Sortable;  // a mixin of some collections, sending on their object

  BackgroundTask make_background_ = nullptr;
  std::shared_ptr<void> background_;  // shared by the handle's copies

  /// DEL or TOUCH of every key (listed keys: the object's own script).
  static void start_keys_command(const detail::ObjectPtr& object, const char* verb,
                                 detail::Done<Reply>& done);
  static void start_size_in_memory(const detail::ObjectPtr& object, detail::Done<Reply>& done);
  static void start_expire(const detail::ObjectPtr& object, const char* command, std::int64_t ms,
                           detail::Done<Reply>& done);
  static void start_expire_if(const detail::ObjectPtr& object, const char* command, std::int64_t ms,
                              ExpireIf condition, detail::Done<Reply>& done);
  static void start_each_key(const detail::ObjectPtr& object, const char* command,
                             std::int64_t argument, detail::Done<Reply>& done);
  static void start_restore(const detail::ObjectPtr& object, const Bytes& state, std::int64_t ms,
                            bool replace, detail::Done<Reply>& done);
  static void start_object_subcommand(const detail::ObjectPtr& object, const char* subcommand,
                                      detail::Done<Reply>& done);
  static void start_copy(const detail::ObjectPtr& object, const std::string& destination,
                         bool replace, detail::Done<Reply>& done);
  static void start_migrate(const detail::ObjectPtr& object, const MigrateTarget& target, bool copy,
                            detail::Done<Reply>& done);
  static void start_listen(const detail::ObjectPtr& object, ObjectEvent event,
                           const KeyListener& listener, detail::Done<ListenerId> done);
  static void start_unlisten(const detail::ObjectPtr& object, ListenerId id,
                             detail::Done<bool> done);
};

namespace detail {

/// A handle of the object type T named `name` on `client`: with `codec` when T takes one; a
/// codec given to a type that takes none is refused through `refuse` (which throws). What
/// Batch::get and ClientSideCaching::get make before binding it.
template <class T>
T construct_object(const Client& client, std::string name, CodecPtr codec, void (*refuse)()) {
  if constexpr (std::is_constructible_v<T, const Client&, std::string, CodecPtr>) {
    return T(client, std::move(name), std::move(codec));
  } else {
    if (codec) refuse();
    return T(client, std::move(name));
  }
}

}  // namespace detail

}  // namespace redisson

#include "redisson/objects/impl/object.hpp"

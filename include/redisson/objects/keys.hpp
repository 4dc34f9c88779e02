// redisson::Keys: the keys of the whole data set, Java Redisson's RKeys.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/object_listen.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/detail/paged_iterator.hpp"
#include "redisson/listener.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

/// What a key holds (TYPE); `none` when it does not exist, `other` for a module's type.
enum class KeyType { none, string, list, set, zset, hash, stream, other };

/// What Keys::scan() looks for.
struct ScanOptions {
  /// SCAN MATCH: a glob-style pattern ("user:*", "{tag}:?").
  std::string pattern = "*";
  /// SCAN COUNT: how much work each SCAN does (a hint to the server, not a page size): more means
  /// fewer round trips and longer server pauses. At least 1.
  std::int64_t count = 10;
  /// SCAN TYPE: only keys of this type ("string", "hash", ...); empty: every type.
  std::string type{};
};

namespace detail {
/// Where a KeyScan is (keys.cpp): the masters, the one being scanned and its cursor.
struct KeyScanState;
std::shared_ptr<KeyScanState> make_key_scan(ScanOptions options);
/// The next non-empty page of keys as an array reply; an empty one when every master is done.
void start_key_scan_next(const ObjectPtr& state, const std::shared_ptr<KeyScanState>& scan,
                         Done<Reply>& done);
/// Keys' operations over every master (DBSIZE, SCAN + UNLINK, FLUSHDB, RANDOMKEY); see keys.cpp.
void start_keys_count(const ObjectPtr& state, Done<Reply>& done);
void start_keys_delete_by_pattern(const ObjectPtr& state, const std::string& pattern,
                                  Done<Reply>& done);
/// `verb` (FLUSHDB or FLUSHALL) on every master, in parallel.
void start_keys_flush(const ObjectPtr& state, const char* verb, Done<Reply>& done);
/// SWAPDB first second (refused in a batch and on a Cluster, which has one database).
void start_keys_swapdb(const ObjectPtr& state, std::int64_t first, std::int64_t second,
                       Done<Reply>& done);
void start_keys_random_key(const ObjectPtr& state, Done<Reply>& done);
/// MIGRATE of the key `name` to `target` (COPY when `copy`), on the key's node.
void start_keys_migrate(const ObjectPtr& state, const std::string& name,
                        const MigrateTarget& target, bool copy, Done<Reply>& done);
/// DEL / UNLINK / EXISTS `names`, one command per hash slot on a Cluster; completes with the sum.
void start_keys_per_slot(const ObjectPtr& state, const char* command,
                         const std::vector<std::string>& names, Done<Reply>& done);
std::optional<std::string> reply_optional_key(const Reply& reply);
KeyType reply_key_type(const Reply& reply);
}  // namespace detail

/// A cursor over the keys of every master (SCAN on each, one after the other), made by
/// Keys::scan(). Memory stays at one page of keys whatever the size of the data set.
///
/// SCAN's guarantees hold per master: a key present for the whole scan is returned at least
/// once (it may be returned twice); keys added or removed meanwhile may or may not be. Masters
/// are those of the topology when the scan starts. Not thread-safe (one reader at a time), like
/// an iterator; call next_batch() again only once the previous call has completed.
class KeyScan {
 public:
  // ---- asynchronous form: completes through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_next_batch(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The next keys (one SCAN page, more SCANs when a page is empty); empty when the scan is
  /// over.
  std::vector<std::string> next_batch();

  /// An input iterator over the keys, one at a time, fetching pages with next_batch() (which
  /// throws from operator++ and begin()).
  using iterator = detail::PagedIterator<KeyScan, std::string>;
  /// Starts reading (the first page is fetched here).
  iterator begin() { return iterator(*this); }
  std::default_sentinel_t end() const noexcept { return {}; }

 private:
  friend class Keys;
  KeyScan(detail::ObjectPtr state, ScanOptions options)
      : state_(std::move(state)), scan_(detail::make_key_scan(std::move(options))) {}

  detail::ObjectPtr state_;
  std::shared_ptr<detail::KeyScanState> scan_;
};

/// The keys of the data set, Java Redisson's RKeys: counting, finding (SCAN, never KEYS),
/// deleting and inspecting keys by name, on a single server, Sentinel or Cluster alike.
///
/// Cost: count(), flushdb() and delete_by_pattern() visit every master (in parallel); scan()
/// one SCAN per page per master; delete_keys(), unlink() and count_exists() one command per
/// hash slot on a Cluster (pipelined; one command elsewhere); random_key() one RANDOMKEY, more
/// on a Cluster while the masters it asks are empty; get_type() and remaining_time_to_live()
/// one command.
///
/// In a batch (`batch.get<Keys>()`): delete_keys, unlink, count_exists, get_type and
/// remaining_time_to_live are queued; count, scan, delete_by_pattern, flushdb and random_key
/// (several masters, or several steps) are refused with errc::invalid_argument.
///
/// A handle: cheap to copy, sends nothing until called, thread-safe.
class Keys {
  friend class Batch;  // binds it to itself (Batch::get)

  template <class CompletionToken>
  auto per_slot(const char* command, std::vector<std::string> names, CompletionToken&& token) const;

 public:
  /// The tag flushdb() asks for, so that no call wipes the data set by accident.
  struct ConfirmFlush {
    explicit ConfirmFlush() = default;
  };
  static constexpr ConfirmFlush confirm_flush{};

  /// The keys of `client`'s data set.
  explicit Keys(const Client& client) : state_(detail::make_keyless(client, nullptr)) {}

  /// A cursor over the keys matching `options`; sends nothing until read. A count below 1 is
  /// errc::invalid_argument.
  KeyScan scan(ScanOptions options = {}) const;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_count(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_delete_keys(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_unlink(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_count_exists(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_delete_by_pattern(std::string pattern, CompletionToken&& token);
  template <class CompletionToken>
  auto async_flushdb(ConfirmFlush, CompletionToken&& token);
  template <class CompletionToken>
  auto async_flushall(ConfirmFlush, CompletionToken&& token);
  template <class CompletionToken>
  auto async_swapdb(std::int64_t first, std::int64_t second, CompletionToken&& token);
  template <class CompletionToken>
  auto async_random_key(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_type(std::string name, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remaining_time_to_live(std::string name, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_migrate(std::string name, MigrateTarget target, CompletionToken&& token) {
    return detail::async_started<bool>(
        state_, token,
        [name = std::move(name), target = std::move(target)](const detail::ObjectPtr& state,
                                                             detail::Done<Reply>& done) {
          detail::start_keys_migrate(state, name, target, false, done);
        },
        &detail::reply_migrated);
  }
  template <class CompletionToken>
  auto async_copy_to(std::string name, MigrateTarget target, CompletionToken&& token) const {
    return detail::async_started<bool>(
        state_, token,
        [name = std::move(name), target = std::move(target)](const detail::ObjectPtr& state,
                                                             detail::Done<Reply>& done) {
          detail::start_keys_migrate(state, name, target, true, done);
        },
        &detail::reply_migrated);
  }
  template <class CompletionToken>
  auto async_add_listener(ObjectEvent event, KeyListener listener, CompletionToken&& token) const {
    return detail::async_op<ListenerId>(
        state_->core, token,
        [core = state_->core, event,
         listener = std::move(listener)](detail::Done<ListenerId> done) {
          detail::start_object_listen(core, "Keys", "", event, listener, std::move(done));
        });
  }
  template <class CompletionToken>
  auto async_remove_listener(ListenerId id, CompletionToken&& token) const {
    return detail::async_op<bool>(state_->core, token,
                                  [core = state_->core, id](detail::Done<bool> done) {
                                    detail::start_listener_remove(core, id, std::move(done));
                                  });
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// How many keys there are (DBSIZE, summed over the masters).
  std::int64_t count() const;
  /// Deletes `names` (DEL); returns how many existed. No names: 0, nothing sent.
  std::int64_t delete_keys(std::vector<std::string> names);
  /// Deletes `names`, reclaiming their memory in the background (UNLINK); returns how many
  /// existed.
  std::int64_t unlink(std::vector<std::string> names);
  /// How many of `names` exist (EXISTS: a name given twice counts twice).
  std::int64_t count_exists(std::vector<std::string> names) const;
  /// Deletes every key matching `pattern`: SCAN (COUNT 500) on every master, each page
  /// UNLINKed before the next is asked for. Returns how many keys were deleted. Not atomic:
  /// keys created meanwhile may stay.
  std::int64_t delete_by_pattern(std::string pattern);
  /// Deletes every key of the database on every master (FLUSHDB):
  /// `keys.flushdb(redisson::Keys::confirm_flush)`.
  void flushdb(ConfirmFlush confirm);
  /// Deletes every key of every database on every master (FLUSHALL):
  /// `keys.flushall(redisson::Keys::confirm_flush)`.
  void flushall(ConfirmFlush confirm);
  /// Swaps the contents of the logical databases `first` and `second` (SWAPDB); not on a
  /// Cluster (errc::invalid_argument), which has one database.
  void swapdb(std::int64_t first, std::int64_t second);
  /// The Cluster hash slot of `key` (CRC16 of its hash tag, mod 16384), computed here, the same
  /// on any deployment.
  static int slot(std::string_view key);
  /// A random key; nullopt when there are none.
  std::optional<std::string> random_key() const;
  /// What the key `name` holds; KeyType::none when it does not exist.
  KeyType get_type(std::string name) const;
  /// The time to live of `name` (PTTL): -1 ms when it never expires, -2 ms when it does not
  /// exist.
  std::chrono::milliseconds remaining_time_to_live(std::string name) const;
  /// Moves the key `name` to another server (MIGRATE; Redisson's RKeys.migrate); true if it
  /// moved, false when it does not exist here. A key of that name at the target fails the call
  /// (server_error, BUSYKEY) and nothing moves.
  bool migrate(std::string name, MigrateTarget target) {
    return async_migrate(std::move(name), std::move(target), detail::blocking("Keys::migrate"));
  }
  /// migrate() that leaves the key here too (MIGRATE ... COPY; Redisson's RKeys.copy).
  bool copy_to(std::string name, MigrateTarget target) const {
    return async_copy_to(std::move(name), std::move(target), detail::blocking("Keys::copy_to"));
  }
  /// Calls `listener` with the key each time `event` happens to any key of the database, from
  /// any client (Redisson's RKeys.addListener): ObjectEvent::created (a new key), set (SET),
  /// deleted, expired; another event is errc::invalid_argument. As Object::add_listener: the
  /// server's notify-keyspace-events per Config::keyspace_notifications, the listener threads,
  /// at most once. On a Cluster it hears every master.
  ListenerId add_listener(ObjectEvent event, KeyListener listener) const {
    return async_add_listener(event, std::move(listener), detail::blocking("Keys::add_listener"));
  }
  /// Removes a listener of this client; false when `id` is not registered.
  bool remove_listener(ListenerId id) const {
    return async_remove_listener(id, detail::blocking("Keys::remove_listener"));
  }

 private:
  detail::ObjectPtr state_;
};

}  // namespace redisson

#include "redisson/objects/impl/keys.hpp"

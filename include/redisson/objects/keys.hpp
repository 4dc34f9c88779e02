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

#include "redisson/detail/object_op.hpp"
#include "redisson/detail/paged_iterator.hpp"

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
void start_keys_flushdb(const ObjectPtr& state, Done<Reply>& done);
void start_keys_random_key(const ObjectPtr& state, Done<Reply>& done);
/// DEL / UNLINK / EXISTS `names`, one command per hash slot on a Cluster; completes with the sum.
void start_keys_per_slot(const ObjectPtr& state, const char* command,
                         const std::vector<std::string>& names, Done<Reply>& done);
std::vector<std::string> reply_keys(const Reply& reply);
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
  auto async_next_batch(CompletionToken&& token) {
    return detail::async_started<std::vector<std::string>>(
        state_, token,
        [scan = scan_](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
          detail::start_key_scan_next(state, scan, done);
        },
        &detail::reply_keys);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The next keys (one SCAN page, more SCANs when a page is empty); empty when the scan is
  /// over.
  std::vector<std::string> next_batch() {
    return async_next_batch(detail::blocking("KeyScan::next_batch"));
  }

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
/// A handle: cheap to copy, sends nothing until called, thread-safe.
class Keys {
  // (Defined first: the forms below deduce their return types from it.)
  template <class CompletionToken>
  auto per_slot(const char* command, std::vector<std::string> names,
                CompletionToken&& token) const {
    return detail::async_started<std::int64_t>(
        state_, token,
        [command, names = std::move(names)](const detail::ObjectPtr& state,
                                            detail::Done<Reply>& done) {
          detail::start_keys_per_slot(state, command, names, done);
        },
        &detail::reply_integer);
  }

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
  auto async_count(CompletionToken&& token) const {
    return detail::async_started<std::int64_t>(state_, token, &detail::start_keys_count,
                                               &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_delete_keys(std::vector<std::string> names, CompletionToken&& token) {
    return per_slot("DEL", std::move(names), std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_unlink(std::vector<std::string> names, CompletionToken&& token) {
    return per_slot("UNLINK", std::move(names), std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_count_exists(std::vector<std::string> names, CompletionToken&& token) const {
    return per_slot("EXISTS", std::move(names), std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_delete_by_pattern(std::string pattern, CompletionToken&& token) {
    return detail::async_started<std::int64_t>(
        state_, token,
        [pattern = std::move(pattern)](const detail::ObjectPtr& state, detail::Done<Reply>& done) {
          detail::start_keys_delete_by_pattern(state, pattern, done);
        },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_flushdb(ConfirmFlush, CompletionToken&& token) {
    return detail::async_started<void>(state_, token, &detail::start_keys_flushdb,
                                       &detail::reply_ignore);
  }
  template <class CompletionToken>
  auto async_random_key(CompletionToken&& token) const {
    return detail::async_started<std::optional<std::string>>(
        state_, token, &detail::start_keys_random_key, &detail::reply_optional_key);
  }
  template <class CompletionToken>
  auto async_get_type(std::string name, CompletionToken&& token) const {
    return detail::async_command<KeyType>(
        state_, token,
        [name = std::move(name)] {
          return Command{"TYPE", name};
        },
        &detail::reply_key_type);
  }
  template <class CompletionToken>
  auto async_remaining_time_to_live(std::string name, CompletionToken&& token) const {
    return detail::async_command<std::chrono::milliseconds>(
        state_, token,
        [name = std::move(name)] {
          return Command{"PTTL", name};
        },
        &detail::reply_ms);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// How many keys there are (DBSIZE, summed over the masters).
  std::int64_t count() const { return async_count(detail::blocking("Keys::count")); }
  /// Deletes `names` (DEL); returns how many existed. No names: 0, nothing sent.
  std::int64_t delete_keys(std::vector<std::string> names) {
    return async_delete_keys(std::move(names), detail::blocking("Keys::delete_keys"));
  }
  /// Deletes `names`, reclaiming their memory in the background (UNLINK); returns how many
  /// existed.
  std::int64_t unlink(std::vector<std::string> names) {
    return async_unlink(std::move(names), detail::blocking("Keys::unlink"));
  }
  /// How many of `names` exist (EXISTS: a name given twice counts twice).
  std::int64_t count_exists(std::vector<std::string> names) const {
    return async_count_exists(std::move(names), detail::blocking("Keys::count_exists"));
  }
  /// Deletes every key matching `pattern`: SCAN (COUNT 500) on every master, each page
  /// UNLINKed before the next is asked for. Returns how many keys were deleted. Not atomic:
  /// keys created meanwhile may stay.
  std::int64_t delete_by_pattern(std::string pattern) {
    return async_delete_by_pattern(std::move(pattern), detail::blocking("Keys::delete_by_pattern"));
  }
  /// Deletes every key of the database on every master (FLUSHDB):
  /// `keys.flushdb(redisson::Keys::confirm_flush)`.
  void flushdb(ConfirmFlush confirm) { async_flushdb(confirm, detail::blocking("Keys::flushdb")); }
  /// A random key; nullopt when there are none.
  std::optional<std::string> random_key() const {
    return async_random_key(detail::blocking("Keys::random_key"));
  }
  /// What the key `name` holds; KeyType::none when it does not exist.
  KeyType get_type(std::string name) const {
    return async_get_type(std::move(name), detail::blocking("Keys::get_type"));
  }
  /// The time to live of `name` (PTTL): -1 ms when it never expires, -2 ms when it does not
  /// exist.
  std::chrono::milliseconds remaining_time_to_live(std::string name) const {
    return async_remaining_time_to_live(std::move(name),
                                        detail::blocking("Keys::remaining_time_to_live"));
  }

 private:
  detail::ObjectPtr state_;
};

}  // namespace redisson

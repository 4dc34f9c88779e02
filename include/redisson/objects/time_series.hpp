// redisson::TimeSeries<V, L>: values by timestamp, each with an optional label and an optional
// time to live, Java Redisson's RTimeSeries.
#pragma once

#include <chrono>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/detail/paged_scan.hpp"
#include "redisson/detail/zset.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/sorted_ends.hpp"

namespace redisson {

/// One entry of a TimeSeries: its timestamp (ms, or any unit the caller chooses), its value and
/// its label (nullopt: the entry has none).
template <class V, class L = std::string>
struct TimeSeriesEntry {
  std::int64_t timestamp = 0;
  V value;
  std::optional<L> label;

  bool operator==(const TimeSeriesEntry&) const = default;
};

namespace detail {

/// The key besides the zset: redisson__ts_ttl:{name} (Redisson's prefixName).
std::string time_series_ttl_key(const std::string& name);
std::vector<std::string> time_series_keys(const std::string& name);
inline constexpr ObjectHooks time_series_hooks{.extra_keys = &time_series_keys};

/// A member as Redisson 3.52 frames it, struct 'BBc0Lc0Lc0': format byte (3 with a label, 2
/// without), 16, the 16 random bytes, 8-byte LE length + the value's bytes, 8-byte LE length + the
/// label's bytes (none: length 0).
std::string time_series_member(std::string_view random16, std::string_view value,
                               const std::optional<std::string>& label);
/// The parts of a framed member (views into it); damaged framing is errc::codec_error.
struct TimeSeriesMember {
  std::string_view value;
  std::optional<std::string_view> label;
};
TimeSeriesMember parse_time_series_member(std::string_view member);
/// A timestamp as the scripts answer it (the score's text).
std::int64_t time_series_timestamp(const Reply& score);

/// An entry to add, encoded: timestamp, value bytes, label bytes (nullopt: no label).
struct TimeSeriesWrite {
  std::int64_t timestamp = 0;
  std::string value;
  std::optional<std::string> label;
};
/// time_series_add.lua: each entry with 16 new random bytes; `ttl` 0: none, negative:
/// invalid_argument. Completes with the number written.
void start_time_series_add(const ObjectPtr& object, const std::vector<TimeSeriesWrite>& entries,
                           std::chrono::milliseconds ttl, Done<Reply>& done);
/// time_series_get.lua: the first live entry at `timestamp`, removed too when `remove`; completes
/// with {member, timestamp} or nil.
void start_time_series_get(const ObjectPtr& object, std::int64_t timestamp, bool remove,
                           Done<Reply>& done);
/// What time_series_range.lua does with the live entries of a range.
enum class TimeSeriesAction { read, poll, remove };
/// time_series_range.lua over [from, to] (score bounds: "-inf", "+inf" or a timestamp). `limit`:
/// -1 all, 0 none (completes with an empty array at once), n > 0 at most n. Completes with flat
/// member, timestamp pairs (remove: the count).
void start_time_series_range(const ObjectPtr& object, const std::string& from,
                             const std::string& to, std::int64_t limit, bool reverse,
                             TimeSeriesAction action, Done<Reply>& done);
/// A range's limit as the public calls take it (0: no limit; negative: invalid_argument) as the
/// `limit` of start_time_series_range.
std::int64_t time_series_range_limit(std::int64_t limit);
/// A count as the public calls take it (first(n), poll_first(n): 0 is none, negative is
/// invalid_argument) as the `limit` of start_time_series_range.
std::int64_t time_series_count(std::int64_t count);
/// time_series_size.lua: the live entries.
void start_time_series_size(const ObjectPtr& object, Done<Reply>& done);
/// The eviction step, time_series_evict.lua: removes up to `limit` (>= 1, else invalid_argument)
/// expired entries from both zsets; completes with how many. What a sweeper schedules.
void start_time_series_sweep(const ObjectPtr& object, std::int64_t limit, Done<Reply>& done);
/// This client's sweeper of the series (src/objects/sweeper.hpp); null when it is off.
std::shared_ptr<void> time_series_sweeper(const ObjectPtr& object);

/// Where a TimeSeries scan is (time_series.cpp): the next rank and the page size.
struct TimeSeriesScanState;
/// `page_size` >= 1, else invalid_argument.
std::shared_ptr<TimeSeriesScanState> make_time_series_scan(std::int64_t page_size);
/// The next non-empty page of live entries, flat member, timestamp pairs; an empty array when the
/// scan is over.
void start_time_series_scan_next(const ObjectPtr& object,
                                 const std::shared_ptr<TimeSeriesScanState>& scan,
                                 Done<Reply>& done);

/// Calls visit(member bytes, timestamp) for each pair of a flat reply (nil: none).
template <class Visit>
void for_each_time_series_pair(const Reply& reply, Visit&& visit) {
  if (reply.is_null()) return;
  if (!reply.is_aggregate() || reply.elements.size() % 2 != 0) {
    throw_unexpected_reply("time series entries", reply);
  }
  for (std::size_t i = 0; i < reply.elements.size(); i += 2) {
    const auto& member = reply.elements[i];
    if (!member.is_string()) throw_unexpected_reply("a time series member", reply);
    visit(std::string_view(member.str), time_series_timestamp(reply.elements[i + 1]));
  }
}

/// The values of a flat reply of entries (labels left unread).
template <class V>
std::vector<V> time_series_values(const Codec& codec, const Reply& reply) {
  std::vector<V> values;
  for_each_time_series_pair(reply, [&](std::string_view member, std::int64_t) {
    values.push_back(from_value<V>(codec.decode(parse_time_series_member(member).value)));
  });
  return values;
}

/// The entries of a flat reply of entries.
template <class V, class L>
std::vector<TimeSeriesEntry<V, L>> time_series_entries(const Codec& codec, const Reply& reply) {
  std::vector<TimeSeriesEntry<V, L>> entries;
  for_each_time_series_pair(reply, [&](std::string_view member, std::int64_t timestamp) {
    const auto parts = parse_time_series_member(member);
    TimeSeriesEntry<V, L> entry{timestamp, from_value<V>(codec.decode(parts.value)), std::nullopt};
    if (parts.label) entry.label = from_value<L>(codec.decode(*parts.label));
    entries.push_back(std::move(entry));
  });
  return entries;
}

}  // namespace detail

/// A cursor over the live entries of a TimeSeries, oldest first, made by its entries()/values():
/// memory stays at one page however long the series. Pages are rank windows of the zset (as
/// Redisson's iterator reads them): entries added or removed before the cursor's position
/// meanwhile shift the windows, so an entry may then be skipped or read twice. Not thread-safe
/// (one reader at a time), like an iterator.
template <class E>
class TimeSeriesScan : public detail::PagedScan<E, detail::TimeSeriesScanState,
                                                &detail::start_time_series_scan_next> {
  using Base =
      detail::PagedScan<E, detail::TimeSeriesScanState, &detail::start_time_series_scan_next>;

 public:
  /// Turns one page (flat member, timestamp pairs) into elements with the object's codec.
  using typename Base::Decode;

  TimeSeriesScan(detail::ObjectPtr object, std::int64_t page_size, Decode decode)
      : Base(std::move(object), detail::make_time_series_scan(page_size), decode) {}
};

/// Values of V by timestamp, each with an optional label of L and an optional time to live, in
/// Java Redisson's RTimeSeries layout (3.52), so Java and C++ share one series:
///
///   n                         zset: score = the timestamp, member = struct 'BBc0Lc0Lc0': format
///                             byte (3 with a label, 2 without), 16, 16 random bytes, 8-byte LE
///                             length + the value's codec bytes, 8-byte LE length + the label's
///                             codec bytes (length 0 without a label)
///   redisson__ts_ttl:{n}      zset: the same members, score = the expiry time in ms; without a
///                             ttl, max(now + 36500 days, the highest score there) + 1
///
/// Several entries may share a timestamp (the random bytes keep them apart); get() and remove()
/// take the first live one of it. An expired entry is invisible at once (every read checks the
/// ttl zset; times are the client's clock, as in Redisson, so clients need synchronised clocks)
/// and stays in Redis until a sweeper (this client's while it has a handle, Config::eviction;
/// a Java client's), evict_expired() or remove_range() removes it; size() counts live entries only,
/// as Redisson's does.
///
/// Cost: every operation is one script, one round trip: O(log n) per entry touched, plus the
/// expired entries a range steps over. Ranges without a limit answer the whole range at once;
/// entries()/values() read in pages. delete_object(), expire() and rename() act on both zsets.
///
/// A key of another type is errc::wrong_type and changes nothing; a negative ttl, limit or count
/// is errc::invalid_argument, nothing sent; from > to is an empty range (as in Redisson).
/// A handle: cheap to copy, sends nothing until an operation is called, thread-safe.
template <JavaValue V, JavaValue L = std::string>
class TimeSeries : public Object, public SortedEnds<TimeSeries<V, L>, V> {
 public:
  // first and last have more overloads here (a count) than SortedEnds'.
  using SortedEnds<TimeSeries<V, L>, V>::first;
  using SortedEnds<TimeSeries<V, L>, V>::last;

  using Entry = TimeSeriesEntry<V, L>;

  /// A handle on the time series `name`; sends nothing. `codec` null: the client's default.
  TimeSeries(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "TimeSeries",
               &detail::time_series_hooks) {
    keep_background_task(&detail::time_series_sweeper);
  }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(std::int64_t timestamp, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(std::int64_t timestamp, const V& value, std::chrono::milliseconds ttl,
                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(std::int64_t timestamp, const V& value, const L& label, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(std::int64_t timestamp, const V& value, const L& label,
                 std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(std::vector<Entry> entries, std::chrono::milliseconds ttl,
                     CompletionToken&& token);
  template <class CompletionToken>
  auto async_get(std::int64_t timestamp, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_entry(std::int64_t timestamp, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove(std::int64_t timestamp, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_remove(std::int64_t timestamp, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_remove_entry(std::int64_t timestamp, CompletionToken&& token);
  template <class CompletionToken>
  auto async_first_entries(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last_entries(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_range(std::int64_t from, std::int64_t to, CompletionToken&& token);
  template <class CompletionToken>
  auto async_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                   CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rev_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                       CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                         CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_rev_range(std::int64_t from, std::int64_t to, std::int64_t limit,
                             CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_first(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_first_entry(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last_entry(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_first(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll_first(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_entries(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_entries(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_evict_expired(std::int64_t limit, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // A ttl of 0 means none (as in Redisson); a limit of 0 means no limit.
  // first and last (the value with the lowest / highest timestamp of the live entries),
  // poll_first and poll_last (oldest / newest; with a count, in that order) are SortedEnds'.

  /// Adds `value` at `timestamp`, never expiring.
  void add(std::int64_t timestamp, const V& value) { async_add(timestamp, value, blocking("add")); }
  /// Adds `value` at `timestamp`, expiring after `ttl`.
  void add(std::int64_t timestamp, const V& value, std::chrono::milliseconds ttl) {
    async_add(timestamp, value, ttl, blocking("add"));
  }
  /// Adds `value` with `label` at `timestamp`, never expiring.
  void add(std::int64_t timestamp, const V& value, const L& label) {
    async_add(timestamp, value, label, blocking("add"));
  }
  /// Adds `value` with `label` at `timestamp`, expiring after `ttl`.
  void add(std::int64_t timestamp, const V& value, const L& label, std::chrono::milliseconds ttl) {
    async_add(timestamp, value, label, ttl, blocking("add"));
  }
  /// Adds the entries in one script, all with the same `ttl`.
  void add_all(std::vector<Entry> entries, std::chrono::milliseconds ttl = {}) {
    async_add_all(std::move(entries), ttl, blocking("add_all"));
  }
  /// The value at `timestamp`, or nullopt when none is live.
  std::optional<V> get(std::int64_t timestamp) const {
    return async_get(timestamp, blocking("get"));
  }
  /// The entry (value and label) at `timestamp`, or nullopt when none is live.
  std::optional<Entry> get_entry(std::int64_t timestamp) const {
    return async_get_entry(timestamp, blocking("get_entry"));
  }
  /// Removes the live entry at `timestamp`; true if there was one.
  bool remove(std::int64_t timestamp) { return async_remove(timestamp, blocking("remove")); }
  /// Removes the live entry at `timestamp` and returns its value.
  std::optional<V> get_and_remove(std::int64_t timestamp) {
    return async_get_and_remove(timestamp, blocking("get_and_remove"));
  }
  /// Removes every entry with a timestamp in [from, to]; returns how many of them were live.
  std::int64_t remove_range(std::int64_t from, std::int64_t to) {
    return async_remove_range(from, to, blocking("remove_range"));
  }
  /// The live values with timestamps in [from, to], oldest first, at most `limit` (0: all).
  std::vector<V> range(std::int64_t from, std::int64_t to, std::int64_t limit = 0) const {
    return async_range(from, to, limit, blocking("range"));
  }
  /// As range(), newest first (Redisson's rangeReversed).
  std::vector<V> rev_range(std::int64_t from, std::int64_t to, std::int64_t limit = 0) const {
    return async_rev_range(from, to, limit, blocking("rev_range"));
  }
  /// The live entries (timestamp, value, label) in [from, to], oldest first, at most `limit`.
  std::vector<Entry> entry_range(std::int64_t from, std::int64_t to, std::int64_t limit = 0) const {
    return async_entry_range(from, to, limit, blocking("entry_range"));
  }
  /// As entry_range(), newest first (Redisson's entryRangeReversed).
  std::vector<Entry> entry_rev_range(std::int64_t from, std::int64_t to,
                                     std::int64_t limit = 0) const {
    return async_entry_rev_range(from, to, limit, blocking("entry_rev_range"));
  }
  /// The entry with the lowest timestamp.
  std::optional<Entry> first_entry() const { return async_first_entry(blocking("first_entry")); }
  /// The entry with the highest timestamp.
  std::optional<Entry> last_entry() const { return async_last_entry(blocking("last_entry")); }
  /// The `count` values with the lowest timestamps, oldest first.
  std::vector<V> first(std::int64_t count) const { return async_first(count, blocking("first")); }
  /// The `count` values with the highest timestamps, newest first.
  std::vector<V> last(std::int64_t count) const { return async_last(count, blocking("last")); }
  /// The `count` entries with the lowest timestamps, oldest first.
  std::vector<Entry> first_entries(std::int64_t count) const {
    return async_first_entries(count, blocking("first_entries"));
  }
  /// The `count` entries with the highest timestamps, newest first.
  std::vector<Entry> last_entries(std::int64_t count) const {
    return async_last_entries(count, blocking("last_entries"));
  }
  /// Removes the entry at `timestamp` and returns it with its label; nullopt when there is
  /// none (or it expired).
  std::optional<Entry> get_and_remove_entry(std::int64_t timestamp) {
    return async_get_and_remove_entry(timestamp, blocking("get_and_remove_entry"));
  }
  /// Removes and returns the `count` oldest entries, oldest first.
  std::vector<Entry> poll_first_entries(std::int64_t count) {
    return async_poll_first_entries(count, blocking("poll_first_entries"));
  }
  /// Removes and returns the `count` newest entries, newest first.
  std::vector<Entry> poll_last_entries(std::int64_t count) {
    return async_poll_last_entries(count, blocking("poll_last_entries"));
  }
  /// The number of live entries (the zset's size less the expired entries not yet removed, as
  /// Redisson's size()).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// Removes up to `limit` (>= 1) expired entries from both zsets now; returns how many. What
  /// Redisson's eviction task does in the background.
  std::int64_t evict_expired(std::int64_t limit = 100) {
    return async_evict_expired(limit, blocking("evict_expired"));
  }
  /// The live entries, oldest first, read in pages of `page_size`; sends nothing until read.
  TimeSeriesScan<Entry> entries(std::int64_t page_size = 100) const {
    return TimeSeriesScan<Entry>(object_, page_size, &detail::time_series_entries<V, L>);
  }
  /// The live values, oldest first, read in pages as entries() is.
  TimeSeriesScan<V> values(std::int64_t page_size = 100) const {
    return TimeSeriesScan<V>(object_, page_size, &detail::time_series_values<V>);
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  static std::string bound(std::int64_t timestamp) { return std::to_string(timestamp); }
  auto values_reader() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::time_series_values<V>(*codec, reply);
    };
  }
  auto entries_reader() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::time_series_entries<V, L>(*codec, reply);
    };
  }
  auto first_value() const {
    return [read = values_reader()](const Reply& reply) { return detail::first_of(read(reply)); };
  }
  auto first_entry_reader() const {
    return [read = entries_reader()](const Reply& reply) { return detail::first_of(read(reply)); };
  }
  /// time_series_range.lua with a limit as start_time_series_range takes it.
  template <class R, class CompletionToken, class Convert>
  auto range(CompletionToken&& token, Convert convert, std::string from, std::string to,
             std::int64_t limit, bool reverse, detail::TimeSeriesAction action) const;
  /// A range with a caller's limit (0: all; negative: invalid_argument when it starts).
  template <class R, class CompletionToken, class Convert>
  auto limited_range(CompletionToken&& token, Convert convert, std::int64_t from, std::int64_t to,
                     std::int64_t limit, bool reverse) const;
  /// The whole series with a caller's count (0: none; negative: invalid_argument).
  template <class R, class CompletionToken, class Convert>
  auto counted(CompletionToken&& token, Convert convert, std::int64_t count, bool reverse,
               detail::TimeSeriesAction action) const;
};

}  // namespace redisson

#include "redisson/objects/impl/time_series.hpp"

// redisson::Stream<K, V>: a native Redis stream of entries (field/value pairs under an id), its
// consumer groups, acknowledgements and claims: Java Redisson's RStream.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/blocking_op.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/stream_message_id.hpp"

namespace redisson {

/// One stream entry: its id and its fields in the order they were added (Redisson reads them
/// into a LinkedHashMap). A pending entry deleted since it was delivered has no fields.
template <class K, class V>
struct StreamEntry {
  StreamMessageId id;
  std::vector<std::pair<K, V>> fields;
  friend bool operator==(const StreamEntry&, const StreamEntry&) = default;
};

/// How a stream is trimmed (XTRIM, or XADD's trim): to at most `threshold` entries (MAXLEN) or
/// to the entries from `min_id` on (MINID); exactly (`=`) or, cheaper, to a whole macro node
/// (`~`, approximate), then evicting at most `limit` entries per call.
struct StreamTrim {
  enum class Strategy : std::uint8_t { max_len, min_id };
  Strategy strategy = Strategy::max_len;
  std::int64_t threshold = 0;
  StreamMessageId min_id;
  bool approximate = false;
  std::optional<std::int64_t> limit;

  /// Keep at most `length` entries (MAXLEN, exact).
  static StreamTrim max_len(std::int64_t length) {
    StreamTrim trim;
    trim.threshold = length;
    return trim;
  }
  /// Drop the entries before `id` (MINID, exact).
  static StreamTrim min_id_of(StreamMessageId id) {
    StreamTrim trim;
    trim.strategy = Strategy::min_id;
    trim.min_id = id;
    return trim;
  }
  /// Trim approximately (`~`): only whole macro nodes, at most `max_evicted` entries if given.
  StreamTrim& non_strict(std::optional<std::int64_t> max_evicted = std::nullopt) {
    approximate = true;
    limit = max_evicted;
    return *this;
  }
};

/// What add() does besides adding: the id to add under (default: the server's next), a trim.
struct StreamAddOptions {
  StreamMessageId id = StreamMessageId::auto_generated();
  std::optional<StreamTrim> trim;
};

/// A consumer group's pending entries at a glance (XPENDING summary).
struct StreamPendingSummary {
  std::int64_t total = 0;
  std::optional<StreamMessageId> lowest;
  std::optional<StreamMessageId> highest;
  /// Each consumer with pending entries and how many.
  std::vector<std::pair<std::string, std::int64_t>> consumers;
  friend bool operator==(const StreamPendingSummary&, const StreamPendingSummary&) = default;
};

/// One pending entry (XPENDING's extended form).
struct StreamPendingEntry {
  StreamMessageId id;
  std::string consumer;
  /// Since it was last delivered.
  std::chrono::milliseconds idle{0};
  std::int64_t delivery_count = 0;
};

/// Which pending entries pending_range() and pending_range_entries() list.
struct StreamPendingRange {
  StreamMessageId from = StreamMessageId::min();
  StreamMessageId to = StreamMessageId::max();
  /// At most this many (> 0).
  std::int64_t count = 100;
  /// Only this consumer's.
  std::optional<std::string> consumer;
  /// Only those idle at least this long (XPENDING IDLE).
  std::optional<std::chrono::milliseconds> min_idle;
};

/// What auto_claim() took: where the next call starts (0-0: the scan is over), the entries now
/// owned by the consumer, and the ids of pending entries deleted from the stream (dropped from
/// the pending list by the server).
template <class K, class V>
struct StreamAutoClaim {
  StreamMessageId next;
  std::vector<StreamEntry<K, V>> entries;
  std::vector<StreamMessageId> deleted_ids;
};
/// fast_auto_claim(): the same with ids only (JUSTID).
struct StreamFastAutoClaim {
  StreamMessageId next;
  std::vector<StreamMessageId> ids;
  std::vector<StreamMessageId> deleted_ids;
};

/// A consumer group (XINFO GROUPS).
struct StreamGroupInfo {
  std::string name;
  std::int64_t consumers = 0;
  std::int64_t pending = 0;
  StreamMessageId last_delivered_id;
};

/// A consumer of a group (XINFO CONSUMERS; Java's StreamConsumer).
struct StreamConsumerInfo {
  std::string name;
  std::int64_t pending = 0;           ///< entries delivered to it and not acknowledged
  std::chrono::milliseconds idle{0};  ///< since its last read or claim
};

/// What XINFO STREAM tells about a stream (Java's StreamInfo).
template <class K, class V>
struct StreamInfo {
  std::int64_t length = 0;
  std::int64_t radix_tree_keys = 0;
  std::int64_t radix_tree_nodes = 0;
  std::int64_t groups = 0;
  StreamMessageId last_generated_id;
  std::optional<StreamEntry<K, V>> first_entry;  ///< nullopt for an empty stream
  std::optional<StreamEntry<K, V>> last_entry;
};

namespace detail {
/// A count argument: > 0, else errc::invalid_argument naming `operation`.
std::int64_t checked_stream_count(std::int64_t count, const char* operation);
/// A plain id (not `*`, `$`, ...) where only one makes sense, else errc::invalid_argument.
const StreamMessageId& checked_plain_id(const StreamMessageId& id, const char* operation);
/// XADD's and XTRIM's trim arguments, checked (errc::invalid_argument).
void append_stream_trim(Command& command, const StreamTrim& trim, const char* operation);
/// The id args of XDEL, XACK, XCLAIM: at least one, each plain.
void append_stream_ids(Command& command, const std::vector<StreamMessageId>& ids,
                       const char* operation);

/// Replies of the stream commands. Each throws errc::wrong_type for a reply of another shape.
StreamMessageId reply_stream_id(const Reply& reply);
std::optional<StreamMessageId> reply_optional_stream_id(const Reply& reply);
std::vector<StreamMessageId> reply_stream_ids(const Reply& reply);
StreamPendingSummary reply_pending_summary(const Reply& reply);
std::vector<StreamPendingEntry> reply_pending_entries(const Reply& reply);
std::vector<StreamGroupInfo> reply_stream_groups(const Reply& reply);
/// XINFO CONSUMERS' reply.
std::vector<StreamConsumerInfo> reply_stream_consumers(const Reply& reply);
/// XINFO STREAM's fields (a flat array in RESP2, a map in RESP3) but the two entries; those
/// (nil for an empty stream) are set in `first` / `last`.
StreamInfo<int, int> reply_stream_info_counts(const Reply& reply, const Reply** first,
                                              const Reply** last);
StreamFastAutoClaim reply_fast_auto_claim(const Reply& reply);
/// Checks an array of entries [[id, [field, value, ...] | nil], ...] (nil: none).
void check_stream_entries(const Reply& entries);
/// XREAD's / XREADGROUP's reply for one stream (RESP2 [[key, entries]], RESP3 {key: entries},
/// nil) as its entries.
const Reply& stream_read_entries(const Reply& reply);

/// pending_range_entries: stream_pending_entries.lua (XPENDING [IDLE] from to count [consumer],
/// then XRANGE id id for each), `range` checked first (errc::invalid_argument, nothing sent).
void start_stream_pending_entries(const ObjectPtr& object, const std::string& group,
                                  const StreamPendingRange& range, Done<Reply>& done);

/// XREAD / XREADGROUP ... BLOCK on the blocking connections; args[id_index] `$` is first
/// resolved to the stream's last id (XREVRANGE), so that re-issued slices of a long wait miss
/// nothing added between them.
void start_stream_wait(const ObjectPtr& object, BlockingCommand command, std::size_t id_index,
                       ReplyHandler handler, const CancellationPtr& cancel);

template <class K, class V>
std::vector<StreamEntry<K, V>> decode_stream_entries(const Codec& codec, const Reply& entries) {
  check_stream_entries(entries);
  std::vector<StreamEntry<K, V>> decoded;
  decoded.reserve(entries.elements.size());
  for (const auto& entry : entries.elements) {
    StreamEntry<K, V> item{reply_stream_id(entry.elements[0]), {}};
    const auto& fields = entry.elements[1].elements;
    item.fields.reserve(fields.size() / 2);
    for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
      auto key = decode_reply<K>(codec.map_key_codec(), fields[i]);
      auto value = decode_reply<V>(codec.map_value_codec(), fields[i + 1]);
      if (!key || !value) throw_unexpected_reply("a field and its value", entry);
      item.fields.emplace_back(std::move(*key), std::move(*value));
    }
    decoded.push_back(std::move(item));
  }
  return decoded;
}
}  // namespace detail

/// A stream of entries in the Redis stream `name`, each a list of K fields with V values under
/// an id: Java Redisson's RStream layout (XADD's field names are the map-key codec's bytes,
/// values the map-value codec's), so Java and C++ producers, readers and consumer groups share
/// one stream.
///
/// Cost: every operation is one command (XADD, XLEN, XRANGE, XREAD, XREADGROUP, XACK, XPENDING,
/// XCLAIM, XAUTOCLAIM, XGROUP, XINFO) on the stream's node, but pending_range_entries (one
/// script: XPENDING and an XRANGE per entry listed). The waiting reads (read(from,
/// count, wait), read_group(..., wait)) hold one of the client's dedicated blocking connections
/// (Config::blocking_connections), never the shared one; a wait that ends with nothing is an
/// empty result; an Asio cancellation ends it on the server (CLIENT UNBLOCK) and a client
/// shutdown with errc::shutdown. Every read takes a count (> 0): no call reads an unbounded
/// stream at once.
///
/// A key of another type is errc::wrong_type and is left untouched; a bad argument (an empty
/// entry, a count <= 0, a special id where a plain one is needed) is errc::invalid_argument
/// and sends nothing. A handle: cheap to copy, sends nothing until called, thread-safe.
template <JavaValue K, JavaValue V>
class Stream : public Object {
 public:
  using Entry = StreamEntry<K, V>;
  using Entries = std::vector<Entry>;
  using Fields = std::vector<std::pair<K, V>>;

  /// A handle on the stream `name`; sends nothing. `codec` null: the client's default codec.
  Stream(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "Stream") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const Fields& fields, const StreamAddOptions& options, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(const Fields& fields, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_exists(const Fields& fields, const StreamAddOptions& options,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range(StreamMessageId from, StreamMessageId to, std::int64_t count,
                   CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rev_range(StreamMessageId from, StreamMessageId to, std::int64_t count,
                       CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read(StreamMessageId after, std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read(StreamMessageId after, std::int64_t count, std::chrono::milliseconds wait,
                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove(const std::vector<StreamMessageId>& ids, CompletionToken&& token);
  template <class CompletionToken>
  auto async_trim(const StreamTrim& trim, CompletionToken&& token);

  // Consumer groups.
  template <class CompletionToken>
  auto async_create_group(const std::string& group, StreamMessageId from, bool make_stream,
                          CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_group(const std::string& group, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_group_id(const std::string& group, StreamMessageId id, CompletionToken&& token);
  template <class CompletionToken>
  auto async_create_consumer(const std::string& group, const std::string& consumer,
                             CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_consumer(const std::string& group, const std::string& consumer,
                             CompletionToken&& token);
  template <class CompletionToken>
  auto async_groups(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_consumers(std::string group, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_info(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_group(const std::string& group, const std::string& consumer, StreamMessageId from,
                        std::int64_t count, bool no_ack, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_group(const std::string& group, const std::string& consumer, StreamMessageId from,
                        std::int64_t count, std::chrono::milliseconds wait, bool no_ack,
                        CompletionToken&& token);
  template <class CompletionToken>
  auto async_ack(const std::string& group, const std::vector<StreamMessageId>& ids,
                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_pending(const std::string& group, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_pending_range(const std::string& group, const StreamPendingRange& range,
                           CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_pending_range_entries(const std::string& group, const StreamPendingRange& range,
                                   CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_claim(const std::string& group, const std::string& consumer,
                   std::chrono::milliseconds min_idle, const std::vector<StreamMessageId>& ids,
                   CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_claim(const std::string& group, const std::string& consumer,
                        std::chrono::milliseconds min_idle, const std::vector<StreamMessageId>& ids,
                        CompletionToken&& token);
  template <class CompletionToken>
  auto async_auto_claim(const std::string& group, const std::string& consumer,
                        std::chrono::milliseconds min_idle, StreamMessageId start,
                        std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_auto_claim(const std::string& group, const std::string& consumer,
                             std::chrono::milliseconds min_idle, StreamMessageId start,
                             std::int64_t count, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Appends an entry of `fields` (in this order; at least one) under the server's next id
  /// (XADD *); returns its id. The stream is created if absent.
  StreamMessageId add(const Fields& fields) { return async_add(fields, blocking("add")); }
  /// Appends an entry with `options`: under the given id (which must be greater than the
  /// stream's last; errc::server_error otherwise), trimming the stream in the same command.
  StreamMessageId add(const Fields& fields, const StreamAddOptions& options) {
    return async_add(fields, options, blocking("add"));
  }
  /// As add(), but only to an existing stream (XADD NOMKSTREAM): nullopt when there is none.
  std::optional<StreamMessageId> add_if_exists(const Fields& fields,
                                               const StreamAddOptions& options = {}) {
    return async_add_if_exists(fields, options, blocking("add_if_exists"));
  }
  /// The number of entries (XLEN); 0 when absent.
  std::int64_t size() const { return async_size(blocking("size")); }
  /// Up to `count` (> 0) entries with ids in [from, to], oldest first (XRANGE; min() and max()
  /// for the ends).
  Entries range(StreamMessageId from, StreamMessageId to, std::int64_t count) const {
    return async_range(from, to, count, blocking("range"));
  }
  /// Up to `count` entries with ids in [to, from], newest first (XREVRANGE from to).
  Entries rev_range(StreamMessageId from, StreamMessageId to, std::int64_t count) const {
    return async_rev_range(from, to, count, blocking("rev_range"));
  }
  /// Up to `count` entries with ids after `after` (XREAD), without waiting.
  Entries read(StreamMessageId after, std::int64_t count) const {
    return async_read(after, count, blocking("read"));
  }
  /// Up to `count` entries with ids after `after` (newest(): added after this call), waiting
  /// up to `wait` for one (XREAD BLOCK, on a blocking connection); empty when none came.
  Entries read(StreamMessageId after, std::int64_t count, std::chrono::milliseconds wait) const {
    return async_read(after, count, wait, blocking("read"));
  }
  /// Removes the entries with these ids (XDEL); returns how many existed.
  std::int64_t remove(const std::vector<StreamMessageId>& ids) {
    return async_remove(ids, blocking("remove"));
  }
  /// Trims the stream (XTRIM); returns how many entries were removed.
  std::int64_t trim(const StreamTrim& trim) { return async_trim(trim, blocking("trim")); }

  /// Creates the consumer group `group` whose consumers get the entries after `from`
  /// (newest(): only new ones; StreamMessageId{}: all). `make_stream`: create an empty stream
  /// if absent (else its absence is errc::server_error). An existing group is
  /// errc::server_error (BUSYGROUP) and is left as it is.
  void create_group(const std::string& group, StreamMessageId from = StreamMessageId::newest(),
                    bool make_stream = false) {
    async_create_group(group, from, make_stream, blocking("create_group"));
  }
  /// Destroys the group and its pending list (XGROUP DESTROY); true if it existed.
  bool remove_group(const std::string& group) {
    return async_remove_group(group, blocking("remove_group"));
  }
  /// Moves the group's last delivered id (XGROUP SETID).
  void set_group_id(const std::string& group, StreamMessageId id) {
    async_set_group_id(group, id, blocking("set_group_id"));
  }
  /// Creates a consumer in the group (XGROUP CREATECONSUMER); true if it is new.
  bool create_consumer(const std::string& group, const std::string& consumer) {
    return async_create_consumer(group, consumer, blocking("create_consumer"));
  }
  /// Removes a consumer (XGROUP DELCONSUMER); returns how many pending entries it had.
  std::int64_t remove_consumer(const std::string& group, const std::string& consumer) {
    return async_remove_consumer(group, consumer, blocking("remove_consumer"));
  }
  /// The stream's consumer groups (XINFO GROUPS).
  std::vector<StreamGroupInfo> groups() const { return async_groups(blocking("groups")); }
  /// The consumers of `group` (XINFO CONSUMERS); a missing group or stream is server_error.
  std::vector<StreamConsumerInfo> consumers(std::string group) const {
    return async_consumers(std::move(group), blocking("consumers"));
  }
  /// The stream's length, radix tree, groups, last id and first and last entries (XINFO
  /// STREAM); a missing stream is server_error ("no such key").
  StreamInfo<K, V> info() const { return async_info(blocking("info")); }
  /// Up to `count` entries for `consumer` of `group` (XREADGROUP): from never_delivered(), new
  /// entries, which become pending for the consumer until acknowledged (unless `no_ack`); from
  /// a plain id, the consumer's own pending entries after it (its history).
  Entries read_group(const std::string& group, const std::string& consumer, StreamMessageId from,
                     std::int64_t count, bool no_ack = false) {
    return async_read_group(group, consumer, from, count, no_ack, blocking("read_group"));
  }
  /// As read_group(), waiting up to `wait` for new entries (XREADGROUP BLOCK, on a blocking
  /// connection); empty when none came.
  Entries read_group(const std::string& group, const std::string& consumer, StreamMessageId from,
                     std::int64_t count, std::chrono::milliseconds wait, bool no_ack = false) {
    return async_read_group(group, consumer, from, count, wait, no_ack, blocking("read_group"));
  }
  /// Acknowledges entries of the group (XACK): no longer pending. Returns how many were.
  std::int64_t ack(const std::string& group, const std::vector<StreamMessageId>& ids) {
    return async_ack(group, ids, blocking("ack"));
  }
  /// The group's pending entries in summary (XPENDING).
  StreamPendingSummary pending(const std::string& group) const {
    return async_pending(group, blocking("pending"));
  }
  /// The group's pending entries one by one (XPENDING [IDLE] from to count [consumer]).
  std::vector<StreamPendingEntry> pending_range(const std::string& group,
                                                const StreamPendingRange& range) const {
    return async_pending_range(group, range, blocking("pending_range"));
  }
  /// The same pending entries with their fields (Java's pendingRange), oldest first: one script
  /// runs XPENDING as pending_range() does, then XRANGE for each id. Only reads: unlike a
  /// claim, it changes no entry's owner, idle time or delivery count. An entry deleted from the
  /// stream while still pending has no fields (Java leaves it out). A missing stream or group
  /// is errc::server_error (NOGROUP), as for pending_range().
  Entries pending_range_entries(const std::string& group, const StreamPendingRange& range) const {
    return async_pending_range_entries(group, range, blocking("pending_range_entries"));
  }
  /// Hands the pending entries `ids` idle at least `min_idle` over to `consumer` (XCLAIM);
  /// returns those it took (entries deleted from the stream are dropped, not returned).
  Entries claim(const std::string& group, const std::string& consumer,
                std::chrono::milliseconds min_idle, const std::vector<StreamMessageId>& ids) {
    return async_claim(group, consumer, min_idle, ids, blocking("claim"));
  }
  /// As claim(), returning only the ids (XCLAIM JUSTID; the delivery count is not raised).
  std::vector<StreamMessageId> fast_claim(const std::string& group, const std::string& consumer,
                                          std::chrono::milliseconds min_idle,
                                          const std::vector<StreamMessageId>& ids) {
    return async_fast_claim(group, consumer, min_idle, ids, blocking("fast_claim"));
  }
  /// Claims up to `count` pending entries idle at least `min_idle`, scanning from `start`
  /// (XAUTOCLAIM).
  StreamAutoClaim<K, V> auto_claim(const std::string& group, const std::string& consumer,
                                   std::chrono::milliseconds min_idle, StreamMessageId start,
                                   std::int64_t count) {
    return async_auto_claim(group, consumer, min_idle, start, count, blocking("auto_claim"));
  }
  /// As auto_claim(), ids only (XAUTOCLAIM JUSTID).
  StreamFastAutoClaim fast_auto_claim(const std::string& group, const std::string& consumer,
                                      std::chrono::milliseconds min_idle, StreamMessageId start,
                                      std::int64_t count) {
    return async_fast_auto_claim(group, consumer, min_idle, start, count,
                                 blocking("fast_auto_claim"));
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  auto entries_reader() const {
    return [codec = codec_ptr()](const Reply& reply) {
      return detail::decode_stream_entries<K, V>(*codec, reply);
    };
  }
  auto read_reader() const {
    return [codec = codec_ptr()](const Reply& reply) {
      return detail::decode_stream_entries<K, V>(*codec, detail::stream_read_entries(reply));
    };
  }
  static std::string count_text(std::int64_t count, const char* operation) {
    return std::to_string(detail::checked_stream_count(count, operation));
  }
  /// XREAD's id: a plain one or `$`.
  static std::string read_id(const StreamMessageId& id, const char* operation) {
    if (id.is_special() && id.kind() != StreamMessageId::Kind::newest) {
      detail::throw_invalid_argument(std::string(operation) + ": read from a plain id or newest()");
    }
    return id.to_string();
  }
  /// XREADGROUP's id: `>` or a plain one.
  static std::string group_id(const StreamMessageId& id) {
    if (id.is_special() && id.kind() != StreamMessageId::Kind::never_delivered) {
      detail::throw_invalid_argument("read_group: read from never_delivered() or a plain id");
    }
    return id.to_string();
  }
  /// XRANGE's and XPENDING's ends: plain, min() or max().
  static std::string range_id(const StreamMessageId& id, const char* operation) {
    using Kind = StreamMessageId::Kind;
    if (id.is_special() && id.kind() != Kind::min && id.kind() != Kind::max) {
      detail::throw_invalid_argument(std::string(operation) +
                                     ": the ends must be plain ids, min() or max()");
    }
    return id.to_string();
  }
  static const std::string& group_name(const std::string& group, const char* operation) {
    if (group.empty()) {
      detail::throw_invalid_argument(std::string(operation) + ": the group name is empty");
    }
    return group;
  }
  static const std::string& consumer_name(const std::string& consumer, const char* operation) {
    if (consumer.empty()) {
      detail::throw_invalid_argument(std::string(operation) + ": the consumer name is empty");
    }
    return consumer;
  }

  template <class R, class CompletionToken, class Convert>
  auto add_command(CompletionToken&& token, Convert convert, const Fields& fields,
                   const StreamAddOptions& options, bool only_existing);
  template <class CompletionToken>
  auto range_command(CompletionToken&& token, const char* verb, const StreamMessageId& from,
                     const StreamMessageId& to, std::int64_t count, const char* operation) const;
  Command claim_command(const std::string& group, const std::string& consumer,
                        std::chrono::milliseconds min_idle, const std::vector<StreamMessageId>& ids,
                        bool just_id) const {
    Command command{"XCLAIM", name(), group, consumer_name(consumer, "claim")};
    command.arg(detail::checked_wait(min_idle, "claim").count());
    detail::append_stream_ids(command, ids, "claim");
    if (just_id) command.arg("JUSTID");
    return command;
  }
  Command auto_claim_command(const std::string& group, const std::string& consumer,
                             std::chrono::milliseconds min_idle, const StreamMessageId& start,
                             std::int64_t count, bool just_id) const {
    Command command{"XAUTOCLAIM", name(), group, consumer_name(consumer, "auto_claim")};
    command.arg(detail::checked_wait(min_idle, "auto_claim").count())
        .arg(detail::checked_plain_id(start, "auto_claim").to_string())
        .arg("COUNT")
        .arg(detail::checked_stream_count(count, "auto_claim"));
    if (just_id) command.arg("JUSTID");
    return command;
  }
  /// A waiting XREAD/XREADGROUP on the blocking connections; `id_index` (non-zero): the id
  /// argument, resolved first when it is `$`.
  template <class CompletionToken, class Build>
  auto waiting_read(CompletionToken&& token, Build&& build, std::size_t id_index) const;
};

}  // namespace redisson

#include "redisson/objects/impl/stream.hpp"

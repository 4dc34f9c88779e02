// The non-template parts of Stream<K, V>: argument checks, the readers of the stream replies,
// and the waiting reads on the blocking connections.
#include "redisson/objects/stream.hpp"

#include <string>
#include <utility>
#include <vector>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

StreamMessageId id_of(const Reply& reply) {
  if (!reply.is_string()) throw_unexpected_reply("a stream id", reply);
  try {
    return StreamMessageId::parse(reply.str);
  } catch (const error&) {
    throw_unexpected_reply("a stream id", reply);
  }
}

/// An integer, or its decimal text (XPENDING's per-consumer counts are text).
std::int64_t counter_of(const Reply& reply) {
  try {
    return reply_counter(reply);
  } catch (const error&) {
    throw_unexpected_reply("a number", reply);
  }
}

/// An end of XPENDING's range: a plain id, min() or max().
std::string pending_end(const StreamMessageId& id) {
  using Kind = StreamMessageId::Kind;
  if (id.is_special() && id.kind() != Kind::min && id.kind() != Kind::max) {
    throw_invalid_argument("pending_range_entries: the ends must be plain ids, min() or max()");
  }
  return id.to_string();
}

const Reply& no_reply() {
  static const Reply none;
  return none;
}

}  // namespace

std::int64_t checked_stream_count(std::int64_t count, const char* operation) {
  if (count <= 0) {
    throw_invalid_argument(std::string(operation) + ": the count must be positive (got " +
                           std::to_string(count) + ")");
  }
  return count;
}

const StreamMessageId& checked_plain_id(const StreamMessageId& id, const char* operation) {
  if (id.is_special()) {
    throw_invalid_argument(std::string(operation) + ": a plain id is needed, not \"" +
                           id.to_string() + "\"");
  }
  return id;
}

void append_stream_trim(Command& command, const StreamTrim& trim, const char* operation) {
  const std::string what(operation);
  if (trim.limit && (!trim.approximate || *trim.limit < 0)) {
    throw_invalid_argument(what + ": a trim limit needs non_strict() and must not be negative");
  }
  if (trim.strategy == StreamTrim::Strategy::max_len) {
    if (trim.threshold < 0) throw_invalid_argument(what + ": the max length must not be negative");
    command.arg("MAXLEN");
    if (trim.approximate) command.arg("~");
    command.arg(trim.threshold);
  } else {
    const auto& id = checked_plain_id(trim.min_id, operation);
    command.arg("MINID");
    if (trim.approximate) command.arg("~");
    command.arg(id.to_string());
  }
  if (trim.limit) command.arg("LIMIT").arg(*trim.limit);
}

void append_stream_ids(Command& command, const std::vector<StreamMessageId>& ids,
                       const char* operation) {
  if (ids.empty()) throw_invalid_argument(std::string(operation) + ": no ids");
  for (const auto& id : ids) command.arg(checked_plain_id(id, operation).to_string());
}

StreamMessageId reply_stream_id(const Reply& reply) { return id_of(reply); }

std::optional<StreamMessageId> reply_optional_stream_id(const Reply& reply) {
  if (reply.is_null()) return std::nullopt;
  return id_of(reply);
}

std::vector<StreamMessageId> reply_stream_ids(const Reply& reply) {
  std::vector<StreamMessageId> ids;
  if (reply.is_null()) return ids;
  if (!reply.is_aggregate()) throw_unexpected_reply("an array of stream ids", reply);
  ids.reserve(reply.elements.size());
  for (const auto& element : reply.elements) ids.push_back(id_of(element));
  return ids;
}

StreamPendingSummary reply_pending_summary(const Reply& reply) {
  if (!reply.is_aggregate() || reply.elements.size() != 4) {
    throw_unexpected_reply("[count, lowest id, highest id, consumers]", reply);
  }
  StreamPendingSummary summary;
  summary.total = reply_integer(reply.elements[0]);
  summary.lowest = reply_optional_stream_id(reply.elements[1]);
  summary.highest = reply_optional_stream_id(reply.elements[2]);
  const auto& consumers = reply.elements[3];
  if (consumers.is_null()) return summary;
  if (!consumers.is_aggregate()) throw_unexpected_reply("the consumers", reply);
  for (const auto& consumer : consumers.elements) {
    if (!consumer.is_aggregate() || consumer.elements.size() != 2 ||
        !consumer.elements[0].is_string()) {
      throw_unexpected_reply("[consumer, count]", consumer);
    }
    summary.consumers.emplace_back(consumer.elements[0].str, counter_of(consumer.elements[1]));
  }
  return summary;
}

std::vector<StreamPendingEntry> reply_pending_entries(const Reply& reply) {
  std::vector<StreamPendingEntry> entries;
  if (reply.is_null()) return entries;
  if (!reply.is_aggregate()) throw_unexpected_reply("the pending entries", reply);
  entries.reserve(reply.elements.size());
  for (const auto& entry : reply.elements) {
    if (!entry.is_aggregate() || entry.elements.size() != 4 || !entry.elements[1].is_string()) {
      throw_unexpected_reply("[id, consumer, idle, deliveries]", entry);
    }
    entries.push_back(StreamPendingEntry{id_of(entry.elements[0]), entry.elements[1].str,
                                         std::chrono::milliseconds{counter_of(entry.elements[2])},
                                         counter_of(entry.elements[3])});
  }
  return entries;
}

std::vector<StreamGroupInfo> reply_stream_groups(const Reply& reply) {
  std::vector<StreamGroupInfo> groups;
  if (!reply.is_aggregate()) throw_unexpected_reply("the groups", reply);
  for (const auto& group : reply.elements) {
    // name, <name>, consumers, <n>, pending, <n>, last-delivered-id, <id>, ... (a map in RESP3).
    if (!group.is_aggregate() || group.elements.size() % 2 != 0) {
      throw_unexpected_reply("a group's fields", group);
    }
    StreamGroupInfo info;
    for (std::size_t i = 0; i + 1 < group.elements.size(); i += 2) {
      const auto& field = group.elements[i].str;
      const auto& value = group.elements[i + 1];
      if (field == "name") {
        info.name = value.str;
      } else if (field == "consumers") {
        info.consumers = counter_of(value);
      } else if (field == "pending") {
        info.pending = counter_of(value);
      } else if (field == "last-delivered-id") {
        info.last_delivered_id = id_of(value);
      }
    }
    groups.push_back(std::move(info));
  }
  return groups;
}

std::vector<StreamConsumerInfo> reply_stream_consumers(const Reply& reply) {
  std::vector<StreamConsumerInfo> consumers;
  if (!reply.is_aggregate()) throw_unexpected_reply("the consumers", reply);
  for (const auto& consumer : reply.elements) {
    // name, <name>, pending, <n>, idle, <ms>[, inactive, <ms> (Redis 7.2)] (a map in RESP3).
    if (!consumer.is_aggregate() || consumer.elements.size() % 2 != 0) {
      throw_unexpected_reply("a consumer's fields", consumer);
    }
    StreamConsumerInfo info;
    for (std::size_t i = 0; i + 1 < consumer.elements.size(); i += 2) {
      const auto& field = consumer.elements[i].str;
      const auto& value = consumer.elements[i + 1];
      if (field == "name") {
        info.name = value.str;
      } else if (field == "pending") {
        info.pending = counter_of(value);
      } else if (field == "idle") {
        info.idle = std::chrono::milliseconds{counter_of(value)};
      }
    }
    consumers.push_back(std::move(info));
  }
  return consumers;
}

StreamInfo<int, int> reply_stream_info_counts(const Reply& reply, const Reply** first,
                                              const Reply** last) {
  if (!reply.is_aggregate() || reply.elements.size() % 2 != 0) {
    throw_unexpected_reply("the stream's fields", reply);
  }
  StreamInfo<int, int> info;
  for (std::size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
    const auto& field = reply.elements[i].str;
    const auto& value = reply.elements[i + 1];
    if (field == "length") {
      info.length = counter_of(value);
    } else if (field == "radix-tree-keys") {
      info.radix_tree_keys = counter_of(value);
    } else if (field == "radix-tree-nodes") {
      info.radix_tree_nodes = counter_of(value);
    } else if (field == "groups") {
      info.groups = counter_of(value);
    } else if (field == "last-generated-id") {
      info.last_generated_id = id_of(value);
    } else if (field == "first-entry") {
      *first = &value;
    } else if (field == "last-entry") {
      *last = &value;
    }
  }
  return info;
}

StreamFastAutoClaim reply_fast_auto_claim(const Reply& reply) {
  if (!reply.is_aggregate() || reply.elements.size() < 2) {
    throw_unexpected_reply("[next id, ids, deleted ids]", reply);
  }
  StreamFastAutoClaim claimed;
  claimed.next = id_of(reply.elements[0]);
  claimed.ids = reply_stream_ids(reply.elements[1]);
  if (reply.elements.size() > 2) claimed.deleted_ids = reply_stream_ids(reply.elements[2]);
  return claimed;
}

void check_stream_entries(const Reply& entries) {
  if (entries.is_null()) return;
  if (!entries.is_aggregate()) throw_unexpected_reply("stream entries", entries);
  for (const auto& entry : entries.elements) {
    if (!entry.is_aggregate() || entry.elements.size() != 2 || !entry.elements[0].is_string() ||
        !(entry.elements[1].is_null() || entry.elements[1].is_aggregate()) ||
        entry.elements[1].elements.size() % 2 != 0) {
      throw_unexpected_reply("[id, [field, value, ...]]", entry);
    }
  }
}

const Reply& stream_read_entries(const Reply& reply) {
  if (reply.is_null()) return no_reply();
  if (reply.type == ReplyType::map && reply.elements.size() == 2) return reply.elements[1];
  if (reply.is_aggregate() && reply.elements.size() == 1 && reply.elements[0].is_aggregate() &&
      reply.elements[0].elements.size() == 2) {
    return reply.elements[0].elements[1];
  }
  throw_unexpected_reply("[[stream, entries]]", reply);
}

void start_stream_pending_entries(const ObjectPtr& object, const std::string& group,
                                  const StreamPendingRange& range, Done<Reply>& done) {
  constexpr const char* kOperation = "pending_range_entries";
  std::vector<std::string> args{group, ""};
  if (range.min_idle) args[1] = std::to_string(checked_wait(*range.min_idle, kOperation).count());
  args.push_back(pending_end(range.from));
  args.push_back(pending_end(range.to));
  args.push_back(std::to_string(checked_stream_count(range.count, kOperation)));
  if (range.consumer) args.push_back(*range.consumer);
  eval_reply(*object, lua::stream_pending_entries(std::vector<std::string>{object->name}, args),
             std::move(done));
}

void start_stream_wait(const ObjectPtr& object, BlockingCommand command, std::size_t id_index,
                       ReplyHandler handler, const CancellationPtr& cancel) {
  if (object->batch)
    return submit_blocking(*object, std::move(command), std::move(handler), cancel);
  if (id_index == 0 || command.args.at(id_index) != "$") {
    return submit_blocking(*object, std::move(command), std::move(handler), cancel);
  }
  // `$` means "after the last entry when the call was made"; re-sent as `$` after a slice or a
  // reconnect, it would skip what came in between, so the last id is taken first.
  submit_reply(*object, Command{"XREVRANGE", object->name, "+", "-", "COUNT", "1"},
               [object, command = std::move(command), id_index, handler = std::move(handler),
                cancel](std::error_code ec, Reply reply) mutable {
                 if (ec) return handler(ec, std::move(reply));
                 try {
                   check_stream_entries(reply);
                   command.args[id_index] = reply.is_null() || reply.elements.empty()
                                                ? std::string("0-0")
                                                : reply.elements[0].elements[0].str;
                 } catch (const error& failure) {
                   return handler(failure.code(), Reply{});  // a reply of another shape: wrong_type
                 }
                 submit_blocking(*object, std::move(command), std::move(handler), cancel);
               });
}

}  // namespace redisson::detail

// The bodies of Stream's templates (objects/stream.hpp).
#pragma once

#include "redisson/objects/stream.hpp"

namespace redisson {

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_add(const Fields& fields, const StreamAddOptions& options,
                             CompletionToken&& token) {
  return add_command<StreamMessageId>(token, &detail::reply_stream_id, fields, options, false);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_add(const Fields& fields, CompletionToken&& token) {
  return async_add(fields, StreamAddOptions{}, token);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_add_if_exists(const Fields& fields, const StreamAddOptions& options,
                                       CompletionToken&& token) {
  return add_command<std::optional<StreamMessageId>>(token, &detail::reply_optional_stream_id,
                                                     fields, options, true);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "XLEN");
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_range(StreamMessageId from, StreamMessageId to, std::int64_t count,
                               CompletionToken&& token) const {
  return range_command(token, "XRANGE", from, to, count, "range");
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_rev_range(StreamMessageId from, StreamMessageId to, std::int64_t count,
                                   CompletionToken&& token) const {
  return range_command(token, "XREVRANGE", from, to, count, "rev_range");
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_read(StreamMessageId after, std::int64_t count,
                              CompletionToken&& token) const {
  return detail::async_command<Entries>(
      object_, token,
      [&] {
        return Command{"XREAD", "COUNT"}
            .arg(detail::checked_stream_count(count, "read"))
            .arg("STREAMS")
            .key(name())
            .arg(read_id(after, "read"));
      },
      read_reader());
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_read(StreamMessageId after, std::int64_t count,
                              std::chrono::milliseconds wait, CompletionToken&& token) const {
  return waiting_read(
      token,
      [&] {
        detail::BlockingCommand command;
        command.args = {"XREAD",   "COUNT", count_text(count, "read"), "BLOCK", "",
                        "STREAMS", name(),  read_id(after, "read")};
        command.timeout_index = 4;
        command.key_index = 6;
        command.wait = detail::checked_wait(wait, "read");
        return command;
      },
      7);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_remove(const std::vector<StreamMessageId>& ids, CompletionToken&& token) {
  return detail::async_command<std::int64_t>(
      object_, token,
      [&] {
        Command command{"XDEL", name()};
        detail::append_stream_ids(command, ids, "remove");
        return command;
      },
      &detail::reply_integer);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_trim(const StreamTrim& trim, CompletionToken&& token) {
  return detail::async_command<std::int64_t>(
      object_, token,
      [&] {
        Command command{"XTRIM", name()};
        detail::append_stream_trim(command, trim, "trim");
        return command;
      },
      &detail::reply_integer);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_create_group(const std::string& group, StreamMessageId from,
                                      bool make_stream, CompletionToken&& token) {
  return detail::async_command<void>(
      object_, token,
      [&] {
        if (from.is_special() && from.kind() != StreamMessageId::Kind::newest) {
          detail::throw_invalid_argument("create_group: the id must be a plain id or newest()");
        }
        Command command{"XGROUP", "CREATE", name(), group_name(group, "create_group"),
                        from.to_string()};
        if (make_stream) command.arg("MKSTREAM");
        return command;
      },
      &detail::reply_ignore);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_remove_group(const std::string& group, CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [&] {
        return Command{"XGROUP", "DESTROY", name(), group};
      },
      &detail::reply_flag);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_set_group_id(const std::string& group, StreamMessageId id,
                                      CompletionToken&& token) {
  return detail::async_command<void>(
      object_, token,
      [&] {
        if (id.is_special() && id.kind() != StreamMessageId::Kind::newest) {
          detail::throw_invalid_argument("set_group_id: the id must be a plain id or newest()");
        }
        return Command{"XGROUP", "SETID", name(), group, id.to_string()};
      },
      &detail::reply_ignore);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_create_consumer(const std::string& group, const std::string& consumer,
                                         CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [&] {
        return Command{"XGROUP", "CREATECONSUMER", name(), group,
                       consumer_name(consumer, "create_consumer")};
      },
      &detail::reply_flag);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_remove_consumer(const std::string& group, const std::string& consumer,
                                         CompletionToken&& token) {
  return detail::async_command<std::int64_t>(
      object_, token,
      [&] {
        return Command{"XGROUP", "DELCONSUMER", name(), group, consumer};
      },
      &detail::reply_integer);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_consumers(std::string group, CompletionToken&& token) const {
  return detail::async_command<std::vector<StreamConsumerInfo>>(
      object_, token,
      [&] {
        return Command{"XINFO", "CONSUMERS"}.key(name()).arg(group);
      },
      &detail::reply_stream_consumers);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_info(CompletionToken&& token) const {
  return detail::async_command<StreamInfo<K, V>>(
      object_, token,
      [&] {
        return Command{"XINFO", "STREAM"}.key(name());
      },
      [codec = codec_ptr()](const Reply& reply) {
        const Reply* first = nullptr;
        const Reply* last = nullptr;
        const auto counts = detail::reply_stream_info_counts(reply, &first, &last);
        StreamInfo<K, V> info{counts.length, counts.radix_tree_keys,   counts.radix_tree_nodes,
                              counts.groups, counts.last_generated_id, std::nullopt,
                              std::nullopt};
        const auto entry = [&](const Reply* one) -> std::optional<StreamEntry<K, V>> {
          if (one == nullptr || one->is_null()) return std::nullopt;
          Reply entries;
          entries.type = ReplyType::array;
          entries.elements.push_back(*one);
          auto decoded = detail::decode_stream_entries<K, V>(*codec, entries);
          return std::move(decoded.front());
        };
        info.first_entry = entry(first);
        info.last_entry = entry(last);
        return info;
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_groups(CompletionToken&& token) const {
  return detail::async_command<std::vector<StreamGroupInfo>>(
      object_, token,
      [&] {
        return Command{"XINFO", "GROUPS", name()};
      },
      &detail::reply_stream_groups);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_read_group(const std::string& group, const std::string& consumer,
                                    StreamMessageId from, std::int64_t count, bool no_ack,
                                    CompletionToken&& token) {
  return detail::async_command<Entries>(
      object_, token,
      [&] {
        Command command{"XREADGROUP", "GROUP", group, consumer_name(consumer, "read_group")};
        command.arg("COUNT").arg(detail::checked_stream_count(count, "read_group"));
        if (no_ack) command.arg("NOACK");
        return std::move(command.arg("STREAMS").key(name()).arg(group_id(from)));
      },
      read_reader());
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_read_group(const std::string& group, const std::string& consumer,
                                    StreamMessageId from, std::int64_t count,
                                    std::chrono::milliseconds wait, bool no_ack,
                                    CompletionToken&& token) {
  return waiting_read(
      token,
      [&] {
        detail::BlockingCommand command;
        command.args = {"XREADGROUP", "GROUP",
                        group,        consumer_name(consumer, "read_group"),
                        "COUNT",      count_text(count, "read_group"),
                        "BLOCK",      ""};
        command.timeout_index = 7;
        if (no_ack) command.args.emplace_back("NOACK");
        command.args.emplace_back("STREAMS");
        command.key_index = command.args.size();
        command.args.push_back(name());
        command.args.push_back(group_id(from));
        command.wait = detail::checked_wait(wait, "read_group");
        return command;
      },
      0);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_ack(const std::string& group, const std::vector<StreamMessageId>& ids,
                             CompletionToken&& token) {
  return detail::async_command<std::int64_t>(
      object_, token,
      [&] {
        Command command{"XACK", name(), group};
        detail::append_stream_ids(command, ids, "ack");
        return command;
      },
      &detail::reply_integer);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_pending(const std::string& group, CompletionToken&& token) const {
  return detail::async_command<StreamPendingSummary>(
      object_, token,
      [&] {
        return Command{"XPENDING", name(), group};
      },
      &detail::reply_pending_summary);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_pending_range(const std::string& group, const StreamPendingRange& range,
                                       CompletionToken&& token) const {
  return detail::async_command<std::vector<StreamPendingEntry>>(
      object_, token,
      [&] {
        Command command{"XPENDING", name(), group};
        if (range.min_idle) {
          command.arg("IDLE").arg(detail::checked_wait(*range.min_idle, "pending_range").count());
        }
        command.arg(range_id(range.from, "pending_range"))
            .arg(range_id(range.to, "pending_range"))
            .arg(detail::checked_stream_count(range.count, "pending_range"));
        if (range.consumer) command.arg(*range.consumer);
        return command;
      },
      &detail::reply_pending_entries);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_pending_range_entries(const std::string& group,
                                               const StreamPendingRange& range,
                                               CompletionToken&& token) const {
  return started<Entries>(token, entries_reader(), &detail::start_stream_pending_entries, group,
                          range);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_claim(const std::string& group, const std::string& consumer,
                               std::chrono::milliseconds min_idle,
                               const std::vector<StreamMessageId>& ids, CompletionToken&& token) {
  return detail::async_command<Entries>(
      object_, token, [&] { return claim_command(group, consumer, min_idle, ids, false); },
      entries_reader());
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_fast_claim(const std::string& group, const std::string& consumer,
                                    std::chrono::milliseconds min_idle,
                                    const std::vector<StreamMessageId>& ids,
                                    CompletionToken&& token) {
  return detail::async_command<std::vector<StreamMessageId>>(
      object_, token, [&] { return claim_command(group, consumer, min_idle, ids, true); },
      &detail::reply_stream_ids);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_auto_claim(const std::string& group, const std::string& consumer,
                                    std::chrono::milliseconds min_idle, StreamMessageId start,
                                    std::int64_t count, CompletionToken&& token) {
  return detail::async_command<StreamAutoClaim<K, V>>(
      object_, token,
      [&] { return auto_claim_command(group, consumer, min_idle, start, count, false); },
      [codec = codec_ptr()](const Reply& reply) {
        if (!reply.is_aggregate() || reply.elements.size() < 2) {
          detail::throw_unexpected_reply("[next id, entries, deleted ids]", reply);
        }
        StreamAutoClaim<K, V> claimed;
        claimed.next = detail::reply_stream_id(reply.elements[0]);
        claimed.entries = detail::decode_stream_entries<K, V>(*codec, reply.elements[1]);
        if (reply.elements.size() > 2) {
          claimed.deleted_ids = detail::reply_stream_ids(reply.elements[2]);
        }
        return claimed;
      });
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::async_fast_auto_claim(const std::string& group, const std::string& consumer,
                                         std::chrono::milliseconds min_idle, StreamMessageId start,
                                         std::int64_t count, CompletionToken&& token) {
  return detail::async_command<StreamFastAutoClaim>(
      object_, token,
      [&] { return auto_claim_command(group, consumer, min_idle, start, count, true); },
      &detail::reply_fast_auto_claim);
}

template <JavaValue K, JavaValue V>
template <class R, class CompletionToken, class Convert>
auto Stream<K, V>::add_command(CompletionToken&& token, Convert convert, const Fields& fields,
                               const StreamAddOptions& options, bool only_existing) {
  return detail::async_command<R>(
      object_, token,
      [&] {
        const char* operation = only_existing ? "add_if_exists" : "add";
        if (fields.empty()) {
          detail::throw_invalid_argument(std::string(operation) + ": an entry needs a field");
        }
        if (options.id.is_special() && options.id.kind() != StreamMessageId::Kind::auto_generated) {
          detail::throw_invalid_argument(std::string(operation) +
                                         ": the id must be plain or auto_generated()");
        }
        Command command{"XADD", name()};
        if (only_existing) command.arg("NOMKSTREAM");
        if (options.trim) detail::append_stream_trim(command, *options.trim, operation);
        command.arg(options.id.to_string());
        for (const auto& [field, value] : fields) {
          command.arg(detail::map_key_bytes(codec(), field))
              .arg(detail::map_value_bytes(codec(), value));
        }
        return command;
      },
      convert);
}

template <JavaValue K, JavaValue V>
template <class CompletionToken>
auto Stream<K, V>::range_command(CompletionToken&& token, const char* verb,
                                 const StreamMessageId& from, const StreamMessageId& to,
                                 std::int64_t count, const char* operation) const {
  return detail::async_command<Entries>(
      object_, token,
      [&] {
        return Command{verb, name()}
            .arg(range_id(from, operation))
            .arg(range_id(to, operation))
            .arg("COUNT")
            .arg(detail::checked_stream_count(count, operation));
      },
      entries_reader());
}

template <JavaValue K, JavaValue V>
template <class CompletionToken, class Build>
auto Stream<K, V>::waiting_read(CompletionToken&& token, Build&& build,
                                std::size_t id_index) const {
  std::optional<detail::BlockingCommand> command;
  detail::Status failure;
  try {
    command = build();
    command->wait_in_ms = true;
  } catch (const error& thrown) {
    failure = detail::status_of_error(thrown);
  }
  return detail::async_op<Entries>(
      object_->core, token,
      [object = object_, command = std::move(command), failure = std::move(failure),
       convert = read_reader(),
       id_index](detail::Done<Entries> done, detail::CancellationPtr cancel) mutable {
        if (!command) return detail::fail<Entries>(done, std::move(failure));
        detail::start_stream_wait(
            object, std::move(*command), id_index,
            [done = std::move(done), convert = std::move(convert)](std::error_code ec,
                                                                   Reply reply) mutable {
              detail::complete_converted<Entries>(done, detail::blocking_status(ec, reply), reply,
                                                  convert);
            },
            cancel);
      });
}

}  // namespace redisson

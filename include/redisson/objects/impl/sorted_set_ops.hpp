// The bodies of SortedSetOps's templates (objects/sorted_set_ops.hpp).
#pragma once

#include "redisson/objects/sorted_set_ops.hpp"

namespace redisson {

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_remove(const Value& value, CompletionToken&& token) {
  return value_command<bool>(token, &detail::reply_flag, "ZREM", value);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_remove_all(const std::vector<Value>& values,
                                                    CompletionToken&& token) {
  return detail::async_started<std::int64_t>(
      object(), token,
      [values](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> members;
        members.reserve(values.size());
        for (const auto& value : values) {
          members.push_back(detail::encode_value(*object->codec, value));
        }
        detail::start_with_arguments(object, "ZREM", members, done);
      },
      &detail::reply_integer);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_contains(const Value& value,
                                                  CompletionToken&& token) const {
  // ZSCORE, as Redisson: a member has a score.
  return value_command<bool>(
      token, [](const Reply& reply) { return !reply.is_null(); }, "ZSCORE", value);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_size(CompletionToken&& token) const {
  return key_command<std::int64_t>(token, &detail::reply_integer, "ZCARD");
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_first(CompletionToken&& token) const {
  return value_at_rank(token, 0);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_last(CompletionToken&& token) const {
  return value_at_rank(token, -1);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_poll_first(CompletionToken&& token) {
  return pop_one(token, "ZPOPMIN");
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_poll_last(CompletionToken&& token) {
  return pop_one(token, "ZPOPMAX");
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_poll_first(std::int64_t count, CompletionToken&& token) {
  return pop(token, "ZPOPMIN", count);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_poll_last(std::int64_t count, CompletionToken&& token) {
  return pop(token, "ZPOPMAX", count);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_value_range(std::int64_t start, std::int64_t end,
                                                     CompletionToken&& token) const {
  return key_command<std::vector<Value>>(
      token,
      [codec = object()->codec](const Reply& reply) {
        return detail::zset_members<Value>(*codec, reply);
      },
      "ZRANGE", start, end);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_contains_all(const std::vector<Value>& values,
                                                      CompletionToken&& token) const {
  return detail::async_with_encoded<bool>(
      object(), token, values,
      [](const detail::ObjectPtr& object, const std::vector<std::string>& members,
         detail::Done<Reply>& done) {
        detail::start_with_arguments(object, "ZMSCORE", members, done);
      },
      [](const Reply& reply) {
        if (reply.type == ReplyType::integer) return true;  // no values: nothing was sent
        if (!reply.is_aggregate()) detail::throw_unexpected_reply("an array of scores", reply);
        for (const auto& score : reply.elements) {
          if (score.is_null()) return false;
        }
        return true;
      });
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::async_retain_all(const std::vector<Value>& values,
                                                    CompletionToken&& token) {
  return detail::async_with_encoded<bool>(object(), token, values, &detail::start_zset_retain_all,
                                          &detail::reply_flag);
}

template <class Derived, class Value>
bool SortedSetOps<Derived, Value>::contains_all(const std::vector<Value>& values) const {
  return async_contains_all(values, detail::blocking("contains_all", handle().name()));
}

template <class Derived, class Value>
bool SortedSetOps<Derived, Value>::retain_all(const std::vector<Value>& values) {
  return async_retain_all(values, detail::blocking("retain_all", handle().name()));
}

template <class Derived, class Value>
std::vector<Value> SortedSetOps<Derived, Value>::value_range(std::int64_t start,
                                                             std::int64_t end) const {
  return async_value_range(start, end, detail::blocking("value_range", handle().name()));
}

template <class Derived, class Value>
CollectionScan<Value> SortedSetOps<Derived, Value>::values(std::int64_t page_size) const {
  return CollectionScan<Value>(object(), "ZSCAN", page_size, &detail::zset_scored_members<Value>);
}

template <class Derived, class Value>
CollectionScan<Value> SortedSetOps<Derived, Value>::distributed_values(std::string iterator_name,
                                                                       std::int64_t page_size,
                                                                       std::string pattern) const {
  return CollectionScan<Value>(
      object(),
      detail::make_distributed_scan("ZSCAN", page_size, std::move(iterator_name),
                                    std::move(pattern)),
      &detail::decode_elements<Value>);
}

template <class Derived, class Value>
CollectionScan<Value> SortedSetOps<Derived, Value>::distributed_values(
    std::int64_t page_size) const {
  return distributed_values(detail::distributed_cursor_key("scored_sorted_set", object()->name),
                            page_size);
}

template <class Derived, class Value>
template <class R, class CompletionToken, class Convert, class... Args>
auto SortedSetOps<Derived, Value>::key_command(CompletionToken&& token, Convert convert,
                                               const char* verb, const Args&... args) const {
  return handle().template on_key<R>(std::forward<CompletionToken>(token), std::move(convert), verb,
                                     args...);
}

template <class Derived, class Value>
template <class R, class CompletionToken, class Convert>
auto SortedSetOps<Derived, Value>::value_command(CompletionToken&& token, Convert convert,
                                                 const char* verb, const Value& value) const {
  return detail::async_command<R>(
      object(), token,
      [&] {
        Command command{verb, handle().name()};
        command.arg(detail::encode_value(handle().codec(), value));
        return command;
      },
      std::move(convert));
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::value_at_rank(CompletionToken&& token, std::int64_t rank) const {
  return key_command<std::optional<Value>>(
      token,
      [codec = object()->codec](const Reply& reply) {
        return detail::first_of(detail::zset_members<Value>(*codec, reply));
      },
      "ZRANGE", rank, rank);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::pop_one(CompletionToken&& token, const char* verb) {
  return key_command<std::optional<Value>>(
      token,
      [codec = object()->codec](const Reply& reply) {
        return detail::first_of(detail::zset_scored_members<Value>(*codec, reply));
      },
      verb);
}

template <class Derived, class Value>
template <class CompletionToken>
auto SortedSetOps<Derived, Value>::pop(CompletionToken&& token, const char* verb,
                                       std::int64_t count) {
  return detail::async_started<std::vector<Value>>(
      object(), token,
      [verb, count](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_zset_pop(object, verb, count, done);
      },
      [codec = object()->codec](const Reply& reply) {
        return detail::zset_scored_members<Value>(*codec, reply);
      });
}

}  // namespace redisson

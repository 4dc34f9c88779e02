// The replies of a Redis sorted set read as values (ZRANGE, ZPOPMIN/ZPOPMAX, ZSCAN), and the pop
// that answers nothing for a count below 1: what ScoredSortedSet and LexSortedSet (through
// SortedSetOps) and their scans decode with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

/// scored_sorted_set_retain_all.lua over the members (none: the set is deleted, as Redisson).
void start_zset_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                           Done<Reply>& done);

/// Calls visit(member, score) for each pair of a reply that carries scores: flat (RESP2
/// WITHSCORES, ZSCAN pages, ZPOPMIN without a count) or one two-element array per pair (RESP3).
template <class Visit>
void for_each_scored(const Reply& reply, Visit&& visit) {
  if (!reply.is_aggregate()) throw_unexpected_reply("members with scores", reply);
  const auto& elements = reply.elements;
  for (std::size_t i = 0; i < elements.size();) {
    if (elements[i].is_aggregate()) {
      if (elements[i].elements.size() != 2) throw_unexpected_reply("a member and its score", reply);
      visit(elements[i].elements[0], elements[i].elements[1]);
      i += 1;
    } else {
      if (i + 1 >= elements.size()) throw_unexpected_reply("a member and its score", reply);
      visit(elements[i], elements[i + 1]);
      i += 2;
    }
  }
}

/// The members of a reply that is an array of members (ZRANGE), decoded as T.
template <class T>
std::vector<T> zset_members(const Codec& codec, const Reply& reply) {
  if (!reply.is_aggregate()) throw_unexpected_reply("an array of members", reply);
  std::vector<T> members;
  members.reserve(reply.elements.size());
  for (const auto& element : reply.elements) {
    if (auto member = decode_reply<T>(codec, element)) members.push_back(std::move(*member));
  }
  return members;
}

/// The members of a reply of members with scores (ZPOPMIN, ZSCAN), scores left unread.
template <class T>
std::vector<T> zset_scored_members(const Codec& codec, const Reply& reply) {
  std::vector<T> members;
  for_each_scored(reply, [&](const Reply& member, const Reply&) {
    if (auto value = decode_reply<T>(codec, member)) members.push_back(std::move(*value));
  });
  return members;
}

/// The first of some values, or nullopt when there are none.
template <class T>
std::optional<T> first_of(std::vector<T> values) {
  if (values.empty()) return std::nullopt;
  return std::move(values.front());
}

/// ZPOPMIN/ZPOPMAX `name` `count`: nothing is sent for a count below 1, which answers an empty
/// array at once (Redisson's pollFirst(count) answers an empty list).
inline void start_zset_pop(const ObjectPtr& object, const char* verb, std::int64_t count,
                           Done<Reply>& done) {
  if (count < 1) {
    Reply none;
    none.type = ReplyType::array;
    return done(Status{}, none);
  }
  Command command{verb, object->name};
  command.arg(count);
  submit_command(object, command, std::move(done));
}

}  // namespace redisson::detail

// The bodies of ScoredSortedSet's templates (objects/scored_sorted_set.hpp).
#pragma once

#include "redisson/objects/scored_sorted_set.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add(double score, const T& value, CompletionToken&& token) {
  return zadd(token, {}, score, value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_try_add(double score, const T& value, CompletionToken&& token) {
  return zadd(token, {"NX"}, score, value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_if_exists(double score, const T& value,
                                             CompletionToken&& token) {
  return zadd(token, {"XX", "CH"}, score, value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_if_greater(double score, const T& value,
                                              CompletionToken&& token) {
  return zadd(token, {"GT", "CH"}, score, value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_if_less(double score, const T& value, CompletionToken&& token) {
  return zadd(token, {"LT", "CH"}, score, value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_all(const std::vector<std::pair<double, T>>& entries,
                                       CompletionToken&& token) {
  return detail::async_started<std::int64_t>(
      object_, token,
      [entries](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> args;
        args.reserve(entries.size() * 2);
        for (const auto& [score, value] : entries) {
          args.push_back(detail::score_argument(score));
          args.push_back(detail::encode_value(*object->codec, value));
        }
        detail::start_with_arguments(object, "ZADD", args, done);
      },
      &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_and_get_rank(double score, const T& value,
                                                CompletionToken&& token) {
  return add_and_rank(token, score, value, false);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_and_get_rev_rank(double score, const T& value,
                                                    CompletionToken&& token) {
  return add_and_rank(token, score, value, true);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_score(const T& value, double delta, CompletionToken&& token) {
  return with_args<double>(token, &detail::reply_double, "ZINCRBY", [&](Command& args) {
    args.arg(detail::score_argument(delta)).arg(member(value));
  });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_score(const T& value, CompletionToken&& token) const {
  return member_command<std::optional<double>>(
      token,
      [](const Reply& reply) -> std::optional<double> {
        if (reply.is_null()) return std::nullopt;
        return detail::reply_double(reply);
      },
      "ZSCORE", value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rank(const T& value, CompletionToken&& token) const {
  return member_command<std::optional<std::int64_t>>(token, &optional_integer, "ZRANK", value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rev_rank(const T& value, CompletionToken&& token) const {
  return member_command<std::optional<std::int64_t>>(token, &optional_integer, "ZREVRANK", value);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_first_score(CompletionToken&& token) const {
  return on_key<std::optional<double>>(token, &first_score_of, "ZRANGE", std::int64_t{0},
                                       std::int64_t{0}, "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_last_score(CompletionToken&& token) const {
  return on_key<std::optional<double>>(token, &first_score_of, "ZRANGE", std::int64_t{-1},
                                       std::int64_t{-1}, "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_first(std::chrono::milliseconds wait, CompletionToken&& token) {
  return blocking_pop<std::optional<T>>(token, "BZPOPMIN", wait, "poll_first");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_last(std::chrono::milliseconds wait, CompletionToken&& token) {
  return blocking_pop<std::optional<T>>(token, "BZPOPMAX", wait, "poll_last");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_take_first(CompletionToken&& token) {
  return blocking_pop<T>(token, "BZPOPMIN", std::nullopt, "take_first");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_take_last(CompletionToken&& token) {
  return blocking_pop<T>(token, "BZPOPMAX", std::nullopt, "take_last");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_value_range_reversed(std::int64_t start, std::int64_t end,
                                                    CompletionToken&& token) const {
  return on_key<std::vector<T>>(token, values_decoder(), "ZRANGE", start, end, "REV");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_entry_range(std::int64_t start, std::int64_t end,
                                           CompletionToken&& token) const {
  return on_key<std::vector<ScoredEntry<T>>>(token, entries_decoder(), "ZRANGE", start, end,
                                             "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_entry_range_reversed(std::int64_t start, std::int64_t end,
                                                    CompletionToken&& token) const {
  return on_key<std::vector<ScoredEntry<T>>>(token, entries_decoder(), "ZRANGE", start, end, "REV",
                                             "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_value_range_by_score(double min, bool min_inclusive, double max,
                                                    bool max_inclusive,
                                                    CompletionToken&& token) const {
  return range_by_score<std::vector<T>>(token, values_decoder(), min, min_inclusive, max,
                                        max_inclusive, std::nullopt, {});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_value_range_by_score(double min, bool min_inclusive, double max,
                                                    bool max_inclusive, std::int64_t offset,
                                                    std::int64_t count,
                                                    CompletionToken&& token) const {
  return range_by_score<std::vector<T>>(token, values_decoder(), min, min_inclusive, max,
                                        max_inclusive, std::pair{offset, count}, {});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_entry_range_by_score(double min, bool min_inclusive, double max,
                                                    bool max_inclusive,
                                                    CompletionToken&& token) const {
  return range_by_score<std::vector<ScoredEntry<T>>>(
      token, entries_decoder(), min, min_inclusive, max, max_inclusive, std::nullopt, "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_entry_range_by_score(double min, bool min_inclusive, double max,
                                                    bool max_inclusive, std::int64_t offset,
                                                    std::int64_t count,
                                                    CompletionToken&& token) const {
  return range_by_score<std::vector<ScoredEntry<T>>>(token, entries_decoder(), min, min_inclusive,
                                                     max, max_inclusive, std::pair{offset, count},
                                                     "WITHSCORES");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_count(double min, bool min_inclusive, double max, bool max_inclusive,
                                     CompletionToken&& token) const {
  return with_args<std::int64_t>(token, &detail::reply_integer, "ZCOUNT", [&](Command& args) {
    args.arg(detail::score_bound(min, min_inclusive)).arg(detail::score_bound(max, max_inclusive));
  });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_remove_range_by_rank(std::int64_t start, std::int64_t end,
                                                    CompletionToken&& token) {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYRANK", start, end);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_remove_range_by_score(double min, bool min_inclusive, double max,
                                                     bool max_inclusive, CompletionToken&& token) {
  return with_args<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYSCORE",
                                 [&](Command& args) {
                                   args.arg(detail::score_bound(min, min_inclusive))
                                       .arg(detail::score_bound(max, max_inclusive));
                                 });
}

template <JavaValue T>
template <class R, class CompletionToken>
auto ScoredSortedSet<T>::blocking_pop(CompletionToken&& token, const char* verb,
                                      std::optional<std::chrono::milliseconds> wait,
                                      const char* operation) {
  return detail::async_blocking<R>(
      object_, token, [&] { return detail::wait_last_command(verb, name(), {}, wait, operation); },
      [codec = object_->codec](const Reply& reply) -> R {
        if (reply.is_null()) {
          if constexpr (std::is_same_v<R, T>) {
            detail::throw_unexpected_reply("[set, member, score]", reply);
          } else {
            return std::nullopt;
          }
        }
        if (reply.elements.size() != 3) {
          detail::throw_unexpected_reply("[set, member, score]", reply);
        }
        auto value = detail::decode_reply<T>(*codec, reply.elements[1]);
        if (!value) detail::throw_unexpected_reply("a member", reply);
        return std::move(*value);
      });
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert, class Add>
auto ScoredSortedSet<T>::with_args(CompletionToken&& token, Convert convert, const char* verb,
                                   Add add) const {
  return detail::async_command<R>(
      object_, token,
      [&] {
        Command built{verb, name()};
        add(built);
        return built;
      },
      std::move(convert));
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto ScoredSortedSet<T>::range_by_score(
    CompletionToken&& token, Convert convert, double min, bool min_inclusive, double max,
    bool max_inclusive, std::optional<std::pair<std::int64_t, std::int64_t>> offset_count,
    std::string_view with_scores) const {
  return with_args<R>(token, std::move(convert), "ZRANGE", [&](Command& args) {
    args.arg(detail::score_bound(min, min_inclusive))
        .arg(detail::score_bound(max, max_inclusive))
        .arg("BYSCORE");
    if (offset_count) args.arg("LIMIT").arg(offset_count->first).arg(offset_count->second);
    if (!with_scores.empty()) args.arg(with_scores);
  });
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto ScoredSortedSet<T>::member_command(CompletionToken&& token, Convert convert, const char* verb,
                                        const T& value) const {
  return with_args<R>(token, std::move(convert), verb,
                      [&](Command& built) { built.arg(member(value)); });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::zadd(CompletionToken&& token,
                              std::initializer_list<std::string_view> flags, double score,
                              const T& value) {
  return with_args<bool>(token, &detail::reply_flag, "ZADD", [&](Command& built) {
    for (const auto flag : flags) built.arg(flag);
    built.arg(detail::score_argument(score)).arg(member(value));
  });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::add_and_rank(CompletionToken&& token, double score, const T& value,
                                      bool reverse) {
  return detail::async_started<std::int64_t>(
      object_, token,
      [score, value, reverse](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_scored_sorted_set_add_and_get_rank(
            object, score, detail::encode_value(*object->codec, value), reverse, done);
      },
      &detail::reply_integer);
}

}  // namespace redisson

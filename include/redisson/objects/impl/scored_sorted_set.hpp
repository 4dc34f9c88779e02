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
  return zadd_all(token, {}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_all_if_absent(const std::vector<std::pair<double, T>>& entries,
                                                 CompletionToken&& token) {
  return zadd_all(token, {"NX"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_all_if_exist(const std::vector<std::pair<double, T>>& entries,
                                                CompletionToken&& token) {
  return zadd_all(token, {"XX", "CH"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_all_if_greater(const std::vector<std::pair<double, T>>& entries,
                                                  CompletionToken&& token) {
  return zadd_all(token, {"GT", "CH"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_all_if_less(const std::vector<std::pair<double, T>>& entries,
                                               CompletionToken&& token) {
  return zadd_all(token, {"LT", "CH"}, entries);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_and_get_rank(double score, const T& value,
                                                CompletionToken&& token) {
  return add_and_rank(token, score, value, false, false);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_and_get_rev_rank(double score, const T& value,
                                                    CompletionToken&& token) {
  return add_and_rank(token, score, value, true, false);
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
auto ScoredSortedSet<T>::async_poll_first_from_any(std::chrono::milliseconds wait,
                                                   const std::vector<std::string>& other_sets,
                                                   CompletionToken&& token) {
  return pop_from_any(token, "BZPOPMIN", other_sets, wait, "poll_first_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                  const std::vector<std::string>& other_sets,
                                                  CompletionToken&& token) {
  return pop_from_any(token, "BZPOPMAX", other_sets, wait, "poll_last_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_first_from_any(std::chrono::milliseconds wait,
                                                   std::int64_t count,
                                                   const std::vector<std::string>& other_sets,
                                                   CompletionToken&& token) {
  return multi_pop_from_any(token, "MIN", count, other_sets, wait, "poll_first_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                  std::int64_t count,
                                                  const std::vector<std::string>& other_sets,
                                                  CompletionToken&& token) {
  return multi_pop_from_any(token, "MAX", count, other_sets, wait, "poll_last_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::pop_from_any(CompletionToken&& token, const char* verb,
                                      const std::vector<std::string>& others,
                                      std::chrono::milliseconds wait, const char* operation) {
  return detail::async_blocking<std::optional<std::pair<std::string, T>>>(
      object_, token,
      [&] { return detail::wait_last_command(verb, name(), others, wait, operation); },
      [codec = object_->codec](const Reply& reply) -> std::optional<std::pair<std::string, T>> {
        if (reply.is_null()) return std::nullopt;
        if (reply.elements.size() != 3 || !reply.elements[0].is_string()) {
          detail::throw_unexpected_reply("[set, member, score]", reply);
        }
        auto value = detail::decode_reply<T>(*codec, reply.elements[1]);
        if (!value) detail::throw_unexpected_reply("a member", reply);
        return std::pair<std::string, T>{reply.elements[0].str, std::move(*value)};
      });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::multi_pop_from_any(CompletionToken&& token, const char* end,
                                            std::int64_t count,
                                            const std::vector<std::string>& others,
                                            std::chrono::milliseconds wait, const char* operation) {
  using Popped = std::optional<std::pair<std::string, std::vector<ScoredEntry<T>>>>;
  return detail::async_blocking<Popped>(
      object_, token,
      [&] {
        return detail::wait_first_multi_pop("BZMPOP", name(), others, end, count, wait, operation);
      },
      [codec = object_->codec](const Reply& reply) -> Popped {
        if (reply.is_null()) return std::nullopt;
        if (reply.elements.size() != 2 || !reply.elements[0].is_string()) {
          detail::throw_unexpected_reply("[set, entries]", reply);
        }
        return std::pair<std::string, std::vector<ScoredEntry<T>>>{
            reply.elements[0].str, detail::zset_entries<T>(*codec, reply.elements[1])};
      });
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
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_score_and_get_rank(const T& value, double delta,
                                                      CompletionToken&& token) {
  return add_and_rank(token, delta, value, false, true);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_add_score_and_get_rev_rank(const T& value, double delta,
                                                          CompletionToken&& token) {
  return add_and_rank(token, delta, value, true, true);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rank_entry(const T& value, CompletionToken&& token) const {
  return rank_entry_of(token, value, false);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rev_rank_entry(const T& value, CompletionToken&& token) const {
  return rank_entry_of(token, value, true);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_first_entry(CompletionToken&& token) {
  return on_key<std::optional<ScoredEntry<T>>>(
      token,
      [codec = object_->codec](const Reply& reply) {
        return detail::first_of(detail::zset_entries<T>(*codec, reply));
      },
      "ZPOPMIN");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_last_entry(CompletionToken&& token) {
  return on_key<std::optional<ScoredEntry<T>>>(
      token,
      [codec = object_->codec](const Reply& reply) {
        return detail::first_of(detail::zset_entries<T>(*codec, reply));
      },
      "ZPOPMAX");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_first_entries(std::int64_t count, CompletionToken&& token) {
  return started<std::vector<ScoredEntry<T>>>(token, entries_decoder(), &detail::start_zset_pop,
                                              "ZPOPMIN", count);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_poll_last_entries(std::int64_t count, CompletionToken&& token) {
  return started<std::vector<ScoredEntry<T>>>(token, entries_decoder(), &detail::start_zset_pop,
                                              "ZPOPMAX", count);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_random(CompletionToken&& token) const {
  return on_key<std::optional<T>>(token, value_reader<T>(), "ZRANDMEMBER");
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_random(std::int64_t count, CompletionToken&& token) const {
  return with_args<std::vector<T>>(token, values_decoder(), "ZRANDMEMBER", [&](Command& args) {
    // A negative count lets ZRANDMEMBER repeat members: not a set's answer.
    if (count < 0) detail::throw_invalid_argument("random: the count must not be negative");
    args.arg(count);
  });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_random_entries(std::int64_t count, CompletionToken&& token) const {
  return with_args<std::vector<ScoredEntry<T>>>(
      token, entries_decoder(), "ZRANDMEMBER", [&](Command& args) {
        if (count < 0) {
          detail::throw_invalid_argument("random_entries: the count must not be negative");
        }
        args.arg(count).arg("WITHSCORES");
      });
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_replace(const T& old_value, const T& new_value,
                                       CompletionToken&& token) {
  return detail::async_with_encoded<bool>(object_, token, std::vector<T>{old_value, new_value},
                                          &detail::start_zset_replace, &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_range_to(const std::string& destination, std::int64_t start,
                                        std::int64_t end, CompletionToken&& token) {
  return range_to_of(token, destination, {.start = start, .end = end});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_range_to_by_score(const std::string& destination, double min,
                                                 bool min_inclusive, double max, bool max_inclusive,
                                                 CompletionToken&& token) {
  return range_to_of(token, destination,
                     {.by_score = true,
                      .min = min,
                      .min_inclusive = min_inclusive,
                      .max = max,
                      .max_inclusive = max_inclusive});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_range_to_by_score(const std::string& destination, double min,
                                                 bool min_inclusive, double max, bool max_inclusive,
                                                 std::int64_t offset, std::int64_t count,
                                                 CompletionToken&& token) {
  return range_to_of(token, destination,
                     {.by_score = true,
                      .min = min,
                      .min_inclusive = min_inclusive,
                      .max = max,
                      .max_inclusive = max_inclusive,
                      .limit = std::pair{offset, count}});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rev_range_to(const std::string& destination, std::int64_t start,
                                            std::int64_t end, CompletionToken&& token) {
  return range_to_of(token, destination, {.reverse = true, .start = start, .end = end});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rev_range_to_by_score(const std::string& destination, double min,
                                                     bool min_inclusive, double max,
                                                     bool max_inclusive, CompletionToken&& token) {
  return range_to_of(token, destination,
                     {.reverse = true,
                      .by_score = true,
                      .min = min,
                      .min_inclusive = min_inclusive,
                      .max = max,
                      .max_inclusive = max_inclusive});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_rev_range_to_by_score(const std::string& destination, double min,
                                                     bool min_inclusive, double max,
                                                     bool max_inclusive, std::int64_t offset,
                                                     std::int64_t count, CompletionToken&& token) {
  return range_to_of(token, destination,
                     {.reverse = true,
                      .by_score = true,
                      .min = min,
                      .min_inclusive = min_inclusive,
                      .max = max,
                      .max_inclusive = max_inclusive,
                      .limit = std::pair{offset, count}});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_store_union(std::vector<std::string> names, ScoredSetCombine combine,
                                           CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::ZsetAlgebra::union_sets,
                               detail::ZsetAlgebraResult::store, std::move(names),
                               std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_union(std::vector<std::string> names, ScoredSetCombine combine,
                                          CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_decoder(), detail::ZsetAlgebra::union_sets,
                                 detail::ZsetAlgebraResult::values, std::move(names),
                                 std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_union_entries(std::vector<std::string> names,
                                                  ScoredSetCombine combine,
                                                  CompletionToken&& token) const {
  return algebra<std::vector<ScoredEntry<T>>>(
      token, entries_decoder(), detail::ZsetAlgebra::union_sets, detail::ZsetAlgebraResult::entries,
      std::move(names), std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_store_intersection(std::vector<std::string> names,
                                                  ScoredSetCombine combine,
                                                  CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::ZsetAlgebra::intersection,
                               detail::ZsetAlgebraResult::store, std::move(names),
                               std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_intersection(std::vector<std::string> names,
                                                 ScoredSetCombine combine,
                                                 CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_decoder(), detail::ZsetAlgebra::intersection,
                                 detail::ZsetAlgebraResult::values, std::move(names),
                                 std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_intersection_entries(std::vector<std::string> names,
                                                         ScoredSetCombine combine,
                                                         CompletionToken&& token) const {
  return algebra<std::vector<ScoredEntry<T>>>(
      token, entries_decoder(), detail::ZsetAlgebra::intersection,
      detail::ZsetAlgebraResult::entries, std::move(names), std::move(combine));
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_count_intersection(std::vector<std::string> names,
                                                  std::int64_t limit,
                                                  CompletionToken&& token) const {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::ZsetAlgebra::intersection,
                               detail::ZsetAlgebraResult::count, std::move(names), {}, limit);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_store_diff(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::ZsetAlgebra::diff,
                               detail::ZsetAlgebraResult::store, std::move(names), {});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_diff(std::vector<std::string> names,
                                         CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_decoder(), detail::ZsetAlgebra::diff,
                                 detail::ZsetAlgebraResult::values, std::move(names), {});
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::async_read_diff_entries(std::vector<std::string> names,
                                                 CompletionToken&& token) const {
  return algebra<std::vector<ScoredEntry<T>>>(token, entries_decoder(), detail::ZsetAlgebra::diff,
                                              detail::ZsetAlgebraResult::entries, std::move(names),
                                              {});
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
                                      bool reverse, bool increment) {
  return detail::async_started<std::int64_t>(
      object_, token,
      [score, value, reverse, increment](const detail::ObjectPtr& object,
                                         detail::Done<Reply>& done) {
        detail::start_scored_sorted_set_add_and_get_rank(
            object, score, detail::encode_value(*object->codec, value), reverse, increment, done);
      },
      &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::zadd_all(CompletionToken&& token, std::vector<std::string> flags,
                                  const std::vector<std::pair<double, T>>& entries) {
  return detail::async_started<std::int64_t>(
      object_, token,
      [entries, flags = std::move(flags)](const detail::ObjectPtr& object,
                                          detail::Done<Reply>& done) {
        std::vector<std::string> args;
        if (!entries.empty()) {  // none: nothing sent, 0 (start_with_arguments)
          args = flags;
          args.reserve(flags.size() + entries.size() * 2);
          for (const auto& [score, value] : entries) {
            args.push_back(detail::score_argument(score));
            args.push_back(detail::encode_value(*object->codec, value));
          }
        }
        detail::start_with_arguments(object, "ZADD", args, done);
      },
      &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::rank_entry_of(CompletionToken&& token, const T& value,
                                       bool reverse) const {
  return detail::async_with_encoded<std::optional<RankedEntry>>(
      object_, token, std::vector<T>{value},
      [reverse](const detail::ObjectPtr& object, const std::vector<std::string>& members,
                detail::Done<Reply>& done) {
        detail::start_zset_rank_entry(object, members, reverse, done);
      },
      [](const Reply& reply) -> std::optional<RankedEntry> {
        if (reply.is_null()) return std::nullopt;
        if (!reply.is_aggregate() || reply.elements.size() != 2) {
          detail::throw_unexpected_reply("[rank, score]", reply);
        }
        return RankedEntry{detail::reply_integer(reply.elements[0]),
                           detail::reply_double(reply.elements[1])};
      });
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto ScoredSortedSet<T>::algebra(CompletionToken&& token, Convert convert,
                                 detail::ZsetAlgebra operation, detail::ZsetAlgebraResult result,
                                 std::vector<std::string> names, ScoredSetCombine combine,
                                 std::int64_t limit) const {
  return started<R>(token, std::move(convert), &detail::start_zset_algebra, operation, result,
                    std::move(names), std::move(combine), limit);
}

template <JavaValue T>
template <class CompletionToken>
auto ScoredSortedSet<T>::range_to_of(CompletionToken&& token, const std::string& destination,
                                     detail::ZsetRangeTo range) {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_zset_range_to,
                               destination, std::move(range));
}

}  // namespace redisson

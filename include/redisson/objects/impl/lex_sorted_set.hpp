// The bodies of LexSortedSet's templates (objects/lex_sorted_set.hpp).
#pragma once

#include "redisson/objects/lex_sorted_set.hpp"

namespace redisson {

template <class CompletionToken>
auto LexSortedSet::async_add(const std::string& value, CompletionToken&& token) {
  return on_key<bool>(token, &detail::reply_flag, "ZADD", std::int64_t{0}, value);
}

template <class CompletionToken>
auto LexSortedSet::async_add_all(const std::vector<std::string>& values, CompletionToken&& token) {
  return detail::async_started<std::int64_t>(
      object_, token,
      [values](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> args;
        args.reserve(values.size() * 2);
        for (const auto& value : values) {
          args.emplace_back("0");
          args.push_back(value);
        }
        detail::start_with_arguments(object, "ZADD", args, done);
      },
      &detail::reply_integer);
}

template <class CompletionToken>
auto LexSortedSet::async_range(const std::string& from, bool from_inclusive, const std::string& to,
                               bool to_inclusive, CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                          detail::lex_bound(from, from_inclusive),
                                          detail::lex_bound(to, to_inclusive), "BYLEX");
}

template <class CompletionToken>
auto LexSortedSet::async_range(const std::string& from, bool from_inclusive, const std::string& to,
                               bool to_inclusive, std::int64_t offset, std::int64_t count,
                               CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(
      token, values_of(), "ZRANGE", detail::lex_bound(from, from_inclusive),
      detail::lex_bound(to, to_inclusive), "BYLEX", "LIMIT", offset, count);
}

template <class CompletionToken>
auto LexSortedSet::async_range_reversed(const std::string& from, bool from_inclusive,
                                        const std::string& to, bool to_inclusive,
                                        CompletionToken&& token) const {
  // REV takes the bounds highest first.
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                          detail::lex_bound(to, to_inclusive),
                                          detail::lex_bound(from, from_inclusive), "BYLEX", "REV");
}

template <class CompletionToken>
auto LexSortedSet::async_range_head_reversed(const std::string& to, bool to_inclusive,
                                             CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                          detail::lex_bound(to, to_inclusive), "-", "BYLEX", "REV");
}

template <class CompletionToken>
auto LexSortedSet::async_range_tail_reversed(const std::string& from, bool from_inclusive,
                                             CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE", "+",
                                          detail::lex_bound(from, from_inclusive), "BYLEX", "REV");
}

template <class CompletionToken>
auto LexSortedSet::async_rank(const std::string& value, CompletionToken&& token) const {
  return on_key<std::optional<std::int64_t>>(token, &detail::reply_optional_integer, "ZRANK",
                                             value);
}

template <class CompletionToken>
auto LexSortedSet::async_rev_rank(const std::string& value, CompletionToken&& token) const {
  return on_key<std::optional<std::int64_t>>(token, &detail::reply_optional_integer, "ZREVRANK",
                                             value);
}

template <class CompletionToken>
auto LexSortedSet::async_random(std::int64_t count, CompletionToken&& token) const {
  return detail::async_command<std::vector<std::string>>(
      object_, token,
      [&] {
        // A negative count lets ZRANDMEMBER repeat members: not a set's answer.
        if (count < 0) detail::throw_invalid_argument("random: the count must not be negative");
        return Command{"ZRANDMEMBER", name()}.arg(count);
      },
      values_of());
}

template <class CompletionToken>
auto LexSortedSet::async_range_head(const std::string& to, bool to_inclusive,
                                    CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE", "-",
                                          detail::lex_bound(to, to_inclusive), "BYLEX");
}

template <class CompletionToken>
auto LexSortedSet::async_range_tail(const std::string& from, bool from_inclusive,
                                    CompletionToken&& token) const {
  return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                          detail::lex_bound(from, from_inclusive), "+", "BYLEX");
}

template <class CompletionToken>
auto LexSortedSet::async_count(const std::string& from, bool from_inclusive, const std::string& to,
                               bool to_inclusive, CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT",
                              detail::lex_bound(from, from_inclusive),
                              detail::lex_bound(to, to_inclusive));
}

template <class CompletionToken>
auto LexSortedSet::async_count_head(const std::string& to, bool to_inclusive,
                                    CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT", "-",
                              detail::lex_bound(to, to_inclusive));
}

template <class CompletionToken>
auto LexSortedSet::async_count_tail(const std::string& from, bool from_inclusive,
                                    CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT",
                              detail::lex_bound(from, from_inclusive), "+");
}

template <class CompletionToken>
auto LexSortedSet::async_remove_range(const std::string& from, bool from_inclusive,
                                      const std::string& to, bool to_inclusive,
                                      CompletionToken&& token) {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX",
                              detail::lex_bound(from, from_inclusive),
                              detail::lex_bound(to, to_inclusive));
}

template <class CompletionToken>
auto LexSortedSet::async_remove_range_head(const std::string& to, bool to_inclusive,
                                           CompletionToken&& token) {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX", "-",
                              detail::lex_bound(to, to_inclusive));
}

template <class CompletionToken>
auto LexSortedSet::async_remove_range_tail(const std::string& from, bool from_inclusive,
                                           CompletionToken&& token) {
  return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX",
                              detail::lex_bound(from, from_inclusive), "+");
}

}  // namespace redisson

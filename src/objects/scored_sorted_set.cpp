// The script of ScoredSortedSet (the rest of it is commands, in the header), and the blocking
// forms of LexSortedSet (a sorted set too), each waiting for its async form.
#include "redisson/objects/scored_sorted_set.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/objects/lex_sorted_set.hpp"

namespace redisson::detail {

void start_scored_sorted_set_add_and_get_rank(const ObjectPtr& object, double score,
                                              const std::string& member, bool reverse,
                                              Done<Reply>& done) {
  const auto text = score_argument(score);
  eval_reply(
      *object,
      lua::scored_sorted_set_add_and_get_rank({object->name}, {text, member, reverse ? "1" : "0"}),
      std::move(done));
}

}  // namespace redisson::detail

namespace redisson {

// The blocking forms LexSortedSet shares, compiled here once (lex_sorted_set.hpp declares
// them extern).
template class Members<LexSortedSet, std::string>;
template class SortedEnds<LexSortedSet, std::string>;
template class SortedSetOps<LexSortedSet, std::string>;

detail::Blocking LexSortedSet::blocking(const char* operation) const {
  return detail::blocking(operation, name());
}

bool LexSortedSet::add(const std::string& value) { return async_add(value, blocking("add")); }

std::int64_t LexSortedSet::add_all(const std::vector<std::string>& values) {
  return async_add_all(values, blocking("add_all"));
}

std::vector<std::string> LexSortedSet::range(const std::string& from, bool from_inclusive,
                                             const std::string& to, bool to_inclusive) const {
  return async_range(from, from_inclusive, to, to_inclusive, blocking("range"));
}

std::vector<std::string> LexSortedSet::range(const std::string& from, bool from_inclusive,
                                             const std::string& to, bool to_inclusive,
                                             std::int64_t offset, std::int64_t count) const {
  return async_range(from, from_inclusive, to, to_inclusive, offset, count, blocking("range"));
}

std::vector<std::string> LexSortedSet::range_head(const std::string& to, bool to_inclusive) const {
  return async_range_head(to, to_inclusive, blocking("range_head"));
}

std::vector<std::string> LexSortedSet::range_tail(const std::string& from,
                                                  bool from_inclusive) const {
  return async_range_tail(from, from_inclusive, blocking("range_tail"));
}

std::int64_t LexSortedSet::count(const std::string& from, bool from_inclusive,
                                 const std::string& to, bool to_inclusive) const {
  return async_count(from, from_inclusive, to, to_inclusive, blocking("count"));
}

std::int64_t LexSortedSet::count_head(const std::string& to, bool to_inclusive) const {
  return async_count_head(to, to_inclusive, blocking("count_head"));
}

std::int64_t LexSortedSet::count_tail(const std::string& from, bool from_inclusive) const {
  return async_count_tail(from, from_inclusive, blocking("count_tail"));
}

std::int64_t LexSortedSet::remove_range(const std::string& from, bool from_inclusive,
                                        const std::string& to, bool to_inclusive) {
  return async_remove_range(from, from_inclusive, to, to_inclusive, blocking("remove_range"));
}

std::int64_t LexSortedSet::remove_range_head(const std::string& to, bool to_inclusive) {
  return async_remove_range_head(to, to_inclusive, blocking("remove_range_head"));
}

std::int64_t LexSortedSet::remove_range_tail(const std::string& from, bool from_inclusive) {
  return async_remove_range_tail(from, from_inclusive, blocking("remove_range_tail"));
}

std::vector<std::string> LexSortedSet::range_reversed(const std::string& from, bool from_inclusive,
                                                      const std::string& to,
                                                      bool to_inclusive) const {
  return async_range_reversed(from, from_inclusive, to, to_inclusive, blocking("range_reversed"));
}

std::vector<std::string> LexSortedSet::range_head_reversed(const std::string& to,
                                                           bool to_inclusive) const {
  return async_range_head_reversed(to, to_inclusive, blocking("range_head_reversed"));
}

std::vector<std::string> LexSortedSet::range_tail_reversed(const std::string& from,
                                                           bool from_inclusive) const {
  return async_range_tail_reversed(from, from_inclusive, blocking("range_tail_reversed"));
}

std::optional<std::int64_t> LexSortedSet::rank(const std::string& value) const {
  return async_rank(value, blocking("rank"));
}

std::optional<std::int64_t> LexSortedSet::rev_rank(const std::string& value) const {
  return async_rev_rank(value, blocking("rev_rank"));
}

std::vector<std::string> LexSortedSet::random(std::int64_t count) const {
  return async_random(count, blocking("random"));
}

}  // namespace redisson

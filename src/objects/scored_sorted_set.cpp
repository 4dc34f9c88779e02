// The scripts of ScoredSortedSet and its commands over other keys (the set algebra and
// ZRANGESTORE, checked against the Cluster slot; the rest is commands, in the header), and the
// blocking forms of LexSortedSet (a sorted set too), each waiting for its async form.
#include "redisson/objects/scored_sorted_set.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/objects/lex_sorted_set.hpp"

namespace redisson::detail {

void start_scored_sorted_set_add_and_get_rank(const ObjectPtr& object, double score,
                                              const std::string& member, bool reverse,
                                              bool increment, Done<Reply>& done) {
  const auto text = score_argument(score);
  eval_reply(*object,
             lua::scored_sorted_set_add_and_get_rank(
                 {object->name}, {text, member, reverse ? "1" : "0", increment ? "1" : "0"}),
             std::move(done));
}

void start_zset_rank_entry(const ObjectPtr& object, const std::vector<std::string>& members,
                           bool reverse, Done<Reply>& done) {
  eval_reply(
      *object,
      lua::scored_sorted_set_rank_entry({object->name}, {members.at(0), reverse ? "1" : "0"}),
      std::move(done));
}

void start_zset_replace(const ObjectPtr& object, const std::vector<std::string>& members,
                        Done<Reply>& done) {
  eval_reply(*object,
             lua::scored_sorted_set_replace({object->name}, {members.at(0), members.at(1)}),
             std::move(done));
}

void start_zset_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                           Done<Reply>& done) {
  std::vector<std::string> args;
  args.reserve(members.size() * 2);
  for (const auto& member : members) {
    args.emplace_back("0");
    args.push_back(member);
  }
  // Redisson names the temporary set "redisson_temp__{name}", outside the slot of a name that
  // has a hash tag; it lives only inside the script, so the name Set uses serves.
  eval_reply(*object,
             lua::scored_sorted_set_retain_all(
                 {object->name, suffix_name(object->name, "redisson_temp")}, args),
             std::move(done));
}

void start_zset_algebra(const ObjectPtr& object, ZsetAlgebra operation, ZsetAlgebraResult result,
                        const std::vector<std::string>& names, const ScoredSetCombine& combine,
                        std::int64_t limit, Done<Reply>& done) {
  static constexpr const char* kVerbs[3][4] = {{"ZUNIONSTORE", "ZUNION", "ZUNION", ""},
                                               {"ZINTERSTORE", "ZINTER", "ZINTER", "ZINTERCARD"},
                                               {"ZDIFFSTORE", "ZDIFF", "ZDIFF", ""}};
  const char* verb = kVerbs[static_cast<int>(operation)][static_cast<int>(result)];
  const bool store = result == ZsetAlgebraResult::store;
  if (limit < 0) throw_invalid_argument("count_intersection: the limit must not be negative");
  // Stored as Redisson stores it: the sets `names` into this one, whose own members count only
  // when it is among them; the reads read this set and `names`.
  if (store && names.empty()) {
    throw_invalid_argument(std::string(verb) + ": name at least one set to read");
  }
  const std::size_t inputs = names.size() + (store ? 0 : 1);
  if (!combine.weights.empty() && combine.weights.size() != inputs) {
    throw_invalid_argument(std::string(verb) + ": " + std::to_string(combine.weights.size()) +
                           " weights for " + std::to_string(inputs) + " sets");
  }
  require_same_slot(*object, verb, names);
  Command command{verb};
  if (store) command.key(object->name);
  command.arg(static_cast<std::int64_t>(inputs));
  if (!store) command.key(object->name);
  for (const auto& other : names) command.key(other);
  if (operation != ZsetAlgebra::diff && result != ZsetAlgebraResult::count) {
    if (!combine.weights.empty()) {
      command.arg("WEIGHTS");
      for (const double weight : combine.weights) command.arg(score_argument(weight));
    }
    static constexpr const char* kAggregates[] = {"SUM", "MIN", "MAX"};
    command.arg("AGGREGATE").arg(kAggregates[static_cast<int>(combine.aggregate)]);
  }
  if (result == ZsetAlgebraResult::entries) command.arg("WITHSCORES");
  if (limit > 0) command.arg("LIMIT").arg(limit);
  submit_command(object, command, std::move(done));
}

void start_zset_range_to(const ObjectPtr& object, const std::string& destination,
                         const ZsetRangeTo& range, Done<Reply>& done) {
  require_same_slot(*object, "ZRANGESTORE", {destination});
  Command command{"ZRANGESTORE"};
  command.key(destination).key(object->name);
  if (range.by_score) {
    auto low = score_bound(range.min, range.min_inclusive);
    auto high = score_bound(range.max, range.max_inclusive);
    if (range.reverse) std::swap(low, high);  // REV reads from the high bound down
    command.arg(low).arg(high).arg("BYSCORE");
  } else {
    command.arg(range.start).arg(range.end);
  }
  if (range.reverse) command.arg("REV");
  if (range.limit) command.arg("LIMIT").arg(range.limit->first).arg(range.limit->second);
  submit_command(object, command, std::move(done));
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

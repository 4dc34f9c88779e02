// The script of ScoredSortedSet (the rest of it is commands, in the header).
#include "redisson/objects/scored_sorted_set.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

void start_scored_sorted_set_add_and_get_rank(const ObjectPtr& object, double score,
                                              const std::string& member, bool reverse,
                                              Done<Reply>& done) {
  const auto text = score_argument(score);
  eval_reply(
      object->core,
      lua::scored_sorted_set_add_and_get_rank({object->name}, {text, member, reverse ? "1" : "0"}),
      std::move(done));
}

}  // namespace redisson::detail

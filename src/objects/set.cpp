// Set's operations that are not one command on its own key: tryAdd and retainAll (scripts), and
// the set algebra over other sets named by the caller (objects/set.hpp).
#include "redisson/objects/set.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/set_algebra.hpp"
#include "objects/suffix_name.hpp"

namespace redisson::detail {

void start_set_try_add(const ObjectPtr& object, const std::vector<std::string>& members,
                       Done<Reply>& done) {
  if (members.empty()) return done(Status{}, integer_reply(0));
  eval_reply(*object, lua::set_try_add({object->name}, members), std::move(done));
}

void start_set_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                          Done<Reply>& done) {
  if (members.empty()) {  // nothing to keep: Redisson deletes the set
    return submit_command(object, Command{"DEL", object->name}, std::move(done));
  }
  eval_reply(
      *object,
      lua::set_retain_all({object->name, suffix_name(object->name, "redisson_temp")}, members),
      std::move(done));
}

void start_set_algebra(const ObjectPtr& object, SetAlgebra operation,
                       const std::vector<std::string>& names, std::int64_t limit,
                       Done<Reply>& done) {
  const char* verb = nullptr;
  switch (operation) {
    case SetAlgebra::union_store:
      verb = "SUNIONSTORE";
      break;
    case SetAlgebra::union_read:
      verb = "SUNION";
      break;
    case SetAlgebra::intersection_store:
      verb = "SINTERSTORE";
      break;
    case SetAlgebra::intersection_read:
      verb = "SINTER";
      break;
    case SetAlgebra::intersection_count:
      verb = "SINTERCARD";
      break;
    case SetAlgebra::diff_store:
      verb = "SDIFFSTORE";
      break;
    case SetAlgebra::diff_read:
      verb = "SDIFF";
      break;
  }
  check_set_algebra(*object, operation, verb, names, limit);
  Command command{verb};
  if (operation == SetAlgebra::intersection_count) {
    command.arg(static_cast<std::int64_t>(names.size() + 1));
  }
  // The store forms write into this set from the named sets only (Redisson's union, intersection
  // and diff); the read forms and the count read this set too.
  command.key(object->name);
  for (const auto& other : names) command.key(other);
  if (limit > 0) command.arg("LIMIT").arg(limit);
  submit_command(object, command, std::move(done));
}

void check_set_algebra(const ObjectState& object, SetAlgebra operation, std::string_view verb,
                       const std::vector<std::string>& names, std::int64_t limit) {
  if (limit < 0) throw_invalid_argument("count_intersection: the limit must not be negative");
  if (set_algebra_stores(operation) && names.empty()) {
    throw_invalid_argument(std::string(verb) + ": name at least one set to store from");
  }
  require_same_slot(object, verb, names);
}

}  // namespace redisson::detail

#include "redisson/objects/list.hpp"

#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

void start_list_set(const ObjectPtr& object, std::int64_t index, const std::string& element,
                    Done<Reply>& done) {
  eval_reply(*object,
             lua::list_set(std::vector<std::string>{object->name},
                           std::vector<std::string>{std::to_string(index), element}),
             std::move(done));
}

void start_list_remove_at(const ObjectPtr& object, std::int64_t index, Done<Reply>& done) {
  eval_reply(*object,
             lua::list_remove_at(std::vector<std::string>{object->name},
                                 std::vector<std::string>{std::to_string(index), make_id_bytes()}),
             std::move(done));
}

void start_list_contains_all(const ObjectPtr& object, const std::vector<std::string>& values,
                             Done<Reply>& done) {
  if (values.empty()) return done(Status{}, integer_reply(1));
  eval_reply(*object, lua::list_contains_all({object->name}, values), std::move(done));
}

void start_list_remove_all(const ObjectPtr& object, const std::vector<std::string>& values,
                           Done<Reply>& done) {
  if (values.empty()) return done(Status{}, integer_reply(0));
  eval_reply(*object, lua::list_remove_all({object->name}, values), std::move(done));
}

void start_list_retain_all(const ObjectPtr& object, const std::vector<std::string>& values,
                           Done<Reply>& done) {
  if (values.empty()) {  // nothing to keep: Redisson deletes the list
    return submit_command(object, Command{"DEL", object->name}, std::move(done));
  }
  eval_reply(*object, lua::list_retain_all({object->name}, values), std::move(done));
}

}  // namespace redisson::detail

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

}  // namespace redisson::detail

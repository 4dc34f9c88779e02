#include "redisson/objects/bucket.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

void start_bucket_compare_and_set(const ObjectPtr& object, std::optional<std::string> expect,
                                  std::optional<std::string> update, Done<Reply>& done) {
  const std::string_view expect_flag = expect ? "1" : "0";
  const std::string_view update_flag = update ? "1" : "0";
  const std::string empty;
  eval_reply(*object,
             lua::bucket_compare_and_set({object->name}, {expect_flag, expect ? *expect : empty,
                                                          update_flag, update ? *update : empty}),
             std::move(done));
}

}  // namespace redisson::detail

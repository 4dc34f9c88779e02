#include "redisson/objects/list.hpp"

#include <random>

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

namespace {

/// 16 random bytes: a value no codec writes by chance, so a list holding it is out of reach.
std::string fresh_marker() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::string marker(16, '\0');
  for (std::size_t at = 0; at < marker.size(); at += 8) {
    const auto bits = random();
    for (std::size_t i = 0; i < 8; ++i) marker[at + i] = static_cast<char>(bits >> (8 * i));
  }
  return marker;
}

}  // namespace

void start_list_set(const ObjectPtr& object, std::int64_t index, const std::string& element,
                    Done<Reply>& done) {
  eval_reply(object->core,
             lua::list_set(std::vector<std::string>{object->name},
                           std::vector<std::string>{std::to_string(index), element}),
             std::move(done));
}

void start_list_remove_at(const ObjectPtr& object, std::int64_t index, Done<Reply>& done) {
  eval_reply(object->core,
             lua::list_remove_at(std::vector<std::string>{object->name},
                                 std::vector<std::string>{std::to_string(index), fresh_marker()}),
             std::move(done));
}

}  // namespace redisson::detail

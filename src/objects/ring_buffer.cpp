#include "redisson/objects/ring_buffer.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

std::vector<std::string> ring_buffer_keys(const std::string& name) {
  return {ring_buffer_capacity_key(name)};
}

std::string ring_buffer_capacity_key(const std::string& name) {
  return "redisson_rb:{" + name + "}";
}

void start_ring_buffer_add(const ObjectPtr& object, const std::vector<std::string>& elements,
                           Done<Reply>& done) {
  eval_reply(
      *object,
      lua::ring_buffer_add(
          std::vector<std::string>{object->name, ring_buffer_capacity_key(object->name)}, elements),
      std::move(done));
}

void start_ring_buffer_set_capacity(const ObjectPtr& object, std::int64_t capacity,
                                    Done<Reply>& done) {
  if (capacity <= 0) throw_invalid_argument("set_capacity: the capacity must be positive");
  eval_reply(*object,
             lua::ring_buffer_set_capacity(
                 std::vector<std::string>{object->name, ring_buffer_capacity_key(object->name)},
                 std::vector<std::string>{std::to_string(capacity)}),
             std::move(done));
}

std::int64_t ring_buffer_length(const Reply& reply) {
  if (reply.is_null()) {
    throw error(errc::not_initialized, "the ring buffer has no capacity: call try_set_capacity");
  }
  return reply_integer(reply);
}

}  // namespace redisson::detail

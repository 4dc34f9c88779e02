#include "redisson/objects/delayed_queue.hpp"

#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "objects/delay_transfer.hpp"
#include "objects/send.hpp"

namespace redisson::detail {

std::shared_ptr<void> delay_transfer_of(const ObjectPtr& object, const std::string& destination) {
  const auto& core = object->core;
  return core->shared_task("delay_transfer:" + destination, [&]() -> std::shared_ptr<void> {
    return std::make_shared<DelayTransfer>(core, destination);
  });
}

std::string delayed_queue_name(const std::string& destination) {
  if (destination.empty())
    throw_invalid_argument("DelayedQueue: the destination must not be empty");
  return delay_queue_list(destination);
}

std::vector<std::string> delayed_queue_keys(const std::string& name) {
  // name is redisson_delay_queue:{destination}; the timeouts zset shares the braces.
  const auto open = name.find('{');
  return {"redisson_delay_queue_timeout:" + name.substr(open)};
}

void start_delayed_offer(const ObjectPtr& object, const std::string& destination,
                         std::int64_t due_ms, const std::string& value, Done<Reply>& done) {
  // 8 random bytes make two offers of one value two elements (Redisson's framing, B = 8).
  auto call = lua::delayed_queue_offer(
      std::vector<std::string>{destination, delay_queue_timeouts(destination),
                               delay_queue_list(destination), delay_queue_channel(destination)},
      std::vector<std::string>{std::to_string(due_ms), make_id_bytes().substr(0, 8), value});
  eval_reply(*object, std::move(call), std::move(done));
}

void start_delayed_remove(const ObjectPtr& object, const std::string& destination,
                          const std::string& value, Done<Reply>& done) {
  auto call = lua::delayed_queue_remove(
      std::vector<std::string>{delay_queue_timeouts(destination), delay_queue_list(destination)},
      std::vector<std::string>{value});
  eval_reply(*object, std::move(call), std::move(done));
}

}  // namespace redisson::detail

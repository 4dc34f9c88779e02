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

void start_delayed_poll(const ObjectPtr& object, const std::string& destination, std::int64_t count,
                        Done<Reply>& done) {
  if (count < 1) throw_invalid_argument("poll: the count must be at least 1");
  auto call = lua::delayed_queue_poll(
      std::vector<std::string>{delay_queue_timeouts(destination), delay_queue_list(destination)},
      std::vector<std::string>{std::to_string(count)});
  eval_reply(*object, std::move(call), std::move(done));
}

void start_delayed_poll_last_to(const ObjectPtr& object, const std::string& destination,
                                const std::string& target, Done<Reply>& done) {
  require_same_slot(*object, "poll_last_and_offer_first_to", {target});
  auto call = lua::delayed_queue_poll_last_to(
      std::vector<std::string>{delay_queue_timeouts(destination), delay_queue_list(destination),
                               target},
      std::vector<std::string>{});
  eval_reply(*object, std::move(call), std::move(done));
}

void start_delayed_contains_all(const ObjectPtr& object, const std::string& destination,
                                const std::vector<std::string>& values, Done<Reply>& done) {
  if (values.empty()) return done(Status{}, integer_reply(1));
  auto call = lua::delayed_queue_contains_all(
      std::vector<std::string>{delay_queue_list(destination)}, values);
  eval_reply(*object, std::move(call), std::move(done));
}

void start_delayed_remove_matching(const ObjectPtr& object, const std::string& destination,
                                   bool retain, const std::vector<std::string>& values,
                                   Done<Reply>& done) {
  if (values.empty() && !retain) return done(Status{}, integer_reply(0));
  std::vector<std::string> args;
  args.reserve(values.size() + 1);
  args.emplace_back(retain ? "retain" : "remove");
  args.insert(args.end(), values.begin(), values.end());
  auto call = lua::delayed_queue_remove_matching(
      std::vector<std::string>{delay_queue_timeouts(destination), delay_queue_list(destination)},
      args);
  eval_reply(*object, std::move(call), std::move(done));
}

std::string delayed_element_value(const std::string& element) {
  // Redisson's framing (struct 'Bc0Lc0'): a length byte, that many random bytes, the value's
  // length as a little-endian 8-byte unsigned long, the value.
  const auto fail = [&] {
    throw error(errc::codec_error, "DelayedQueue: an element without Redisson's framing (" +
                                       std::to_string(element.size()) + " bytes)");
  };
  if (element.empty()) fail();
  const std::size_t id_length = static_cast<unsigned char>(element[0]);
  const std::size_t length_at = 1 + id_length;
  if (element.size() < length_at + 8) fail();
  std::uint64_t length = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    length |= std::uint64_t{static_cast<unsigned char>(element[length_at + i])} << (8 * i);
  }
  if (length != element.size() - length_at - 8) fail();
  return element.substr(length_at + 8);
}

}  // namespace redisson::detail

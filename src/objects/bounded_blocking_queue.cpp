// BoundedBlockingQueue's scripts and waits (objects/bounded_blocking_queue.hpp): the capacity
// left is Redisson's queue semaphore `redisson_bqs:{name}`, announced on its semaphore channel.
#include "redisson/objects/bounded_blocking_queue.hpp"

#include <utility>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/synchronizer.hpp"

namespace redisson::detail {

namespace {

std::string bounded_capacity_key(const std::string& name) {
  return prefix_name("redisson_bqs", name);
}

/// The capacity key as a semaphore (its channel, publish command, a waiting put's re-check
/// interval): made once per handle (bounded_queue_hooks' make_attached), not per operation.
std::shared_ptr<SynchronizerState> bounded_capacity(const ObjectState& object) {
  return std::static_pointer_cast<SynchronizerState>(object.attached);
}

/// How many elements of this queue (`name`) a blocking take's reply brings.
std::int64_t bounded_taken_count(BoundedTake take, const std::string& name, const Reply& reply) {
  if (reply.is_null()) return 0;
  switch (take) {
    case BoundedTake::element:
      return 1;
    case BoundedTake::keyed_element:
      return reply.elements.size() == 2 && reply.elements[0].str == name ? 1 : 0;
    case BoundedTake::keyed_elements:
      if (reply.elements.size() != 2 || reply.elements[0].str != name) return 0;
      return static_cast<std::int64_t>(reply.elements[1].elements.size());
  }
  return 0;
}

/// A give-back that failed, to Config::error_handler: the taker has its element, so this is no
/// caller's error, but the queue keeps that place taken until someone looks.
void report_lost_places(const ClientCore& core, const std::string& name, const Status& status) {
  report_failure(
      core.config(),
      error(status.code, "BoundedBlockingQueue '" + name +
                             "': giving taken elements' places back failed: " + status.detail));
}

/// The offer script's reply as the operation's, its -1 turned into not_initialized.
Status offer_status(Status status, const Reply& reply) {
  if (!status && reply.type == ReplyType::integer && reply.integer < 0) {
    return Status(make_error_code(errc::not_initialized),
                  "no capacity is set: call try_set_capacity first");
  }
  return status;
}

}  // namespace

std::vector<std::string> bounded_queue_keys(const std::string& name) {
  return {bounded_capacity_key(name)};
}

std::shared_ptr<void> make_bounded_queue_state(const ObjectState& object,
                                               const std::shared_ptr<void>& /*previous*/) {
  auto key = bounded_capacity_key(object.name);
  auto channel = prefix_name("redisson_sc", key);
  return std::make_shared<SynchronizerState>(object.core, std::move(key), std::move(channel));
}

void start_bounded_queue_try_set_capacity(const ObjectPtr& object, std::int64_t capacity,
                                          Done<Reply>& done) {
  const auto capacity_key = bounded_capacity(*object);
  eval_reply(*object,
             lua::bounded_queue_try_set_capacity(
                 {capacity_key->name, capacity_key->channel},
                 std::vector<std::string>{std::to_string(capacity), capacity_key->publish_command}),
             std::move(done));
}

void start_bounded_queue_remaining(const ObjectPtr& object, Done<Reply>& done) {
  submit_command(object, Command{"GET", bounded_capacity(*object)->name},
                 [done = std::move(done)](Status status, const Reply& reply) mutable {
                   std::int64_t count = 0;
                   if (!status) status = parse_count(reply, count);
                   done(std::move(status), integer_reply(count));
                 });
}

void start_bounded_queue_offer(const ObjectPtr& object, std::vector<std::string> elements,
                               std::optional<std::chrono::milliseconds> wait,
                               const CancellationPtr& cancel, Done<Reply> done) {
  const auto capacity_key = bounded_capacity(*object);
  std::vector<std::string> args;
  args.reserve(elements.size() + 1);
  args.push_back(std::to_string(elements.size()));
  for (auto& element : elements) args.push_back(std::move(element));
  auto call = [capacity_key, name = object->name, args = std::move(args)] {
    return lua::bounded_queue_offer({capacity_key->name, name}, std::vector<std::string>(args));
  };
  if (wait && wait->count() == 0) {
    // One try (queued in a batch the object is bound to). An offer is not sent again after a
    // lost reply: it may have appended already.
    return eval_reply(*object, call(),
                      [done = std::move(done)](Status status, const Reply& reply) mutable {
                        status = offer_status(std::move(status), reply);
                        if (status) return done(std::move(status), Reply{});
                        done({}, reply);
                      });
  }
  // A wait cannot be part of a batch: its tries depend on what the channel announces.
  if (object->batch) return done(batch_refusal("a waiting offer or put"), Reply{});
  // Waiting for room, as Redisson's put does (its queue semaphore's acquire): a try, then another
  // each time a take announces room on the capacity's channel (or after the re-check interval).
  Attempt attempt = [core = object->core, call](AttemptCallback callback, ReadSlot* /*read*/) {
    eval_reply(core, call(),
               [callback = std::move(callback)](Status status, const Reply& reply) mutable {
                 status = offer_status(std::move(status), reply);
                 if (status) return callback(std::move(status), {});
                 callback({}, AttemptResult{reply.integer == 1, std::chrono::milliseconds{-1}});
               });
  };
  AcquireLoop::start(
      object->core, wait_options(*capacity_key, wait), std::move(attempt),
      [done = std::move(done)](Status status, bool appended) mutable {
        if (status) return done(std::move(status), Reply{});
        done({}, integer_reply(appended ? 1 : 0));
      },
      nullptr, cancel);
}

void start_bounded_queue_take(const ObjectPtr& object, std::int64_t count, Done<Reply>& done) {
  const auto capacity_key = bounded_capacity(*object);
  eval_reply(*object,
             lua::bounded_queue_take(
                 {object->name, capacity_key->name, capacity_key->channel},
                 std::vector<std::string>{capacity_key->publish_command, std::to_string(count)}),
             std::move(done));
}

void start_bounded_queue_remove(const ObjectPtr& object, const char* mode,
                                const std::vector<std::string>& values, Done<Reply>& done) {
  const auto capacity_key = bounded_capacity(*object);
  std::vector<std::string> args;
  args.reserve(values.size() + 2);
  args.push_back(capacity_key->publish_command);
  args.emplace_back(mode);
  args.insert(args.end(), values.begin(), values.end());
  eval_reply(
      *object,
      lua::bounded_queue_remove({object->name, capacity_key->name, capacity_key->channel}, args),
      std::move(done));
}

void give_back_bounded_places(const ObjectState& object, std::int64_t count) {
  auto capacity = bounded_capacity(object);
  add_permits(*capacity, count, [capacity, name = object.name](const Status& status) {
    if (status) report_lost_places(*capacity->core, name, status);
  });
}

void submit_bounded_take(const ObjectState& object, BoundedTake take, BlockingCommand command,
                         ReplyHandler handler, const CancellationPtr& cancel) {
  submit_blocking(
      object, std::move(command),
      [capacity = bounded_capacity(object), name = object.name, take, handler = std::move(handler)](
          std::error_code ec, Reply reply) mutable {
        const auto count = ec ? 0 : bounded_taken_count(take, name, reply);
        if (count == 0) return handler(ec, std::move(reply));
        // The element is the caller's now: a failed give-back is reported, not the take.
        add_permits(*capacity, count,
                    [capacity, name = std::move(name), handler = std::move(handler),
                     reply = std::move(reply)](const Status& status) mutable {
                      if (status) report_lost_places(*capacity->core, name, status);
                      handler({}, std::move(reply));
                    });
      },
      cancel);
}

}  // namespace redisson::detail

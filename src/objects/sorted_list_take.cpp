// The waiting takes of the blocking sorted lists (objects/sorted_list.hpp):
// PriorityBlockingQueue/Deque's take, poll with a wait and element subscriptions.
//
// Redisson's blocking priority queues poll: lock, pop, unlock, then a random pause of up to 2 s.
// Here a waiter tries sorted_list_pop_unlocked.lua (one round trip: the pop, when no writer holds
// the list's lock) and, between tries, sleeps on the lock's release channel through AcquireLoop:
// every insert, Java's included, holds the lock and so announces its unlock there, which wakes
// the waiter as the element arrives. A lost message costs at most the re-check interval.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/objects/sorted_list.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"

namespace redisson::detail {

namespace {

// How long a waiter sleeps when no release message comes (one may have been lost, or a writer
// that died left the lock to lapse).
constexpr std::chrono::seconds kRecheck{1};

ScriptCall take_call(const ObjectState& object, const std::string& lock,
                     const SortedListTake& take) {
  if (take.destination.empty()) {
    return lua::sorted_list_pop_unlocked({object.name, lock}, {take.last ? "RPOP" : "LPOP"});
  }
  return lua::sorted_list_move_unlocked({object.name, lock, take.destination});
}

}  // namespace

void start_sorted_list_take(const ObjectPtr& object, SortedListTake take,
                            std::optional<std::chrono::milliseconds> wait,
                            const CancellationPtr& cancel, Done<Reply> done) {
  // A wait cannot be part of a batch: its tries depend on what the channel announces.
  if (object->batch) return done(batch_refusal("a waiting take"), Reply{});
  auto lock = sorted_list_lock_name(object->name);
  AcquireLoop::Options options;
  options.channel = prefix_name("redisson_lock__channel", lock);
  options.policy = LatchPolicy{};
  options.unknown_hint = kRecheck;
  if (wait) options.deadline = Clock::now() + *wait;
  // The element the successful try took, handed from the attempt to the completion.
  auto taken = std::make_shared<Reply>();
  Attempt attempt = [object, lock = std::move(lock), take = std::move(take), taken](
                        AttemptCallback callback, ReadSlot* /*read*/) {
    eval_reply(object->core, take_call(*object, lock, take),
               [callback = std::move(callback), taken](Status status, Reply reply) mutable {
                 if (status) return callback(std::move(status), {});
                 const bool got = !reply.is_null();
                 if (got) *taken = std::move(reply);
                 callback({}, AttemptResult{got, std::chrono::milliseconds{-1}});
               });
  };
  AcquireLoop::start(
      object->core, std::move(options), std::move(attempt),
      [done = std::move(done), taken](Status status, bool got) mutable {
        if (status) return done(std::move(status), Reply{});
        done({}, got ? std::move(*taken) : Reply{});
      },
      nullptr, cancel);
}

}  // namespace redisson::detail

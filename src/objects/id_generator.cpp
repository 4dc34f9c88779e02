// IdGenerator: the block of ids a handle hands out, and the scripts that take blocks.
#include "redisson/objects/id_generator.hpp"

#include <deque>
#include <mutex>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "sync/names.hpp"

namespace redisson::detail {

struct IdBlock {
  std::mutex mutex;  // guards everything below
  std::int64_t next = 0;
  std::int64_t remaining = 0;
  bool fetching = false;            // a block script is in flight
  std::deque<Done<Reply>> waiting;  // callers for that block, in arrival order
};

namespace {

using Handout = std::vector<std::pair<Done<Reply>, std::int64_t>>;

// Takes ids for the waiting callers, first come first served, while the block lasts.
Handout hand_out_locked(IdBlock& block) {
  Handout out;
  while (block.remaining > 0 && !block.waiting.empty()) {
    out.emplace_back(std::move(block.waiting.front()), block.next++);
    block.waiting.pop_front();
    --block.remaining;
  }
  return out;
}

void complete(Handout&& handout) {
  for (auto& [done, id] : handout) done(Status{}, integer_reply(id));
}

void fetch(const ObjectPtr& object, const std::shared_ptr<IdBlock>& block) {
  eval_reply(*object, lua::id_generator_allocate(object->keys(), {}),
             [object, block](Status status, const Reply& reply) {
               std::int64_t first = 0;
               std::int64_t size = 0;
               if (!status) {
                 try {
                   if (reply.elements.size() != 2)
                     throw_unexpected_reply("{first id, size}", reply);
                   first = reply_counter(reply.elements[0]);
                   size = reply_counter(reply.elements[1]);
                   // A block size of 0 (set by hand) would have every caller wait forever.
                   if (size < 1) throw_unexpected_reply("a positive block size", reply.elements[1]);
                 } catch (const error& failure) {
                   status = Status(failure.code(), failure.what());
                 }
               }
               Handout handout;
               std::deque<Done<Reply>> failed;
               bool again = false;
               {
                 std::lock_guard lock(block->mutex);
                 if (status) {
                   // Every waiter was waiting for this block; the next call tries again.
                   failed = std::move(block->waiting);
                   block->waiting.clear();
                   block->fetching = false;
                 } else {
                   block->next = first;
                   block->remaining = size;
                   handout = hand_out_locked(*block);
                   again = !block->waiting.empty();
                   block->fetching = again;
                 }
               }
               for (auto& done : failed) done(status, Reply{});
               complete(std::move(handout));
               if (again) fetch(object, block);
             });
}

}  // namespace

std::shared_ptr<IdBlock> make_id_block() { return std::make_shared<IdBlock>(); }

std::vector<std::string> id_generator_keys(const std::string& name) {
  return {suffix_name(name, "allocation")};
}

void start_id_generator_try_init(const ObjectPtr& object, std::int64_t first,
                                 std::int64_t allocation_size, Done<Reply>& done) {
  if (allocation_size < 1) {
    throw_invalid_argument("the allocation size must be at least 1, got " +
                           std::to_string(allocation_size));
  }
  eval_reply(*object,
             lua::id_generator_try_init(object->keys(),
                                        {std::to_string(first), std::to_string(allocation_size)}),
             std::move(done));
}

void start_id_generator_next(const ObjectPtr& object, const std::shared_ptr<IdBlock>& block,
                             Done<Reply>& done) {
  Handout handout;
  bool send = false;
  {
    std::lock_guard lock(block->mutex);
    block->waiting.push_back(std::move(done));
    handout = hand_out_locked(*block);
    if (!block->waiting.empty() && !block->fetching) send = block->fetching = true;
  }
  complete(std::move(handout));
  if (send) fetch(object, block);
}

}  // namespace redisson::detail

namespace redisson {

bool IdGenerator::try_init(std::int64_t first, std::int64_t allocation_size) {
  return async_try_init(first, allocation_size, detail::blocking("try_init", name()));
}

std::int64_t IdGenerator::next_id() { return async_next_id(detail::blocking("next_id", name())); }

}  // namespace redisson

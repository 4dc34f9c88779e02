// redisson::IdGenerator: unique ids handed out in blocks, Java Redisson's RIdGenerator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// The ids of the block taken last, shared by the copies of an IdGenerator (id_generator.cpp).
struct IdBlock;
std::shared_ptr<IdBlock> make_id_block();
/// The keys besides the name: {name}:allocation.
std::vector<std::string> id_generator_keys(const std::string& name);
inline constexpr ObjectHooks id_generator_hooks{.extra_keys = &id_generator_keys};
/// try_init: the script setting both keys if absent (allocation_size >= 1, checked before
/// sending). Completes with the script's 1/0.
void start_id_generator_try_init(const ObjectPtr& object, std::int64_t first,
                                 std::int64_t allocation_size, Done<Reply>& done);
/// next_id: an id from the current block, or from a new block (one script for every caller
/// waiting for it). Completes with an integer reply.
void start_id_generator_next(const ObjectPtr& object, const std::shared_ptr<IdBlock>& block,
                             Done<Reply>& done);
}  // namespace detail

/// Unique 64-bit ids for every process sharing the name, increasing within a process. Each
/// handle takes a block of ids from Redis at a time and hands them out locally, so most
/// next_id() calls cost no round trip; ids are therefore unique but not ordered across
/// processes, and the unused rest of a block is lost when the process ends.
///
/// Layout (Java Redisson's RIdGenerator): string `name` = the first id of the next block, string
/// `{name}:allocation` = the block size (ASCII decimal both). Taking a block is one script:
/// a missing block size becomes 5000, a missing next id starts the ids at 1. Java and C++
/// processes share the ids without overlap.
///
/// Thread-safe; copies of a handle share its block. Concurrent next_id() calls that find the
/// block used up wait for the one script in flight instead of each sending one, so a block costs
/// one round trip however many callers there are. delete_object(), expire() and rename() cover
/// both keys.
class IdGenerator : public Object {
 public:
  /// A handle on the generator `name`; sends nothing.
  IdGenerator(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::long_text(), "IdGenerator",
               &detail::id_generator_hooks),
        block_(detail::make_id_block()) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_try_init(std::int64_t first, std::int64_t allocation_size, CompletionToken&& token);
  template <class CompletionToken>
  auto async_next_id(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Sets the first id and the block size (>= 1; else invalid_argument, nothing sent), each only
  /// if absent; true if the block size was set, i.e. the generator was new (Redisson's tryInit).
  bool try_init(std::int64_t first, std::int64_t allocation_size);
  /// The next id.
  std::int64_t next_id();

 private:
  std::shared_ptr<detail::IdBlock> block_;
};

}  // namespace redisson

#include "redisson/objects/impl/id_generator.hpp"

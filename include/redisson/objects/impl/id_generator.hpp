// The bodies of IdGenerator's templates (objects/id_generator.hpp).
#pragma once

#include "redisson/objects/id_generator.hpp"

namespace redisson {

template <class CompletionToken>
auto IdGenerator::async_try_init(std::int64_t first, std::int64_t allocation_size,
                                 CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_id_generator_try_init, first,
                       allocation_size);
}

template <class CompletionToken>
auto IdGenerator::async_next_id(CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_id_generator_next,
                               block_);
}

}  // namespace redisson

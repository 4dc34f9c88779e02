// Element subscriptions (Java's subscribeOnElements, subscribeOnFirstElements, ...): what the
// blocking queues' and the scored sorted set's templates hand to the client's registry
// (src/objects/element_subscriptions.hpp), which runs the pop loop.
#pragma once

#include <functional>
#include <utility>

#include "redisson/detail/object_op.hpp"
#include "redisson/listener.hpp"

namespace redisson::detail {

/// Which pop a subscription repeats (src/objects/element_subscriptions.hpp): a blocking pop
/// (BLPOP, BRPOP, BZPOPMIN, BZPOPMAX), or a sorted list's waiting take at its head or tail
/// (start_sorted_list_take: the priority queues, whose pops must respect their lock).
enum class ElementPop { first, last, min_score, max_score, sorted_first, sorted_last };
/// Starts a subscription on the client's listener threads: `deliver` gets each popped reply.
ListenerId add_element_subscription(const ObjectPtr& object, ElementPop pop,
                                    std::function<void(const Reply&)> deliver);
/// Stops it; false when `id` is not (or no longer) a subscription of this client.
bool remove_element_subscription(const ObjectPtr& object, ListenerId id);

/// A consumer's calls for a subscription popping [key, element, ...]: the element decoded with
/// `codec` (unreadable bytes throw: reported as errc::listener_failed).
template <class T>
std::function<void(const Reply&)> element_consumer(CodecPtr codec,
                                                   std::function<void(T)> consumer) {
  return [codec = std::move(codec), consumer = std::move(consumer)](const Reply& reply) {
    if (!reply.is_aggregate() || reply.elements.size() < 2) {
      throw_unexpected_reply("[key, element]", reply);
    }
    auto value = decode_reply<T>(*codec, reply.elements[1]);
    if (!value) throw_unexpected_reply("an element", reply);
    consumer(std::move(*value));
  };
}

/// Starts the subscription of `object` with `pop` for `consumer` (empty: invalid_argument).
template <class T>
ListenerId subscribe_elements(const ObjectPtr& object, ElementPop pop,
                              std::function<void(T)> consumer) {
  if (!consumer) throw_invalid_argument("subscribe_on_elements: the consumer is empty");
  return add_element_subscription(object, pop,
                                  element_consumer<T>(object->codec, std::move(consumer)));
}

}  // namespace redisson::detail

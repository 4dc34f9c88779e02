// redisson::BoundedBlockingQueue<T>: a blocking queue holding at most its capacity, whose
// producers wait for room, Java Redisson's RBoundedBlockingQueue.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/blocking_op.hpp"
#include "redisson/detail/element_subscription.hpp"
#include "redisson/objects/blocking_queue.hpp"
#include "redisson/objects/list_base.hpp"

namespace redisson {

namespace detail {

std::vector<std::string> bounded_queue_keys(const std::string& name);
/// The capacity key's names and channel, made once per handle (and again on rename).
std::shared_ptr<void> make_bounded_queue_state(const ObjectState& object,
                                               const std::shared_ptr<void>& previous);
inline constexpr ObjectHooks bounded_queue_hooks{.extra_keys = &bounded_queue_keys,
                                                 .make_attached = &make_bounded_queue_state};

/// What a blocking take of a bounded queue brings, so that it gives back as many places.
enum class BoundedTake {
  element,         // BLMOVE: the element, from this queue
  keyed_element,   // BLPOP/BRPOP: [queue, element], from this queue or another
  keyed_elements,  // BLMPOP: [queue, [elements...]], from this queue or another
};

/// bounded_queue_try_set_capacity.lua: 1 when set now, 0 when one was set already.
void start_bounded_queue_try_set_capacity(const ObjectPtr& object, std::int64_t capacity,
                                          Done<Reply>& done);
/// GET of the capacity left: its integer (0 when none was set).
void start_bounded_queue_remaining(const ObjectPtr& object, Done<Reply>& done);
/// bounded_queue_offer.lua over `elements`, once (`wait` zero) or, waiting for room, until
/// `wait` passes (nullopt: for ever): an integer reply 1 (appended) or 0 (no room in time).
/// No capacity set is errc::not_initialized.
void start_bounded_queue_offer(const ObjectPtr& object, std::vector<std::string> elements,
                               std::optional<std::chrono::milliseconds> wait,
                               const CancellationPtr& cancel, Done<Reply> done);
/// bounded_queue_take.lua: up to `count` (0: all) elements from the head, as an array.
void start_bounded_queue_take(const ObjectPtr& object, std::int64_t count, Done<Reply>& done);
/// bounded_queue_remove.lua in `mode` ("first", "every", "retain", "clear") over `values`: the
/// number removed.
void start_bounded_queue_remove(const ObjectPtr& object, const char* mode,
                                const std::vector<std::string>& values, Done<Reply>& done);
/// Runs the blocking `command`; when its reply brings elements of this queue (`take` says how
/// to count them), gives their places back before `handler` sees the reply.
void submit_bounded_take(const ObjectState& object, BoundedTake take, BlockingCommand command,
                         ReplyHandler handler, const CancellationPtr& cancel);
/// Gives `count` places back (INCRBY and a publish that wakes waiting putters); a failure goes to
/// Config::error_handler. For the element subscriptions' pops.
void give_back_bounded_places(const ObjectState& object, std::int64_t count);

}  // namespace detail

/// A FIFO queue of T on the Redis list `name` that holds at most its capacity: offer() appends
/// when there is room, put() waits for it, and every take gives its place back. Java Redisson's
/// RBoundedBlockingQueue layout: the list, and the capacity left as decimal text in
/// `redisson_bqs:{name}` (Redisson's queue semaphore: deleted, expired and renamed with the
/// list), whose changes are published on `redisson_sc:redisson_bqs:{name}`; so Java and C++
/// producers and consumers share one bounded queue. Set the capacity once with
/// try_set_capacity(); an offer before that is errc::not_initialized and changes nothing.
///
/// Every operation that adds is a script that takes places first (the capacity left drops),
/// every one that removes gives them back, so the list never grows past the capacity through
/// this type. It has no operation that could: no plain RPUSH, no positional writes (List's).
/// What other code writes to the list itself is not counted.
///
/// Waiting: put() and offer(value, wait) retry when a take announces room (pub/sub on the
/// channel above, re-checked every second when no message comes); take() and poll(wait) wait on
/// the server (BLPOP on one of the client's blocking connections), then give the place back
/// with a second command. A process that dies between the two keeps that one place taken for
/// good (as in Redisson); a broken connection does not (the give-back is sent again).
template <JavaValue T>
class BoundedBlockingQueue : public detail::ListBase<T> {
  using Base = detail::ListBase<T>;
  using Popped = detail::PoppedReplies<T>;

 public:
  /// A handle on the queue `name`; sends nothing. `codec` null: the client's default codec.
  BoundedBlockingQueue(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "BoundedBlockingQueue",
             &detail::bounded_queue_hooks) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_try_set_capacity(std::int64_t capacity, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remaining_capacity(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_offer(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_offer(const T& value, std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_put(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(std::vector<T> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_peek(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll(std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_take(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_from_any(std::chrono::milliseconds wait, std::vector<std::string> other_queues,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait,
                                std::vector<std::string> other_queues, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                 std::vector<std::string> other_queues, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                std::vector<std::string> other_queues, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_and_offer_first_to(const std::string& destination,
                                          std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_take_last_and_offer_first_to(const std::string& destination, CompletionToken&& token);
  template <class CompletionToken>
  auto async_drain(std::int64_t max_elements, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(std::vector<T> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_retain_all(std::vector<T> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_clear(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Sets the capacity (> 0) when none is set yet; true if it was set now. Waiting putters hear
  /// of it. The capacity left starts at `capacity`, whatever the list holds already.
  bool try_set_capacity(std::int64_t capacity) {
    return async_try_set_capacity(capacity, this->blocking("try_set_capacity"));
  }
  /// How many more elements fit (0 when no capacity is set).
  std::int64_t remaining_capacity() const {
    return async_remaining_capacity(this->blocking("remaining_capacity"));
  }
  /// Appends `value` at the tail when there is room; false (nothing changed) when full.
  bool offer(const T& value) { return async_offer(value, this->blocking("offer")); }
  /// Appends `value`, waiting up to `wait` for room; false when none came in time. A negative
  /// wait is errc::invalid_argument.
  bool offer(const T& value, std::chrono::milliseconds wait) {
    return async_offer(value, wait, this->blocking("offer"));
  }
  /// Appends `value`, waiting as long as it takes for room.
  void put(const T& value) { async_put(value, this->blocking("put")); }
  /// Appends all of `values` in order when they all fit, in one script; false (nothing changed)
  /// when they do not, or when there are none.
  bool add_all(std::vector<T> values) {
    return async_add_all(std::move(values), this->blocking("add_all"));
  }
  /// The head, left in the queue; nullopt when it is empty.
  std::optional<T> peek() const { return async_peek(this->blocking("peek")); }
  /// Takes the head and gives its place back, in one script; nullopt when empty.
  std::optional<T> poll() { return async_poll(this->blocking("poll")); }
  /// Takes the head, waiting up to `wait` for one (BLPOP), then gives its place back.
  std::optional<T> poll(std::chrono::milliseconds wait) {
    return async_poll(wait, this->blocking("poll"));
  }
  /// Takes the head, waiting as long as it takes (BLPOP), then gives its place back.
  T take() { return async_take(this->blocking("take")); }
  /// Takes the head of this queue or of the first of `other_queues` that has one (one BLPOP),
  /// waiting up to `wait`: the queue's name and the element, or nullopt. A place is given back
  /// here only when the element came from this queue (Redisson gives one back here whichever
  /// queue it came from). On a Cluster the queues must share a hash slot (CROSSSLOT otherwise).
  std::optional<std::pair<std::string, T>> poll_from_any(std::chrono::milliseconds wait,
                                                         std::vector<std::string> other_queues) {
    return async_poll_from_any(wait, std::move(other_queues), this->blocking("poll_from_any"));
  }
  /// As poll_from_any from the tails (BRPOP).
  std::optional<std::pair<std::string, T>> poll_last_from_any(
      std::chrono::milliseconds wait, std::vector<std::string> other_queues) {
    return async_poll_last_from_any(wait, std::move(other_queues),
                                    this->blocking("poll_last_from_any"));
  }
  /// Takes up to `count` (>= 1) from the head of this queue or of the first of `other_queues`
  /// that has some (one BLMPOP LEFT), waiting up to `wait`; places given back as poll_from_any.
  std::optional<std::pair<std::string, std::vector<T>>> poll_first_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_queues) {
    return async_poll_first_from_any(wait, count, std::move(other_queues),
                                     this->blocking("poll_first_from_any"));
  }
  /// As poll_first_from_any from the tails (BLMPOP RIGHT).
  std::optional<std::pair<std::string, std::vector<T>>> poll_last_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_queues) {
    return async_poll_last_from_any(wait, count, std::move(other_queues),
                                    this->blocking("poll_last_from_any"));
  }
  /// Moves the tail element to the head of the list `destination`, waiting up to `wait` for one
  /// (BLMOVE; on a Cluster, in the same slot), and gives its place back; nullopt if none came.
  std::optional<T> poll_last_and_offer_first_to(const std::string& destination,
                                                std::chrono::milliseconds wait) {
    return async_poll_last_and_offer_first_to(destination, wait,
                                              this->blocking("poll_last_and_offer_first_to"));
  }
  /// As poll_last_and_offer_first_to, waiting as long as it takes.
  T take_last_and_offer_first_to(const std::string& destination) {
    return async_take_last_and_offer_first_to(destination,
                                              this->blocking("take_last_and_offer_first_to"));
  }
  /// Takes every element (one script, giving their places back) and appends them to `into`;
  /// returns how many.
  std::int64_t drain_to(std::vector<T>& into) { return drain_into(into, 0); }
  /// Takes up to `max_elements` (>= 1) from the head, as drain_to(into).
  std::int64_t drain_to(std::vector<T>& into, std::int64_t max_elements) {
    if (max_elements < 1) detail::throw_invalid_argument("drain_to: max_elements must be >= 1");
    return drain_into(into, max_elements);
  }
  /// Removes the first element equal to `value` and gives its place back; true if there was one.
  bool remove(const T& value) { return async_remove(value, this->blocking("remove")); }
  /// Removes every element equal to one of `values`; returns how many (places given back).
  std::int64_t remove_all(std::vector<T> values) {
    return async_remove_all(std::move(values), this->blocking("remove_all"));
  }
  /// Keeps only the elements equal to one of `values` (none: removes all); true if any was
  /// removed (their places given back, where Redisson's retainAll keeps them taken).
  bool retain_all(std::vector<T> values) {
    return async_retain_all(std::move(values), this->blocking("retain_all"));
  }
  /// Removes every element and gives their places back; the capacity stays set (delete_object()
  /// removes it too).
  void clear() { async_clear(this->blocking("clear")); }
  /// Calls `consumer` with every element this client takes from the head from now on (a take
  /// loop on the client's listener threads, each place given back before the consumer's call),
  /// as BlockingQueue::subscribe_on_elements. Returns the id for unsubscribe.
  ListenerId subscribe_on_elements(std::function<void(T)> consumer) {
    if (!consumer) detail::throw_invalid_argument("subscribe_on_elements: the consumer is empty");
    auto deliver = detail::element_consumer<T>(this->codec_ptr(), std::move(consumer));
    return detail::add_element_subscription(
        this->object_, detail::ElementPop::first,
        [object = this->object_, deliver = std::move(deliver)](const Reply& reply) {
          detail::give_back_bounded_places(*object, 1);
          deliver(reply);
        });
  }
  /// Stops the subscription `id`; false when it is not one of this client's. An element popped
  /// as it stopped goes back to the head (its place still taken, as before the pop).
  bool unsubscribe(ListenerId id) { return detail::remove_element_subscription(this->object_, id); }

 private:
  std::int64_t drain_into(std::vector<T>& into, std::int64_t max_elements) {
    auto drained = async_drain(max_elements, this->blocking("drain_to"));
    into.insert(into.end(), std::make_move_iterator(drained.begin()),
                std::make_move_iterator(drained.end()));
    return static_cast<std::int64_t>(drained.size());
  }
  /// The blocking command `build()` makes, its places given back as `take` says.
  template <class R, class CompletionToken, class Build, class Convert>
  auto taken(CompletionToken&& token, detail::BoundedTake take, Build build, Convert convert) const;
  /// BLMPOP `end` (LEFT or RIGHT) over this queue and `others`, places given back.
  template <class CompletionToken>
  auto multi_taken(CompletionToken&& token, std::chrono::milliseconds wait, std::int64_t count,
                   std::vector<std::string> others, const char* end, const char* operation);
  /// The offer script over `values`, tried once (`wait` zero) or waiting for room.
  template <class R, class CompletionToken>
  auto offered(CompletionToken&& token, std::vector<T> values,
               std::optional<std::chrono::milliseconds> wait, const char* operation);
  /// The remove script in `mode` over `values`.
  template <class R, class CompletionToken, class Convert>
  auto removed(CompletionToken&& token, const char* mode, std::vector<T> values, Convert convert);
};

}  // namespace redisson

#include "redisson/objects/impl/bounded_blocking_queue.hpp"

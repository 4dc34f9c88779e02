// redisson::TransferQueue<T>: a queue whose producers can wait until a consumer took their
// element, Java Redisson's RTransferQueue (built on RemoteService).
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/objects/object.hpp"
#include "redisson/services/remote_service.hpp"

namespace redisson {

namespace detail {
/// The remote service's request list and tasks hash of the queue `name`.
std::vector<std::string> transfer_queue_keys(const std::string& name);
inline constexpr ObjectHooks transfer_queue_hooks{.extra_keys = &transfer_queue_keys};
/// kryo5 or json; any other codec: errc::invalid_argument.
void check_transfer_queue_codec(const Codec& codec);
/// How long a producer waits: until queued (add), until a consumer ran its call (transfer), or
/// until a consumer ran it or it was taken back after the wait (try_transfer).
enum class TransferMode { queue, transfer, try_transfer };
/// Queues each of `elements` (the codec's bytes) as a call, waiting as `mode` says: true, or
/// false when try_transfer took one back. `cancel` (one element only) stops the wait and takes
/// back a call no consumer has taken yet.
void start_transfer_queue_offer(const ObjectPtr& object, std::vector<std::string> elements,
                                TransferMode mode, std::chrono::milliseconds wait,
                                const CancellationPtr& cancel, Done<bool> done);
/// Runs one queued call here (Java's tryExecute), taken within `wait` (zero: only one queued
/// already; nullopt: as long as it takes; negative: errc::invalid_argument), and answers it:
/// its element's bytes, or nil. `cancel` (may be null) ends the wait with operation_aborted; a
/// call popped before the cancellation reached the server is still taken and completes.
void start_transfer_queue_poll(const ObjectPtr& object,
                               std::optional<std::chrono::milliseconds> wait,
                               const CancellationPtr& cancel, Done<Reply> done);
/// The head's element's bytes, or nil.
void start_transfer_queue_peek(const ObjectPtr& object, Done<Reply>& done);
/// Every queued element's bytes (an array), left queued; `drain`: up to `max_elements` (0:
/// all) taken from the head, not answered.
void start_transfer_queue_read(const ObjectPtr& object, bool drain, std::int64_t max_elements,
                               Done<Reply>& done);
/// Whether an element has the bytes `encoded[0]`: an integer reply 1 or 0.
void start_transfer_queue_contains(const ObjectPtr& object, std::vector<std::string>& encoded,
                                   Done<Reply>& done);
/// Takes every queued element whose bytes are one of `encoded` out of the queue, unanswered
/// (every request read, then transfer_queue_remove.lua over the matches' ids): an integer reply,
/// how many. None: 0, nothing sent.
void start_transfer_queue_remove_all(const ObjectPtr& object, std::vector<std::string>& encoded,
                                     Done<Reply>& done);
/// LLEN of the request list.
void start_transfer_queue_size(const ObjectPtr& object, Done<Reply>& done);
/// DEL of both keys.
void start_transfer_queue_clear(const ObjectPtr& object, Done<Reply>& done);
}  // namespace detail

/// A FIFO queue of T in Java Redisson's RTransferQueue layout: each element is a queued call of
/// `invoke(Object)` of the interface org.redisson.RedissonTransferQueue$TransferQueueService on
/// the RemoteService `{name}:remoteService` (no ack, results within 30 s): the request ids in the
/// list `{{name}:remoteService:org.redisson.RedissonTransferQueue$TransferQueueService}` and the
/// requests' bytes in the hash of that name plus `:tasks`. A consumer (poll, take) runs one call
/// here and answers it, so a producer's transfer() returns once a consumer took its element, in
/// this process or in a Java one. Java and C++ producers and consumers share one queue when
/// both use the same codec for the requests (Java always writes them with its config codec,
/// Kryo5 unless set).
///
/// Costs: add is one script (HSET + RPUSH); transfer adds a wait on the client's response list
/// (one BLPOP loop shared by all its calls); poll is an LPOP or BLPOP, a script taking the
/// request and the answer's RPUSH; contains and remove_all read every request. `codec` must be
/// kryo5 or json (the codecs whose bytes Java's remote classes have): another is
/// errc::invalid_argument.
///
/// The name key itself is never written; delete_object(), expire() and rename() act on it and
/// the two keys above.
template <JavaValue T>
class TransferQueue : public Object {
 public:
  /// A handle on the transfer queue `name`; sends nothing. `codec` null: the client's default.
  TransferQueue(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "TransferQueue",
               &detail::transfer_queue_hooks) {
    detail::check_transfer_queue_codec(this->codec());
  }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token) {
    return offered(token, {value}, detail::TransferMode::queue, {});
  }
  template <class CompletionToken>
  auto async_offer(const T& value, CompletionToken&& token) {
    return async_add(value, token);
  }
  template <class CompletionToken>
  auto async_put(const T& value, CompletionToken&& token) {
    return async_add(value, token);
  }
  template <class CompletionToken>
  auto async_add_all(std::vector<T> values, CompletionToken&& token) {
    return offered(token, std::move(values), detail::TransferMode::queue, {});
  }
  template <class CompletionToken>
  auto async_transfer(const T& value, CompletionToken&& token) {
    return offered(token, {value}, detail::TransferMode::transfer, {});
  }
  template <class CompletionToken>
  auto async_try_transfer(const T& value, CompletionToken&& token) {
    return offered(token, {value}, detail::TransferMode::try_transfer, {});
  }
  template <class CompletionToken>
  auto async_try_transfer(const T& value, std::chrono::milliseconds wait, CompletionToken&& token) {
    return offered(token, {value}, detail::TransferMode::try_transfer, wait);
  }
  template <class CompletionToken>
  auto async_poll(CompletionToken&& token) {
    return polled(token, std::chrono::milliseconds(0));
  }
  template <class CompletionToken>
  auto async_poll(std::chrono::milliseconds wait, CompletionToken&& token) {
    return polled(token, wait);
  }
  template <class CompletionToken>
  auto async_take(CompletionToken&& token) {
    return taken<T>(token, std::nullopt);
  }
  template <class CompletionToken>
  auto async_peek(CompletionToken&& token) const {
    return started<std::optional<T>>(token, this->template value_reader<T>(),
                                     &detail::start_transfer_queue_peek);
  }
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const {
    return started<std::vector<T>>(token, this->template values_reader<T>(),
                                   &detail::start_transfer_queue_read, false, std::int64_t{0});
  }
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const {
    return detail::async_with_encoded<bool>(this->object_, token, std::vector<T>{value},
                                            &detail::start_transfer_queue_contains,
                                            &detail::reply_flag);
  }
  template <class CompletionToken>
  auto async_remove_all(std::vector<T> values, CompletionToken&& token) {
    return detail::async_with_encoded<std::int64_t>(this->object_, token, std::move(values),
                                                    &detail::start_transfer_queue_remove_all,
                                                    &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return started<std::int64_t>(token, &detail::reply_integer, &detail::start_transfer_queue_size);
  }
  template <class CompletionToken>
  auto async_is_empty(CompletionToken&& token) const {
    return started<bool>(
        token, [](const Reply& reply) { return detail::reply_integer(reply) == 0; },
        &detail::start_transfer_queue_size);
  }
  template <class CompletionToken>
  auto async_drain(std::int64_t max_elements, CompletionToken&& token) {
    return started<std::vector<T>>(token, this->template values_reader<T>(),
                                   &detail::start_transfer_queue_read, true, max_elements);
  }
  template <class CompletionToken>
  auto async_clear(CompletionToken&& token) {
    return started<void>(token, &detail::reply_ignore, &detail::start_transfer_queue_clear);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Queues `value` (one script) and waits until a consumer took it (its call answered); no
  /// consumer within 30 s (Java's execution timeout) is errc::timeout, the element left queued.
  /// Asio cancellation of async_transfer / async_try_transfer stops the wait
  /// (operation_aborted) and takes the element back when no consumer has taken it yet.
  void transfer(const T& value) { async_transfer(value, blocking("transfer")); }
  /// Queues `value` and takes it back at once unless a consumer took it meanwhile: true when
  /// one did (then waits for its answer, as transfer), false (nothing left queued) when none.
  bool try_transfer(const T& value) { return async_try_transfer(value, blocking("try_transfer")); }
  /// Queues `value`; after `wait` (negative: errc::invalid_argument, nothing queued) takes it
  /// back unless a consumer took it: true when one did within the wait.
  bool try_transfer(const T& value, std::chrono::milliseconds wait) {
    return async_try_transfer(value, wait, blocking("try_transfer"));
  }
  /// Queues `value` without waiting for a consumer; true. A Java consumer answers the call as
  /// usual; the answer lapses unread (its response list expires after 30 s).
  bool add(const T& value) { return async_add(value, blocking("add")); }
  /// As add (the queue has no bound).
  bool offer(const T& value) { return async_offer(value, blocking("offer")); }
  /// As add (the queue has no bound: it never waits).
  void put(const T& value) { async_put(value, blocking("put")); }
  /// Queues each of `values` in order, as add; false when there are none.
  bool add_all(std::vector<T> values) {
    return async_add_all(std::move(values), blocking("add_all"));
  }
  /// Takes the head element if one is queued (LPOP), answering its producer; nullopt if none.
  std::optional<T> poll() { return async_poll(blocking("poll")); }
  /// Takes the head element, waiting up to `wait` for one (BLPOP; negative:
  /// errc::invalid_argument); nullopt if none came. Asio cancellation of async_poll(wait, ...)
  /// ends the wait on the server (CLIENT UNBLOCK) with operation_aborted; an element popped
  /// just before the cancellation arrived is still taken and handed to the handler, so none is
  /// lost.
  std::optional<T> poll(std::chrono::milliseconds wait) {
    return async_poll(wait, blocking("poll"));
  }
  /// Takes the head element, waiting as long as it takes; async_take is cancelled as
  /// async_poll(wait, ...) is.
  T take() { return async_take(blocking("take")); }
  /// The head element, left queued (its producer still waits); nullopt when empty.
  std::optional<T> peek() const { return async_peek(blocking("peek")); }
  /// Every queued element, head first, left queued.
  std::vector<T> read_all() const { return async_read_all(blocking("read_all")); }
  /// Whether an element equal to `value` (the same bytes) is queued.
  bool contains(const T& value) const { return async_contains(value, blocking("contains")); }
  /// Takes every queued element equal to one of `values` (the same bytes, as contains) out of
  /// the queue without running its call; returns how many. Reads every request, then one script
  /// takes the matches out (one a consumer took meanwhile is not counted). Their producers are
  /// not answered: a transfer() waiting on one times out, as after drain_to. No values: 0,
  /// nothing sent. For Java's removeIf: read_all, then remove_all what the predicate picks.
  std::int64_t remove_all(std::vector<T> values) {
    return async_remove_all(std::move(values), blocking("remove_all"));
  }
  /// How many elements are queued (LLEN of the request list).
  std::int64_t size() const { return async_size(blocking("size")); }
  bool is_empty() const { return async_is_empty(blocking("is_empty")); }
  /// Java's Integer.MAX_VALUE: the queue has no bound. Sends nothing.
  std::int64_t remaining_capacity() const { return std::numeric_limits<std::int32_t>::max(); }
  /// Takes every queued element and appends them to `into` (one script); returns how many.
  /// Their producers are not answered: a transfer() waiting on one times out.
  std::int64_t drain_to(std::vector<T>& into) { return drain_into(into, 0); }
  /// Takes up to `max_elements` (>= 1) from the head, as drain_to(into).
  std::int64_t drain_to(std::vector<T>& into, std::int64_t max_elements) {
    if (max_elements < 1) detail::throw_invalid_argument("drain_to: max_elements must be >= 1");
    return drain_into(into, max_elements);
  }
  /// Deletes the request list and the tasks hash (Java's clear); waiting producers time out.
  void clear() { async_clear(blocking("clear")); }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  template <class CompletionToken>
  auto offered(CompletionToken&& token, std::vector<T> values, detail::TransferMode mode,
               std::chrono::milliseconds wait) {
    return this->template run_cancellable<bool>(
        token,
        [](const detail::ObjectPtr& object, const std::vector<T>& values, detail::TransferMode mode,
           std::chrono::milliseconds wait, const detail::CancellationPtr& cancel,
           detail::Done<bool> done) {
          std::vector<std::string> encoded;
          try {
            encoded.reserve(values.size());
            for (const auto& value : values) {
              encoded.push_back(detail::encode_value(*object->codec, value));
            }
          } catch (const error& failure) {
            return done(detail::status_of_error(failure), false);
          }
          detail::start_transfer_queue_offer(object, std::move(encoded), mode, wait, cancel,
                                             std::move(done));
        },
        std::move(values), mode, wait);
  }
  template <class CompletionToken>
  auto polled(CompletionToken&& token, std::chrono::milliseconds wait) {
    return taken<std::optional<T>>(token, wait);
  }
  /// poll / take: R is std::optional<T> (nil: nothing came) or T (take). A waiting one honours
  /// Asio per-operation cancellation.
  template <class R, class CompletionToken>
  auto taken(CompletionToken&& token, std::optional<std::chrono::milliseconds> wait) {
    return this->template run_cancellable<R>(
        token,
        [](const detail::ObjectPtr& object, std::optional<std::chrono::milliseconds> wait,
           const detail::CancellationPtr& cancel, detail::Done<R> done) {
          detail::start_transfer_queue_poll(object, wait, cancel,
                                            [codec = object->codec, done = std::move(done)](
                                                detail::Status status, const Reply& reply) mutable {
                                              auto convert = [&codec](const Reply& element) -> R {
                                                if constexpr (std::is_same_v<R, T>) {
                                                  return from_value<T>(codec->decode(element.str));
                                                } else {
                                                  return detail::decode_reply<T>(*codec, element);
                                                }
                                              };
                                              detail::complete_converted<R>(done, std::move(status),
                                                                            reply, convert);
                                            });
        },
        wait);
  }
  std::int64_t drain_into(std::vector<T>& into, std::int64_t max_elements) {
    auto drained = async_drain(max_elements, blocking("drain_to"));
    into.insert(into.end(), std::make_move_iterator(drained.begin()),
                std::make_move_iterator(drained.end()));
    return static_cast<std::int64_t>(drained.size());
  }
};

}  // namespace redisson

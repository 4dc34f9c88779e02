// subscribe_on_elements and its first/last forms (Redisson's ElementsSubscribeService): a loop
// per subscription that takes one element with a blocking pop (BLPOP, BRPOP, BZPOPMIN,
// BZPOPMAX; no wait limit), hands it to the user's consumer on the client's listener threads,
// and takes the next once the consumer has returned, as Java does. One registry per client (a
// ClientService).
//
// An element taken from the server is never dropped: when the subscription was removed while
// its pop was already answered, the element is given back to the end it came from (LPUSH,
// RPUSH, ZADD with its score) instead of reaching a consumer that was told to stop.
//
// A priority queue's subscription takes with start_sorted_list_take instead (a pop only while
// its lock is free, waiting on the lock's release channel): it holds no blocking connection, and
// an element it gives back goes to its end without the lock.
//
// Each other subscription holds one of the client's blocking connections (Config::
// blocking_connections) for as long as it lives. A failed pop (a key of another type, a server
// that went away past the retries) goes to Config::error_handler and is tried again after a
// second.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "client/client_services.hpp"
#include "redisson/detail/element_subscription.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/listener.hpp"

namespace redisson::detail {

class ClientCore;
class ListenerPool;

class ElementSubscriptions : public ClientService {
 public:
  explicit ElementSubscriptions(ClientCore& core);
  ~ElementSubscriptions() override;

  /// Starts taking from `object` with `pop`; `deliver` gets each popped element's reply
  /// ([key, element] or [key, member, score]) on the subscription's listener strand and may
  /// throw (errc::listener_failed to the error handler). Any thread.
  ListenerId add(const ObjectPtr& object, ElementPop pop,
                 std::function<void(const Reply&)> deliver);
  /// Stops the subscription `id`; false when it is not (or no longer) one. No call of its
  /// consumer starts after this returns (one running may finish). Any thread.
  bool remove(ListenerId id);

  void closing() noexcept override;

  struct Subscription;

 private:
  ClientCore& core_;
  ListenerPool& pool_;
  std::mutex mutex_;
  std::uint64_t next_id_ = 1;
  std::map<ListenerId, std::shared_ptr<Subscription>> subscriptions_;
};

}  // namespace redisson::detail

#include "objects/element_subscriptions.hpp"

#include <asio/error.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <utility>
#include <vector>

#include "client/blocking_pool.hpp"
#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "pubsub/listener_pool.hpp"
#include "redisson/detail/blocking_op.hpp"
#include "redisson/error.hpp"
#include "redisson/objects/sorted_list.hpp"

namespace redisson::detail {

namespace {

constexpr std::chrono::seconds kPopRetry{1};

const char* pop_verb(ElementPop pop) {
  switch (pop) {
    case ElementPop::first:
      return "BLPOP";
    case ElementPop::last:
      return "BRPOP";
    case ElementPop::min_score:
      return "BZPOPMIN";
    case ElementPop::max_score:
      return "BZPOPMAX";
    case ElementPop::sorted_first:
    case ElementPop::sorted_last:
      break;  // not a blocking pop: start_sorted_list_take
  }
  return "BLPOP";
}

bool sorted(ElementPop pop) {
  return pop == ElementPop::sorted_first || pop == ElementPop::sorted_last;
}

// The command that puts a popped element back where it was: [key, element] for the lists,
// [key, member, score] for the sorted sets.
Command give_back_command(ElementPop pop, const Reply& reply) {
  const auto& key = reply.elements.at(0).str;
  switch (pop) {
    case ElementPop::first:
    case ElementPop::sorted_first:
      return Command{"LPUSH", key, reply.elements.at(1).str};
    case ElementPop::last:
    case ElementPop::sorted_last:
      return Command{"RPUSH", key, reply.elements.at(1).str};
    case ElementPop::min_score:
    case ElementPop::max_score:
      return Command{"ZADD", key, reply.elements.at(2).str, reply.elements.at(1).str};
  }
  return Command{};
}

}  // namespace

struct ElementSubscriptions::Subscription {
  Subscription(ObjectPtr object, ElementPop pop, std::function<void(const Reply&)> deliver,
               ListenerPool::Strand strand)
      : object(std::move(object)),
        pop(pop),
        deliver(std::move(deliver)),
        strand(std::move(strand)),
        retry(this->object->core->io()) {}

  const ObjectPtr object;
  const ElementPop pop;
  const std::function<void(const Reply&)> deliver;
  ListenerPool::Strand strand;
  // Cleared by remove() (any thread); read before a pop is sent and before a consumer call.
  std::atomic<bool> active{true};
  // I/O thread only: the pop under way (a blocking call, or a sorted list's waiting take).
  BlockingPool::CallPtr call;
  CancellationPtr waiting;
  asio::steady_timer retry;

  void take(const std::shared_ptr<Subscription>& self) {
    if (!active.load(std::memory_order_acquire)) return;
    if (sorted(pop)) return take_sorted(self);
    auto command =
        wait_last_command(pop_verb(pop), object->name, {}, std::nullopt, "subscribe_on_elements");
    BlockingPool::Request request;
    request.args = std::move(command.args);
    request.timeout_index = command.timeout_index;
    request.key_index = command.key_index;
    request.callback = [self](std::error_code ec, const Reply& reply) {
      self->call.reset();
      self->popped(self, blocking_status(ec, reply), reply);
    };
    call = object->core->blocking_pool().run(std::move(request));
  }

  // The element comes as [key, element], the blocking pops' form, for the consumer and a give-back.
  void take_sorted(const std::shared_ptr<Subscription>& self) {
    waiting = std::make_shared<Cancellation>();
    start_sorted_list_take(object, SortedListTake{pop == ElementPop::sorted_last, {}}, std::nullopt,
                           waiting, [self](const Status& status, Reply element) {
                             self->waiting.reset();
                             Reply reply;
                             if (!status && !element.is_null()) {
                               reply.type = ReplyType::array;
                               reply.elements.resize(2);
                               reply.elements[0].type = ReplyType::bulk_string;
                               reply.elements[0].str = self->object->name;
                               reply.elements[1] = std::move(element);
                             }
                             self->popped(self, status, reply);
                           });
  }

  void stop() {
    retry.cancel();
    if (call) object->core->blocking_pool().cancel(call);
    if (waiting) waiting->request();
  }

  void popped(const std::shared_ptr<Subscription>& self, const Status& status, const Reply& reply) {
    if (status) {
      if (!active.load(std::memory_order_acquire)) return;  // cancelled by remove()
      report_failure(object->core->config(),
                     Blocking("subscribe_on_elements", object->name, nullptr).to_error(status));
      retry.expires_after(kPopRetry);
      retry.async_wait([self](std::error_code waited) {
        if (!waited) self->take(self);
      });
      return;
    }
    if (reply.is_null()) return take(self);  // not expected without a wait limit: pop again
    asio::post(strand, [self, reply] {
      if (!self->active.load(std::memory_order_acquire)) return self->give_back(reply);
      ListenerPool::run(self->object->core->config(), "element subscription", self->object->name,
                        [&] { self->deliver(reply); });
      asio::post(self->object->core->io(), [self] { self->take(self); });
    });
  }

  // An element popped for a subscription removed meanwhile goes back where it was; when that
  // fails, the error handler hears of it (the element is then lost, and said to be).
  void give_back(const Reply& reply) {
    const auto* config = &object->core->config();
    const auto& name = object->name;
    try {
      submit_command(object, give_back_command(pop, reply),
                     [config, name](const Status& status, const Reply&) {
                       if (!status) return;
                       report_failure(*config,
                                      Blocking("unsubscribe", name, nullptr).to_error(status));
                     });
    } catch (const error& failure) {
      report_failure(*config, failure);
    } catch (const std::exception&) {
      report_failure(*config, error(errc::wrong_type, "unsubscribe '" + name +
                                                          "': a popped element to give back "
                                                          "was not [key, element]"));
    }
  }
};

ElementSubscriptions::ElementSubscriptions(ClientCore& core)
    : core_(core), pool_(core.service<ListenerPool>()) {}

ElementSubscriptions::~ElementSubscriptions() = default;

ListenerId ElementSubscriptions::add(const ObjectPtr& object, ElementPop pop,
                                     std::function<void(const Reply&)> deliver) {
  auto subscription =
      std::make_shared<Subscription>(object, pop, std::move(deliver), pool_.strand());
  ListenerId id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    subscriptions_.emplace(id, subscription);
  }
  asio::post(core_.io(), [subscription] { subscription->take(subscription); });
  return id;
}

bool ElementSubscriptions::remove(ListenerId id) {
  std::shared_ptr<Subscription> subscription;
  {
    std::lock_guard lock(mutex_);
    const auto found = subscriptions_.find(id);
    if (found == subscriptions_.end()) return false;
    subscription = std::move(found->second);
    subscriptions_.erase(found);
  }
  subscription->active.store(false, std::memory_order_release);
  asio::post(core_.io(), [subscription] { subscription->stop(); });
  return true;
}

void ElementSubscriptions::closing() noexcept {
  try {
    std::map<ListenerId, std::shared_ptr<Subscription>> stopping;
    {
      std::lock_guard lock(mutex_);
      stopping.swap(subscriptions_);
    }
    for (auto& [id, subscription] : stopping) {
      subscription->active.store(false, std::memory_order_release);
      subscription->stop();
    }
  } catch (const std::exception&) {
    // No mutex or no memory: the connections close right after, which ends every pop.
  }
}

ListenerId add_element_subscription(const ObjectPtr& object, ElementPop pop,
                                    std::function<void(const Reply&)> deliver) {
  if (object->batch) throw_invalid_argument("subscribe_on_elements: not in a batch");
  return object->core->service<ElementSubscriptions>().add(object, pop, std::move(deliver));
}

bool remove_element_subscription(const ObjectPtr& object, ListenerId id) {
  return object->core->service<ElementSubscriptions>().remove(id);
}

}  // namespace redisson::detail

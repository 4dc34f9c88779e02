// LongAdder and DoubleAdder (objects/adder.hpp): the client's hub of each adder name, its
// answers to Redisson's sum and clear messages, and sum() / reset() themselves, as Java
// Redisson 3.52's RedissonBaseAdder does them.
#include "redisson/objects/adder.hpp"

#include <future>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "client/failure_report.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/detail/object_listen.hpp"
#include "redisson/objects/topic.hpp"
#include "redisson/semaphore.hpp"

namespace redisson::detail {

namespace {

// RedissonBaseAdder's CLEAR_MSG and SUM_MSG: a message is "<op>:<id>".
constexpr std::string_view kAdderClear = "0";
constexpr std::string_view kAdderSum = "1";

// `object` under another name (what rename() does to a handle): the per-call keys.
ObjectPtr adder_renamed(const ObjectPtr& object, std::string name) {
  auto copy = std::make_shared<ObjectState>(*object);
  copy->name = std::move(name);
  if (copy->hooks != nullptr && copy->hooks->make_attached != nullptr) {
    copy->attached = copy->hooks->make_attached(*copy, nullptr);
  }
  return copy;
}

// A Semaphore on the name of one call, `{name}:<id>:semaphore`, made from the hub's (the
// constructor wants the Client, which the hub does not keep).
class AdderSemaphore : public Semaphore {
 public:
  AdderSemaphore(const Semaphore& prototype, std::string name) : Semaphore(prototype) {
    object_ = adder_renamed(object_, std::move(name));
  }
};

const char* adder_kind(bool real) { return real ? "DoubleAdder" : "LongAdder"; }

}  // namespace

// The adders of one name on one client (Java's AdderEntry and the instances' listeners): one
// subscription to `{name}:adder-topic`, answered once per message for all of its instances,
// so that each client releases the semaphore once, as PUBLISH counted it once.
//
// Lifetime: the instances hold it, and so does its listener in the client's registry until the
// last instance leaves (or the client shuts down), so an answer in flight never outlives it.
class AdderHub : public std::enable_shared_from_this<AdderHub> {
  // Made before `subscribed`, which is its future.
  std::promise<Status> subscribed_promise_;

 public:
  AdderHub(const Client& client, const std::string& adder_name, bool is_real)
      : name(adder_name),
        real(is_real),
        channel(make_object(client, suffix_name(adder_name, "adder-topic"), codecs::string(),
                            adder_kind(is_real))),
        semaphore(client, suffix_name(adder_name, "semaphore")),
        sharded(channel->core->publish_command() == "spublish"),
        subscribed(subscribed_promise_.get_future().share()) {}

  const std::string name;
  const bool real;
  const ObjectPtr channel;    // `{name}:adder-topic`; renamed copies name the counter keys
  const Semaphore semaphore;  // renamed per call: `{name}:<id>:semaphore`
  // As Java: a sharded topic (SSUBSCRIBE, SPUBLISH) where Redisson's lock channels are sharded
  // (a Cluster of Redis 7 under ShardedSubscriptionMode automatic or on), a plain one elsewhere.
  const bool sharded;
  const std::shared_future<Status> subscribed;

  const std::shared_ptr<ClientCore>& core() const noexcept { return channel->core; }
  std::string counter_key(std::string_view id) const {
    return suffix_name(name, std::string(id) + ":counter");
  }
  AdderSemaphore semaphore_of(std::string_view id) const {
    return AdderSemaphore(semaphore, suffix_name(name, std::string(id) + ":semaphore"));
  }

  /// Adds an instance; false when the hub is closed (its last instance left, or it could not
  /// subscribe): the caller makes a new one.
  bool attach(const std::shared_ptr<AdderCounter>& counter) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    counters_.push_back(counter);
    return true;
  }
  /// Removes an instance; true when it was the last one (the hub is closed now), with the
  /// listener to remove.
  bool detach(const AdderCounter* counter, std::optional<ListenerId>& listener) {
    std::lock_guard lock(mutex_);
    std::erase_if(counters_, [counter](const auto& held) { return held.get() == counter; });
    if (!counters_.empty() || closed_) return false;
    closed_ = true;
    listener = listener_;
    return true;
  }

  /// Subscribes the channel (its first instance's constructor waits on `subscribed`).
  void subscribe() {
    TopicCallbacks callbacks;
    // Runs on the listener's strand; what it throws goes to Config::error_handler.
    callbacks.on_message = [hub = shared_from_this()](std::string_view, std::string_view message) {
      hub->heard(message);
    };
    start_topic_listen(channel, sharded ? TopicKind::sharded : TopicKind::plain,
                       std::move(callbacks),
                       [hub = shared_from_this()](Status status, ListenerId id) {
                         hub->subscribe_done(std::move(status), id);
                       });
  }

  /// Takes the hub out of the client's registry, if it is still the one there.
  void forget() noexcept;

 private:
  void subscribe_done(Status status, ListenerId id) {
    bool remove_now = false;
    {
      std::lock_guard lock(mutex_);
      if (status) {
        closed_ = true;
      } else {
        listener_ = id;
        remove_now = closed_;  // every instance left while it subscribed
      }
    }
    if (status) forget();
    if (remove_now) start_listener_remove(core(), id, [](const Status&, bool) {});
    subscribed_promise_.set_value(std::move(status));
  }

  // A message on the channel (Redisson's listener: split(":"), parts[0] the op, parts[1] the id).
  void heard(std::string_view message) {
    const auto colon = message.find(':');
    if (colon == std::string_view::npos) {
      throw error(errc::codec_error, std::string(adder_kind(real)) + " '" + name +
                                         "': a message on " + channel->name + " is not <op>:<id>");
    }
    const auto op = message.substr(0, colon);
    auto id = message.substr(colon + 1);
    id = id.substr(0, id.find(':'));
    if (op == kAdderSum) return answer_sum(std::string(id));
    if (op == kAdderClear) {
      {
        std::lock_guard lock(mutex_);
        for (const auto& counter : counters_) {
          counter->integer.store(0, std::memory_order_relaxed);
          counter->real.store(0.0, std::memory_order_relaxed);
        }
      }
      release(std::string(id));
    }
  }

  // Adds this client's count to `{name}:<id>:counter` (Java's getAndAdd: INCRBY, or
  // INCRBYFLOAT of the BigDecimal text), then releases the caller's semaphore.
  void answer_sum(std::string id) {
    std::int64_t integer = 0;
    double real_total = 0.0;
    {
      std::lock_guard lock(mutex_);
      for (const auto& counter : counters_) {
        // Wraps as Java's LongAdder does on overflow.
        integer = static_cast<std::int64_t>(
            static_cast<std::uint64_t>(integer) +
            static_cast<std::uint64_t>(counter->integer.load(std::memory_order_relaxed)));
        real_total += counter->real.load(std::memory_order_relaxed);
      }
    }
    auto key = counter_key(id);
    Command command;
    try {
      command = real ? Command{"INCRBYFLOAT", key, plain_decimal_argument(real_total)}
                     : Command{"INCRBY", key, std::to_string(integer)};
    } catch (const error& failure) {  // NaN or an infinity: nothing to send
      return report("answer a sum", status_of_error(failure));
    }
    auto counter = adder_renamed(channel, std::move(key));
    submit_command(
        counter, command,
        [hub = shared_from_this(), id = std::move(id)](const Status& status, const Reply&) {
          // As Java: a count not added is not released either (the caller times
          // out rather than read a wrong sum).
          if (status) return hub->report("answer a sum", status);
          hub->release(id);
        });
  }

  void release(const std::string& id) {
    auto semaphore_of_call = semaphore_of(id);
    semaphore_of_call.async_release(1, [hub = shared_from_this()](std::error_code ec) {
      if (ec) hub->report("release the caller's semaphore", Status(ec));
    });
  }

  void report(const char* what, const Status& status) noexcept {
    report_failure(core()->config(), Blocking(what, name, nullptr).to_error(status));
  }

  std::mutex mutex_;
  std::vector<std::shared_ptr<AdderCounter>> counters_;  // guarded by mutex_
  std::optional<ListenerId> listener_;                   // guarded by mutex_
  bool closed_ = false;                                  // guarded by mutex_
};

namespace {

// The client's hubs by adder name (Java's ServiceManager.getAddersUsage()).
class AdderHubs : public ClientService {
 public:
  std::mutex mutex;
  std::unordered_map<std::string, std::weak_ptr<AdderHub>> hubs;  // guarded by mutex
};

}  // namespace

void AdderHub::forget() noexcept {
  try {
    auto& registry = core()->service<AdderHubs>();
    std::lock_guard lock(registry.mutex);
    const auto found = registry.hubs.find(name);
    if (found == registry.hubs.end()) return;
    const auto held = found->second.lock();
    if (!held || held.get() == this) registry.hubs.erase(found);
  } catch (...) {  // out of memory making the registry: nothing to take out of it
  }
}

std::shared_ptr<AdderHub> join_adder_hub(const Client& client, const std::string& name, bool real,
                                         const std::shared_ptr<AdderCounter>& counter) {
  const char* kind = adder_kind(real);
  if (name.empty()) throw error(errc::invalid_argument, std::string(kind) + ": empty name");
  const auto& core = ClientAccess::core(client);
  if (core_on_io_thread(*core)) {
    throw error(errc::would_deadlock,
                std::string(kind) + " '" + name + "': made on the client's I/O thread");
  }
  auto& registry = core->service<AdderHubs>();
  std::shared_ptr<AdderHub> hub;
  bool made = false;
  {
    std::lock_guard lock(registry.mutex);
    auto& slot = registry.hubs[name];
    hub = slot.lock();
    if (hub && hub->real != real) {
      throw error(errc::invalid_argument, std::string(kind) + " '" + name +
                                              "': this client has a " + adder_kind(!real) +
                                              " of that name");
    }
    if (!hub || !hub->attach(counter)) {
      hub = std::make_shared<AdderHub>(client, name, real);
      hub->attach(counter);
      slot = hub;
      made = true;
    }
  }
  if (made) hub->subscribe();
  const Status status = hub->subscribed.get();
  if (status) {
    leave_adder_hub(hub, counter.get());
    throw Blocking("subscribe", name, nullptr).to_error(status);
  }
  return hub;
}

void leave_adder_hub(const std::shared_ptr<AdderHub>& hub, const AdderCounter* counter) noexcept {
  if (!hub) return;
  try {
    std::optional<ListenerId> listener;
    if (!hub->detach(counter, listener)) return;
    hub->forget();
    if (listener) start_listener_remove(hub->core(), *listener, [](const Status&, bool) {});
  } catch (...) {  // out of memory: the listener stays until the client shuts down
  }
}

const std::shared_ptr<ClientCore>& adder_hub_core(const AdderHub& hub) noexcept {
  return hub.core();
}

namespace {

// What one sum() or reset() needs along the way.
struct AdderCall {
  std::shared_ptr<AdderHub> hub;
  std::string id;
  std::optional<std::chrono::milliseconds> timeout;

  // After a timeout: the call's keys, best effort (Java leaves them behind).
  void drop_keys() const {
    const Command del{"DEL", hub->counter_key(id), suffix_name(hub->name, id + ":semaphore")};
    submit_command(hub->channel, del, [](const Status&, const Reply&) {});
  }
};

// PUBLISH `<op>:<id>`, then waits for as many semaphore permits as it reached subscribers;
// `then(call, semaphore, done)` goes on.
template <class R, class Then>
void adder_publish_and_wait(AdderCall call, std::string_view op, Done<R> done, Then then) {
  if (call.timeout && call.timeout->count() < 0) {
    return fail<R>(done, Status(errc::invalid_argument, "the timeout must not be negative"));
  }
  const auto channel = call.hub->channel;
  Command publish{call.hub->sharded ? "SPUBLISH" : "PUBLISH", channel->name,
                  std::string(op) + ":" + call.id};
  submit_command(
      channel, publish,
      [call = std::move(call), done = std::move(done), then = std::move(then)](
          Status status, const Reply& reply) mutable {
        if (status) return fail<R>(done, std::move(status));
        if (!reply.is_integer()) {
          return fail<R>(done, Status(errc::protocol_error, "PUBLISH answered no count"));
        }
        auto semaphore = call.hub->semaphore_of(call.id);
        const auto receivers = reply.integer;
        const auto timeout = call.timeout;
        // The Semaphore's completion handler is copied: the Done travels shared.
        auto shared = std::make_shared<Done<R>>(std::move(done));
        semaphore.async_acquire(
            receivers, timeout,
            [call = std::move(call), semaphore, receivers, shared, then = std::move(then)](
                std::error_code ec, bool acquired) mutable {
              if (ec) return fail<R>(*shared, Status(ec));
              if (!acquired) {
                call.drop_keys();
                return fail<R>(*shared, Status(errc::timeout,
                                               "not every one of " + std::to_string(receivers) +
                                                   " subscribers of " + call.hub->channel->name +
                                                   " answered within " +
                                                   std::to_string(call.timeout->count()) + " ms"));
              }
              then(std::move(call), std::move(semaphore), std::move(*shared));
            });
      });
}

// Deletes the call's semaphore (Java's semaphore.deleteAsync()), then completes.
template <class R>
void adder_delete_then_complete(const AdderSemaphore& semaphore, Done<R> done, R value) {
  auto copy = semaphore;
  auto shared = std::make_shared<Done<R>>(std::move(done));
  copy.async_delete_object([shared, value](std::error_code ec, bool) {
    if (ec) return fail<R>(*shared, Status(ec));
    (*shared)(Status{}, value);
  });
}

template <class R, class Read>
void start_adder_sum_of(const std::shared_ptr<AdderHub>& hub,
                        std::optional<std::chrono::milliseconds> timeout, Done<R> done, Read read) {
  adder_publish_and_wait<R>(
      AdderCall{hub, make_request_id(), timeout}, kAdderSum, std::move(done),
      [read](const AdderCall& call, AdderSemaphore semaphore, Done<R> done) {
        // Java's getAndDelete of `{name}:<id>:counter` (its GET + DEL script).
        const auto counter = adder_renamed(call.hub->channel, call.hub->counter_key(call.id));
        submit_command(counter, Command{"GETDEL", counter->name},
                       [semaphore = std::move(semaphore), done = std::move(done), read](
                           Status status, const Reply& reply) mutable {
                         if (status) return fail<R>(done, std::move(status));
                         R value{};
                         try {
                           value = read(reply);
                         } catch (const error& failure) {
                           return fail<R>(done, status_of_error(failure));
                         }
                         adder_delete_then_complete<R>(semaphore, std::move(done), value);
                       });
      });
}

}  // namespace

void start_long_adder_sum(const std::shared_ptr<AdderHub>& hub,
                          std::optional<std::chrono::milliseconds> timeout,
                          Done<std::int64_t> done) {
  start_adder_sum_of<std::int64_t>(hub, timeout, std::move(done), &reply_counter);
}

void start_double_adder_sum(const std::shared_ptr<AdderHub>& hub,
                            std::optional<std::chrono::milliseconds> timeout, Done<double> done) {
  start_adder_sum_of<double>(hub, timeout, std::move(done), &reply_double);
}

void start_adder_reset(const std::shared_ptr<AdderHub>& hub,
                       std::optional<std::chrono::milliseconds> timeout, Done<void> done) {
  adder_publish_and_wait<void>(AdderCall{hub, make_request_id(), timeout}, kAdderClear,
                               std::move(done),
                               [](const AdderCall&, AdderSemaphore semaphore, Done<void> done) {
                                 auto shared = std::make_shared<Done<void>>(std::move(done));
                                 semaphore.async_delete_object([shared](std::error_code ec, bool) {
                                   (*shared)(ec ? Status(ec) : Status{});
                                 });
                               });
}

}  // namespace redisson::detail

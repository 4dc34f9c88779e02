#include "pubsub/reliable_topics.hpp"

#include <asio/error.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <vector>

#include "client/blocking_pool.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "client/failure_report.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "pubsub/reliable_poll.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

const Reply& stream_read_entries(const Reply& reply);  // objects/stream.cpp

namespace {

using Step = ReliablePoll::Step;
using Outcome = ReliablePoll::Outcome;

std::string timeout_key(const std::string& topic) { return "{" + topic + "}:timeout"; }

Outcome outcome_of(std::error_code ec, const Reply& reply) {
  if (!ec && !reply.is_error()) return Outcome::ok;
  if (ec == make_error_code(errc::shutdown) || ec == asio::error::operation_aborted) {
    return Outcome::ended;
  }
  if (reply.is_error() && reply.str.find("NOGROUP") != std::string::npos) return Outcome::no_group;
  if (ec == make_error_code(errc::connection_lost) || ec == make_error_code(errc::timeout)) {
    return Outcome::interrupted;
  }
  return Outcome::failed;
}

// [[id, [field, value, ...]], ...]: each entry's field `m`. An entry without one (not written
// by a reliable topic) is delivered with no bytes, which no codec reads: its listeners report it.
std::vector<ReliableEntry> entries_of(const Reply& entries) {
  std::vector<ReliableEntry> result;
  if (!entries.is_aggregate()) return result;
  result.reserve(entries.elements.size());
  for (const auto& entry : entries.elements) {
    if (!entry.is_aggregate() || entry.elements.size() < 2) continue;
    ReliableEntry item{StreamMessageId::parse(entry.elements[0].text()), {}};
    const auto& fields = entry.elements[1].elements;
    for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
      if (fields[i].text() == "m") {
        item.payload = fields[i + 1].str;
        break;
      }
    }
    result.push_back(std::move(item));
  }
  return result;
}

}  // namespace

struct ReliableTopics::ListenerEntry {
  ListenerEntry(ListenerPool::Strand strand, TopicCallbacks callbacks)
      : strand(std::move(strand)), callbacks(std::move(callbacks)) {}

  ListenerPool::Strand strand;
  TopicCallbacks callbacks;
  // Cleared on remove (I/O thread), read on the strand: no call starts after a remove.
  std::atomic<bool> active{true};
};

// One subscriber: the poll loop's driver. I/O thread only.
class ReliableTopics::Subscription : public std::enable_shared_from_this<Subscription> {
 public:
  Subscription(ClientCore& core, std::string topic, std::string subscriber)
      : core_(core),
        topic_(std::move(topic)),
        subscriber_(std::move(subscriber)),
        keys_{topic_, timeout_key(topic_)},
        retry_timer_(core.io()),
        watchdog_timer_(core.io()),
        update_timer_(core.io()) {}

  /// How often a busy subscriber runs the update script (expire, trim, check its registration).
  static constexpr std::chrono::milliseconds kUpdateEvery{100};

  bool own = false;  // the client's own subscriber of the topic (a random id)

  const std::string& topic() const noexcept { return topic_; }
  const std::string& subscriber() const noexcept { return subscriber_; }
  bool joined() const noexcept { return joined_; }

  std::map<std::uint64_t, std::shared_ptr<ListenerEntry>> listeners;
  // Added before the first join answered: registered (or failed) when it does.
  std::vector<std::pair<std::uint64_t, std::shared_ptr<ListenerEntry>>> joining;
  std::vector<Ready> joining_ready;
  // Called when the subscriber (with its first join) is registered, or failed to be.
  UniqueFunction<void(Subscription&, std::error_code)> on_first_join;

  void start() { act(poll_.start()); }

  /// `leave`: the last listener was removed (done runs after the leave script); else the client
  /// shuts down.
  void stop(bool leave, Removed done) {
    stop_requested_ = true;
    if (done) leaving_.push_back(std::move(done));
    retry_timer_.cancel();
    watchdog_timer_.cancel();
    update_timer_.cancel();
    if (read_call_) core_.blocking_pool().cancel(read_call_);
    act(poll_.stop(leave));
  }

 private:
  void act(Step step) {
    switch (step) {
      case Step::wait:
        return;
      case Step::join:
        return join();
      case Step::read_pending:
        return read_pending([self = shared_from_this()](Outcome outcome, auto entries) {
          self->act(self->poll_.pending(outcome, std::move(entries)));
        });
      case Step::read_new:
        return read_new();
      case Step::deliver:
        return deliver();
      case Step::finish:
        return finish();
      case Step::retry:
        retry_timer_.expires_after(ReliablePoll::kRetry);
        retry_timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
          if (const auto self = weak.lock(); self && !ec) self->act(self->poll_.retry_now());
        });
        return;
      case Step::leave:
        return leave();
      case Step::acknowledge:
        acknowledge();
        if (drained_) final_update();
        return stopped();
      case Step::stopped:
        return stopped();
    }
  }

  void join() {
    const auto why = poll_.rejoin();
    if (why != ReliablePoll::Rejoin::none) report_rejoin(why);
    run_join([self = shared_from_this()](std::error_code ec, const Reply& reply) {
      if (!ec && reply.is_error()) ec = make_error_code(errc::server_error);
      const auto step = self->poll_.joined(outcome_of(ec, reply), ec);
      if (step == Step::read_pending) self->mark_joined();
      self->act(step);
    });
  }

  void run_join(ReplyCallback callback) {
    const auto deadline = unix_time_ms() + core_.config().reliable_topic_watchdog_timeout.count();
    core_.eval(
        lua::reliable_topic_join(keys_, std::vector<std::string>{poll_.resume_from(), subscriber_,
                                                                 std::to_string(deadline)}),
        std::move(callback));
  }

  void report_rejoin(ReliablePoll::Rejoin why) {
    const char* cause = why == ReliablePoll::Rejoin::expired
                            ? "was removed after the watchdog timeout"
                            : "lost its consumer group";
    report_failure(core_.config(),
                   error(errc::subscriber_expired,
                         "reliable topic '" + topic_ + "': subscriber " + subscriber_ + " " +
                             cause + "; registering again after " + poll_.resume_from()));
  }

  template <class Then>
  void read_pending(Then then) {
    core_.eval(lua::reliable_topic_pending(
                   std::vector<std::string>{topic_},
                   std::vector<std::string>{subscriber_, std::to_string(kReadCount)}),
               [then = std::move(then)](std::error_code ec, const Reply& reply) mutable {
                 auto outcome = outcome_of(ec, reply);
                 std::vector<ReliableEntry> entries;
                 if (outcome == Outcome::ok) {
                   try {
                     entries = entries_of(reply);
                   } catch (const error&) {
                     outcome = Outcome::failed;  // not a stream id: tried again
                   }
                 }
                 then(outcome, std::move(entries));
               });
  }

  void read_new() {
    BlockingPool::Request request;
    request.args = {
        "XREADGROUP", "GROUP", subscriber_, "consumer", "COUNT", std::to_string(kReadCount),
        "BLOCK",      "",      "STREAMS",   topic_,     ">"};
    request.timeout_index = 7;
    request.wait_in_ms = true;
    request.key_index = 9;
    // A reply lost with its connection may have handed out entries (now pending for this
    // subscriber): the loop reads them first, before anything newer.
    request.resend_after_loss = false;
    request.callback = [weak = weak_from_this()](std::error_code ec, const Reply& reply) {
      const auto self = weak.lock();
      if (!self) return;
      self->read_call_.reset();
      auto outcome = outcome_of(ec, reply);
      std::vector<ReliableEntry> entries;
      if (outcome == Outcome::ok && !reply.is_null()) {
        try {
          entries = entries_of(stream_read_entries(reply));
        } catch (const error&) {
          outcome = Outcome::failed;
        }
      }
      self->act(self->poll_.read(outcome, std::move(entries)));
    };
    read_call_ = core_.blocking_pool().run(std::move(request));
  }

  // Each listener gets the whole batch on its strand; the last one to finish tells the loop.
  void deliver() {
    const auto batch = poll_.shared_delivery();
    auto remaining = std::make_shared<std::atomic<std::size_t>>(listeners.size());
    if (listeners.empty()) return act(poll_.delivered());
    const Config* config = &core_.config();
    asio::io_context* io = &core_.io();
    for (const auto& listener : listeners) {
      const auto& entry = listener.second;
      asio::post(entry->strand,
                 [entry, batch, remaining, config, io, topic = &topic_, weak = weak_from_this()] {
                   for (const auto& message : *batch) {
                     if (!entry->active.load(std::memory_order_acquire)) break;
                     ListenerPool::run(*config, "reliable topic", *topic, [&] {
                       entry->callbacks.on_message(*topic, message.payload);
                     });
                   }
                   if (remaining->fetch_sub(1, std::memory_order_acq_rel) != 1) return;
                   asio::post(*io, [weak] {
                     if (const auto self = weak.lock()) self->act(self->poll_.delivered());
                   });
                 });
    }
  }

  // XACK, the update script and the pending read in one round trip.
  void finish() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_update_ < kUpdateEvery) {
      // A busy topic: acknowledged now and read on at once; trimmed (and the registration
      // checked) at most every kUpdateEvery, and once more when it goes quiet.
      acknowledge();
      arm_trailing_update();
      return act(poll_.finished(Outcome::ok, true, Outcome::ok, {}));
    }
    last_update_ = now;
    struct Round {
      int left = 2;
      Outcome update = Outcome::ok;
      bool registered = true;
      Outcome pending = Outcome::ok;
      std::vector<ReliableEntry> entries;
    };
    auto round = std::make_shared<Round>();
    auto self = shared_from_this();
    acknowledge();
    auto done = [self, round] {
      if (--round->left > 0) return;
      self->act(self->poll_.finished(round->update, round->registered, round->pending,
                                     std::move(round->entries)));
    };
    core_.eval(lua::reliable_topic_update(
                   keys_, std::vector<std::string>{subscriber_, std::to_string(unix_time_ms())}),
               [round, done](std::error_code ec, const Reply& reply) {
                 round->update = outcome_of(ec, reply);
                 round->registered = !reply.is_integer() || reply.integer != 0;
                 done();
               });
    read_pending([round, done](Outcome outcome, std::vector<ReliableEntry> entries) {
      round->pending = outcome;
      round->entries = std::move(entries);
      done();
    });
  }

  void arm_trailing_update() {
    if (update_armed_) return;
    update_armed_ = true;
    update_timer_.expires_at(last_update_ + kUpdateEvery);
    update_timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
      const auto self = weak.lock();
      if (!self) return;
      self->update_armed_ = false;
      if (ec || !self->poll_.running()) return;
      self->last_update_ = std::chrono::steady_clock::now();
      self->core_.eval(lua::reliable_topic_update(
                           self->keys_, std::vector<std::string>{self->subscriber_,
                                                                 std::to_string(unix_time_ms())}),
                       [self](std::error_code update_ec, const Reply& reply) {
                         if (update_ec || !reply.is_integer() || reply.integer != 0) return;
                         if (!self->poll_.running()) return;
                         // Removed while away: registered again where the loop is (as the watchdog
                         // does).
                         self->report_rejoin(ReliablePoll::Rejoin::expired);
                         self->run_join([](std::error_code, const Reply&) {});
                       });
    });
  }

  // XACK; its outcome does not matter (an entry left pending is filtered out when read again),
  // but a draining stop waits for it.
  void acknowledge() {
    const auto& ids = poll_.to_acknowledge();
    if (ids.empty()) return;
    Command ack{"XACK", topic_, subscriber_};
    for (const auto& id : ids) ack.arg(id.to_string());
    ++acks_in_flight_;
    core_.submit(ack, [self = shared_from_this()](std::error_code, const Reply&) {
      --self->acks_in_flight_;
      self->maybe_drained();
    });
  }

  // The update script once more as the client shuts down, after the last acknowledgement (same
  // connection, so in order): the stream is left trimmed to what the subscribers have not read,
  // which a busy subscriber's throttled updates may not have done yet.
  void final_update() {
    ++acks_in_flight_;
    core_.eval(lua::reliable_topic_update(
                   keys_, std::vector<std::string>{subscriber_, std::to_string(unix_time_ms())}),
               [self = shared_from_this()](std::error_code, const Reply&) {
                 --self->acks_in_flight_;
                 self->maybe_drained();
               });
  }

  void maybe_drained() {
    if (drained_ && !poll_.draining() && acks_in_flight_ == 0) std::exchange(drained_, {})();
  }

 public:
  /// The client shuts down: the loop stops, and `done` runs once the delivery under way (if
  /// any) is acknowledged.
  void drain(UniqueFunction<void()> done) {
    drained_ = std::move(done);
    stop(false, nullptr);
    // Else the delivery under way ends the stop: its acknowledgement, then this (act()).
    if (!poll_.draining() && joined_) final_update();
    maybe_drained();
  }

 private:
  void leave() {
    core_.eval(lua::reliable_topic_leave(keys_, std::vector<std::string>{subscriber_}),
               [self = shared_from_this()](std::error_code ec, const Reply& reply) {
                 self->left_ec_ = ec;
                 if (!ec && reply.is_error()) self->left_ec_ = make_error_code(errc::server_error);
                 self->act(self->poll_.left());
               });
  }

  void stopped() {
    retry_timer_.cancel();
    watchdog_timer_.cancel();
    update_timer_.cancel();
    if (joined_ && !stop_requested_ && !core_.stopping()) {
      // Never silently: a loop that ended without being stopped leaves its listeners deaf.
      report_failure(core_.config(),
                     error(errc::listener_failed, "reliable topic '" + topic_ + "': subscriber " +
                                                      subscriber_ + " stopped reading"));
    }
    if (!joined_ && on_first_join) {
      auto first = std::move(on_first_join);
      first(*this, poll_.failure() ? poll_.failure() : make_error_code(errc::shutdown));
    }
    for (auto& done : std::exchange(leaving_, {})) done(left_ec_, true);
  }

  void arm_watchdog() {
    watchdog_timer_.expires_after(core_.config().reliable_topic_watchdog_timeout / 3);
    watchdog_timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
      if (const auto self = weak.lock(); self && !ec) self->renew();
    });
  }

  void renew() {
    if (!poll_.running()) return;
    const auto deadline = unix_time_ms() + core_.config().reliable_topic_watchdog_timeout.count();
    core_.eval(
        lua::reliable_topic_renew(std::vector<std::string>{keys_[1]},
                                  std::vector<std::string>{std::to_string(deadline), subscriber_}),
        [self = shared_from_this()](std::error_code ec, const Reply& reply) {
          if (!self->poll_.running()) return;
          if (!ec && reply.is_integer() && reply.integer == 0) {
            // Removed while this client was away: register again, where the loop is.
            self->report_rejoin(ReliablePoll::Rejoin::expired);
            self->run_join([](std::error_code, const Reply&) {});
          }
          self->arm_watchdog();
        });
  }

  // The first join succeeded: the watchdog starts, the listeners added meanwhile are told.
  void mark_joined() {
    if (joined_) return;
    joined_ = true;
    arm_watchdog();
    if (on_first_join) {
      auto first = std::move(on_first_join);
      first(*this, {});
    }
  }

 private:
  ClientCore& core_;
  const std::string topic_;
  const std::string subscriber_;
  const std::vector<std::string> keys_;  // the stream, its timeout zset
  ReliablePoll poll_;
  bool joined_ = false;
  BlockingPool::CallPtr read_call_;
  asio::steady_timer retry_timer_;
  asio::steady_timer watchdog_timer_;
  asio::steady_timer update_timer_;  // the trailing update of a busy topic
  std::chrono::steady_clock::time_point last_update_{};
  bool update_armed_ = false;
  std::vector<Removed> leaving_;
  std::error_code left_ec_;
  int acks_in_flight_ = 0;
  bool stop_requested_ = false;
  UniqueFunction<void()> drained_;
};

ReliableTopics::ReliableTopics(ClientCore& core)
    : core_(core), pool_(core.service<ListenerPool>()) {}

ReliableTopics::~ReliableTopics() = default;

namespace {
std::string subscription_key(const std::string& topic, const std::string& subscriber) {
  return topic + '\0' + subscriber;
}
}  // namespace

void ReliableTopics::add(const std::string& topic, const std::string& subscriber,
                         TopicCallbacks callbacks, Ready on_ready) {
  // This client's own subscriber of a topic: the first one found, else a new random id.
  std::shared_ptr<Subscription> subscription;
  if (subscriber.empty()) {
    for (const auto& [key, candidate] : subscriptions_) {
      if (candidate->topic() == topic && candidate->own) {
        subscription = candidate;
        break;
      }
    }
  } else if (const auto it = subscriptions_.find(subscription_key(topic, subscriber));
             it != subscriptions_.end()) {
    subscription = it->second;
  }
  const std::uint64_t id = next_id_++;
  auto entry = std::make_shared<ListenerEntry>(pool_.strand(), std::move(callbacks));
  if (subscription && subscription->joined()) {
    subscription->listeners.emplace(id, entry);
    by_listener_.emplace(id, subscription);
    return on_ready({}, id);
  }
  if (!subscription) {
    const bool own = subscriber.empty();
    subscription =
        std::make_shared<Subscription>(core_, topic, own ? make_request_id() : subscriber);
    subscription->own = own;
    const auto key = subscription_key(topic, subscription->subscriber());
    subscriptions_.emplace(key, subscription);
    std::weak_ptr<ReliableTopics> weak = weak_from_this();
    subscription->on_first_join = [weak, key](Subscription& joined, std::error_code ec) {
      const auto self = weak.lock();
      auto waiting = std::exchange(joined.joining, {});
      auto ready = std::exchange(joined.joining_ready, {});
      if (ec) {
        if (self) self->subscriptions_.erase(key);
        for (auto& done : ready) done(ec, 0);
        return;
      }
      for (std::size_t i = 0; i < waiting.size(); ++i) {
        joined.listeners.emplace(waiting[i].first, waiting[i].second);
        if (self) self->by_listener_.emplace(waiting[i].first, joined.shared_from_this());
        ready[i]({}, waiting[i].first);
      }
    };
    subscription->joining.emplace_back(id, entry);
    subscription->joining_ready.push_back(std::move(on_ready));
    subscription->start();
    return;
  }
  subscription->joining.emplace_back(id, entry);
  subscription->joining_ready.push_back(std::move(on_ready));
}

void ReliableTopics::remove(std::uint64_t id, Removed done) {
  const auto it = by_listener_.find(id);
  if (it == by_listener_.end()) return done({}, false);
  const auto subscription = it->second;
  by_listener_.erase(it);
  if (const auto entry = subscription->listeners.find(id); entry != subscription->listeners.end()) {
    entry->second->active.store(false, std::memory_order_release);
    subscription->listeners.erase(entry);
  }
  if (!subscription->listeners.empty() || !subscription->joining.empty()) return done({}, true);
  subscriptions_.erase(subscription_key(subscription->topic(), subscription->subscriber()));
  subscription->stop(true, std::move(done));
}

void ReliableTopics::remove_all(const std::string& topic, RemovedAll done) {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, subscription] : by_listener_) {
    if (subscription->topic() == topic) ids.push_back(id);
  }
  if (ids.empty()) return done({}, 0);
  struct Gather {
    std::size_t left;
    std::error_code failure;
    RemovedAll done;
  };
  auto gather = std::make_shared<Gather>(Gather{ids.size(), {}, std::move(done)});
  const auto count = static_cast<std::int64_t>(ids.size());
  for (const auto id : ids) {
    remove(id, [gather, count](std::error_code ec, bool) {
      if (ec && !gather->failure) gather->failure = ec;
      if (--gather->left == 0) gather->done(gather->failure, count);
    });
  }
}

std::int64_t ReliableTopics::count(const std::string& topic) const {
  std::int64_t count = 0;
  for (const auto& [id, subscription] : by_listener_) {
    if (subscription->topic() == topic) ++count;
  }
  return count;
}

std::vector<std::string> ReliableTopics::subscribers(const std::string& topic) const {
  std::vector<std::string> ids;
  for (const auto& [key, subscription] : subscriptions_) {
    if (subscription->topic() == topic) ids.push_back(subscription->subscriber());
  }
  return ids;
}

void ReliableTopics::shutdown_started(bool can_wait) noexcept {
  if (!can_wait) return;  // on the I/O thread: closing() stops the loops without waiting
  try {
    struct Drain {
      std::mutex mutex;
      std::condition_variable done;
      std::size_t left = 1;  // the I/O thread's pass over the subscriptions

      void one_done() {
        std::lock_guard lock(mutex);
        if (--left == 0) done.notify_all();
      }
    };
    auto drain = std::make_shared<Drain>();
    core_.run_on_io([this, drain] {
      {
        std::lock_guard lock(drain->mutex);
        drain->left += subscriptions_.size();
      }
      for (const auto& [key, subscription] : subscriptions_) {
        subscription->drain([drain] { drain->one_done(); });
      }
      drain->one_done();
    });
    // A listener that does not return holds its batch back: it is delivered again later.
    std::unique_lock lock(drain->mutex);
    drain->done.wait_for(lock, kDrainWait, [&] { return drain->left == 0; });
  } catch (...) {
    // Out of memory or threads: the loops stop in closing() all the same.
  }
}

void ReliableTopics::closing() noexcept {
  for (auto& [id, subscription] : by_listener_) {
    for (auto& [listener, entry] : subscription->listeners) {
      entry->active.store(false, std::memory_order_release);
    }
  }
  by_listener_.clear();
  for (auto& [key, subscription] : std::exchange(subscriptions_, {})) {
    try {
      subscription->stop(false, nullptr);
    } catch (...) {
      // Out of memory: the connections close right after, which ends the loop all the same.
    }
  }
}

}  // namespace redisson::detail

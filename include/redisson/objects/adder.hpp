// redisson::LongAdder and DoubleAdder: Java Redisson's RLongAdder and RDoubleAdder, counters
// kept in each process and summed through Redis on demand.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"

namespace redisson {

class Client;

namespace detail {

/// One adder instance's own count: what add() changes, in this process only.
struct AdderCounter {
  std::atomic<std::int64_t> integer{0};  // LongAdder's
  std::atomic<double> real{0.0};         // DoubleAdder's
};

/// The adder instances of one name on one client, and their one listener on
/// `{name}:adder-topic` (src/objects/adder.cpp).
class AdderHub;

/// Registers `counter` in the client's hub of `name` (made, and subscribed, for its first
/// instance) and waits until the channel is subscribed. Throws redisson::error (the
/// subscription's failure; errc::invalid_argument for an empty name or a name this client
/// already uses for the other kind of adder; errc::would_deadlock on the client's I/O thread).
std::shared_ptr<AdderHub> join_adder_hub(const Client& client, const std::string& name, bool real,
                                         const std::shared_ptr<AdderCounter>& counter);
/// Takes `counter` out of its hub; the last one out unsubscribes (in the background).
void leave_adder_hub(const std::shared_ptr<AdderHub>& hub, const AdderCounter* counter) noexcept;
const std::shared_ptr<ClientCore>& adder_hub_core(const AdderHub& hub) noexcept;

/// sum(): publishes `1:<id>`, waits for every subscriber's semaphore release (`timeout` absent:
/// without bound), then reads and deletes the per-call counter key.
void start_long_adder_sum(const std::shared_ptr<AdderHub>& hub,
                          std::optional<std::chrono::milliseconds> timeout,
                          Done<std::int64_t> done);
void start_double_adder_sum(const std::shared_ptr<AdderHub>& hub,
                            std::optional<std::chrono::milliseconds> timeout, Done<double> done);
/// reset(): publishes `0:<id>` and waits for every subscriber's release.
void start_adder_reset(const std::shared_ptr<AdderHub>& hub,
                       std::optional<std::chrono::milliseconds> timeout, Done<void> done);

/// What LongAdder (Number = std::int64_t) and DoubleAdder (double) share.
template <class Number>
class BasicAdder {
 public:
  /// How long sum() waits for the other instances by default: Java's RLongAdder.sum() timeout.
  static constexpr std::chrono::milliseconds kDefaultSumTimeout{60000};

  BasicAdder(const BasicAdder&) = delete;
  BasicAdder& operator=(const BasicAdder&) = delete;
  /// A moved-from adder may only be destroyed or assigned to.
  BasicAdder(BasicAdder&& other) noexcept
      : name_(std::move(other.name_)),
        counter_(std::move(other.counter_)),
        hub_(std::move(other.hub_)),
        joined_(std::exchange(other.joined_, false)) {}
  BasicAdder& operator=(BasicAdder&& other) noexcept {
    if (this != &other) {
      destroy();
      name_ = std::move(other.name_);
      counter_ = std::move(other.counter_);
      hub_ = std::move(other.hub_);
      joined_ = std::exchange(other.joined_, false);
    }
    return *this;
  }
  /// destroy(): never throws.
  ~BasicAdder() { destroy(); }

  /// The adder's name (its keys and channel are named from it).
  const std::string& name() const noexcept { return name_; }

  /// Adds `x` to this instance's own count: an atomic add in this process, nothing sent.
  void add(Number x) noexcept { cell().fetch_add(x, std::memory_order_relaxed); }
  void increment() noexcept { add(Number{1}); }
  void decrement() noexcept { add(Number{-1}); }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  /// The sum over every instance of the name, in every process (Java's sumAsync()): waits for
  /// all of them without a time limit.
  template <class CompletionToken>
  auto async_sum(CompletionToken&& token) const {
    return sum_op(std::nullopt, std::forward<CompletionToken>(token));
  }
  /// The same, failing with errc::timeout when not every instance answered within `timeout`.
  template <class CompletionToken>
  auto async_sum(std::chrono::milliseconds timeout, CompletionToken&& token) const {
    return sum_op(timeout, std::forward<CompletionToken>(token));
  }
  /// Zeroes every instance's count, in every process (Java's resetAsync()); waits for all of
  /// them without a time limit.
  template <class CompletionToken>
  auto async_reset(CompletionToken&& token) {
    return reset_op(std::nullopt, std::forward<CompletionToken>(token));
  }
  /// The same, failing with errc::timeout when not every instance answered within `timeout`.
  template <class CompletionToken>
  auto async_reset(std::chrono::milliseconds timeout, CompletionToken&& token) {
    return reset_op(timeout, std::forward<CompletionToken>(token));
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The sum over every instance (Java's sum()): errc::timeout when some instance did not
  /// answer within kDefaultSumTimeout (60 s, as Java).
  Number sum() const { return async_sum(kDefaultSumTimeout, blocking("sum", name_)); }
  /// The sum, waiting at most `timeout` for the other instances (errc::timeout after).
  template <class Rep, class Period>
  Number sum(const std::chrono::duration<Rep, Period>& timeout) const {
    return async_sum(checked(timeout), blocking("sum", name_));
  }
  /// Zeroes every instance's count (Java's reset(): waits for all of them, without bound).
  void reset() { async_reset(blocking("reset", name_)); }
  /// The same, waiting at most `timeout` (errc::timeout after; the instances that answered
  /// are zeroed).
  template <class Rep, class Period>
  void reset(const std::chrono::duration<Rep, Period>& timeout) {
    async_reset(checked(timeout), blocking("reset", name_));
  }

  /// Stops taking part (Java's destroy()): this instance's count no longer counts in sums or
  /// resets; the last instance of the name in this client unsubscribes the channel (sent in
  /// the background). sum() and reset() still work afterwards, counting the others. Never
  /// throws; calling it again does nothing.
  void destroy() noexcept {
    if (joined_) {
      joined_ = false;
      leave_adder_hub(hub_, counter_.get());
    }
  }

 protected:
  BasicAdder(const Client& client, std::string name)
      : name_(std::move(name)),
        counter_(std::make_shared<AdderCounter>()),
        hub_(join_adder_hub(client, name_, std::is_floating_point_v<Number>, counter_)),
        joined_(true) {}

 private:
  std::atomic<Number>& cell() noexcept {
    if constexpr (std::is_floating_point_v<Number>) {
      return counter_->real;
    } else {
      return counter_->integer;
    }
  }

  template <class Rep, class Period>
  static std::chrono::milliseconds checked(const std::chrono::duration<Rep, Period>& timeout) {
    if (timeout < std::chrono::duration<Rep, Period>::zero()) {
      throw error(errc::invalid_argument, "adder: the timeout must not be negative");
    }
    return saturating_ms(timeout);
  }

  const std::shared_ptr<AdderHub>& hub() const {
    if (!hub_) throw error(errc::invalid_argument, "adder: used after being moved from");
    return hub_;
  }

  template <class CompletionToken>
  auto sum_op(std::optional<std::chrono::milliseconds> timeout, CompletionToken&& token) const {
    const auto& hub = this->hub();
    return async_op<Number>(adder_hub_core(*hub), token, [hub, timeout](Done<Number> done) {
      if constexpr (std::is_floating_point_v<Number>) {
        start_double_adder_sum(hub, timeout, std::move(done));
      } else {
        start_long_adder_sum(hub, timeout, std::move(done));
      }
    });
  }
  template <class CompletionToken>
  auto reset_op(std::optional<std::chrono::milliseconds> timeout, CompletionToken&& token) {
    const auto& hub = this->hub();
    return async_op<void>(adder_hub_core(*hub), token, [hub, timeout](Done<void> done) {
      start_adder_reset(hub, timeout, std::move(done));
    });
  }

  std::string name_;
  std::shared_ptr<AdderCounter> counter_;
  std::shared_ptr<AdderHub> hub_;
  bool joined_ = false;
};

}  // namespace detail

/// A 64-bit counter split across processes (Java Redisson's RLongAdder, like
/// java.util.concurrent.atomic.LongAdder): each instance counts in its own process with no
/// round trip, and sum() collects every instance's count through Redis. Made for counters
/// written far more often than read.
///
/// Protocol and layout (Java Redisson 3.52's, so Java and C++ instances of one name count
/// together): every instance listens on the channel `{name}:adder-topic` (Redisson's suffixName:
/// `name:adder-topic` when the name has a hash tag); messages are StringCodec text. sum()
/// publishes `1:<id>` (a fresh id of 32 hex characters); each subscribed client adds its
/// instances' counts to the string key `{name}:<id>:counter` (INCRBY) and then releases one
/// permit of the semaphore `{name}:<id>:semaphore` (Semaphore's layout); the caller waits for as
/// many permits as PUBLISH reached subscribers, then reads and deletes the counter key (GETDEL)
/// and deletes the semaphore. reset() publishes `0:<id>`: each client zeroes its instances'
/// counts and releases the semaphore. No key outlives a call: the adder has no stored value
/// (the key `name` itself is never written, as in Java). A call that timed out deletes its two
/// keys (Java leaves them); an instance that answers later writes them again, for good. On a
/// Cluster whose lock channels are sharded (Redis 7; Config::sharded_subscription automatic or
/// on), the channel is a sharded one (SSUBSCRIBE, SPUBLISH), as Java decides.
///
/// Guarantees: add() is one relaxed atomic add, thread-safe. sum() counts what every instance
/// had added when it heard the message: adds racing with a sum may or may not be in it, as
/// with java.util.concurrent.atomic.LongAdder. sum() does not move the counts (each instance
/// keeps its own, summed afresh each time); reset() zeroes them, racing adds may survive it.
/// An instance whose client cannot answer (its subscriber connection down, the process
/// stopped) makes a sum wait for it; sum() gives up after 60 s (errc::timeout), sum(timeout)
/// after the given time. A sum published while a client's last instance of the name is being
/// destroyed may count that client's subscription without an answer, and wait its timeout (as
/// in Java). A client whose INCRBY fails (the counter key holds another type) does
/// not release, as in Java, and reports the failure to Config::error_handler.
///
/// Cost: the constructor waits for one SUBSCRIBE (only for the first instance of the name in
/// its client; the others share it). sum(): PUBLISH, then per subscribed client one INCRBY and
/// one semaphore release; the caller's semaphore acquire, GETDEL and DEL. Several instances
/// of one name in one client answer together, with one INCRBY.
///
/// An instance is not a handle: it is the count itself, movable but not copyable; its
/// destructor calls destroy(). Using a LongAdder and a DoubleAdder of the same name in one
/// client is errc::invalid_argument (Java would mix them up).
class LongAdder : public detail::BasicAdder<std::int64_t> {
 public:
  /// A new instance of the adder `name` with a count of 0; returns once its client is
  /// subscribed to the channel. Throws redisson::error.
  LongAdder(const Client& client, std::string name)
      : detail::BasicAdder<std::int64_t>(client, std::move(name)) {}
};

/// A double counter split across processes (Java Redisson's RDoubleAdder, like
/// java.util.concurrent.atomic.DoubleAdder): as LongAdder, with INCRBYFLOAT of each client's
/// count written as Java writes a double (BigDecimal.valueOf(x).toPlainString()). A count that
/// is NaN or infinite cannot be sent: that client does not answer, and reports the failure to
/// Config::error_handler.
class DoubleAdder : public detail::BasicAdder<double> {
 public:
  DoubleAdder(const Client& client, std::string name)
      : detail::BasicAdder<double>(client, std::move(name)) {}
};

}  // namespace redisson

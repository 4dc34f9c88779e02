// redisson::Client: the entry point. One client = one pipelined connection per server,
// one pub/sub connection, one I/O thread (by default), one lock watchdog.
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/async_result.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "redisson/command.hpp"
#include "redisson/config.hpp"
#include "redisson/detail/completion.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"
#include "redisson/lock.hpp"
#include "redisson/owner_id.hpp"
#include "redisson/reply.hpp"
#include "redisson/script.hpp"

namespace redisson {

// Synchronizers beyond Lock; each has its own header (all included by redisson/redisson.hpp).
class FairLock;
class FencedLock;
class SpinLock;
class ReadWriteLock;
class Semaphore;
class PermitExpirableSemaphore;
class CountDownLatch;

namespace detail {
class ClientCore;
struct ClientAccess;
void submit_command(ClientCore& core, Command command, ReplyCallback callback);
void submit_eval(ClientCore& core, const Script& script, Command evalsha, ReplyCallback callback);
Command make_evalsha(const Script& script, const std::vector<std::string>& keys,
                     const std::vector<std::string>& args);
}  // namespace detail

/// A pub/sub subscription. Unsubscribes when destroyed (or on unsubscribe()); move-only.
class Subscription {
 public:
  Subscription() = default;
  Subscription(std::weak_ptr<detail::ClientCore> core, std::uint64_t id)
      : core_(std::move(core)), id_(id) {}
  Subscription(Subscription&& other) noexcept;
  Subscription& operator=(Subscription&& other) noexcept;
  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;
  ~Subscription();

  /// Stops delivery; safe to call twice.
  void unsubscribe() noexcept;
  bool active() const noexcept { return id_ != 0; }

 private:
  std::weak_ptr<detail::ClientCore> core_;
  std::uint64_t id_ = 0;
};

/// A connection to Redis shared by everything created from it.
///
/// Thread-safe: every method may be called from any thread. Blocking methods wait on their
/// async twins and throw redisson::error; calling one on the client's own I/O thread (from
/// inside a completion handler) throws errc::would_deadlock instead of hanging.
/// Construction connects (bounded by connect_timeout) and throws if the server is unreachable.
class Client {
 public:
  explicit Client(Config config);
  explicit Client(std::string_view url);
  explicit Client(const char* url) : Client(std::string_view(url)) {}
  explicit Client(const std::string& url) : Client(std::string_view(url)) {}
  ~Client();
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// This client's id (a UUID): the first half of every lock owner field it writes.
  const std::string& id() const noexcept;
  const Config& config() const noexcept;
  /// The executor of the client's I/O thread.
  asio::any_io_executor get_executor() const noexcept;

  /// True while the command connection is up and logged in.
  bool connected() const noexcept;

  /// A fresh owner id for the async API (never one a thread or an earlier call used).
  OwnerId new_owner_id() const noexcept { return OwnerId::next(); }

  /// Sends any command and waits for its reply. A server error reply throws
  /// redisson::error(server_error, wrong_type or no_permission) with the server's text.
  Reply execute(const Command& command);
  /// Same, reporting failure through `ec` instead of throwing.
  Reply execute(const Command& command, std::error_code& ec);

  /// Sends any command; completes with (error_code, Reply). On a server error the Reply
  /// holds the server's text and the error_code says server_error / wrong_type.
  template <class CompletionToken>
  auto async_execute(Command command, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, Reply)>(
        [core = core_](auto handler, Command command) {
          auto callback =
              detail::bind_completion<Reply>(std::move(handler), detail::core_executor(*core));
          detail::submit_command(*core, std::move(command), std::move(callback));
        },
        token, std::move(command));
  }

  /// Runs a Lua script by SHA (EVALSHA, then SCRIPT LOAD + retry once on NOSCRIPT).
  Reply eval(const Script& script, const std::vector<std::string>& keys = {},
             const std::vector<std::string>& args = {});

  template <class CompletionToken>
  auto async_eval(const Script& script, const std::vector<std::string>& keys,
                  const std::vector<std::string>& args, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, Reply)>(
        [core = core_](auto handler, Script script, Command evalsha) {
          auto callback =
              detail::bind_completion<Reply>(std::move(handler), detail::core_executor(*core));
          detail::submit_eval(*core, script, std::move(evalsha), std::move(callback));
        },
        token, script, detail::make_evalsha(script, keys, args));
  }

  /// PUBLISH; returns the number of receivers.
  std::int64_t publish(std::string_view channel, std::string_view message);

  /// Subscribes to `channel` and waits until the server confirmed it. `on_message` runs on
  /// the I/O thread for every message; `on_resubscribed` runs after a reconnect restored the
  /// subscription (messages published while it was down are lost: re-check state then).
  Subscription subscribe(std::string channel, std::function<void(std::string_view)> on_message,
                         std::function<void()> on_resubscribed = {});

  /// A re-entrant lock named `name` (Java Redisson's RLock layout). Sends nothing yet.
  Lock get_lock(std::string name) const { return Lock(core_, std::move(name)); }
  /// A lock that is non-re-entrant: a second acquire by the holder fails (errc::would_deadlock)
  /// instead of counting.
  Lock get_non_reentrant_lock(std::string name) const;
  /// A first-come-first-served lock (Redisson's RFairLock layout). Needs redisson/fair_lock.hpp.
  FairLock get_fair_lock(std::string name) const;
  /// A fair lock that is non-re-entrant.
  FairLock get_non_reentrant_fair_lock(std::string name) const;
  /// A lock whose acquisitions return increasing fencing tokens. Needs redisson/fenced_lock.hpp.
  FencedLock get_fenced_lock(std::string name) const;
  /// A lock whose waiters poll with backoff instead of pub/sub. Needs redisson/spin_lock.hpp.
  SpinLock get_spin_lock(std::string name) const;
  /// Many readers or one writer. Needs redisson/read_write_lock.hpp.
  ReadWriteLock get_read_write_lock(std::string name) const;
  /// Needs redisson/semaphore.hpp.
  Semaphore get_semaphore(std::string name) const;
  /// Needs redisson/permit_expirable_semaphore.hpp.
  PermitExpirableSemaphore get_permit_expirable_semaphore(std::string name) const;
  /// Needs redisson/count_down_latch.hpp.
  CountDownLatch get_count_down_latch(std::string name) const;

  /// Fails everything pending with errc::shutdown and stops the I/O thread. Idempotent;
  /// the destructor calls it.
  void shutdown() noexcept;

  /// The shared implementation, for objects created from this client.
  const std::shared_ptr<detail::ClientCore>& core() const noexcept { return core_; }

 private:
  friend struct detail::ClientAccess;
  std::shared_ptr<detail::ClientCore> core_;
};

}  // namespace redisson

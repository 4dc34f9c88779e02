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
#include "redisson/detail/operation.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/error.hpp"
#include "redisson/owner_id.hpp"
#include "redisson/reply.hpp"
#include "redisson/script.hpp"

namespace redisson {

namespace detail {
class ClientCore;
struct ClientAccess;
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

  /// Stops delivery; on return the callback is not running and will not run again. Idempotent.
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
  /// The client's settings; its `codec` is never null here (kryo5 when the Config had none).
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
  auto async_execute(Command command, CompletionToken&& token) const {
    return detail::async_op<Reply>(
        core_, token,
        [core = core_, command = std::move(command)](auto done, detail::ReadSlot* read) {
          start_execute(core, command, completion_of(std::move(done)), read);
        });
  }

  /// Runs a Lua script by SHA (EVALSHA; EVAL with the source when the server does not know it).
  Reply eval(const Script& script, const std::vector<std::string>& keys = {},
             const std::vector<std::string>& args = {});

  template <class CompletionToken>
  auto async_eval(const Script& script, const std::vector<std::string>& keys,
                  const std::vector<std::string>& args, CompletionToken&& token) const {
    return detail::async_op<Reply>(
        core_, token,
        [core = core_, script, command = evalsha_command(script, keys, args)](
            auto done, detail::ReadSlot* read) {
          start_eval(core, script, command, completion_of(std::move(done)), read);
        });
  }

  /// PUBLISH; returns the number of receivers.
  std::int64_t publish(std::string_view channel, std::string_view message);

  /// Subscribes to `channel` and waits until the server confirmed it. `on_message` runs on
  /// the I/O thread for every message; `on_resubscribed` runs after a reconnect restored the
  /// subscription (messages published while it was down are lost: re-check state then).
  Subscription subscribe(std::string channel, std::function<void(std::string_view)> on_message,
                         std::function<void()> on_resubscribed = {});

  /// Fails everything pending with errc::shutdown and stops the I/O thread. Idempotent;
  /// the destructor calls it.
  void shutdown() noexcept;

 private:
  friend struct detail::ClientAccess;
  using ReplyCompletion = detail::UniqueFunction<void(std::error_code, Reply)>;
  // The reply callback that completes `done`: made here, where the completion's type is known,
  // so the command carries one small callable instead of one wrapped in another.
  template <class Done>
  static ReplyCompletion completion_of(Done done) {
    return [done = std::move(done)](std::error_code ec, Reply reply) mutable {
      auto status = reply_status(ec, reply);  // before the reply moves
      done(std::move(status), std::move(reply));
    };
  }
  static detail::Status reply_status(std::error_code ec, const Reply& reply);
  // The .cpp side of the async templates. `read`: the blocking call's slot (or null), through
  // which the caller reads its own reply (detail/read_slot.hpp).
  static void start_execute(const std::shared_ptr<detail::ClientCore>& core, const Command& command,
                            ReplyCompletion on_reply, detail::ReadSlot* read);
  static void start_eval(const std::shared_ptr<detail::ClientCore>& core, const Script& script,
                         const Command& evalsha, ReplyCompletion on_reply, detail::ReadSlot* read);
  static Command evalsha_command(const Script& script, const std::vector<std::string>& keys,
                                 const std::vector<std::string>& args);

  std::shared_ptr<detail::ClientCore> core_;
};

}  // namespace redisson

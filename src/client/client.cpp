#include "redisson/client.hpp"

#include <chrono>
#include <future>
#include <memory>
#include <optional>

#include "client/client_core.hpp"
#include "client/subscribe.hpp"
#include "net/reply_error.hpp"
#include "redisson/detail/read_slot.hpp"

namespace redisson {

namespace detail {

Subscription subscribe_channel(const std::shared_ptr<ClientCore>& core, std::string channel,
                               std::function<void(std::string_view)> on_message,
                               std::function<void()> on_resubscribed) {
  if (core->on_io_thread()) {
    throw error(errc::would_deadlock, "Client::subscribe called on the client's I/O thread");
  }
  std::promise<std::pair<std::uint64_t, std::error_code>> ready;
  auto result = ready.get_future();
  core->run_on_io([core, &ready, channel = std::move(channel),
                   listener = detail::Listener{
                       [on_message = std::move(on_message)](
                           std::string_view, std::string_view payload) { on_message(payload); },
                       std::move(on_resubscribed), nullptr}]() mutable {
    auto& pubsub = core->subscriber();
    pubsub.listen_with_id(pubsub.own_kind(), channel, std::move(listener),
                          [&ready](std::error_code ec, std::uint64_t id) {
                            ready.set_value({id, ec});
                          });
  });
  auto [listener_id, ec] = result.get();
  Subscription subscription(core, listener_id);
  if (ec) throw error(ec, "SUBSCRIBE");
  return subscription;
}

}  // namespace detail

detail::Status Client::reply_status(std::error_code ec, const Reply& reply) {
  return detail::status_of(ec, reply);
}

void Client::start_execute(const std::shared_ptr<detail::ClientCore>& core, const Command& command,
                           ReplyCompletion on_reply, detail::ReadSlot* read) {
  core->submit(command, std::move(on_reply), read);
  // A blocking execute() whose command went out on an idle connection reads its reply here:
  // the completion only wakes the waiting thread, from any thread (detail/read_slot.hpp).
  detail::read_own_reply(read);
}

void Client::start_eval(const std::shared_ptr<detail::ClientCore>& core, const Script& script,
                        const Command& evalsha, ReplyCompletion on_reply, detail::ReadSlot* read) {
  core->eval(script, evalsha, std::move(on_reply), read);
  // As start_execute; a NOSCRIPT resend (EVAL) is sent while the reply is read here, without
  // the slot, so the I/O thread reads its reply.
  detail::read_own_reply(read);
}

Command Client::evalsha_command(const Script& script, const std::vector<std::string>& keys,
                                const std::vector<std::string>& args) {
  Command command{"EVALSHA", script.sha1()};
  command.arg(static_cast<std::int64_t>(keys.size()));
  for (const auto& key : keys) command.key(key);  // the first routes it
  for (const auto& value : args) command.arg(value);
  return command;
}

Client::Client(Config config) : core_(std::make_shared<detail::ClientCore>(std::move(config))) {
  core_->start();
}

Client::Client(std::string_view url) : Client(Config::from_url(url)) {}

Client::~Client() {
  if (core_) core_->shutdown();
}

Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&& other) noexcept {
  if (this != &other) {
    if (core_) core_->shutdown();
    core_ = std::move(other.core_);
  }
  return *this;
}

const std::string& Client::id() const noexcept { return core_->id(); }
const Config& Client::config() const noexcept { return core_->config(); }
asio::any_io_executor Client::get_executor() const noexcept { return core_->executor(); }

bool Client::connected() const noexcept { return core_->connected(); }

Reply Client::execute(const Command& command, std::error_code& ec) {
  return async_execute(command, detail::blocking(ec, "execute"));
}

Reply Client::execute(const Command& command) {
  return async_execute(command, detail::blocking("execute"));
}

Reply Client::eval(const Script& script, const std::vector<std::string>& keys,
                   const std::vector<std::string>& args) {
  return async_eval(script, keys, args, detail::blocking("eval"));
}

std::int64_t Client::publish(std::string_view channel, std::string_view message) {
  // On a sharded cluster Client::subscribe uses SSUBSCRIBE, so publish where it listens.
  return execute(Command{core_->publish_command(), channel, message}).integer;
}

Subscription Client::subscribe(std::string channel,
                               std::function<void(std::string_view)> on_message,
                               std::function<void()> on_resubscribed) {
  return detail::subscribe_channel(core_, std::move(channel), std::move(on_message),
                                   std::move(on_resubscribed));
}

void Client::shutdown() noexcept {
  if (core_) core_->shutdown();
}

Subscription::Subscription(Subscription&& other) noexcept
    : core_(std::move(other.core_)), id_(std::exchange(other.id_, 0)) {}

Subscription& Subscription::operator=(Subscription&& other) noexcept {
  if (this != &other) {
    unsubscribe();
    core_ = std::move(other.core_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

Subscription::~Subscription() { unsubscribe(); }

// Once this returns, the callback is neither running nor will it run again: what it captured may
// be destroyed next (the usual pattern: a subscription member declared after the state its
// callback uses). Off the I/O thread that means waiting for the removal to run there, after any
// delivery in progress; a client shut down meanwhile runs nothing more, so the wait ends with its
// io_context. The caller must not hold anything its callback waits for.
void Subscription::unsubscribe() noexcept {
  const auto id = std::exchange(id_, 0);
  if (id == 0) return;
  const auto core = core_.lock();
  if (!core) return;
  try {
    if (core->on_io_thread()) return core->subscriber().remove(id);
    if (core->io().stopped()) return;
    auto removed = std::make_shared<std::promise<void>>();
    auto done = removed->get_future();
    core->run_on_io([core, id, removed] {
      core->subscriber().remove(id);
      removed->set_value();
    });
    constexpr auto kStopCheck = std::chrono::milliseconds(50);
    while (done.wait_for(kStopCheck) != std::future_status::ready) {
      if (core->io().stopped()) return;
    }
  } catch (...) {
    // Allocation failure while unsubscribing: the listener stays until shutdown.
  }
}

}  // namespace redisson

#include "topology/sentinel_router.hpp"

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <sstream>

#include "redisson/error.hpp"

namespace redisson::detail {

SentinelRouter::SentinelRouter(asio::io_context& io, ConnectionOptions base, SentinelConfig config,
                               std::chrono::milliseconds command_timeout,
                               std::chrono::milliseconds subscription_timeout)
    : io_(io),
      base_(std::move(base)),
      config_(std::move(config)),
      command_timeout_(command_timeout),
      subscription_timeout_(subscription_timeout),
      refreshes_(io, config_.scan_interval),
      master_(base_.server) {}

void SentinelRouter::start(StartCallback done) {
  if (config_.sentinel_addresses.empty() || config_.master_name.empty()) {
    return done(make_error_code(errc::invalid_argument),
                "the sentinel config needs master_name and sentinel_addresses");
  }
  asio::post(io_, [self = shared_from_this(), done = std::move(done)]() mutable {
    self->asking_ = true;
    self->ask_sentinels(
        0, {},
        [self, done = std::move(done)](std::error_code ec, const std::string& detail) mutable {
          if (ec) return done(ec, detail);
          std::shared_ptr<Connection> master;
          {
            std::lock_guard lock(self->mutex_);
            master = self->master_connection_;
          }
          // Started means: the master answered the login, as a single-server client does.
          master->submit(Command{"PING"}, Clock::now() + self->base_.connect_timeout,
                         [self, done = std::move(done), master](std::error_code ping_ec,
                                                                const Reply& reply) mutable {
                           if (ping_ec) {
                             return done(ping_ec,
                                         reply.str.empty() ? master->last_error() : reply.str);
                           }
                           self->refreshes_.start(self);
                           self->watch_switches(0);
                           done({}, {});
                         });
        });
  });
}

std::shared_ptr<Connection> SentinelRouter::sentinel_connection(std::size_t index) {
  if (sentinels_.size() < config_.sentinel_addresses.size()) {
    sentinels_.resize(config_.sentinel_addresses.size());
  }
  auto& connection = sentinels_[index];
  if (!connection) {
    auto options = base_;
    options.server = config_.sentinel_addresses[index];
    options.server.username = config_.sentinel_username;
    options.server.password = config_.sentinel_password;
    options.server.database = 0;  // sentinels have no databases
    connection = std::make_shared<Connection>(io_, options);
    connection->start([](std::error_code) {});
  }
  return connection;
}

void SentinelRouter::ask_sentinels(std::size_t next, const std::string& last_error,
                                   std::function<void(std::error_code, const std::string&)> done) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return done(make_error_code(errc::shutdown), "closed");
  }
  if (next >= config_.sentinel_addresses.size()) {
    asking_ = false;
    for (auto& waiter : std::exchange(refresh_waiters_, {})) waiter();
    return done(make_error_code(errc::connect_failed),
                "no sentinel named the master '" + config_.master_name + "'" +
                    (last_error.empty() ? std::string() : ": " + last_error));
  }
  auto connection = sentinel_connection(next);
  connection->submit(Command{"SENTINEL", "GET-MASTER-ADDR-BY-NAME", config_.master_name},
                     Clock::now() + command_timeout_,
                     [self = shared_from_this(), next, connection, done = std::move(done)](
                         std::error_code ec, Reply reply) mutable {
                       if (ec || reply.elements.size() != 2) {
                         std::string detail =
                             !reply.str.empty() ? reply.str : connection->last_error();
                         if (detail.empty())
                           detail = ec ? ec.message() : "the sentinel does not know it";
                         return self->ask_sentinels(next + 1, detail, std::move(done));
                       }
                       int port = 0;
                       try {
                         port = std::stoi(reply.elements[1].str);
                       } catch (...) {
                       }
                       self->switch_to(reply.elements[0].str, port);
                       self->asking_ = false;
                       for (auto& waiter : std::exchange(self->refresh_waiters_, {})) waiter();
                       done({}, {});
                     });
}

void SentinelRouter::switch_to(const std::string& host, int port) {
  std::shared_ptr<Connection> old;
  {
    std::lock_guard lock(mutex_);
    if (closed_ || port <= 0) return;
    if (master_connection_ && master_.host == host && master_.port == port) return;
    master_.host = host;
    master_.port = port;
    auto options = base_;
    options.server = master_;
    // The READONLY retry in send() may run on any thread (it locks, submits and posts).
    options.caller_reads = true;
    old = std::exchange(master_connection_, std::make_shared<Connection>(io_, options));
    master_connection_->set_state_handler([weak = weak_from_this()](bool ready) {
      if (ready) return;
      if (auto self = weak.lock()) self->refreshes_.request(self);  // failed over? ask again
    });
    master_connection_->start([](std::error_code) {});
  }
  if (!old) return;  // the first master: nothing moved
  // Commands already sent to the old master get their replies (or READONLY, then a resend)
  // within a command timeout; only then is its connection closed.
  old->set_state_handler(nullptr);
  auto timer = std::make_shared<asio::steady_timer>(io_, command_timeout_ + command_timeout_);
  timer->async_wait([old, timer](std::error_code) { old->close(); });
  if (change_handler_) change_handler_();
}

void SentinelRouter::watch_switches(std::size_t sentinel) {
  if (switch_watch_ || sentinel >= config_.sentinel_addresses.size()) return;
  auto options = base_;
  options.server = config_.sentinel_addresses[sentinel];
  options.server.username = config_.sentinel_username;
  options.server.password = config_.sentinel_password;
  options.server.database = 0;
  switch_watch_ = std::make_shared<Subscriber>(io_, options, subscription_timeout_);
  std::weak_ptr<SentinelRouter> weak = weak_from_this();
  Listener listener{[weak](std::string_view, std::string_view payload) {
                      // "<master name> <old ip> <old port> <new ip> <new port>"
                      auto self = weak.lock();
                      if (!self) return;
                      std::istringstream fields{std::string(payload)};
                      std::string name, old_host, old_port, new_host;
                      int new_port = 0;
                      fields >> name >> old_host >> old_port >> new_host >> new_port;
                      if (fields && name == self->config_.master_name)
                        self->switch_to(new_host, new_port);
                    },
                    // Announcements may have been missed while the sentinel was unreachable.
                    [weak] {
                      if (auto self = weak.lock()) self->refreshes_.request(self);
                    },
                    nullptr};
  switch_watch_->add("+switch-master", std::move(listener), [weak, sentinel](std::error_code ec) {
    auto self = weak.lock();
    if (!self || !ec) return;
    // This sentinel cannot be watched: try the next one (the scan covers the gap).
    if (self->switch_watch_) self->switch_watch_->close();
    self->switch_watch_ = nullptr;
    self->watch_switches(sentinel + 1);
  });
}

void SentinelRouter::refresh(std::function<void()> done) {
  if (done) refresh_waiters_.push_back(std::move(done));
  if (asking_) return;
  asking_ = true;
  ask_sentinels(0, {}, [](std::error_code, const std::string&) {});
}

std::shared_ptr<Connection> SentinelRouter::connection_for(std::optional<std::string_view>) {
  std::lock_guard lock(mutex_);
  return master_connection_;
}

void SentinelRouter::submit(const Command& command, Clock::time_point deadline,
                            ReplyCallback callback, SentHook after_send, ReadSlot* read) {
  send(std::make_shared<const Command>(command), deadline, std::move(callback), after_send, read);
}

void SentinelRouter::send(std::shared_ptr<const Command> command, Clock::time_point deadline,
                          ReplyCallback callback, const SentHook& after_send, ReadSlot* read) {
  std::shared_ptr<Connection> connection;
  std::string node;
  {
    std::lock_guard lock(mutex_);
    connection = master_connection_;
    node = node_key(master_);
  }
  if (!connection) return callback(make_error_code(errc::shutdown), Reply{});
  connection->submit(
      *command, deadline,
      [self = shared_from_this(), connection, command, deadline, after_send,
       callback = std::move(callback)](std::error_code ec, Reply reply) mutable {
        if (ec != errc::server_error || !reply.str.starts_with("READONLY")) {
          return callback(ec, std::move(reply));
        }
        // The master we wrote to was demoted. Send it to the current master if that
        // is another one; otherwise learn the new master and report this attempt's
        // error.
        std::shared_ptr<Connection> current;
        std::string node;
        {
          std::lock_guard lock(self->mutex_);
          current = self->master_connection_;
          node = node_key(self->master_);
        }
        if (current && current != connection) {
          current->submit(*command, deadline, std::move(callback));
          if (after_send) after_send(current, node);
          return;
        }
        self->refreshes_.request(self);
        callback(ec, std::move(reply));
      },
      read);
  if (after_send) after_send(connection, node);
}

std::vector<ServerAddress> SentinelRouter::masters() const {
  std::lock_guard lock(mutex_);
  return {master_};
}

void SentinelRouter::submit_to(const ServerAddress&, const Command& command,
                               Clock::time_point deadline, ReplyCallback callback) {
  // One master: the current one (READONLY from a demoted one is handled as for submit()).
  send(std::make_shared<const Command>(command), deadline, std::move(callback), nullptr);
}

ServerAddress SentinelRouter::pubsub_node(std::string_view) const {
  std::lock_guard lock(mutex_);
  return master_;
}

bool SentinelRouter::connected() const {
  std::lock_guard lock(mutex_);
  return master_connection_ && master_connection_->ready();
}

void SentinelRouter::close() {
  std::shared_ptr<Connection> master;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    master = std::move(master_connection_);
  }
  refreshes_.cancel();
  change_handler_ = nullptr;
  if (switch_watch_) switch_watch_->close();
  for (auto& sentinel : sentinels_) {
    if (sentinel) sentinel->close();
  }
  if (master) master->close();
}

}  // namespace redisson::detail

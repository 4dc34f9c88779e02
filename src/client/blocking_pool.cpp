#include "client/blocking_pool.hpp"

#include <algorithm>
#include <asio/error.hpp>
#include <asio/post.hpp>
#include <cstdio>
#include <string_view>
#include <utility>

#include "redisson/error.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{1000};

/// The wait text a blocking command takes: seconds with a fraction ("2.500"; BLPOP and the
/// others accept one since Redis 6), or whole milliseconds (XREAD BLOCK).
std::string wait_text(std::chrono::milliseconds wait, bool in_ms) {
  if (in_ms) return std::to_string(wait.count());
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(wait.count() / 1000),
                static_cast<long long>(wait.count() % 1000));
  return text;
}

/// An error reply saying the node no longer serves the key, or cannot serve it yet: sending
/// the command again (after a topology refresh) is what the caller would do.
bool node_moved_on(const Reply& reply) {
  const std::string_view text = reply.str;
  return text.starts_with("UNBLOCKED") || text.starts_with("MOVED") || text.starts_with("ASK ") ||
         text.starts_with("READONLY");
}

}  // namespace

class BlockingPool::Call {
 public:
  Call(asio::io_context& io, Request request) : request(std::move(request)), timer(io) {}

  Request request;
  asio::steady_timer timer;  // a retry's back-off, or the wait for a free connection
  LeasePtr lease;            // while the command is on a connection
  bool finished = false;
  bool cancelled = false;
  bool queued = false;  // in waiting_
  std::chrono::milliseconds backoff{0};
  std::error_code last_error;  // of the last failed send, for a wait that ends while retrying
  Reply last_reply;
};

BlockingPool::BlockingPool(asio::io_context& io, ConnectionOptions base,
                           std::weak_ptr<Router> router, std::size_t max_connections,
                           std::chrono::milliseconds command_timeout)
    : io_(io),
      base_(std::move(base)),
      router_(std::move(router)),
      max_connections_(std::max<std::size_t>(max_connections, 1)),
      command_timeout_(command_timeout) {}

BlockingPool::~BlockingPool() = default;

BlockingPool::CallPtr BlockingPool::run(Request request) {
  auto call = std::make_shared<Call>(io_, std::move(request));
  {
    std::unique_lock lock(mutex_);
    if (closed_) {
      lock.unlock();
      call->finished = true;
      call->request.callback(make_error_code(errc::shutdown), Reply{});
      return call;
    }
    // Until it starts on the I/O thread, close() is the one that finishes it: a handler posted
    // to a stopped io_context never runs.
    posted_.push_back(call);
  }
  asio::post(io_, [self = shared_from_this(), call] {
    {
      std::lock_guard lock(self->mutex_);
      if (call->finished) return;
      std::erase(self->posted_, call);
    }
    self->active_.push_back(call);
    self->start(call);
  });
  return call;
}

void BlockingPool::cancel(const CallPtr& call) {
  asio::post(io_, [self = shared_from_this(), call] {
    if (call->finished || call->cancelled) return;
    call->cancelled = true;
    const auto lease = call->lease;
    if (!lease) {
      // Not on a connection: waiting for one, or for a retry.
      return self->finish(call, asio::error::operation_aborted, Reply{});
    }
    if (!lease->client_id) {
      // The session's id is not known yet: its CLIENT ID, pipelined ahead of the command, is
      // answered first, and the unblock is sent then. Closing the connection instead would lose
      // an element the server handed out just before.
      lease->unblock_when_known = true;
      return;
    }
    self->unblock(lease);
  });
}

void BlockingPool::unblock(const LeasePtr& lease) {
  const auto router = router_.lock();
  if (!router) return lease->connection->close();
  // The server ends the blocked command as if its timeout had come: the nil reply then
  // finishes the call (on_reply), and an element handed out just before still arrives.
  Command command{"CLIENT", "UNBLOCK"};
  command.arg(*lease->client_id);
  router->submit_to(lease->node, command, Clock::now() + command_timeout_,
                    [](std::error_code, const Reply&) {});
}

void BlockingPool::start(const CallPtr& call) {
  if (call->finished) return;
  if (closed_) return finish(call, make_error_code(errc::shutdown), Reply{});
  if (call->cancelled) return finish(call, asio::error::operation_aborted, Reply{});
  const auto lease = lease_for(node_of(call->request.args.at(call->request.key_index)));
  if (!lease) return wait_for_connection(call);
  send(call, lease);
}

ServerAddress BlockingPool::node_of(const std::string& key) const {
  const auto router = router_.lock();
  return router ? router->pubsub_node(key) : base_.server;
}

BlockingPool::LeasePtr BlockingPool::lease_for(const ServerAddress& node) {
  const auto key = node_key(node);
  const auto same_node = std::find_if(idle_.begin(), idle_.end(), [&](const LeasePtr& lease) {
    return node_key(lease->node) == key;
  });
  if (same_node != idle_.end()) {
    auto lease = *same_node;
    idle_.erase(same_node);
    return lease;
  }
  if (open_ >= max_connections_) {
    if (idle_.empty()) return nullptr;
    // Every connection is open, some idle on other nodes: one of those makes room.
    idle_.front()->connection->close();
    idle_.erase(idle_.begin());
    --open_;
  }
  auto lease = std::make_shared<Lease>();
  lease->node = node;
  auto options = base_;
  options.server = node;
  lease->connection = std::make_shared<Connection>(io_, std::move(options));
  // A new session has a new id: CLIENT UNBLOCK needs the current one.
  lease->connection->set_state_handler([weak = std::weak_ptr<Lease>(lease)](bool) {
    if (const auto lease = weak.lock()) lease->client_id.reset();
  });
  // A first attempt that fails is reported to the request through its command's deadline.
  lease->connection->start([](std::error_code) {});
  ++open_;
  return lease;
}

void BlockingPool::send(const CallPtr& call, const LeasePtr& lease) {
  call->lease = lease;
  auto wait = std::chrono::milliseconds(kSlice);
  if (call->request.until) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(*call->request.until - Clock::now());
    // Zero would mean "forever" to the server: the shortest wait it takes is sent instead.
    wait = std::clamp(left, std::chrono::milliseconds{1}, wait);
  }
  auto& args = call->request.args;
  args[call->request.timeout_index] = wait_text(wait, call->request.wait_in_ms);
  Command command;
  for (std::size_t index = 0; index < args.size(); ++index) {
    if (index == call->request.key_index) {
      command.key(args[index]);
    } else {
      command.arg(args[index]);
    }
  }
  const auto deadline = Clock::now() + wait + command_timeout_;
  if (!lease->client_id) {
    // Pipelined ahead of the blocking command: it costs no round trip.
    lease->unblock_when_known = false;
    lease->connection->submit(
        Command{"CLIENT", "ID"}, deadline,
        [self = shared_from_this(), weak = std::weak_ptr<Lease>(lease)](std::error_code ec,
                                                                        Reply id) {
          const auto lease = weak.lock();
          if (!lease) return;
          if (!ec && id.type == ReplyType::integer) lease->client_id = id.integer;
          if (!std::exchange(lease->unblock_when_known, false)) return;
          if (lease->client_id) return self->unblock(lease);
          lease->connection->close();  // no id to unblock with: the only way left
        });
  }
  lease->connection->submit(
      command, deadline, [self = shared_from_this(), call, lease](std::error_code ec, Reply reply) {
        self->on_reply(call, lease, ec, std::move(reply));
      });
}

void BlockingPool::on_reply(const CallPtr& call, const LeasePtr& lease, std::error_code ec,
                            Reply reply) {
  call->lease = nullptr;
  if (closed_ || call->finished) return release(lease, false);
  if (!ec) {
    release(lease, true);
    const bool time_left = !call->request.until || Clock::now() < *call->request.until;
    if (reply.is_null() && !call->cancelled && time_left) return start(call);  // a slice ended
    const auto status = reply.is_null() && call->cancelled
                            ? std::error_code(asio::error::operation_aborted)
                            : std::error_code{};
    return finish(call, status, std::move(reply));
  }
  if (reply.type == ReplyType::error) {
    if (node_moved_on(reply)) {
      release(lease, false);
      return retry_later(call, ec, std::move(reply));
    }
    release(lease, true);
    if (ec == make_error_code(errc::server_busy)) return retry_later(call, ec, std::move(reply));
    return finish(call, ec, std::move(reply));  // WRONGTYPE and the like: the caller's to know
  }
  // The connection broke, timed out or was closed under the command: a new one is opened.
  release(lease, false);
  if (!call->request.resend_after_loss && !call->cancelled) {
    // The pool runs on (closed_ is false): a connection closed under the command (reroute())
    // is a loss to the caller, not the client's shutdown.
    return finish(call, make_error_code(errc::connection_lost), std::move(reply));
  }
  retry_later(call, ec, std::move(reply));
}

void BlockingPool::retry_later(const CallPtr& call, std::error_code ec, Reply reply) {
  if (call->cancelled) return finish(call, asio::error::operation_aborted, Reply{});
  const auto now = Clock::now();
  if (call->request.until && now >= *call->request.until) {
    return finish(call, ec, std::move(reply));
  }
  call->last_error = ec;
  call->last_reply = std::move(reply);
  call->backoff = std::clamp(call->backoff * 2, kFirstBackoff, kMaxBackoff);
  auto at = now + call->backoff;
  if (call->request.until) at = std::min(at, *call->request.until);
  if (const auto router = router_.lock()) router->refresh([] {});
  call->timer.expires_at(at);
  call->timer.async_wait([self = shared_from_this(), call](std::error_code timer_ec) {
    if (timer_ec || call->finished) return;
    if (call->request.until && Clock::now() >= *call->request.until) {
      return self->finish(call, call->last_error, std::move(call->last_reply));
    }
    self->start(call);
  });
}

void BlockingPool::wait_for_connection(const CallPtr& call) {
  call->queued = true;
  waiting_.push_back(call);
  // A wait with an end gives up when it ends (or, for a wait shorter than a command, after a
  // command timeout): the caller learns that the pool was the bottleneck.
  const auto at_least = Clock::now() + command_timeout_;
  if (!call->request.until) return;
  call->timer.expires_at(std::max(*call->request.until, at_least));
  call->timer.async_wait([self = shared_from_this(), call](std::error_code timer_ec) {
    if (timer_ec || call->finished || !call->queued) return;
    Reply why;
    why.type = ReplyType::error;
    why.str = "all " + std::to_string(self->max_connections_) +
              " blocking connections (Config::blocking_connections) stayed busy";
    self->finish(call, make_error_code(errc::timeout), std::move(why));
  });
}

void BlockingPool::wake_waiter() {
  while (!waiting_.empty()) {
    const auto call = waiting_.front();
    if (call->finished) {
      waiting_.pop_front();
      continue;
    }
    const auto lease = lease_for(node_of(call->request.args.at(call->request.key_index)));
    if (!lease) return;
    waiting_.pop_front();
    call->queued = false;
    call->timer.cancel();
    send(call, lease);
  }
}

void BlockingPool::release(const LeasePtr& lease, bool reusable) {
  if (closed_ || !reusable) {
    lease->connection->close();
    if (open_ > 0) --open_;
  } else {
    idle_.push_back(lease);
  }
  if (!closed_) wake_waiter();
}

void BlockingPool::finish(const CallPtr& call, std::error_code ec, Reply reply) {
  if (call->finished) return;
  call->finished = true;
  call->queued = false;
  call->timer.cancel();
  std::erase(active_, call);
  std::erase(waiting_, call);
  auto callback = std::move(call->request.callback);
  if (callback) callback(ec, std::move(reply));
}

void BlockingPool::reroute() {
  if (closed_) return;
  const auto router = router_.lock();
  if (!router) return;
  // A command waiting on a node that no longer serves its key would wait there for nothing
  // until its slice ends (a demoted Redis 7.0 master keeps its blocked clients): its connection
  // is closed, and the callback sends the command again where the key now lives. That node is
  // no longer the key's master, so it has nothing left to hand out on the way.
  const auto calls = active_;
  for (const auto& call : calls) {
    const auto lease = call->lease;
    if (lease && node_key(lease->node) !=
                     node_key(node_of(call->request.args.at(call->request.key_index)))) {
      lease->connection->close();
    }
  }
  const auto masters = router->masters();
  std::erase_if(idle_, [&](const LeasePtr& lease) {
    const bool master = std::any_of(masters.begin(), masters.end(), [&](const auto& node) {
      return node_key(node) == node_key(lease->node);
    });
    if (master) return false;
    lease->connection->close();
    if (open_ > 0) --open_;
    return true;
  });
}

void BlockingPool::close() {
  std::vector<CallPtr> posted;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    posted.swap(posted_);
    // Marked under the lock: their posted start sees it and does nothing.
    for (const auto& call : posted) call->finished = true;
  }
  for (const auto& call : posted) {
    if (auto callback = std::move(call->request.callback)) {
      callback(make_error_code(errc::shutdown), Reply{});
    }
  }
  auto calls = active_;
  for (const auto& call : calls) {
    const auto lease = call->lease;
    finish(call, make_error_code(errc::shutdown), Reply{});
    if (lease) lease->connection->close();
  }
  for (const auto& lease : idle_) lease->connection->close();
  idle_.clear();
  waiting_.clear();
  open_ = 0;
}

}  // namespace redisson::detail

#include "topology/cluster_router.hpp"

#include <asio/post.hpp>
#include <charconv>

#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

constexpr std::chrono::milliseconds kRetryDelay{100};
// While a slot-serving master is unreachable, the map is asked again this often, so its
// promoted replica is found soon after the election (and not at the next scan_interval).
constexpr std::chrono::milliseconds kDownRefresh{500};
// What Connection::cancel_unsent fails a command with: it was never sent.
const std::error_code kNeverSent = std::make_error_code(std::errc::operation_canceled);

struct Redirect {
  int slot = -1;
  ClusterNodeAddress address;
};

// "MOVED 3999 127.0.0.1:6381" / "ASK 3999 :6381" (an empty host means: the node that answered).
std::optional<Redirect> parse_redirect(std::string_view text, const ClusterNodeAddress& from) {
  const auto first_space = text.find(' ');
  const auto second_space = text.find(' ', first_space + 1);
  if (first_space == std::string_view::npos || second_space == std::string_view::npos) {
    return std::nullopt;
  }
  Redirect redirect;
  const auto slot_text = text.substr(first_space + 1, second_space - first_space - 1);
  std::from_chars(slot_text.data(), slot_text.data() + slot_text.size(), redirect.slot);
  const auto endpoint = text.substr(second_space + 1);
  const auto colon = endpoint.rfind(':');
  if (colon == std::string_view::npos || redirect.slot < 0 || redirect.slot >= kClusterSlots) {
    return std::nullopt;
  }
  redirect.address.host = colon == 0 ? from.host : std::string(endpoint.substr(0, colon));
  const auto port_text = endpoint.substr(colon + 1);
  std::from_chars(port_text.data(), port_text.data() + port_text.size(), redirect.address.port);
  if (redirect.address.port <= 0) return std::nullopt;
  return redirect;
}

bool uses_sharded_pubsub(ShardedSubscriptionMode mode) {
  // Every server that has CLUSTER SHARDS (7.0+) has sharded pub/sub; on_map() corrects
  // `automatic` when the map had to come from CLUSTER SLOTS.
  return mode != ShardedSubscriptionMode::off;
}

}  // namespace

struct ClusterRouter::Request {
  Command command;
  Clock::time_point deadline;
  ReplyCallback callback;
  int redirects = 0;
  Router::SentHook after_send;  // runs after each send, on the same connection
};

ClusterRouter::ClusterRouter(asio::io_context& io, ConnectionOptions base, ClusterConfig config,
                             std::chrono::milliseconds command_timeout)
    : io_(io),
      base_(std::move(base)),
      config_(std::move(config)),
      command_timeout_(command_timeout),
      refreshes_(io, config_.scan_interval),
      down_timer_(io),
      sharded_(uses_sharded_pubsub(config_.sharded_subscription)) {
  owner_.fill(-1);
}

void ClusterRouter::start(StartCallback done) {
  on_started_ = std::move(done);
  std::vector<ClusterNodeAddress> seeds;
  for (const auto& seed : config_.node_addresses) seeds.push_back({seed.host, seed.port});
  if (seeds.empty()) {
    return std::exchange(on_started_, nullptr)(make_error_code(errc::invalid_argument),
                                               "the cluster config has no node_addresses");
  }
  asio::post(io_, [self = shared_from_this(), seeds = std::move(seeds)]() mutable {
    self->refreshing_ = true;
    self->query_map(std::move(seeds), 0, false, {});
  });
}

int ClusterRouter::node_index_locked(const ClusterNodeAddress& address) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].address == address) return static_cast<int>(i);
  }
  nodes_.push_back(Node{address, nullptr});
  return static_cast<int>(nodes_.size() - 1);
}

std::shared_ptr<Connection> ClusterRouter::connection_locked(int node) {
  auto& entry = nodes_[static_cast<std::size_t>(node)];
  if (entry.connection) return entry.connection;
  auto options = base_;
  options.server.host = entry.address.host;
  options.server.port = entry.address.port;
  entry.connection = std::make_shared<Connection>(io_, options);
  std::weak_ptr<ClusterRouter> weak = weak_from_this();
  entry.connection->set_state_handler([weak](bool ready) {
    // A lost master may have been failed over: learn who serves its slots now.
    if (ready) return;
    if (auto self = weak.lock()) self->refreshes_.request(self);
  });
  entry.connection->start([](std::error_code) {});  // retried by the connection itself
  return entry.connection;
}

std::shared_ptr<Connection> ClusterRouter::connection_for_slot(int slot) {
  std::lock_guard lock(mutex_);
  if (closed_ || nodes_.empty()) return nullptr;
  int node = slot >= 0 ? owner_[static_cast<std::size_t>(slot)] : -1;
  if (node < 0) {
    // Keyless (or an uncovered slot): any master, preferably one already connected.
    for (const int master : master_nodes_) {
      const auto& candidate = nodes_[static_cast<std::size_t>(master)];
      if (candidate.connection && candidate.connection->ready()) {
        node = master;
        break;
      }
    }
    if (node < 0) node = owner_[0] >= 0 ? owner_[0] : 0;
  }
  return connection_locked(node);
}

std::shared_ptr<Connection> ClusterRouter::connection_for(std::optional<std::string_view> key) {
  return connection_for_slot(key ? key_slot(*key) : -1);
}

void ClusterRouter::submit(const Command& command, Clock::time_point deadline,
                           ReplyCallback callback, SentHook after_send, ReadSlot* read) {
  const auto key = command.routing_key();
  const int slot = key ? key_slot(*key) : -1;
  auto connection = connection_for_slot(slot);
  if (!connection) return callback(make_error_code(errc::shutdown), Reply{});
  send(std::make_shared<Request>(
           Request{command, deadline, std::move(callback), 0, std::move(after_send)}),
       std::move(connection), false, read);
}

void ClusterRouter::send(const std::shared_ptr<Request>& request,
                         std::shared_ptr<Connection> connection, bool asking, ReadSlot* read) {
  // Pipelined right behind ASKING; a command from another thread could slip in between, in
  // which case ours meets ASK again and is retried (bounded by kMaxRedirects).
  if (asking)
    connection->submit(Command{"ASKING"}, request->deadline, [](std::error_code, const Reply&) {});
  ClusterNodeAddress from;
  {
    std::lock_guard lock(mutex_);
    for (const auto& node : nodes_) {
      if (node.connection == connection) from = node.address;
    }
  }
  // Named before `from` moves into the reply handler: the hook keys per-node state by it.
  std::string node = request->after_send ? from.host + ":" + std::to_string(from.port) : "";
  connection->submit(
      request->command, request->deadline,
      [self = shared_from_this(), request, from = std::move(from)](
          std::error_code ec, Reply reply) { self->on_reply(request, from, ec, std::move(reply)); },
      read);
  if (request->after_send) request->after_send(connection, node);
}

void ClusterRouter::on_reply(const std::shared_ptr<Request>& request,
                             const ClusterNodeAddress& from, std::error_code ec, Reply reply) {
  if (ec == kNeverSent) {
    // Taken back unsent from a master that died and lost its slots (on_map): the server never
    // saw it, so it goes to the slots' new master like a redirection.
    if (++request->redirects > kMaxRedirects || Clock::now() >= request->deadline) {
      return request->callback(make_error_code(errc::timeout), Reply{});
    }
    const auto key = request->command.routing_key();
    auto connection = connection_for_slot(key ? key_slot(*key) : -1);
    if (!connection) return request->callback(make_error_code(errc::shutdown), Reply{});
    return send(request, std::move(connection), false);
  }
  if (ec != errc::server_error && ec != errc::server_busy) {
    return request->callback(ec, std::move(reply));
  }
  const std::string_view text = reply.str;
  const bool moved = text.starts_with("MOVED ");
  const bool ask = text.starts_with("ASK ");
  const bool again = text.starts_with("TRYAGAIN") || text.starts_with("CLUSTERDOWN");
  if (!moved && !ask && !again) return request->callback(ec, std::move(reply));
  if (again) {
    // The slot is migrating or the cluster is electing a master: the command did not run; try
    // again shortly until its deadline. Not counted as a redirection: a failover keeps the
    // cluster down for node_timeout and the election, far longer than kMaxRedirects quick
    // retries (a semaphore release that gave up after them lost its permit for good).
    if (Clock::now() + kRetryDelay >= request->deadline) {
      return request->callback(ec, std::move(reply));
    }
    refreshes_.request(weak_from_this());
    auto timer = std::make_shared<asio::steady_timer>(io_, kRetryDelay);
    timer->async_wait([self = shared_from_this(), request, timer](std::error_code) {
      const auto key = request->command.routing_key();
      auto connection = self->connection_for_slot(key ? key_slot(*key) : -1);
      if (!connection) return request->callback(make_error_code(errc::shutdown), Reply{});
      self->send(request, std::move(connection), false);
    });
    return;
  }
  if (++request->redirects > kMaxRedirects) {
    reply.str += " (gave up after " + std::to_string(kMaxRedirects) + " cluster redirections)";
    return request->callback(ec, std::move(reply));
  }
  const auto redirect = parse_redirect(text, from);
  if (!redirect) return request->callback(ec, std::move(reply));
  std::shared_ptr<Connection> target;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return request->callback(make_error_code(errc::shutdown), Reply{});
    const int node = node_index_locked(redirect->address);
    if (moved) owner_[static_cast<std::size_t>(redirect->slot)] = static_cast<std::int16_t>(node);
    target = connection_locked(node);
  }
  // One slot moved usually means more did (a migration, a failover): learn the whole map, from
  // the node that owns the slot now (it knows; another node may not have heard yet, and its map
  // would send this slot's commands, and the subscriptions of its channels, back to the old
  // master).
  if (moved) refreshes_.request_asking(weak_from_this(), server_address(redirect->address));
  send(request, std::move(target), ask);
}

void ClusterRouter::refresh(std::function<void()> done) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
  }
  if (refreshing_) {
    // The map under way may predate what made the caller ask: wait for the next one.
    refresh_again_ = true;
    if (done) next_refresh_waiters_.push_back(std::move(done));
    return;
  }
  if (done) refresh_waiters_.push_back(std::move(done));
  refreshing_ = true;
  // Ask the node named by refresh_asking() first, then connected nodes, then every other known
  // node, then the seeds.
  std::vector<ClusterNodeAddress> ready;
  std::vector<ClusterNodeAddress> others;
  const auto first = std::exchange(ask_first_, std::nullopt);
  if (first) ready.push_back(*first);
  {
    std::lock_guard lock(mutex_);
    for (const auto& node : nodes_) {
      if (first && node.address == *first) continue;
      (node.connection && node.connection->ready() ? ready : others).push_back(node.address);
    }
  }
  for (const auto& seed : config_.node_addresses) {
    const ClusterNodeAddress address{seed.host, seed.port};
    if (std::find(others.begin(), others.end(), address) == others.end() &&
        std::find(ready.begin(), ready.end(), address) == ready.end()) {
      others.push_back(address);
    }
  }
  ready.insert(ready.end(), others.begin(), others.end());
  query_map(std::move(ready), 0, false, {});
}

void ClusterRouter::refresh_asking(const ServerAddress& first, std::function<void()> done) {
  // Kept until a refresh starts: the one under way (if any) has asked its nodes already.
  ask_first_ = ClusterNodeAddress{first.host, first.port};
  refresh(std::move(done));
}

void ClusterRouter::query_map(std::vector<ClusterNodeAddress> candidates, std::size_t next,
                              bool use_slots, const std::string& last_error) {
  if (next >= candidates.size()) {
    return finish_refresh(make_error_code(errc::connect_failed),
                          "no cluster node answered CLUSTER SHARDS/SLOTS" +
                              (last_error.empty() ? std::string() : ": " + last_error));
  }
  std::shared_ptr<Connection> connection;
  {
    std::lock_guard lock(mutex_);
    if (!closed_) connection = connection_locked(node_index_locked(candidates[next]));
  }
  // Outside the lock: finish_refresh takes it.
  if (!connection) return finish_refresh(make_error_code(errc::shutdown), "closed");
  Command command = use_slots ? Command{"CLUSTER", "SLOTS"} : Command{"CLUSTER", "SHARDS"};
  connection->submit(
      command, Clock::now() + command_timeout_,
      [self = shared_from_this(), candidates = std::move(candidates), next, use_slots, connection](
          std::error_code ec, const Reply& reply) mutable {
        if (!ec) {
          auto map = use_slots ? parse_cluster_slots(reply) : parse_cluster_shards(reply);
          if (map && map->covered_slots() > 0) {
            if (use_slots &&
                self->config_.sharded_subscription == ShardedSubscriptionMode::automatic) {
              self->sharded_ = false;  // no CLUSTER SHARDS: a server before 7.0
            }
            self->on_map(std::move(*map));
            return self->finish_refresh({}, {});
          }
          return self->query_map(std::move(candidates), next + 1, false,
                                 "an empty or unreadable slot map");
        }
        if (!use_slots && ec == errc::server_error) {
          return self->query_map(std::move(candidates), next, true, reply.str);
        }
        const std::string detail = reply.str.empty() ? connection->last_error() : reply.str;
        self->query_map(std::move(candidates), next + 1, false,
                        detail.empty() ? ec.message() : detail);
      });
}

void ClusterRouter::on_map(SlotMap map) {
  std::vector<ClusterNodeAddress> owners(kClusterSlots);
  std::vector<std::shared_ptr<Connection>> orphaned;
  {
    std::lock_guard lock(mutex_);
    std::vector<int> index_of_master;
    for (const auto& master : map.masters) index_of_master.push_back(node_index_locked(master));
    master_nodes_ = index_of_master;
    for (std::size_t slot = 0; slot < owner_.size(); ++slot) {
      const auto master = map.owner[slot];
      owner_[slot] =
          master < 0 ? std::int16_t{-1}
                     : static_cast<std::int16_t>(index_of_master[static_cast<std::size_t>(master)]);
      if (master >= 0) owners[slot] = map.masters[static_cast<std::size_t>(master)];
    }
    // A node that serves no slot any more and cannot be reached (a crashed master that was
    // failed over) will never answer what is queued for it: those commands move to the new
    // owners. A reachable one answers MOVED instead.
    std::vector<bool> serves(nodes_.size(), false);
    for (const auto node : owner_) {
      if (node >= 0) serves[static_cast<std::size_t>(node)] = true;
    }
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto& connection = nodes_[i].connection;
      if (!serves[i] && connection && !connection->ready()) orphaned.push_back(connection);
    }
  }
  for (const auto& connection : orphaned) connection->cancel_unsent(kNeverSent);
  const bool changed = !notified_owners_.empty() && owners != notified_owners_;
  notified_owners_ = std::move(owners);
  if (changed && change_handler_) change_handler_();
}

void ClusterRouter::finish_refresh(std::error_code ec, const std::string& detail) {
  refreshing_ = false;
  if (on_started_) {
    auto started = std::exchange(on_started_, nullptr);
    if (!ec) refreshes_.start(weak_from_this());
    started(ec, detail);
    return;
  }
  auto waiters = std::exchange(refresh_waiters_, {});
  if (std::exchange(refresh_again_, false)) {
    refresh_waiters_ = std::exchange(next_refresh_waiters_, {});
    refresh(nullptr);
  } else if (!down_refresh_armed_ && serving_master_down()) {
    down_refresh_armed_ = true;
    down_timer_.expires_after(kDownRefresh);
    down_timer_.async_wait([weak = weak_from_this()](std::error_code timer_ec) {
      if (timer_ec) return;
      if (auto self = weak.lock()) {
        self->down_refresh_armed_ = false;
        self->refresh(nullptr);
      }
    });
  }
  for (auto& waiter : waiters) waiter();
}

bool ClusterRouter::serving_master_down() const {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  for (const int master : master_nodes_) {
    const auto& connection = nodes_[static_cast<std::size_t>(master)].connection;
    if (connection && !connection->ready()) return true;
  }
  return false;
}

ServerAddress ClusterRouter::server_address(const ClusterNodeAddress& node) const {
  ServerAddress address = base_.server;
  address.host = node.host;
  address.port = node.port;
  return address;
}

std::vector<ServerAddress> ClusterRouter::masters() const {
  std::lock_guard lock(mutex_);
  std::vector<ServerAddress> masters;
  for (const int master : master_nodes_) {
    masters.push_back(server_address(nodes_[static_cast<std::size_t>(master)].address));
  }
  return masters;
}

void ClusterRouter::submit_to(const ServerAddress& node, const Command& command,
                              Clock::time_point deadline, ReplyCallback callback) {
  std::shared_ptr<Connection> connection;
  {
    std::lock_guard lock(mutex_);
    if (!closed_) connection = connection_locked(node_index_locked({node.host, node.port}));
  }
  if (!connection) return callback(make_error_code(errc::shutdown), Reply{});
  connection->submit(command, deadline, std::move(callback));
}

ServerAddress ClusterRouter::pubsub_node(std::string_view channel) const {
  std::lock_guard lock(mutex_);
  int node = owner_[static_cast<std::size_t>(key_slot(channel))];
  if (node < 0) node = owner_[0];
  if (node < 0) return base_.server;
  return server_address(nodes_[static_cast<std::size_t>(node)].address);
}

std::string ClusterRouter::owner_of(int slot) const {
  std::lock_guard lock(mutex_);
  const int node = owner_[static_cast<std::size_t>(slot)];
  if (node < 0) return {};
  const auto& address = nodes_[static_cast<std::size_t>(node)].address;
  return address.host + ":" + std::to_string(address.port);
}

bool ClusterRouter::connected() const {
  std::lock_guard lock(mutex_);
  for (const auto& node : nodes_) {
    if (node.connection && node.connection->ready()) return true;
  }
  return false;
}

void ClusterRouter::close() {
  std::vector<std::shared_ptr<Connection>> connections;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    for (auto& node : nodes_) {
      if (node.connection) connections.push_back(std::move(node.connection));
    }
  }
  refreshes_.cancel();
  down_timer_.cancel();
  change_handler_ = nullptr;
  for (auto& connection : connections) connection->close();
}

}  // namespace redisson::detail

#include "client/client_core.hpp"

#include <algorithm>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <future>
#include <mutex>

#include "client/blocking_pool.hpp"
#include "client/client_id.hpp"
#include "client/failure_report.hpp"
#include "client/live_cores.hpp"
#include "client/replica_ack.hpp"
#include "net/batch_clock.hpp"
#include "net/node_key.hpp"
#include "net/tls_context.hpp"
#include "pubsub/routed_pubsub.hpp"
#include "pubsub/subscriber.hpp"
#include "redisson/codec.hpp"
#include "redisson/error.hpp"
#include "script/script_runner.hpp"
#include "threads/join_threads.hpp"
#include "topology/cluster_router.hpp"
#include "topology/sentinel_router.hpp"
#include "topology/single_server_router.hpp"

namespace redisson::detail {
namespace {

thread_local const ClientCore* current_io_core = nullptr;

}  // namespace

ConnectionOptions connection_options(const Config& config, const std::string& name) {
  ConnectionOptions options;
  options.server = config.server;
  options.client_name = name;
  options.connect_timeout = config.connect_timeout;
  options.reconnect_max_delay = config.reconnect_max_delay;
  options.resp3 = config.resp3;
  options.tls = config.tls;
  return options;
}

namespace {

// True when any address of the deployment is rediss://.
bool uses_tls(const Config& config) {
  const auto any_tls = [](const std::vector<ServerAddress>& addresses) {
    return std::any_of(addresses.begin(), addresses.end(),
                       [](const ServerAddress& address) { return address.tls; });
  };
  return config.server.tls || (config.cluster && any_tls(config.cluster->node_addresses)) ||
         (config.sentinel && any_tls(config.sentinel->sentinel_addresses)) ||
         (config.master_slave &&
          (config.master_slave->master.tls || any_tls(config.master_slave->slave_addresses)));
}

}  // namespace

ClientCore::ClientCore(Config config)
    : config_(std::move(config)), id_(make_client_id()), work_(io_.get_executor()) {
  if (config_.client_name.empty()) config_.client_name = "redisson-cpp:" + id_;
  // Decided once: objects, services and the remote/executor ids all compare with this pointer.
  if (!config_.codec) config_.codec = codecs::kryo5();
}

ClientCore::~ClientCore() { shutdown(); }

bool ClientCore::on_io_thread() const noexcept { return current_io_core == this; }

void ClientCore::start() {
  if ((config_.cluster ? 1 : 0) + (config_.sentinel ? 1 : 0) + (config_.master_slave ? 1 : 0) > 1) {
    throw error(errc::invalid_argument, "set at most one of cluster, sentinel and master_slave");
  }
  if (config_.command_timeout.count() <= 0 || config_.connect_timeout.count() <= 0) {
    throw error(errc::invalid_argument, "command_timeout and connect_timeout must be positive");
  }
  if (config_.blocking_connections < 1) {
    throw error(errc::invalid_argument, "blocking_connections must be at least 1 (got " +
                                            std::to_string(config_.blocking_connections) + ")");
  }
  const auto& eviction = config_.eviction;
  if (eviction.min_delay.count() <= 0 || eviction.max_delay < eviction.min_delay ||
      eviction.keys_limit < 1 || eviction.keys_limit > 5000) {
    // 5000: the sweep scripts unpack a run's entries into one command's arguments.
    throw error(errc::invalid_argument,
                "eviction: min_delay must be positive, max_delay at least min_delay and "
                "keys_limit within 1..5000");
  }
  // The connections, acquire loops and subscriber run their handlers unsynchronised on the I/O
  // thread; a second thread running the same io_context would race them.
  if (config_.io_threads != 1) {
    throw error(errc::invalid_argument,
                "io_threads must be 1 (got " + std::to_string(config_.io_threads) +
                    "): one I/O thread serves every connection of a client; for more throughput "
                    "use more Clients");
  }
  if (config_.listener_threads < 1) {
    throw error(errc::invalid_argument, "listener_threads must be at least 1 (got " +
                                            std::to_string(config_.listener_threads) + ")");
  }
  if (config_.reliable_topic_watchdog_timeout.count() <= 0) {
    throw error(errc::invalid_argument,
                "reliable_topic_watchdog_timeout must be positive (got " +
                    std::to_string(config_.reliable_topic_watchdog_timeout.count()) + " ms)");
  }
  // An unusable CA, certificate or key file is reported here, on the caller's thread, and not
  // from the I/O thread of a router that opens node connections later.
  if (uses_tls(config_)) make_tls_context(config_.tls);
  if (config_.sync_replicas) {
    if (config_.sync_replicas_timeout.count() <= 0) {
      throw error(errc::invalid_argument, "sync_replicas_timeout must be positive");
    }
    replica_ack_ =
        std::make_shared<ReplicaAck>(config_.sync_replicas_timeout, config_.command_timeout);
  }
  auto options = connection_options(config_, config_.client_name);
  if (config_.master_slave) {
    // Every lock and synchronizer operation writes, so all of it goes to the master: a
    // master/slave client is a single-server client of its master (read_mode has nothing to
    // route). The master's URL may carry its own login; otherwise Config::server's is used.
    const auto& master = config_.master_slave->master;
    options.server.host = master.host;
    options.server.port = master.port;
    options.server.tls = master.tls;
    if (!master.password.empty()) {
      options.server.username = master.username;
      options.server.password = master.password;
    }
    if (master.database != 0) options.server.database = master.database;
  }
  start_router(options);
  add_live_core(shared_from_this());
}

void ClientCore::start_io_threads() {
  for (int i = 0; i < config_.io_threads; ++i) {
    threads_.emplace_back([this] {
      current_io_core = this;
      io_.run();
    });
  }
}

void ClientCore::start_router(const ConnectionOptions& options) {
  const bool single = !config_.cluster && !config_.sentinel;
  if (config_.cluster) {
    router_ =
        std::make_shared<ClusterRouter>(io_, options, *config_.cluster, config_.command_timeout);
  } else if (config_.sentinel) {
    router_ = std::make_shared<SentinelRouter>(
        io_, options, *config_.sentinel, config_.command_timeout, config_.subscription_timeout);
  } else {
    router_ = std::make_shared<SingleServerRouter>(io_, options);
  }
  scripts_ = std::make_shared<ScriptRunner>(io_, router_);
  blocking_pool_ = std::make_shared<BlockingPool>(
      io_, options, router_, static_cast<std::size_t>(config_.blocking_connections),
      config_.command_timeout);
  // One node: one subscriber connection to it. Otherwise pub/sub follows the router (below).
  if (single)
    subscriber_ = std::make_shared<Subscriber>(io_, options, config_.subscription_timeout);
  start_io_threads();
  std::promise<std::pair<std::error_code, std::string>> first;
  auto started = first.get_future();
  router_->start([&first](std::error_code ec, const std::string& detail) {
    first.set_value({ec, detail});
  });
  const auto [ec, detail] = started.get();
  if (ec) {
    shutdown();
    const std::string what = config_.cluster ? "cannot start the cluster client"
                             : config_.sentinel
                                 ? "cannot start the sentinel client"
                                 : "cannot connect to " + options.server.to_safe_url();
    throw error(ec, what + (detail.empty() ? "" : ": " + detail));
  }
  if (single) return;
  const bool sharded = router_->sharded_pubsub();
  if (sharded) publish_command_ = "spublish";
  // Pub/sub follows the router: the master of the channel's slot, re-evaluated on every change.
  std::weak_ptr<Router> weak_router = router_;
  auto pubsub = std::make_shared<RoutedPubSub>(
      io_, options, config_.subscription_timeout, sharded,
      [weak_router, fallback = config_.server](std::string_view channel) {
        const auto router = weak_router.lock();
        return router ? router->pubsub_node(channel) : fallback;
      },
      [weak_router] {
        const auto router = weak_router.lock();
        return router ? router->masters() : std::vector<ServerAddress>{};
      },
      [weak_router](const ServerAddress& first, std::function<void()> done) {
        if (const auto router = weak_router.lock()) router->refresh_asking(first, std::move(done));
      });
  std::promise<void> wired;
  asio::post(io_, [&] {
    subscriber_ = pubsub;
    router_->set_change_handler([weak = std::weak_ptr<RoutedPubSub>(pubsub),
                                 weak_pool = std::weak_ptr<BlockingPool>(blocking_pool_),
                                 weak_core = weak_from_this()] {
      if (const auto routed = weak.lock()) routed->reroute();
      if (const auto pool = weak_pool.lock()) pool->reroute();
      if (const auto core = weak_core.lock()) {
        core->note_masters();
        core->services_.topology_changed();
      }
    });
    note_masters();  // the masters the client starts with
    wired.set_value();
  });
  wired.get_future().wait();
}

void ClientCore::note_masters() {
  if (!replica_ack_ || !router_) return;
  std::vector<std::string> masters;
  for (const auto& master : router_->masters()) masters.push_back(node_key(master));
  replica_ack_->masters_changed(masters);
}

bool ClientCore::connected() const noexcept { return router_ && router_->connected(); }

void ClientCore::run_on_io(std::function<void()> fn) {
  if (on_io_thread()) return fn();
  asio::post(io_, std::move(fn));
}

std::shared_ptr<void> ClientCore::shared_task(const std::string& key,
                                              const std::function<std::shared_ptr<void>()>& make) {
  std::lock_guard lock(tasks_mutex_);
  std::erase_if(tasks_, [](const auto& entry) { return entry.second.expired(); });
  if (auto live = tasks_[key].lock()) return live;
  auto task = make();
  tasks_[key] = task;
  return task;
}

void ClientCore::owner_exited(OwnerId owner) noexcept {
  if (stopped_) return;
  try {
    run_on_io([weak = weak_from_this(), owner] {
      if (auto self = weak.lock(); self && !self->stopped_) self->services_.owner_exited(owner);
    });
  } catch (...) {
    // No memory: that thread's holds stay renewed until shutdown.
  }
}

void ClientCore::shutdown() noexcept {
  if (stopped_.exchange(true)) return;
  try {
    stop_and_join();
  } catch (...) {
    // A promise, a post or a join that could not get memory or a thread: what did not stop
    // ends with the process. Said rather than thrown out of a destructor.
    report_failure(config_, error(errc::shutdown, "client shutdown did not finish"));
  }
}

void ClientCore::stop_and_join() {
  // The watchdog stops renewing, then releases what it renewed while the connections still
  // carry the unlocks and the I/O thread delivers their answers.
  services_.shutdown_started(/*can_wait=*/!threads_.empty() && !on_io_thread());
  auto close_all = [this] {
    services_.closing();
    if (subscriber_) subscriber_->close();
    if (blocking_pool_) blocking_pool_->close();
    if (router_) router_->close();
  };
  if (threads_.empty() || on_io_thread()) {
    close_all();
  } else {
    std::promise<void> closed;
    asio::post(io_, [&] {
      close_all();
      closed.set_value();
    });
    closed.get_future().wait();
  }
  work_.reset();
  io_.stop();
  join_threads(threads_);
  // Nothing runs any more: the watchdog drops its holds (each keeps its lock kind, which keeps
  // this core).
  services_.stopped();
}

void ClientCore::submit(const Command& command, ReplyCallback callback, ReadSlot* read) {
  submit(command, BatchClock::now() + config_.command_timeout, std::move(callback), read);
}

void ClientCore::submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
                        ReadSlot* read) {
  if (router_) return router_->submit(command, deadline, std::move(callback), nullptr, read);
  callback(make_error_code(errc::shutdown), Reply{});
}

void ClientCore::eval(const Script& script, Command evalsha, ReplyCallback callback,
                      ReadSlot* read) {
  eval_on(script, std::move(evalsha), std::move(callback), nullptr, read);
}

void ClientCore::eval_on(const Script& script, Command evalsha, ReplyCallback callback,
                         Router::SentHook after_send, ReadSlot* read) {
  if (!scripts_) return callback(make_error_code(errc::shutdown), Reply{});
  scripts_->eval(script, std::move(evalsha), BatchClock::now() + config_.command_timeout,
                 std::move(callback), std::move(after_send), read);
}

namespace {

// One script call followed by a replica check: the script's reply and the check's outcome
// arrive in either order (the check of the last send counts), and the caller hears once.
struct AckedEval {
  std::mutex mutex;
  std::uint64_t sends = 0;  // a resend (redirect, NOSCRIPT) restarts the check
  bool script_done = false;
  bool outcome_known = false;
  bool finished = false;
  ReplicaOutcome outcome = ReplicaOutcome::unchecked;
  std::error_code ec;
  Reply reply;
  ReplyCallback callback;
  bool require = false;

  // Called with `mutex` held; returns the completion to run once it is released.
  UniqueFunction<void()> finish_locked() {
    if (finished || !script_done || (!ec && !outcome_known)) return nullptr;
    finished = true;
    auto result = ec;
    if (!result && require && outcome == ReplicaOutcome::not_acknowledged) {
      result = make_error_code(errc::not_replicated);
    }
    return [callback = std::move(callback), result, reply = std::move(reply)]() mutable {
      callback(result, std::move(reply));
    };
  }
};

}  // namespace

void ClientCore::eval(const Script& script, Command evalsha, ReplyCallback callback,
                      ReplicaWait replicas, ReadSlot* read) {
  if (replicas == ReplicaWait::none || !replica_ack_) {
    return eval(script, std::move(evalsha), std::move(callback), read);
  }
  auto state = std::make_shared<AckedEval>();
  state->callback = std::move(callback);
  state->require = replicas == ReplicaWait::require || replicas == ReplicaWait::report;
  auto after_send = [state, ack = replica_ack_](const std::shared_ptr<Connection>& connection,
                                                const std::string& node) {
    std::uint64_t send = 0;
    {
      std::lock_guard lock(state->mutex);
      send = ++state->sends;
      state->outcome_known = false;
    }
    ack->follow(connection, node, [state, send](ReplicaOutcome outcome) {
      UniqueFunction<void()> complete;
      {
        std::lock_guard lock(state->mutex);
        if (send != state->sends) return;  // a check of an earlier send
        state->outcome = outcome;
        state->outcome_known = true;
        complete = state->finish_locked();
      }
      if (complete) complete();
    });
  };
  eval_on(
      script, std::move(evalsha),
      [state](std::error_code ec, Reply reply) {
        UniqueFunction<void()> complete;
        {
          std::lock_guard lock(state->mutex);
          state->ec = ec;
          state->reply = std::move(reply);
          state->script_done = true;
          // A failed script changed nothing worth checking (or may not have run at all): report
          // it without waiting for the replicas.
          complete = state->finish_locked();
        }
        if (complete) complete();
      },
      std::move(after_send), read);
}

PubSub& ClientCore::subscriber() { return *subscriber_; }

}  // namespace redisson::detail

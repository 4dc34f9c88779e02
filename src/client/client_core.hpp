// The shared state behind a Client and every object made from it: the I/O thread, the Router
// that picks a node per command (topology/), the script runner on top of it, the pub/sub
// subscriber, and the services the layers above add (client/client_services.hpp: the lock
// watchdog, the synchronizers' release bookkeeping), which it starts and stops without knowing
// them.
#pragma once

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_services.hpp"
#include "net/connection.hpp"
#include "pubsub/pubsub.hpp"
#include "redisson/client.hpp"
#include "redisson/config.hpp"
#include "redisson/detail/read_slot.hpp"
#include "script/script_def.hpp"

namespace redisson::detail {

class BlockingPool;
class Router;
class ReplicaAck;
class ScriptRunner;

/// What a synchronizer's state-changing script asks of the replicas when Config::sync_replicas
/// is on (without it, all three mean `none`).
enum class ReplicaWait {
  none,     ///< nothing: reads, and scripts outside the synchronizers
  wait,     ///< WAIT after it, outcome not reported: watchdog renewals, which have no caller
  require,  ///< WAIT after it; when the node has replicas and none acknowledged, the callback
            ///< gets errc::not_replicated *with the script's reply*: the caller undoes an
            ///< acquisition (a lock, permits) and reports the rest (an unlock, a release); the
            ///< synchronizers' retries send it again (sync/retry.hpp)
  report,   ///< as require, but never sent again for not_replicated: a semaphore release, which
            ///< on a new master that lost the acquisition too would add a permit nobody took
};

/// The options of a connection of this client's deployment (its first address), named `name`
/// (CLIENT SETNAME): what every connection of a client starts from.
ConnectionOptions connection_options(const Config& config, const std::string& name);

class ClientCore : public std::enable_shared_from_this<ClientCore> {
 public:
  explicit ClientCore(Config config);
  ~ClientCore();

  /// Starts the I/O thread(s) and connects; throws redisson::error when the server cannot
  /// be reached or refuses the login within connect_timeout.
  void start();
  /// Stops the client: tells its services (ClientService::shutdown_started: the watchdog stops
  /// and releases the holds it renewed, Config::release_locks_on_shutdown, unless called on the
  /// I/O thread, which cannot wait for the answers), then closes everything.
  void shutdown() noexcept;
  /// The thread whose owner is `owner` exited (client/live_cores.hpp): tells the services on
  /// the I/O thread (the watchdog stops renewing its holds). Any thread; never blocks.
  void owner_exited(OwnerId owner) noexcept;

  /// This client's `Service`, made on first use (client/client_services.hpp). Any thread.
  template <class Service>
  Service& service() {
    return services_.use<Service>(*this);
  }

  const Config& config() const noexcept { return config_; }
  const std::string& id() const noexcept { return id_; }
  asio::io_context& io() noexcept { return io_; }
  asio::any_io_executor executor() noexcept { return io_.get_executor(); }
  asio::io_context::executor_type io_executor() noexcept { return io_.get_executor(); }
  bool on_io_thread() const noexcept;
  /// True once shutdown() began: work posted to the I/O thread from now on may never run.
  bool stopping() const noexcept { return stopped_.load(std::memory_order_acquire); }
  bool connected() const noexcept;

  /// Queues a command with the default command timeout. `read`, in every submit and eval: a
  /// blocking call's slot (redisson/detail/read_slot.hpp), passed only by the start of a call
  /// that then calls read_own_reply() (its callback may run on the caller's thread).
  void submit(const Command& command, ReplyCallback callback, ReadSlot* read = nullptr);
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
              ReadSlot* read = nullptr);
  /// Runs a script with the command timeout (script/script_runner.hpp: EVALSHA, EVAL on
  /// NOSCRIPT, LOADING/BUSY sent again until the deadline).
  void eval(const Script& script, Command evalsha, ReplyCallback callback,
            ReadSlot* read = nullptr);
  /// eval() followed, on the same node's connection, by a replica acknowledgement check.
  void eval(const Script& script, Command evalsha, ReplyCallback callback, ReplicaWait replicas,
            ReadSlot* read = nullptr);
  void eval(ScriptCall call, ReplyCallback callback, ReplicaWait replicas = ReplicaWait::none,
            ReadSlot* read = nullptr) {
    eval(call.script, std::move(call.command), std::move(callback), replicas, read);
  }

  /// Pub/sub; run on the I/O thread (post to it from elsewhere).
  PubSub& subscriber();
  /// The command the lock scripts publish with: "spublish" when lock channels are sharded
  /// (a Redis 7 cluster), else "publish".
  const std::string& publish_command() const noexcept { return publish_command_; }
  /// True on a Redis Cluster, where one script call may only touch keys of one hash slot.
  bool is_cluster() const noexcept { return config_.cluster.has_value(); }
  Router& router() noexcept { return *router_; }
  /// The dedicated connections of blocking commands (client/blocking_pool.hpp).
  BlockingPool& blocking_pool() noexcept { return *blocking_pool_; }

  /// Runs `fn` on the I/O thread (inline when already there).
  void run_on_io(std::function<void()> fn);

  /// A background task of this client shared by every handle that asks for `key` (a delayed
  /// queue's transfer task: one per client and queue, as in Redisson): the live one, or a new
  /// one from `make`. It lives while some handle holds it.
  std::shared_ptr<void> shared_task(const std::string& key,
                                    const std::function<std::shared_ptr<void>()>& make);

 private:
  // shutdown()'s steps; throws only when the process runs out of memory or threads.
  void stop_and_join();
  Config config_;
  std::string id_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
  void start_router(const ConnectionOptions& options);
  void start_io_threads();
  /// Tells the replica check (Config::sync_replicas) the masters now: a promoted one is checked
  /// even without replicas for a while (replica_ack.hpp). Nothing without sync_replicas.
  void note_masters();
  void eval_on(
      const Script& script, Command evalsha, ReplyCallback callback,
      std::function<void(const std::shared_ptr<Connection>&, const std::string&)> after_send,
      ReadSlot* read);

  std::shared_ptr<ReplicaAck> replica_ack_;  // Config::sync_replicas only
  std::shared_ptr<Router> router_;
  std::shared_ptr<ScriptRunner> scripts_;
  std::shared_ptr<PubSub> subscriber_;
  std::shared_ptr<BlockingPool> blocking_pool_;
  std::string publish_command_ = "publish";
  // Destroyed before the connections and the io_context its services' timers use.
  ClientServices services_;
  std::atomic<bool> stopped_{false};
  std::mutex tasks_mutex_;
  std::map<std::string, std::weak_ptr<void>> tasks_;
};

}  // namespace redisson::detail

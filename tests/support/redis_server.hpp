// A throwaway redis-server for integration tests.
//
// Each RedisServer is one redis-server process started with fork+exec (no shell) on a free
// 127.0.0.1 port, with no persistence, DEBUG allowed from loopback, and its own temp dir (log in
// <dir>/redis.log). It is the test's child process, so it never outlives the test:
//   - the destructor stops it by PID (SIGTERM, bounded wait, SIGKILL) and removes the dir;
//   - if the test process dies, the kernel kills it (PR_SET_PDEATHSIG). Note that the signal fires
//     when the *thread* that started the server exits, so start servers from a thread that outlives
//     them (the test's main thread, as in any fixture or test body);
//   - a guard thread kills it after `max_lifetime` whatever happens.
//
// command() talks to the server over a fresh raw socket with a private RESP2 reader, so tests can
// set up and inspect state without going through the library under test.
//
// Cost: starting takes a few milliseconds (until PING answers); every command() is one connect
// plus one round trip.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace redisson::test {

/// PEM files for a server that also listens for TLS (see RedisServerOptions::tls).
struct RedisServerTls {
  std::string cert_file;  ///< --tls-cert-file
  std::string key_file;   ///< --tls-key-file
  std::string ca_file;    ///< --tls-ca-cert-file (verifies client certificates)
  /// --tls-auth-clients: "no", "optional" (checked when sent) or "yes" (required).
  std::string auth_clients = "no";
};

struct RedisServerOptions {
  /// Extra redis-server arguments, appended after the fixture's own (so they can override them),
  /// e.g. {"--requirepass", "secret"}. Do not pass --port, --dir or --daemonize.
  std::vector<std::string> extra_args;
  /// The server is killed (SIGKILL) this long after each start, even if the test hangs.
  std::chrono::seconds max_lifetime{600};
  /// When not empty: written to <dir>/redis.conf once, before the first start, and passed as the
  /// config file (redis-server's first argument; the fixture's options still override it). A
  /// sentinel needs one (with "--sentinel" in extra_args); it rewrites the file, and start() after
  /// stop() reuses what it wrote, as a restarted sentinel would.
  std::string config_text{};
  /// Draws the port from below the kernel's ephemeral port range so that port + 10000, a cluster
  /// node's bus port, is a valid port, free as well, and never some client's outgoing port.
  bool cluster_bus_port = false;
  /// When set, the server also accepts TLS on tls_port() (a second free port). The plain port
  /// stays open, so command() keeps working as the test's side channel.
  std::optional<RedisServerTls> tls{};
};

class RedisServer {
 public:
  /// Starts a server and waits until it answers PING; throws std::runtime_error (with the tail of
  /// redis.log) when it does not within ~10 s. Retries on another port if its port was taken.
  explicit RedisServer(RedisServerOptions options = {});
  /// Stops the server by PID and removes its temp dir. Never throws.
  ~RedisServer();

  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  RedisServer(RedisServer&&) = delete;
  RedisServer& operator=(RedisServer&&) = delete;

  /// The server's port; it stays the same across stop() and start().
  int port() const { return port_; }
  /// PID of the running server process, or -1 while it is stopped.
  pid_t pid() const { return pid_; }
  std::string host() const { return "127.0.0.1"; }
  /// "redis://127.0.0.1:PORT" (no password, even when --requirepass was passed).
  std::string url() const;
  /// The TLS port (0 unless started with RedisServerOptions::tls); it stays the same across
  /// stop() and start().
  int tls_port() const { return tls_port_; }
  /// "rediss://127.0.0.1:TLS_PORT".
  std::string tls_url() const;
  /// The server's temp dir (working dir, redis.log).
  const std::string& dir() const { return dir_; }
  /// True between a successful start and stop().
  bool running() const { return pid_ > 0; }

  /// Stops the process (SIGTERM, SIGKILL after 10 s). The port stays reserved for start().
  /// No-op when already stopped.
  void stop();
  /// (Re)starts on the same port and waits for PING; throws std::runtime_error on failure and
  /// std::logic_error when already running. The data is gone: nothing is persisted.
  void start();
  /// SIGSTOP: the server keeps its connections but answers nothing until resume(). Returns once
  /// the process is stopped. No-op when already paused.
  void pause();
  /// SIGCONT after pause(). Returns once the process runs again; no-op when not paused.
  void resume();

  /// Runs one command over a fresh TCP connection (sending AUTH first when the server was started
  /// with --requirepass) and returns its reply as text:
  ///   simple string, bulk string -> the bytes, no quotes      ("PONG", "OK", "value")
  ///   error                      -> the error text             ("ERR unknown command ...")
  ///   integer                    -> decimal text               ("42")
  ///   null bulk / null array     -> "(nil)"
  ///   empty array                -> "(empty array)"
  ///   array                      -> elements joined with '\n' (nested arrays are flattened)
  /// Throws std::runtime_error when the server cannot be reached or does not answer within 5 s.
  std::string command(const std::vector<std::string>& args) const;

  /// How many replicas have everything this server (a master) took so far: WAIT `replicas`
  /// `timeout`, after a write of its own on the same connection. (WAIT counts the replicas that
  /// have its connection's last write: sent alone on a fresh connection, as command() would, it
  /// answers at once with every replica, whatever they have.) The write leaves no key. A cluster
  /// node takes it only in a slot it serves: `in_slot_of` names a key of such a slot.
  int replicas_with_everything(int replicas, std::chrono::milliseconds timeout,
                               std::string_view in_slot_of = {}) const;

  /// The last `lines` lines of redis.log (for failure messages).
  std::string log_tail(std::size_t lines = 20) const;

 private:
  enum class Launch { ok, port_taken };

  Launch launch();
  void kill_and_reap() noexcept;
  void start_guard();
  void stop_guard() noexcept;

  RedisServerOptions options_;
  std::string password_;  // value of --requirepass in extra_args, if any
  std::string dir_;
  int port_ = 0;
  int tls_port_ = 0;
  pid_t pid_ = -1;
  bool paused_ = false;

  std::mutex guard_mutex_;
  std::condition_variable guard_cv_;
  bool guard_cancelled_ = false;
  std::thread guard_;
};

/// How many times `server` has run `command` (lower case, as INFO commandstats names it),
/// scripts' inner calls included.
std::int64_t command_calls(const RedisServer& server, const std::string& command);

/// A TCP port on 127.0.0.1 that was free a moment ago (bind port 0, read it, close). Another
/// process may take it before the caller binds it; callers that start servers should retry.
int free_port();

/// Like free_port(), for a cluster node: a port P below the ephemeral range (so no outgoing
/// connection takes it) with P and P + 10000 (its cluster bus port) both free a moment ago.
int free_cluster_port();

}  // namespace redisson::test

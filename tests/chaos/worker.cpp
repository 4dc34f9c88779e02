// One chaos worker: its own client, a loop of take-a-lock, non-atomic GET/SET increment, log,
// unlock, until SIGTERM. Started by the driver with exec, so it has a clean runtime (sanitizers
// included) and can be SIGKILLed or SIGSTOPped like any process.
#include <asio/use_future.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "chaos/chaos.hpp"
#include "redisson/redisson.hpp"

namespace redisson::chaos {

namespace {

volatile std::sig_atomic_t g_stop = 0;

// The resource checks the holder's token on read and write: a token older than the newest one
// it has seen is refused (-1), so a holder that lost its lock without knowing cannot write.
const char* kFencedRead = R"(
local seen = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
if tonumber(ARGV[1]) < seen then return -1 end
redis.call('hset', KEYS[1], 'token', ARGV[1])
return tonumber(redis.call('hget', KEYS[1], 'value') or '0')
)";
const char* kFencedWrite = R"(
local seen = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
if tonumber(ARGV[1]) < seen then return -1 end
redis.call('hset', KEYS[1], 'token', ARGV[1], 'value', ARGV[2])
return 1
)";

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, sep);) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// The counter write. Without --sync-replicas 1: a plain SET, "ok" once the master has it. With
// it, the write is held to the rule Config::sync_replicas applies to the lock's own writes
// (src/client/replica_ack.hpp), so that the two are equally durable: the library's Batch in
// sync mode (BatchOptions::sync(1, timeout)) queues the SET and `WAIT 1 <timeout>` on the one
// connection to the key's master, back to back, and WAIT covers every write that connection
// made before it. The write is acknowledged ("ok") only when the SET succeeded and a replica
// acknowledged it; a SET the master has but no replica acknowledged (execute() failing with
// errc::not_replicated, or counting fewer than one replica) is "not_replicated", which the
// checker does not count as acknowledged. Unlike the lock's writes, the batch WAITs on a master
// without replicas too: such a write is never acknowledged, which is what it is (nothing but the
// master has it).
class CounterWriter {
 public:
  CounterWriter(Client& client, bool sync, std::chrono::milliseconds wait_timeout)
      : client_(client), sync_(sync), wait_timeout_(wait_timeout) {}

  /// "ok", or "not_replicated". Throws redisson::error when the SET itself failed (it may or may
  /// not have run).
  std::string set(const std::string& key, const std::string& value) {
    if (!sync_) {
      client_.execute({"SET", key, value});
      return "ok";
    }
    Batch batch(client_, BatchOptions{}.sync(1, wait_timeout_));
    // StringCodec writes the text as it is, so the GETs (ours and the driver's) read the integer.
    auto bucket = batch.get<Bucket<std::string>>(key, codecs::string());
    auto written = bucket.async_set(value, asio::use_future);
    std::error_code batch_error;
    BatchResult result;
    try {
      result = batch.execute();
    } catch (const error& e) {
      batch_error = e.code();
    }
    try {
      written.get();
    } catch (const std::system_error& e) {
      throw error(e.code());
    }
    if (batch_error || result.synced_replicas < 1) return "not_replicated";
    return "ok";
  }

 private:
  Client& client_;
  bool sync_;
  std::chrono::milliseconds wait_timeout_;
};

// The name the checker reads: the errc enumerator for the library's errors (not_replicated,
// timeout, connection_lost, ...), else the message with '_' for spaces.
std::string code_name(const std::error_code& ec) {
  if (ec.category() == category()) {
    switch (static_cast<errc>(ec.value())) {
      case errc::timeout:
        return "timeout";
      case errc::connection_lost:
        return "connection_lost";
      case errc::connect_failed:
        return "connect_failed";
      case errc::server_error:
        return "server_error";
      case errc::not_owner:
        return "not_owner";
      case errc::shutdown:
        return "shutdown";
      case errc::server_busy:
        return "server_busy";
      case errc::not_replicated:
        return "not_replicated";
      default:
        break;
    }
  }
  std::string text = ec.message();
  for (auto& c : text) {
    if (c == ' ') c = '_';
  }
  return text;
}

}  // namespace

int run_worker(const std::map<std::string, std::string>& options) {
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  const auto lease = std::chrono::milliseconds(std::stoll(options.at("lease-ms")));
  const auto kinds = split(options.at("kinds"), ',');
  const bool use_fenced_resource = options.count("fenced") && options.at("fenced") == "1";
  const int work_ms = options.count("work-ms") ? std::stoi(options.at("work-ms")) : 10;
  std::mt19937_64 random(std::stoull(options.at("seed")));

  // --url HOST (through the driver's fault proxy), --sentinels host:port,... --master-name
  // NAME (the client asks the sentinels for the master and follows their failovers), or
  // --cluster host:port,... (seed nodes of a Redis Cluster).
  Config config;
  if (options.count("cluster")) {
    ClusterConfig cluster;
    for (const auto& address : split(options.at("cluster"), ',')) {
      cluster.node_addresses.push_back(ServerAddress::from_url("redis://" + address));
    }
    // The counter's GET must see the last SET: a replica's copy may lag.
    cluster.read_mode = ReadMode::master;
    config.cluster = cluster;
  } else if (options.count("sentinels")) {
    SentinelConfig sentinel;
    sentinel.master_name = options.at("master-name");
    for (const auto& address : split(options.at("sentinels"), ',')) {
      sentinel.sentinel_addresses.push_back(ServerAddress::from_url("redis://" + address));
    }
    config.sentinel = sentinel;
  } else {
    config = Config::from_url(options.at("url"));
  }
  config.command_timeout = kWorkerCommandTimeout;
  config.connect_timeout = std::chrono::milliseconds(2000);
  config.reconnect_max_delay = std::chrono::milliseconds(200);
  config.lock_watchdog_timeout = lease;
  config.sync_replicas = options.count("sync-replicas") && options.at("sync-replicas") == "1";
  // Below command_timeout, so a WAIT nobody answers returns 0 before its command times out (a
  // connection whose commands time out twice in a row is reopened). On loopback a replica
  // acknowledges in well under a millisecond.
  config.sync_replicas_timeout = kWorkerSyncReplicasTimeout;
  std::optional<Client> client;
  // The server may be restarting or partitioned when this incarnation starts.
  for (int attempt = 0; !client; ++attempt) {
    try {
      client.emplace(config);
    } catch (const error&) {
      if (g_stop || attempt > 50) return 1;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  std::ofstream log(options.at("log"), std::ios::app);
  auto write = [&](const std::string& line) {
    log << line << '\n';
    log.flush();
  };

  auto lock = redisson::Lock(*client, lock_name("lock"));
  // A worker killed while queued keeps its place for one wait slot: Redisson's 5 minutes would
  // stop every fair acquisition for the rest of a run (seen: a kill 1 ms after the victim's
  // unlock caught it queued again). Two leases: as long as a killed holder costs, and more.
  auto fair = redisson::FairLock(*client, lock_name("fair"), 2 * lease);
  auto rw = redisson::ReadWriteLock(*client, lock_name("rw")).write_lock();
  redisson::Semaphore sem(*client, lock_name("sem"));
  auto fenced = redisson::FencedLock(*client, lock_name("fenced"));
  CounterWriter counter(*client, config.sync_replicas, config.sync_replicas_timeout);
  const Script read_script(kFencedRead);
  const Script write_script(kFencedWrite);
  const std::string owner =
      client->id().substr(0, 8) + ":" + std::to_string(redisson::OwnerId::current_thread().value());
  constexpr auto kWait = std::chrono::seconds(10);

  while (!g_stop) {
    const auto& kind = kinds[random() % kinds.size()];
    const auto wait_start = now_us();
    bool acquired = false;
    std::int64_t token = 0;
    try {
      if (kind == "lock") acquired = lock.try_lock_for(kWait);
      if (kind == "fair") acquired = fair.try_lock_for(kWait);
      if (kind == "rw") acquired = rw.try_lock_for(kWait);
      if (kind == "sem") acquired = sem.try_acquire_for(kWait);
      if (kind == "fenced") {
        const auto got = fenced.try_lock_and_get_token(kWait);
        acquired = got.has_value();
        token = got.value_or(0);
      }
    } catch (const error& e) {
      write("X " + kind + " " + std::to_string(wait_start) + " " + code_name(e.code()) + " " +
            std::to_string(now_us()));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    if (!acquired) {
      write("T " + kind + " " + std::to_string(wait_start) + " " + std::to_string(now_us()));
      continue;
    }
    const auto start = now_us();
    write("A " + kind + " " + std::to_string(start));

    // The critical section: a deliberately non-atomic read-modify-write.
    std::string status = "ok";
    std::int64_t read = -1;
    std::int64_t wrote = -1;
    const bool fence = use_fenced_resource && kind == "fenced";
    try {
      if (fence) {
        read = client->eval(read_script, {fenced_resource()}, {std::to_string(token)}).integer;
        if (read < 0) status = "fenced_out";
      } else {
        const auto value = client->execute({"GET", counter_name(kind)});
        read = value.is_null() ? 0 : std::stoll(value.str);
      }
    } catch (const error&) {
      status = "failed";  // nothing written
    }
    if (status == "ok") {
      std::this_thread::sleep_for(std::chrono::milliseconds(random() % (work_ms + 1)));
      try {
        if (fence) {
          const auto reply = client->eval(write_script, {fenced_resource()},
                                          {std::to_string(token), std::to_string(read + 1)});
          if (reply.integer < 0) status = "fenced_out";
        } else {
          status = counter.set(counter_name(kind), std::to_string(read + 1));
        }
        wrote = read + 1;
      } catch (const error&) {
        status = "unknown";  // the write may or may not have happened
        wrote = read + 1;
      }
    }
    const auto end = now_us();

    std::string unlock_status = "ok";
    try {
      if (kind == "lock") lock.unlock();
      if (kind == "fair") fair.unlock();
      if (kind == "rw") rw.unlock();
      if (kind == "sem") sem.release();
      if (kind == "fenced") fenced.unlock();
    } catch (const error& e) {
      unlock_status = code_name(e.code());
    }
    std::ostringstream line;
    line << "E " << kind << ' ' << owner << ' ' << token << ' ' << wait_start << ' ' << start << ' '
         << end << ' ' << read << ' ' << wrote << ' ' << status << ' ' << unlock_status;
    write(line.str());
  }
  return 0;
}

}  // namespace redisson::chaos

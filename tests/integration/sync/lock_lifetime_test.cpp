// How long a hold lives when its owner goes away without unlocking: a thread that exits holding
// a lock (no longer renewed, reported, then ended by its lease), and a client shut down or
// destroyed holding locks (released at once, or left to their leases with
// Config::release_locks_on_shutdown off).
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"
#include "watchdog/hold_registry.hpp"
#include "watchdog/watchdog.hpp"

namespace sync_lock_lifetime_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;

namespace {

// What the error handler was told, for a test to wait on.
class Reports {
 public:
  void install(Config& config) {
    config.error_handler = [this](const redisson::error& failure) {
      std::lock_guard lock(mutex_);
      reports_.push_back({failure.code(), failure.what()});
    };
  }
  /// True when some report has `code` and contains `text`.
  bool has(std::error_code code, const std::string& text) const {
    std::lock_guard lock(mutex_);
    for (const auto& [report_code, what] : reports_) {
      if (report_code == code && what.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return reports_.size();
  }
  std::string all() const {
    std::lock_guard lock(mutex_);
    std::string out;
    for (const auto& report : reports_) out += report.second + "\n";
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::error_code, std::string>> reports_;
};

std::size_t watched(const Client& client) {
  return redisson::detail::ClientAccess::core(client)
      ->service<redisson::detail::Watchdog>()
      .holds()
      .watched();
}

}  // namespace

TEST(LockLifetime, ThreadExitingWhileHoldingIsNoLongerRenewedAndIsReported) {
  RedisServer server;
  Reports reports;
  // 1.5 s lease renewed every 500 ms.
  auto config = config_for(server, 1500ms);
  reports.install(config);
  Client client(config);

  // A hold by an explicit owner in the same process: not a thread's, so it stays renewed.
  auto kept = redisson::Lock(client, "kept");
  const auto async_owner = client.new_owner_id();
  ASSERT_TRUE(kept.async_try_lock(async_owner, 0ms, std::nullopt, asio::use_future).get());

  auto abandoned = redisson::Lock(client, "abandoned");
  std::atomic<std::uint64_t> lost_owner{0};
  abandoned.on_lost([&](redisson::OwnerId owner) { lost_owner = owner.value(); });
  redisson::OwnerId thread_owner;
  std::thread holder([&] {
    abandoned.lock();
    abandoned.lock();  // re-entered: the count does not matter
    thread_owner = redisson::OwnerId::current_thread();
  });
  holder.join();

  EXPECT_TRUE(
      eventually([&] { return reports.has(errc::lock_lost, "exited without unlocking"); }, 20s))
      << reports.all();
  EXPECT_TRUE(reports.has(errc::lock_lost, "'abandoned'")) << reports.all();
  EXPECT_TRUE(eventually([&] { return lost_owner.load() != 0; }, 20s));
  EXPECT_EQ(lost_owner.load(), thread_owner.value());
  EXPECT_TRUE(abandoned.lost(thread_owner));
  EXPECT_EQ(watched(client), 1u);  // only the explicit owner's hold

  // The abandoned hold ends with its lease: another client gets the lock.
  Client other(config_for(server));
  auto contender = redisson::Lock(other, "abandoned");
  ASSERT_TRUE(contender.try_lock_for(20s));
  contender.unlock();

  // Meanwhile, and for several leases more, the explicit owner's hold lives on.
  const auto until = std::chrono::steady_clock::now() + 4s;
  while (std::chrono::steady_clock::now() < until) {
    ASSERT_EQ(server.command({"EXISTS", "kept"}), "1");
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_FALSE(kept.lost(async_owner));
  kept.async_unlock(async_owner, asio::use_future).get();
  EXPECT_EQ(reports.size(), 1u) << reports.all();
}

TEST(LockLifetime, DestroyedClientReleasesItsRenewedHoldsFullyAndWakesWaiters) {
  RedisServer server;
  Reports reports;
  auto config = config_for(server);  // a 30 s watchdog: only a release frees the locks soon
  reports.install(config);
  auto holder = std::make_unique<Client>(config);
  auto lock = redisson::Lock(*holder, "held");
  lock.lock();
  lock.lock();  // re-entrant: count 2, both released
  ASSERT_EQ(lock.hold_count(), 2);
  auto rw = redisson::ReadWriteLock(*holder, "rw");
  rw.write_lock().lock();
  auto shared = redisson::ReadWriteLock(*holder, "shared");
  shared.read_lock().lock();
  shared.read_lock().lock();  // two read holds, each with its own timeout key
  ASSERT_NE(server.command({"KEYS", "{shared}:*rwlock_timeout*"}), "(empty array)");
  auto fair = redisson::FairLock(*holder, "fair");
  fair.lock();
  auto leased = redisson::Lock(*holder, "leased");
  leased.lock(60s);  // an explicit lease: the caller's contract, left alone

  // A waiter of another client, woken by the release message.
  Client other(config_for(server));
  auto contended = std::async(std::launch::async, [&] {
    auto lock_of_other = redisson::Lock(other, "held");
    const bool acquired = lock_of_other.try_lock_for(20s);
    if (acquired) lock_of_other.unlock();
    return acquired;
  });

  const auto holder_field = lock.owner_field(redisson::OwnerId::current_thread());
  holder.reset();
  // The waiter may hold it already: what matters is that the destroyed client holds nothing.
  EXPECT_EQ(server.command({"HGET", "held", holder_field}), "(nil)");
  EXPECT_EQ(server.command({"EXISTS", "rw"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "shared"}), "0");
  EXPECT_EQ(server.command({"KEYS", "{shared}:*rwlock_timeout*"}), "(empty array)");
  EXPECT_EQ(server.command({"EXISTS", "fair"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "leased"}), "1");
  EXPECT_TRUE(contended.get());
  auto again = redisson::Lock(other, "held");
  EXPECT_TRUE(again.try_lock());
  again.unlock();
  EXPECT_EQ(reports.size(), 0u) << reports.all();
}

TEST(LockLifetime, ShutdownReleasesOnlyTheClientsOwnHolds) {
  RedisServer server;
  Client client(config_for(server));
  Client other(config_for(server));
  auto mine = redisson::Lock(client, "mine");
  mine.lock();
  auto theirs = redisson::Lock(other, "theirs");
  theirs.lock();
  client.shutdown();
  EXPECT_EQ(server.command({"EXISTS", "mine"}), "0");
  EXPECT_EQ(
      server.command({"HGET", "theirs", theirs.owner_field(redisson::OwnerId::current_thread())}),
      "1");
  theirs.unlock();
}

TEST(LockLifetime, WithReleaseOffHoldsOutliveTheClientUntilTheirLeaseEnds) {
  RedisServer server;
  auto config = config_for(server, 3000ms);
  config.release_locks_on_shutdown = false;
  auto holder = std::make_unique<Client>(config);
  auto lock = redisson::Lock(*holder, "kept-after");
  lock.lock();
  holder->shutdown();
  EXPECT_EQ(server.command({"EXISTS", "kept-after"}), "1");
  holder.reset();
  EXPECT_EQ(server.command({"EXISTS", "kept-after"}), "1");
  // No longer renewed: the lease ends it.
  Client other(config_for(server));
  auto contender = redisson::Lock(other, "kept-after");
  EXPECT_TRUE(contender.try_lock_for(20s));
  contender.unlock();
}

}  // namespace sync_lock_lifetime_test

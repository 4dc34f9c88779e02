// Config::sync_replicas (Redisson checkLockSyncedSlaves) against a real master and replica: each
// state-changing script of a lock, semaphore or latch is followed by WAIT on the master; an
// acquisition that no replica acknowledged is undone and reported as errc::not_replicated, and
// any other such write is reported the same way (done on the master only).
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "fault/fault_proxy.hpp"
#include "redisson/redisson.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"

namespace client_replica_ack_test {

namespace {

using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::command_calls;
using redisson::test::Direction;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::FaultProxy;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;

// master_repl_offset from INFO replication: how much of the replication stream a node has.
long long replication_offset(const RedisServer& server) {
  const auto info = server.command({"INFO", "replication"});
  const std::string field = "master_repl_offset:";
  const auto at = info.find(field);
  return at == std::string::npos ? -1 : std::stoll(info.substr(at + field.size()));
}

// A master with one replica, linked and in sync.
struct Replicated {
  explicit Replicated(std::vector<std::string> master_args = {})
      : master(RedisServerOptions{std::move(master_args)}),
        replica(RedisServerOptions{{"--replicaof", "127.0.0.1", std::to_string(master.port())}}) {
    linked = eventually([&] {
      return replica.command({"INFO", "replication"}).find("master_link_status:up") !=
             std::string::npos;
    });
  }

  /// sync_replicas on, with `wait` as sync_replicas_timeout (the library's default when unset).
  Config config(std::optional<std::chrono::milliseconds> wait = std::nullopt) const {
    Config config;
    if (wait) config.sync_replicas_timeout = *wait;
    redisson::MasterSlaveConfig master_slave;
    master_slave.master = redisson::ServerAddress::from_url(master.url());
    master_slave.slave_addresses.push_back(redisson::ServerAddress::from_url(replica.url()));
    config.master_slave = master_slave;
    config.sync_replicas = true;
    return config;
  }

  RedisServer master;
  RedisServer replica;
  bool linked = false;
};

TEST(SyncReplicas, EveryLockWriteWaitsForTheReplica) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config());
  auto lock = redisson::Lock(client, "sync:lock");

  const auto waits_before = command_calls(servers.master, "wait");
  lock.lock();
  // WAIT answered: the replica has the hold already, no polling needed.
  EXPECT_EQ(servers.replica.command({"EXISTS", "sync:lock"}), "1");
  EXPECT_TRUE(lock.is_held_by_current_thread());
  lock.unlock();
  EXPECT_EQ(servers.replica.command({"EXISTS", "sync:lock"}), "0");
  EXPECT_GE(command_calls(servers.master, "wait"), waits_before + 2);
}

TEST(SyncReplicas, OtherLockKindsWaitForTheReplicaToo) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config());

  auto fair = redisson::FairLock(client, "sync:fair");
  fair.lock();
  EXPECT_EQ(servers.replica.command({"EXISTS", "sync:fair"}), "1");
  fair.unlock();

  auto rw = redisson::ReadWriteLock(client, "sync:rw");
  rw.write_lock().lock();
  EXPECT_EQ(servers.replica.command({"HGET", "sync:rw", "mode"}), "write");
  rw.write_lock().unlock();
  rw.read_lock().lock();
  EXPECT_EQ(servers.replica.command({"HGET", "sync:rw", "mode"}), "read");
  rw.read_lock().unlock();

  auto fenced = redisson::FencedLock(client, "sync:fenced");
  EXPECT_GT(fenced.lock_and_get_token(), 0);
  EXPECT_EQ(servers.replica.command({"EXISTS", "sync:fenced"}), "1");
  fenced.unlock();
}

TEST(SyncReplicas, AnAcquisitionNoReplicaAcknowledgedIsUndoneAndReported) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config(std::chrono::milliseconds(300)));
  auto lock = redisson::Lock(client, "sync:paused");
  auto fair = redisson::FairLock(client, "sync:paused-fair");
  auto rw = redisson::ReadWriteLock(client, "sync:paused-rw");

  servers.replica.pause();
  try {
    lock.lock();
    FAIL() << "lock() succeeded with no replica acknowledging it";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::not_replicated) << e.what();
  }
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:paused"}), "0");  // undone
  EXPECT_FALSE(lock.lost());

  EXPECT_THROW(fair.try_lock_for(std::chrono::seconds(5)), redisson::error);
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:paused-fair"}), "0");
  EXPECT_THROW(rw.write_lock().try_lock(), redisson::error);
  EXPECT_THROW(rw.read_lock().try_lock(), redisson::error);
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:paused-rw"}), "0");

  servers.replica.resume();
  // The replica catches up and acknowledges again: the same lock is taken normally.
  ASSERT_TRUE(eventually(
      [&] { return replication_offset(servers.replica) == replication_offset(servers.master); }));
  lock.lock();
  EXPECT_EQ(servers.replica.command({"EXISTS", "sync:paused"}), "1");
  lock.unlock();
}

TEST(SyncReplicas, SemaphoresAndLatchesWaitForTheReplicaToo) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config());
  const auto waits_before = command_calls(servers.master, "wait");

  auto semaphore = redisson::Semaphore(client, "sync:sem");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  EXPECT_EQ(servers.replica.command({"GET", "sync:sem"}), "2");
  ASSERT_TRUE(semaphore.try_acquire());
  // WAIT answered: the replica has the permit taken already.
  EXPECT_EQ(servers.replica.command({"GET", "sync:sem"}), "1");
  semaphore.release();
  EXPECT_EQ(servers.replica.command({"GET", "sync:sem"}), "2");

  auto expirable = redisson::PermitExpirableSemaphore(client, "sync:permits");
  ASSERT_TRUE(expirable.try_set_permits(1));
  const auto permit = expirable.try_acquire();
  ASSERT_TRUE(permit.has_value());
  EXPECT_EQ(servers.replica.command({"ZCARD", "{sync:permits}:timeout"}), "1");
  expirable.release(*permit);
  EXPECT_EQ(servers.replica.command({"ZCARD", "{sync:permits}:timeout"}), "0");

  auto latch = redisson::CountDownLatch(client, "sync:latch");
  ASSERT_TRUE(latch.try_set_count(2));
  latch.count_down();
  EXPECT_EQ(servers.replica.command({"GET", "sync:latch"}), "1");
  // One WAIT per state-changing call above.
  EXPECT_GE(command_calls(servers.master, "wait"), waits_before + 8);
}

// With the replica stopped nothing is acknowledged. Permits taken are given back and reported;
// what cannot be given back (a release, a count-down, a new count, an unlock) is reported as done
// on the master only, never passed off as a success.
TEST(SyncReplicas, SemaphoreAndLatchWritesNoReplicaAcknowledgedAreReported) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config(std::chrono::milliseconds(300)));
  auto semaphore = redisson::Semaphore(client, "sync:paused-sem");
  auto expirable = redisson::PermitExpirableSemaphore(client, "sync:paused-permits");
  auto latch = redisson::CountDownLatch(client, "sync:paused-latch");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  ASSERT_TRUE(expirable.try_set_permits(1));
  ASSERT_TRUE(latch.try_set_count(2));

  servers.replica.pause();
  expect_error(
      errc::not_replicated, [&] { semaphore.try_acquire(); }, "semaphore try_acquire");
  EXPECT_EQ(servers.master.command({"GET", "sync:paused-sem"}), "1");  // given back
  expect_error(
      errc::not_replicated, [&] { semaphore.try_acquire_for(std::chrono::seconds(5)); },
      "semaphore try_acquire_for (the waiting form)");
  EXPECT_EQ(servers.master.command({"GET", "sync:paused-sem"}), "1");
  expect_error(
      errc::not_replicated, [&] { expirable.try_acquire(); }, "permit try_acquire");
  EXPECT_EQ(servers.master.command({"ZCARD", "{sync:paused-permits}:timeout"}), "0");

  const auto waits_before = command_calls(servers.master, "wait");
  expect_error(
      errc::not_replicated, [&] { semaphore.release(); }, "semaphore release");
  EXPECT_EQ(servers.master.command({"GET", "sync:paused-sem"}), "2");  // done on the master
  // Sent once, not again until a replica acknowledges: after a failover the next send could
  // reach a new master that lost the acquisition too, and add a permit nobody took.
  // (Measured: 2 WAITs from here, against 6 when a release was sent again until its attempts ran
  // out; the one beyond the release's own is there either way.)
  EXPECT_LE(command_calls(servers.master, "wait") - waits_before, 2);
  expect_error(
      errc::not_replicated, [&] { latch.count_down(); }, "latch count_down");
  EXPECT_EQ(servers.master.command({"GET", "sync:paused-latch"}), "1");
  expect_error(
      errc::not_replicated, [&] { semaphore.add_permits(1); }, "semaphore add_permits");
  EXPECT_EQ(servers.master.command({"GET", "sync:paused-sem"}), "3");
  // A lock taken before the replica stopped: its unlock is done, and reported.
  servers.replica.resume();
  ASSERT_TRUE(eventually(
      [&] { return replication_offset(servers.replica) == replication_offset(servers.master); }));
  auto lock = redisson::Lock(client, "sync:paused-unlock");
  lock.lock();
  servers.replica.pause();
  std::error_code unlocked;
  lock.unlock(unlocked);  // (unlock() itself never throws: it tells the error handler)
  EXPECT_EQ(unlocked, errc::not_replicated) << unlocked.message();
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:paused-unlock"}), "0");
  EXPECT_FALSE(lock.is_held_by_current_thread());

  servers.replica.resume();
  ASSERT_TRUE(eventually(
      [&] { return replication_offset(servers.replica) == replication_offset(servers.master); }));
  EXPECT_TRUE(semaphore.try_acquire());
  EXPECT_EQ(servers.replica.command({"GET", "sync:paused-sem"}), "2");
}

// The failover this guards against: the unlock is done on the master, the master dies before its
// replica has it, and the promoted replica still counts the hold. The owner's next lock() must
// not add to that count (its unlock would then leave the lock held, and an owner that locks
// again within each lease would keep it for good): it sets the count to what the owner knows.
TEST(SyncReplicas, AnUnlockAFailoverUndoesIsReconciledByTheNextLock) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config(std::chrono::milliseconds(300)));
  auto lock = redisson::Lock(client, "sync:returning");
  lock.lock();
  const auto field = servers.master.command({"HKEYS", "sync:returning"});
  ASSERT_EQ(servers.master.command({"HGET", "sync:returning", field}), "1");

  servers.replica.pause();
  std::error_code unlocked;
  lock.unlock(unlocked);
  EXPECT_EQ(unlocked, errc::not_replicated) << unlocked.message();
  servers.replica.resume();
  ASSERT_TRUE(eventually(
      [&] { return replication_offset(servers.replica) == replication_offset(servers.master); }));
  // What the promoted replica would hold: the hold the unlock ended.
  servers.master.command({"HSET", "sync:returning", field, "1"});
  servers.master.command({"PEXPIRE", "sync:returning", "30000"});

  lock.lock();
  EXPECT_EQ(servers.master.command({"HGET", "sync:returning", field}), "1");
  lock.unlock();
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:returning"}), "0");
}

// A failover promotes the replica first: the old master has no replica from then on, about a
// second before clients hear of the switch. Taking that as "a master without replicas, nothing to
// wait for" let acquisitions through that the failover then lost (chaos: a fencing token issued
// twice). Such a master is still WAITed on for ReplicaAck::kRecount; then it is used unchecked.
TEST(SyncReplicas, AMasterThatJustLostItsReplicaIsStillWaitedOn) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config(std::chrono::milliseconds(200)));
  auto before = redisson::Lock(client, "sync:before");
  before.lock();  // acknowledged: the client has seen the replica
  before.unlock();

  ASSERT_EQ(servers.replica.command({"REPLICAOF", "NO", "ONE"}), "OK");  // promoted
  ASSERT_TRUE(eventually([&] {
    return servers.master.command({"INFO", "replication"}).find("connected_slaves:0") !=
           std::string::npos;
  }));
  auto during = redisson::Lock(client, "sync:during");
  // The first WAIT finds no replica and the client counts again: zero. Every attempt within
  // kRecount of the last acknowledgement still fails instead of going through unchecked.
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      during.lock();
      FAIL() << "attempt " << attempt
             << ": lock() on a master that lost its replica a moment ago succeeded unchecked";
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::not_replicated) << e.what();
    }
    EXPECT_EQ(servers.master.command({"EXISTS", "sync:during"}), "0");
  }

  // A replica gone for good stops refusing locks once kRecount has passed since it was seen.
  const bool works_again = eventually(
      [&] {
        try {
          during.lock();
          return true;
        } catch (const redisson::error& e) {
          EXPECT_EQ(e.code(), errc::not_replicated) << e.what();
          return false;
        }
      },
      std::chrono::seconds(20), std::chrono::milliseconds(500));
  EXPECT_TRUE(works_again);
  if (works_again) during.unlock();
}

// sync_replicas on, for a single server.
Config synced(const RedisServer& server) {
  auto config = Config::from_url(server.url());
  config.sync_replicas = true;
  return config;
}

TEST(SyncReplicas, AMasterWithoutReplicasGetsNoWait) {
  RedisServer server;
  Client client(synced(server));
  auto lock = redisson::Lock(client, "sync:alone");
  for (int i = 0; i < 3; ++i) {
    lock.lock();
    lock.unlock();
  }
  // Read first: command_calls() itself sends INFO.
  const auto infos = command_calls(server, "info");
  EXPECT_GE(infos, 6);  // the replica count, asked again after each of the 6 writes
  EXPECT_EQ(command_calls(server, "wait"), 0);
}

// Writes that wait while a master without replicas is being counted share the next count: 16
// releases sent at once cost two INFO replication, not one each, one after another (16 round
// trips before the last release returned).
TEST(SyncReplicas, WritesThatWaitedForACountShareTheNext) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  auto config = Config::from_url(proxy.url());
  config.sync_replicas = true;
  Client client(config);
  redisson::Semaphore semaphore(client, "sync:shared-count");
  semaphore.release(1);  // connected, and counted once
  // Every reply 100 ms late: the releases below are all queued while the first count is out.
  proxy.set_latency(Direction::server_to_client, std::chrono::milliseconds(100));
  const auto before = command_calls(server, "info");
  std::vector<std::future<void>> releases;
  for (int i = 0; i < 16; ++i) releases.push_back(semaphore.async_release(1, asio::use_future));
  for (auto& release : releases) release.get();
  // Less the INFO commandstats that read `before`.
  const auto counts = command_calls(server, "info") - before - 1;
  EXPECT_GE(counts, 2);
  EXPECT_LE(counts, 3);  // the first, the shared one, and one if a release came in between
  EXPECT_EQ(server.command({"GET", "sync:shared-count"}), "17");
}

// A master counted without replicas is counted again at its next write: a replica that joined
// in between is waited on at once. (Trusted for 10 s, the count let writes through unchecked
// while a replica was back, and a failover to that replica could lose them: the likely cause
// of a fencing token a soak reissued.)
TEST(SyncReplicas, AReplicaThatJoinsIsWaitedOnFromTheNextWrite) {
  RedisServer master;
  Client client(synced(master));
  auto lock = redisson::Lock(client, "sync:joined");
  lock.lock();
  lock.unlock();
  EXPECT_EQ(command_calls(master, "wait"), 0);  // alone: nothing to wait for

  RedisServer replica(
      RedisServerOptions{{"--replicaof", "127.0.0.1", std::to_string(master.port())}});
  ASSERT_TRUE(eventually([&] {
    return replica.command({"INFO", "replication"}).find("master_link_status:up") !=
           std::string::npos;
  }));
  // The replica acknowledges writes already (its first acknowledgement can lag the link).
  ASSERT_TRUE(eventually(
      [&] { return master.replicas_with_everything(1, std::chrono::milliseconds(1000)) == 1; }));

  lock.lock();
  EXPECT_GE(command_calls(master, "wait"), 2);                 // ours and the client's
  EXPECT_EQ(replica.command({"EXISTS", "sync:joined"}), "1");  // acknowledged: it has the hold
  lock.unlock();
}

// A failover the client has not heard of yet: its master is a replica for a moment, and WAIT
// there is refused ("cannot be used with replica instances"). That refusal passes with the
// failover: once the node is a master again its writes are checked as before. (Taken for a
// server that never answers WAIT, it switched the checks off for the rest of the client's life,
// and a later failover lost writes it had reported as acknowledged.)
TEST(SyncReplicas, AWaitRefusedByADemotedMasterDoesNotStopTheChecks) {
  Replicated servers;
  ASSERT_TRUE(servers.linked);
  Client client(servers.config(std::chrono::milliseconds(300)));
  auto lock = redisson::Lock(client, "sync:demoted");
  lock.lock();  // the replica counted and acknowledging
  lock.unlock();

  // The roles swap behind the client's back, then swap back.
  ASSERT_EQ(
      servers.master.command({"REPLICAOF", "127.0.0.1", std::to_string(servers.replica.port())}),
      "OK");
  EXPECT_THROW(lock.lock(), redisson::error);  // READONLY, and WAIT refused by a replica
  ASSERT_EQ(servers.master.command({"REPLICAOF", "NO", "ONE"}), "OK");
  // ("OK", or "OK Already connected to specified master": the replica never stopped following.)
  ASSERT_TRUE(
      servers.replica.command({"REPLICAOF", "127.0.0.1", std::to_string(servers.master.port())})
          .starts_with("OK"));
  ASSERT_TRUE(eventually([&] {
    return servers.replica.command({"INFO", "replication"}).find("master_link_status:up") !=
           std::string::npos;
  }));

  // Still checked: with the replica stopped, the acquisition is not passed off as replicated.
  servers.replica.pause();
  expect_error(
      errc::not_replicated, [&] { lock.lock(); }, "lock() after the roles came back");
  EXPECT_EQ(servers.master.command({"EXISTS", "sync:demoted"}), "0");
  servers.replica.resume();
}

TEST(SyncReplicas, AServerThatRefusesWaitIsAskedOnce) {
  Replicated servers({"--rename-command", "WAIT", ""});
  ASSERT_TRUE(servers.linked);
  Client client(servers.config());
  auto lock = redisson::Lock(client, "sync:no-wait");
  for (int i = 0; i < 3; ++i) {
    lock.lock();
    lock.unlock();
  }
  // The one refusal: "ERR unknown command 'WAIT'".
  const auto errors = servers.master.command({"INFO", "errorstats"});
  EXPECT_NE(errors.find("errorstat_ERR:count=1\r"), std::string::npos) << errors;
}

}  // namespace

}  // namespace client_replica_ack_test

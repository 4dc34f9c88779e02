// The fair lock against a real redis-server: arrival order, waiters that crash or give up,
// deadlines that never drift, an unlock that wakes only the queue's head, retry-safe unlock,
// and the exact Redisson RFairLock data layout (so Java Redisson processes can share it).
#include "redisson/fair_lock.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <csignal>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_fair_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::FairLock;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::spawn_child;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

std::string queue_of(const std::string& name) { return "redisson_lock_queue:{" + name + "}"; }
std::string timeouts_of(const std::string& name) { return "redisson_lock_timeout:{" + name + "}"; }

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  if (text == "(empty array)") return out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// ZRANGE ... WITHSCORES as (member, score) pairs, lowest score first.
std::vector<std::pair<std::string, std::int64_t>> deadlines(const RedisServer& server,
                                                            const std::string& name) {
  const auto flat = lines(server.command({"ZRANGE", timeouts_of(name), "0", "-1", "WITHSCORES"}));
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (std::size_t i = 0; i + 1 < flat.size(); i += 2) {
    out.emplace_back(flat[i], static_cast<std::int64_t>(std::stod(flat[i + 1])));
  }
  return out;
}

bool queue_length_is(const RedisServer& server, const std::string& name, std::size_t n) {
  return eventually([&] { return server.command({"LLEN", queue_of(name)}) == std::to_string(n); });
}

// Joins a test's threads however the test body ends (a failed ASSERT returns early), after
// `unblock` freed them, so no joinable std::thread is ever destroyed (that aborts the binary).
struct JoinAtExit {
  std::vector<std::thread>& threads;
  std::function<void()> unblock;
  ~JoinAtExit() {
    try {
      if (unblock) unblock();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unblocking the test's threads failed: " << e.what();
    }
    for (auto& thread : threads) {
      if (thread.joinable()) thread.join();
    }
  }
};

constexpr auto kCrashSlot = 1500ms;

// Waits for a go byte on the fd args[1], then queues for the fair lock "crash" (the test
// kills it while it waits). args: the server's URL, the fd.
REDISSON_TEST_CHILD(queue_for_fair_lock) {
  char byte = 0;
  if (read(std::stoi(args.at(1)), &byte, 1) != 1) return 2;
  Client client(config_for(args.at(0)));
  FairLock lock(client, "crash", kCrashSlot);
  lock.lock();
  return 3;
}

}  // namespace

TEST(FairLock, StaggeredWaitersAcquireInArrivalOrder) {
  RedisServer server;
  Client first_client(config_for(server));
  Client second_client(config_for(server));
  auto holder = redisson::FairLock(first_client, "fifo");
  holder.lock();
  constexpr int kWaiters = 8;
  std::mutex order_mutex;
  std::vector<int> order;
  std::vector<std::thread> waiters;
  JoinAtExit join{waiters, [&] { holder.force_unlock(); }};
  for (int i = 0; i < kWaiters; ++i) {
    // Waiters alternate between two clients: order holds across processes, not only threads.
    auto lock = redisson::FairLock(i % 2 == 0 ? first_client : second_client, "fifo");
    waiters.emplace_back([lock, i, &order_mutex, &order]() mutable {
      lock.lock();
      {
        std::lock_guard guard(order_mutex);
        order.push_back(i);
      }
      lock.unlock();
    });
    ASSERT_TRUE(queue_length_is(server, "fifo", static_cast<std::size_t>(i + 1)))
        << "waiter " << i << " did not queue";
  }
  holder.unlock();
  for (auto& waiter : waiters) waiter.join();
  std::vector<int> expected;
  for (int i = 0; i < kWaiters; ++i) expected.push_back(i);
  EXPECT_EQ(order, expected);
  EXPECT_EQ(server.command({"EXISTS", "fifo", queue_of("fifo"), timeouts_of("fifo")}), "0");
}

TEST(FairLock, WaiterKilledWithSigkillDoesNotBlockOthersPastItsSlot) {
  RedisServer server;
  int start_pipe[2];
  ASSERT_EQ(pipe(start_pipe), 0);
  const pid_t doomed =
      spawn_child("queue_for_fair_lock", {server.url(), std::to_string(start_pipe[0])});
  bool doomed_reaped = false;
  std::optional<Client> holder_client;
  std::optional<FairLock> holder;
  std::vector<std::thread> waiters;
  JoinAtExit join{waiters, [&] {
                    if (!doomed_reaped) {
                      kill(doomed, SIGKILL);
                      wait_exit(doomed);
                    }
                    if (holder) holder->force_unlock();
                    close(start_pipe[0]);
                    close(start_pipe[1]);
                  }};
  // A short watchdog lease keeps the doomed waiter's deadline (holder's PTTL + slot) short.
  holder_client.emplace(config_for(server, 1000ms));
  holder.emplace(*holder_client, "crash", kCrashSlot);
  holder->lock();
  char go = 1;
  ASSERT_EQ(write(start_pipe[1], &go, 1), 1);
  ASSERT_TRUE(queue_length_is(server, "crash", 1));
  const auto doomed_field = server.command({"LINDEX", queue_of("crash"), "0"});

  Client waiter_client(config_for(server));
  std::mutex order_mutex;
  std::vector<std::string> order;
  for (std::string who : {"second", "third"}) {
    FairLock lock(waiter_client, "crash", kCrashSlot);
    waiters.emplace_back([lock, who, &order_mutex, &order]() mutable {
      if (!lock.try_lock_for(60s)) return;
      {
        std::lock_guard guard(order_mutex);
        order.push_back(who);
      }
      lock.unlock();
    });
    ASSERT_TRUE(queue_length_is(server, "crash", waiters.size() + 1));
  }
  kill(doomed, SIGKILL);
  const int doomed_status = wait_exit(doomed);
  doomed_reaped = true;
  EXPECT_EQ(doomed_status, 128 + SIGKILL);
  holder->unlock();  // its release message goes to the dead head and is lost

  // The others get in once the dead waiter's slot ran out (bounded here only against a hang).
  for (auto& waiter : waiters) waiter.join();
  EXPECT_EQ(order, (std::vector<std::string>{"second", "third"}));
  EXPECT_EQ(server.command({"ZSCORE", timeouts_of("crash"), doomed_field}), "(nil)");
  EXPECT_EQ(server.command({"EXISTS", "crash", queue_of("crash"), timeouts_of("crash")}), "0");
}

// Found by `make chaos`: the head gave up while the lock was still held, the lock then
// expired by its lease (its holder was killed: no release message), and the new head, which had
// made one attempt (its channel was still subscribed from its previous wait), slept for its
// whole turn behind the old head (a wait slot) instead of the rest of the lease.
TEST(FairLock, NewHeadIsWokenWhenTheHeadGivesUpWhileTheLockIsHeld) {
  RedisServer server;
  constexpr auto kSlot = 20s;  // the second waiter's turn is this far behind the first's
  Client client(config_for(server));
  FairLock holder(client, "expiring", kSlot);
  holder.lock(3000ms);  // expires by itself: nobody publishes a release
  std::promise<bool> first_result;
  std::thread first([&] {
    FairLock lock(client, "expiring", kSlot);
    first_result.set_value(lock.try_lock_for(1500ms));  // gives up while the lock is held
  });
  if (!queue_length_is(server, "expiring", 1)) {
    first.join();
    FAIL() << "the first waiter never queued";
  }
  std::promise<bool> second_result;
  std::thread second([&] {
    FairLock lock(client, "expiring", kSlot);
    // A short wait first, so that the long one starts with its channel still subscribed
    // (Config::subscription_linger) and makes a single attempt: the one that queues it and
    // answers "your turn is in about 23 s".
    if (lock.try_lock_for(50ms)) lock.unlock();
    const auto started = std::chrono::steady_clock::now();
    const bool got = lock.try_lock_for(20s);
    const auto waited = std::chrono::steady_clock::now() - started;
    if (got) lock.unlock();
    // Acquired soon after the lease ran out (about 3 s), not at the end of its wait (whose
    // last attempt finds the lock free anyway).
    second_result.set_value(got && waited < 12s);
  });
  // Both queued before the first gives up, or the test proves nothing.
  EXPECT_TRUE(queue_length_is(server, "expiring", 2));
  first.join();
  second.join();
  EXPECT_FALSE(first_result.get_future().get());
  // Without the wake-up it sleeps until its turn or its wait ends (about 20 s).
  EXPECT_TRUE(second_result.get_future().get());
  EXPECT_EQ(server.command({"EXISTS", "expiring", queue_of("expiring")}), "0");
}

TEST(FairLock, DeadlinesNeverDriftUpwardWhenWaitersGiveUp) {
  RedisServer server;
  constexpr auto kSlot = 1500ms;
  Client client(config_for(server));
  FairLock holder(client, "drift", kSlot);
  holder.lock(60s);  // a fixed expiry: the bound below does not move
  // A patient waiter at the head: nobody ahead of it gives up, so its deadline must not change.
  std::promise<bool> patient_result;
  std::thread patient([&] {
    FairLock lock(client, "drift", kSlot);
    const bool got = lock.try_lock_for(50s);
    if (got) lock.unlock();
    patient_result.set_value(got);
  });
  ASSERT_TRUE(queue_length_is(server, "drift", 1));
  const auto head = deadlines(server, "drift");
  ASSERT_EQ(head.size(), 1u);

  constexpr int kImpatient = 3;
  constexpr int kRounds = 12;
  std::atomic<int> finished{0};
  std::atomic<int> acquired{0};
  std::vector<std::thread> impatient;
  for (int t = 0; t < kImpatient; ++t) {
    impatient.emplace_back([&, t] {
      FairLock lock(client, "drift", kSlot);
      for (int round = 0; round < kRounds; ++round) {
        if (lock.try_lock_for(std::chrono::milliseconds(10 + 7 * ((t + round) % 8)))) {
          ++acquired;
          lock.unlock();
        }
      }
      ++finished;
    });
  }
  // Waiter i (0 = head) may be due no later than the holder's expiry plus i + 1 slots.
  int samples = 0;
  int violations = 0;
  while (finished.load() < kImpatient) {
    const auto before = now_ms();
    const auto pttl = std::stoll(server.command({"PTTL", "drift"}));
    const auto scores = deadlines(server, "drift");
    for (std::size_t i = 0; i < scores.size(); ++i) {
      const auto bound = before + pttl + kSlot.count() * static_cast<std::int64_t>(i + 1) + 200;
      if (scores[i].second > bound) {
        ++violations;
        ADD_FAILURE() << "deadline " << i << " is " << scores[i].second - before
                      << " ms ahead; bound " << bound - before << " ms";
      }
    }
    if (!scores.empty()) {
      EXPECT_EQ(scores.front(), head.front()) << "the head's deadline moved";
    }
    ++samples;
    if (violations > 3) break;
    std::this_thread::sleep_for(5ms);
  }
  for (auto& thread : impatient) thread.join();
  EXPECT_GT(samples, 0);
  EXPECT_EQ(acquired.load(), 0);
  // Every impatient waiter left the queue on its way out.
  EXPECT_EQ(server.command({"LRANGE", queue_of("drift"), "0", "-1"}), head.front().first);
  EXPECT_EQ(deadlines(server, "drift"), head);
  holder.unlock();
  auto result = patient_result.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
  patient.join();
  EXPECT_TRUE(result.get());
}

TEST(FairLock, UnlockWakesOnlyTheQueueHead) {
  RedisServer server;
  Client client(config_for(server));
  auto holder = redisson::FairLock(client, "herd");
  holder.lock();
  constexpr int kWaiters = 3;
  std::atomic<bool> got[kWaiters] = {false, false, false};
  std::promise<void> release[kWaiters];
  int released = 0;
  std::vector<std::thread> waiters;
  JoinAtExit join{waiters, [&] {
                    for (; released < kWaiters; ++released) release[released].set_value();
                    holder.force_unlock();
                  }};
  for (int i = 0; i < kWaiters; ++i) {
    waiters.emplace_back([&, i, go = release[i].get_future()]() mutable {
      auto lock = redisson::FairLock(client, "herd");
      lock.lock();
      got[i] = true;
      go.wait();
      lock.unlock();
    });
    ASSERT_TRUE(queue_length_is(server, "herd", static_cast<std::size_t>(i + 1)));
  }
  const auto queued = lines(server.command({"LRANGE", queue_of("herd"), "0", "-1"}));
  ASSERT_EQ(queued.size(), 3u);
  // Listen on every waiter's own channel, next to the waiters themselves.
  Client observer(config_for(server));
  std::atomic<int> messages[kWaiters] = {0, 0, 0};
  std::vector<redisson::Subscription> subscriptions;
  for (int i = 0; i < kWaiters; ++i) {
    // A waiter queues first and subscribes right after.
    const auto channel = "redisson_lock__channel:{herd}:" + queued[i];
    EXPECT_TRUE(subscribers_are(server, channel, 1));
    subscriptions.push_back(observer.subscribe("redisson_lock__channel:{herd}:" + queued[i],
                                               [&, i](std::string_view) { ++messages[i]; }));
  }
  const auto publishes_before = command_calls(server, "publish");
  holder.unlock();
  EXPECT_TRUE(eventually([&] { return got[0].load(); }));
  EXPECT_TRUE(eventually([&] { return messages[0].load() == 1; }));
  EXPECT_EQ(command_calls(server, "publish") - publishes_before, 1);
  EXPECT_EQ(messages[1].load(), 0);
  EXPECT_EQ(messages[2].load(), 0);
  EXPECT_FALSE(got[1].load());
  EXPECT_FALSE(got[2].load());
  // Each release hands the lock to the next in line, one message each.
  for (int i = 0; i < kWaiters; ++i) {
    release[i].set_value();
    ++released;
    if (i + 1 < kWaiters) {
      EXPECT_TRUE(eventually([&] { return got[i + 1].load(); }));
    }
  }
  for (auto& waiter : waiters) waiter.join();
  EXPECT_EQ(messages[1].load(), 1);
  EXPECT_EQ(messages[2].load(), 1);
  // One message per hand-over; the last holder had nobody to wake.
  EXPECT_EQ(command_calls(server, "publish") - publishes_before, 3);
}

TEST(FairLock, HeldAndQueuedLockLooksExactlyLikeRedissonLayout) {
  RedisServer server;
  Client client(config_for(server));
  FairLock lock(client, "layout", 10000ms);
  EXPECT_EQ(lock.wait_slot(), 10000ms);
  lock.lock();
  lock.lock();
  const auto holder_field =
      lock.owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  const auto before = now_ms();
  auto first = lock.async_lock(redisson::OwnerId(101), asio::use_future);
  ASSERT_TRUE(queue_length_is(server, "layout", 1));
  auto second = lock.async_lock(redisson::OwnerId(102), asio::use_future);
  ASSERT_TRUE(queue_length_is(server, "layout", 2));
  const auto after = now_ms();
  const auto w1 = client.id() + ":101";
  const auto w2 = client.id() + ":102";

  EXPECT_EQ(server.command({"TYPE", "layout"}), "hash");
  EXPECT_EQ(server.command({"TYPE", "redisson_lock_queue:{layout}"}), "list");
  EXPECT_EQ(server.command({"TYPE", "redisson_lock_timeout:{layout}"}), "zset");
  EXPECT_EQ(server.command({"HGETALL", "layout"}), holder_field + "\n2");
  const auto pttl = std::stoll(server.command({"PTTL", "layout"}));
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 30000);
  EXPECT_EQ(server.command({"LRANGE", "redisson_lock_queue:{layout}", "0", "-1"}), w1 + "\n" + w2);
  const auto scores = deadlines(server, "layout");
  ASSERT_EQ(scores.size(), 2u);
  EXPECT_EQ(scores[0].first, w1);
  EXPECT_EQ(scores[1].first, w2);
  // First waiter: now + holder's PTTL + slot; each next one: one slot later.
  EXPECT_GE(scores[0].second, before + 10000);
  EXPECT_LE(scores[0].second, after + 30000 + 10000);
  EXPECT_EQ(scores[1].second - scores[0].second, 10000);
  // Each waiter listens on its own channel (subscribed right after queueing); nobody on the
  // plain one.
  for (const auto& waiter : {w1, w2}) {
    const auto channel = "redisson_lock__channel:{layout}:" + waiter;
    EXPECT_TRUE(subscribers_are(server, channel, 1));
  }
  EXPECT_EQ(lock.waiter_channel(redisson::OwnerId(101)), "redisson_lock__channel:{layout}:" + w1);
  EXPECT_EQ(server.command({"PUBSUB", "NUMSUB", "redisson_lock__channel:{layout}"}),
            "redisson_lock__channel:{layout}\n0");

  lock.unlock();
  EXPECT_EQ(first.wait_for(200ms), std::future_status::timeout);  // one hold remains
  lock.unlock();
  ASSERT_EQ(first.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(first.get());
  EXPECT_EQ(server.command({"HGETALL", "layout"}), w1 + "\n1");
  EXPECT_EQ(server.command({"LRANGE", "redisson_lock_queue:{layout}", "0", "-1"}), w2);
  // The second waiter moved up one place, so its deadline moved up one slot.
  EXPECT_EQ(deadlines(server, "layout"),
            (std::vector<std::pair<std::string, std::int64_t>>{{w2, scores[1].second - 10000}}));
  lock.async_unlock(redisson::OwnerId(101), asio::use_future).get();
  ASSERT_EQ(second.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(second.get());
  EXPECT_EQ(server.command({"HGETALL", "layout"}), w2 + "\n1");
  EXPECT_EQ(
      server.command({"EXISTS", "redisson_lock_queue:{layout}", "redisson_lock_timeout:{layout}"}),
      "0");
  lock.async_unlock(redisson::OwnerId(102), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");

  // A name with a hash tag keeps it: P(prefix, n) = "prefix:n".
  auto tagged = redisson::FairLock(client, "{app}res");
  EXPECT_TRUE(
      tagged.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto queued = tagged.async_lock(redisson::OwnerId(2), asio::use_future);
  EXPECT_TRUE(eventually([&] {
    return server.command({"LLEN", "redisson_lock_queue:{app}res"}) == "1";
  }));
  EXPECT_EQ(server.command({"ZCARD", "redisson_lock_timeout:{app}res"}), "1");
  EXPECT_EQ(tagged.waiter_channel(redisson::OwnerId(2)),
            "redisson_lock__channel:{app}res:" + client.id() + ":2");
  tagged.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_TRUE(queued.get());
  tagged.async_unlock(redisson::OwnerId(2), asio::use_future).get();
}

TEST(FairLock, ReentrantHoldsAreCountedAndNonOwnerUnlockFails) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "re");
  lock.lock();
  EXPECT_TRUE(lock.try_lock());
  EXPECT_TRUE(lock.try_lock_for(10ms));
  EXPECT_EQ(lock.hold_count(), 3);
  EXPECT_TRUE(lock.is_held_by_current_thread());
  std::error_code other_thread_error;
  std::thread([&] { lock.unlock(other_thread_error); }).join();
  EXPECT_EQ(other_thread_error, errc::not_owner);
  lock.unlock();
  lock.unlock();
  EXPECT_TRUE(lock.is_locked());
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
  EXPECT_EQ(lock.hold_count(), 0);
}

TEST(FairLock, NonReentrantFairLockRefusesSecondAcquireByHolder) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "once", redisson::non_reentrant);
  lock.lock();
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      if (attempt == 0) {
        lock.lock();
      } else {
        lock.try_lock_for(100ms);
      }
      FAIL() << "a non-re-entrant fair lock was taken twice";
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::already_held);
    }
  }
  EXPECT_EQ(lock.hold_count(), 1);
  EXPECT_EQ(server.command({"EXISTS", queue_of("once")}), "0");  // the holder never queued
  bool other_thread_got_it = true;
  std::thread([&] { other_thread_got_it = lock.try_lock(); }).join();
  EXPECT_FALSE(other_thread_got_it);
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
}

TEST(FairLock, TryLockWithoutWaitNeverQueuesAndTimedOutWaiterLeaves) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "brief");
  lock.lock();
  bool immediate = true;
  bool timed = true;
  std::thread([&] {
    immediate = lock.try_lock();
    timed = lock.try_lock_for(150ms);
  }).join();
  EXPECT_FALSE(immediate);
  EXPECT_FALSE(timed);
  EXPECT_EQ(server.command({"EXISTS", queue_of("brief"), timeouts_of("brief")}), "0");
  EXPECT_TRUE(eventually([&] {
    return server.command({"PUBSUB", "NUMPAT"}) == "0" &&
           server.command({"PUBSUB", "CHANNELS"}) == "(empty array)";
  }));
  lock.unlock();
}

TEST(FairLock, UnlockOfVanishedLockReportsNotOwnerAndStillWakesTheHead) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "vanished");
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  // The queue's head is a waiter of another client (a Java one, say), listening on its channel.
  const std::string head = "11111111-2222-3333-4444-555555555555:9";
  server.command({"RPUSH", queue_of("vanished"), head});
  server.command({"ZADD", timeouts_of("vanished"), std::to_string(now_ms() + 60000), head});
  Client observer(config_for(server));
  std::atomic<int> head_messages{0};
  auto subscription = observer.subscribe("redisson_lock__channel:{vanished}:" + head,
                                         [&](std::string_view payload) {
                                           if (payload == "0") ++head_messages;
                                         });
  server.command({"DEL", "vanished"});  // as if the holder's lease ran out
  // The head is told the lock is free, as Java Redisson does; unlike Java (which answers
  // success), the caller learns that it held nothing any more.
  try {
    lock.async_unlock(redisson::OwnerId(1), asio::use_future).get();
    FAIL() << "an unlock of a vanished fair lock succeeded";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
  EXPECT_TRUE(lock.lost(redisson::OwnerId(1)));
  EXPECT_TRUE(eventually([&] { return head_messages.load() == 1; }));
  EXPECT_EQ(server.command({"LRANGE", queue_of("vanished"), "0", "-1"}), head);
  // But unlocking a lock that someone else holds is still refused, and changes nothing.
  server.command({"HSET", "vanished", head, "1"});
  try {
    lock.async_unlock(redisson::OwnerId(1), asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
  EXPECT_EQ(server.command({"HGETALL", "vanished"}), head + "\n1");
  EXPECT_EQ(head_messages.load(), 1);
  EXPECT_TRUE(lock.force_unlock());
  EXPECT_TRUE(eventually([&] { return head_messages.load() == 2; }));
  EXPECT_FALSE(lock.force_unlock());
}

TEST(FairLock, ForceUnlockWakesTheHeadAndKeepsTheQueue) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "forced");
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto first = lock.async_lock(redisson::OwnerId(2), asio::use_future);
  ASSERT_TRUE(queue_length_is(server, "forced", 1));
  auto second = lock.async_lock(redisson::OwnerId(3), asio::use_future);
  ASSERT_TRUE(queue_length_is(server, "forced", 2));
  EXPECT_TRUE(lock.async_force_unlock(asio::use_future).get());
  ASSERT_EQ(first.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(first.get());
  EXPECT_EQ(server.command({"LRANGE", queue_of("forced"), "0", "-1"}), client.id() + ":3");
  lock.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  EXPECT_TRUE(second.get());
  lock.async_unlock(redisson::OwnerId(3), asio::use_future).get();
}

TEST(FairLock, RetriedUnlockAfterLostReplyDoesNotDoubleDecrement) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FairLock(client, "retry");
  lock.lock();
  lock.lock();
  const auto field = lock.owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  const std::string latch = "redisson_unlock_latch:{retry}:0123456789abcdef0123456789abcdef";
  const std::string source(redisson::detail::lua::fair_lock_unlock.source);
  auto send = [&] {
    return server.command({"EVAL", source, "5", "retry", queue_of("retry"), timeouts_of("retry"),
                           "redisson_lock__channel:{retry}", latch, "0", "30000", field, "publish",
                           "20000", std::to_string(now_ms())});
  };
  EXPECT_EQ(send(), "0");
  EXPECT_EQ(send(), "0");
  EXPECT_EQ(lock.hold_count(), 1);
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
}

TEST(FairLock, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  EXPECT_THROW(redisson::FairLock(client, ""), redisson::error);
  try {
    FairLock(client, "slot", 0ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  auto lock = redisson::FairLock(client, "args");
  EXPECT_THROW(lock.set_wait_slot(-1ms), redisson::error);
  EXPECT_EQ(lock.wait_slot(), FairLock::kDefaultWaitSlot);
  try {
    lock.try_lock_for(-1ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_THROW(lock.lock(0ms), redisson::error);
  EXPECT_THROW(lock.lock(-5ms), redisson::error);
  EXPECT_THROW(lock.try_lock_for(1s, -1s), redisson::error);
  try {
    lock.async_try_lock(redisson::OwnerId(1), -1ms, std::nullopt, asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_EQ(server.command({"EXISTS", "args", queue_of("args"), timeouts_of("args")}), "0");

  // The lock's own key, its queue or its deadlines holding another type: WRONGTYPE, no writes.
  server.command({"SET", "text", "hello"});
  server.command({"SET", queue_of("bad-queue"), "x"});
  server.command({"HSET", timeouts_of("bad-timeouts"), "f", "v"});
  for (const std::string name : {"text", "bad-queue", "bad-timeouts"}) {
    auto wrong = redisson::FairLock(client, name);
    try {
      wrong.try_lock_for(50ms);
      FAIL() << name;
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::wrong_type) << name << ": " << e.what();
    }
  }
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
  EXPECT_EQ(server.command({"GET", queue_of("bad-queue")}), "x");
  EXPECT_EQ(server.command({"HGETALL", timeouts_of("bad-timeouts")}), "f\nv");
  EXPECT_EQ(server.command(
                {"EXISTS", "bad-queue", "bad-timeouts", queue_of("text"), timeouts_of("text")}),
            "0");
  // A deadline in the past is one attempt, as std::timed_mutex::try_lock_until.
  EXPECT_TRUE(lock.try_lock_until(std::chrono::steady_clock::now() - 1s));
  lock.unlock();
}

TEST(FairLock, WaitSlotComesFromConfig) {
  RedisServer server;
  auto config = config_for(server);
  config.fair_lock_wait_timeout = 1500ms;
  Client client(config);
  EXPECT_EQ(redisson::FairLock(client, "slot").wait_slot(), 1500ms);
  EXPECT_EQ(redisson::FairLock(client, "slot", redisson::non_reentrant).wait_slot(), 1500ms);
  Client defaults(config_for(server));
  EXPECT_EQ(redisson::FairLock(defaults, "slot").wait_slot(), 300000ms);
}

}  // namespace sync_fair_lock_test

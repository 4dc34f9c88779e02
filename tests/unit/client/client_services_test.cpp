// The client's service registry (client/client_services.hpp): a service is made once per client
// whoever asks first, and every lifecycle hook reaches every service, newest first. A ClientCore
// that was never started needs no server: its shutdown runs the hooks with no I/O thread.
#include "client/client_services.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_core.hpp"

namespace unit_client_client_services_test {

namespace {

using redisson::Config;
using redisson::OwnerId;
using redisson::detail::ClientCore;
using redisson::detail::ClientService;

// What the services of a test did, in order.
struct Journal {
  std::mutex mutex;
  std::vector<std::string> lines;

  void add(std::string line) {
    std::lock_guard lock(mutex);
    lines.push_back(std::move(line));
  }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex);
    return std::exchange(lines, {});
  }
};

Journal& journal() {
  static Journal instance;
  return instance;
}

// A service that writes each hook to the journal under its name.
template <char Name>
class Recorder : public ClientService {
 public:
  explicit Recorder(ClientCore&) { journal().add(std::string(1, Name) + " made"); }
  ~Recorder() override { journal().add(std::string(1, Name) + " destroyed"); }

  void owner_exited(OwnerId owner) override {
    journal().add(std::string(1, Name) + " owner " + std::to_string(owner.value()));
  }
  void shutdown_started(bool can_wait) noexcept override {
    journal().add(std::string(1, Name) + (can_wait ? " started, can wait" : " started"));
  }
  void closing() noexcept override { journal().add(std::string(1, Name) + " closing"); }
  void stopped() noexcept override { journal().add(std::string(1, Name) + " stopped"); }
};

// Uses Recorder<'a'> while it is made: that one is older, so it stops after this one.
class UsesA : public Recorder<'u'> {
 public:
  explicit UsesA(ClientCore& core) : Recorder<'u'>(core) { core.service<Recorder<'a'>>(); }
};

// Counts how often it is made.
class Counted : public ClientService {
 public:
  Counted() { made.fetch_add(1); }
  static inline std::atomic<int> made{0};
};

std::shared_ptr<ClientCore> unstarted_core() {
  journal().take();
  return std::make_shared<ClientCore>(Config{});
}

TEST(ClientServices, AServiceIsMadeOnceWhenThreadsAskForItTogether) {
  auto core = unstarted_core();
  Counted::made = 0;
  constexpr int kThreads = 8;
  std::atomic<int> ready{0};
  std::vector<Counted*> seen(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      seen[static_cast<std::size_t>(i)] = &core->service<Counted>();
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(Counted::made.load(), 1);
  for (auto* service : seen) EXPECT_EQ(service, seen.front());
  EXPECT_EQ(&core->service<Counted>(), seen.front());
}

TEST(ClientServices, EachTypeIsItsOwnService) {
  auto core = unstarted_core();
  auto& a = core->service<Recorder<'a'>>();
  auto& b = core->service<Recorder<'b'>>();
  EXPECT_NE(static_cast<void*>(&a), static_cast<void*>(&b));
  EXPECT_EQ(&core->service<Recorder<'a'>>(), &a);
  EXPECT_EQ(journal().take(), (std::vector<std::string>{"a made", "b made"}));
}

TEST(ClientServices, AnExitedOwnerReachesEveryServiceNewestFirst) {
  // The core tells its services on its I/O thread, which an unstarted core lacks: a registry
  // of its own here.
  auto core = unstarted_core();
  redisson::detail::ClientServices services;
  services.use<Recorder<'a'>>(*core);
  services.use<Recorder<'b'>>(*core);
  services.use<Recorder<'c'>>(*core);
  EXPECT_EQ(services.size(), 3u);
  journal().take();
  services.owner_exited(OwnerId{7});
  EXPECT_EQ(journal().take(), (std::vector<std::string>{"c owner 7", "b owner 7", "a owner 7"}));
}

TEST(ClientServices, ShutdownRunsEachHookOnEveryServiceNewestFirstThenDestroysThem) {
  auto core = unstarted_core();
  core->service<Recorder<'a'>>();
  core->service<Recorder<'b'>>();
  core->service<Recorder<'c'>>();
  journal().take();
  core->shutdown();
  // Never started: no I/O thread, so nothing may wait for a reply.
  EXPECT_EQ(journal().take(), (std::vector<std::string>{"c started", "b started", "a started",
                                                        "c closing", "b closing", "a closing",
                                                        "c stopped", "b stopped", "a stopped"}));
  core->shutdown();  // once only
  EXPECT_TRUE(journal().take().empty());
  core.reset();
  EXPECT_EQ(journal().take(),
            (std::vector<std::string>{"c destroyed", "b destroyed", "a destroyed"}));
}

TEST(ClientServices, AServiceUsedByAnotherWhileMadeStopsAfterIt) {
  auto core = unstarted_core();
  core->service<UsesA>();
  EXPECT_EQ(journal().take(), (std::vector<std::string>{"u made", "a made"}));
  core->shutdown();
  const auto lines = journal().take();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "u started");
  EXPECT_EQ(lines[1], "a started");
  core.reset();
  EXPECT_EQ(journal().take(), (std::vector<std::string>{"u destroyed", "a destroyed"}));
}

TEST(ClientServices, AServiceWithoutACoreConstructorIsMadeWithItsDefault) {
  auto core = unstarted_core();
  Counted::made = 0;
  core->service<Counted>();
  EXPECT_EQ(Counted::made.load(), 1);
}

}  // namespace

}  // namespace unit_client_client_services_test

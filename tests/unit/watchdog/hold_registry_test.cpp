// The hold registry's bookkeeping for owners that go away: a thread that exited (owner_exited)
// and a shutdown that releases what is still renewed (renewed_holds); the watchdog's walk of it a
// page at a time (renewals_after); the count an acquisition sets (reset_count). No server: the
// renewal
// script is only a pointer here, and releases are recorded, not sent.
#include "watchdog/hold_registry.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace unit_watchdog_hold_registry_test {

using namespace std::chrono_literals;
using redisson::OwnerId;
using redisson::detail::Done;
using redisson::detail::HoldRegistry;
using redisson::detail::ScriptDef;

namespace {

// Any non-null pointer marks a hold as renewed; the registry never calls through it.
const ScriptDef* const kRenewed = reinterpret_cast<const ScriptDef*>(&kRenewed);

// A lock kind as the registry sees it, made of two callbacks; it checks that the registry asks
// for the owner it registered.
class CallbackLock final : public HoldRegistry::HeldLock {
 public:
  CallbackLock(OwnerId owner, HoldRegistry::LostCallback on_lost, HoldRegistry::ReleaseAll release)
      : owner_(owner), on_lost_(std::move(on_lost)), release_(std::move(release)) {}
  void hold_lost(OwnerId owner) override {
    EXPECT_EQ(owner.value(), owner_.value());
    if (on_lost_) on_lost_();
  }
  void release_all(OwnerId owner, Done<void> done) override {
    EXPECT_EQ(owner.value(), owner_.value());
    if (release_) release_(std::move(done));
  }

 private:
  OwnerId owner_;
  HoldRegistry::LostCallback on_lost_;
  HoldRegistry::ReleaseAll release_;
};

// Without callbacks the acquisition passes no lock, so the entry keeps the one it had.
void acquire(HoldRegistry& holds, const std::string& name, OwnerId owner, bool renewed,
             HoldRegistry::LostCallback on_lost = {}, HoldRegistry::ReleaseAll release = {}) {
  std::shared_ptr<CallbackLock> lock;
  if (on_lost || release) {
    lock = std::make_shared<CallbackLock>(owner, std::move(on_lost), std::move(release));
  }
  holds.acquired(name, "client:" + std::to_string(owner.value()), owner, 1000ms,
                 renewed ? kRenewed : nullptr, std::move(lock), false);
}

}  // namespace

TEST(HoldRegistry, OwnerExitedDropsOnlyThatOwnersHoldsAndReportsTheRenewedOnes) {
  HoldRegistry holds;
  int lost_calls = 0;
  acquire(holds, "a", OwnerId{5}, true, [&] { ++lost_calls; });
  acquire(holds, "a", OwnerId{5}, true);   // re-entered
  acquire(holds, "b", OwnerId{5}, false);  // explicit lease: dropped, not reported
  acquire(holds, "a", OwnerId{6}, true);
  ASSERT_EQ(holds.watched(), 2u);

  auto abandoned = holds.owner_exited(OwnerId{5});
  ASSERT_EQ(abandoned.size(), 1u);
  EXPECT_EQ(abandoned[0].name, "a");
  EXPECT_EQ(abandoned[0].field, "client:5");
  ASSERT_TRUE(abandoned[0].on_lost);
  abandoned[0].on_lost();
  EXPECT_EQ(lost_calls, 1);

  EXPECT_TRUE(holds.was_lost("a", "client:5"));
  EXPECT_FALSE(holds.was_lost("b", "client:5"));
  EXPECT_EQ(holds.known("a", "client:5"), 0);
  EXPECT_EQ(holds.known("b", "client:5"), 0);
  EXPECT_EQ(holds.known("a", "client:6"), 1);
  EXPECT_EQ(holds.watched(), 1u);
  EXPECT_TRUE(holds.owner_exited(OwnerId{5}).empty());  // told twice: nothing left
}

TEST(HoldRegistry, RenewedHoldsListsWhatAShutdownReleases) {
  HoldRegistry holds;
  std::vector<std::string> released;
  auto release_of = [&](std::string what) {
    return [&released, what](Done<void> done) {
      released.push_back(what);
      done({});
    };
  };
  acquire(holds, "renewed", OwnerId{1}, true, {}, release_of("renewed"));
  acquire(holds, "renewed", OwnerId{1}, true, {}, release_of("renewed"));
  acquire(holds, "leased", OwnerId{1}, false, {}, release_of("leased"));

  const auto renewed = holds.renewed_holds();
  ASSERT_EQ(renewed.size(), 1u);  // one entry for both re-entrant holds; the lease is left alone
  EXPECT_EQ(renewed[0].name, "renewed");
  EXPECT_EQ(renewed[0].field, "client:1");
  renewed[0].release_all([](const redisson::detail::Status&) {});
  EXPECT_EQ(released, std::vector<std::string>{"renewed"});

  holds.clear();
  EXPECT_TRUE(holds.renewed_holds().empty());
}

// The watchdog takes a round's renewals a page at a time: the pages together are every renewed
// hold once, in order, even when the hold a page ended at is unlocked before the next page, and
// a lock taken behind the walk waits for the next round (its lease is fresh).
TEST(HoldRegistry, RenewalsAfterWalksEveryRenewedHoldOncePageByPage) {
  HoldRegistry holds;
  for (int i = 0; i < 10; ++i) acquire(holds, "lock:" + std::to_string(i), OwnerId{1}, true);
  acquire(holds, "lock:5", OwnerId{2}, false);  // explicit lease: never renewed
  ASSERT_EQ(holds.renewals().size(), 10u);

  std::vector<std::string> walked;
  walked.reserve(10);
  auto page = holds.renewals_after(nullptr, 4);
  ASSERT_EQ(page.size(), 4u);
  for (const auto& renewal : page) walked.push_back(renewal.name);
  // The page's last hold goes away before the next page is taken.
  std::optional<HoldRegistry::Renewal> last = page.back();
  holds.released(last->name, last->field, {true, 0});
  acquire(holds, "lock:0a", OwnerId{1}, true);  // behind the walk
  do {
    page = holds.renewals_after(&*last, 4);
    for (const auto& renewal : page) walked.push_back(renewal.name);
    if (!page.empty()) last = page.back();
  } while (page.size() == 4);
  EXPECT_EQ(walked, (std::vector<std::string>{"lock:0", "lock:1", "lock:2", "lock:3", "lock:4",
                                              "lock:5", "lock:6", "lock:7", "lock:8", "lock:9"}));
  EXPECT_EQ(holds.renewals().size(), 10u);  // lock:3 went, lock:0a came
}

// An acquisition adds one to the server's count unless the count may be wrong: then it sets what
// the client knows plus one. After an unlock a failover may have lost (unlocked_lately) it sets
// it whether or not the pair is known.
TEST(HoldRegistry, ResetCountIsWhatTheClientKnowsPlusOneWhenUncertainOrUnlockedLately) {
  HoldRegistry holds;
  const OwnerId owner{7};
  const std::string field = "client:7";
  EXPECT_EQ(holds.reset_count("lock", field), std::nullopt);
  EXPECT_EQ(holds.reset_count("lock", field, true), 1);
  acquire(holds, "lock", owner, false);
  EXPECT_EQ(holds.reset_count("lock", field), std::nullopt);
  EXPECT_EQ(holds.reset_count("lock", field, true), 2);
  holds.reply_lost("lock", field);
  EXPECT_EQ(holds.reset_count("lock", field), 2);
  EXPECT_EQ(holds.reset_count("other", field, false), std::nullopt);
}

}  // namespace unit_watchdog_hold_registry_test

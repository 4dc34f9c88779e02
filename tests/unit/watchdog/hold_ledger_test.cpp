// The client's ledger of lock holds (watchdog/hold_ledger.hpp): when an acquisition must set the
// server's hold count instead of adding one.
#include "watchdog/hold_ledger.hpp"

#include <gtest/gtest.h>

#include <string>

using redisson::detail::HoldLedger;

TEST(HoldLedger, CertainHoldsNeverReset) {
  HoldLedger ledger;
  EXPECT_FALSE(ledger.reset_count("n", "c:1"));
  ledger.acquired("n", "c:1");
  ledger.acquired("n", "c:1");
  EXPECT_EQ(ledger.known("n", "c:1"), 2);
  EXPECT_FALSE(ledger.reset_count("n", "c:1"));
  ledger.released("n", "c:1", /*fully=*/false);
  EXPECT_FALSE(ledger.reset_count("n", "c:1"));
  ledger.released("n", "c:1", /*fully=*/true);
  EXPECT_EQ(ledger.known("n", "c:1"), 0);
  EXPECT_FALSE(ledger.reset_count("n", "c:1"));
}

TEST(HoldLedger, ALostReplySetsTheNextCountToKnownPlusOne) {
  HoldLedger ledger;
  ledger.reply_lost("n", "c:1");
  EXPECT_EQ(ledger.reset_count("n", "c:1"), 1);
  ledger.acquired("n", "c:1");  // the hold whose reply was lost stays unknown
  ledger.reply_lost("n", "c:1");
  EXPECT_EQ(ledger.reset_count("n", "c:1"), 2);
  ledger.reconciled("n", "c:1");
  ledger.acquired("n", "c:1");
  EXPECT_EQ(ledger.known("n", "c:1"), 2);
  EXPECT_FALSE(ledger.reset_count("n", "c:1"));
}

TEST(HoldLedger, AnUnlockThatLeavesHoldsTheClientDoesNotKnowMakesThePairUncertain) {
  HoldLedger ledger;
  ledger.acquired("n", "c:1");
  ledger.released("n", "c:1", /*fully=*/false);  // "still held", but that was the last known
  EXPECT_EQ(ledger.reset_count("n", "c:1"), 1);
}

TEST(HoldLedger, PairsAreKeptApartAndForgotten) {
  HoldLedger ledger;
  ledger.reply_lost("ab", "c:1");
  EXPECT_FALSE(ledger.reset_count("a", "bc:1"));  // no confusion across the name/field border
  EXPECT_FALSE(ledger.reset_count("ab", "c:2"));
  ledger.reply_lost("ab", "c:2");
  ledger.forget("ab", "c:1");
  EXPECT_FALSE(ledger.reset_count("ab", "c:1"));
  EXPECT_TRUE(ledger.reset_count("ab", "c:2"));
  ledger.acquired("x", "c:1");
  ledger.forget_all("ab");
  EXPECT_FALSE(ledger.reset_count("ab", "c:2"));
  EXPECT_EQ(ledger.known("x", "c:1"), 1);
}

// UniqueFunction holds small callables inline and large or throwing-move ones on the heap; both
// must call, move and destroy their callable exactly once.
#include "redisson/detail/unique_function.hpp"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <utility>

namespace unit_client_unique_function_test {

namespace {

using redisson::detail::UniqueFunction;

// Counts live copies of itself, so a leak or a double destruction shows.
struct Tracked {
  explicit Tracked(int* live) : live(live) { ++*live; }
  Tracked(Tracked&& other) noexcept : live(other.live) { ++*live; }
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  Tracked& operator=(Tracked&&) = delete;
  ~Tracked() { --*live; }
  int* live;
};

template <std::size_t Padding>
struct Callable {
  Tracked tracked;
  std::array<char, Padding> padding{};
  int operator()(int x) { return x + static_cast<int>(padding.size()); }
};

template <class F>
void check_lifecycle(F make) {
  int live = 0;
  {
    UniqueFunction<int(int)> first = make(&live);
    EXPECT_EQ(live, 1);
    UniqueFunction<int(int)> second = std::move(first);
    EXPECT_FALSE(static_cast<bool>(first));  // NOLINT(bugprone-use-after-move): the point
    EXPECT_TRUE(static_cast<bool>(second));
    EXPECT_EQ(live, 1);
    UniqueFunction<int(int)> third;
    third = std::move(second);
    EXPECT_EQ(live, 1);
    EXPECT_EQ(third(1), make(&live)(1));
    third = nullptr;
    EXPECT_EQ(live, 0);
    third = make(&live);
    EXPECT_EQ(live, 1);
  }
  EXPECT_EQ(live, 0);
}

TEST(UniqueFunction, SmallCallableLivesInlineAndIsDestroyedOnce) {
  static_assert(sizeof(Callable<8>) <= UniqueFunction<int(int)>::kInlineSize);
  check_lifecycle([](int* live) { return Callable<8>{Tracked(live)}; });
}

TEST(UniqueFunction, LargeCallableLivesOnTheHeapAndIsDestroyedOnce) {
  static_assert(sizeof(Callable<200>) > UniqueFunction<int(int)>::kInlineSize);
  check_lifecycle([](int* live) { return Callable<200>{Tracked(live)}; });
}

TEST(UniqueFunction, MoveOnlyCaptureAndByValueArgumentMovedOnce) {
  int moves = 0;
  struct Counter {
    int* moves;
    Counter(int* m) : moves(m) {}  // NOLINT(google-explicit-constructor)
    Counter(Counter&& other) noexcept : moves(other.moves) { ++*moves; }
    Counter(const Counter&) = delete;
    Counter& operator=(const Counter&) = delete;
    Counter& operator=(Counter&&) = delete;
    ~Counter() = default;
  };
  auto owned = std::make_unique<std::string>("held");
  UniqueFunction<std::string(Counter)> fn = [owned = std::move(owned)](Counter) { return *owned; };
  Counter argument(&moves);
  EXPECT_EQ(fn(std::move(argument)), "held");
  // Into operator()'s parameter, then once into the callable's: not once per layer.
  EXPECT_EQ(moves, 2);
}

}  // namespace

}  // namespace unit_client_unique_function_test

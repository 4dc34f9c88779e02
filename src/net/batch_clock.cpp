#include "net/batch_clock.hpp"

namespace redisson::detail {
namespace {

thread_local BatchClock::Clock::time_point batch_time{};
thread_local bool in_batch = false;

}  // namespace

BatchClock::Clock::time_point BatchClock::now() { return in_batch ? batch_time : Clock::now(); }

BatchClock::Scope::Scope() : previous_(batch_time), had_previous_(in_batch) {
  batch_time = Clock::now();
  in_batch = true;
}

BatchClock::Scope::~Scope() {
  batch_time = previous_;
  in_batch = had_previous_;
}

void BatchClock::Scope::refresh() { batch_time = Clock::now(); }

}  // namespace redisson::detail

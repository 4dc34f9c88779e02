// The sweeper of one expiring collection (MapCache, SetCache, TimeSeries): removes its expired
// entries now and then, as Redisson's EvictionScheduler does, so that memory held by entries
// nobody reads again is freed (readers never see them either way).
//
// One per client and object (ClientCore::shared_task, keyed by kind and name), alive while a
// handle on the object holds it; none when Config::eviction.enabled is false. Each run is one
// script that removes at most Config::eviction.keys_limit entries; the next run comes after
// EvictionSchedule's delay (5 s at first, longer while nothing expires). A failed run (server
// away, wrong type) is tried again after the same delay; readers are unaffected, so nothing is
// reported.
//
// Threading: made on any thread; runs on the I/O thread. Destroying the last handle stops it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

/// One run: remove at most `limit` expired entries; `latch_seconds` is how long Redisson's
/// once-per-interval latch is held where the object has one (MapCache). Completes with the
/// number removed, or -1 when another client's latch said it had just swept.
using SweepStep =
    std::function<void(std::int64_t limit, std::int64_t latch_seconds, Done<Reply> done)>;

/// This client's sweeper of `object` (made on first use): null when the sweeper is off.
std::shared_ptr<void> sweeper_of(const ObjectPtr& object, const char* kind, SweepStep step);

}  // namespace redisson::detail

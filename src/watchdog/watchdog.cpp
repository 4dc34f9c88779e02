#include "watchdog/watchdog.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "script/script_def.hpp"
#include "topology/key_slot.hpp"
#include "watchdog/hold_registry.hpp"
#include "watchdog/release_on_shutdown.hpp"

namespace redisson::detail {
namespace {

// Keeps one renewal script call short: Redis runs scripts one at a time.
constexpr std::size_t kMaxKeysPerCall = 500;
// Calls of one round in flight at once. Building every call of a round at once cost a client
// holding 100,000 locks a ~40 MB peak (200 calls of ~40 KB, the connection's buffers), which
// glibc kept: RSS per held lock grew from ~640 B to ~1,270 B after the first rounds (the
// `many-locks` bench). Eight keep a cluster's masters busy in parallel.
constexpr std::size_t kCallsInFlight = 8;

}  // namespace

struct Watchdog::Round {
  struct Batch {
    const ScriptDef* script;
    std::vector<HoldRegistry::Renewal> renewals;
  };
  std::deque<Batch> waiting;  // calls taken from the registry, not sent yet
  // Not a cluster: the registry is walked a page (one call's keys) at a time, the next page
  // starting after `last`. A cluster takes every renewal at once, to group them by slot.
  bool paged = false;
  std::optional<HoldRegistry::Renewal> last;
  bool walked = false;  // nothing more to take from the registry this round
  std::string lease_ms;
};

Watchdog::Watchdog(ClientCore& core)
    : core_(core), lease_(core.config().lock_watchdog_timeout), timer_(core.io()) {}

void Watchdog::wake() {
  if (stopped_ || running_.exchange(true)) return;
  core_.run_on_io([weak = weak_from_this()] {
    if (auto self = weak.lock()) self->schedule();
  });
}

void Watchdog::stop() {
  stopped_ = true;
  core_.run_on_io([weak = weak_from_this()] {
    if (auto self = weak.lock()) self->timer_.cancel();
  });
}

void Watchdog::shutdown_started(bool can_wait) noexcept {
  stop();
  if (can_wait && core_.config().release_locks_on_shutdown) {
    release_renewed_holds(holds_, core_.config(), core_.config().command_timeout);
  }
}

void Watchdog::closing() noexcept { stop(); }

void Watchdog::stopped() noexcept { holds_.clear(); }

void Watchdog::owner_exited(OwnerId owner) {
  for (auto& abandoned : holds_.owner_exited(owner)) {
    report_failure(
        core_.config(),
        error(errc::lock_lost, "lock '" + abandoned.name + "' held by " + abandoned.field +
                                   ": held by a thread that exited without unlocking; "
                                   "no longer renewed, its lease ends it"));
    if (abandoned.on_lost) abandoned.on_lost();
  }
}

void Watchdog::schedule() {
  if (stopped_) return;
  timer_.expires_after(lease_ / 3);
  timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->renew_all();
  });
}

void Watchdog::renew_all() {
  if (stopped_) return;
  auto round = std::make_shared<Round>();
  round->lease_ms = std::to_string(lease_.count());
  round->paged = !core_.is_cluster();
  if (!take_from_registry(*round)) {
    running_ = false;
    // An acquisition may have registered between the walk and the flag: look once more.
    if (holds_.watched() == 0 || running_.exchange(true)) return;
    round->walked = false;
    take_from_registry(*round);
  }
  schedule();
  for (std::size_t i = 0; i < kCallsInFlight; ++i) send_next(round);
}

bool Watchdog::take_from_registry(Round& round) {
  if (round.walked) return false;
  if (round.paged) {
    auto page = holds_.renewals_after(round.last ? &*round.last : nullptr, kMaxKeysPerCall);
    round.walked = page.size() < kMaxKeysPerCall;
    if (page.empty()) return false;
    round.last = page.back();
    // One call per renewal script (the lock family's, the read-write lock's) in this page.
    const std::size_t first = round.waiting.size();
    for (auto& renewal : page) {
      auto batch = std::find_if(round.waiting.begin() + static_cast<std::ptrdiff_t>(first),
                                round.waiting.end(),
                                [&](const Round::Batch& b) { return b.script == renewal.script; });
      if (batch == round.waiting.end()) {
        round.waiting.push_back({renewal.script, {}});
        batch = std::prev(round.waiting.end());
      }
      batch->renewals.push_back(std::move(renewal));
    }
    return true;
  }
  round.walked = true;
  auto renewals = holds_.renewals();
  // By script, and by slot: one script call may only touch one slot.
  std::map<std::pair<const ScriptDef*, int>, std::vector<std::vector<HoldRegistry::Renewal>>>
      batches;
  for (auto& renewal : renewals) {
    auto& list = batches[{renewal.script, key_slot(renewal.name)}];
    if (list.empty() || list.back().size() >= kMaxKeysPerCall) list.emplace_back();
    list.back().push_back(std::move(renewal));
  }
  for (auto& [script_and_slot, list] : batches) {
    for (auto& batch : list) round.waiting.push_back({script_and_slot.first, std::move(batch)});
  }
  return !round.waiting.empty();
}

// Each answer sends the round's next call: the round's calls are built a few at a time.
void Watchdog::send_next(const std::shared_ptr<Round>& round) {
  if (stopped_) return;
  if (round->waiting.empty()) take_from_registry(*round);
  if (round->waiting.empty()) return;
  auto batch = std::move(round->waiting.front());
  round->waiting.pop_front();
  std::vector<std::string> keys;
  std::vector<std::string> args{round->lease_ms};
  keys.reserve(batch.renewals.size());
  args.reserve(batch.renewals.size() + 1);
  for (const auto& renewal : batch.renewals) {
    keys.push_back(renewal.name);
    args.push_back(renewal.field);
  }
  core_.eval((*batch.script)(keys, args),
             [weak = weak_from_this(), round, renewals = std::move(batch.renewals)](
                 std::error_code ec, const Reply& reply) {
               auto self = weak.lock();
               if (!self) return;
               self->check_answers(renewals, ec, reply);
               self->send_next(round);
             },
             ReplicaWait::wait);
}

void Watchdog::check_answers(const std::vector<HoldRegistry::Renewal>& batch, std::error_code ec,
                             const Reply& reply) {
  // A failed renewal is retried on the next tick; if the lease runs out meanwhile, that renewal
  // answers 0 and the owner is told then.
  if (ec || reply.elements.size() != batch.size()) return;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (reply.elements[i].integer != 0) continue;
    auto on_lost = holds_.renewal_found_gone(batch[i]);
    if (!on_lost) continue;  // unlocked or taken again since this renewal was sent
    report_failure(core_.config(),
                   error(errc::lock_lost, "lock '" + batch[i].name + "' held by " + batch[i].field +
                                              ": the watchdog found the hold gone"));
    if (*on_lost) (*on_lost)();
  }
}

}  // namespace redisson::detail

#include "watchdog/watchdog.hpp"

#include <vector>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "topology/key_slot.hpp"

namespace redisson::detail {
namespace {

// Keeps one renewal script call short: Redis runs scripts one at a time.
constexpr std::size_t kMaxKeysPerCall = 500;

}  // namespace

const Script& lock_renew_script() {
  static const Script script{std::string(lua::lock_renew.source)};
  return script;
}

Watchdog::Watchdog(ClientCore& core)
    : core_(core), lease_(core.config().lock_watchdog_timeout), timer_(core.io()) {}

void Watchdog::add(const Script& renew_script, const std::string& name,
                   const std::string& owner_field, LostCallback on_lost) {
  bool start_timer = false;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    const KeyView key{name, owner_field};
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      it = entries_.try_emplace(Key{name, owner_field}, Entry{renew_script, 0, 0, nullptr}).first;
      it->second.registration = next_registration_++;
    }
    ++it->second.holds;
    if (on_lost) it->second.on_lost = std::move(on_lost);
    if (!lost_.empty()) {
      if (const auto lost = lost_.find(key); lost != lost_.end()) lost_.erase(lost);
    }
    start_timer = !timer_running_;
    timer_running_ = true;
  }
  if (start_timer) {
    core_.run_on_io([weak = weak_from_this()] {
      if (auto self = weak.lock()) self->schedule();
    });
  }
}

void Watchdog::remove(const std::string& name, const std::string& owner_field, bool all) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, owner_field});
  if (it == entries_.end()) return;
  if (all || it->second.holds <= 1) {
    entries_.erase(it);
  } else {
    --it->second.holds;
  }
}

bool Watchdog::was_lost(const std::string& name, const std::string& owner_field) const {
  std::lock_guard lock(mutex_);
  return lost_.contains(KeyView{name, owner_field});
}

std::size_t Watchdog::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void Watchdog::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  entries_.clear();
  timer_.cancel();
}

void Watchdog::schedule() {
  timer_.expires_after(lease_ / 3);
  timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->renew_all();
  });
}

void Watchdog::renew_all() {
  struct Batch {
    Script script;
    std::vector<std::pair<Key, std::uint64_t>> holds;
  };
  // By script SHA, and on a cluster also by slot: one script call may only touch one slot.
  std::map<std::pair<std::string, int>, std::vector<Batch>> batches;
  const bool by_slot = core_.is_cluster();
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    if (entries_.empty()) {
      timer_running_ = false;  // add() starts it again
      return;
    }
    for (const auto& [key, entry] : entries_) {
      auto& list = batches[{entry.script.sha1(), by_slot ? key_slot(key.first) : 0}];
      if (list.empty() || list.back().holds.size() >= kMaxKeysPerCall) {
        list.push_back(Batch{entry.script, {}});
      }
      list.back().holds.emplace_back(key, entry.registration);
    }
  }
  schedule();
  const std::string lease_ms = std::to_string(lease_.count());
  for (auto& [script_and_slot, list] : batches) {
    for (auto& batch : list) {
      std::vector<std::string> keys;
      std::vector<std::string> args{lease_ms};
      for (const auto& [key, registration] : batch.holds) {
        keys.push_back(key.first);
        args.push_back(key.second);
      }
      auto command = make_evalsha(batch.script, keys, args);
      core_.eval(
          batch.script, std::move(command),
          [weak = weak_from_this(), holds = std::move(batch.holds)](std::error_code ec,
                                                                    Reply reply) {
            auto self = weak.lock();
            // A failed renewal is retried on the next tick; if the lease runs out
            // meanwhile, that renewal answers 0 and the owner is told then.
            if (!self || ec || reply.elements.size() != holds.size()) return;
            std::vector<LostCallback> lost;
            {
              std::lock_guard lock(self->mutex_);
              for (std::size_t i = 0; i < holds.size(); ++i) {
                if (reply.elements[i].integer != 0) continue;
                const auto it = self->entries_.find(holds[i].first);
                if (it == self->entries_.end() || it->second.registration != holds[i].second) {
                  continue;  // unlocked (or re-taken) since this renewal was sent
                }
                if (it->second.on_lost) lost.push_back(std::move(it->second.on_lost));
                self->lost_.insert(holds[i].first);
                self->entries_.erase(it);
              }
            }
            for (auto& callback : lost) callback();
          },
          ReplicaWait::wait);
    }
  }
}

}  // namespace redisson::detail

#include "client/replica_ack.hpp"

#include <charconv>

namespace redisson::detail {

ReplicaAck::ReplicaAck(std::chrono::milliseconds wait_timeout,
                       std::chrono::milliseconds command_timeout)
    : wait_timeout_(wait_timeout), command_timeout_(command_timeout) {}

std::optional<int> ReplicaAck::connected_replicas(std::string_view info) {
  constexpr std::string_view kField = "connected_slaves:";
  auto at = info.find(kField);
  // The field starts a line (RESP3 verbatim text may carry a "txt:" prefix before the first).
  while (at != std::string_view::npos && at > 0 && info[at - 1] != '\n' && info[at - 1] != ':') {
    at = info.find(kField, at + 1);
  }
  if (at == std::string_view::npos) return std::nullopt;
  const auto* first = info.data() + at + kField.size();
  int count = 0;
  const auto [end, ec] = std::from_chars(first, info.data() + info.size(), count);
  if (ec != std::errc{} || end == first || count < 0) return std::nullopt;
  return count;
}

bool ReplicaAck::refuses_for_good(std::string_view error) {
  // A replica, or a server that cannot answer now: the refusal passes with the failover.
  for (const std::string_view passing :
       {"READONLY", "LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "MOVED", "ASK"}) {
    if (error.starts_with(passing)) return false;
  }
  return error.find("replica") == std::string_view::npos &&
         error.find("slave") == std::string_view::npos;
}

bool ReplicaAck::refused() const {
  std::lock_guard lock(mutex_);
  return refused_;
}

void ReplicaAck::forget(const std::string& node) {
  std::lock_guard lock(mutex_);
  const auto it = nodes_.find(node);
  if (it != nodes_.end()) it->second.replicas = -1;
}

void ReplicaAck::masters_changed(const std::vector<std::string>& masters) {
  std::set<std::string> now_masters(masters.begin(), masters.end());
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  // The first list (or one learned while no master was known) only says where things stand.
  if (masters_ && !masters_->empty()) {
    for (const auto& node : now_masters) {
      if (masters_->contains(node)) continue;
      // Promoted: as if it had a replica until now (lost_replicas_lately), and counted again.
      auto& state = nodes_[node];
      state.replicated_at = now;
      state.replicas = -1;
    }
  }
  masters_ = std::move(now_masters);
}

bool ReplicaAck::lost_replicas_lately(const NodeState& state) {
  return state.replicated_at != Clock::time_point{} &&
         Clock::now() - state.replicated_at < kRecount;
}

void ReplicaAck::follow(const std::shared_ptr<Connection>& connection, const std::string& node,
                        Done done) {
  enum class Next { unchecked, no_replicas, wait, count_then_wait, probe_wait } next{};
  {
    std::lock_guard lock(mutex_);
    if (refused_) {
      next = Next::unchecked;
    } else {
      auto& state = nodes_[node];
      if (state.probing) {
        state.waiters.push_back(Waiter{connection, std::move(done)});
        return;
      }
      // Only a count of replicas is kept: a count of none is asked again for every write, since
      // a replica that came back since would be promoted by the next failover with what was
      // written here unchecked (the likely way a soak lost a fencing token).
      const bool known = state.replicas > 0;
      if (known && wait_answered_) {
        next = Next::wait;
      } else {
        state.probing = true;
        next = known ? Next::probe_wait : Next::count_then_wait;
      }
    }
  }
  switch (next) {
    case Next::unchecked:
      return done(ReplicaOutcome::unchecked);
    case Next::no_replicas:
      return done(ReplicaOutcome::no_replicas);
    case Next::wait:
      return send_wait(connection, node, false, std::move(done));
    case Next::count_then_wait:
      return probe(connection, node, true, std::move(done));
    case Next::probe_wait:
      return probe(connection, node, false, std::move(done));
  }
}

void ReplicaAck::probe(const std::shared_ptr<Connection>& connection, const std::string& node,
                       bool count_first, Done done) {
  if (!count_first) return send_wait(connection, node, true, std::move(done));
  // Count first: WAIT 1 on a node without replicas would block for the whole timeout.
  connection->submit(Command{"INFO", "replication"}, Clock::now() + command_timeout_,
                     [self = shared_from_this(), connection, node, done = std::move(done)](
                         std::error_code ec, const Reply& reply) mutable {
                       std::optional<int> count;
                       if (!ec) count = connected_replicas(reply.str);
                       const bool error = ec && reply.type == ReplyType::error;
                       if ((error && refuses_for_good(reply.str)) || (!ec && !count)) {
                         // Refused, or something that answers INFO without replication facts (a
                         // proxy).
                         {
                           std::lock_guard lock(self->mutex_);
                           self->refused_ = true;
                         }
                         self->end_probe(node);
                         return done(ReplicaOutcome::unchecked);
                       }
                       if (ec) {
                         // No answer (or a passing refusal): the write queued before it is as
                         // unverified as the count.
                         self->end_probe(node);
                         return done(ReplicaOutcome::not_acknowledged);
                       }
                       bool wait_answered = false;
                       bool unreplicated = false;
                       {
                         std::lock_guard lock(self->mutex_);
                         auto& state = self->nodes_[node];
                         state.replicas = *count;
                         if (*count > 0) state.replicated_at = Clock::now();
                         wait_answered = self->wait_answered_;
                         unreplicated = *count == 0 && !lost_replicas_lately(state);
                       }
                       if (unreplicated || wait_answered) self->end_probe(node);
                       if (unreplicated) return done(ReplicaOutcome::no_replicas);
                       self->send_wait(connection, node, !wait_answered, std::move(done));
                     });
}

void ReplicaAck::end_probe(const std::string& node) {
  std::vector<Waiter> waiters;
  bool count_together = false;
  {
    std::lock_guard lock(mutex_);
    auto& state = nodes_[node];
    state.probing = false;
    waiters.swap(state.waiters);
    // No replica counted (or the count forgotten): each of them needs a count made after its
    // write was queued, and one count now is that for all of them, instead of one each, one
    // after another.
    count_together = waiters.size() > 1 && !refused_ && state.replicas <= 0;
  }
  if (!count_together) {
    // Each goes again, now with the count (or the refusal) known.
    for (auto& waiter : waiters) follow(waiter.connection, node, std::move(waiter.done));
    return;
  }
  auto group = std::make_shared<std::vector<Waiter>>(std::move(waiters));
  const auto connection = group->front().connection;
  follow(connection, node, [self = shared_from_this(), node, group](ReplicaOutcome outcome) {
    const auto& counted_on = group->front().connection;
    for (auto& waiter : *group) {
      // A count of none (or a refusal) answers for every write queued before it; a WAIT only
      // for the writes of its own connection.
      const bool answered = waiter.connection == counted_on ||
                            outcome == ReplicaOutcome::no_replicas ||
                            outcome == ReplicaOutcome::unchecked;
      if (answered) {
        waiter.done(outcome);
      } else {
        self->follow(waiter.connection, node, std::move(waiter.done));
      }
    }
  });
}

void ReplicaAck::send_wait(const std::shared_ptr<Connection>& connection, const std::string& node,
                           bool probing, Done done) {
  Command wait{"WAIT", "1"};
  wait.arg(static_cast<std::int64_t>(wait_timeout_.count()));
  // The server holds WAIT for up to the timeout before it answers.
  connection->submit(wait, Clock::now() + wait_timeout_ + command_timeout_,
                     [self = shared_from_this(), node, probing, done = std::move(done)](
                         std::error_code ec, const Reply& reply) mutable {
                       const bool refused =
                           ec && reply.type == ReplyType::error && refuses_for_good(reply.str);
                       {
                         std::lock_guard lock(self->mutex_);
                         if (refused) self->refused_ = true;
                         if (!ec) self->wait_answered_ = true;
                         if (!ec && reply.integer >= 1) {
                           self->nodes_[node].replicated_at = Clock::now();
                         }
                       }
                       if (!refused && (ec || reply.integer < 1)) {
                         // Count again next time: the replicas may be gone for good.
                         self->forget(node);
                       }
                       if (probing) self->end_probe(node);
                       if (refused) return done(ReplicaOutcome::unchecked);
                       if (!ec && reply.integer >= 1) return done(ReplicaOutcome::acknowledged);
                       done(ReplicaOutcome::not_acknowledged);
                     });
}

}  // namespace redisson::detail

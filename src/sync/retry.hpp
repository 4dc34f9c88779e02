// Sending a state-changing script that is safe to repeat (it carries its own request id or
// latch), retrying when the reply was lost.
#pragma once

#include <chrono>
#include <memory>

#include "client/client_core.hpp"

namespace redisson::detail {

/// How long a request-id latch (unlock, semaphore release) must outlive its first attempt:
/// every retry eval_with_retry may send, each waiting up to the command timeout (and, with
/// Config::sync_replicas, for the replicas too).
inline std::chrono::milliseconds retry_latch_lifetime(const Config& config) {
  const auto replicas =
      config.sync_replicas ? config.sync_replicas_timeout : std::chrono::milliseconds{0};
  return (config.command_timeout + config.retry_interval + replicas) * (config.retry_attempts + 1);
}

/// True for failures worth another attempt: the command may or may not have run (a lost reply),
/// or it was refused until its deadline and did not run (server_busy: LOADING, BUSY, CLUSTERDOWN,
/// TRYAGAIN). The scripts sent this way give back what their caller holds; a semaphore permit has
/// no lease, so a release that gives up loses it for good. server_busy is retried too because a
/// cluster failover produces it: a release whose attempts time out on a dead master meets
/// CLUSTERDOWN until a replica is promoted, and must keep its remaining attempts for that.
inline bool is_retryable(std::error_code ec) {
  return ec == errc::connection_lost || ec == errc::timeout || ec == errc::server_busy;
}

/// is_retryable, or a send no replica acknowledged (ReplicaWait::require; not ::report). Sending
/// such a script again is how it reaches the new master after a failover: the master it ran on
/// may be the one just replaced (its replica promoted, which is why none acknowledged), and the
/// client sends to the new one once it has heard of the switch. There its request id is absent
/// unless the first send was replicated after all, so it runs exactly once there. Each attempt
/// waits up to sync_replicas_timeout for the replicas, which paces the attempts.
inline bool is_retryable(std::error_code ec, ReplicaWait replicas) {
  return is_retryable(ec) || (ec == errc::not_replicated && replicas == ReplicaWait::require);
}

/// EVALSHA `command` and, after a lost reply or a broken connection, send the same bytes
/// again up to `attempts_left` times. Only for scripts that are idempotent per request
/// (the unlock latch, permit ids): a retry of one that did run must not act twice.
/// `replicas`: the Config::sync_replicas check after each send; with ReplicaWait::require a send
/// no replica acknowledged is sent again too (is_retryable), and the last one's not_replicated
/// is what `done` gets.
inline void eval_with_retry(const std::shared_ptr<ClientCore>& core, const Script& script,
                            std::shared_ptr<const Command> command, int attempts_left,
                            ReplyCallback done, ReplicaWait replicas = ReplicaWait::none) {
  core->eval(
      script, *command,
      [core, script, command, attempts_left, replicas, done = std::move(done)](
          std::error_code ec, Reply reply) mutable {
        if (is_retryable(ec, replicas) && attempts_left > 0) {
          return eval_with_retry(core, script, std::move(command), attempts_left - 1,
                                 std::move(done), replicas);
        }
        done(ec, std::move(reply));
      },
      replicas);
}

/// As eval_with_retry, but the first send is `first` and each retry sends the command
/// `make_retry` builds (once, on the first retry): a script may skip, on its first attempt, work
/// that only a retry needs (reading its own unlock latch, which cannot exist before the first
/// attempt ran). Building the retry command only when a reply was lost keeps a second
/// encoding off every successful call. `read` (a blocking call's slot) goes with the first send.
template <class MakeRetry>
void eval_first_then_retry(const std::shared_ptr<ClientCore>& core, const Script& script,
                           Command first, MakeRetry make_retry, int attempts_left,
                           ReplyCallback done, ReplicaWait replicas = ReplicaWait::none,
                           ReadSlot* read = nullptr) {
  core->eval(
      script, std::move(first),
      [core, script, make_retry = std::move(make_retry), attempts_left, replicas,
       done = std::move(done)](std::error_code ec, Reply reply) mutable {
        if (is_retryable(ec, replicas) && attempts_left > 0) {
          return eval_with_retry(core, script, std::make_shared<const Command>(make_retry()),
                                 attempts_left - 1, std::move(done), replicas);
        }
        done(ec, std::move(reply));
      },
      replicas, read);
}

/// eval_with_retry for a script definition's call (script/script_def.hpp).
inline void eval_with_retry(const std::shared_ptr<ClientCore>& core, const ScriptCall& call,
                            int attempts_left, ReplyCallback done,
                            ReplicaWait replicas = ReplicaWait::none) {
  eval_with_retry(core, call.script, std::make_shared<const Command>(call.command), attempts_left,
                  std::move(done), replicas);
}

/// eval_first_then_retry for a script definition's calls: `make_retry` returns a ScriptCall.
template <class MakeRetry>
void eval_first_then_retry(const std::shared_ptr<ClientCore>& core, ScriptCall first,
                           MakeRetry make_retry, int attempts_left, ReplyCallback done,
                           ReplicaWait replicas = ReplicaWait::none, ReadSlot* read = nullptr) {
  const Script script = first.script;
  eval_first_then_retry(
      core, script, std::move(first.command),
      [make_retry = std::move(make_retry)] { return make_retry().command; }, attempts_left,
      std::move(done), replicas, read);
}

}  // namespace redisson::detail

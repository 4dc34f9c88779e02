// What the pub/sub synchronizers (Semaphore, PermitExpirableSemaphore, CountDownLatch) share, so
// each of their files holds only its own operations: the state every one of them keeps (client,
// name, channel, publish command, re-check interval), reading a count from a GET reply, running
// a script whose reply is a status or a 1/0 flag, the wait options of an acquire, and keeping a
// grant that may have raced the caller's cancel. Private; the Redis layout stays in each file.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/error.hpp"
#include "script/script_def.hpp"
#include "sync/acquire_loop.hpp"

namespace redisson::detail {

/// The state each synchronizer object shares with its operations in flight.
struct SynchronizerState {
  SynchronizerState(std::shared_ptr<ClientCore> core_in, std::string name_in,
                    std::string channel_in);

  /// Throws invalid_argument ("<kind> '<name>': ...") unless `interval` is positive.
  void set_recheck_interval(std::chrono::milliseconds interval, const char* kind);
  std::chrono::milliseconds recheck_interval() const noexcept {
    return std::chrono::milliseconds{recheck_ms.load()};
  }

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;          // where changes are published; waiters subscribe to it
  const std::string publish_command;  // "spublish" on a sharded cluster
  // No reply says when a count changes: waiters re-check this often when no message came (a lost
  // message, or a writer that does not publish, costs at most this much).
  std::atomic<std::int64_t> recheck_ms{1000};
};

/// A synchronizer's State for `object` (its ObjectHooks::make_attached): made from the object's
/// client and name, keeping the re-check interval of the `previous` state (the name before a
/// rename).
template <class State>
std::shared_ptr<void> make_synchronizer_state(const ObjectState& object,
                                              const std::shared_ptr<void>& previous) {
  std::shared_ptr<SynchronizerState> state = std::make_shared<State>(object.core, object.name);
  if (previous) {
    state->recheck_ms = static_cast<const SynchronizerState*>(previous.get())->recheck_ms.load();
  }
  return state;  // as a SynchronizerState*, which state_of() casts back
}

/// The State a synchronizer object keeps beside its keys (made by make_synchronizer_state).
template <class State = SynchronizerState>
std::shared_ptr<State> state_of(const ObjectPtr& object) {
  return std::static_pointer_cast<State>(
      std::static_pointer_cast<SynchronizerState>(object->attached));
}

/// Runs `call`, a delete script answering 1/0 (ObjectHooks::delete_keys).
void eval_delete(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply>& done);

/// invalid_argument with `reason` as its text.
Status invalid_argument(std::string reason);

/// The count in a GET reply: absent is 0; anything but an integer is wrong_type.
std::error_code parse_count(const Reply& reply, std::int64_t& count);

/// GET `state.name`, read as parse_count does.
void get_count(const SynchronizerState& state, Done<std::int64_t> done);

/// The status of a state-changing script's reply, sent with ReplicaWait::require: `ec` itself,
/// except errc::not_replicated, which gets a text saying that `what` ran on the master but is not
/// known to be on any replica (Config::sync_replicas). For what cannot be undone (a release, a
/// count-down): the caller must not send it again, and a failover now would lose it.
Status replicated_status(std::error_code ec, const Reply& reply, std::string_view what);

/// Runs `call`, a state-changing script named `what` (a literal; replicated_status); completes with
/// its status only.
void eval_status(const std::shared_ptr<ClientCore>& core, ScriptCall call, std::string_view what,
                 Done<void> done);
/// As eval_status, and true when the script returned 1.
void eval_flag(const std::shared_ptr<ClientCore>& core, ScriptCall call, std::string_view what,
               Done<bool> done);

/// A waiting acquire's loop options: `state`'s channel, its re-check interval, and a deadline
/// `wait` from now (none: wait for ever).
AcquireLoop::Options wait_options(const SynchronizerState& state,
                                  std::optional<std::chrono::milliseconds> wait);

/// Called when an acquire took something that `give_back` returns. False when the caller's
/// cancel raced the grant: `give_back` has been started, report operation_aborted. True
/// otherwise (report success): with a cancel, `give_back` becomes its undo.
bool keep_grant(const CancellationPtr& cancel, const std::function<void()>& give_back);

/// The count key n of a semaphore (plain or permit-expirable: the layout is the same) and its
/// channel: set the count when there is none yet / add `delta` to it, publishing when positive.
void try_set_permits(const SynchronizerState& semaphore, std::int64_t permits, Done<bool> done);
void add_permits(const SynchronizerState& semaphore, std::int64_t delta, Done<void> done);

}  // namespace redisson::detail

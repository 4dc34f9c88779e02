// BatchState::execute(): the queued commands grouped per master, each group written whole on
// its master's connection (Connection::submit_group):
//
//   [SCRIPT LOAD s]...  [CLIENT REPLY OFF]  [MULTI]  command...  [EXEC]  [CLIENT REPLY ON]
//   [WAIT n ms]
//
// SCRIPT LOAD for the scripts this connection was not seen to load yet (answered before the
// rest, so CLIENT REPLY OFF cannot hide its failure); MULTI/EXEC in in_memory_atomic mode;
// CLIENT REPLY OFF/ON with skip_result (only ON is answered); WAIT with sync_replicas. A group
// completes once its last answer arrived: then, unless it is sent again (every command refused
// without running: BatchOptions::retry_attempts) or some of its commands are (answered MOVED or
// ASK: each sent again through the router), its operations complete in call order, and once
// every group did, execute() does.
#include <algorithm>
#include <asio/steady_timer.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "batch/batch_state.hpp"
#include "batch/loaded_scripts.hpp"
#include "client/client_core.hpp"
#include "net/connection.hpp"
#include "net/reply_error.hpp"
#include "topology/router.hpp"

namespace redisson::detail {
namespace {

struct BatchGroup {
  std::shared_ptr<Connection> connection;
  std::vector<std::size_t> entries;  // positions in the batch, in call order
  int attempts = 0;
  // Per send: answers still expected, and what failed for the group as a whole (MULTI, EXEC,
  // CLIENT REPLY ON refused, the connection lost).
  std::size_t answers_pending = 0;
  Status failure;
  Reply failure_reply;  // the reply that said so, when one did
  // Commands answered MOVED or ASK, sent again one at a time in call order, and how many of
  // them have been answered.
  bool redirected = false;
  std::vector<std::size_t> redirects;
  std::size_t redirects_answered = 0;
};

// Shared by the callbacks of one execute(). A group's callbacks run one at a time (its
// connection's replies arrive in order); `mutex` guards what the groups share.
struct BatchRun {
  std::shared_ptr<ClientCore> core;
  BatchOptions options;
  Clock::time_point deadline;
  std::vector<BatchEntry> entries;
  // Per entry (each written by its own group only).
  std::vector<std::error_code> codes;
  std::vector<Reply> responses;
  std::vector<BatchGroup> groups;

  // Itself, until finish(): the callbacks hold a plain pointer (no reference count per
  // command); every one of them is called (reply, deadline, lost connection or shutdown).
  std::shared_ptr<BatchRun> keep_alive;

  std::mutex mutex;
  std::size_t groups_pending = 0;
  std::int64_t synced = -1;
  Done<BatchResult> done;

  void send(std::size_t group_index);
  void answered(std::size_t group_index);
  void finish_group(std::size_t group_index);
  void finish();
  bool worth_resending(const BatchGroup& group) const;
  bool follow_redirects(std::size_t group_index);
  void send_redirected(std::size_t group_index);
};

// The commands a batch wraps its own in, made once.
const Command& batch_wrapper(std::string_view which) {
  static const Command kReplyOff{"CLIENT", "REPLY", "OFF"};
  static const Command kReplyOn{"CLIENT", "REPLY", "ON"};
  static const Command kMulti{"MULTI"};
  static const Command kExec{"EXEC"};
  if (which == "OFF") return kReplyOff;
  if (which == "ON") return kReplyOn;
  return which == "MULTI" ? kMulti : kExec;
}

// The answered callback of a group's command: `on_answer` then the group's bookkeeping.
template <class OnAnswer>
ReplyCallback group_callback(BatchRun* run, std::size_t group, OnAnswer on_answer) {
  ++run->groups[group].answers_pending;
  return [run, group, on_answer = std::move(on_answer)](std::error_code ec, Reply reply) mutable {
    on_answer(ec, std::move(reply));
    run->answered(group);
  };
}

void BatchRun::send(std::size_t group_index) {
  auto* self = this;
  auto& group = groups[group_index];
  group.failure = Status{};
  group.failure_reply = Reply{};
  group.answers_pending = 0;
  const bool atomic = options.mode == BatchMode::in_memory_atomic;
  auto& scripts = core->service<LoadedScripts>();

  // The group's commands, by address: the queued ones stay in `entries`, the batch's own here.
  std::vector<const Command*> commands;
  std::vector<ReplyCallback> callbacks;
  commands.reserve(group.entries.size() + 6);
  callbacks.reserve(group.entries.size() + 6);
  std::vector<Command> loads;
  loads.reserve(group.entries.size());  // never reallocated: `commands` points into it
  std::optional<Command> wait;
  auto add = [&](const Command& command, ReplyCallback callback) {
    commands.push_back(&command);
    callbacks.push_back(std::move(callback));
  };
  auto fail_group = [self, group_index](std::error_code ec, const Reply& reply) {
    auto& group = self->groups[group_index];
    if (!ec || group.failure) return;
    group.failure = status_of(ec, reply);
    group.failure_reply = reply;
  };

  std::vector<std::string> loading;
  for (const auto i : group.entries) {
    const auto& script = entries[i].script;
    if (!script || scripts.known(group.connection, script->sha1())) continue;
    if (std::find(loading.begin(), loading.end(), script->sha1()) != loading.end()) continue;
    loading.push_back(script->sha1());
    add(loads.emplace_back(Command{"SCRIPT", "LOAD", script->source()}),
        group_callback(
            self, group_index,
            [self, group_index, sha1 = script->sha1()](std::error_code ec, const Reply&) {
              // A failed load shows as the EVALSHA's NOSCRIPT.
              if (!ec) {
                self->core->service<LoadedScripts>().learn(self->groups[group_index].connection,
                                                           sha1);
              }
            }));
  }
  if (options.skip_result) add(batch_wrapper("OFF"), nullptr);
  if (atomic) {
    add(batch_wrapper("MULTI"),
        options.skip_result ? nullptr : group_callback(self, group_index, fail_group));
  }
  for (const auto i : group.entries) {
    ReplyCallback callback;
    if (!options.skip_result) {
      callback =
          group_callback(self, group_index, [self, i, atomic](std::error_code ec, Reply reply) {
            // Atomic: QUEUED, or why the command cannot be queued.
            if (atomic && !ec) return;
            self->codes[i] = ec;
            self->responses[i] = std::move(reply);
          });
    }
    add(entries[i].command, std::move(callback));
  }
  if (atomic) {
    ReplyCallback on_exec;
    if (!options.skip_result) {
      on_exec = group_callback(
          self, group_index,
          [self, group_index, fail_group](std::error_code ec, Reply reply) mutable {
            const auto& members = self->groups[group_index].entries;
            if (ec || !reply.is_aggregate() || reply.elements.size() != members.size()) {
              // EXECABORT (a command refused while queueing: that one keeps its own error),
              // or a reply of another shape.
              if (!ec) ec = make_error_code(errc::protocol_error);
              return fail_group(ec, reply);
            }
            for (std::size_t k = 0; k < members.size(); ++k) {
              auto& element = reply.elements[k];
              self->codes[members[k]] = error_for_reply(element);
              self->responses[members[k]] = std::move(element);
            }
          });
    }
    add(batch_wrapper("EXEC"), std::move(on_exec));
  }
  if (options.skip_result) {
    add(batch_wrapper("ON"), group_callback(self, group_index, fail_group));
  }
  if (options.sync_replicas > 0) {
    wait.emplace(
        Command{"WAIT"}.arg(std::int64_t{options.sync_replicas}).arg(options.sync_timeout.count()));
    add(*wait, group_callback(self, group_index, [self](std::error_code ec, const Reply& reply) {
      const std::int64_t count = ec || !reply.is_integer() ? 0 : reply.integer;
      std::lock_guard lock(self->mutex);
      self->synced = self->synced < 0 ? count : std::min(self->synced, count);
    }));
  }
  // Taken before the send: the last answer may arrive before submit_group returns.
  auto connection = group.connection;
  connection->submit_group(commands, deadline, std::move(callbacks));
}

void BatchRun::answered(std::size_t group_index) {
  if (--groups[group_index].answers_pending == 0) finish_group(group_index);
}

// Every command refused without running (LOADING, BUSY, TRYAGAIN, CLUSTERDOWN): sending the
// group again cannot run anything twice.
bool BatchRun::worth_resending(const BatchGroup& group) const {
  if (options.skip_result || group.attempts >= options.retry_attempts) return false;
  if (Clock::now() + options.retry_interval >= deadline) return false;
  const auto busy = make_error_code(errc::server_busy);
  if (options.mode == BatchMode::in_memory_atomic) return group.failure == busy;
  return std::all_of(group.entries.begin(), group.entries.end(),
                     [&](std::size_t i) { return codes[i] == busy; });
}

// The commands of a plain (not atomic) group that a master refused with MOVED or ASK (their
// slot moved, or is moving, since the group was made) did not run: they are sent again through
// the router, which follows the redirection (and learns the slot's new master for the next
// batch), one at a time in call order, as the commands after them on the same keys ran on the
// new master only after them. Then the group finishes, still in call order.
bool BatchRun::follow_redirects(std::size_t group_index) {
  auto& group = groups[group_index];
  if (group.redirected || options.skip_result || options.mode == BatchMode::in_memory_atomic) {
    return false;
  }
  for (const auto i : group.entries) {
    const auto& reply = responses[i];
    if (reply.type == ReplyType::error &&
        (reply.str.starts_with("MOVED ") || reply.str.starts_with("ASK "))) {
      group.redirects.push_back(i);
    }
  }
  if (group.redirects.empty()) return false;
  group.redirected = true;
  send_redirected(group_index);
  return true;
}

void BatchRun::send_redirected(std::size_t group_index) {
  auto& group = groups[group_index];
  const auto i = group.redirects[group.redirects_answered];
  auto* self = this;
  ReplyCallback callback = [self, group_index, i](std::error_code ec, Reply reply) {
    self->codes[i] = ec;
    self->responses[i] = std::move(reply);
    auto& group = self->groups[group_index];
    if (++group.redirects_answered < group.redirects.size()) {
      return self->send_redirected(group_index);
    }
    self->finish_group(group_index);
  };
  const auto& entry = entries[i];
  if (entry.script) {
    core->eval(*entry.script, entry.command, std::move(callback));  // NOSCRIPT: EVAL
  } else {
    core->submit(entry.command, deadline, std::move(callback));
  }
}

void BatchRun::finish_group(std::size_t group_index) {
  auto& group = groups[group_index];
  if (follow_redirects(group_index)) return;
  if (worth_resending(group)) {
    ++group.attempts;
    for (const auto i : group.entries) codes[i] = {};
    auto timer = std::make_shared<asio::steady_timer>(core->io(), options.retry_interval);
    timer->async_wait(
        [self = keep_alive, group_index, timer](std::error_code) { self->send(group_index); });
    return;
  }
  for (const auto i : group.entries) {
    auto& entry = entries[i];
    if (options.skip_result) {
      const auto ec = group.failure ? group.failure.code : make_error_code(errc::not_supported);
      entry.callback(ec, Reply{});
      continue;
    }
    if (!codes[i] && group.failure && options.mode == BatchMode::in_memory_atomic) {
      // The transaction did not run (EXECABORT, MULTI refused): nor did this command.
      codes[i] = group.failure.code;
      responses[i] = group.failure_reply;
    }
    entry.callback(codes[i], Reply(responses[i]));
  }
  bool last = false;
  {
    std::lock_guard lock(mutex);
    last = --groups_pending == 0;
  }
  if (last) finish();
}

void BatchRun::finish() {
  const auto self = std::move(keep_alive);  // freed as this returns
  BatchResult result;
  result.synced_replicas = std::max<std::int64_t>(synced, 0);
  Status status;
  for (const auto& group : groups) {
    if (group.failure && !status) status = group.failure;
  }
  for (std::size_t i = 0; i < entries.size() && !options.skip_result; ++i) {
    if (!codes[i]) continue;
    std::string text = "batch: command " + std::to_string(i + 1) + " (" +
                       std::string(entries[i].command.name()) + ") failed";
    if (responses[i].type == ReplyType::error) text += ": server: " + responses[i].str;
    status = Status(codes[i], std::move(text));
    break;
  }
  if (!status && options.sync_replicas > 0 && result.synced_replicas < options.sync_replicas) {
    // What the caller asked of the replicas is not given: never a silent success. (Redisson
    // only reports the count; its callers rarely look at it.)
    status = Status(make_error_code(errc::not_replicated),
                    "batch: WAIT counted " + std::to_string(result.synced_replicas) + " of " +
                        std::to_string(options.sync_replicas) + " replicas within " +
                        std::to_string(options.sync_timeout.count()) +
                        " ms; the commands ran on the master(s), and a failover may lose them");
  }
  if (!options.skip_result) result.responses = std::move(responses);
  done(std::move(status), std::move(result));
}

}  // namespace

void BatchState::execute(Done<BatchResult> done) {
  std::vector<BatchEntry> entries;
  if (auto refused = take(entries)) return done(std::move(refused), BatchResult{});
  if (entries.empty()) return done(Status{}, BatchResult{});

  auto run = std::make_shared<BatchRun>();
  run->core = core_;
  run->options = options_;
  const auto timeout = options_.response_timeout.count() > 0 ? options_.response_timeout
                                                             : core_->config().command_timeout;
  run->deadline = Clock::now() + timeout;
  run->codes.resize(entries.size());
  run->responses.resize(entries.size());
  run->done = std::move(done);

  // Group per master connection, groups in the order of their first command.
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto connection = core_->router().connection_for(entries[i].command.routing_key());
    if (!connection) {
      for (auto& entry : entries) entry.callback(make_error_code(errc::shutdown), Reply{});
      return run->done(make_error_code(errc::shutdown), BatchResult{});
    }
    auto it = std::find_if(run->groups.begin(), run->groups.end(),
                           [&](const BatchGroup& group) { return group.connection == connection; });
    if (it == run->groups.end()) {
      auto& group = run->groups.emplace_back();
      group.connection = std::move(connection);
      it = std::prev(run->groups.end());
    }
    it->entries.push_back(i);
  }
  if (options_.mode == BatchMode::in_memory_atomic && run->groups.size() > 1) {
    const auto& first = entries[run->groups[0].entries.front()].command;
    const auto& other = entries[run->groups[1].entries.front()].command;
    Status refused(make_error_code(errc::invalid_argument),
                   "batch: an in_memory_atomic batch runs MULTI/EXEC on one master, but its keys "
                   "belong to " +
                       std::to_string(run->groups.size()) + " masters ('" +
                       std::string(first.routing_key().value_or("")) + "' and '" +
                       std::string(other.routing_key().value_or("")) +
                       "' to different ones); nothing was sent");
    for (auto& entry : entries) entry.callback(refused.code, Reply{});
    return run->done(std::move(refused), BatchResult{});
  }
  run->entries = std::move(entries);
  run->groups_pending = run->groups.size();
  run->keep_alive = run;
  for (std::size_t g = 0; g < run->groups.size(); ++g) run->send(g);
}

}  // namespace redisson::detail

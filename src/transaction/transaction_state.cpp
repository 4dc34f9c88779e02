#include "transaction/transaction_state.hpp"

#include <algorithm>
#include <charconv>

#include "batch/batch_state.hpp"
#include "client/client_id.hpp"
#include "client/failure_report.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "redisson/owner_id.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {
namespace {

constexpr std::string_view kLockChannelPrefix = "redisson_lock__channel";
constexpr std::string_view kRwLockChannelPrefix = "redisson_rwlock";

std::string transaction_field(const ClientCore& core, const std::string& id, bool write) {
  // Java's RedissonTransactionalLock: "<UUID>:<threadId>:<transactionId>";
  // RedissonTransactionalWriteLock: "<UUID>:<threadId>:write:<transactionId>".
  char digits[24];
  const auto end =
      std::to_chars(digits, digits + sizeof digits, OwnerId::current_thread().value()).ptr;
  std::string field(core.id());
  field.append(1, ':').append(digits, end).append(write ? ":write:" : ":").append(id);
  return field;
}

std::int64_t ms_of(std::chrono::milliseconds value) {
  return static_cast<std::int64_t>(value.count());
}

}  // namespace

Status transaction_finished_refusal() {
  return {make_error_code(errc::invalid_argument),
          "transaction: finished (committed or rolled back); start a new one"};
}

TransactionState::TransactionState(std::shared_ptr<ClientCore> core_in,
                                   TransactionOptions options_in)
    : core(std::move(core_in)),
      options(options_in),
      id(make_request_id()),
      field(transaction_field(*core, id, false)),
      write_field(transaction_field(*core, id, true)),
      started(Clock::now()) {}

Status TransactionState::begin_operation() {
  std::lock_guard guard(mutex);
  if (phase_ != Phase::open) return transaction_finished_refusal();
  ++pending_;
  return {};
}

void TransactionState::end_operation() {
  std::lock_guard guard(mutex);
  --pending_;
}

void TransactionState::lock(const std::string& name, Done<void> done, TxLockKind kind) {
  AcquireLoop::Options loop;
  loop.channel =
      prefix_name(kind == TxLockKind::write ? kRwLockChannelPrefix : kLockChannelPrefix, name);
  loop.policy = FirstComePolicy{};
  loop.deadline = started + options.timeout;
  Attempt attempt = [self = shared_from_this(), name, kind](AttemptCallback callback, ReadSlot*) {
    self->core->eval(
        self->lock_call(name, kind),
        [callback = std::move(callback)](std::error_code ec, const Reply& reply) mutable {
          if (ec) return callback(status_of(ec, reply), {});
          // lock_acquire.lua: nil = held now, else the holder's PTTL.
          if (reply.is_null()) return callback({}, AttemptResult{true});
          callback({}, AttemptResult{false, std::chrono::milliseconds(reply.integer)});
        });
  };
  AcquireLoop::start(
      core, std::move(loop), std::move(attempt),
      [name, timeout = options.timeout, done = std::move(done)](Status status,
                                                                bool acquired) mutable {
        if (status) return done(std::move(status));
        if (!acquired) {
          return done(Status(make_error_code(errc::timeout),
                             "transaction: the lock '" + name +
                                 "' is held by another transaction; waited until this "
                                 "transaction's timeout (" +
                                 std::to_string(timeout.count()) + " ms)"));
        }
        done({});
      });
}

ScriptCall TransactionState::lock_call(const std::string& name, TxLockKind kind) const {
  if (kind == TxLockKind::write) {
    // No reader check (transactions take no read side), no entry in the writer order.
    return lua::rwlock_write_acquire({name, prefix_name("redisson_rwlock_writers", name)},
                                     {ms_of(options.timeout), write_field, "", "0"});
  }
  return lua::lock_acquire({name}, {ms_of(options.timeout), field});
}

void TransactionState::lock_all(std::vector<std::string> names, Done<void> done) {
  if (names.size() < 2) {
    if (names.empty()) return done({});
    return lock(names.front(), std::move(done));
  }
  // Every lock tried once, pipelined: one round trip when no other transaction holds any.
  BatchOptions batch_options;
  batch_options.response_timeout = options.response_timeout;
  auto batch = std::make_shared<BatchState>(core, batch_options);
  for (const auto& name : names) {
    batch->add(lock_call(name, TxLockKind::plain), [](std::error_code, const Reply&) {});
  }
  auto shared = std::make_shared<const std::vector<std::string>>(std::move(names));
  batch->execute([self = shared_from_this(), batch, names = std::move(shared),
                  done = std::move(done)](Status status, const BatchResult& result) mutable {
    // lock_acquire.lua: nil = held now, else the holder's PTTL (an error reply: failed).
    const auto& replies = result.responses;
    const auto held = [&](std::size_t i) { return i < replies.size() && replies[i].is_null(); };
    std::size_t first = 0;
    while (first < names->size() && held(first)) ++first;
    if (first == names->size()) return done({});
    // Keep the holds before the first miss, give back those after it: from there on the
    // locks are taken one at a time in order, so that two transactions locking overlapping
    // names in the same order never wait for each other in a ring.
    for (std::size_t i = first + 1; i < names->size(); ++i) {
      if (held(i)) self->unlock_now((*names)[i]);
    }
    const bool failed = first >= replies.size() || !replies[first].is_integer();
    if (failed) {
      for (std::size_t i = 0; i < first; ++i) self->unlock_now((*names)[i]);
      if (!status) status = Status(make_error_code(errc::protocol_error), "transaction: lock");
      return done(std::move(status));
    }
    self->lock_from(std::move(names), first, std::move(done));
  });
}

void TransactionState::lock_from(std::shared_ptr<const std::vector<std::string>> names,
                                 std::size_t next, Done<void> done) {
  // One at a time, in order: each waits for the previous one's outcome.
  if (next == names->size()) return done({});
  const auto& name = (*names)[next];
  lock(name,
       [self = shared_from_this(), names, next, done = std::move(done)](Status status) mutable {
         if (status) {
           for (std::size_t i = 0; i < next; ++i) self->unlock_now((*names)[i]);
           return done(std::move(status));
         }
         self->lock_from(std::move(names), next + 1, std::move(done));
       });
}

ScriptCall TransactionState::unlock_call(const std::string& name, TxLockKind kind) const {
  std::string latch;
  append_prefixed_name(latch, "redisson_unlock_latch", name).append(1, ':');
  append_request_id(latch);
  if (kind == TxLockKind::write) {
    return lua::rwlock_write_unlock(
        {name, prefix_name(kRwLockChannelPrefix, name), hash_tagged_name(name), latch},
        {"1", ms_of(options.timeout), write_field, core->publish_command(),
         ms_of(retry_latch_lifetime(core->config()))});
  }
  return lua::lock_unlock({name, prefix_name(kLockChannelPrefix, name), latch},
                          {"0", ms_of(options.timeout), field, core->publish_command(),
                           ms_of(retry_latch_lifetime(core->config())), "1"});
}

void TransactionState::unlock_now(const std::string& name, TxLockKind kind) {
  core->eval(unlock_call(name, kind), [self = shared_from_this(), name](std::error_code ec,
                                                                        const Reply& reply) {
    if (!ec) return;
    report_failure(self->core->config(),
                   Blocking("transaction unlock", name, nullptr).to_error(status_of(ec, reply)));
  });
}

bool TransactionState::record_locked(TransactionWrite write) {
  if (phase_ != Phase::open) return false;
  writes_.push_back(std::move(write));
  return true;
}

Status TransactionState::finish_begin(std::vector<TransactionWrite>& writes, bool abandoning) {
  std::lock_guard guard(mutex);
  if (phase_ != Phase::open) return transaction_finished_refusal();
  if (pending_ != 0 && !abandoning) {
    return {make_error_code(errc::invalid_argument),
            "transaction: an operation is still running; wait for it before commit or rollback"};
  }
  phase_ = Phase::finishing;
  writes.swap(writes_);
  return {};
}

void TransactionState::finished() {
  std::lock_guard guard(mutex);
  phase_ = Phase::finished;
  buckets.clear();
  map_entries.clear();
  set_members.clear();
  emptied.clear();
  expiring.clear();
}

void TransactionState::send_unlocks(const std::vector<TransactionWrite>& writes, Done<void> done) {
  const bool none = std::none_of(writes.begin(), writes.end(),
                                 [](const TransactionWrite& write) { return !write.lock.empty(); });
  if (none) return done({});
  BatchOptions batch_options;
  batch_options.response_timeout = options.response_timeout;
  batch_options.retry_attempts = options.retry_attempts;
  batch_options.retry_interval = options.retry_interval;
  auto batch = std::make_shared<BatchState>(core, batch_options);
  for (const auto& write : writes) {
    if (write.lock.empty()) continue;
    batch->add(unlock_call(write.lock, write.lock_kind), [](std::error_code, const Reply&) {});
  }
  batch->execute([batch, done = std::move(done)](Status status, const BatchResult&) mutable {
    done(std::move(status));
  });
}

void TransactionState::commit(Done<void> done) {
  std::vector<TransactionWrite> writes;
  if (auto refused = finish_begin(writes)) return done(std::move(refused));
  auto self = shared_from_this();
  if (Clock::now() - started > options.timeout) {
    // As Redisson: a transaction older than its timeout may have lost its first locks.
    return send_unlocks(writes, [self, done = std::move(done)](const Status&) mutable {
      self->finished();
      done(Status(make_error_code(errc::timeout),
                  "transaction: discarded (rolled back): older than its timeout (" +
                      std::to_string(self->options.timeout.count()) + " ms)"));
    });
  }
  if (writes.empty()) {
    finished();
    return done({});
  }
  BatchOptions batch_options;
  batch_options.mode = BatchMode::in_memory_atomic;
  batch_options.response_timeout = options.response_timeout;
  batch_options.retry_attempts = options.retry_attempts;
  batch_options.retry_interval = options.retry_interval;
  batch_options.sync_replicas = options.sync_slaves;
  batch_options.sync_timeout = options.sync_timeout;
  auto batch = std::make_shared<BatchState>(core, batch_options);
  // Each object bound to the batch once: its writes queue there (as Batch::get's objects).
  std::map<const ObjectState*, ObjectPtr> bound;
  for (const auto& write : writes) {
    auto& object = bound[write.object.get()];
    if (!object) {
      auto copy = std::make_shared<ObjectState>(*write.object);
      copy->batch = batch;
      object = std::move(copy);
    }
    write.queue(object);
    if (!write.lock.empty()) {
      batch->add(unlock_call(write.lock, write.lock_kind), [](std::error_code, const Reply&) {});
    }
  }
  batch->execute([self, batch, writes = std::move(writes), done = std::move(done)](
                     Status status, const BatchResult&) mutable {
    if (!status) {
      self->finished();
      return done({});
    }
    if (status == errc::not_replicated) {
      // EXEC ran (its unlocks with it); only the replicas' acknowledgement is missing.
      self->finished();
      status.detail = "transaction: committed, but " + status.detail;
      return done(std::move(status));
    }
    // The EXEC may not have run: release the locks rather than leave them to their lease (an
    // unlock whose hold the EXEC already released answers "not the owner" and changes nothing).
    self->send_unlocks(
        writes, [self, status = std::move(status), done = std::move(done)](const Status&) mutable {
          self->finished();
          status.detail = "transaction: commit failed" +
                          (status.detail.empty() ? std::string() : ": " + status.detail);
          done(std::move(status));
        });
  });
}

void TransactionState::rollback(Done<void> done) {
  std::vector<TransactionWrite> writes;
  if (auto refused = finish_begin(writes)) return done(std::move(refused));
  send_unlocks(writes, [self = shared_from_this(), done = std::move(done)](Status status) mutable {
    self->finished();
    if (status) {
      status.detail = "transaction: rollback failed" +
                      (status.detail.empty() ? std::string() : ": " + status.detail);
    }
    done(std::move(status));
  });
}

void TransactionState::abandon() noexcept {
  try {
    std::vector<TransactionWrite> writes;
    if (finish_begin(writes, /*abandoning=*/true)) return;  // finished already
    send_unlocks(writes, [self = shared_from_this()](const Status& status) {
      self->finished();
      if (!status) return;
      report_failure(self->core->config(),
                     Blocking("transaction rollback", self->id, nullptr).to_error(status));
    });
  } catch (const std::exception& failure) {
    report_failure(core->config(), error(errc::invalid_argument,
                                         std::string("transaction rollback: ") + failure.what()));
  }
}

}  // namespace redisson::detail

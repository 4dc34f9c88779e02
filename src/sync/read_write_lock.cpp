#include "redisson/read_write_lock.hpp"

#include "client/client_access.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/lock_kind.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson {
namespace detail {
namespace {

// The write acquire script's reply for a refused read->write upgrade.
constexpr std::int64_t kUpgradeRefused = -3;

// How long a waiting writer's entry in the writer order holds new readers back unless renewed:
// what a writer that died costs the readers at most. Its waiter renews it twice as often
// (WriteSidePolicy::renew_every), an attempt more per half second of waiting, so that a late
// timer does not let it lapse while the writer waits.
constexpr std::chrono::milliseconds kWriterEntryLife{1000};

// What both sides of Redisson's RReadWriteLock share: hash n { mode: read|write,
// <client>:<owner>: read holds, <client>:<owner>:write: write holds }, one key
// {n}:<client>:<owner>:rwlock_timeout:<i> per read hold carrying that hold's lease, released on
// channel P(redisson_rwlock, n).
class RwSideKind : public LockKind {
 public:
  RwSideKind(std::shared_ptr<ClientCore> core, std::string name, const char* mode)
      : LockKind(std::move(core), std::move(name), "redisson_rwlock"),
        tagged_name(hash_tagged_name(this->name)),
        writers_key(prefix_name("redisson_rwlock_writers", this->name)),
        mode_(mode) {}

  /// The reader field of `owner`: "<client-id>:<owner>".
  std::string reader_field(OwnerId owner) const { return LockKind::owner_field(owner); }
  /// S(n, reader field):rwlock_timeout: read hold i of the owner is this + ":" + i.
  std::string hold_timeout_prefix(OwnerId owner) const {
    return suffix_name(name, reader_field(owner)) + ":rwlock_timeout";
  }

  /// Deletes the lock in `mode` ("read", "write", or "any") with its read holds' lease keys.
  void force_release_mode(const char* mode, Done<bool> done) {
    core->eval(lua::rwlock_force_unlock({name, channel, tagged_name}, {"1", publish_command, mode}),
               [self = shared_from_this(), done = std::move(done)](std::error_code ec,
                                                                   const Reply& reply) mutable {
                 static_cast<RwSideKind&>(*self).complete_force_release(ec, reply, std::move(done));
               });
  }
  void force_release(Done<bool> done) override { force_release_mode(mode_, std::move(done)); }

  /// Held in this side's mode.
  void is_locked(Done<bool> done) override {
    core->submit(
        Command{"HGET", name, "mode"},
        [mode = mode_, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
          done(status_of(ec, reply), !ec && !reply.is_null() && reply.str == mode);
        });
  }
  const char* kind_name() const noexcept override { return mode_; }

  const std::string tagged_name;
  /// P(redisson_rwlock_writers, n): this library's waiting writers, which hold new readers back
  /// (rwlock_write_acquire.lua, rwlock_read_acquire.lua). Java Redisson never reads it.
  const std::string writers_key;

 protected:
  const ScriptDef& renew_script() const override { return lua::rwlock_renew; }
  // nil: not the owner; otherwise the owner's holds of this side left.
  UnlockReply read_unlock(const Reply& reply) const override {
    if (reply.is_null()) return UnlockReply{true, {}};
    const auto left = std::max<std::int64_t>(reply.integer, 0);
    return UnlockReply{false, HoldRegistry::Released{left == 0, left}};
  }
  // How long a refused writer's entry in the writer order lasts: kWriterEntryLife, never past
  // the end of its wait; none for a single try (wait 0).
  static std::chrono::milliseconds entry_life(const AcquireRequest& request) {
    if (!request.wait) return kWriterEntryLife;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(request.started + *request.wait -
                                                                   Clock::now());
    if (request.wait->count() == 0) return {};
    return std::clamp(left, std::chrono::milliseconds{1}, kWriterEntryLife);
  }
  std::int64_t latch_lifetime_ms() const {
    return static_cast<std::int64_t>(retry_latch_lifetime(core->config()).count());
  }

 private:
  const char* mode_;
};

class ReadSideKind final : public RwSideKind {
 public:
  ReadSideKind(std::shared_ptr<ClientCore> core, std::string name)
      : RwSideKind(std::move(core), std::move(name), "read") {}

 protected:
  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> /*reset*/) const override {
    return lua::rwlock_read_acquire({name, hold_timeout_prefix(request.owner), writers_key},
                                    {static_cast<std::int64_t>(request.lease.count()),
                                     request.field, request.field + ":write"});
  }
  AttemptReply read_attempt(const Reply& reply) const override {
    if (reply.is_null()) return AttemptReply{{}, true};
    return AttemptReply{{}, false, std::chrono::milliseconds(reply.integer)};
  }
  ScriptCall unlock_call(const UnlockRequest& request, bool /*first*/) const override {
    return lua::rwlock_read_unlock(
        {name, channel, hold_timeout_prefix(request.owner), tagged_name, request.latch},
        {"0", request.field, publish_command, latch_lifetime_ms()});
  }
  // Read holds keep a timeout key per hold, which a count set at once would leave behind.
  bool reconcilable() const override { return false; }
};

class WriteSideKind final : public RwSideKind {
 public:
  WriteSideKind(std::shared_ptr<ClientCore> core, std::string name)
      : RwSideKind(std::move(core), std::move(name), "write") {}

  std::string owner_field(OwnerId owner) const override { return reader_field(owner) + ":write"; }

 protected:
  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> reset) const override {
    // Only an unbounded wait refuses an upgrade: a bounded one times out like anyone else's.
    const bool refuse_upgrade = !request.wait.has_value();
    auto call = lua::rwlock_write_acquire(
        {name, writers_key}, {static_cast<std::int64_t>(request.lease.count()), request.field,
                              refuse_upgrade ? reader_field(request.owner) : std::string(),
                              static_cast<std::int64_t>(entry_life(request).count())});
    if (reset) call.command.arg(*reset);
    return call;
  }
  AcquireLoop::Options loop_options(const AcquireRequest& request) const override {
    auto options = LockKind::loop_options(request);
    options.policy = WriteSidePolicy{.renew_every = kWriterEntryLife / 2};
    return options;
  }
  // A writer that stops waiting leaves the writer order at once (best effort, not waited for: an
  // entry left behind lapses within kWriterEntryLife).
  GiveUp give_up(const AcquireRequest& request) const override {
    if (entry_life(request).count() == 0) return nullptr;
    return [self = shared_from_this(), field = request.field](UniqueFunction<void()> finished) {
      const auto& kind = static_cast<const WriteSideKind&>(*self);
      kind.core->submit(Command{"ZREM", kind.writers_key, field},
                        [](std::error_code, const Reply&) {});
      finished();
    };
  }
  AttemptReply read_attempt(const Reply& reply) const override {
    if (reply.is_null()) return AttemptReply{{}, true};
    if (reply.integer == kUpgradeRefused) {
      return AttemptReply{Status(make_error_code(errc::already_held),
                                 "the owner holds a read lock of it and would wait for itself "
                                 "forever: no read->write upgrade, release the read holds first")};
    }
    return AttemptReply{{}, false, std::chrono::milliseconds(reply.integer)};
  }
  ScriptCall unlock_call(const UnlockRequest& request, bool /*first*/) const override {
    return lua::rwlock_write_unlock({name, channel, tagged_name, request.latch},
                                    {"1", static_cast<std::int64_t>(request.lease.count()),
                                     request.field, publish_command, latch_lifetime_ms()});
  }
};

}  // namespace
}  // namespace detail

ReadWriteLock::ReadWriteLock(const Client& client, std::string name)
    : read_(std::make_shared<detail::ReadSideKind>(detail::ClientAccess::core(client), name)),
      write_(std::make_shared<detail::WriteSideKind>(detail::ClientAccess::core(client),
                                                     std::move(name))) {}

bool ReadWriteLock::is_locked() const {
  const auto& kind = write_.kind();
  return detail::async_op<bool>(
      kind->core, detail::blocking("is_locked", kind->name), [kind](detail::Done<bool> done) {
        kind->core->submit(
            Command{"HEXISTS", kind->name, "mode"},
            [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
              done(detail::status_of(ec, reply), !ec && reply.integer == 1);
            });
      });
}

bool ReadWriteLock::force_unlock() {
  auto kind = std::static_pointer_cast<detail::RwSideKind>(write_.kind());
  return detail::async_op<bool>(
      kind->core, detail::blocking("force_unlock", kind->name),
      [kind](detail::Done<bool> done) { kind->force_release_mode("any", std::move(done)); });
}

}  // namespace redisson

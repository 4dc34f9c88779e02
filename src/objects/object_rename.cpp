// Object::rename, renamenx and copy: the object's keys to the same keys of another name.
// rename: every key, one after the other. Within a hash slot (always on a single server) RENAME;
// on a Cluster, to a name in another slot, DUMP + PTTL + RESTORE + DEL, as Redisson does, since
// RENAME cannot cross slots. Keys listed in Redis (a multimap's) are moved by the object's own
// script. renamenx: one RENAMENX or one script, within a slot. copy: one COPY or one script
// within a slot; across slots DUMP + PTTL + RESTORE per key, as Redisson does.
#include <memory>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "objects/send.hpp"
#include "redisson/objects/object.hpp"
#include "topology/key_slot.hpp"

namespace redisson {
namespace {

/// Moves (rename) or copies an object's keys one pair after the other. rename: RENAME within a
/// hash slot; across slots on a Cluster DUMP + PTTL + RESTORE REPLACE + DEL, as Redisson; a
/// missing name key is "no such key", a missing extra key (a Bloom filter never initialised) has
/// nothing to move. copy (always across slots: within one, COPY or a script is sent instead):
/// DUMP + PTTL + RESTORE [REPLACE]; a key that is absent, or present at the destination without
/// replace (BUSYKEY), is not copied. Completes with an integer reply: 1 if a key was copied.
class KeyMover : public std::enable_shared_from_this<KeyMover> {
 public:
  enum class Mode { rename, copy, copy_replace };

  KeyMover(detail::ObjectPtr object, std::vector<std::string> from, std::vector<std::string> to,
           Mode mode, detail::Done<Reply> done)
      : object_(std::move(object)),
        from_(std::move(from)),
        to_(std::move(to)),
        mode_(mode),
        done_(std::move(done)) {}

  void next() {
    if (index_ == from_.size()) return done_(detail::Status{}, detail::integer_reply(copied_));
    const auto& from = from_[index_];
    const auto& to = to_[index_];
    if (mode_ == Mode::rename &&
        (!object_->core->is_cluster() || detail::key_slot(from) == detail::key_slot(to))) {
      return send(Command{"RENAME", from, to},
                  [self = shared_from_this()](const Reply&) { self->advance(); });
    }
    send(Command{"DUMP", from}, [self = shared_from_this()](const Reply& dump) {
      if (dump.is_null()) return self->missing();
      self->send(Command{"PTTL", self->from_[self->index_]},
                 [self, payload = dump.str](const Reply& ttl) { self->restore(ttl, payload); });
    });
  }

 private:
  void restore(const Reply& ttl, const std::string& payload) {
    const std::int64_t ms = ttl.is_integer() && ttl.integer > 0 ? ttl.integer : 0;
    Command command{"RESTORE", to_[index_]};
    command.arg(ms).arg(payload);
    if (mode_ != Mode::copy) command.arg("REPLACE");
    send(command, [self = shared_from_this()](const Reply&) {
      if (self->mode_ != Mode::rename) {
        self->copied_ = 1;
        return self->advance();
      }
      self->send(Command{"DEL", self->from_[self->index_]},
                 [self](const Reply&) { self->advance(); });
    });
  }
  template <class OnReply>
  void send(const Command& command, OnReply on_reply) {
    object_->core->submit(command, [self = shared_from_this(), on_reply = std::move(on_reply)](
                                       std::error_code ec, const Reply& reply) mutable {
      if (ec && self->skippable(reply)) return self->advance();
      if (ec) return self->done_(detail::status_of(ec, reply), Reply{});
      on_reply(reply);
    });
  }
  /// A failure that leaves this pair alone and goes on with the next.
  bool skippable(const Reply& reply) const {
    if (!reply.is_error()) return false;
    if (mode_ == Mode::copy) return reply.str.starts_with("BUSYKEY");  // kept, not copied
    // An extra key that does not exist (a Bloom filter never initialised) has nothing to move.
    return mode_ == Mode::rename && index_ > 0 &&
           reply.str.find("no such key") != std::string::npos;
  }
  void missing() {
    if (mode_ != Mode::rename || index_ > 0) return advance();
    done_(detail::Status(make_error_code(errc::server_error), "server: ERR no such key"), Reply{});
  }
  void advance() {
    ++index_;
    next();
  }

  detail::ObjectPtr object_;
  std::vector<std::string> from_;
  std::vector<std::string> to_;
  Mode mode_;
  detail::Done<Reply> done_;
  std::size_t index_ = 0;
  std::int64_t copied_ = 0;
};

/// The object's state under `new_name`: its keys there, its attached state remade for it.
std::shared_ptr<detail::ObjectState> renamed_state(const detail::ObjectPtr& object,
                                                   std::string new_name, const char* operation) {
  if (object->batch) {
    const auto refusal = detail::batch_refusal(std::string(operation) + " (a blocking call)");
    throw error(refusal.code, refusal.detail);
  }
  if (new_name.empty()) {
    throw error(errc::invalid_argument,
                std::string(operation) + ": the new name must not be empty");
  }
  auto renamed = std::make_shared<detail::ObjectState>(*object);
  renamed->name = std::move(new_name);
  if (renamed->hooks != nullptr && renamed->hooks->make_attached != nullptr) {
    renamed->attached = renamed->hooks->make_attached(*renamed, object->attached);
  }
  return renamed;
}

bool other_slot(const detail::ObjectState& object, const std::string& from, const std::string& to) {
  return object.core->is_cluster() && detail::key_slot(from) != detail::key_slot(to);
}

void refuse_listed(const detail::ObjectState& object, const char* operation) {
  if (object.listed() != nullptr) {
    detail::throw_invalid_argument(std::string(operation) +
                                   ": a multimap's values keys are listed in Redis, not known "
                                   "from its name; use rename()");
  }
}

}  // namespace

void Object::start_copy(const detail::ObjectPtr& object, const std::string& destination,
                        bool replace, detail::Done<Reply>& done) {
  const char* operation = replace ? "copy_and_replace" : "copy";
  if (destination.empty()) {
    detail::throw_invalid_argument(std::string(operation) + ": the destination must not be empty");
  }
  refuse_listed(*object, operation);
  detail::ObjectState target = *object;
  target.name = destination;
  auto from = object->keys();
  auto to = target.keys();
  if (other_slot(*object, from.front(), to.front())) {
    if (object->batch) {
      const auto refusal = detail::batch_refusal(std::string(operation) + " to another hash slot");
      throw error(refusal.code, refusal.detail);
    }
    const auto mode = replace ? KeyMover::Mode::copy_replace : KeyMover::Mode::copy;
    return std::make_shared<KeyMover>(object, std::move(from), std::move(to), mode, std::move(done))
        ->next();
  }
  if (from.size() == 1) {
    Command command{"COPY", from.front(), to.front()};
    if (replace) command.arg("REPLACE");
    return detail::submit_command(object, command, std::move(done));
  }
  from.insert(from.end(), to.begin(), to.end());
  detail::eval_reply(*object, detail::lua::object_copy(from, {replace ? "1" : "0"}),
                     std::move(done));
}

bool Object::renamenx(std::string new_name) {
  auto renamed = renamed_state(object_, std::move(new_name), "renamenx");
  refuse_listed(*object_, "renamenx");
  auto from = object_->keys();
  auto to = renamed->keys();
  if (other_slot(*object_, from.front(), to.front())) {
    detail::throw_invalid_argument(
        "renamenx: on a Cluster the new name must be in the same hash "
        "slot (" +
        object_->name + " -> " + renamed->name + ")");
  }
  from.insert(from.end(), to.begin(), to.end());
  const bool renamed_now = started<bool>(
      detail::blocking("renamenx", name()), &detail::reply_flag,
      [](const detail::ObjectPtr& object, const std::vector<std::string>& keys,
         detail::Done<Reply>& done) {
        if (keys.size() == 2) {
          return detail::submit_command(object, Command{"RENAMENX", keys[0], keys[1]},
                                        std::move(done));
        }
        detail::eval_reply(*object, detail::lua::object_renamenx(keys, {}), std::move(done));
      },
      std::move(from));
  if (!renamed_now) return false;
  object_ = std::move(renamed);
  if (make_background_ != nullptr) background_ = make_background_(object_);
  return true;
}

void Object::rename(std::string new_name) {
  auto renamed = renamed_state(object_, std::move(new_name), "rename");
  if (const auto* listed = object_->listed()) {
    // Keys listed in Redis (a multimap's values keys): the object's own script moves them all.
    started<void>(detail::blocking("rename", name()), &detail::reply_ignore, listed->rename_listed,
                  renamed->name);
  } else {
    started<void>(
        detail::blocking("rename", name()), &detail::reply_ignore,
        [](const detail::ObjectPtr& object, const std::vector<std::string>& to,
           detail::Done<Reply>& done) {
          std::make_shared<KeyMover>(object, object->keys(), to, KeyMover::Mode::rename,
                                     std::move(done))
              ->next();
        },
        renamed->keys());
  }
  object_ = std::move(renamed);
  // The old name's sweeper goes with this handle's share of it; the new name gets this client's.
  if (make_background_ != nullptr) background_ = make_background_(object_);
}

}  // namespace redisson

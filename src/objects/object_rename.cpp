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

class Renamer : public std::enable_shared_from_this<Renamer> {
 public:
  Renamer(detail::ObjectPtr object, std::vector<std::string> from, std::vector<std::string> to,
          detail::Done<void> done)
      : object_(std::move(object)),
        from_(std::move(from)),
        to_(std::move(to)),
        done_(std::move(done)) {}

  void next() {
    if (index_ == from_.size()) return done_(detail::Status{});
    const auto& from = from_[index_];
    const auto& to = to_[index_];
    if (!object_->core->is_cluster() || detail::key_slot(from) == detail::key_slot(to)) {
      return send(Command{"RENAME", from, to},
                  [self = shared_from_this()](const Reply&) { self->advance(); });
    }
    send(Command{"DUMP", from}, [self = shared_from_this()](const Reply& dump) {
      if (dump.is_null()) return self->missing();
      self->send(Command{"PTTL", self->from_[self->index_]}, [self, payload = dump.str](
                                                                 const Reply& ttl) {
        const std::int64_t ms = ttl.is_integer() && ttl.integer > 0 ? ttl.integer : 0;
        self->send(Command{"RESTORE", self->to_[self->index_]}.arg(ms).arg(payload).arg("REPLACE"),
                   [self](const Reply&) {
                     self->send(Command{"DEL", self->from_[self->index_]},
                                [self](const Reply&) { self->advance(); });
                   });
      });
    });
  }

 private:
  template <class OnReply>
  void send(const Command& command, OnReply on_reply) {
    object_->core->submit(command, [self = shared_from_this(), on_reply = std::move(on_reply)](
                                       std::error_code ec, Reply reply) mutable {
      // An extra key that does not exist (a Bloom filter never initialised) has nothing to move.
      if (ec && self->index_ > 0 && reply.is_error() &&
          reply.str.find("no such key") != std::string::npos) {
        return self->advance();
      }
      if (ec) return self->done_(detail::status_of(ec, reply));
      on_reply(reply);
    });
  }
  void missing() {
    if (index_ > 0) return advance();
    done_(detail::Status(make_error_code(errc::server_error), "server: ERR no such key"));
  }
  void advance() {
    ++index_;
    next();
  }

  detail::ObjectPtr object_;
  std::vector<std::string> from_;
  std::vector<std::string> to_;
  detail::Done<void> done_;
  std::size_t index_ = 0;
};

// Copies keys to keys in other hash slots of a Cluster: DUMP, PTTL, RESTORE per key. A key that
// is absent, or present at the destination without `replace` (BUSYKEY), is not copied; the reply
// is 1 if any key was.
class SlotCopier : public std::enable_shared_from_this<SlotCopier> {
 public:
  SlotCopier(detail::ObjectPtr object, std::vector<std::string> from, std::vector<std::string> to,
             bool replace, detail::Done<Reply> done)
      : object_(std::move(object)),
        from_(std::move(from)),
        to_(std::move(to)),
        replace_(replace),
        done_(std::move(done)) {}

  void next() {
    if (index_ == from_.size()) return done_(detail::Status{}, detail::integer_reply(copied_));
    send(Command{"DUMP", from_[index_]}, [self = shared_from_this()](const Reply& dump) {
      if (dump.is_null()) return self->advance();
      self->send(Command{"PTTL", self->from_[self->index_]},
                 [self, payload = dump.str](const Reply& ttl) { self->restore(ttl, payload); });
    });
  }

 private:
  void restore(const Reply& ttl, const std::string& payload) {
    const std::int64_t ms = ttl.is_integer() && ttl.integer > 0 ? ttl.integer : 0;
    Command command{"RESTORE", to_[index_]};
    command.arg(ms).arg(payload);
    if (replace_) command.arg("REPLACE");
    object_->core->submit(command,
                          [self = shared_from_this()](std::error_code ec, const Reply& reply) {
                            if (ec && reply.is_error() && reply.str.starts_with("BUSYKEY"))
                              return self->advance();
                            if (ec) return self->done_(detail::status_of(ec, reply), Reply{});
                            self->copied_ = 1;
                            self->advance();
                          });
  }
  template <class OnReply>
  void send(const Command& command, OnReply on_reply) {
    object_->core->submit(command, [self = shared_from_this(), on_reply = std::move(on_reply)](
                                       std::error_code ec, Reply reply) mutable {
      if (ec) return self->done_(detail::status_of(ec, reply), Reply{});
      on_reply(reply);
    });
  }
  void advance() {
    ++index_;
    next();
  }

  detail::ObjectPtr object_;
  std::vector<std::string> from_;
  std::vector<std::string> to_;
  bool replace_;
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
    return std::make_shared<SlotCopier>(object, std::move(from), std::move(to), replace,
                                        std::move(done))
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
    detail::async_op<void>(object_->core, detail::blocking("rename", name()),
                           [object = object_, renamed](detail::Done<void> done) {
                             std::make_shared<Renamer>(object, object->keys(), renamed->keys(),
                                                       std::move(done))
                                 ->next();
                           });
  }
  object_ = std::move(renamed);
  // The old name's sweeper goes with this handle's share of it; the new name gets this client's.
  if (make_background_ != nullptr) background_ = make_background_(object_);
}

}  // namespace redisson

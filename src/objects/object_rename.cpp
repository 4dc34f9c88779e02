// Object::rename: every key of the object, one after the other. Within a hash slot (always on a
// single server) RENAME; on a Cluster, to a name in another slot, DUMP + PTTL + RESTORE + DEL, as
// Redisson does, since RENAME cannot cross slots. Keys listed in Redis (a multimap's) are moved
// by the object's own script.
#include <memory>

#include "client/client_core.hpp"
#include "net/reply_error.hpp"
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

}  // namespace

void Object::rename(std::string new_name) {
  if (object_->batch) {
    const auto refusal = detail::batch_refusal("rename (a blocking call)");
    throw error(refusal.code, refusal.detail);
  }
  if (new_name.empty())
    throw error(errc::invalid_argument, "rename: the new name must not be empty");
  auto renamed = std::make_shared<detail::ObjectState>(*object_);
  renamed->name = std::move(new_name);
  if (renamed->hooks != nullptr && renamed->hooks->make_attached != nullptr) {
    renamed->attached = renamed->hooks->make_attached(*renamed, object_->attached);
  }
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

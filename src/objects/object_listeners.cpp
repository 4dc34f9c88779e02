// Object listeners (redisson/listener.hpp): Redisson's ObjectListener kinds, heard the way
// Redisson hears them, on the server's keyevent channels (`__keyevent@<db>__:del`, ...) whose
// messages are key names, kept when the key is the object's.
//
// Three steps: the event is one the object's type hears (the table below, Redisson's per-type
// addListener), the server announces it (notify-keyspace-events, per
// Config::keyspace_notifications), then the channel is subscribed in the client's registry of
// topic listeners, so the listener runs on the listener threads as a topic's does and
// remove_listener is the topics' own.
#include <algorithm>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "pubsub/keyspace_flags.hpp"
#include "pubsub/topic_listeners.hpp"
#include "redisson/detail/object_listen.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

namespace {

/// Where an event of a type is announced: the keyevent name and its notify-keyspace-events
/// class letter; `values_keys`: on a multimap's values keys rather than its own key.
struct KeyEventRoute {
  const char* event = nullptr;
  char letter = 0;
  bool values_keys = false;
};

struct KindEvent {
  const char* kind;
  ObjectEvent event;
  KeyEventRoute route;
};

constexpr const char* kListKinds[] = {"List",          "Queue",         "Deque",
                                      "BlockingQueue", "BlockingDeque", "RingBuffer"};

// The events beyond deleted / expired, per type: Redisson's addListener of each class (its
// `__keyevent@*:<event>` names), plus set on the atomics, whose SET Redisson does not offer.
// AtomicDouble's increments are INCRBYFLOAT, announced as incrbyfloat (Redisson listens to
// incrby there, which its own INCRBYFLOAT never sends).
constexpr KindEvent kKindEvents[] = {
    {"Bucket", ObjectEvent::set, {"set", '$'}},
    {"BinaryStream", ObjectEvent::set, {"set", '$'}},
    {"AtomicLong", ObjectEvent::set, {"set", '$'}},
    {"AtomicLong", ObjectEvent::incremented, {"incrby", '$'}},
    {"AtomicDouble", ObjectEvent::set, {"set", '$'}},
    {"AtomicDouble", ObjectEvent::incremented, {"incrbyfloat", '$'}},
    {"Keys", ObjectEvent::created, {"new", 'n'}},
    {"Keys", ObjectEvent::set, {"set", '$'}},
    {"Set", ObjectEvent::added, {"sadd", 's'}},
    {"Set", ObjectEvent::removed, {"srem", 's'}},
    {"Set", ObjectEvent::removed_random, {"spop", 's'}},
    {"Set", ObjectEvent::union_stored, {"sunionstore", 's'}},
    {"Set", ObjectEvent::intersection_stored, {"sinterstore", 's'}},
    {"Set", ObjectEvent::diff_stored, {"sdiffstore", 's'}},
    {"ScoredSortedSet", ObjectEvent::added, {"zadd", 'z'}},
    {"ScoredSortedSet", ObjectEvent::removed, {"zrem", 'z'}},
    {"ScoredSortedSet", ObjectEvent::incremented, {"zincr", 'z'}},
    {"ScoredSortedSet", ObjectEvent::union_stored, {"zunionstore", 'z'}},
    {"ScoredSortedSet", ObjectEvent::intersection_stored, {"zinterstore", 'z'}},
    {"ScoredSortedSet", ObjectEvent::diff_stored, {"zdiffstore", 'z'}},
    {"LexSortedSet", ObjectEvent::added, {"zadd", 'z'}},
    {"LexSortedSet", ObjectEvent::removed, {"zrem", 'z'}},
    {"LexSortedSet", ObjectEvent::union_stored, {"zunionstore", 'z'}},
    {"LexSortedSet", ObjectEvent::intersection_stored, {"zinterstore", 'z'}},
    {"LexSortedSet", ObjectEvent::diff_stored, {"zdiffstore", 'z'}},
    {"SetCache", ObjectEvent::added, {"zadd", 'z'}},
    {"SetCache", ObjectEvent::removed, {"zrem", 'z'}},
    {"TimeSeries", ObjectEvent::added, {"zadd", 'z'}},
    {"TimeSeries", ObjectEvent::removed, {"zrem", 'z'}},
    {"Map", ObjectEvent::put, {"hset", 'h'}},
    {"Map", ObjectEvent::removed, {"hdel", 'h'}},
    {"Map", ObjectEvent::incremented, {"hincrbyfloat", 'h'}},
    {"MapCache", ObjectEvent::put, {"hset", 'h'}},
    {"MapCache", ObjectEvent::removed, {"hdel", 'h'}},
    {"Stream", ObjectEvent::added, {"xadd", 't'}},
    {"Stream", ObjectEvent::removed, {"xdel", 't'}},
    {"Stream", ObjectEvent::trimmed, {"xtrim", 't'}},
    {"Stream", ObjectEvent::group_created, {"xgroup-create", 't'}},
    {"Stream", ObjectEvent::group_removed, {"xgroup-destroy", 't'}},
    {"Stream", ObjectEvent::consumer_created, {"xgroup-createconsumer", 't'}},
    {"Stream", ObjectEvent::consumer_removed, {"xgroup-delconsumer", 't'}},
    // Redisson's multimaps match these against their own name, which never gets them: here
    // they are heard on the values keys, where SADD/SREM and RPUSH/LREM happen.
    {"SetMultimap", ObjectEvent::added, {"sadd", 's', true}},
    {"SetMultimap", ObjectEvent::removed, {"srem", 's', true}},
    {"ListMultimap", ObjectEvent::added, {"rpush", 'l', true}},
    {"ListMultimap", ObjectEvent::removed, {"lrem", 'l', true}},
};

// The list family's events (BaseRedissonList, RedissonDeque).
constexpr std::pair<ObjectEvent, KeyEventRoute> kListEvents[] = {
    {ObjectEvent::added, {"rpush", 'l'}},   {ObjectEvent::inserted, {"linsert", 'l'}},
    {ObjectEvent::set, {"lset", 'l'}},      {ObjectEvent::removed, {"lrem", 'l'}},
    {ObjectEvent::trimmed, {"ltrim", 'l'}},
};

const char* event_name(ObjectEvent event) {
  switch (event) {
    case ObjectEvent::deleted:
      return "deleted";
    case ObjectEvent::expired:
      return "expired";
    case ObjectEvent::created:
      return "created";
    case ObjectEvent::set:
      return "set";
    case ObjectEvent::incremented:
      return "incremented";
    case ObjectEvent::put:
      return "put";
    case ObjectEvent::added:
      return "added";
    case ObjectEvent::added_first:
      return "added_first";
    case ObjectEvent::inserted:
      return "inserted";
    case ObjectEvent::removed:
      return "removed";
    case ObjectEvent::removed_random:
      return "removed_random";
    case ObjectEvent::trimmed:
      return "trimmed";
    case ObjectEvent::union_stored:
      return "union_stored";
    case ObjectEvent::intersection_stored:
      return "intersection_stored";
    case ObjectEvent::diff_stored:
      return "diff_stored";
    case ObjectEvent::group_created:
      return "group_created";
    case ObjectEvent::group_removed:
      return "group_removed";
    case ObjectEvent::consumer_created:
      return "consumer_created";
    case ObjectEvent::consumer_removed:
      return "consumer_removed";
  }
  return "?";
}

bool is_list_kind(std::string_view kind) {
  for (const char* list : kListKinds) {
    if (kind == list) return true;
  }
  return false;
}

/// Where `event` of the type `kind` is announced; null event when the type does not hear it.
KeyEventRoute route_of(std::string_view kind, ObjectEvent event) {
  if (event == ObjectEvent::deleted) return {"del", 'g'};
  if (event == ObjectEvent::expired) return {"expired", 'x'};
  if (is_list_kind(kind)) {
    const bool deque = kind == "Deque" || kind == "BlockingDeque";
    if (event == ObjectEvent::added_first && deque) return {"lpush", 'l'};
    for (const auto& [listed, route] : kListEvents) {
      if (listed == event) return route;
    }
    return {};
  }
  // A Geo is a sorted set (RedissonGeo extends RedissonScoredSortedSet): the same events.
  if (kind == "Geo") kind = "ScoredSortedSet";
  for (const auto& entry : kKindEvents) {
    if (kind == entry.kind && entry.event == event) return entry.route;
  }
  return {};
}

/// "deleted, expired, ..." : what `kind` hears, for the refusal's text.
std::string events_heard(std::string_view kind) {
  std::string names;
  for (int e = 0; e <= static_cast<int>(ObjectEvent::consumer_removed); ++e) {
    const auto event = static_cast<ObjectEvent>(e);
    if (route_of(kind, event).event == nullptr) continue;
    if (!names.empty()) names += ", ";
    names += event_name(event);
  }
  return names;
}

/// The key of the lease under which our clients merge notify-keyspace-events (below); a Keys
/// listener does not hear it.
constexpr std::string_view kMergeLockKey = "redisson__notify_keyspace_events_merge";

/// Makes sure every master announces the letters `needed` (Config::keyspace_notifications),
/// then runs `then`; fails `done` otherwise. `enable` sets what is missing and reads it back.
///
/// CONFIG has no compare-and-set, so two clients merging at once could each write its own
/// letters over the other's. Our clients therefore take a short lease first (SET NX PX on
/// kMergeLockKey, freed by a compare-and-delete) and merge one at a time, when there is something
/// to turn on (a first read finds nothing missing, usually, and takes no lease); the read-back
/// still catches a writer that takes no lease (Java Redisson, redis-cli) and merges again, a few
/// rounds at most. A lease held by someone else is retried after a growing pause; when it cannot
/// be had (a holder that died: its lease lapses; a user who may not write keys) the merge goes
/// ahead without it.
class KeyspaceFlagsCheck : public std::enable_shared_from_this<KeyspaceFlagsCheck> {
 public:
  using Then = UniqueFunction<void(Status)>;

  KeyspaceFlagsCheck(std::shared_ptr<ClientCore> core, std::string needed, Then then)
      : core_(std::move(core)),
        needed_(std::move(needed)),
        then_(std::move(then)),
        token_(core_->id() + ":" + std::to_string(next_token_++)),
        timer_(core_->io()) {}

  void start() { read(); }

 private:
  static constexpr int kRounds = 3;
  static constexpr std::chrono::milliseconds kLease{2000};
  static constexpr std::chrono::milliseconds kLeaseWait{3000};
  static constexpr std::chrono::milliseconds kFirstPause{5};
  static constexpr std::chrono::milliseconds kLongestPause{100};
  static inline std::atomic<std::uint64_t> next_token_{0};

  void take_lease() {
    submit_all(
        core_, {Command{"SET", kMergeLockKey, token_, "NX", "PX", std::to_string(kLease.count())}},
        [self = shared_from_this()](const Status& status, const std::vector<Reply>& replies) {
          if (status) return self->read();  // no lease to be had: merge without it
          if (!replies.empty() && !replies.front().is_null()) {
            self->leased_ = true;
            return self->read();
          }
          self->wait_for_lease();
        });
  }

  void wait_for_lease() {
    if (std::chrono::steady_clock::now() + pause_ >= give_up_at_) return read();
    timer_.expires_after(pause_);
    pause_ = std::min(pause_ * 2, kLongestPause);
    timer_.async_wait([self = shared_from_this()](std::error_code ec) {
      if (ec || self->core_->stopping()) return self->finish(Status(errc::shutdown));
      self->take_lease();
    });
  }

  void read() {
    std::vector<NodeCommand> commands;
    masters_ = core_->router().masters();
    for (const auto& master : masters_) {
      commands.push_back({master, Command{"CONFIG", "GET", "notify-keyspace-events"}});
    }
    submit_all_to(
        core_, std::move(commands),
        [self = shared_from_this()](const Status& status, const std::vector<Reply>& replies) {
          self->on_read(status, replies);
        });
  }

  void on_read(const Status& status, const std::vector<Reply>& replies) {
    if (status) {
      return finish(
          Status(status.code, "object listener: CONFIG GET notify-keyspace-events failed (" +
                                  status.detail +
                                  "); with notifications set up by hand, use "
                                  "Config::keyspace_notifications = assume"));
    }
    std::vector<NodeCommand> sets;
    for (std::size_t i = 0; i < replies.size() && i < masters_.size(); ++i) {
      // [name, value] in RESP2; a map of one pair in RESP3: the value is the last element.
      const Reply& reply = replies[i];
      if (!reply.is_aggregate() || reply.elements.size() < 2) {
        return finish(Status(errc::protocol_error,
                             "object listener: CONFIG GET notify-keyspace-events: no value"));
      }
      const std::string& current = reply.elements.back().str;
      const std::string missing = missing_keyspace_flags(current, needed_);
      if (missing.empty()) continue;
      if (core_->config().keyspace_notifications == Config::KeyspaceNotifications::check ||
          round_ == kRounds) {
        std::string why = "object listener: the server at " + masters_[i].host;
        why += ":" + std::to_string(masters_[i].port);
        why += " has notify-keyspace-events '" + current + "'";
        why += ", without '" + missing + "' (the listener needs '" + needed_ + "')";
        return finish(Status(errc::not_supported, std::move(why)));
      }
      sets.push_back({masters_[i], Command{"CONFIG", "SET", "notify-keyspace-events",
                                           merged_keyspace_flags(current, needed_)}});
    }
    if (sets.empty()) return finish(Status{});
    if (!lease_tried_) {
      // Letters to turn on: under the lease, from a fresh read.
      lease_tried_ = true;
      give_up_at_ = std::chrono::steady_clock::now() + kLeaseWait;
      return take_lease();
    }
    ++round_;
    submit_all_to(
        core_, std::move(sets),
        [self = shared_from_this()](const Status& status, const std::vector<Reply>&) {
          if (status) {
            return self->finish(Status(status.code,
                                       "object listener: CONFIG SET notify-keyspace-events "
                                       "failed (" +
                                           status.detail +
                                           "); set it by hand and use "
                                           "Config::keyspace_notifications = assume"));
          }
          self->read();  // read back: another client may have set its own letters
        });
  }

  void finish(Status status) {
    if (!leased_) return complete(std::move(status));
    leased_ = false;
    // Frees the lease only while it is still ours (it may have lapsed and been taken since).
    eval_reply(core_, lua::bucket_compare_and_set({kMergeLockKey}, {"1", token_, "0", ""}),
               [self = shared_from_this(), status = std::move(status)](
                   const Status&, const Reply&) mutable { self->complete(std::move(status)); });
  }

  void complete(Status status) {
    if (then_) std::exchange(then_, nullptr)(std::move(status));
  }

  std::shared_ptr<ClientCore> core_;
  std::string needed_;
  Then then_;
  std::string token_;
  asio::steady_timer timer_;
  std::chrono::steady_clock::time_point give_up_at_;
  std::chrono::milliseconds pause_ = kFirstPause;
  bool lease_tried_ = false;
  bool leased_ = false;
  std::vector<ServerAddress> masters_;
  int round_ = 0;
};

}  // namespace

void start_object_listen(const std::shared_ptr<ClientCore>& core, const char* kind,
                         const std::string& name, ObjectEvent event, KeyListener listener,
                         Done<ListenerId> done) {
  const KeyEventRoute route = route_of(kind, event);
  if (route.event == nullptr) {
    return fail<ListenerId>(
        done, Status(errc::invalid_argument, std::string(kind) + " " + name + " has no " +
                                                 event_name(event) + " event (it hears " +
                                                 events_heard(kind) + ")"));
  }
  if (!listener) {
    return fail<ListenerId>(done, Status(errc::invalid_argument, "add_listener: no listener"));
  }
  if (core->stopping()) return fail<ListenerId>(done, Status(errc::shutdown));

  // Keeps a keyevent message when it names the object's key (any key for Keys; for a multimap,
  // one of its values keys), on the I/O thread: the channel carries every key of the server.
  TopicCallbacks callbacks;
  const bool any_key = std::string_view(kind) == "Keys";
  std::string subject = route.values_keys ? suffix_name(name, "") : name;
  callbacks.accept = [any_key, prefix = route.values_keys, subject](std::string_view key) {
    if (any_key) return key != kMergeLockKey;
    return prefix ? key.size() > subject.size() && key.substr(0, subject.size()) == subject
                  : key == subject;
  };
  callbacks.on_message = [listener = std::move(listener)](std::string_view, std::string_view key) {
    listener(key);
  };
  const int database = core->is_cluster() ? 0 : core->config().server.database;
  std::string channel = "__keyevent@" + std::to_string(database) + "__:" + std::string(route.event);

  auto subscribe = [core, channel = std::move(channel), callbacks = std::move(callbacks),
                    done = std::move(done)](Status status) mutable {
    if (status) return fail<ListenerId>(done, std::move(status));
    start_registry_listen(core, ChannelKind::plain, std::move(channel), std::move(callbacks),
                          std::move(done));
  };
  if (core->config().keyspace_notifications == Config::KeyspaceNotifications::assume) {
    return subscribe(Status{});
  }
  const std::string needed{'E', route.letter};
  std::make_shared<KeyspaceFlagsCheck>(core, needed, std::move(subscribe))->start();
}

}  // namespace redisson::detail

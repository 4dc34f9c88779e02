#include "redisson/objects/map.hpp"

#include <algorithm>
#include <mutex>

#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"
#include "redisson/basic_lock.hpp"
#include "sync/hash_lock_kind.hpp"

namespace redisson::detail {

namespace {

// Entries per HSET of put_all: large enough that a big map is few commands, small enough that
// one command does not hold the server for long.
constexpr std::size_t kPutAllChunk = 1000;

/// The script of the operations that are one (src/objects/lua/map_*.lua); null for the others.
const ScriptDef* script_of(MapOp op) {
  switch (op) {
    case MapOp::put:
      return &lua::map_put;
    case MapOp::put_if_absent:
      return &lua::map_put_if_absent;
    case MapOp::put_if_exists:
      return &lua::map_put_if_exists;
    case MapOp::fast_put_if_exists:
      return &lua::map_fast_put_if_exists;
    case MapOp::replace_if_equal:
      return &lua::map_replace_if_equal;
    case MapOp::remove:
      return &lua::map_remove;
    case MapOp::contains_value:
      return &lua::map_contains_value;
    default:
      return nullptr;
  }
}

/// put_all: HSET of field/value bytes (flat), in commands of at most 1,000 entries, pipelined.
/// Completes with an integer reply: the number of new fields.
void start_put_all(const ObjectPtr& object, const std::vector<std::string>& fields_and_values,
                   Done<Reply>& done) {
  std::vector<Command> commands;
  for (std::size_t at = 0; at < fields_and_values.size(); at += 2 * kPutAllChunk) {
    const std::size_t end = std::min(fields_and_values.size(), at + 2 * kPutAllChunk);
    Command hset{"HSET", object->name};
    for (std::size_t i = at; i < end; ++i) hset.arg(fields_and_values[i]);
    commands.push_back(std::move(hset));
  }
  submit_all(*object, std::move(commands),
             [done = std::move(done)](Status status, const std::vector<Reply>& replies) mutable {
               std::int64_t added = 0;
               for (const auto& reply : replies) added += reply.integer;
               done(std::move(status), integer_reply(added));
             });
}

/// `verb name args...`.
void send(const ObjectPtr& object, const char* verb, const std::vector<std::string>& args,
          Done<Reply>& done) {
  Command command{verb, object->name};
  for (const auto& arg : args) command.arg(arg);
  submit_command(object, command, std::move(done));
}

void start_plain_map(const ObjectPtr& object, MapOp op, const std::vector<std::string>& args,
                     Done<Reply>& done) {
  if (const ScriptDef* script = script_of(op)) {
    return eval_reply(*object, (*script)(std::vector<std::string>{object->name}, args),
                      std::move(done));
  }
  if (const char* verb = plain_map_verb(op)) return send(object, verb, args, done);
  switch (op) {
    case MapOp::size:
      return send(object, "HLEN", args, done);
    case MapOp::read_all_keys:
      return send(object, "HKEYS", args, done);
    case MapOp::read_all_values:
      return send(object, "HVALS", args, done);
    case MapOp::read_all_entries:
      return send(object, "HGETALL", args, done);
    case MapOp::random_keys:
      return send(object, "HRANDFIELD", args, done);
    case MapOp::random_entries:
      return send(object, "HRANDFIELD", {args.at(0), "WITHVALUES"}, done);
    case MapOp::fast_remove:
      return start_with_arguments(object, "HDEL", args, done);
    case MapOp::get_all:
      return start_with_arguments(object, "HMGET", args, done);
    case MapOp::put_all:
      return start_put_all(object, args, done);
    default:
      throw_invalid_argument("Map: no such operation");
  }
}

/// Java's map.getLock(key): a re-entrant Lock on `name`, made from the object's client state (a
/// Map holds no Client to hand to Lock's constructor).
class MapEntryLock : public BasicLock {
 public:
  MapEntryLock(const std::shared_ptr<ClientCore>& core, std::string name)
      : BasicLock(std::make_shared<HashLockKind>(core, std::move(name), /*reentrant=*/true,
                                                 /*waiters_take_turns=*/true)) {}
};

}  // namespace

void run_under_entry_lock(const ObjectPtr& object, std::string lock_name,
                          const std::function<void()>& body) {
  MapEntryLock lock(object->core, std::move(lock_name));
  // The calling thread owns it, as Redisson's lock.lock() in compute; unlock() never throws, and
  // runs however body ends.
  std::lock_guard<MapEntryLock> hold(lock);
  body();
}

void start_under_entry_lock(const ObjectPtr& object, std::string lock_name,
                            UniqueFunction<void(UniqueFunction<void(Status)> finished)> body,
                            Done<void> done) {
  // The lock's async forms take copyable handlers: the move-only parts live here.
  struct Run {
    MapEntryLock lock;
    OwnerId owner;  // an owner of its own: the operation may run its steps on any thread
    UniqueFunction<void(UniqueFunction<void(Status)> finished)> body;
    Done<void> done;
  };
  auto run = std::make_shared<Run>(Run{MapEntryLock(object->core, std::move(lock_name)),
                                       OwnerId::next(), std::move(body), std::move(done)});
  run->lock.async_lock(run->owner, [run](std::error_code locked, bool) {
    if (locked) return run->done(Status{locked, "map entry lock"});
    run->body([run](Status status) {
      auto outcome = std::make_shared<Status>(std::move(status));
      run->lock.async_unlock(run->owner, [run, outcome](std::error_code unlocked) {
        // The body's failure says more than the unlock's; a body that wrote and an unlock that
        // failed is still a failure (the hold ends with its lease).
        if (!*outcome && unlocked) *outcome = Status{unlocked, "map entry unlock"};
        run->done(std::move(*outcome));
      });
    });
  });
}

const MapLayout plain_map_layout{&start_plain_map, "HSCAN"};

const char* plain_map_verb(MapOp op) noexcept {
  switch (op) {
    case MapOp::get:
      return "HGET";
    case MapOp::fast_put:
      return "HSET";
    case MapOp::fast_put_if_absent:
      return "HSETNX";
    case MapOp::contains_key:
      return "HEXISTS";
    case MapOp::add_and_get:
      return "HINCRBYFLOAT";
    case MapOp::value_size:
      return "HSTRLEN";
    default:
      return nullptr;
  }
}

std::string map_lock_name(const std::string& name, std::string_view key_bytes,
                          std::string_view kind) {
  return suffix_name(name, highway_hash128_base64(key_bytes) + ":" + std::string(kind));
}

}  // namespace redisson::detail

#include "redisson/objects/map_cache.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>

#include "client/client_core.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/sweeper.hpp"
#include "pubsub/topic_listeners.hpp"
#include "redisson/detail/object_listen.hpp"

namespace redisson::detail {

namespace {

// Redisson's suffixName: a name with a hash tag keeps it, others become the tag, so every key
// of the map shares the hash's slot.
std::string tagged(const std::string& name) {
  return name.find('{') != std::string::npos ? name : "{" + name + "}";
}

std::string prefixed(const char* prefix, const std::string& name) {
  return std::string(prefix) + ":" + tagged(name);
}

}  // namespace

std::vector<std::string> map_cache_keys(const std::string& name) {
  return {prefixed("redisson__timeout__set", name), prefixed("redisson__idle__set", name),
          prefixed("redisson__map_cache__last_access__set", name),
          tagged(name) + ":redisson_options"};
}

std::shared_ptr<void> map_cache_sweeper(const ObjectPtr& object) {
  return sweeper_of(object, "MapCache",
                    [object](std::int64_t limit, std::int64_t latch_seconds, Done<Reply> done) {
                      start_map_cache_script(object, MapCacheScript::sweep,
                                             {std::to_string(limit), std::to_string(latch_seconds)},
                                             done);
                    });
}

namespace {

const char* event_channel_prefix(MapCacheEventKind kind) {
  switch (kind) {
    case MapCacheEventKind::created:
      return "redisson_map_cache_created";
    case MapCacheEventKind::updated:
      return "redisson_map_cache_updated";
    case MapCacheEventKind::removed:
      return "redisson_map_cache_removed";
    case MapCacheEventKind::expired:
      return "redisson_map_cache_expired";
  }
  return "";
}

// Redisson's event framing: each part an 8-byte little-endian length, then its bytes. nullopt
// when the message is not exactly that.
std::optional<std::vector<std::string>> event_parts(std::string_view message) {
  std::vector<std::string> parts;
  while (!message.empty()) {
    if (message.size() < 8) return std::nullopt;
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) {
      length = (length << 8) | static_cast<unsigned char>(message[static_cast<std::size_t>(i)]);
    }
    message.remove_prefix(8);
    if (length > message.size()) return std::nullopt;
    parts.emplace_back(message.substr(0, length));
    message.remove_prefix(length);
  }
  return parts;
}

}  // namespace

void start_map_cache_listen(const ObjectPtr& object, MapCacheEventKind kind,
                            std::function<void(const std::vector<std::string>& parts)> on_parts,
                            Done<ListenerId> done) {
  if (object->batch) return fail<ListenerId>(done, batch_refusal("a MapCache listener"));
  const auto& core = object->core;
  const std::size_t expected = kind == MapCacheEventKind::updated ? 3 : 2;
  std::string channel = prefixed(event_channel_prefix(kind), object->name);
  TopicCallbacks callbacks;
  // Runs on the listener's strand; what it throws goes to Config::error_handler.
  callbacks.on_message = [channel, expected, on_parts = std::move(on_parts)](
                             std::string_view, std::string_view message) {
    const auto parts = event_parts(message);
    if (!parts || parts->size() != expected) {
      throw error(errc::codec_error, "MapCache event on " + channel +
                                         ": not Redisson's framing of " + std::to_string(expected) +
                                         " parts");
    }
    on_parts(*parts);
  };
  start_registry_listen(
      core, ChannelKind::plain, std::move(channel), std::move(callbacks),
      [object, done = std::move(done)](Status subscribed, ListenerId id) mutable {
        if (subscribed) return fail<ListenerId>(done, std::move(subscribed));
        // Java's addListener: from now on every writer publishes (map_cache_publish checks it).
        submit_command(
            object,
            Command{"HSET", tagged(object->name) + ":redisson_options", "has-listeners", "1"},
            [object, id, done = std::move(done)](Status status, const Reply&) mutable {
              if (status) {
                start_listener_remove(object->core, id, [](const Status&, bool) {});
                return fail<ListenerId>(done, std::move(status));
              }
              done(Status{}, id);
            });
      });
}

std::int64_t map_cache_ms(std::chrono::milliseconds duration, const char* what) {
  if (duration.count() < 0) {
    throw_invalid_argument(std::string("MapCache: ") + what + " must not be negative");
  }
  return duration.count();
}

namespace {

std::vector<std::string> all_keys(const ObjectPtr& object) {
  std::vector<std::string> keys{object->name};
  for (auto& key : map_cache_keys(object->name)) keys.push_back(std::move(key));
  return keys;
}

/// map_cache_replace.lua in `mode` with ARGV after the key as given.
void start_replace(const ObjectPtr& object, const char* mode, const std::vector<std::string>& args,
                   Done<Reply>& done) {
  // args: key, value (or key, expected, '1'|'0', update).
  std::vector<std::string> argv{std::to_string(unix_time_ms()), args.at(0), mode};
  argv.insert(argv.end(), args.begin() + 1, args.end());
  argv.resize(6);
  argv.push_back(prefixed("redisson_map_cache_updated", object->name));
  argv.push_back(prefixed("redisson_map_cache_removed", object->name));
  eval_reply(*object, lua::map_cache_replace(all_keys(object), argv), std::move(done));
}

/// put_all: one put script per entry (no time to live), one after the other; an integer reply,
/// how many keys were new.
void start_put_all(const ObjectPtr& object, std::shared_ptr<const std::vector<std::string>> flat,
                   std::size_t at, std::int64_t added, Done<Reply> done) {
  if (at >= flat->size()) return done(Status{}, integer_reply(added));
  Done<Reply> next = [object, flat, at, added, done = std::move(done)](Status status,
                                                                       const Reply& reply) mutable {
    if (status) return done(std::move(status), Reply{});
    start_put_all(object, flat, at + 2, added + reply.integer, std::move(done));
  };
  start_map_cache_script(object, MapCacheScript::put,
                         {"0", "0", (*flat)[at], (*flat)[at + 1], "fast"}, next);
}

/// `script` on the map cache's five keys with ARGV = now, `args`, `channels`.
void eval_on_keys(const ObjectPtr& object, const ScriptDef& script,
                  const std::vector<std::string>& args, std::vector<std::string> channels,
                  Done<Reply>& done) {
  std::vector<std::string> argv{std::to_string(unix_time_ms())};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), channels.begin(), channels.end());
  eval_reply(*object, script(all_keys(object), argv), std::move(done));
}

std::string channel(const char* kind, const ObjectPtr& object) {
  return prefixed(kind, object->name);
}

/// The Map operations on a MapCache (MapOp documents each one's arguments and reply).
void start_map_cache_op(const ObjectPtr& object, MapOp op, const std::vector<std::string>& args,
                        Done<Reply>& done) {
  const auto put = [&](const char* mode) {
    start_map_cache_script(object, MapCacheScript::put, {"0", "0", args.at(0), args.at(1), mode},
                           done);
  };
  switch (op) {
    case MapOp::get:
      return start_map_cache_script(object, MapCacheScript::get, {args.at(0), "value"}, done);
    case MapOp::contains_key:
      return start_map_cache_script(object, MapCacheScript::get, {args.at(0), "exists"}, done);
    case MapOp::value_size:
      return start_map_cache_script(object, MapCacheScript::get, {args.at(0), "length"}, done);
    case MapOp::read_all_keys:
      return eval_on_keys(object, lua::map_cache_read_all, {"keys"}, {}, done);
    case MapOp::read_all_values:
      return eval_on_keys(object, lua::map_cache_read_all, {"values"}, {}, done);
    case MapOp::read_all_entries:
      return eval_on_keys(object, lua::map_cache_read_all, {"entries"}, {}, done);
    case MapOp::random_keys:
      return eval_on_keys(object, lua::map_cache_read_all, {"keys", args.at(0)}, {}, done);
    case MapOp::random_entries:
      return eval_on_keys(object, lua::map_cache_read_all, {"entries", args.at(0)}, {}, done);
    case MapOp::put:
      return put("put");
    case MapOp::fast_put:
      return put("fast");
    case MapOp::put_if_absent:
      return put("if_absent");
    case MapOp::fast_put_if_absent: {
      // put_if_absent answers nil when it stored: 1 then, else 0.
      Done<Reply> stored = [done = std::move(done)](Status status, const Reply& reply) mutable {
        if (status) return done(std::move(status), Reply{});
        done(Status{}, integer_reply(reply.is_null() ? 1 : 0));
      };
      return start_map_cache_script(object, MapCacheScript::put,
                                    {"0", "0", args.at(0), args.at(1), "if_absent"}, stored);
    }
    case MapOp::put_if_exists:
      return start_replace(object, "put_if_exists", args, done);
    case MapOp::fast_put_if_exists:
      return start_replace(object, "fast_put_if_exists", args, done);
    case MapOp::replace_if_equal:
      return start_replace(object, "if_equal", args, done);
    case MapOp::remove:
      return start_map_cache_script(object, MapCacheScript::remove, args, done);
    case MapOp::fast_remove: {
      if (args.empty()) return done(Status{}, integer_reply(0));
      std::vector<std::string> argv{channel("redisson_map_cache_removed", object)};
      argv.insert(argv.end(), args.begin(), args.end());
      return eval_on_keys(object, lua::map_cache_fast_remove, argv, {}, done);
    }
    case MapOp::contains_value:
      return eval_on_keys(object, lua::map_cache_contains_value, args, {}, done);
    case MapOp::size:
      return submit_command(object, Command{"HLEN", object->name}, std::move(done));
    case MapOp::get_all:
      if (args.empty()) return done(Status{}, integer_reply(0));
      return eval_on_keys(object, lua::map_cache_get_all, args, {}, done);
    case MapOp::put_all:
      return start_put_all(object, std::make_shared<const std::vector<std::string>>(args), 0, 0,
                           std::move(done));
    case MapOp::add_and_get:
      return eval_on_keys(object, lua::map_cache_add_and_get, args,
                          {channel("redisson_map_cache_created", object),
                           channel("redisson_map_cache_updated", object),
                           channel("redisson_map_cache_removed", object)},
                          done);
  }
  throw_invalid_argument("MapCache: no such operation");
}

}  // namespace

void start_map_cache_script(const ObjectPtr& object, MapCacheScript script,
                            const std::vector<std::string>& args, Done<Reply>& done) {
  std::vector<std::string> keys{object->name};
  for (auto& key : map_cache_keys(object->name)) keys.push_back(std::move(key));
  const std::int64_t now = unix_time_ms();
  std::vector<std::string> argv{std::to_string(now)};
  switch (script) {
    case MapCacheScript::put: {
      // args: ttl ms, max idle ms, key, value, mode.
      const std::int64_t ttl = std::stoll(args.at(0));
      const std::int64_t idle = std::stoll(args.at(1));
      argv.push_back(std::to_string(ttl > 0 ? now + ttl : 0));
      argv.push_back(std::to_string(idle > 0 ? now + idle : 0));
      argv.push_back(args.at(1));
      argv.insert(argv.end(), args.begin() + 2, args.end());
      argv.push_back(prefixed("redisson_map_cache_created", object->name));
      argv.push_back(prefixed("redisson_map_cache_updated", object->name));
      argv.push_back(prefixed("redisson_map_cache_removed", object->name));
      return eval_reply(*object, lua::map_cache_put(keys, argv), std::move(done));
    }
    case MapCacheScript::get:
      argv.insert(argv.end(), args.begin(), args.end());
      return eval_reply(*object, lua::map_cache_get(keys, argv), std::move(done));
    case MapCacheScript::remove:
      argv.insert(argv.end(), args.begin(), args.end());
      argv.push_back(prefixed("redisson_map_cache_removed", object->name));
      return eval_reply(*object, lua::map_cache_remove(keys, argv), std::move(done));
    case MapCacheScript::expire_entries:
      // args: ttl ms, max idle ms, mode, keys...
      if (args.size() <= 3) return done(Status{}, integer_reply(0));
      argv.insert(argv.end(), args.begin(), args.end());
      return eval_reply(*object, lua::map_cache_expire_entries(keys, argv), std::move(done));
    case MapCacheScript::get_ttl_only:
      if (args.empty()) return done(Status{}, Reply{});
      argv.insert(argv.end(), args.begin(), args.end());
      keys.resize(2);
      return eval_reply(*object, lua::map_cache_get_ttl_only(keys, argv), std::move(done));
    case MapCacheScript::remaining_ttl:
      argv.insert(argv.end(), args.begin(), args.end());
      keys.resize(3);
      return eval_reply(*object, lua::map_cache_remaining_ttl(keys, argv), std::move(done));
    case MapCacheScript::sweep:
      // args: limit, latch seconds.
      keys.push_back(prefixed("redisson__execute_task_once_latch", object->name));
      argv.insert(argv.end(), args.begin(), args.end());
      argv.push_back(prefixed("redisson_map_cache_expired", object->name));
      return eval_reply(*object, lua::map_cache_sweep(keys, argv), std::move(done));
    case MapCacheScript::set_max_size:
      // args: size, mode, 'set'|'try'; no clock.
      return eval_reply(*object,
                        lua::map_cache_set_max_size(std::vector<std::string>{keys.back()}, args),
                        std::move(done));
  }
}

const MapLayout map_cache_layout{&start_map_cache_op, kMapCacheScanVerb};

void start_map_cache_scan_page(const ObjectPtr& object, const std::string& cursor,
                               std::int64_t count, Done<Reply> done) {
  std::vector<std::string> keys = all_keys(object);
  keys.resize(3);
  eval_reply(
      *object,
      lua::map_cache_scan(keys, {std::to_string(unix_time_ms()), cursor, std::to_string(count)}),
      std::move(done));
}

}  // namespace redisson::detail

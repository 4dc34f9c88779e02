#include "redisson/objects/map_cache.hpp"

#include <chrono>

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/sweeper.hpp"

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

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
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

std::int64_t map_cache_ms(std::chrono::milliseconds duration, const char* what) {
  if (duration.count() < 0) {
    throw_invalid_argument(std::string("MapCache: ") + what + " must not be negative");
  }
  return duration.count();
}

void start_map_cache_script(const ObjectPtr& object, MapCacheScript script,
                            const std::vector<std::string>& args, Done<Reply>& done) {
  std::vector<std::string> keys{object->name};
  for (auto& key : map_cache_keys(object->name)) keys.push_back(std::move(key));
  const std::int64_t now = now_ms();
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
      return eval_reply(object->core, lua::map_cache_put(keys, argv), std::move(done));
    }
    case MapCacheScript::get:
      argv.insert(argv.end(), args.begin(), args.end());
      return eval_reply(object->core, lua::map_cache_get(keys, argv), std::move(done));
    case MapCacheScript::remove:
      argv.insert(argv.end(), args.begin(), args.end());
      argv.push_back(prefixed("redisson_map_cache_removed", object->name));
      return eval_reply(object->core, lua::map_cache_remove(keys, argv), std::move(done));
    case MapCacheScript::remaining_ttl:
      argv.insert(argv.end(), args.begin(), args.end());
      keys.resize(3);
      return eval_reply(object->core, lua::map_cache_remaining_ttl(keys, argv), std::move(done));
    case MapCacheScript::sweep:
      // args: limit, latch seconds.
      keys.push_back(prefixed("redisson__execute_task_once_latch", object->name));
      argv.insert(argv.end(), args.begin(), args.end());
      argv.push_back(prefixed("redisson_map_cache_expired", object->name));
      return eval_reply(object->core, lua::map_cache_sweep(keys, argv), std::move(done));
    case MapCacheScript::set_max_size:
      // args: size, mode, 'set'|'try'; no clock.
      return eval_reply(object->core,
                        lua::map_cache_set_max_size(std::vector<std::string>{keys.back()}, args),
                        std::move(done));
  }
}

}  // namespace redisson::detail

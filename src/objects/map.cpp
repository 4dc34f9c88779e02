#include "redisson/objects/map.hpp"

#include <algorithm>

#include "hash/highway_hash.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "objects/suffix_name.hpp"

namespace redisson::detail {

namespace {

// Entries per HSET of put_all: large enough that a big map is few commands, small enough that
// one command does not hold the server for long.
constexpr std::size_t kPutAllChunk = 1000;

const ScriptDef& script_of(MapScript script) {
  switch (script) {
    case MapScript::put:
      return lua::map_put;
    case MapScript::put_if_absent:
      return lua::map_put_if_absent;
    case MapScript::put_if_exists:
      return lua::map_put_if_exists;
    case MapScript::fast_put_if_exists:
      return lua::map_fast_put_if_exists;
    case MapScript::replace_if_equal:
      return lua::map_replace_if_equal;
    case MapScript::remove:
      return lua::map_remove;
    case MapScript::contains_value:
      return lua::map_contains_value;
  }
  return lua::map_put;
}

}  // namespace

void start_map_script(const ObjectPtr& object, MapScript script,
                      const std::vector<std::string>& args, Done<Reply>& done) {
  eval_reply(object->core, script_of(script)(std::vector<std::string>{object->name}, args),
             std::move(done));
}

void start_map_put_all(const ObjectPtr& object, std::vector<std::string> fields_and_values,
                       Done<Reply>& done) {
  std::vector<Command> commands;
  for (std::size_t at = 0; at < fields_and_values.size(); at += 2 * kPutAllChunk) {
    const std::size_t end = std::min(fields_and_values.size(), at + 2 * kPutAllChunk);
    Command hset{"HSET", object->name};
    for (std::size_t i = at; i < end; ++i) hset.arg(fields_and_values[i]);
    commands.push_back(std::move(hset));
  }
  submit_all(object->core, std::move(commands),
             [done = std::move(done)](Status status, const std::vector<Reply>& replies) mutable {
               std::int64_t added = 0;
               for (const auto& reply : replies) added += reply.integer;
               done(std::move(status), integer_reply(added));
             });
}

std::string map_lock_name(const std::string& name, std::string_view key_bytes) {
  return suffix_name(name, highway_hash128_base64(key_bytes) + ":lock");
}

}  // namespace redisson::detail

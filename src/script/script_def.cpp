#include "script/script_def.hpp"

#include <stdexcept>

namespace redisson::detail {
namespace {

void check_key_count(const ScriptDef& def, std::size_t keys) {
  if (def.key_count != ScriptDef::kAnyKeys && keys != static_cast<std::size_t>(def.key_count)) {
    throw std::logic_error(std::string(def.name) + " takes " + std::to_string(def.key_count) +
                           " keys, called with " + std::to_string(keys));
  }
}

Command evalsha_prefix(const ScriptDef& def, std::size_t keys) {
  Command command{"EVALSHA", def.sha1};
  command.arg(static_cast<std::int64_t>(keys));
  return command;
}

}  // namespace

ScriptCall ScriptDef::operator()(std::initializer_list<std::string_view> keys,
                                 std::initializer_list<ScriptArg> args) const {
  check_key_count(*this, keys.size());
  ScriptCall call{script(), evalsha_prefix(*this, keys.size())};
  for (const auto key : keys) call.command.key(key);
  for (const auto& value : args) value.append_to(call.command);
  return call;
}

ScriptCall ScriptDef::operator()(const std::vector<std::string>& keys,
                                 const std::vector<std::string>& args) const {
  check_key_count(*this, keys.size());
  ScriptCall call{script(), evalsha_prefix(*this, keys.size())};
  for (const auto& key : keys) call.command.key(key);
  for (const auto& value : args) call.command.arg(value);
  return call;
}

const Script& ScriptDef::script() const {
  std::call_once(script_once_, [this] { script_.emplace(std::string(source)); });
  return *script_;
}

}  // namespace redisson::detail

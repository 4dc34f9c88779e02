// A Lua script of the library, defined at build time (cmake/embed_lua.cmake): its source, SHA-1
// and how many KEYS it takes, taken from the script's own header comment. A call is
//
//     lua::lock_unlock({name, channel, latch}, {"0", lease_ms, field, ...})
//
// which checks the key count and builds the EVALSHA; ClientCore::eval runs it (script_runner.hpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "redisson/command.hpp"
#include "redisson/script.hpp"

namespace redisson::detail {

/// One ARGV value: text, or an integer sent as decimal text.
class ScriptArg {
 public:
  ScriptArg(std::string_view text) : value_(text) {}  // NOLINT(google-explicit-constructor)
  ScriptArg(const std::string& text) : value_(std::string_view(text)) {}  // NOLINT
  ScriptArg(const char* text) : value_(std::string_view(text)) {}         // NOLINT
  ScriptArg(std::int64_t number) : value_(number) {}                      // NOLINT
  ScriptArg(int number) : value_(std::int64_t{number}) {}                 // NOLINT

  void append_to(Command& command) const {
    if (const auto* text = std::get_if<std::string_view>(&value_)) {
      command.arg(*text);
    } else {
      command.arg(std::get<std::int64_t>(value_));
    }
  }

 private:
  std::variant<std::string_view, std::int64_t> value_;
};

/// What ClientCore::eval runs: the script (for its source, should the server not know its SHA)
/// and the EVALSHA command.
struct ScriptCall {
  Script script;
  Command command;
};

class ScriptDef {
 public:
  /// Variadic: the script takes any number of keys.
  static constexpr int kAnyKeys = -1;

  constexpr ScriptDef(std::string_view name_in, std::string_view source_in,
                      std::string_view sha1_in, int key_count_in)
      : name(name_in), source(source_in), sha1(sha1_in), key_count(key_count_in) {}

  /// EVALSHA of this script with `keys` and `args`. A key count other than the script's is a
  /// bug in the caller: it throws std::logic_error rather than send a script its keys in ARGV.
  ScriptCall operator()(std::initializer_list<std::string_view> keys,
                        std::initializer_list<ScriptArg> args = {}) const;
  /// The same with keys and args built at run time (batched renewals).
  ScriptCall operator()(const std::vector<std::string>& keys,
                        const std::vector<std::string>& args) const;

  /// The script as the public Script type (built once).
  const Script& script() const;

  const std::string_view name;
  const std::string_view source;
  const std::string_view sha1;
  const int key_count;

 private:
  mutable std::once_flag script_once_;
  mutable std::optional<Script> script_;
};

}  // namespace redisson::detail

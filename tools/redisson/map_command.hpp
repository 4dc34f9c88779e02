// `redisson map get|put|remove NAME KEY [VALUE]`: read and write one entry of a Redisson RMap
// from the shell, with the codec Java used (kryo5 by default, as in Redisson).
#pragma once

#include <optional>
#include <string>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct MapOptions {
  std::string name;
  std::string key;
  std::string value;                 ///< put: VALUE as typed
  std::string key_type = "string";   ///< how KEY is read (--key-type)
  std::string type = "string";       ///< put: how VALUE is read (--type)
  std::optional<std::string> codec;  ///< --codec; absent: the config's codec (kryo5)
  CLI::App* get = nullptr;
  CLI::App* put = nullptr;
  CLI::App* remove = nullptr;
};

/// Registers `map` with its `get`, `put` and `remove` subcommands.
CLI::App* add_map_command(CLI::App& app, MapOptions& options);

/// get / remove: print the (removed) value and return 0, or 1 when the key is absent; put:
/// prints the value it replaced, if any, and returns 0.
int run_map(const GlobalOptions& global, const MapOptions& options);

}  // namespace redisson::cli

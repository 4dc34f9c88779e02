// `redisson bucket get NAME` and `redisson bucket set NAME VALUE [--ttl D]`: read and write a
// Redisson RBucket from the shell, with the codec Java used (kryo5 by default, as in Redisson).
#pragma once

#include <optional>
#include <string>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct BucketOptions {
  std::string name;
  std::string value;                 ///< set: VALUE as typed
  std::string type = "string";       ///< set: how VALUE is read (--type)
  std::optional<std::string> ttl;    ///< set: --ttl as typed
  std::optional<std::string> codec;  ///< --codec; absent: the config's codec (kryo5)
  CLI::App* get = nullptr;
  CLI::App* set = nullptr;
};

/// Registers `bucket` with its `get` and `set` subcommands.
CLI::App* add_bucket_command(CLI::App& app, BucketOptions& options);

/// get: prints the value and returns 0, or 1 when the bucket does not exist; set: returns 0.
int run_bucket(const GlobalOptions& global, const BucketOptions& options);

}  // namespace redisson::cli

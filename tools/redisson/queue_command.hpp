// `redisson queue push NAME VALUE...` and `redisson queue pop NAME [--wait DUR]`: a work queue
// for shell scripts on many machines, on a Redisson RBlockingQueue (the list NAME), so Java
// producers and consumers can take part.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct QueueOptions {
  std::string name;
  std::vector<std::string> values;   ///< push: VALUE... as typed
  std::string type = "string";       ///< push: how each VALUE is read (--type)
  std::optional<std::string> wait;   ///< pop: as typed; absent: wait as long as it takes
  std::optional<std::string> codec;  ///< --codec; absent: the config's codec (kryo5)
  CLI::App* push = nullptr;
  CLI::App* pop = nullptr;
};

/// Registers `queue` with its `push` and `pop` subcommands.
CLI::App* add_queue_command(CLI::App& app, QueueOptions& options);

/// push: appends the values in order (one RPUSH) and returns 0. pop: prints the head and returns
/// 0, or returns 75 when nothing came within --wait.
int run_queue(const GlobalOptions& global, const QueueOptions& options);

}  // namespace redisson::cli

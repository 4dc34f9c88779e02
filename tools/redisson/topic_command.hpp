// `redisson publish CHANNEL MESSAGE` and `redisson subscribe CHANNEL...`: Redisson topics (RTopic,
// RPatternTopic, RShardedTopic, RReliableTopic) from the shell, with the codec Java uses, so a
// script can send to or listen to a Java service's channel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct PublishOptions {
  std::string channel;
  std::string message;               ///< MESSAGE as typed
  std::string type = "string";       ///< how MESSAGE is read (--type)
  bool sharded = false;              ///< SPUBLISH (RShardedTopic)
  bool reliable = false;             ///< the stream of an RReliableTopic
  std::optional<std::string> codec;  ///< --codec; absent: the config's codec (kryo5)
};

struct SubscribeOptions {
  std::vector<std::string> channels;   ///< CHANNEL... (or patterns with --pattern)
  bool pattern = false;                ///< PSUBSCRIBE (RPatternTopic)
  bool sharded = false;                ///< SSUBSCRIBE (RShardedTopic)
  bool reliable = false;               ///< RReliableTopic names (a subscriber of their streams)
  std::optional<std::int64_t> count;   ///< exit 0 after this many messages
  std::optional<std::string> timeout;  ///< as typed; exit 75 when it passes first
  std::optional<std::string> codec;
};

/// Registers `publish`.
CLI::App* add_publish_command(CLI::App& app, PublishOptions& options);
/// Registers `subscribe`.
CLI::App* add_subscribe_command(CLI::App& app, SubscribeOptions& options);

/// Publishes and prints the number of receivers; returns 0.
int run_publish(const GlobalOptions& global, const PublishOptions& options);
/// Prints one message per line (with --pattern: CHANNEL, a tab, the message) until --count
/// messages came (0), --timeout passed first (75) or the output is closed (0).
int run_subscribe(const GlobalOptions& global, const SubscribeOptions& options);

}  // namespace redisson::cli

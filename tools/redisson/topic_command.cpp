#include "topic_command.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <exception>
#include <iostream>
#include <mutex>
#include <utility>
#include <vector>

#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/objects/reliable_topic.hpp"
#include "redisson/objects/topic.hpp"
#include "value_text.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kPublishFooter =
    R"(Synopsis: redisson publish CHANNEL MESSAGE [--type T] [--codec C] [--sharded | --reliable]

Publishes MESSAGE on the Redisson topic CHANNEL (RTopic: PUBLISH; with --sharded, RShardedTopic:
SPUBLISH; with --reliable, RReliableTopic: an entry of the stream CHANNEL) as the codec's bytes
(--codec, else the `codec:` line of --config, else kryo5, Redisson's default), so Java listeners
of the topic receive it as they would from Java. MESSAGE is read as --type (string by default).
Prints how many subscribers received it (--reliable: how many it was kept for).

Codecs: kryo5, json, typed_json, string, long, integer, double, bytes.
Exit status: 0 published; 64 usage error; 69 Redis unreachable.

Examples:
  redisson publish deploys "v1.4 is out"
  redisson publish --sharded orders:eu 42 --type long
  redisson publish --reliable audit "user 7 logged in")";

constexpr const char* kSubscribeFooter =
    R"(Synopsis: redisson subscribe CHANNEL... [--pattern | --sharded | --reliable] [--count N]
                            [--timeout DUR] [--codec C]

Listens on Redisson topics (RTopic: SUBSCRIBE; --pattern, RPatternTopic: PSUBSCRIBE, each
argument a glob pattern; --sharded, RShardedTopic: SSUBSCRIBE; --reliable, RReliableTopic: a new
subscriber of each named topic's stream) and prints one message per line, decoded with the codec:
a String as it is, any other value as JSON. With --pattern each line is the channel, a tab, and
the message. Only what is published after the subscription is confirmed arrives (topics keep
nothing), except with --reliable: a new subscriber also gets what the stream still holds for
slower subscribers, and is removed again when the command ends. It runs until --count messages
came, --timeout passed, the output is closed, or it is interrupted.

Codecs: kryo5, json, typed_json, string, long, integer, double, bytes.
A message the codec cannot read is reported on stderr and skipped.
Exit status: 0 --count messages received, or the output closed; 64 usage error; 69 Redis
unreachable; 75 --timeout passed first.

Examples:
  redisson subscribe deploys --count 1 --timeout 10m
  redisson subscribe --pattern 'orders:*' --codec json
  redisson subscribe --reliable audit --count 10)";

// Messages handed from the listener threads to the main thread, which prints them.
struct Inbox {
  std::mutex mutex;
  std::condition_variable arrived;
  std::deque<std::string> lines;
  std::string failure;  // a message the codec could not read
};

}  // namespace

CLI::App* add_publish_command(CLI::App& app, PublishOptions& options) {
  auto* command = app.add_subcommand("publish", "Publish a message on a Redisson topic (RTopic)");
  command->footer(kPublishFooter);
  command->add_option("CHANNEL", options.channel, "The topic's channel")->required();
  command->add_option("MESSAGE", options.message, "The message")->required();
  command->add_option("--type", options.type, "How MESSAGE is read: " + std::string(kValueTypes))
      ->type_name("T");
  auto* sharded =
      command->add_flag("--sharded", options.sharded, "SPUBLISH (Redisson's RShardedTopic)");
  command->add_flag("--reliable", options.reliable, "Redisson's RReliableTopic (a stream)")
      ->excludes(sharded);
  command->add_option("--codec", options.codec, "The codec of the topic's messages")
      ->type_name("C");
  return command;
}

CLI::App* add_subscribe_command(CLI::App& app, SubscribeOptions& options) {
  auto* command =
      app.add_subcommand("subscribe", "Print the messages of Redisson topics, one per line");
  command->footer(kSubscribeFooter);
  command->add_option("CHANNEL", options.channels, "Channels (patterns with --pattern)")
      ->required();
  auto* pattern =
      command->add_flag("--pattern", options.pattern, "CHANNELs are glob patterns (PSUBSCRIBE)");
  auto* sharded = command->add_flag("--sharded", options.sharded, "SSUBSCRIBE (RShardedTopic)");
  auto* reliable = command->add_flag("--reliable", options.reliable,
                                     "CHANNELs are RReliableTopic names (streams)");
  pattern->excludes(sharded);
  reliable->excludes(pattern)->excludes(sharded);
  command->add_option("--count", options.count, "Exit 0 after this many messages")->type_name("N");
  command->add_option("--timeout", options.timeout, "Give up after this long (exit 75)")
      ->type_name("DUR");
  command->add_option("--codec", options.codec, "The codec of the topic's messages")
      ->type_name("C");
  return command;
}

int run_publish(const GlobalOptions& global, const PublishOptions& options) {
  auto codec = codec_option(options.codec);
  const auto message = parse_value(options.message, options.type);
  Client client = connect(global);
  std::int64_t receivers = 0;
  if (options.reliable) {
    receivers = ReliableTopic<Value>(client, options.channel, std::move(codec)).publish(message);
  } else if (options.sharded) {
    receivers = ShardedTopic<Value>(client, options.channel, std::move(codec)).publish(message);
  } else {
    receivers = Topic<Value>(client, options.channel, std::move(codec)).publish(message);
  }
  std::cout << receivers << "\n" << std::flush;
  return kExitOk;
}

int run_subscribe(const GlobalOptions& global, const SubscribeOptions& options) {
  if (options.count && *options.count <= 0) {
    throw ToolError(kExitUsage, "--count must be at least 1");
  }
  const auto timeout = duration_option("--timeout", options.timeout);
  if (timeout && timeout->count() <= 0) throw ToolError(kExitUsage, "--timeout must be positive");
  auto codec = codec_option(options.codec);
  // A closed output (`| head -1`) is the end of the run, not a signal: writes then fail instead.
  std::signal(SIGPIPE, SIG_IGN);
  Inbox inbox;  // before the client: its listener threads end first
  Client client = connect(global);
  // A listener of Value takes any value; bytes the codec cannot read go to the client's error
  // handler (one line on stderr) and are skipped.
  auto listener = [&inbox, with_channel = options.pattern](std::string_view channel, Value value) {
    std::string line = with_channel ? std::string(channel) + "\t" : std::string();
    line += print_value(value);
    std::lock_guard lock(inbox.mutex);
    inbox.lines.push_back(std::move(line));
    inbox.arrived.notify_one();
  };
  // A reliable subscriber made for this run is removed at its end (its group would otherwise keep
  // the stream from being trimmed until its deadline): the listeners go before the client.
  std::vector<ReliableTopic<Value>> reliable;
  struct RemoveReliable {
    std::vector<ReliableTopic<Value>>& topics;
    ~RemoveReliable() {
      for (auto& topic : topics) {
        try {
          topic.remove_all_listeners();
        } catch (const std::exception&) {
          // The server went away: the subscriber expires at its deadline.
        }
      }
    }
  } remove_reliable{reliable};
  for (const auto& channel : options.channels) {
    if (options.reliable) {
      reliable.emplace_back(client, channel, codec);
      reliable.back().add_listener(listener);
    } else if (options.pattern) {
      PatternTopic<Value>(client, channel, codec).add_listener(listener);
    } else if (options.sharded) {
      ShardedTopic<Value>(client, channel, codec).add_listener(listener);
    } else {
      Topic<Value>(client, channel, codec).add_listener(listener);
    }
  }
  const auto deadline = timeout ? std::chrono::steady_clock::now() + *timeout
                                : std::chrono::steady_clock::time_point::max();
  std::int64_t printed = 0;
  std::unique_lock lock(inbox.mutex);
  while (!options.count || printed < *options.count) {
    if (!inbox.arrived.wait_until(lock, deadline, [&] { return !inbox.lines.empty(); })) {
      return kExitNotAcquired;
    }
    auto line = std::move(inbox.lines.front());
    inbox.lines.pop_front();
    lock.unlock();
    std::cout << line << "\n" << std::flush;
    if (!std::cout) return kExitOk;  // the reader went away (| head -1)
    ++printed;
    lock.lock();
  }
  return kExitOk;
}

}  // namespace redisson::cli

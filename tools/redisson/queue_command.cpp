#include "queue_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "duration.hpp"
#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/objects/blocking_queue.hpp"
#include "value_text.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kQueueFooter =
    R"(Synopsis: redisson queue push NAME VALUE... [--type T] [--codec C]
          redisson queue pop NAME [--wait DUR] [--codec C]

A queue is Redisson's RBlockingQueue: the list NAME, pushed at its tail and popped from its head,
values stored with a codec (--codec, else the `codec:` line of --config, else kryo5, Redisson's
default), so Java services can push and pop on the same queue. push appends the VALUEs in order
in one command, each read as --type (string by default). pop takes the head, waiting for one as
long as it takes, or up to --wait (0: only what is there now); it prints a String as it is and
any other value as JSON. Each element goes to exactly one pop, whichever machine it runs on.

Codecs: kryo5, json, typed_json, string, long, integer, double, bytes.
Exit status: 0 done; 1 a key of another type; 64 usage error; 65 the bytes are not readable
with the codec; 69 Redis unreachable; 75 pop: nothing came within --wait.

Examples:
  redisson queue push jobs build:41 build:42
  while job=$(redisson queue pop jobs --wait 30s); do ./run "$job"; done)";

}  // namespace

CLI::App* add_queue_command(CLI::App& app, QueueOptions& options) {
  auto* command =
      app.add_subcommand("queue", "Push to or pop from a Redisson queue (RBlockingQueue)");
  command->require_subcommand(1);
  command->footer(kQueueFooter);
  options.push = command->add_subcommand("push", "Append VALUE... at the tail, in order");
  options.push->add_option("NAME", options.name, "Queue name (the Redis key)")->required();
  options.push->add_option("VALUE", options.values, "The values")->required();
  options.push->add_option("--type", options.type, "How VALUE is read: " + std::string(kValueTypes))
      ->type_name("T");
  options.pop = command->add_subcommand("pop", "Take the head and print it, waiting for one");
  options.pop->add_option("NAME", options.name, "Queue name (the Redis key)")->required();
  options.pop
      ->add_option("--wait", options.wait,
                   "Give up after waiting this long (exit 75); 0: only what is there now. "
                   "Default: wait as long as it takes")
      ->type_name("DUR");
  for (auto* sub : {options.push, options.pop}) {
    sub->add_option("--codec", options.codec, "The codec of the queue's values")->type_name("C");
  }
  return command;
}

int run_queue(const GlobalOptions& global, const QueueOptions& options) {
  auto codec = codec_option(options.codec);
  if (options.push->parsed()) {
    std::vector<Value> values;
    for (const auto& text : options.values) values.push_back(parse_value(text, options.type));
    Client client = connect(global);
    BlockingQueue<Value>(client, options.name, std::move(codec)).add_all(values);
    return kExitOk;
  }
  const auto wait = duration_option("--wait", options.wait);
  Client client = connect(global);
  BlockingQueue<Value> queue(client, options.name, std::move(codec));
  std::optional<Value> value;
  if (wait) {
    value = queue.poll(*wait);
  } else {
    value = queue.take();
  }
  if (!value) {
    std::cerr << "redisson: nothing in queue " << options.name << " within "
              << format_duration(*wait) << "\n";
    return kExitNotAcquired;
  }
  std::cout << print_value(*value) << "\n" << std::flush;
  return kExitOk;
}

}  // namespace redisson::cli

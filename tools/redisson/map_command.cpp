#include "map_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/objects/map.hpp"
#include "value_text.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kMapFooter =
    R"(Synopsis: redisson map get NAME KEY [--key-type T] [--codec C]
          redisson map put NAME KEY VALUE [--key-type T] [--type T] [--codec C]
          redisson map remove NAME KEY [--key-type T] [--codec C]

A map is Redisson's RMap: the hash NAME, one field per key, keys and values stored with a codec
(--codec, else the `codec:` line of --config, else kryo5, Redisson's default), so an entry a Java
service stored with Redisson's defaults reads as it is. KEY is read as --key-type and VALUE as
--type (both string by default). get and remove print a String as it is and any other value as
JSON; put prints the value it replaced, if there was one.

Codecs: kryo5, json, typed_json, string, long, integer, double, bytes.
Exit status: 0 done; 1 get/remove: no such key, or a key of another type; 64 usage error;
65 the bytes are not readable with the codec; 69 Redis unreachable.

Examples:
  redisson map put users:42 name Ada
  redisson map get users:42 name
  redisson map put counters hits 0 --type long --codec string)";

void add_common(CLI::App& sub, MapOptions& options) {
  sub.add_option("NAME", options.name, "Map name (the Redis key)")->required();
  sub.add_option("KEY", options.key, "The entry's key")->required();
  sub.add_option("--key-type", options.key_type, "How KEY is read: " + std::string(kValueTypes))
      ->type_name("T");
  sub.add_option("--codec", options.codec, "The codec of the map's keys and values")
      ->type_name("C");
}

int print_found(const std::optional<Value>& value, const MapOptions& options) {
  if (!value) {
    std::cerr << "redisson: no key '" << options.key << "' in map '" << options.name << "'\n";
    return kExitFailure;
  }
  std::cout << print_value(*value) << "\n" << std::flush;
  return kExitOk;
}

}  // namespace

CLI::App* add_map_command(CLI::App& app, MapOptions& options) {
  auto* command = app.add_subcommand("map", "Read or write an entry of a Redisson map (RMap)");
  command->require_subcommand(1);
  command->footer(kMapFooter);
  options.get = command->add_subcommand("get", "Print the value of KEY");
  add_common(*options.get, options);
  options.put = command->add_subcommand("put", "Store VALUE under KEY");
  add_common(*options.put, options);
  options.put->add_option("VALUE", options.value, "The value")->required();
  options.put->add_option("--type", options.type, "How VALUE is read: " + std::string(kValueTypes))
      ->type_name("T");
  options.remove = command->add_subcommand("remove", "Remove KEY and print its value");
  add_common(*options.remove, options);
  return command;
}

int run_map(const GlobalOptions& global, const MapOptions& options) {
  auto codec = codec_option(options.codec);
  const auto key = parse_value(options.key, options.key_type);
  const auto value = options.put->parsed() ? parse_value(options.value, options.type) : Value{};
  Client client = connect(global);
  Map<Value, Value> map(client, options.name, std::move(codec));
  if (options.put->parsed()) {
    const auto previous = map.put(key, value);
    if (previous) std::cout << print_value(*previous) << "\n" << std::flush;
    return kExitOk;
  }
  if (options.remove->parsed()) return print_found(map.remove(key), options);
  return print_found(map.get(key), options);
}

}  // namespace redisson::cli

#include "bucket_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/codec.hpp"
#include "redisson/objects/bucket.hpp"
#include "value_text.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kBucketFooter =
    R"(Synopsis: redisson bucket get NAME [--codec C]
          redisson bucket set NAME VALUE [--type T] [--ttl DUR] [--codec C]

A bucket is Redisson's RBucket: one value under the key NAME, stored with a codec. The codec is
--codec, else the `codec:` line of --config, else kryo5 (Redisson's default), so a value a Java
service stored with Redisson's defaults reads as it is. get prints a String as it is and any other
value as JSON (numbers, true/false, lists, maps; byte[] as Base64). set stores VALUE as --type
(string by default; json: numbers become Long or Double, arrays ArrayList, objects HashMap).

Codecs: kryo5, json, typed_json, string, long, integer, double, bytes.
Exit status: 0 done; 1 get: no such bucket, or a key of another type; 64 usage error;
65 the bytes are not readable with the codec; 69 Redis unreachable.

Examples:
  redisson bucket get session:42
  redisson bucket set feature:dark-mode true --type boolean --ttl 1h)";

}  // namespace

CLI::App* add_bucket_command(CLI::App& app, BucketOptions& options) {
  auto* command = app.add_subcommand("bucket", "Read or write a Redisson bucket (RBucket)");
  command->require_subcommand(1);
  command->footer(kBucketFooter);

  options.get = command->add_subcommand("get", "Print the bucket's value");
  options.get->add_option("NAME", options.name, "Bucket name (the Redis key)")->required();
  options.get->add_option("--codec", options.codec, "The codec the value was stored with")
      ->type_name("C");

  options.set = command->add_subcommand("set", "Store a value in the bucket");
  options.set->add_option("NAME", options.name, "Bucket name (the Redis key)")->required();
  options.set->add_option("VALUE", options.value, "The value")->required();
  options.set->add_option("--type", options.type, "How VALUE is read: " + std::string(kValueTypes))
      ->type_name("T");
  options.set->add_option("--ttl", options.ttl, "Expire the bucket after this long")
      ->type_name("DUR");
  options.set->add_option("--codec", options.codec, "The codec to store the value with")
      ->type_name("C");
  return command;
}

int run_bucket(const GlobalOptions& global, const BucketOptions& options) {
  auto codec = codec_option(options.codec);
  if (options.set->parsed()) {
    const auto value = parse_value(options.value, options.type);
    const auto ttl = duration_option("--ttl", options.ttl);
    if (ttl && ttl->count() <= 0) throw ToolError(kExitUsage, "--ttl must be positive");
    Client client = connect(global);
    Bucket<Value> bucket(client, options.name, std::move(codec));
    if (ttl) {
      bucket.set(value, *ttl);
    } else {
      bucket.set(value);
    }
    return kExitOk;
  }
  Client client = connect(global);
  const Bucket<Value> bucket(client, options.name, std::move(codec));
  const auto value = bucket.get();
  if (!value) {
    std::cerr << "redisson: no bucket '" << options.name << "'\n";
    return kExitFailure;
  }
  std::cout << print_value(*value) << "\n" << std::flush;
  return kExitOk;
}

}  // namespace redisson::cli

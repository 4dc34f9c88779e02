// Lua scripts and Redis 7 functions with values encoded as Java Redisson encodes them.
// Usage: example_scripts_functions [redis://127.0.0.1:6379]
#include <iostream>
#include <redisson/redisson.hpp>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    namespace returns = redisson::returns;

    // A script: keys as they are, values through the codec, the result kind named in the call.
    redisson::Scripts scripts(client, redisson::codecs::string());
    scripts.eval<returns::Status>(redisson::ScriptMode::read_write,
                                  "return redis.call('set', KEYS[1], ARGV[1])", {"demo:greeting"},
                                  std::vector<std::string>{"hello"});
    const auto greeting = scripts.eval<returns::Value<std::string>>(
        redisson::ScriptMode::read_only, "return redis.call('get', KEYS[1])", {"demo:greeting"});
    std::cout << "greeting: " << greeting.value_or("(none)") << "\n";

    // A script made once keeps its SHA-1: EVALSHA, with EVAL as the fallback.
    const redisson::Script length("return redis.call('strlen', KEYS[1])");
    std::cout << "length: "
              << scripts.eval<returns::Integer>(redisson::ScriptMode::read_only, length,
                                                {"demo:greeting"})
              << "\n";

    // A function library (Redis 7), loaded on every master, called with FCALL / FCALL_RO.
    redisson::Functions functions(client, redisson::codecs::string());
    functions.load_and_replace("demo",
                               "redis.register_function{function_name='shout', "
                               "callback=function(keys, args) return "
                               "string.upper(args[1]) end, flags={'no-writes'}}");
    const auto shouted = functions.call<returns::Value<std::string>>(
        redisson::FunctionMode::read, "shout", {}, std::vector<std::string>{"hi"});
    std::cout << "shout: " << shouted.value_or("") << "\n";  // HI
    for (const auto& library : functions.list("demo")) {
      std::cout << "library " << library.name << ": " << library.functions.size() << " function\n";
    }
    functions.delete_library("demo");
    redisson::Keys(client).delete_keys({"demo:greeting"});
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// Reads a Redisson redisson.yml (the file Java services already have) and takes a lock.
// Usage: example_yaml_config [path/to/redisson.yml]   (default: ./redisson.yml; see
// examples/redisson.yml)
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "redisson.yml";
  try {
    std::vector<std::string> ignored;
    auto config = redisson::Config::from_yaml(path, &ignored);
    for (const auto& note : ignored) std::cerr << "note: " << note << "\n";

    redisson::Client client(config);
    auto lock = redisson::Lock(client, "orders:rebuild");
    std::lock_guard guard(lock);
    std::cout << "holding the lock on " << config.server.to_safe_url() << "\n";
  } catch (const redisson::error& e) {
    // Bad files name the key: "redisson.yml: singleServerConfig.timeout: -1 ms: must be positive"
    std::cerr << e.what() << "\n";
    return 1;
  }
}

#include "sweep.hpp"

#include <string>
#include <vector>

#include "redisson/redisson.hpp"

namespace redisson_bench {

std::int64_t sweep_unlock_latches(const Options& options) {
  redisson::Client client(options.url);
  // The lock names are bench keys without a '{', so P() wraps them in one.
  const auto pattern = "redisson_unlock_latch:{" + bench_key(options, "*");
  std::int64_t swept = 0;
  std::string cursor = "0";
  do {
    const auto page =
        client.execute(redisson::Command{"SCAN", cursor, "MATCH", pattern, "COUNT", "10000"});
    cursor = page.elements.at(0).str;
    const auto& keys = page.elements.at(1).elements;
    if (keys.empty()) continue;
    redisson::Command unlink{"UNLINK"};
    for (const auto& key : keys) unlink.arg(key.str);
    swept += client.execute(unlink).integer;
  } while (cursor != "0");
  return swept;
}

}  // namespace redisson_bench

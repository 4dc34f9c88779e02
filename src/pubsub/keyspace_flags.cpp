// The notify-keyspace-events flag rules (pubsub/keyspace_flags.hpp).
#include "pubsub/keyspace_flags.hpp"

namespace redisson::detail {

namespace {
// The classes "A" stands for (Redis's NOTIFY_ALL).
constexpr std::string_view kAllClasses = "g$lshzxetd";

bool flag_on(std::string_view current, char letter) {
  if (current.find(letter) != std::string_view::npos) return true;
  return current.find('A') != std::string_view::npos &&
         kAllClasses.find(letter) != std::string_view::npos;
}
}  // namespace

std::string missing_keyspace_flags(std::string_view current, std::string_view needed) {
  std::string missing;
  for (const char letter : needed) {
    if (!flag_on(current, letter) && missing.find(letter) == std::string::npos) {
      missing.push_back(letter);
    }
  }
  return missing;
}

std::string merged_keyspace_flags(std::string_view current, std::string_view needed) {
  return std::string(current) + missing_keyspace_flags(current, needed);
}

}  // namespace redisson::detail

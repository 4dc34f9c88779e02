#include "redisson/objects/hyper_log_log.hpp"

namespace redisson::detail {

Command with_other_keys(std::string_view command, const std::string& name,
                        const std::vector<std::string>& others) {
  Command out{command, name};
  for (const auto& other : others) out.arg(other);
  return out;
}

}  // namespace redisson::detail

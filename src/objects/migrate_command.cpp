// MIGRATE's command (objects/migrate_command.hpp).
#include "objects/migrate_command.hpp"

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

Command migrate_command(const MigrateTarget& target, const std::vector<std::string>& keys,
                        bool copy) {
  if (keys.empty()) throw_invalid_argument("migrate: no keys");
  if (target.host.empty()) throw_invalid_argument("migrate: the target's host is empty");
  if (target.port < 1 || target.port > 65535) {
    throw_invalid_argument("migrate: the target's port must be 1..65535");
  }
  if (target.database < 0) throw_invalid_argument("migrate: the database must not be negative");
  if (target.timeout.count() < 0) {
    throw_invalid_argument("migrate: the timeout must not be negative");
  }
  Command command{"MIGRATE", target.host};
  command.arg(static_cast<std::int64_t>(target.port)).arg("").arg(target.database);
  command.arg(static_cast<std::int64_t>(target.timeout.count()));
  if (copy) command.arg("COPY");
  if (!target.username.empty()) {
    command.arg("AUTH2").arg(target.username).arg(target.password);
  } else if (!target.password.empty()) {
    command.arg("AUTH").arg(target.password);
  }
  command.arg("KEYS");
  for (const auto& key : keys) command.key(key);
  return command;
}

}  // namespace redisson::detail

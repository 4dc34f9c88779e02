// MIGRATE as the objects and Keys send it (Object::migrate / copy_to, Keys::migrate / copy_to).
#pragma once

#include <string>
#include <vector>

#include "redisson/command.hpp"
#include "redisson/objects/object.hpp"

namespace redisson::detail {

/// `MIGRATE host port "" database timeout [COPY] [AUTH ...|AUTH2 ...] KEYS keys...`, routed by
/// the first key (the keys share its slot on a Cluster). Throws errc::invalid_argument for no
/// keys, an empty host, a port outside 1..65535, a negative database or timeout.
Command migrate_command(const MigrateTarget& target, const std::vector<std::string>& keys,
                        bool copy);

}  // namespace redisson::detail

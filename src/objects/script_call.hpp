// The command of a script or function call, shared by Scripts (EVALSHA) and Functions (FCALL).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "redisson/command.hpp"

namespace redisson::detail {

/// `verb target numkeys keys... values...` (EVALSHA sha, FCALL name and their _RO forms); the
/// values are already encoded. Routed by the first key, none: any node.
Command script_call_command(std::string_view verb, std::string_view target,
                            const std::vector<std::string>& keys,
                            const std::vector<std::string>& values);

}  // namespace redisson::detail

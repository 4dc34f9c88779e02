// The checks every set algebra operation (Set's, SetCache's) makes before it sends anything.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/detail/set_algebra.hpp"

namespace redisson::detail {

struct ObjectState;

/// Throws errc::invalid_argument, naming `verb`, for a negative `limit`, a store form with no
/// named sets, or (on a Cluster) a named set outside the object's hash slot.
void check_set_algebra(const ObjectState& object, SetAlgebra operation, std::string_view verb,
                       const std::vector<std::string>& names, std::int64_t limit);

}  // namespace redisson::detail

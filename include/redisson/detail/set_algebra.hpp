// detail::SetAlgebra: the set algebra Set and SetCache offer (union, intersection, diff; stored,
// read or counted), named once for both.
#pragma once

namespace redisson::detail {

/// Store into the set itself (from the named sets only, as Redisson), read, or count.
enum class SetAlgebra {
  union_store,
  union_read,
  intersection_store,
  intersection_read,
  intersection_count,
  diff_store,
  diff_read
};

/// True for the forms that replace the set with their result.
constexpr bool set_algebra_stores(SetAlgebra operation) {
  return operation == SetAlgebra::union_store || operation == SetAlgebra::intersection_store ||
         operation == SetAlgebra::diff_store;
}

}  // namespace redisson::detail

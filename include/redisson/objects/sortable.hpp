// redisson::Sortable: SORT over a collection (Java Redisson's RSortable: readSort,
// readSortAlpha, sortTo), shared by Set, List and ScoredSortedSet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redisson/detail/object_op.hpp"

namespace redisson {

enum class SortOrder { ascending, descending };

/// What SORT does: Java's readSort/readSortAlpha/sortTo parameters in one struct.
struct SortOptions {
  SortOrder order = SortOrder::ascending;
  /// Compare as text (ALPHA; Java's readSortAlpha) instead of as numbers: members that are not
  /// numbers need it, or the server refuses (server_error).
  bool alpha = false;
  /// BY pattern: sort by the values of other keys ("weight_*", the member in place of *);
  /// "nosort" keeps the collection's order. Empty: by the members themselves.
  std::string by{};
  /// GET patterns: answer the values of other keys instead of the members ("#": the member).
  std::vector<std::string> get{};
  /// LIMIT offset count: skip `offset`, answer at most `count` (-1: all).
  std::int64_t offset = 0;
  std::int64_t count = -1;
};

namespace detail {
/// SORT_RO (no destination) or SORT ... STORE destination, with `options` (invalid_argument for
/// a negative offset or a count below -1, before anything is sent).
void start_sort(const ObjectPtr& object, const SortOptions& options, const std::string& destination,
                Done<Reply>& done);
}  // namespace detail

/// SORT over the collection's members (decoded with its codec). With `get` patterns the answer
/// is those keys' values, read with the same codec; keys that do not exist are left out. BY and
/// GET patterns read other keys: on a Cluster the server allows them only within the
/// collection's hash slot.
template <class Derived, class Value>
class Sortable {
 public:
  template <class CompletionToken>
  auto async_read_sort(SortOptions options, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_sort_to(std::string destination, SortOptions options, CompletionToken&& token) const;

  /// The members sorted (SORT_RO); nothing is written.
  std::vector<Value> read_sort(SortOptions options = {}) const;
  /// Sorts into the list `destination`, replacing it (SORT ... STORE); returns its size.
  std::int64_t sort_to(std::string destination, SortOptions options = {}) const;

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/sortable.hpp"

// SORT and SORT_RO for the Sortable collections (objects/sortable.hpp): the arguments in
// Redisson's order (BY, LIMIT, GET..., ASC/DESC, ALPHA, STORE).
#include "redisson/objects/sortable.hpp"

#include "objects/send.hpp"

namespace redisson::detail {

void start_sort(const ObjectPtr& object, const SortOptions& options, const std::string& destination,
                Done<Reply>& done) {
  if (options.offset < 0) throw_invalid_argument("sort: the offset must not be negative");
  if (options.count < -1) throw_invalid_argument("sort: the count must be -1 (all) or more");
  // SORT_RO is SORT without STORE, allowed on replicas and in read-only scripts.
  Command command{destination.empty() ? "SORT_RO" : "SORT", object->name};
  if (!options.by.empty()) command.arg("BY").arg(options.by);
  if (options.offset != 0 || options.count != -1) {
    command.arg("LIMIT").arg(options.offset).arg(options.count);
  }
  for (const auto& pattern : options.get) command.arg("GET").arg(pattern);
  command.arg(options.order == SortOrder::descending ? "DESC" : "ASC");
  if (options.alpha) command.arg("ALPHA");
  if (!destination.empty()) command.arg("STORE").key(destination);
  submit_command(object, command, std::move(done));
}

}  // namespace redisson::detail

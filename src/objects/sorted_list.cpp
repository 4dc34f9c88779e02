// The .cpp side of the sorted lists (objects/sorted_list.hpp): PriorityQueue and its kin,
// SortedSet.
#include "redisson/objects/sorted_list.hpp"

#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "sync/names.hpp"

namespace redisson::detail {

namespace {

std::vector<std::string> sorted_list_suffixed_keys(const std::string& name) {
  return {sorted_list_comparator_key(name, ComparatorKey::suffixed)};
}

std::vector<std::string> sorted_list_prefixed_keys(const std::string& name) {
  return {sorted_list_comparator_key(name, ComparatorKey::prefixed)};
}

const ObjectHooks sorted_list_suffixed_hooks{.extra_keys = &sorted_list_suffixed_keys};
const ObjectHooks sorted_list_prefixed_hooks{.extra_keys = &sorted_list_prefixed_keys};

}  // namespace

std::string sorted_list_lock_name(const std::string& name) {
  return prefix_name("redisson_sortedset_lock", name);
}

std::string sorted_list_comparator_key(const std::string& name, ComparatorKey layout) {
  return layout == ComparatorKey::suffixed ? suffix_name(name, "redisson_sortedset_comparator")
                                           : prefix_name("redisson_sortedset_comparator", name);
}

const ObjectHooks* sorted_list_hooks(ComparatorKey layout) {
  return layout == ComparatorKey::suffixed ? &sorted_list_suffixed_hooks
                                           : &sorted_list_prefixed_hooks;
}

void start_sorted_list_insert(const ObjectPtr& object, std::int64_t index,
                              const std::string& element, Done<Reply>& done) {
  eval_reply(*object,
             lua::sorted_list_insert(std::vector<std::string>{object->name},
                                     std::vector<std::string>{std::to_string(index), element}),
             std::move(done));
}

void start_sorted_list_try_set_comparator(const ObjectPtr& object, const std::string& key,
                                          const std::string& comparator, Done<Reply>& done) {
  eval_reply(*object,
             lua::sorted_list_try_set_comparator(std::vector<std::string>{object->name, key},
                                                 std::vector<std::string>{comparator}),
             std::move(done));
}

}  // namespace redisson::detail

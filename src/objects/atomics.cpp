// The scripts of AtomicLong and AtomicDouble.
#include "codec/plain_decimal.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/objects/atomic_double.hpp"
#include "redisson/objects/atomic_long.hpp"

namespace redisson::detail {

void start_atomic_long_compare_and_set(const ObjectPtr& object, std::int64_t expect,
                                       std::int64_t update, Done<Reply>& done) {
  eval_reply(*object, lua::atomic_long_compare_and_set({object->name}, {expect, update}),
             std::move(done));
}

std::string plain_decimal_argument(double x) { return java_plain_decimal(x); }

void start_atomic_set_if(const ObjectPtr& object, bool greater, const std::string& threshold,
                         const std::string& value, Done<Reply>& done) {
  eval_reply(*object,
             lua::atomic_set_if({object->name}, {greater ? "greater" : "less", threshold, value}),
             std::move(done));
}

void start_atomic_double_compare_and_set(const ObjectPtr& object, double expect, double update,
                                         Done<Reply>& done) {
  const auto expected = java_plain_decimal(expect);
  const auto replacement = java_plain_decimal(update);
  eval_reply(*object, lua::atomic_double_compare_and_set({object->name}, {expected, replacement}),
             std::move(done));
}

void start_atomic_double_get_and_add(const ObjectPtr& object, double delta, Done<Reply>& done) {
  const auto text = java_plain_decimal(delta);
  eval_reply(*object, lua::atomic_double_get_and_add({object->name}, {text}), std::move(done));
}

}  // namespace redisson::detail

// redisson::detail::SortedList<T, Compare>: what PriorityQueue, PriorityDeque, their blocking
// forms and SortedSet share: one Redis list kept sorted under Redisson's RLock
// `redisson_sortedset_lock:{name}`, with Redisson's comparator key beside it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/blocking_op.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/error.hpp"
#include "redisson/lock.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/list.hpp"
#include "redisson/objects/list_base.hpp"

namespace redisson::detail {

/// Where each type keeps its comparator's name (Redisson names them differently).
enum class ComparatorKey {
  suffixed,  ///< RPriorityQueue/Deque: `{name}:redisson_sortedset_comparator`
  prefixed,  ///< RSortedSet: `redisson_sortedset_comparator:{name}`
};

/// `redisson_sortedset_lock:{name}`: the RLock every writer of a sorted list holds.
std::string sorted_list_lock_name(const std::string& name);
/// The comparator key of `name` in the `layout` of its type.
std::string sorted_list_comparator_key(const std::string& name, ComparatorKey layout);
/// The hooks of each layout: delete_object() and expire() act on the comparator key too.
const ObjectHooks* sorted_list_hooks(ComparatorKey layout);
/// sorted_list_insert.lua: `element` at `index` (the caller holds the lock); the new length.
void start_sorted_list_insert(const ObjectPtr& object, std::int64_t index,
                              const std::string& element, Done<Reply>& done);
/// What a waiting take does at a sorted list: pops its least element (`last`: its greatest) or,
/// with a `destination`, moves its greatest element to the head of that list.
struct SortedListTake {
  bool last = false;
  std::string destination;
};
/// Takes as `take` says while no writer holds the list's lock, trying again on the lock's release
/// channel until an element came or `wait` passed (nullopt: no end); completes with the element's
/// reply, or a null reply at the deadline. Refused in a batch. (src/objects/sorted_list_take.cpp)
void start_sorted_list_take(const ObjectPtr& object, SortedListTake take,
                            std::optional<std::chrono::milliseconds> wait,
                            const CancellationPtr& cancel, Done<Reply> done);
/// sorted_list_try_set_comparator.lua: sets the comparator key only while the list is empty.
void start_sorted_list_try_set_comparator(const ObjectPtr& object, const std::string& key,
                                          const std::string& comparator, Done<Reply>& done);

/// The sorted list. Elements are ordered by `Compare` on the decoded values (Java orders them
/// by its comparator, by default the natural order): a C++ and a Java process share one list
/// when both orders agree (std::less on integers and strings is Java's natural order).
///
/// Concurrency, as Redisson: every write holds the RLock `redisson_sortedset_lock:{name}` (our
/// Lock, the same hash layout and release channel as Java's RLock), so Java and C++ writers take
/// turns. An insert cannot be one script: the order is the C++ `Compare` on decoded values,
/// which the server cannot run, so the position is found by a binary search (LINDEX) under the
/// lock and the element put there by sorted_list_insert.lua, still under the lock. A script
/// that skipped the lock would race with a Java writer between its search and its insert.
/// Reads (get, size, range, read_all, values, index_of, contains) take no lock, as in Redisson.
///
/// The comparator key holds the name of the order (Java: "<comparator class>:<signature>");
/// it is only read by writes: when it is set and its class part differs from this handle's
/// `comparator_name`, the write fails with errc::invalid_argument and changes nothing (Java
/// would load that class; C++ cannot, so it refuses rather than break the order).
///
/// Cost: a write is a lock and an unlock script, a GET of the comparator key, LLEN and
/// log2(n) LINDEX, and one script; a pop a LLEN, then the lock, the pop and the unlock. The
/// writes are blocking calls only (each is several dependent round trips under a lock).
template <JavaValue T, class Compare>
class SortedList : public ListBase<T> {
  using Base = ListBase<T>;

 public:
  using value_compare = Compare;

  /// The comparator's name stored in Redis (Java: "<class>:<signature>"); nullopt when unset
  /// (natural order).
  std::optional<std::string> comparator() const { return comparator_holder_.get(); }
  /// The Compare this handle orders by.
  const Compare& value_comp() const noexcept { return compare_; }

  /// Removes the first element the Compare finds equal to `value` (a binary search under the
  /// lock); true if there was one.
  bool remove(const T& value) {
    std::lock_guard<Lock> guard(lock_);
    check_comparator();
    const auto found = search(value);
    if (found < 0) return false;
    list_.remove_at(found);
    return true;
  }
  /// remove(value) for each of `values`; true if any was removed.
  bool remove_all(const std::vector<T>& values) {
    bool changed = false;
    for (const auto& value : values) changed = remove(value) || changed;
    return changed;
  }
  /// Refused (errc::not_supported, nothing sent): the handle's lock, comparator key and
  /// release channel are named after the list when it is made, and another name would leave
  /// them behind (Java's rename leaves the comparator key behind too). Copy or make a new
  /// handle instead.
  void rename(const std::string& new_name) { refuse_rename("rename", new_name); }
  /// Refused as rename().
  bool renamenx(const std::string& new_name) {
    refuse_rename("renamenx", new_name);
    return false;
  }
  /// Keeps only the elements equal (as bytes) to one of `values` (none: deletes the list, as
  /// Redisson); true if an element was removed. One script under the lock.
  bool retain_all(std::vector<T> values) {
    std::lock_guard<Lock> guard(lock_);
    return Base::async_retain_all(std::move(values), this->blocking("retain_all"));
  }

 protected:
  SortedList(const Client& client, std::string name, CodecPtr codec, const char* kind,
             ComparatorKey layout, Compare compare, std::string comparator_name)
      : Base(client, name, std::move(codec), kind, sorted_list_hooks(layout)),
        compare_(std::move(compare)),
        comparator_name_(std::move(comparator_name)),
        lock_(client, sorted_list_lock_name(name)),
        comparator_holder_(client, sorted_list_comparator_key(name, layout), codecs::string()),
        list_(client, name, this->codec_ptr()) {}

  /// Inserts `value` at its place: after the elements it does not precede (Java's position, so
  /// both write the same bytes in the same order). `unique`: not when an equal one is there
  /// (SortedSet). True if it was inserted.
  bool insert(const T& value, bool unique) {
    std::lock_guard<Lock> guard(lock_);
    check_comparator();
    auto found = search(value);
    if (found >= 0 && unique) return false;
    const auto index = found >= 0 ? found + 1 : -(found + 1);
    this->template started<void>(this->blocking("add"), &reply_ignore, &start_sorted_list_insert,
                                 index, this->encoded(value));
    return true;
  }
  /// insert() for each value in turn; true if any was inserted.
  bool insert_all(const std::vector<T>& values, bool unique) {
    bool changed = false;
    for (const auto& value : values) changed = insert(value, unique) || changed;
    return changed;
  }

  /// The index of an element the Compare finds equal to `value`, or -(insertion point) - 1.
  std::int64_t search(const T& value) const {
    std::int64_t low = 0;
    std::int64_t high = this->size() - 1;
    while (low <= high) {
      const auto middle = low + (high - low) / 2;
      auto at = this->get(middle);
      if (!at) break;  // shrunk under us: only a writer that skips the lock does that
      if (compare_(value, *at)) {
        high = middle - 1;
      } else if (compare_(*at, value)) {
        low = middle + 1;
      } else {
        return middle;
      }
    }
    return -(low + 1);
  }

  /// An end taken under the lock (`verb` LPOP or RPOP); nothing locked when it is empty.
  std::optional<T> locked_pop(const char* verb, const char* operation) {
    if (this->size() == 0) return std::nullopt;
    std::lock_guard<Lock> guard(lock_);
    return this->template on_key<std::optional<T>>(this->blocking(operation),
                                                   this->template value_reader<T>(), verb);
  }
  /// Up to `count` (>= 1) elements from one end, under the lock.
  std::vector<T> locked_pop(const char* verb, std::int64_t count, const char* operation) {
    if (count < 1) {
      throw error(errc::invalid_argument,
                  std::string(this->object_->kind) + " " + operation + ": count must be >= 1");
    }
    if (this->size() == 0) return {};
    std::lock_guard<Lock> guard(lock_);
    return this->template on_key<std::vector<T>>(this->blocking(operation),
                                                 this->template values_reader<T>(), verb, count);
  }
  /// RPOPLPUSH to `destination` under the lock.
  std::optional<T> locked_move_last(const std::string& destination) {
    if (this->size() == 0) return std::nullopt;
    std::lock_guard<Lock> guard(lock_);
    return this->template on_key<std::optional<T>>(this->blocking("poll_last_and_offer_first_to"),
                                                   this->template value_reader<T>(), "RPOPLPUSH",
                                                   destination);
  }

  /// LMOVE to `destination` (`from`, `to`: LEFT or RIGHT) under the lock.
  std::optional<T> locked_move(const std::string& destination, const char* from, const char* to,
                               const char* operation) {
    if (this->size() == 0) return std::nullopt;
    std::lock_guard<Lock> guard(lock_);
    return this->template on_key<std::optional<T>>(this->blocking(operation),
                                                   this->template value_reader<T>(), "LMOVE",
                                                   destination, from, to);
  }

  /// Waits up to `wait` (nullopt: without end) for an element to take as `take` says
  /// (start_sorted_list_take: a try, then another on each release of the list's lock). R is
  /// std::optional<T> (nullopt: none came in time) or T (no wait limit). A negative wait is
  /// errc::invalid_argument, nothing sent.
  template <class R, class CompletionToken>
  auto waited(CompletionToken&& token, SortedListTake take,
              std::optional<std::chrono::milliseconds> wait, const char* operation) {
    return async_op<R>(
        this->object_->core, token,
        [object = this->object_, take = std::move(take), wait, operation](
            Done<R> done, CancellationPtr cancel) mutable {
          try {
            if (wait) (void)checked_wait(*wait, operation);
          } catch (const error& failure) {
            return fail<R>(done, status_of_error(failure));
          }
          start_sorted_list_take(object, std::move(take), wait, cancel,
                                 [done = std::move(done), codec = object->codec](
                                     Status status, const Reply& reply) mutable {
                                   auto convert = [&codec](const Reply& taken) -> R {
                                     auto value = decode_reply<T>(*codec, taken);
                                     if constexpr (std::is_same_v<R, T>) {
                                       if (!value) throw_unexpected_reply("an element", taken);
                                       return std::move(*value);
                                     } else {
                                       return value;
                                     }
                                   };
                                   complete_converted<R>(done, std::move(status), reply, convert);
                                 });
        },
        this->object_->batch != nullptr);
  }

  Compare compare_;
  std::string comparator_name_;
  Lock lock_;

 private:
  [[noreturn]] void refuse_rename(const char* operation, const std::string& new_name) const {
    throw error(errc::not_supported, std::string(this->object_->kind) + " " + operation + " " +
                                         this->name() + " -> " + new_name +
                                         ": a sorted list keeps the name it was made with");
  }
  /// Java's checkComparator: the stored order must be this handle's.
  void check_comparator() const {
    auto stored = comparator_holder_.get();
    if (!stored) return;
    const auto class_of = [](std::string_view sign) { return sign.substr(0, sign.find(':')); };
    if (comparator_name_.empty() || class_of(*stored) != class_of(comparator_name_)) {
      throw error(errc::invalid_argument,
                  std::string(this->object_->kind) + " " + this->name() +
                      ": the list is ordered by the comparator \"" + *stored +
                      "\", this handle by \"" +
                      (comparator_name_.empty() ? std::string("natural order") : comparator_name_) +
                      "\" (pass that comparator name to the handle)");
    }
  }

 protected:
  Bucket<std::string> comparator_holder_;
  List<T> list_;
};

}  // namespace redisson::detail

// The types on one Redis list keep their promises at compile time: a List's positional writes
// (set at an index, insert before/after, remove at an index, trim) exist on List only, so a
// RingBuffer cannot grow past its capacity and a queue keeps its order; a RingBuffer adds only
// through its capacity-keeping script (no plain RPUSH). Each concept is checked on List too, so
// a misspelt concept cannot pass by never matching anything.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "redisson/objects/blocking_queue.hpp"
#include "redisson/objects/bounded_blocking_queue.hpp"
#include "redisson/objects/deque.hpp"
#include "redisson/objects/list.hpp"
#include "redisson/objects/queue.hpp"
#include "redisson/objects/ring_buffer.hpp"

namespace unit_objects_list_shapes_test {

namespace {

using redisson::BlockingDeque;
using redisson::BlockingQueue;
using redisson::BoundedBlockingQueue;
using redisson::Deque;
using redisson::List;
using redisson::Queue;
using redisson::RingBuffer;

template <class C>
concept HasInsert = requires(C& c, const std::string& v) {
  c.insert_before(v, v);
}
|| requires(C& c, const std::string& v) { c.insert_after(v, v); };

template <class C>
concept HasSetAtIndex = requires(C& c, const std::string& v) {
  c.set(std::int64_t{0}, v);
}
|| requires(C& c, const std::string& v) { c.fast_set(std::int64_t{0}, v); };

template <class C>
concept HasRemoveAt = requires(C& c) {
  c.remove_at(std::int64_t{0});
};

template <class C>
concept HasTrim = requires(C& c) {
  c.trim(std::int64_t{0}, std::int64_t{1});
};

template <class C>
concept HasPositionalWrite = HasInsert<C> || HasSetAtIndex<C> || HasRemoveAt<C> || HasTrim<C>;

template <class C>
concept HasAsyncPositionalWrite = requires(C& c, const std::string& v) {
  c.async_insert_before(v, v, [](auto...) {});
}
|| requires(C& c, const std::string& v) {
  c.async_set(std::int64_t{0}, v, [](auto...) {});
};

// The shared reads every one of them keeps.
template <class C>
concept ReadsAsAList = requires(const C& c, const std::string& v) {
  c.get(std::int64_t{0});
  c.size();
  c.range(std::int64_t{0}, std::int64_t{-1});
  c.index_of(v);
  c.contains(v);
  c.values();
}
&&requires(C& c, const std::string& v) { c.remove(v); };

// A RingBuffer adds only through its own capacity-keeping script: its add, add_all and offer
// are members of RingBuffer itself, not the plain RPUSH of ListBase or Queue.
using Ring = RingBuffer<std::string>;
static_assert(std::is_same_v<decltype(&Ring::add), std::int64_t (Ring::*)(const std::string&)>);
static_assert(std::is_same_v<decltype(&Ring::offer), std::int64_t (Ring::*)(const std::string&)>);
static_assert(std::is_same_v<decltype(&Ring::add_all),
                             std::int64_t (Ring::*)(const std::vector<std::string>&)>);
// ...whereas a Queue's add is the shared RPUSH (the check above can tell them apart).
static_assert(!std::is_same_v<decltype(&Queue<std::string>::add),
                              std::int64_t (Queue<std::string>::*)(const std::string&)>);

static_assert(HasInsert<List<std::string>>);
static_assert(HasSetAtIndex<List<std::string>>);
static_assert(HasRemoveAt<List<std::string>>);
static_assert(HasTrim<List<std::string>>);
static_assert(HasAsyncPositionalWrite<List<std::string>>);

static_assert(!HasPositionalWrite<Queue<std::string>>);
static_assert(!HasPositionalWrite<Deque<std::string>>);
static_assert(!HasPositionalWrite<RingBuffer<std::string>>);
static_assert(!HasPositionalWrite<BlockingQueue<std::string>>);
static_assert(!HasPositionalWrite<BlockingDeque<std::string>>);
static_assert(!HasAsyncPositionalWrite<Queue<std::string>>);
static_assert(!HasAsyncPositionalWrite<Deque<std::string>>);
static_assert(!HasAsyncPositionalWrite<RingBuffer<std::string>>);

static_assert(ReadsAsAList<List<std::string>>);
static_assert(ReadsAsAList<Queue<std::string>>);
static_assert(ReadsAsAList<Deque<std::string>>);
static_assert(ReadsAsAList<RingBuffer<std::string>>);

// A BoundedBlockingQueue adds only through its capacity-taking script, and removes by value only
// through the script that gives the places back: its add_all and remove are its own members,
// hiding ListBase's RPUSH and LREM (which would leave the capacity key wrong).
using Bounded = BoundedBlockingQueue<std::string>;
static_assert(!HasPositionalWrite<Bounded>);
static_assert(!HasAsyncPositionalWrite<Bounded>);
static_assert(ReadsAsAList<Bounded>);
static_assert(
    std::is_same_v<decltype(&Bounded::add_all), bool (Bounded::*)(std::vector<std::string>)>);
static_assert(std::is_same_v<decltype(&Bounded::remove), bool (Bounded::*)(const std::string&)>);
static_assert(!std::is_convertible_v<Bounded&, Queue<std::string>&>);

// No one of them is a List: a function taking a List& cannot be handed a queue.
static_assert(!std::is_base_of_v<List<std::string>, Queue<std::string>>);
static_assert(!std::is_base_of_v<List<std::string>, RingBuffer<std::string>>);
static_assert(!std::is_convertible_v<RingBuffer<std::string>&, Queue<std::string>&>);

}  // namespace

}  // namespace unit_objects_list_shapes_test

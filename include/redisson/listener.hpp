// What listeners share, whatever they listen to: their id (from add_listener, for
// remove_listener) and the events an object's listener can hear (Redisson's ObjectListener
// kinds: DeletedObjectListener, SetAddListener, ListTrimListener, ...).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace redisson {

/// A listener's id on its client (from add_listener, for remove_listener). Topic (plain,
/// pattern, sharded) and object listeners share one registry: remove_listener on any such
/// handle of the client removes it.
using ListenerId = std::uint64_t;

/// What happened to an object's key, as the server announces it (keyspace notifications,
/// `__keyevent@<db>__:<event>`). Which events a type hears is Redisson's choice for that type;
/// another one is refused (errc::invalid_argument, nothing subscribed). A Geo hears what a
/// ScoredSortedSet hears (GEOADD is announced as zadd):
///
/// | event | types (Redis event) |
/// |---|---|
/// | deleted, expired | every object, lock and synchronizer (del, expired) |
/// | created | Keys only: any key made (new) |
/// | set | Bucket, BinaryStream, AtomicLong, AtomicDouble, Keys (set); List and its queues (lset) |
/// | incremented | AtomicLong (incrby), AtomicDouble (incrbyfloat), ScoredSortedSet (zincr), Map
/// (hincrbyfloat) | | put | Map, MapCache (hset) | | added | List, Queue, Deque, RingBuffer,
/// blocking queues (rpush); Set (sadd); ScoredSortedSet, LexSortedSet, SetCache, TimeSeries (zadd);
/// Stream (xadd); SetMultimap (sadd), ListMultimap (rpush) on a values key | | added_first | Deque,
/// BlockingDeque (lpush) | | inserted | List and its queues (linsert) | | removed | List and its
/// queues (lrem); Set (srem); sorted sets, SetCache, TimeSeries (zrem); Map, MapCache (hdel);
/// Stream (xdel); the multimaps on a values key | | removed_random | Set (spop) | | trimmed | List
/// and its queues (ltrim); Stream (xtrim) | | union_stored, intersection_stored, diff_stored | Set
/// (sunionstore, ...), ScoredSortedSet, LexSortedSet (zunionstore, ...) | | group_created,
/// group_removed, consumer_created, consumer_removed | Stream (xgroup-create, xgroup-destroy,
/// xgroup-createconsumer, xgroup-delconsumer) |
enum class ObjectEvent {
  deleted,
  expired,
  created,
  set,
  incremented,
  put,
  added,
  added_first,
  inserted,
  removed,
  removed_random,
  trimmed,
  union_stored,
  intersection_stored,
  diff_stored,
  group_created,
  group_removed,
  consumer_created,
  consumer_removed,
};

/// An object listener: called with the key the event happened on (the object's name; a
/// multimap's values key; for Keys, any key). It runs on the client's listener threads, as a
/// topic listener does: one listener's calls in order, one at a time; an exception it throws
/// goes to Config::error_handler.
using KeyListener = std::function<void(std::string_view key)>;

}  // namespace redisson

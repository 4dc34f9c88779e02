// The cache behind ClientSideCaching (redisson/services/client_side_caching.hpp): read replies
// kept by their exact command, dropped when the server's tracking says their key changed.
//
// Reads are sent on tracked connections of the tracker's own, one per master, each RESP3 with
// CLIENT TRACKING on (default mode: the server remembers the keys read on that connection and
// pushes `invalidate` once one changes). A reply and the invalidations that follow it arrive
// on one connection, in order, and both are handled on the I/O thread in that order: a reply
// is stored before any later invalidation of its key is applied, so no stale reply survives.
// A read is cached only if its connection was tracking when it was sent and has not been lost
// since; a lost connection drops everything it read (the server's tracking table is gone).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "redisson/command.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/reply.hpp"
#include "redisson/services/client_side_caching.hpp"

namespace redisson::detail {

class ClientCore;
class Connection;

class ReadTracker : public std::enable_shared_from_this<ReadTracker> {
 public:
  using Clock = std::chrono::steady_clock;

  ReadTracker(std::shared_ptr<ClientCore> core, ClientSideCachingOptions options);
  ~ReadTracker();

  /// An object's command: a read answered from the cache or read and remembered; anything
  /// else sent as the client sends it. Any thread.
  void submit(const Command& command, ReplyHandler handler);

  /// A write of `key` through an object of this cache was answered: its replies go, and a read
  /// of it sent before is not remembered (read-your-writes, without waiting for the server's
  /// push on the tracked connection). Any thread.
  void wrote(std::string_view key);

  ClientSideCacheStats stats() const;
  void clear();

  /// Whether `verb` is a read whose reply depends on its key's content only (GET, HGET, ...).
  static bool cacheable(std::string_view verb);

 private:
  struct Tracked;  // one tracked connection and its state (I/O thread)
  struct Entry {
    Reply reply;
    std::string key;
    std::uint64_t connection = 0;  // which Tracked read it
    Clock::time_point stored;
    Clock::time_point used;
    std::uint64_t uses = 0;
    std::uint64_t order = 0;  // the eviction index's key for this entry
  };

  /// The tracked connection of the master serving `key`, made on first use. I/O thread.
  std::shared_ptr<Tracked> tracked_for(std::string_view key);
  void send(const Command& command, std::string cache_key, std::string key, ReplyHandler handler);
  static std::size_t stripe_of(std::string_view key);
  void on_push(std::uint64_t connection, const Reply& push);
  void on_state(const std::shared_ptr<Tracked>& tracked, bool ready);
  /// Sends CLIENT TRACKING ON; its answer marks the connection tracking (I/O thread).
  void enable_tracking(const std::shared_ptr<Tracked>& tracked);
  /// Under the mutex.
  void store(std::string cache_key, std::string key, std::uint64_t connection, const Reply& reply);
  void erase_entry(std::unordered_map<std::string, Entry>::iterator entry);
  void drop_key(std::string_view key);
  void drop_connection(std::uint64_t connection);
  bool expired(const Entry& entry, Clock::time_point now) const;
  /// The entry's place in the eviction order, from a new tick (under the mutex).
  std::uint64_t rank(const Entry& entry);

  std::shared_ptr<ClientCore> core_;
  const ClientSideCachingOptions options_;
  // I/O thread only.
  std::map<std::string, std::shared_ptr<Tracked>> connections_;  // by "host:port"
  std::uint64_t next_connection_ = 1;
  bool refused_reported_ = false;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;            // by command bytes
  std::unordered_multimap<std::string, std::string> by_key_;  // key -> command bytes
  std::set<std::pair<std::uint64_t, std::string>> eviction_;  // (rank, command bytes)
  std::uint64_t tick_ = 0;
  // Bumped by wrote(): a read stores its reply only if its key's stripe did not move meanwhile.
  std::array<std::uint64_t, 64> write_epochs_{};
  ClientSideCacheStats stats_;
};

}  // namespace redisson::detail

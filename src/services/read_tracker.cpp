#include "services/read_tracker.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <utility>
#include <vector>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "client/client_services.hpp"
#include "client/failure_report.hpp"
#include "net/connection.hpp"
#include "redisson/error.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

namespace {

// Reads whose reply depends on their key's content alone, so the key's invalidation covers
// them. Not here: anything reading the clock (TTL, PTTL, OBJECT IDLETIME), random picks
// (SRANDMEMBER, HRANDFIELD), cursors (SCAN family), and commands on several keys.
constexpr std::array<std::string_view, 44> kCacheableReads = {
    "BITCOUNT",    "BITPOS",        "EXISTS", "GEODIST",   "GEOHASH",        "GEOPOS",
    "GEOSEARCH",   "GET",           "GETBIT", "GETRANGE",  "HEXISTS",        "HGET",
    "HGETALL",     "HKEYS",         "HLEN",   "HMGET",     "HSTRLEN",        "HVALS",
    "LINDEX",      "LLEN",          "LPOS",   "LRANGE",    "SCARD",          "SISMEMBER",
    "SMEMBERS",    "SMISMEMBER",    "STRLEN", "TYPE",      "XLEN",           "XRANGE",
    "XREVRANGE",   "ZCARD",         "ZCOUNT", "ZLEXCOUNT", "ZMSCORE",        "ZRANGE",
    "ZRANGEBYLEX", "ZRANGEBYSCORE", "ZRANK",  "ZREVRANGE", "ZREVRANGEBYLEX", "ZREVRANGEBYSCORE",
    "ZREVRANK",    "ZSCORE"};

bool same_verb(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == y;
         });
}

// The trackers of one client: their connections are closed when the client closes (an open
// socket would keep its I/O thread running).
class ReadTrackers : public ClientService {
 public:
  explicit ReadTrackers(ClientCore&) {}
  void add(std::function<void()> close) {
    std::lock_guard lock(mutex_);
    closers_.push_back(std::move(close));
  }
  void closing() noexcept override {
    std::vector<std::function<void()>> closers;
    {
      std::lock_guard lock(mutex_);
      closers.swap(closers_);
    }
    for (auto& close : closers) {
      try {
        close();
      } catch (...) {
        // Closing a socket that is gone: nothing to do.
      }
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::function<void()>> closers_;
};

}  // namespace

struct ReadTracker::Tracked {
  std::uint64_t id = 0;
  std::shared_ptr<Connection> connection;
  bool tracking = false;         // CLIENT TRACKING ON answered since the last (re)connect
  std::uint64_t generation = 0;  // bumped on every loss of the connection
};

ReadTracker::ReadTracker(std::shared_ptr<ClientCore> core, ClientSideCachingOptions options)
    : core_(std::move(core)), options_(options) {
  using Policy = ClientSideCachingOptions::EvictionPolicy;
  if (options_.eviction_policy != Policy::none && options_.size == 0) {
    throw error(errc::invalid_argument, "ClientSideCaching: an lru or lfu policy needs a size");
  }
  if (options_.time_to_live.count() < 0 || options_.max_idle.count() < 0) {
    throw error(errc::invalid_argument, "ClientSideCaching: a negative time to live or max idle");
  }
}

ReadTracker::~ReadTracker() {
  // Nothing else refers to the connections now; they are closed on the I/O thread.
  auto connections = std::move(connections_);
  if (connections.empty()) return;
  core_->run_on_io([connections = std::move(connections)] {
    for (const auto& [address, tracked] : connections) tracked->connection->close();
  });
}

bool ReadTracker::cacheable(std::string_view verb) {
  return std::any_of(kCacheableReads.begin(), kCacheableReads.end(),
                     [verb](std::string_view read) { return same_verb(verb, read); });
}

void ReadTracker::submit(const Command& command, ReplyHandler handler) {
  const auto key = command.routing_key();
  if (!key) return core_->submit(command, std::move(handler));
  // A read of several keys (EXISTS a b) is not cached: one key's invalidation would not reach it.
  const bool several_keys = same_verb(command.name(), "EXISTS") && command.size() != 2;
  if (several_keys || !cacheable(command.name())) {
    // A write (or a read not cached): its answer drops what this cache read of the key.
    return core_->submit(
        command, [self = shared_from_this(), key = std::string(*key), handler = std::move(handler)](
                     std::error_code ec, Reply reply) mutable {
          self->wrote(key);
          handler(ec, std::move(reply));
        });
  }
  std::string cache_key(command.encoded_arguments());
  {
    std::unique_lock lock(mutex_);
    const auto found = entries_.find(cache_key);
    const auto now = Clock::now();
    if (found != entries_.end()) {
      if (!expired(found->second, now)) {
        auto& entry = found->second;
        eviction_.erase({entry.order, found->first});
        entry.used = now;
        ++entry.uses;
        entry.order = rank(entry);
        eviction_.emplace(entry.order, found->first);
        ++stats_.hits;
        Reply reply = entry.reply;
        lock.unlock();
        return handler({}, std::move(reply));
      }
      erase_entry(found);
    }
    ++stats_.misses;
  }
  // run_on_io takes a copyable function; the handler is move-only.
  auto shared = std::make_shared<ReplyHandler>(std::move(handler));
  core_->run_on_io([self = shared_from_this(), command = Command(command),
                    cache_key = std::move(cache_key), key = std::string(*key), shared]() mutable {
    self->send(command, std::move(cache_key), std::move(key), std::move(*shared));
  });
}

void ReadTracker::send(const Command& command, std::string cache_key, std::string key,
                       ReplyHandler handler) {
  auto tracked = tracked_for(key);
  if (!tracked) return core_->submit(command, std::move(handler));
  // Sent on the tracked connection even before its tracking is confirmed: the reply is kept
  // only if CLIENT TRACKING ON was answered first (replies come in order), so a read sent
  // before it (a connection just made or just back) is answered and not remembered.
  const auto deadline = Clock::now() + core_->config().command_timeout;
  std::weak_ptr<ReadTracker> weak = weak_from_this();
  const auto stripe = stripe_of(key);
  std::uint64_t epoch = 0;
  {
    std::lock_guard lock(mutex_);
    epoch = write_epochs_[stripe];
  }
  tracked->connection->submit(
      command, deadline,
      [weak, tracked, generation = tracked->generation, stripe, epoch,
       cache_key = std::move(cache_key), key = std::move(key), command = Command(command),
       handler = std::move(handler)](std::error_code ec, Reply reply) mutable {
        auto self = weak.lock();
        if (self && !ec && reply.is_error()) {
          const auto& text = reply.str;
          if (text.starts_with("MOVED ") || text.starts_with("ASK ")) {
            // The slot moved: the client follows the redirection; this connection is left
            // for the keys its node still serves.
            return self->core_->submit(command, std::move(handler));
          }
        }
        if (self && !ec && !reply.is_error() && tracked->tracking &&
            tracked->generation == generation) {
          std::lock_guard lock(self->mutex_);
          if (self->write_epochs_[stripe] == epoch) {
            self->store(std::move(cache_key), std::move(key), tracked->id, reply);
          }
        }
        handler(ec, std::move(reply));
      });
}

std::shared_ptr<ReadTracker::Tracked> ReadTracker::tracked_for(std::string_view key) {
  const auto data = core_->router().connection_for(key);
  if (!data) return nullptr;
  const auto& server = data->server();
  const auto address = server.host + ":" + std::to_string(server.port);
  if (const auto found = connections_.find(address); found != connections_.end()) {
    return found->second;
  }
  auto options = connection_options(core_->config(), core_->config().client_name + ":tracking");
  options.server = server;
  options.resp3 = true;
  auto tracked = std::make_shared<Tracked>();
  tracked->id = next_connection_++;
  tracked->connection = std::make_shared<Connection>(core_->io(), std::move(options));
  std::weak_ptr<ReadTracker> weak = weak_from_this();
  std::weak_ptr<Tracked> weak_tracked = tracked;
  tracked->connection->set_push_handler([weak, id = tracked->id](Reply&& push) {
    if (auto self = weak.lock()) self->on_push(id, push);
  });
  tracked->connection->set_state_handler([weak, weak_tracked](bool ready) {
    auto self = weak.lock();
    auto tracked = weak_tracked.lock();
    if (self && tracked) self->on_state(tracked, ready);
  });
  core_->service<ReadTrackers>().add(
      [weak_connection = std::weak_ptr<Connection>(tracked->connection)] {
        if (auto connection = weak_connection.lock()) connection->close();
      });
  // Queued before any read: the first command sent once connected.
  enable_tracking(tracked);
  tracked->connection->start([](std::error_code) {});
  connections_.emplace(address, tracked);
  return tracked;
}

void ReadTracker::on_state(const std::shared_ptr<Tracked>& tracked, bool ready) {
  if (!ready) {
    tracked->tracking = false;
    ++tracked->generation;
    std::lock_guard lock(mutex_);
    drop_connection(tracked->id);
    return;
  }
  if (tracked->connection->protocol() != 3) {
    if (!refused_reported_) {
      refused_reported_ = true;
      report_failure(core_->config(), error(errc::not_supported,
                                            "ClientSideCaching: the server speaks no RESP3 "
                                            "(needed for CLIENT TRACKING): nothing is cached"));
    }
    return;
  }
  // Back after a loss: tracking again (the first connect's request was queued at creation).
  if (tracked->generation > 0 && !tracked->tracking) enable_tracking(tracked);
}

void ReadTracker::enable_tracking(const std::shared_ptr<Tracked>& tracked) {
  const auto deadline = Clock::now() + core_->config().command_timeout;
  tracked->connection->submit(
      Command{"CLIENT", "TRACKING", "ON"}, deadline,
      [weak = weak_from_this(), tracked, generation = tracked->generation](std::error_code ec,
                                                                           const Reply& reply) {
        auto self = weak.lock();
        if (!self || tracked->generation != generation) return;
        if (ec || reply.is_error()) {
          report_failure(self->core_->config(),
                         error(ec ? ec : make_error_code(errc::server_error),
                               "ClientSideCaching: CLIENT TRACKING ON failed: " + reply.str));
          return;
        }
        // Without RESP3 the server would track and never tell: nothing is cached then.
        tracked->tracking = tracked->connection->protocol() == 3;
      });
}

void ReadTracker::on_push(std::uint64_t connection, const Reply& push) {
  if (!push.is_aggregate() || push.elements.size() < 2 || push.elements[0].str != "invalidate") {
    return;
  }
  std::lock_guard lock(mutex_);
  const auto& keys = push.elements[1];
  if (keys.is_null()) return drop_connection(connection);  // FLUSHALL / FLUSHDB
  for (const auto& key : keys.elements) drop_key(key.str);
}

void ReadTracker::store(std::string cache_key, std::string key, std::uint64_t connection,
                        const Reply& reply) {
  const auto now = Clock::now();
  if (const auto found = entries_.find(cache_key); found != entries_.end()) erase_entry(found);
  using Policy = ClientSideCachingOptions::EvictionPolicy;
  if (options_.eviction_policy != Policy::none) {
    while (entries_.size() >= options_.size && !eviction_.empty()) {
      erase_entry(entries_.find(eviction_.begin()->second));
    }
  }
  Entry entry;
  entry.reply = reply;
  entry.key = key;
  entry.connection = connection;
  entry.stored = now;
  entry.used = now;
  entry.uses = 1;
  entry.order = rank(entry);
  by_key_.emplace(std::move(key), cache_key);
  eviction_.emplace(entry.order, cache_key);
  entries_.emplace(std::move(cache_key), std::move(entry));
}

// The eviction index's order: least recently used first (LRU, and none), or least often used
// first with ties to the least recent (LFU). Ticks are unique, so no two entries share a rank.
std::uint64_t ReadTracker::rank(const Entry& entry) {
  const auto tick = tick_++;
  using Policy = ClientSideCachingOptions::EvictionPolicy;
  if (options_.eviction_policy == Policy::lfu) {
    return (std::min<std::uint64_t>(entry.uses, 0xFFFF) << 48) | (tick & 0xFFFFFFFFFFFF);
  }
  return tick;
}

void ReadTracker::erase_entry(std::unordered_map<std::string, Entry>::iterator entry) {
  if (entry == entries_.end()) return;
  eviction_.erase({entry->second.order, entry->first});
  auto [begin, end] = by_key_.equal_range(entry->second.key);
  for (auto it = begin; it != end; ++it) {
    if (it->second == entry->first) {
      by_key_.erase(it);
      break;
    }
  }
  entries_.erase(entry);
}

void ReadTracker::drop_key(std::string_view key) {
  auto [begin, end] = by_key_.equal_range(std::string(key));
  std::vector<std::string> commands;
  for (auto it = begin; it != end; ++it) commands.push_back(it->second);
  for (const auto& command : commands) {
    erase_entry(entries_.find(command));
    ++stats_.invalidations;
  }
}

void ReadTracker::drop_connection(std::uint64_t connection) {
  std::vector<std::string> commands;
  for (const auto& [command, entry] : entries_) {
    if (entry.connection == connection) commands.push_back(command);
  }
  for (const auto& command : commands) {
    erase_entry(entries_.find(command));
    ++stats_.invalidations;
  }
}

bool ReadTracker::expired(const Entry& entry, Clock::time_point now) const {
  if (options_.time_to_live.count() > 0 && now - entry.stored >= options_.time_to_live) {
    return true;
  }
  return options_.max_idle.count() > 0 && now - entry.used >= options_.max_idle;
}

std::size_t ReadTracker::stripe_of(std::string_view key) {
  return std::hash<std::string_view>{}(key) % std::tuple_size_v<decltype(write_epochs_)>;
}

void ReadTracker::wrote(std::string_view key) {
  std::lock_guard lock(mutex_);
  ++write_epochs_[stripe_of(key)];
  drop_key(key);
}

ClientSideCacheStats ReadTracker::stats() const {
  std::lock_guard lock(mutex_);
  auto stats = stats_;
  stats.entries = entries_.size();
  return stats;
}

void ReadTracker::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
  by_key_.clear();
  eviction_.clear();
}

}  // namespace redisson::detail

namespace redisson {

ClientSideCaching::ClientSideCaching(const Client& client, ClientSideCachingOptions options)
    : client_(&client),
      tracker_(std::make_shared<detail::ReadTracker>(detail::ClientAccess::core(client), options)) {
}

void ClientSideCaching::bind(Object& object) const {
  auto bound = std::make_shared<detail::ObjectState>(*object.object_);
  bound->tracking = tracker_;
  object.object_ = std::move(bound);
}

void ClientSideCaching::refuse_codec() {
  throw error(errc::invalid_argument, "ClientSideCaching::get: this object type takes no codec");
}

ClientSideCacheStats ClientSideCaching::stats() const { return tracker_->stats(); }

void ClientSideCaching::clear() const { tracker_->clear(); }

}  // namespace redisson
